"""Scenes: the plain-JSON pictures that the one board renderer draws.

A game's ``view(state, seat)`` returns a scene. The renderer in
``widgets/static/board/`` draws any scene as SVG and knows nothing of any
game: what is on the board, what can be clicked and what a click commits are
all in the scene. This module is the format's reference and a small builder
that keeps games from writing the dictionaries by hand.

Format
------
A scene is a dict::

    {
      "boards":  [board, ...],        # drawn side by side, left to right
      "items":   [item, ...],         # drawn in list order (later = on top)
      "moves":   {item_id: [option, ...]},                # clickable now
      "selects": {item_id: {target_id: [option, ...]}},   # click to select
      "buttons": [option, ...],       # buttons under the board ("End turn")
      "reasons": {item_id: "why this cannot be clicked now"},
      "hint":    "what the player to move can do",
      "status":  {"text": "...", "color": "#c33", "shape": "triangle"},
      "panels":  [{"title": "...", "rows": [["cell", "cell"], ...]}],
      "last":    [item_id, ...],      # what the last move touched: outlined
      "rules":   {"A.1 §14.3": "A.1 §14.3 Clearance from tokens\n..."},  # cited rules' text
      "legend":  [{"text": "standing wall", "item": {"kind": "edge", "style": "old"}}, ...],
      "version": 7,                   # set by the widget, grows on every redraw
    }

``option`` is ``{"label": "Place (1 AP)", "action": {...}}`` where ``action``
is the JSON form of an action of the game. A click on an item of ``moves``
commits its option when it has one, or opens a small menu of the labels when
it has several. A click on an item of ``selects`` selects it and highlights
its targets (in the browser, with no round trip to the kernel); a click on a
target then commits (or opens the menu). Only a committed action is sent to
Python. A click on anything else shows ``reasons[item_id]`` if present, else
the ``hint``. When that text cites a rule (``... (rule A.1 §14.3)``) and
``rules`` has its text, the text is shown below the board (see
:meth:`Scene.cite_rules`).

``last`` lists the ids of the items the last move touched (a bot's too):
the renderer outlines each of them in one colour of its own (CSS class
``pt-last``) and says under the board that the outline is the last move.
Each id is marked once, on its cell, edge or gap when it has one, else on
its piece. A panel cell's text keeps its line breaks and wraps.

Boards (every board has ``id``, ``kind``, an optional ``title`` and optional
``labels``, the coordinates written beside it in the game's own words, as its
notation writes them):

* ``{"kind": "grid", "cols": 10, "rows": 14, "cell": 36, "flip": true}``:
  square cells addressed ``[col, row]``; ``flip`` draws row 0 at the bottom.
  Board units: the lattice, cell ``[c, r]`` spans ``c..c+1`` and ``r..r+1``.
* ``{"kind": "points", "cols": 9, "rows": 9, "spacing": 40, "pad": 0.55}``:
  the intersections of grid lines, addressed ``[col, row]``; lines are drawn;
  ``pad`` is the margin around the outer points, in spacings (room for labels).
  Board units: point ``[c, r]`` is at ``(c, r)``.
* ``{"kind": "ring", "slots": 16, "slot": 34}``: ``slots`` positions on a
  circle, addressed by index (0 at the top, clockwise). ``gap`` ``i`` is the
  place between slot ``i-1`` and slot ``i`` (gap 0 is before slot 0).

* ``{"kind": "hex", "cells": [[q, r], ...], "size": 26, "orientation": "pointy"}``:
  hexagonal cells in axial coordinates (``"flat"``: columns of hexes); ``labels`` is
  ``{"cells": ["0,0", ...]}``, written small in each cell. Board units: axial ``(q, r)``.

``labels`` on a grid or points board is ``{"cols": ["a", "b", ...], "rows":
["1", "2", ...]}``: ``cols[c]`` is written beside column ``c`` on the side of
row 0 (below a flipped board, above the others) and ``rows[r]`` left of row
``r``; either may be left out. On a ring it is ``{"slots": ["0", "1", ...]}``,
written inside the ring next to each slot. Labels are text, never clickable.

Items (every item has ``kind`` and ``board``; ``id`` when it can be clicked
or is referred to; ``cls`` adds CSS classes; ``title`` is a tooltip):

* ``cell``:  ``{"at": [c, r] | slot, "fill": css, "text": str}``, a tile
  (a square cell on a grid, a small square on points, a slot on a ring).
* ``edge``:  ``{"a": [c, r], "b": [c, r], "style": "wall"|"old"|"slot"|
  "blank"}``, the side shared by two orthogonally adjacent grid cells (a
  wall, a wall left standing, an empty place for one, or nothing drawn).
  An edge with an id has a click area wider than its line, and a click there
  is the edge's: its ``reasons`` entry is shown, never the cell's beneath
  (a ``blank`` edge is only that click area: a place that says why not).
* ``gap``:   ``{"at": i}``, on a ring: the place between two slots.
* ``piece``: ``{"at": [c, r] | slot, "shape": "circle"|"triangle"|
  "diamond"|"square"|"hexagon"|"cross"|"ring", "color": css, "text": str, "size": 0..1,
  "dim": bool, "double": bool, "hollow": bool, "outline": css}``.
  ``double`` draws a fortified stack; ``dim`` fades an unconnected or
  inactive piece; ``hollow`` draws the shape as a thick outline in ``color``
  on white (a pawn beside a filled king).
* ``line``:  ``{"points": [[x, y], ...], "color": css, "width": px,
  "dash": bool, "arrow": bool}`` in board units (a black line, a path).
* ``text``:  ``{"at": [x, y], "text": str, "color": css, "size": px}`` in
  board units.

All strings are drawn as text (``textContent``), never as HTML.

``legend`` says what the board's marks mean, under the board: each entry is a
text and, optionally, a small picture of an ``item`` drawn as the board draws
it (any item's look fields, without ``board``, ``at`` or ``id``: a piece, a
cell, an edge or line across the picture, a gap's mark). See
:meth:`Scene.legend`.

The boards are laid out left to right and, where the page's column is
narrower, in rows below each other; the whole drawing is scaled down to the
column's width unless the person at the board zooms (a control of the
renderer, not of the scene).

Examples
--------
>>> s = Scene()
>>> s.board("main", "grid", cols=2, rows=1)
>>> s.cell("main", (0, 0), fill="#eee")
'cell:0,0'
>>> s.move("cell:0,0", "Step here", {"kind": "step", "to": [0, 0]})
>>> s.to_json()["moves"]["cell:0,0"][0]["label"]
'Step here'
>>> s.last("cell:0,0")
>>> s.to_json()["last"]
['cell:0,0']
"""

