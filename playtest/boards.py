"""Board components: a state becomes a scene in a few lines. "Draw this board, put these pieces
on it": each component knows its coordinates and their labels, and :func:`board_view` lights the
legal targets from the game's own legal actions, buttons for actions with no place on a board,
and tells a click on any other place why not, from the game's one legality decision.

>>> import playtest
>>> from playtest.boards import Grid, board_view
>>> game = playtest.load("tic_tac_toe")
>>> state = game.apply(game.initial_state(), game.legal_actions(game.initial_state())[4])
>>> grid = Grid(3, 3).piece((1, 1), "cross", seat=0)
>>> scene = board_view(game, state, None, grid, at=lambda a: (a.cell % 3, a.cell // 3))
>>> sorted(scene["moves"])[:2], scene["reasons"]["board:1,1"]
(['board:0,0', 'board:0,1'], 'that cell is taken (rule T2)')

Components: :class:`Grid` (square cells; X/O-friendly shapes: ``cross``, ``ring``, ``circle``,
``square``, ``triangle``, ``diamond``, ``hexagon``), :class:`Points` (go-style intersections),
:class:`Ring` (slots on a circle), :class:`Hex` (hexagonal cells, axial coordinates, pointy or
flat), :class:`Track` (a race or score track), :class:`Hand` (cards face up or down per viewer),
:class:`Deck` (a deck or bag with a count) and :class:`Dice`.
"""

from __future__ import annotations

from typing import Any, Callable, Iterable, Sequence

from .kernel import CHANCE, SIMULTANEOUS, Game
from .kernel.game import _overrides
from .scene import Scene

__all__ = ["Board", "Grid", "Points", "Ring", "Hex", "Track", "Hand", "Deck", "Dice", "board_view",
           "LETTERS", "SHAPES"]

LETTERS = "abcdefghijklmnopqrstuvwxyz"
#: the piece shapes the renderer draws
SHAPES = ("circle", "ring", "cross", "square", "triangle", "diamond", "hexagon")
Coord = Any   # (col, row) on grids and points, an int on rings and tracks, (q, r) on hex boards


class Board:
    """A board of the scene: its places, what stands on them, and their ids (``name:c,r``)."""

    kind = "grid"

    def __init__(self, name: str = "board", title: str = ""):
        self.name = name
        self.title = title
        self._cells: dict[Any, dict[str, Any]] = {}
        self._pieces: list[tuple[Any, dict[str, Any]]] = []

    # what stands on the board
    def piece(self, at: Coord, shape: str = "circle", color: str | None = None, *, seat: int | None = None,
              text: str | None = None, **look: Any) -> "Board":
        """Put a piece on ``at``: ``seat`` gives its colour (the seat's), or give ``color``.
        ``look`` takes ``size`` (0..1), ``dim``, ``double``, ``hollow``, ``title``."""
        if shape not in SHAPES:
            raise ValueError(f"unknown piece shape {shape!r}; the shapes are {', '.join(SHAPES)}")
        self._check(at)
        self._pieces.append((at, {"shape": shape, "color": color, "seat": seat, "text": text, **look}))
        return self

    def cell(self, at: Coord, fill: str | None = None, text: str | None = None, **look: Any) -> "Board":
        """Colour or write on the place ``at`` (a tile's fill, a number, a ``title`` tooltip)."""
        self._check(at)
        self._cells[_key(at)] = {"fill": fill, "text": text, **look}
        return self

    # geometry, for subclasses
    def places(self) -> Iterable[Coord]:
        """Every place of the board."""
        raise NotImplementedError

    def geometry(self) -> dict[str, Any]:
        """The board's entry in the scene (kind, size, labels)."""
        raise NotImplementedError

    def id_of(self, at: Coord) -> str:
        """The id of the place ``at`` (what the scene's moves and reasons are keyed by)."""
        return f"{self.name}:{at}" if isinstance(at, int) else f"{self.name}:{','.join(map(str, at))}"

    def _check(self, at: Coord) -> None:
        if _key(at) not in {_key(p) for p in self.places()}:
            raise ValueError(f"{at!r} is not a place of the board {self.name!r}")

    def draw(self, scene: Scene, game: Game[Any, Any, Any]) -> None:
        """Add the board, a tile on every place, and the pieces to ``scene``."""
        scene.board(self.name, self.kind, title=self.title, **self.geometry())
        for at in self.places():
            look = self._cells.get(_key(at), {})
            scene.cell(self.name, at, id=self.id_of(at), **{k: v for k, v in look.items() if v is not None})
        seats = game.seats()
        for at, look in self._pieces:
            look = dict(look)
            seat = look.pop("seat")
            color = look.pop("color") or (seats[seat].color if seat is not None and 0 <= seat < len(seats) else "#444")
            shape = look.pop("shape")
            scene.piece(self.name, at, shape, color, **{k: v for k, v in look.items() if v is not None})


