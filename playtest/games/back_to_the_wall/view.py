"""Back to the Wall's scene: three boards side by side, the seat's secret order, the score, the playback.

The view asks the game what is legal (``legal_actions``) and why not
(``why_not``), so the board and the rules never disagree; it decides only
looks. A seat sees its own order and no one else's; the table (``seat=None``)
sees no order at all. ``playback`` turns a round's resolution log into the
frames the table's slider plays.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Sequence

from ...scene import Scene
from .actions import STAY, AddWall, Clear, Direct, Garnet, RemoveWall, Submit, Withdraw
from .params import ARROWS, DIRECTIONS, R_ORDER, arrows
from .position import State
from .resolution import names_text
from .score import board_scores, ordinal, show_points

if TYPE_CHECKING:
    from .rules import BackToTheWall, RoundLog

__all__ = ["View", "playback", "cell_key", "piece_key"]

CELL = 30
FREE = "#fbf8f1"
WALL = "#3b3b3b"
PENDING = "#a7a39b"
REJECTED = "#f4b6b0"
TINTS = ("#f2c4bf", "#c3d9ee", "#c5e6cc", "#f1dcb8")

# what the boards are drawn from: a wall mask per board, an owned-cells mask per board and seat, a cell
# per board, seat and piece; marks[b][cell] = (fill, text, title); lines: (b, points, colour)
Walls = Sequence[int]
Owned = Sequence[Sequence[int]]
Pieces = Sequence[Sequence[Sequence[int]]]
Marks = dict[int, dict[int, tuple[str, str, str]]]
Lines = list[tuple[int, list[tuple[float, float]], str]]


def cell_key(board: int, label: str) -> str:
    """The scene id of a cell: ``b1:d5`` is d5 on the second board."""
    return f"b{board}:{label}"


def piece_key(board: int, seat: int, piece: int) -> str:
    """The scene id of a piece: ``b0:p2.1`` is South's second piece on the first board."""
    return f"b{board}:p{seat}.{piece}"


def void_warning(reason: str) -> str:
    """The table's warning for a wall that is accepted but will be void at the resolution (B.1 §9.1).

    >>> void_warning("a piece stands here")
    'this wall will be void: a piece stands here'
    """
    return f"this wall will be void: {reason}"


def draw_boards(s: Scene, game: BackToTheWall, walls: Walls, owned: Owned, pieces: Pieces,
                marks: Marks | None = None, piece_text: Any = None, piece_ids: bool = False,
                lines: Lines | None = None) -> None:
    """The three boards: coordinates, cells (walls, owners, corners), pieces, and any ``marks`` on cells.

    ``marks[b][cell] = (fill, text, title)`` overrides a cell's look;
    ``piece_text(b, seat, k)`` gives a piece's label (its number by default);
    ``lines`` are ``(b, points, color)`` paths drawn under the pieces.
    """
    p = game.params
    seats = game.seats()
    marks = marks or {}
    for b, t in enumerate(game.tables):
        bid = f"b{b}"
        s.board(bid, "grid", title=f"{p.board_names[b]} ({t.cols} × {t.rows})", cols=t.cols, rows=t.rows, cell=CELL,
                labels={"cols": [t.label(c)[0] for c in range(t.cols)], "rows": [str(r + 1) for r in range(t.rows)]})
        corner_seat = {t.corners[k]: seat for k, seat in enumerate(t.seat_at_corner) if seat >= 0}
        board_marks = marks.get(b, {})
        for i in range(t.size):
            label = t.label(i)
            title = f"{p.board_names[b]} {label} [{i % t.cols}, {i // t.cols}]"
            text = None
            if walls[b] >> i & 1:
                fill = WALL
                title += ": a wall"
            else:
                fill = FREE
                for seat, mask in enumerate(owned[b]):
                    if mask >> i & 1:
                        fill = TINTS[seat]
                        title += f": {seats[seat].name}'s"
                        break
            if i in corner_seat:
                text = seats[corner_seat[i]].name[0]
                title += f" ({seats[corner_seat[i]].name}'s corner)"
            if i in board_marks:
                fill, text, extra = board_marks[i]
                title += f" — {extra}"
            s.cell(bid, t.cell(i), fill=fill, text=text, id=cell_key(b, label), title=title)
        for board, points, color in lines or []:
            if board == b:
                s.line(bid, points, color=color, width=2.5, dash=True, arrow=True)
        stacks: dict[int, list[tuple[int, int]]] = {}
        for seat, cells in enumerate(pieces[b]):
            for k, c in enumerate(cells):
                stacks.setdefault(c, []).append((seat, k))
        for c, stack in stacks.items():
            col, row = t.cell(c)
            for (seat, k), (dx, dy, size) in zip(stack, _offsets(len(stack))):
                text = piece_text(b, seat, k) if piece_text else str(k + 1)
                s.piece(bid, (col + dx, row + dy), seats[seat].shape, seats[seat].color, size=size, text=text,
                        id=piece_key(b, seat, k) if piece_ids else None,
                        title=f"{seats[seat].name}'s piece {k + 1} on {p.board_names[b]} {t.label(c)}")
    board_legend(s, game, walls, owned, pieces, marks, lines)