from __future__ import annotations

from typing import Any, Iterable, overload

__all__ = ["Scene", "cell_id", "edge_id", "slot_id", "gap_id", "point_id"]


def cell_id(at: Iterable[int]) -> str:
    """The conventional id of grid cell ``at``: ``cell:c,r``."""
    c, r = at
    return f"cell:{c},{r}"


def point_id(at: Iterable[int]) -> str:
    """The conventional id of intersection point ``at``: ``pt:c,r``."""
    c, r = at
    return f"pt:{c},{r}"


def edge_id(a: Iterable[int], b: Iterable[int]) -> str:
    """The id of the edge between two cells, the same whatever their order."""
    a, b = sorted((tuple(a), tuple(b)))
    return f"edge:{a[0]},{a[1]}:{b[0]},{b[1]}"


def slot_id(index: int) -> str:
    """The id of ring slot ``index``."""
    return f"slot:{index}"


def gap_id(index: int) -> str:
    """The id of ring gap ``index`` (before slot ``index``)."""
    return f"gap:{index}"


class Scene:
    """A builder for the scene dict described in this module's docstring.

    Methods that add an item return its id, so a view can wire clicks:

    >>> s = Scene()
    >>> s.board("ring", "ring", slots=4)
    >>> king = s.piece("ring", 1, "triangle", "#c33", id=slot_id(1))
    >>> s.select(king, slot_id(3), "card 2, clockwise", {"kind": "move"})
    >>> list(s.to_json()["selects"]["slot:1"])
    ['slot:3']
    """

    __slots__ = ("_data",)

    def __init__(self) -> None:
        self._data: dict[str, Any] = {
            "boards": [],
            "items": [],
            "moves": {},
            "selects": {},
            "buttons": [],
            "reasons": {},
            "hint": "",
            "status": {"text": ""},
            "panels": [],
            "last": [],
        }

    # boards -----------------------------------------------------------
    def board(self, id: str, kind: str, title: str = "", **geometry: Any) -> None:
        """Add a board: ``kind`` is ``grid``, ``points`` or ``ring``; ``labels`` its coordinates.

        >>> s = Scene()
        >>> s.board("main", "grid", cols=2, rows=2, labels={"cols": "ab", "rows": ["1", "2"]})
        >>> s.to_json()["boards"][0]["labels"]
        {'cols': ['a', 'b'], 'rows': ['1', '2']}
        """
        if kind not in ("grid", "points", "ring", "hex"):
            raise ValueError(f"unknown board kind {kind!r}")
        labels = geometry.pop("labels", None)
        if labels:
            geometry["labels"] = {axis: [str(text) for text in values] for axis, values in labels.items()}
        self._data["boards"].append({"id": id, "kind": kind, "title": title, **geometry})

    # items ------------------------------------------------------------
    def item(self, kind: str, board: str, id: str | None = None, **fields: Any) -> str | None:
        """Add any item; prefer the typed helpers below."""
        entry = {"kind": kind, "board": board, **{k: v for k, v in fields.items() if v is not None}}
        if id:
            entry["id"] = id
        self._data["items"].append(entry)
        return id

    def cell(self, board: str, at: Any, fill: str | None = None, text: str | None = None,
             id: str | None | bool = None, **extra: Any) -> str | None:
        """A tile; its id defaults to ``cell:c,r`` (or ``slot:i`` on a ring); ``id=False``: none."""
        if id is None:
            id = slot_id(at) if isinstance(at, int) else cell_id(at)
        at = at if isinstance(at, int) else list(at)
        return self.item("cell", board, id=id if isinstance(id, str) else None, at=at, fill=fill, text=text, **extra)

    def edge(self, board: str, a: Any, b: Any, style: str = "wall",
             id: str | None = None, **extra: Any) -> str:
        """The side between cells ``a`` and ``b``; id defaults to :func:`edge_id`."""
        id = id or edge_id(a, b)
        self.item("edge", board, id=id, a=list(a), b=list(b), style=style, **extra)
        return id

    def gap(self, board: str, index: int, id: str | None = None, **extra: Any) -> str:
        """The place before ring slot ``index``."""
        id = id or gap_id(index)
        self.item("gap", board, id=id, at=index, **extra)
        return id

    @overload
    def piece(self, board: str, at: Any, shape: str, color: str, id: str, **extra: Any) -> str: ...
    @overload
    def piece(self, board: str, at: Any, shape: str, color: str, id: None = None, **extra: Any) -> None: ...
    def piece(self, board: str, at: Any, shape: str, color: str, id: str | None = None,
              **extra: Any) -> str | None:
        """A piece; ``extra`` takes ``text``, ``size``, ``dim``, ``double``, ``outline``."""
        at = at if isinstance(at, int) else list(at)
        return self.item("piece", board, id=id, at=at, shape=shape, color=color, **extra)

    def line(self, board: str, points: Iterable[Iterable[float]], color: str = "#222",
             width: float = 3, **extra: Any) -> None:
        """A polyline in board units."""
        self.item("line", board, points=[list(p) for p in points], color=color, width=width, **extra)

    def text(self, board: str, at: Any, text: str, **extra: Any) -> None:
        """A label in board units."""
        self.item("text", board, at=list(at), text=text, **extra)

    # interaction --------------------------------------------------------
    def move(self, item_id: str, label: str, action: dict[str, Any]) -> None:
        """Clicking ``item_id`` now may commit ``action``."""
        self._data["moves"].setdefault(item_id, []).append({"label": label, "action": action})

    def select(self, item_id: str, target_id: str, label: str, action: dict[str, Any]) -> None:
        """Clicking ``item_id`` then ``target_id`` may commit ``action``."""
        targets = self._data["selects"].setdefault(item_id, {})
        targets.setdefault(target_id, []).append({"label": label, "action": action})

    def button(self, label: str, action: dict[str, Any]) -> None:
        """A button under the board that commits ``action``."""
        self._data["buttons"].append({"label": label, "action": action})

    def last(self, *item_ids: str) -> None:
        """Mark items the last move touched (drawn outlined; each id once)."""
        marked = self._data["last"]
        for item_id in item_ids:
            if item_id not in marked:
                marked.append(item_id)

    def reason(self, item_id: str, why: str) -> None:
        """What a click on ``item_id`` is told when it cannot be used now."""
        self._data["reasons"][item_id] = why

    def cite_rules(self, game: str) -> None:
        """Attach the text of every rule the reasons and the hint cite, from ``game``'s rules page.

        Call it last: the board shows a rule's text below itself when a click shows a reason
        citing it. Rules the page does not number are left out (the message still names them).
        """
        from .rulebook import cited_rules, rule_text   # (here: this module is also read on its own)

        data = self._data
        wanted: set[str] = set()
        for text in [data["hint"], *data["reasons"].values()]:
            if "rule " in text:
                wanted.update(cited_rules(text))
        rules = data.setdefault("rules", {})
        for rule_id in sorted(wanted):
            try:
                rules[rule_id] = rule_text(game, rule_id)
            except KeyError:
                continue

    def hint(self, text: str) -> None:
        """One line telling the player to move what to do."""
        self._data["hint"] = text

    def status(self, text: str, color: str | None = None, shape: str | None = None) -> None:
        """Whose turn it is, with the seat's colour and shape."""
        status = {"text": text}
        if color:
            status["color"] = color
        if shape:
            status["shape"] = shape
        self._data["status"] = status

    def panel(self, title: str, rows: Iterable[Iterable[Any]]) -> None:
        """A small text table beside the board (scores, budget)."""
        self._data["panels"].append({"title": title, "rows": [[str(c) for c in row] for row in rows]})

    def legend(self, words: str, kind: str | None = None, **look: Any) -> None:
        """Say under the board what a mark means (``words``); ``kind`` and ``look`` draw a small
        picture of it (``kind`` is an item kind, ``look`` its look fields: ``shape``, ``color``,
        ``style``, ``text``...).

        >>> s = Scene()
        >>> s.legend("a wall left standing", "edge", style="old")
        >>> s.legend("K: a king")
        >>> s.to_json()["legend"]
        [{'text': 'a wall left standing', 'item': {'kind': 'edge', 'style': 'old'}}, {'text': 'K: a king'}]
        """
        entry: dict[str, Any] = {"text": str(words)}
        if kind is not None:
            if kind not in ("piece", "cell", "edge", "line", "gap"):
                raise ValueError(f"a legend pictures a piece, cell, edge, line or gap, not {kind!r}")
            entry["item"] = {"kind": kind, **{k: v for k, v in look.items() if v is not None}}
        self._data.setdefault("legend", []).append(entry)

    def to_json(self) -> dict[str, Any]:
        """The scene as a plain dict (the builder's own, not a copy)."""
        return self._data
