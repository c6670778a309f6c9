"""Source's score: its values (:class:`ColorScore`, :class:`Score`) and the point-by-point reference count.

The rules keep the score up to date action by action on bit boards (in
``state.tally``); :func:`tally_from_scratch` counts it again from nothing, the
slow and obvious way, for tests; the value types show it as a table, as
Markdown in a notebook, and as JSON.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from .params import PLAYER_NAMES

if TYPE_CHECKING:
    from .position import State
    from .rules import Source

__all__ = ["ColorScore", "Score", "tally_from_scratch"]


@dataclass(frozen=True)
class ColorScore:
    """One colour's points: its tokens (connected, unconnected, the centre) and surrounded points."""

    connected: int
    unconnected: int
    centre: int
    surrounded: int

    @property
    def total(self) -> int:
        return self.connected + self.unconnected + self.centre + self.surrounded

    def to_json(self) -> dict[str, int]:
        return {"connected": self.connected, "unconnected": self.unconnected, "centre": self.centre,
                "surrounded": self.surrounded, "total": self.total}


@dataclass(frozen=True)
class Score:
    """The score of a position: a breakdown per colour and the two players' totals.

    ``players`` is ``(player A, player B)``; ``colors`` maps a colour name to
    its :class:`ColorScore`.
    """

    colors: dict[str, ColorScore]
    players: tuple[int, int]
    player_colors: tuple[tuple[str, ...], ...]

    def __getitem__(self, color: str) -> ColorScore:
        return self.colors[color]

    def to_json(self) -> dict[str, Any]:
        return {"colors": {name: s.to_json() for name, s in self.colors.items()},
                "players": {PLAYER_NAMES[i]: self.players[i] for i in range(2)}}

    def rows(self) -> list[list[str]]:
        """A small table: a header, one row per colour, one per player."""
        out = [["", "connected", "unconnected", "centre", "surrounded", "total"]]
        for seat, colours in enumerate(self.player_colors):
            for name in colours:
                s = self.colors[name]
                out.append([f"{name} ({PLAYER_NAMES[seat]})", str(s.connected), str(s.unconnected),
                            str(s.centre), str(s.surrounded), str(s.total)])
        for seat, colours in enumerate(self.player_colors):
            parts = [self.colors[name] for name in colours]
            out.append([f"player {PLAYER_NAMES[seat]}"] + [str(sum(getattr(s, k) for s in parts)) for k in
                                                        ("connected", "unconnected", "centre", "surrounded")]
                       + [str(self.players[seat])])
        return out

    def _repr_markdown_(self) -> str:
        rows = self.rows()
        lines = ["| " + " | ".join(rows[0]) + " |", "|" + " --- |" * len(rows[0])]
        lines += ["| " + " | ".join(row) + " |" for row in rows[1:]]
        return "\n".join(lines)

    def __str__(self) -> str:
        rows = self.rows()
        widths = [max(len(row[k]) for row in rows) for k in range(len(rows[0]))]
        return "\n".join("  ".join(cell.rjust(w) if k else cell.ljust(w) for k, (cell, w) in
                                   enumerate(zip(row, widths))).rstrip() for row in rows)


def tally_from_scratch(game: Source, state: State) -> tuple[tuple[int, ...], ...]:
    """Per colour (connected, unconnected, centre, surrounded) points of ``state``, computed from nothing, point
    by point, without bit boards: the reference the incremental ``state.tally`` is tested against."""
    p, b = game.params, game.board
    size = b.size
    colour = [state.color_at(i) for i in range(size)]
    layers = [state.layers(i) for i in range(size)]
    connected = [False] * size
    for c in range(4):
        src = game.sources[c]
        if colour[src] != c:
            continue
        allowed = {c, game.partner[c]} if p.connection_through_partner else {c}
        seen, todo = {src}, [src]
        while todo:
            i = todo.pop()
            for j in b.neighbours[i]:
                if j not in seen and colour[j] in allowed:
                    seen.add(j)
                    todo.append(j)
        for i in seen:
            if colour[i] == c:
                connected[i] = True
    parts = [[0, 0, 0, 0] for _ in range(4)]
    for i in range(size):
        c = colour[i]
        if c < 0:
            continue
        part = parts[c]
        if connected[i]:
            if i == game.centre:
                part[2] += p.center_connected_value
                if p.center_mode == "add":
                    part[0] += p.score_connected
            else:
                part[0] += p.score_connected
            if p.fortification_scores:
                part[0] += p.score_connected * layers[i]
        else:
            part[1] += p.score_unconnected
            if p.fortification_scores:
                part[1] += p.score_unconnected * layers[i]
    for i, owner in enumerate(_surrounded_from_scratch(game, colour)):
        if owner >= 0:
            parts[owner][3] += p.territory_value
    return tuple(tuple(part) for part in parts)


def _surrounded_from_scratch(game: Source, colour: list[int]) -> list[int]:
    """For every point, the colour it scores for as a surrounded point, or -1."""
    p, b = game.params, game.board
    n = b.cols
    near = b.neighbours if p.territory_neighbourhood == "orthogonal" else b.neighbours8
    single = p.territory_color_rule == "single_color"

    def on_edge(i: int) -> bool:
        col, row = b.cell(i)
        return col in (0, n - 1) or row in (0, n - 1)

    def owner_of(around: list[int]) -> int:
        if not around or min(around) < 0:
            return -1
        if single:
            return around[0] if all(x == around[0] for x in around) else -1
        seat = game.color_seat[around[0]]
        if any(game.color_seat[x] != seat for x in around):
            return -1
        c1, c2 = sorted(game.color_pairs[seat], key=game.turn_order.index)   # a tie goes to the earlier
        return c1 if around.count(c1) >= around.count(c2) else c2

    owners = [-1] * b.size
    if p.territory_mode == "single_point":
        for i in range(b.size):
            if (colour[i] >= 0 and p.territory_requires_empty) or (on_edge(i) and not p.edge_counts_as_wall):
                continue
            owner = owner_of([colour[j] for j in near[i]])
            if owner < 0 or (colour[i] >= 0 and (colour[i] == owner if single else
                                                 game.color_seat[colour[i]] == game.color_seat[owner])):
                continue
            owners[i] = owner
        return owners
    seen: set[int] = set()
    for start in range(b.size):
        if colour[start] >= 0 or start in seen:
            continue
        region, todo = {start}, [start]
        while todo:
            i = todo.pop()
            for j in b.neighbours[i]:
                if colour[j] < 0 and j not in region:
                    region.add(j)
                    todo.append(j)
        seen |= region
        if not p.edge_counts_as_wall and any(on_edge(i) for i in region):
            continue
        wall = sorted({j for i in region for j in near[i] if j not in region})
        owner = owner_of([colour[j] for j in wall])
        if owner >= 0:
            for i in region:
                owners[i] = owner
    return owners
