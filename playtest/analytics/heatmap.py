"""Where play happens: the places moves touch, counted and drawn on the game's own board.

Nothing here knows a game. For every move, the scene of the position it was
played at (the game's ``view``, as the seat playing it saw it) says which
board items offered that very action: the item clicked and, for a move made
by selecting, its target. Those places (cells, points, ring slots, edges
between cells) are counted. A move no item offered (a button) is looked for in
the marks of the next scene (``last``), and is otherwise not on the board.
The counts are drawn on the scene of the first session's start (after its
set-up's chance steps), board by board, as
the table draws it (grid, points or ring; its pieces outlined over the heat):
people's moves and bots' side by side.
"""

from __future__ import annotations

import json
import math
from collections import Counter
from typing import Any

from ..rules import CHANCE
from .chart import Chart, new_figure

__all__ = ["heatmap", "touched", "MAX_MOVES"]

#: moves looked at per heatmap at most (each needs the scene of its position)
MAX_MOVES = 50_000
#: a board place: ``(board id, "place" | "gap" | "edge", where)``
Place = tuple[str, str, Any]


def _located(item: dict[str, Any]) -> Place | None:
    """``(board, kind, place)`` of a scene item, or None when it is not on a board."""
    board = item.get("board")
    if not isinstance(board, str):
        return None
    kind = item.get("kind")
    if kind == "edge":
        a, b = item.get("a"), item.get("b")
        if isinstance(a, list) and isinstance(b, list):
            return (board, "edge", tuple(sorted((tuple(a), tuple(b)))))
        return None
    at = item.get("at")
    if kind in ("cell", "piece", "gap"):
        if isinstance(at, list):
            return (board, "place", tuple(at))
        if isinstance(at, int):
            return (board, "gap" if kind == "gap" else "place", at)
    return None


def touched(game: Any, before: Any, action: Any, after: Any, seat: int | None) -> list[Place]:
    """The board places ``action`` touched, played at ``before`` (``after``: the position it made)."""
    viewer = seat if game.has_secrets else None
    scene = game.view(before, viewer)
    wanted = action.to_json()
    ids: list[str] = []
    for item_id, options in (scene.get("moves") or {}).items():
        if any(o.get("action") == wanted for o in options):
            ids.append(item_id)
    for item_id, targets in (scene.get("selects") or {}).items():
        for target, options in targets.items():
            if any(o.get("action") == wanted for o in options):
                ids += [item_id, target]
    items = scene.get("items") or []
    if not ids:        # a button: the marks of the next scene, those new since this one
        after_scene = game.view(after, viewer)
        old = set(scene.get("last") or ())
        ids = [i for i in after_scene.get("last") or () if i not in old]
        items = after_scene.get("items") or []
    places = []
    by_id = {}
    for item in items:
        if isinstance(item, dict) and item.get("id") in ids and item["id"] not in by_id:
            by_id[item["id"]] = item
    for item_id in dict.fromkeys(ids):
        item = by_id.get(item_id)
        place = _located(item) if item is not None else None
        if place is not None and place not in places:
            places.append(place)
    return places


def _counts(pt: Any, game_name: str, boards_key: str, split: str) -> tuple[dict[str, Counter[Place]], int, int]:
    """Counts per group (people, bots), moves looked at, and moves left out (another board)."""
    groups: dict[str, Counter[Place]] = ({"people": Counter(), "bots": Counter()} if split == "human"
                                         else {"all": Counter()})
    boards_of: dict[Any, str] = {}
    seen = other = 0
    for source in pt.sources:
        nodes = source.session._nodes
        if nodes[0].game.name != game_name:
            continue
        for node in nodes[1:]:
            if node.kind != "move":
                continue
            if seen >= MAX_MOVES:
                break
            parent = node.parent
            game = parent.game
            key = boards_of.get(game.params)
            if key is None:
                key = boards_of[game.params] = _boards_key(game.view(game.initial_state(), None))
            if key != boards_key:
                other += 1
                continue
            seen += 1
            try:
                seat = game.to_move(parent.state)
                if type(seat) is not int or seat < 0:
                    seat = game.seat_of(parent.state, node.action)
                places = touched(game, parent.state, node.action, node.state, seat)
            except Exception:      # noqa: BLE001  (a view that fails is a game's bug: leave the move out)
                other += 1
                continue
            group = "all" if split != "human" else ("people" if node.bot is None else "bots")
            groups[group].update(places)
    return groups, seen, other


def _boards_key(scene: dict[str, Any]) -> str:
    return json.dumps([{k: v for k, v in b.items() if k != "title"} for b in scene.get("boards", [])],
                      sort_keys=True)