def _key(at: Coord) -> Any:
    return at if isinstance(at, int) else tuple(at)


class Grid(Board):
    """Square cells ``(col, row)``, ``cols`` x ``rows``; ``flip`` puts row 0 at the bottom;
    ``labels``: ``"chess"`` (a, b, ... and 1, 2, ...), ``"numbers"`` (0, 1, ...) or ``None``."""

    kind = "grid"

    def __init__(self, cols: int, rows: int, *, name: str = "board", title: str = "", cell: int = 48,
                 flip: bool = False, labels: str | None = "chess"):
        super().__init__(name, title)
        for what, value in (("cols", cols), ("rows", rows)):
            if type(value) is not int or not 1 <= value <= 64:
                raise ValueError(f"{type(self).__name__} {what} must be a whole number from 1 to 64, not {value!r}")
        self.cols, self.rows, self.size, self.flip, self.labels = cols, rows, cell, flip, labels

    def places(self) -> Iterable[Coord]:
        return [(c, r) for r in range(self.rows) for c in range(self.cols)]

    def label(self, at: Coord) -> str:
        """The place as its labels write it (``b3``)."""
        c, r = at
        if self.labels == "chess":
            return f"{LETTERS[c % 26]}{r + 1}"
        return f"{c},{r}"

    def geometry(self) -> dict[str, Any]:
        geometry: dict[str, Any] = {"cols": self.cols, "rows": self.rows, "cell": self.size}
        if self.flip:
            geometry["flip"] = True
        if self.labels == "chess":
            geometry["labels"] = {"cols": [LETTERS[c % 26] for c in range(self.cols)],
                                  "rows": [str(r + 1) for r in range(self.rows)]}
        elif self.labels == "numbers":
            geometry["labels"] = {"cols": [str(c) for c in range(self.cols)], "rows": [str(r) for r in range(self.rows)]}
        return geometry


class Points(Grid):
    """Go-style intersections ``(col, row)`` of ``cols`` x ``rows`` lines."""

    kind = "points"

    def geometry(self) -> dict[str, Any]:
        geometry = super().geometry()
        geometry["spacing"] = geometry.pop("cell")
        return geometry


class Ring(Board):
    """``slots`` places on a circle, numbered from 0 at the top, clockwise."""

    kind = "ring"

    def __init__(self, slots: int, *, name: str = "board", title: str = "", slot: int = 34, labels: bool = True):
        super().__init__(name, title)
        if type(slots) is not int or not 2 <= slots <= 200:
            raise ValueError(f"Ring slots must be a whole number from 2 to 200, not {slots!r}")
        self.slots, self.size, self.labels = slots, slot, labels

    def places(self) -> Iterable[Coord]:
        return range(self.slots)

    def geometry(self) -> dict[str, Any]:
        geometry: dict[str, Any] = {"slots": self.slots, "slot": self.size}
        if self.labels:
            geometry["labels"] = {"slots": [str(i) for i in range(self.slots)]}
        return geometry


