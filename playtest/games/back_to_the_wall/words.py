"""Back to the Wall in words: a seat's order, the move log's rows and a round's resolution as
lines, and orders written from Python (:meth:`OrderWords.order`).

A part of :class:`.rules.BackToTheWall` (a mixin: it reads the game's parameters, board tables,
seat names and its rules' ``resolve``, ``order_of`` and ``pending_seats``), kept apart so the
rules module stays one concern: what is legal and what it does.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Sequence

from ...kernel import Action, Refusal
from .actions import STAY, AddWall, Clear, Direct, Garnet, RemoveWall, Submit, Withdraw, cell_text
from .params import ARROWS, DIRECTIONS, BackToTheWallParams, arrows
from .position import Order, State
from .resolution import names_text
from .score import FinalScore, ordinal, show_points

if TYPE_CHECKING:
    from .boards import BoardTables
    from .rules import RoundLog

__all__ = ["OrderWords", "with_order"]


def with_order(state: State, seat: int, order: Order | None) -> State:
    """``state`` with ``seat``'s order replaced by ``order`` (``None``: no order)."""
    orders = state.orders
    return state.replace(orders=orders[:seat] + (order,) + orders[seat + 1:])


class OrderWords:
    """Orders, the move log and the resolution in words (mixed into the game class)."""

    params: BackToTheWallParams
    names: Any
    tables: tuple[BoardTables, ...]

    if TYPE_CHECKING:       # the game's (rules.py)
        def pending_seats(self, state: State) -> tuple[int, ...]: ...
        def order_of(self, state: State, seat: int) -> Order: ...
        def empty_order(self, state: State) -> Order: ...
        def resolve(self, state: State, record: bool = True) -> RoundLog: ...
        def scores(self, state: State) -> FinalScore: ...
        def why_not(self, state: State, action: Action, seat: int | None = None) -> Refusal | None: ...

    # ---- orders in words and from Python
    def order_words(self, state: State, seat: int, order: Order | None, garnet: bool = True) -> str:
        """``seat``'s order in words: ``walls Once d4, Twice c3 e7; pieces Once ↑←↓, Twice ↑↑→/·→→``."""
        p = self.params
        order = order or self.empty_order(state)
        walls = ", ".join(f"{p.board_names[b]} " + " ".join(self.tables[b].label(c) for c in cells)
                          for b, cells in enumerate(order.walls) if cells) or "none"
        moves = ", ".join(f"{p.board_names[b]} " + "/".join(map(arrows, per))
                          for b, per in enumerate(order.directions) if per)
        text = f"walls {walls}" + (f"; pieces {moves}" if moves else "")
        if garnet and any(order.garnet):
            text += "; garnet bonus on " + ", ".join(p.board_names[b] for b in range(3) if order.garnet[b])
        return text

    def order(self, seat: int, walls: dict[str, Sequence[Any]] | None = None,
              directions: dict[str, Sequence[str]] | None = None,
              garnet: Sequence[str] = (), submit: bool = True) -> list[Action]:
        """The part actions (then :class:`Submit`) that turn ``seat``'s empty order into the one described.

        ``walls`` maps board names to cells (``"d5"`` or ``[3, 4]``);
        ``directions`` maps board names to one text per piece of letters
        ``U R D L`` (``.``: none), e.g. ``{"Once": ["URD"]}``; ``garnet`` lists
        the boards with the garnet bonus.

        >>> import playtest
        >>> game = playtest.load("back_to_the_wall")
        >>> [str(a) for a in game.order(1, walls={"Twice": ["d5"]}, directions={"Once": ["UL."]})]
        ['seat 1 wall 1:d5', 'seat 1 piece 0:0 phase 1 up', 'seat 1 piece 0:0 phase 2 left', 'seat 1 submit']
        """
        p = self.params
        actions: list[Action] = []
        for name, cells in (walls or {}).items():
            b = p.board_names.index(name)
            for cell in cells:
                index = self.tables[b].cell_of(cell)
                if index is None:
                    raise ValueError(f"{cell!r} is not a cell of {name}")
                actions.append(AddWall(seat, b, self.tables[b].cell(index)))
        for name, plans in (directions or {}).items():
            b = p.board_names.index(name)
            for k, plan in enumerate(plans):
                for i, letter in enumerate(plan):
                    if letter != ".":
                        actions.append(Direct(seat, b, k, i + 1, DIRECTIONS["URDL".index(letter.upper())]))
        for name in garnet:
            actions.append(Garnet(seat, p.board_names.index(name), True))
        if submit:
            actions.append(Submit(seat))
        return actions

    def notation(self, state: State, action: Action, viewer: int | None = None) -> str:
        """The move log's words, as ``viewer`` may read them: a seat's parts only for that seat; the last
        submission reveals every order (but not the garnet flags), every wall's result with its reason and
        the cells captured.

        >>> import playtest
        >>> game = playtest.load("back_to_the_wall")
        >>> state = game.initial_state()
        >>> game.notation(state, AddWall(1, 1, (3, 4)), viewer=1), game.notation(state, AddWall(1, 1, (3, 4)))
        ('East: wall Twice d5', 'East changes their order')
        """
        p = self.params
        seat = getattr(action, "seat", None)
        if type(seat) is not int or not 0 <= seat < len(self.names):
            return str(action)
        name = self.names[seat]
        mine = viewer == seat
        if isinstance(action, (AddWall, RemoveWall, Direct, Garnet)):
            if not mine:
                return f"{name} changes their order"
            board = p.board_names[action.board] if type(action.board) is int and 0 <= action.board < 3 else "?"
            if isinstance(action, AddWall):
                return f"{name}: wall {board} {cell_text(action.at)}"
            if isinstance(action, RemoveWall):
                return f"{name}: takes back the wall {board} {cell_text(action.at)}"
            if isinstance(action, Garnet):
                return f"{name}: {'garnet bonus' if action.on else 'no garnet bonus'} on {board}"
            piece = f"{board} piece {action.piece + 1 if type(action.piece) is int else action.piece}"
            if action.direction == STAY:
                return f"{name}: {piece}, phase {action.phase}: no direction (it stays)"
            arrow = ARROWS[DIRECTIONS.index(action.direction)] if action.direction in DIRECTIONS else ""
            return f"{name}: {piece}, phase {action.phase}: {action.direction} {arrow}".rstrip()
        if isinstance(action, Clear):       # the others' boards show nothing of it: nor does their log
            return f"{name} clears their order" if mine else f"{name} changes their order"
        if isinstance(action, Withdraw):
            return f"{name} withdraws their order"
        if not isinstance(action, Submit):
            return str(action)
        if self.pending_seats(state) != (seat,):
            return f"{name} submitted"
        return f"{name} submitted; " + self.round_words(self.last_submission(state, seat))

    def last_submission(self, state: State, seat: int) -> RoundLog:
        """The resolution that ``seat`` submitting its order as it stands sets off (the last one pending)."""
        return self.resolve(with_order(state, seat, self.order_of(state, seat).replace(submitted=True)))

    def round_words(self, log: RoundLog) -> str:
        """A resolution in words: the orders revealed, every wall's result, the cells captured, the end."""
        p, names = self.params, self.names
        before, after = log.before, log.after
        if before.phase == "garnets":
            return "the garnet bonuses are revealed; " + self._final_words(after)
        parts = [f"round {log.round} revealed: " + "; ".join(
            f"{names[s]}: {self.order_words(before, s, before.orders[s], garnet=False)}" for s in range(len(names)))]
        boards = [self._board_words(log, b) for b in range(3)]
        parts.append("walls placed: " + (", ".join(f"{p.board_names[b]} {c}" for b, (placed, _, _) in
                                                   enumerate(boards) for c in placed) or "none"))
        rejected = [f"{p.board_names[b]} {x}" for b, (_, not_placed, _) in enumerate(boards) for x in not_placed]
        if rejected:
            parts.append("not placed: " + "; ".join(rejected))
        parts.append("cells: " + ", ".join(f"{p.board_names[b]} {cells}" for b, (_, _, cells) in enumerate(boards)))
        return "; ".join(parts + self._end_words(after))

    def _board_words(self, log: RoundLog, b: int) -> tuple[list[str], list[str], str]:
        """Board ``b``'s resolution: the walls placed, those not (who and why), the cells each seat owns."""
        t, names = self.tables[b], self.names
        verdicts = log.boards[b].verdicts
        return ([t.label(v.cell) for v in verdicts if v.placed],
                [f"{t.label(v.cell)} ({names_text(names, v.seats)}): {v.text}" for v in verdicts if not v.placed],
                " ".join(f"{names[s][0]}{bin(log.after.owned[b][s]).count('1')}" for s in range(len(names))))

    def _end_words(self, after: State) -> list[str]:
        if after.phase == "over":
            return [self._final_words(after)]
        if after.phase == "garnets":
            return ["the last round is over: each seat now chooses its garnet bonuses"]
        return []

    # ---- the move log's rows (the table's optional hooks: see playtest.widgets.table)
    def log_group(self, state: State, action: Action, viewer: int | None = None) -> str | None:
        """The table's move log shows a seat's order, part by part, as one row: ``"North's order"``
        (the submission that resolves the round is a row of its own)."""
        seat = getattr(action, "seat", None)
        if type(seat) is not int or not 0 <= seat < len(self.names):
            return None
        if isinstance(action, Submit) and self.pending_seats(state) == (seat,):
            return None
        if isinstance(action, (AddWall, RemoveWall, Direct, Garnet, Clear, Withdraw, Submit)):
            return f"{self.names[seat]}'s order"
        return None

    def log_lines(self, state: State, action: Action, viewer: int | None = None) -> list[str] | None:
        """The submission that resolves a round, as the move log shows it: a short row, then one
        line per order revealed, per board (walls placed and not, the cells captured) and the end."""
        seat = getattr(action, "seat", None)
        if not isinstance(action, Submit) or type(seat) is not int or not 0 <= seat < len(self.names) \
                or self.pending_seats(state) != (seat,) or self.why_not(state, action) is not None:
            return None
        log = self.last_submission(state, seat)
        p, names = self.params, self.names
        before, after = log.before, log.after
        if before.phase == "garnets":
            return [f"{names[seat]} submitted: the garnet bonuses are revealed", self._final_words(after)]
        lines = [f"{names[seat]} submitted: round {log.round} resolves"]
        lines += [f"{names[s]}'s order: {self.order_words(before, s, before.orders[s], garnet=False)}"
                  for s in range(len(names))]
        for b in range(3):
            placed, rejected, cells = self._board_words(log, b)
            text = f"{p.board_names[b]}: walls placed {', '.join(placed) or 'none'}"
            if rejected:
                text += "; not placed " + "; ".join(rejected)
            lines.append(text + f"; cells {cells}")
        return lines + self._end_words(after)

    def _final_words(self, state: State) -> str:
        p, names = self.params, self.names
        result = self.scores(state)
        bonus = [f"{names[s]} +{result.boards[b].bonus[s]} on {p.board_names[b]}"
                 for s in range(len(names)) for b in range(3) if state.flags[s][b]]
        ranking = ", ".join(f"{ordinal(result.places[s])} {names[s]} {show_points(result.totals[s])}"
                            for s in sorted(range(len(names)), key=lambda s: (result.places[s], s)))
        text = f"garnet bonuses: {', '.join(bonus) or 'none'}; final: {ranking}; "
        text += f"Token of Life: {names_text(names, result.winners)}; "
        text += f"Elimination Candidate: {names_text(names, result.candidates)}"
        return text