def board_legend(s: Scene, game: BackToTheWall, walls: Walls, owned: Owned, pieces: Pieces,
                 marks: Marks | None = None, lines: Lines | None = None) -> None:
    """Under the boards, what their marks mean (those drawn now)."""
    seats = game.seats()
    first = seats[0]
    s.legend(f"{first.name[0]}, {seats[1].name[0]}, ...: a seat's corner, where its pieces start (a piece "
             "there is drawn over the letter)", "cell", fill=FREE, text=first.name[0])
    s.legend("a piece: its seat's shape and colour, its number (several on one cell sit side by side, "
             "smaller)", "piece", shape=first.shape, color=first.color, size=0.72, text="1")
    if any(walls):
        s.legend("a wall", "cell", fill=WALL)
    if any(any(masks) for masks in owned):
        s.legend(f"a captured cell, tinted in its seat's colour ({first.name}'s here)", "cell", fill=TINTS[0])
    texts = {text for board in (marks or {}).values() for _fill, text, _title in board.values()}
    if "▦" in texts:
        s.legend("a wall in your order this round (only you see it)", "cell", fill=PENDING, text="▦")
    if "✕" in texts:
        s.legend("a wall not placed (the message and the cell's tooltip say why)", "cell", fill=REJECTED, text="✕")
    if texts - {"▦", "✕"}:
        s.legend("a wall submitted this round, with the initials of who chose it", "cell", fill=PENDING,
                 text=first.name[0])
    if lines:
        s.legend("a piece's way this tick", "line", color=first.color, width=2.5, dash=True, arrow=True)