def heatmap(pt: Any, game: str | None = None, split: str = "human") -> Chart:
    """Where play happens in ``game`` (the only game of the playtests when None), on its own board.

    ``split="human"`` draws people's moves and bots' side by side; ``"none"`` all moves together.
    Only moves on the board the game starts with count (another board size is left out, counted
    in the title).
    """
    if split not in ("human", "none"):
        raise ValueError(f"split is 'human' or 'none', not {split!r}")
    names = sorted({s.session._nodes[0].game.name for s in pt.sources})
    if game is None:
        if len(names) != 1:
            raise ValueError(f"these playtests hold {len(names)} games ({', '.join(names) or 'none'}): "
                             "name one, heatmap(game=...)")
        game = names[0]
    if game not in names:
        raise ValueError(f"no session of {game!r} here; the games are: {', '.join(names)}")
    first = next(s.session for s in pt.sources if s.session._nodes[0].game.name == game)
    start = first._nodes[0]
    while start.children and start.game.to_move(start.state) == CHANCE:     # the set-up's chance steps
        start = start.children[0]
    base_game = start.game
    background = base_game.view(start.state, None)
    boards = [b for b in background.get("boards", []) if b.get("kind") in ("grid", "points", "ring")]
    sessions = sum(1 for s in pt.sources if s.session._nodes[0].game.name == game)
    if not boards:
        title = f"Where play happens: {base_game.title} has no board to draw ({sessions} sessions)"
        fig = new_figure(5, 1.5)
        ax = fig.add_subplot()
        ax.axis("off")
        ax.set_title(title, fontsize=10, loc="left")
        return Chart(fig, title)
    groups, seen, other = _counts(pt, game, _boards_key(background), split)
    left_out = f"; {other} moves on another board left out" if other else ""
    totals = ", ".join(f"{sum(c.values()):,} places touched by {name}" for name, c in groups.items())
    title = (f"Where play happens in {base_game.title}: {seen:,} moves ({totals}), "
             f"{sessions} sessions{left_out}")
    fig = new_figure(3.6 * len(boards) * len(groups) + 0.8, 4.8)
    axes = fig.subplots(1, len(boards) * len(groups), squeeze=False)[0]
    from matplotlib import colormaps
    from matplotlib.cm import ScalarMappable
    from matplotlib.colors import Normalize
    cmap = colormaps["YlOrRd"]
    top = max([max(c.values()) for c in groups.values() if c] or [1])
    norm = Normalize(vmin=0, vmax=top)
    k = 0
    for name, counts in groups.items():
        for board in boards:
            ax = axes[k]
            k += 1
            _draw_board(ax, board, background.get("items", []))
            _draw_heat(ax, board, counts, cmap, norm)
            label = board.get("title") or board.get("id", "")
            ax.set_title(f"{name}: {sum(v for p, v in counts.items() if p[0] == board['id']):,} touches\n"
                         f"{label}"[:90], fontsize=9)
    fig.colorbar(ScalarMappable(norm=norm, cmap=cmap), ax=list(axes), shrink=0.7, label="moves touching it")
    fig.suptitle(title, fontsize=10, x=0.01, ha="left", wrap=True)
    return Chart(fig, title)


# ---------------------------------------------------------------------------- the board, as the table draws it

def _xy(board: dict[str, Any], place: Any) -> tuple[float, float]:
    """Where a cell's (or a point's, a slot's) centre is drawn, in the axes' units."""
    kind = board["kind"]
    if kind == "ring":
        slots = max(int(board.get("slots", 1)), 1)
        angle = math.pi / 2 - 2 * math.pi * int(place) / slots
        return (math.cos(angle), math.sin(angle))
    c, r = place[0], place[1]
    rows = int(board.get("rows", 1))
    y = r if board.get("flip") else rows - 1 - r
    return (c + (0.5 if kind == "grid" else 0.0), y + (0.5 if kind == "grid" else 0.0))


def _size(board: dict[str, Any]) -> float:
    """The side of a cell's square in the axes' units."""
    if board["kind"] == "ring":
        return min(0.35, 5.0 / max(int(board.get("slots", 1)), 1))
    return 1.0 if board["kind"] == "grid" else 0.5


