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
class _OnTile(Action):
    """An action on one tile ``at``, written ``{verb} {tile}``."""

    verb: ClassVar[str] = ""
    at: tuple

    def __post_init__(self) -> None:
        object.__setattr__(self, "at", _pair(self.at))   # JSON gives lists: equal actions must compare equal

    def __str__(self) -> str:
        return f"{self.verb} {cell_text(self.at)}"


@dataclass(frozen=True, slots=True)
class _OnEdge(Action):
    """An action on the edge between tiles ``a`` and ``b`` (kept in order), written ``{verb} {a}|{b}``."""

    verb: ClassVar[str] = ""
    a: tuple
    b: tuple

    def __post_init__(self) -> None:
        a, b = _sorted_pair(self.a, self.b)
        object.__setattr__(self, "a", a)
        object.__setattr__(self, "b", b)

    def __str__(self) -> str:
        return f"{self.verb} {cell_text(self.a)}|{cell_text(self.b)}"


@dataclass(frozen=True, slots=True)
class _ToTile(Action):
    """A token's move onto tile ``to``, written ``{arrow}{tile}``."""

    arrow: ClassVar[str] = ""
    to: tuple

    def __post_init__(self) -> None:
        object.__setattr__(self, "to", _pair(self.to))

    def __str__(self) -> str:
        return f"{self.arrow}{cell_text(self.to)}"


@dataclass(frozen=True, slots=True)
class PlaceObstacle(_OnTile):
    """Setup with ``obstacle_setup = "players_place_in_turn"``: put an obstacle on ``at``."""

    kind: ClassVar[str] = "place_obstacle"
    verb: ClassVar[str] = "place"


@dataclass(frozen=True, slots=True)
class Start(_OnTile):
    """A token player puts their token on the start circle ``at``."""

    kind: ClassVar[str] = "start"
    verb: ClassVar[str] = "start"


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
class Build(_OnEdge):
    """The wall player builds a wall segment on the edge between tiles ``a`` and ``b``."""

    kind: ClassVar[str] = "build"
    verb: ClassVar[str] = "wall"


@dataclass(frozen=True, slots=True)
class Remove(_OnEdge):
    """The wall player picks up the wall between ``a`` and ``b`` (standing, or built this turn)."""

    kind: ClassVar[str] = "remove"
    verb: ClassVar[str] = "remove"


@dataclass(frozen=True, slots=True)
class Buy(_OnTile):
    """The wall player buys an obstacle and puts it on ``at`` (permanent)."""

    kind: ClassVar[str] = "buy"
    verb: ClassVar[str] = "buy"


@dataclass(frozen=True, slots=True)
class Step(_ToTile):
    """The token to move steps orthogonally onto ``to``."""

    kind: ClassVar[str] = "step"
    arrow: ClassVar[str] = "→"


@dataclass(frozen=True, slots=True)
class Jump(_ToTile):
    """The token to move jumps diagonally onto ``to`` (between two obstacles, or an obstacle and a wall)."""

    kind: ClassVar[str] = "jump"
    arrow: ClassVar[str] = "⤢"


def cell_text(cell: Any) -> str:
    """``[3, 4]`` as ``d5`` (chess-style); anything malformed as it is."""
    try:
        c, r = cell
        if isinstance(c, int) and isinstance(r, int) and 0 <= c < 26 and r >= 0:
            return f"{LETTERS[c]}{r + 1}"
    except (TypeError, ValueError):
        pass
    return repr(cell)