def _offsets(n: int) -> list[tuple[float, float, float]]:
    """Where several pieces on one cell go: side by side in a small grid, smaller the more there are."""
    if n == 1:
        return [(0.0, 0.0, 0.72)]
    side = 2 if n <= 4 else 3 if n <= 9 else 4
    size = 0.92 / side
    return [((k % side + 0.5) / side - 0.5, (k // side % side + 0.5) / side - 0.5, size) for k in range(n)]


def standings_panels(s: Scene, game: BackToTheWall, standings: Any, final: bool = False) -> None:
    """Two panels: each board's captured cells and places, then its points and each seat's total."""
    p = game.params
    names = game.names
    cells = [["", *p.board_names]]
    points = [["", *p.board_names, "total"]]
    for seat in range(len(names)):
        row = [names[seat]]
        for bs in standings:
            bonus = f"+{bs.bonus[seat]}" if bs.bonus[seat] else ""
            row.append(f"{bs.cells[seat]}{bonus} ({ordinal(bs.places[seat])})")
        cells.append(row)
        points.append([names[seat], *(show_points(bs.points[seat]) for bs in standings),
                       show_points(sum(bs.points[seat] for bs in standings))])
    s.panel("Cells (+ garnet bonus) and places" if final else "Captured cells (place) so far", cells)
    shares = " / ".join(show_points(x) for x in p.rank_points[:len(names)])
    s.panel(f"Points ({shares} a board{'' if final else ', if it ended now'})", points)


def _score_panels(s: Scene, game: BackToTheWall, state: State, viewer: int | None) -> None:
    p = game.params
    names = game.names
    over = state.phase == "over"
    standings_panels(s, game, game.board_standings(state, viewer), final=over)
    if over:
        result = game.scores(state)
        ranking = [[ordinal(result.places[seat]), names[seat], f"{show_points(result.totals[seat])} points",
                    f"{result.garnets[seat]} garnets"]
                   for seat in sorted(range(len(names)), key=lambda x: (result.places[x], x))]
        ranking.append(["Token of Life", names_text(names, result.winners), "", ""])
        ranking.append(["Elimination Candidate", names_text(names, result.candidates), "", ""])
        s.panel("Final ranking", ranking)
        flags = [[names[seat], p.board_names[b], f"round {', '.join(map(str, state.flags[seat][b]))}",
                  f"+{result.boards[b].bonus[seat]}"]
                 for seat in range(len(names)) for b in range(3) if state.flags[seat][b]]
        s.panel("Garnet bonuses (revealed)", flags or [["none used"]])


def _walls_panel(s: Scene, game: BackToTheWall, entries: Any, title: str) -> None:
    p = game.params
    rows = [[f"{p.board_names[b]} {game.tables[b].label(cell)}", names_text(game.names, seats), result]
            for b, cell, seats, result in entries]
    if rows:
        s.panel(title, rows)


class View:
    """Builds the scene of a position for one viewer (see :mod:`playtest.scene`)."""

    def __init__(self, game: BackToTheWall, state: State, seat: int | None):
        self.game, self.state, self.seat = game, state, seat
        self.s = Scene()

    def build(self) -> dict[str, Any]:
        game, state, seat, s = self.game, self.state, self.seat, self.s
        names = game.names
        acting = seat is not None and state.phase != "over" and bool(game.legal_actions(state, seat))
        order = state.orders[seat] if seat is not None else None
        marks: Marks = {}
        if order is not None and state.phase == "orders":
            for b, cells in enumerate(order.walls):
                for c in cells:
                    void = game.void_reason(state, b, c)
                    marks.setdefault(b, {})[c] = (PENDING, "▦", f"{names[seat]}'s wall, in this round's order"
                                                  + (f": {void_warning(void)}" if void else ""))

        def piece_text(b: int, who: int, k: int) -> str:
            if who == seat and order is not None and state.phase == "orders":
                plan = order.directions[b][k]
                if any(d >= 0 for d in plan):
                    return arrows(plan)
            return str(k + 1)

        draw_boards(s, game, state.walls, state.owned, state.pieces, marks, piece_text,
                    piece_ids=state.phase == "orders")
        self.status()
        s.panel("Orders", [[names[w], "—" if state.phase == "over" else "submitted" if o is not None and o.submitted
                            else "preparing"] for w, o in enumerate(state.orders)])
        if seat is not None and state.phase != "over":
            self.own_order_panel()
        _score_panels(s, game, state, seat)
        if state.last:
            _walls_panel(s, game, state.last, f"Walls of round {state.round - 1 if state.phase == 'orders' else state.round}")
        if acting:
            self.interact()
        elif state.phase == "over":
            s.hint("The game is over. Undo, or jump back in the history to try another line.")
        elif seat is None:
            s.hint("Each seat enters its order in private: walls by clicking cells, directions by clicking its "
                   "pieces; the round resolves when everyone has submitted.")
        else:
            s.hint(f"{names[seat]}: submitted. Waiting for the others.")
        if seat is not None and state.phase == "orders":
            self.other_reasons()
        return s.to_json()

    def status(self) -> None:
        game, state, s = self.game, self.state, self.s
        if state.phase == "over":
            s.status(f"Game over: {game.outcome(state).reason}")      # type: ignore[union-attr]
            return
        text = game.describe_state(state)
        if self.seat is not None:
            seat = game.seats()[self.seat]
            mine = self.state.orders[self.seat]
            done = " (submitted)" if mine is not None and mine.submitted else ""
            s.status(f"{seat.name}{done} · {text}", seat.color, seat.shape)
        else:
            s.status(text)

    def own_order_panel(self) -> None:
        game, state, seat, s = self.game, self.state, self.seat, self.s
        assert seat is not None                     # (a seat's own: built only for a seat)
        p = game.params
        order = game.order_of(state, seat)
        rows = []
        if state.phase == "orders":
            for b in range(3):
                t = game.tables[b]
                cells = " ".join(t.label(c) for c in order.walls[b]) or "—"
                rows.append([f"walls {p.board_names[b]}", f"{cells} ({len(order.walls[b])} of {p.walls_per_round[b]})"])
            for b in range(3):
                t = game.tables[b]
                for k, plan in enumerate(order.directions[b]):
                    rows.append([f"{p.board_names[b]} piece {k + 1} ({t.label(state.pieces[b][seat][k])})",
                                 arrows(plan, " ")])
        if p.garnet_bonus_enabled:
            flagged = [p.board_names[b] for b in range(3) if order.garnet[b]]
            rows.append(["garnet bonus", ", ".join(flagged) or "—"])
            earlier = [f"{p.board_names[b]} (round {', '.join(map(str, r))})"
                       for b, r in enumerate(state.flags[seat]) if r]
            if earlier:
                rows.append(["used before (secret)", ", ".join(earlier)])
            rows.append(["garnets promised", f"{game.garnets_promised(state, seat, order)} of {p.starting_garnets}"])
        rows.append(["status", "submitted" if order.submitted else "not submitted"])
        s.panel(f"{game.names[seat]}'s order (secret)", rows)

    def interact(self) -> None:
        game, state, seat, s = self.game, self.state, self.seat, self.s
        assert seat is not None                     # (built only for a seat that acts)
        p = game.params
        name = game.names[seat]
        actions = game.legal_actions(state, seat)
        order = game.order_of(state, seat)
        clickable: set[str] = set()
        for action in actions:
            if isinstance(action, AddWall):
                t = game.tables[action.board]
                used = len(order.walls[action.board])
                cell = t.index(action.at)
                key = cell_key(action.board, t.label(cell))
                void = game.void_reason(state, action.board, cell)
                s.move(key, f"wall here ({used + 1} of {p.walls_per_round[action.board]} on "
                            f"{p.board_names[action.board]})" + (f" — {void_warning(void)}" if void else ""),
                       action.to_json())
                clickable.add(key)
            elif isinstance(action, RemoveWall):
                t = game.tables[action.board]
                key = cell_key(action.board, t.label(t.index(action.at)))
                s.move(key, "take this wall back out of the order", action.to_json())
                clickable.add(key)
            elif isinstance(action, Direct):
                current = order.directions[action.board][action.piece][action.phase - 1]
                now = f" (now {ARROWS[current]})" if current >= 0 else ""
                if action.direction == STAY:
                    label = f"phase {action.phase}: no direction, it stays{now}"
                else:
                    d = DIRECTIONS.index(action.direction)
                    label = f"phase {action.phase}: {ARROWS[d]} {action.direction}{now}"
                s.move(piece_key(action.board, seat, action.piece), label, action.to_json())
            elif isinstance(action, Garnet):
                board = p.board_names[action.board]
                s.button(f"Garnet bonus on {board}" if action.on else f"No garnet bonus on {board}", action.to_json())
            elif isinstance(action, Clear):
                s.button("Clear my order", action.to_json())
            elif isinstance(action, Submit):
                s.button("Submit my order", action.to_json())
            elif isinstance(action, Withdraw):
                s.button("Withdraw my order", action.to_json())
        if state.phase == "orders" and not order.submitted:
            for b, t in enumerate(game.tables):
                for i in range(t.size):
                    key = cell_key(b, t.label(i))
                    if key not in clickable:
                        why = game.why_not(state, AddWall(seat, b, t.cell(i)))
                        if why:
                            s.reason(key, str(why))
        if order.submitted:
            s.hint(f"{name}: submitted. You may withdraw your order until everyone has submitted.")
        elif state.phase == "garnets":
            s.hint(f"{name}: the last round is over. Choose the boards where you pay a garnet to add your "
                   "placed walls of your best round to your score, then submit.")
        else:
            quotas = ", ".join(f"{p.board_names[b]} {p.walls_per_round[b]}" for b in range(3))
            missing = order.missing()
            left = (f" {missing} direction{'s' if missing != 1 else ''} not given yet"
                    + (" (those pieces stay)." if p.missing_direction == "stay" else " (all are needed).")) \
                if missing else ""
            voids = [f"{p.board_names[b]} {game.tables[b].label(c)} ({game.void_reason(state, b, c)})"
                     for b in range(3) for c in order.walls[b] if game.void_reason(state, b, c)]
            warning = (f" Your wall{'s' if len(voids) > 1 else ''} on {', '.join(voids)} will be void: "
                       f"{'they use' if len(voids) > 1 else 'it uses'} up a slot and "
                       f"{'are' if len(voids) > 1 else 'is'} not placed (rule B.1 §9.1)." if voids else "")
            s.hint(f"{name}: click cells for your walls ({quotas}), click each of your pieces for its "
                   f"{p.directions_per_round} directions, then Submit.{left}{warning}")

    def other_reasons(self) -> None:
        """Clicks on other seats' pieces (and, once submitted, on one's own) say why nothing happens."""
        game, state, seat, s = self.game, self.state, self.seat, self.s
        assert seat is not None                     # (built only for a seat)
        names = game.names
        order = state.orders[seat]
        submitted = order is not None and order.submitted
        for b in range(3):
            for who, cells in enumerate(state.pieces[b]):
                for k in range(len(cells)):
                    key = piece_key(b, who, k)
                    if who != seat:
                        s.reason(key, f"that is {names[who]}'s piece: each seat directs its own pieces (rule {R_ORDER})")
                    elif submitted:
                        s.reason(key, f"{names[seat]} has already submitted; withdraw the order to change it "
                                      f"(rule {R_ORDER})")


# --------------------------------------------------------------------------- playback

def playback(game: BackToTheWall, log: RoundLog, viewer: int | None) -> list[dict[str, Any]]:
    """The frames of a resolution: the orders revealed, the walls placed and rejected, every tick."""
    before, after = log.before, log.after
    p, names = game.params, game.names
    if before.phase == "garnets":
        s = Scene()
        draw_boards(s, game, after.walls, after.owned, after.pieces)
        _score_panels(s, game, after, viewer)
        s.hint("The garnet bonuses are revealed; the game is over.")
        return [s.to_json()]
    frames = []
    # 1. the orders revealed (the garnet flags stay secret until the end)
    marks: Marks = {}
    for b, board in enumerate(log.boards):
        for v in board.verdicts:
            initials = "".join(names[x][0] for x in v.seats)
            marks.setdefault(b, {})[v.cell] = (PENDING, initials, f"submitted by {names_text(names, v.seats)}")

    def plans(b: int, seat: int, k: int) -> str:
        order = game.order_of(before, seat)
        plan = order.directions[b][k]
        return arrows(plan) if any(d >= 0 for d in plan) else str(k + 1)

    s = Scene()
    draw_boards(s, game, before.walls, before.owned, before.pieces, marks, plans)
    s.panel(f"Round {log.round}: the orders", [[names[w], game.order_words(before, w, before.orders[w], garnet=False)]
                                               for w in range(len(names))])
    s.status(f"Round {log.round}: every order is in")
    s.hint(f"Round {log.round}: the orders are revealed (walls marked with their submitters' initials).")
    frames.append(s.to_json())
    # 2. the walls: placed, or rejected with the reason
    walls = tuple(before.walls[b] | sum(1 << v.cell for v in board.verdicts if v.placed)
                  for b, board in enumerate(log.boards))
    owned = tuple(tuple(m & ~walls[b] for m in before.owned[b]) if p.wall_erases_ownership else before.owned[b]
                  for b in range(3))
    marks = {}
    entries = []
    for b, board in enumerate(log.boards):
        for v in board.verdicts:
            entries.append((b, v.cell, v.seats, v.text))
            if not v.placed:
                marks.setdefault(b, {})[v.cell] = (REJECTED, "✕", v.text)
    s = Scene()
    draw_boards(s, game, walls, owned, before.pieces, marks, plans)
    _walls_panel(s, game, entries, f"Walls of round {log.round}")
    rejected = [f"{p.board_names[b]} {game.tables[b].label(cell)} ({names_text(names, seats)}): {text}"
                for b, cell, seats, text in entries if not text.startswith("placed")]
    placed = sum(1 for e in entries if e[3].startswith("placed"))
    s.status(f"Round {log.round}: walls")
    s.hint(f"{placed} wall{'s' if placed != 1 else ''} placed" + (". Not placed: " + "; ".join(rejected) if rejected
                                                                 else "; none rejected") + ".")
    frames.append(s.to_json())
    # 3. every tick of every movement phase, on all boards at once
    positions = [before.pieces[b] for b in range(3)]
    phases = max((len(board.phases) for board in log.boards), default=0)
    for i in range(phases):
        ticks = max((len(board.phases[i].ticks) for board in log.boards), default=0)
        turns = []
        for b, board in enumerate(log.boards):
            for m in board.phases[i].moves:
                if m.intended >= 0 and m.taken != m.intended:
                    went = f"goes {DIRECTIONS[m.taken]} {ARROWS[m.taken]}" if m.taken >= 0 else "stays (no way out)"
                    turns.append(f"{names[m.seat]}'s piece {m.piece + 1} on {p.board_names[b]} cannot go "
                                 f"{DIRECTIONS[m.intended]}: {went}")
        if ticks == 0:
            s = Scene()
            draw_boards(s, game, walls, owned, tuple(positions))
            s.status(f"Round {log.round}, phase {i + 1}")
            s.hint(f"Phase {i + 1}: no piece moves." + (" " + "; ".join(turns) + "." if turns else ""))
            frames.append(s.to_json())
            continue
        for tick in range(1, ticks + 1):
            s = Scene()
            marks = {}
            lines = []
            current, captured, contested = [], [], []
            tick_owned = []
            for b, board in enumerate(log.boards):
                phase = board.phases[i]
                if phase.ticks:
                    step = phase.ticks[min(tick, len(phase.ticks)) - 1]
                    current.append(step.positions)
                    tick_owned.append(step.owned)
                    if tick <= len(phase.ticks):
                        t = game.tables[b]
                        for c, who in step.captured:
                            marks.setdefault(b, {})[c] = (TINTS[who], "+", f"captured by {names[who]} at this tick")
                            captured.append(f"{p.board_names[b]} {t.label(c)} {names[who]}")
                        for c in step.contested:
                            marks.setdefault(b, {})[c] = (_fill(step.owned, c), "×",
                                                         "pieces of several players here: not captured")
                            contested.append(f"{p.board_names[b]} {t.label(c)}")
                    t = game.tables[b]
                    for m in phase.moves:
                        if m.path:
                            upto = [m.start] + list(m.path[:tick])
                            if len(upto) > 1:
                                lines.append((b, [(x % t.cols + 0.5, x // t.cols + 0.5) for x in upto],
                                              game.seats()[m.seat].color))
                else:
                    current.append(positions[b])
                    tick_owned.append(owned[b])
            draw_boards(s, game, walls, tuple(tick_owned), tuple(current), marks, lines=lines)
            standings_panels(s, game, board_scores(tuple(tick_owned), before.flags, before.placed, p, with_bonus=False))
            s.status(f"Round {log.round}, phase {i + 1} of {phases}, tick {tick}")
            words = f"Phase {i + 1}, tick {tick}: " + ("captured " + ", ".join(captured) if captured else "no capture")
            if contested:
                words += "; not captured (pieces of several players): " + ", ".join(contested)
            if tick == 1 and turns:
                words += ". Blocked: " + "; ".join(turns)
            s.hint(words + ".")
            frames.append(s.to_json())
        positions = list(current)
        owned = tuple(tick_owned)
    return frames


def _fill(owned: Sequence[int], cell: int) -> str:
    for seat, mask in enumerate(owned):
        if mask >> cell & 1:
            return TINTS[seat]
    return FREE

