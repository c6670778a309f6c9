"""Then There Was One's actions, declared: small immutable values with a readable notation and a JSON form.

Tiles are ``(col, row)``; a wall is named by the two tiles it lies between (kept in order).

>>> str(Build((4, 6), (4, 5))), Build((4, 6), (4, 5)).to_json()
('wall e6|e7', {'kind': 'build', 'a': [4, 5], 'b': [4, 6]})
>>> str(Jump((4, 6))), cell_text((3, 4)), cell_text("x")
('⤢e7', 'd5', "'x'")
>>> Step.from_json({"kind": "step", "to": [2, "x"]})
Traceback (most recent call last):
...
playtest.rules.MalformedAction: malformed step action: to[1] must be a whole number, not 'x'
"""

from __future__ import annotations

from typing import Any, ClassVar

from ...geometry import LETTERS
from ...kernel import Action

__all__ = ["Scatter", "PlaceObstacle", "Start", "Choose", "Build", "Remove", "Buy", "Step", "Jump", "cell_text"]

Tile = tuple[int, int]


def _pair(value: Any) -> Any:
    return tuple(value) if isinstance(value, list) else value


class Scatter(Action):
    """The setup scatter (the chance outcome): every obstacle tile ``[col, row]``."""

    cells: tuple[Tile, ...]

    def __post_init__(self) -> None:
        if isinstance(self.cells, (list, tuple)):
            object.__setattr__(self, "cells", tuple(_pair(c) for c in self.cells))

    def __str__(self) -> str:
        return "scatter " + " ".join(cell_text(c) for c in self.cells)


class _OnTile(Action):
    """An action on one tile ``at``, written ``{verb} {tile}``."""

    verb: ClassVar[str] = ""
    at: Tile

    def __post_init__(self) -> None:
        object.__setattr__(self, "at", _pair(self.at))   # lists given: equal actions must compare equal

    def __str__(self) -> str:
        return f"{self.verb} {cell_text(self.at)}"


class _OnEdge(Action):
    """An action on the edge between tiles ``a`` and ``b`` (kept in order), written ``{verb} {a}|{b}``."""

    verb: ClassVar[str] = ""
    a: Tile
    b: Tile

    def __post_init__(self) -> None:
        a, b = _pair(self.a), _pair(self.b)
        try:
            if b < a:
                a, b = b, a
        except TypeError:
            pass
        object.__setattr__(self, "a", a)
        object.__setattr__(self, "b", b)

    def __str__(self) -> str:
        return f"{self.verb} {cell_text(self.a)}|{cell_text(self.b)}"


class _ToTile(Action):
    """A token's move onto tile ``to``, written ``{arrow}{tile}``."""

    arrow: ClassVar[str] = ""
    to: Tile

    def __post_init__(self) -> None:
        object.__setattr__(self, "to", _pair(self.to))

    def __str__(self) -> str:
        return f"{self.arrow}{cell_text(self.to)}"


class PlaceObstacle(_OnTile):
    """Setup with ``obstacle_setup = "players_place_in_turn"``: put an obstacle on ``at``."""

    verb = "place"


class Start(_OnTile):
    """A token player puts their token on the start circle ``at``."""

    verb = "start"


class Choose(Action):
    """With ``token_turn_order = "team_chooses_order"``: token seat ``seat`` moves next."""

    seat: int

    def __str__(self) -> str:
        return f"seat {self.seat} next"


class Build(_OnEdge):
    """The wall player builds a wall segment on the edge between tiles ``a`` and ``b``."""

    verb = "wall"


class Remove(_OnEdge):
    """The wall player picks up the wall between ``a`` and ``b`` (standing, or built this turn)."""

    verb = "remove"


class Buy(_OnTile):
    """The wall player buys an obstacle and puts it on ``at`` (permanent)."""

    verb = "buy"


class Step(_ToTile):
    """The token to move steps orthogonally onto ``to``."""

    arrow = "→"


class Jump(_ToTile):
    """The token to move jumps diagonally onto ``to`` (between two obstacles, or an obstacle and a wall)."""

    arrow = "⤢"


def cell_text(cell: Any) -> str:
    """``[3, 4]`` as ``d5`` (chess-style); anything malformed as it is."""
    try:
        c, r = cell
        if isinstance(c, int) and isinstance(r, int) and 0 <= c < 26 and r >= 0:
            return f"{LETTERS[c]}{r + 1}"
    except (TypeError, ValueError):
        pass
    return repr(cell)
