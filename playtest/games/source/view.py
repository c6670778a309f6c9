"""Source's scene: the points and stacks, the score and supply panels, and what a click on each point may do.

The view asks the game's public queries (``action_masks``, ``point_actions``,
``blocked_reason``, ``score``) what is legal and why not; it decides only looks.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ...geometry import bits
from ...scene import Scene, point_id
from .actions import END_TURN
from .params import COLOR_CSS, COLORS, LETTERS, PLAYER_NAMES
from .position import State

if TYPE_CHECKING:
    from ...kernel import Seat
    from .rules import Source

__all__ = ["view"]

TINT = {"red": "#f4c7cd", "blue": "#c5d6f3", "yellow": "#f8e7b0", "green": "#c6e8cd"}


def view(game: Source, state: State, seat: int | None = None) -> dict[str, Any]:
    """The scene of ``state``: the points, the tokens, score and supply panels, and what each click may do."""
    p, b = game.params, game.board
    n = b.cols
    seats = game.seats()
    s = Scene()
    # coordinates as the log writes points: e5 is column e, row 5 counted from the top
    s.board("board", "points", title=f"Source {n}×{n}", cols=n, rows=n, spacing=40, pad=0.9,
            labels={"cols": [b.labels[k][0] for k in range(n)], "rows": [str(k + 1) for k in range(n)]})
    sources = {game.sources[c]: c for c in range(4)}
    cell_of = b.cell
    for i in range(b.size):
        # an empty point is clicked on its mark; an occupied one on its piece (ids are unique)
        pid = point_id(cell_of(i)) if state.color_at(i) < 0 else False
        if i in sources:
            name = COLORS[sources[i]]
            s.cell("board", cell_of(i), fill=TINT[name], id=pid, title=f"{name} source")
        elif i == game.centre:
            s.cell("board", cell_of(i), fill="#f3d36b", id=pid, text="★" if pid else None,
                   title=f"centre: {p.center_connected_value} points for a connected token")
        elif pid:
            s.cell("board", cell_of(i), fill="transparent", id=pid)
    for c in range(4):
        name = COLORS[c]
        shape = seats[game.color_seat[c]].shape
        for i in bits(state.stones[c]):
            layers = state.layers(i)
            linked = bool(state.connected[c] >> i & 1)
            extra: dict[str, Any] = {}
            if layers:
                extra["double"] = True
            if not linked:
                extra["dim"] = True
            words = [f"{name} token", "connected" if linked else "not connected"]
            if layers:
                words.append(f"fortified ×{layers}" if layers > 1 else "fortified")
            if i == game.sources[c]:       # a source: a dark outline
                words.insert(0, "source:")
                extra["outline"] = "#3a2e26"
            text = LETTERS[c].upper() + (str(layers) if layers > 1 else "")
            if i == game.centre:
                words.insert(0, "centre:")
                text += "★"
            s.piece("board", cell_of(i), shape, COLOR_CSS[name], id=point_id(cell_of(i)), size=0.72, text=text,
                    title=" ".join(words), **extra)
    _legend(s, game, state, seats)
    # the last move: the points the colour's turn touched (the previous colour's until this one acts)
    s.last(*(point_id(cell_of(i)) for i in state.last))
    score = game.score(state)
    s.panel("Score", score.rows())
    active = state.active
    s.panel("Supply", [[f"{COLORS[c]} ({PLAYER_NAMES[game.color_seat[c]]})", f"{state.supply[c]} tokens"]
                       for pair in game.color_pairs for c in pair]
            + [["turn", str(state.turn + 1)], ["passes in a row", f"{state.passes} of {p.pass_limit}"]])
    if state.over:
        outcome = game.outcome(state)
        s.status(f"Game over: {outcome.reason if outcome else state.over}")
        s.hint("The game is over. Undo, or jump back in the history to try another line.")
        return s.to_json()
    mover = game.color_name(active)
    s.status(f"{mover} to act: {state.ap_left} AP left", COLOR_CSS[COLORS[active]], seats[game.color_seat[active]].shape)
    masks = game.action_masks(state)
    for i in range(b.size):
        pid = point_id(cell_of(i))
        options = game.point_actions(state, i, masks)
        for label, action in options:
            s.move(pid, label, action.to_json())
        if not options:
            s.reason(pid, game.blocked_reason(state, i))
    s.button("End turn", END_TURN.to_json())
    s.hint(f"{mover}, {state.ap_left} AP left: place next to your connected chain, fortify a connected "
           "token, capture or unfortify next to it; End turn passes the rest.")
    s.cite_rules(game.name)
    return s.to_json()


def _legend(s: Scene, game: Source, state: State, seats: list[Seat]) -> None:
    """What the marks on the board mean."""
    c = state.active if 0 <= state.active < 4 else 0
    name = COLORS[c]
    shape, color, letter = seats[game.color_seat[c]].shape, COLOR_CSS[name], LETTERS[c].upper()
    s.legend(f"a {name} token, connected to its source", "piece", shape=shape, color=color, size=0.72, text=letter)
    s.legend("not connected (faded, dashed)", "piece", shape=shape, color=color, size=0.72, text=letter, dim=True)
    s.legend("fortified (a stack; the number counts the layers when more than one)", "piece", shape=shape,
             color=color, size=0.72, text=letter + "2", double=True)
    s.legend("a source (dark outline); an empty source point is tinted", "piece", shape=shape, color=color,
             size=0.72, text=letter, outline="#3a2e26")
    s.legend("★ the centre", "cell", fill="#f3d36b", text="★")