class Track(Grid):
    """A race or score track of ``length`` places (0 .. length-1), laid out in rows of
    ``per_row`` that run back and forth like a board game's track."""

    def __init__(self, length: int, *, per_row: int = 10, name: str = "track", title: str = "", cell: int = 36):
        if type(length) is not int or not 1 <= length <= 400:
            raise ValueError(f"Track length must be a whole number from 1 to 400, not {length!r}")
        per_row = max(1, min(per_row, length))
        super().__init__(per_row, -(-length // per_row), name=name, title=title, cell=cell, labels=None)
        self.length, self.per_row = length, per_row

    def places(self) -> Iterable[Coord]:
        return range(self.length)

    def where(self, at: int) -> tuple[int, int]:
        """The grid cell of track place ``at`` (rows run back and forth)."""
        row, col = divmod(at, self.per_row)
        return (col if row % 2 == 0 else self.per_row - 1 - col, row)

    def draw(self, scene: Scene, game: Game[Any, Any, Any]) -> None:
        scene.board(self.name, "grid", title=self.title, **self.geometry())
        seats = game.seats()
        for at in self.places():
            look = {"text": str(at), **{k: v for k, v in self._cells.get(at, {}).items() if v is not None}}
            scene.cell(self.name, self.where(at), id=self.id_of(at), **look)
        stacked: dict[int, int] = {}
        for at, look in self._pieces:
            look = dict(look)
            seat = look.pop("seat")
            color = look.pop("color") or (seats[seat].color if seat is not None else "#444")
            shape = look.pop("shape")
            k = stacked[at] = stacked.get(at, -1) + 1          # several pieces on one place: side by side
            c, r = self.where(at)
            scene.piece(self.name, (c + 0.12 * k, r), shape, color, size=look.pop("size", 0.45),
                        **{key: v for key, v in look.items() if v is not None})


class Hex(Board):
    """Hexagonal cells in axial coordinates ``(q, r)``: a hexagon-shaped board of ``radius``
    (cells with ``max(|q|, |r|, |q + r|) <= radius``) or given ``cells``; ``orientation``
    ``"pointy"`` (rows of hexes) or ``"flat"`` (columns)."""

    kind = "hex"

    def __init__(self, radius: int | None = 3, *, cells: Sequence[tuple[int, int]] | None = None,
                 orientation: str = "pointy", name: str = "board", title: str = "", size: int = 26,
                 labels: bool = True):
        super().__init__(name, title)
        if orientation not in ("pointy", "flat"):
            raise ValueError(f"Hex orientation must be pointy or flat, not {orientation!r}")
        if cells is None:
            if type(radius) is not int or not 0 <= radius <= 20:
                raise ValueError(f"Hex radius must be a whole number from 0 to 20, not {radius!r}")
            cells = [(q, r) for r in range(-radius, radius + 1) for q in range(-radius, radius + 1)
                     if abs(q + r) <= radius]
        self.cells = [tuple(c) for c in cells]
        if len(self.cells) > 2_000 or any(len(c) != 2 or not all(type(v) is int for v in c) for c in self.cells):
            raise ValueError("Hex cells must be at most 2,000 pairs of whole numbers (q, r)")
        self.orientation, self.size, self.labels = orientation, size, labels

    def places(self) -> Iterable[Coord]:
        return self.cells

    def label(self, at: Coord) -> str:
        """The cell as the board writes it: ``q,r``."""
        return f"{at[0]},{at[1]}"

    def geometry(self) -> dict[str, Any]:
        geometry: dict[str, Any] = {"cells": [list(c) for c in self.cells], "size": self.size,
                                    "orientation": self.orientation}
        if self.labels:
            geometry["labels"] = {"cells": [self.label(c) for c in self.cells]}
        return geometry


class Hand(Grid):
    """A seat's cards in a row: face up to ``viewer`` when it is the ``owner`` (or ``revealed``),
    face down (``?``) to everyone else. ``cards`` are texts (``"K"``, ``"7♥"``); ``what`` names one
    of them in the board's tooltips (``what="die"`` for a cup of dice only its owner sees).

    >>> cup = Hand(["3", "5"], owner=0, viewer=1, what="die")
    >>> [look["title"] for look in cup._cells.values()]
    ['a face-down die', 'a face-down die']
    """

    def __init__(self, cards: Sequence[str], *, owner: int, viewer: int | None, revealed: bool = False,
                 name: str = "hand", title: str = "", cell: int = 44, what: str = "card"):
        super().__init__(max(1, len(cards)), 1, name=name, title=title, cell=cell, labels=None)
        self.faces = [str(c) for c in cards]
        self.shown = revealed or viewer == owner
        for i, card in enumerate(self.faces):
            if self.shown:
                self.cell((i, 0), "#ffffff", card, title=f"{what} {card}")
            else:
                self.cell((i, 0), "#7b8da6", "?", title=f"a face-down {what}")

    def id_of(self, at: Coord) -> str:
        return f"{self.name}:{at[0]}" if not isinstance(at, int) else f"{self.name}:{at}"


class Deck(Grid):
    """A deck or bag: one place showing how many are left (what it holds stays hidden)."""

    def __init__(self, count: int, *, name: str = "deck", title: str = "", what: str = "cards", cell: int = 44):
        super().__init__(1, 1, name=name, title=title or f"{count} {what} left", cell=cell, labels=None)
        self.cell((0, 0), "#7b8da6", str(count), title=f"{count} {what} left")


class Dice(Grid):
    """Dice showing their faces (``None``: not rolled yet)."""

    def __init__(self, faces: Sequence[int | None], *, name: str = "dice", title: str = "", cell: int = 40):
        super().__init__(max(1, len(faces)), 1, name=name, title=title, cell=cell, labels=None)
        for i, face in enumerate(faces):
            self.cell((i, 0), "#fffdf5", "–" if face is None else str(face),
                      title="not rolled yet" if face is None else f"a die showing {face}")


# ------------------------------------------------------------------ the whole view

def board_view(game: Game[Any, Any, Any], state: Any, viewer: int | None, *boards: Board,
               at: Callable[[Any], Any] | None = None, select: Callable[[Any], Any] | None = None,
               panels: Iterable[tuple[str, Iterable[Iterable[Any]]]] = (), hint: str | None = None) -> dict[str, Any]:
    """The scene of ``state`` for ``viewer``: ``boards`` drawn side by side, the legal targets lit.

    ``at(action)`` says where an action is clicked: a place of the first board, ``(board_name,
    place)``, or ``None`` for a button under the boards (pass, end turn). ``select(action)``, when
    given, is the place clicked first (a piece that moves), ``at`` the place it goes to. A place
    with nothing to click says why (the game's ``why_not`` for a candidate action there).
    Who may act: in a turn game without secrets the table plays the seat to move; in a game with
    secrets or a simultaneous step only a seat-bound view (``viewer`` a seat) gets its own actions.
    """
    scene = Scene()
    for board in boards:
        board.draw(scene, game)
    named = {b.name: b for b in boards}
    first = boards[0] if boards else None

    def place(where: Any) -> str | None:
        if where is None or first is None:
            return None
        if isinstance(where, tuple) and len(where) == 2 and isinstance(where[0], str) and where[0] in named:
            return named[where[0]].id_of(where[1])
        return first.id_of(where)

    mover = game.to_move(state)
    actions = _actions_for(game, state, viewer)
    for action in actions:
        label = game.notation(state, action, viewer)
        target = place(at(action)) if at is not None else None
        origin = place(select(action)) if select is not None else None
        if target is None:
            scene.button(label, action.to_json())
        elif origin is not None:
            scene.select(origin, target, label, action.to_json())
        else:
            scene.move(target, label, action.to_json())
    _reasons(game, state, viewer, scene, at, place, select)
    for title, rows in panels:
        scene.panel(title, rows)
    seats = game.seats()
    if mover is None:
        outcome = game.outcome(state)
        scene.status(f"Game over: {outcome.reason}" if outcome else "Game over")
        scene.hint(hint or "The game is over.")
    elif mover == CHANCE:
        scene.status("Chance to resolve")
        scene.hint(hint or ("Roll, or force an outcome." if viewer is None
                            else "Roll: chance decides (a seat's table forces no outcome)."))
    elif mover == SIMULTANEOUS:
        scene.status(game.describe_state(state))
        scene.hint(hint or ("Each seat gives its order in private." if viewer is None
                            else f"{seats[viewer].name}: your order." if actions
                            else f"{seats[viewer].name}: nothing to order now; wait for the others."))
    else:
        scene.status(f"{seats[mover].name} to move", seats[mover].color, seats[mover].shape)
        drawn = scene.to_json()
        placed, buttons = bool(drawn["moves"] or drawn["selects"]), any("action" in b for b in drawn["buttons"])
        where = "a lit place or a button" if placed and buttons else "a lit place" if placed else "a button"
        scene.hint(hint or (f"{seats[mover].name}: click {where}." if actions else "Wait for your turn."))
    scene.cite_rules(game.name)
    return scene.to_json()


def _actions_for(game: Game[Any, Any, Any], state: Any, viewer: int | None) -> list[Any]:
    mover = game.to_move(state)
    if mover is None or mover == CHANCE:
        return []
    if mover == SIMULTANEOUS or game.has_secrets:
        return [] if viewer is None else list(game.legal_actions(state, viewer))
    if viewer is not None and viewer != mover:
        return []
    return list(game.legal_actions(state))


def _reasons(game: Game[Any, Any, Any], state: Any, viewer: int | None, scene: Scene,
             at: Callable[[Any], Any] | None, place: Callable[[Any], str | None],
             select: Callable[[Any], Any] | None = None) -> None:
    """Why a place cannot be clicked: the refusal of a candidate action there (the one decision).
    With ``select``, a piece none of whose candidates is legal says why first (a click on a piece
    means that piece), then the targets."""
    mover = game.to_move(state)
    if at is None or mover is None or mover == CHANCE or not _overrides(type(game), "candidates"):
        return
    clickable = set(scene.to_json()["moves"]) | set(scene.to_json()["selects"])
    seat = viewer if mover == SIMULTANEOUS or game.has_secrets else mover
    if seat is None:
        return
    try:
        candidates = list(game.candidates(state, seat))[:400]
    except Exception:
        return
    ends = [select, at] if select is not None else [at]
    for end in ends:
        for action in candidates:
            target = place(end(action))
            if target is None or target in clickable or target in scene.to_json()["reasons"]:
                continue
            refusal = game.check(state, action, seat)
            if refusal is not None:
                scene.reason(target, str(refusal))
