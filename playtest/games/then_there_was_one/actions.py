"""Then There Was One's actions: small immutable values with a readable notation and a JSON form.

Tiles are ``(col, row)``; a wall is named by the two tiles it lies between.

>>> str(Build((4, 6), (4, 5))), Build((4, 6), (4, 5)).to_json()
('wall e6|e7', {'kind': 'build', 'a': [4, 5], 'b': [4, 6]})
>>> str(Jump((4, 6))), cell_text((3, 4)), cell_text("x")
('⤢e7', 'd5', "'x'")
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

from ...geometry import LETTERS
from ...rules import Action

__all__ = ["Scatter", "PlaceObstacle", "Start", "Choose", "Build", "Remove", "Buy", "Step", "Jump", "cell_text"]


def _pair(value: Any) -> tuple:
    return tuple(value) if isinstance(value, list) else value


@dataclass(frozen=True, slots=True)
class Scatter(Action):
    """The setup scatter (the chance outcome): every obstacle tile ``[col, row]``."""

    kind: ClassVar[str] = "scatter"
    cells: tuple

    def __post_init__(self) -> None:
        if isinstance(self.cells, (list, tuple)):
            object.__setattr__(self, "cells", tuple(_pair(c) for c in self.cells))

    def __str__(self) -> str:
        return "scatter " + " ".join(cell_text(c) for c in self.cells)


@dataclass(frozen=True, slots=True)
class PlaceObstacle(Action):
    """Setup with ``obstacle_setup = "players_place_in_turn"``: put an obstacle on ``at``."""

    kind: ClassVar[str] = "place_obstacle"
    at: tuple

    def __post_init__(self) -> None:
        object.__setattr__(self, "at", _pair(self.at))

    def __str__(self) -> str:
        return f"place {cell_text(self.at)}"


@dataclass(frozen=True, slots=True)
class Start(Action):
    """A token player puts their token on the start circle ``at``."""

    kind: ClassVar[str] = "start"
    at: tuple

    def __post_init__(self) -> None:
        object.__setattr__(self, "at", _pair(self.at))

    def __str__(self) -> str:
        return f"start {cell_text(self.at)}"


@dataclass(frozen=True, slots=True)
class Choose(Action):
    """With ``token_turn_order = "team_chooses_order"``: token seat ``seat`` moves next."""

    kind: ClassVar[str] = "choose"
    seat: int

    def __str__(self) -> str:
        return f"seat {self.seat} next"


def _sorted_pair(a: Any, b: Any) -> tuple:
    a, b = _pair(a), _pair(b)
    try:
        return (a, b) if a <= b else (b, a)
    except TypeError:
        return (a, b)


@dataclass(frozen=True, slots=True)
class Build(Action):
    """The wall player builds a wall segment on the edge between tiles ``a`` and ``b``."""

    kind: ClassVar[str] = "build"
    a: tuple
    b: tuple

    def __post_init__(self) -> None:
        a, b = _sorted_pair(self.a, self.b)
        object.__setattr__(self, "a", a)
        object.__setattr__(self, "b", b)

    def __str__(self) -> str:
        return f"wall {cell_text(self.a)}|{cell_text(self.b)}"


@dataclass(frozen=True, slots=True)
class Remove(Action):
    """The wall player picks up the wall between ``a`` and ``b`` (standing, or built this turn)."""

    kind: ClassVar[str] = "remove"
    a: tuple
    b: tuple

    def __post_init__(self) -> None:
        a, b = _sorted_pair(self.a, self.b)
        object.__setattr__(self, "a", a)
        object.__setattr__(self, "b", b)

    def __str__(self) -> str:
        return f"remove {cell_text(self.a)}|{cell_text(self.b)}"


@dataclass(frozen=True, slots=True)
class Buy(Action):
    """The wall player buys an obstacle and puts it on ``at`` (permanent)."""

    kind: ClassVar[str] = "buy"
    at: tuple

    def __post_init__(self) -> None:
        object.__setattr__(self, "at", _pair(self.at))

    def __str__(self) -> str:
        return f"buy {cell_text(self.at)}"


@dataclass(frozen=True, slots=True)
class Step(Action):
    """The token to move steps orthogonally onto ``to``."""

    kind: ClassVar[str] = "step"
    to: tuple

    def __post_init__(self) -> None:
        object.__setattr__(self, "to", _pair(self.to))

    def __str__(self) -> str:
        return f"→{cell_text(self.to)}"


@dataclass(frozen=True, slots=True)
class Jump(Action):
    """The token to move jumps diagonally onto ``to`` (between two obstacles, or an obstacle and a wall)."""

    kind: ClassVar[str] = "jump"
    to: tuple

    def __post_init__(self) -> None:
        object.__setattr__(self, "to", _pair(self.to))

    def __str__(self) -> str:
        return f"⤢{cell_text(self.to)}"


def cell_text(cell: Any) -> str:
    """``[3, 4]`` as ``d5`` (chess-style); anything malformed as it is."""
    try:
        c, r = cell
        if isinstance(c, int) and isinstance(r, int) and 0 <= c < 26 and r >= 0:
            return f"{LETTERS[c]}{r + 1}"
    except (TypeError, ValueError):
        pass
    return repr(cell)