def _draw_board(ax: Any, board: dict[str, Any], items: list[Any]) -> None:
    from matplotlib.patches import Circle, Rectangle
    kind, side = board["kind"], _size(board)
    ax.set_aspect("equal")
    ax.set_xticks([])
    ax.set_yticks([])
    for spine in ax.spines.values():
        spine.set_visible(False)
    if kind in ("grid", "points"):
        cols, rows = int(board.get("cols", 1)), int(board.get("rows", 1))
        if kind == "grid":
            for c in range(cols + 1):
                ax.plot([c, c], [0, rows], color="#d8d0c4", lw=0.6, zorder=1)
            for r in range(rows + 1):
                ax.plot([0, cols], [r, r], color="#d8d0c4", lw=0.6, zorder=1)
            ax.set_xlim(-0.6, cols + 0.3)
            ax.set_ylim(-0.6, rows + 0.3)
        else:
            for c in range(cols):
                ax.plot([c, c], [0, rows - 1], color="#b9ad9c", lw=0.8, zorder=1)
            for r in range(rows):
                ax.plot([0, cols - 1], [r, r], color="#b9ad9c", lw=0.8, zorder=1)
            ax.set_xlim(-1.0, cols - 0.2)
            ax.set_ylim(-1.0, rows - 0.2)
        labels = board.get("labels") or {}
        for c, text in enumerate(labels.get("cols", [])[:cols]):
            x, _ = _xy(board, (c, 0))
            ax.text(x, -0.35 if kind == "grid" else -0.7, str(text), ha="center", va="center", fontsize=6,
                    color="#6b625a")
        for r, text in enumerate(labels.get("rows", [])[:rows]):
            _, y = _xy(board, (0, r))
            ax.text(-0.35 if kind == "grid" else -0.7, y, str(text), ha="center", va="center", fontsize=6,
                    color="#6b625a")
    else:
        ax.add_patch(Circle((0, 0), 1.0, fill=False, color="#d8d0c4", lw=0.8, zorder=1))
        ax.set_xlim(-1.4, 1.4)
        ax.set_ylim(-1.4, 1.4)
    for item in items:
        if not isinstance(item, dict) or item.get("board") != board.get("id"):
            continue
        if item.get("kind") == "line" and kind == "grid" and isinstance(item.get("points"), list):
            rows = int(board.get("rows", 1))
            try:
                xs = [float(p[0]) for p in item["points"]]
                ys = [float(p[1]) if board.get("flip") else rows - float(p[1]) for p in item["points"]]
            except (TypeError, ValueError, IndexError):
                continue
            ax.plot(xs, ys, color=_color(item.get("color"), "#111"), lw=2, zorder=5,
                    ls="--" if item.get("dash") else "-")
            continue
        place = _located(item)
        if place is None:
            continue
        if item.get("kind") == "edge":
            _edge_line(ax, board, place[2], color="#3b342d" if item.get("style") == "wall" else "#b9ad9c",
                       lw=2.2 if item.get("style") == "wall" else 0.0, zorder=2)
            continue
        x, y = _xy(board, place[2])
        if item.get("kind") == "cell":
            fill = item.get("fill")
            ax.add_patch(Rectangle((x - side / 2, y - side / 2), side, side, color=_color(fill, "#efe8dc"),
                                   alpha=0.6, lw=0, zorder=1.5))
        elif item.get("kind") == "piece":       # drawn over the heat: the position stays readable
            color = _color(item.get("color"), "#555")
            if item.get("shape") == "square":
                ax.add_patch(Rectangle((x - side * 0.3, y - side * 0.3), side * 0.6, side * 0.6, fill=False,
                                       edgecolor=color, lw=1.6, zorder=5))
            else:
                ax.add_patch(Circle((x, y), side * 0.28, fill=False, edgecolor=color, lw=1.6, zorder=5))


def _edge_line(ax: Any, board: dict[str, Any], ends: tuple[Any, ...], color: str, lw: float, zorder: float) -> None:
    """The side shared by two adjacent grid cells."""
    if lw <= 0 or board["kind"] != "grid":
        return
    (c1, r1), (c2, r2) = ends
    x1, y1 = _xy(board, (c1, r1))
    x2, y2 = _xy(board, (c2, r2))
    mx, my = (x1 + x2) / 2, (y1 + y2) / 2
    if c1 == c2:        # one above the other: a horizontal side
        ax.plot([mx - 0.5, mx + 0.5], [my, my], color=color, lw=lw, zorder=zorder, solid_capstyle="butt")
    else:
        ax.plot([mx, mx], [my - 0.5, my + 0.5], color=color, lw=lw, zorder=zorder, solid_capstyle="butt")


def _draw_heat(ax: Any, board: dict[str, Any], counts: Counter[Place], cmap: Any, norm: Any) -> None:
    from matplotlib.patches import Circle, Rectangle
    side = _size(board)
    for (board_id, kind, place), n in counts.items():
        if board_id != board.get("id") or n <= 0:
            continue
        color = cmap(norm(n))
        if kind == "edge":
            _edge_line(ax, board, place, color=color, lw=5.0, zorder=4)
        elif kind == "gap" and board["kind"] == "ring":
            slots = max(int(board.get("slots", 1)), 1)
            angle = math.pi / 2 - 2 * math.pi * (int(place) - 0.5) / slots
            ax.add_patch(Circle((math.cos(angle), math.sin(angle)), side * 0.3, color=color, zorder=4))
        elif board["kind"] == "grid":
            x, y = _xy(board, place)
            ax.add_patch(Rectangle((x - 0.5, y - 0.5), 1, 1, color=color, alpha=0.85, lw=0, zorder=3))
        else:
            x, y = _xy(board, place)
            ax.add_patch(Circle((x, y), side * 0.55, color=color, alpha=0.85, lw=0, zorder=3))


def _color(value: Any, fallback: str) -> Any:
    from matplotlib.colors import to_rgba
    try:
        return to_rgba(value) if isinstance(value, str) else fallback
    except ValueError:           # a CSS colour matplotlib does not read (var(...), a gradient)
        return fallback
