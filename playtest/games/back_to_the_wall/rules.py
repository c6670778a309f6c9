"""Back to the Wall's rules: the :class:`BackToTheWall` game, its one legality decision, resolution and end.

The rules summary, the readings and the position format are in the package
docstring. The game is written on the declared kernel: :class:`.position.State` is declared
field by field, ``why_not`` is the one legality decision (a :class:`playtest.Refusal`) and
``effect`` what a legal action does; the kernel's ``apply`` checks, then applies.
``legal_actions`` enumerates exactly what ``why_not`` allows, from the same facts, and the
board shows the refusal for a click that cannot be played.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from ...geometry import bits
from ...kernel import SIMULTANEOUS, Action, Game, GameType, Outcome, Refusal, Seat, per_seat, register
from .actions import STAY, AddWall, Clear, Direct, Garnet, RemoveWall, Submit, Withdraw, cell_text
from .boards import board_tables
from .params import DIRECTIONS, R_BONUS, R_ORDER, R_OVERALL, R_VOID, BackToTheWallParams
from .position import Order, State, pieces_in_round, read_position, seat_names
from .resolution import Phase, Verdict, move_pieces, names_text, resolve_walls
from .score import BoardScore, FinalScore, board_scores, deciding_boards, final_score, show_points
from .words import OrderWords
from .words import with_order as _with_order

__all__ = ["BackToTheWall", "BoardLog", "RoundLog"]

SEAT_COLORS = ("#c0392b", "#2471a3", "#1e8449", "#b9770e")
SEAT_SHAPES = ("circle", "square", "triangle", "diamond")


@dataclass
class BoardLog:
    """One board's resolution: every submitted wall's verdict, then every movement phase tick by tick."""

    verdicts: list[Verdict]
    phases: list[Phase]


@dataclass
class RoundLog:
    """A round's (or the final garnet choice's) resolution: the state before and after, and per board."""

    round: int
    before: State
    after: State
    boards: list[BoardLog]

    def to_json(self, game: "BackToTheWall") -> dict[str, Any]:
        """Every submission, every wall's result, every phase's moves and every tick's captures (golden files)."""
        p, names = game.params, game.names
        data: dict[str, Any] = {"round": self.round, "orders": {}, "boards": {}}
        for s, order in enumerate(self.before.orders):
            data["orders"][names[s]] = game.order_words(self.before, s, order, garnet=False)
        for b, log in enumerate(self.boards):
            t = game.tables[b]
            entry: dict[str, Any] = {
                "walls": [{"cell": t.label(v.cell), "by": [names[s] for s in v.seats], "result": v.text}
                          for v in log.verdicts], "phases": []}
            for phase in log.phases:
                entry["phases"].append({
                    "moves": [f"{names[m.seat]} {m.piece + 1} {t.label(m.start)} "
                              f"{DIRECTIONS[m.intended] if m.intended >= 0 else 'none'}"
                              f"->{DIRECTIONS[m.taken] if m.taken >= 0 else 'stays'}"
                              + (f" {t.label(m.path[-1])}" if m.path else "") for m in phase.moves],
                    "ticks": [{"captured": [f"{t.label(c)} {names[s]}" for c, s in tick.captured],
                               "contested": [t.label(c) for c in tick.contested]} for tick in phase.ticks]})
            data["boards"][p.board_names[b]] = entry
        return data


@register
class BackToTheWall(OrderWords, Game[BackToTheWallParams, State, Action]):
    """Back to the Wall: four players design sliding puzzles on three boards at once, in secret.

    >>> import playtest
    >>> game = playtest.load("back_to_the_wall")
    >>> [seat.name for seat in game.seats()], game.params.walls_per_round
    (['North', 'East', 'South', 'West'], (1, 2, 3))
    """

    name = "back_to_the_wall"
    title = "Back to the Wall"
    credit = ('Back to the Wall, a Main Match for 4 players by "Zero" in the fan-run online game The Genius: '
              "Tempo Up (The Genius Repository); board sizes and walls assumed.")
    Params = BackToTheWallParams
    state_type = State
    action_types = (AddWall, RemoveWall, Direct, Garnet, Clear, Submit, Withdraw)
    # secret orders built at once; the garnet flags stay secret until the end; games can run forever
    # (a wall added and taken back), so no max_length
    game_type = GameType(dynamics="simultaneous", chance=False, information="imperfect", utility="zero_sum")
    end_rule = R_OVERALL

    def __init__(self, params: BackToTheWallParams | None = None, **values: Any):
        super().__init__(params, **values)
        p = self.params
        self.tables = tuple(board_tables(p, b) for b in range(3))
        self.names = seat_names(p)
        self._actions: dict[tuple[Any, ...], Any] = {}
        self._seats = tuple(Seat(name, SEAT_COLORS[i], SEAT_SHAPES[i]) for i, name in enumerate(self.names))
        self._empty: dict[int, Order] = {}
        # a seat's legal parts by what they depend on (_seat_actions)
        self._listings: dict[tuple[Any, ...], tuple[Action, ...]] = {}
        # the scores of the set-up and of the last position asked (_final), the last running scores
        self._finals: list[tuple[Any, FinalScore] | None] = [None, None]
        self._running: tuple[FinalScore, tuple[float, ...]] | None = None

    # ---- seats, setup, whose turn
    def seats(self) -> list[Seat]:
        return list(self._seats)

    def initial_state(self) -> State:
        p = self.params
        n = p.num_players
        pieces = tuple(tuple((t.corners[t.corner_of[s]],) * p.pieces_initial for s in range(n)) for t in self.tables)
        owned = tuple(tuple((1 << t.corners[t.corner_of[s]]) if p.spawn_captures else 0 for s in range(n))
                      for t in self.tables)
        return State(phase="orders", round=1, walls=tuple(t.preplaced for t in self.tables), owned=owned,
                     pieces=pieces, orders=(None,) * n, flags=(((), (), ()),) * n,
                     placed=(((0,) * p.rounds,) * 3,) * n, last=(), rules=p)

    def to_move(self, state: State) -> int | None:
        return None if state.phase == "over" else SIMULTANEOUS

    def pending_seats(self, state: State) -> tuple[int, ...]:
        if state.phase == "over":
            return ()
        return tuple(s for s, o in enumerate(state.orders) if o is None or not o.submitted)

    def seat_of(self, state: State, action: Action) -> int | None:
        """The seat an action is played by: the one it names (every step is simultaneous; the kernel's
        general answer, without asking ``to_move`` again on every checked action)."""
        seat = getattr(action, "seat", None)
        return seat if type(seat) is int and state.phase != "over" else None

    def describe_state(self, state: State) -> str:
        if state.phase == "over":
            return f"Game over: {self.outcome(state).reason}"           # type: ignore[union-attr]
        waiting = ", ".join(self.names[s] for s in self.pending_seats(state))
        if state.phase == "garnets":
            return f"After the last round: garnet bonuses; waiting for {waiting}"
        return f"Round {state.round} of {self.params.rounds}: waiting for {waiting}"

    # ---- queries (the board, the bots and the notebook use these)
    def empty_order(self, state: State) -> Order:
        """An order with nothing set, shaped for ``state``'s round (or for the final garnet choice)."""
        pieces = pieces_in_round(self.params, state.round) if state.phase == "orders" else 0
        order = self._empty.get(pieces)
        if order is None:
            order = self._empty[pieces] = Order.empty(pieces, self.params.directions_per_round)
        return order

    def order_of(self, state: State, seat: int) -> Order:
        """``seat``'s order as it stands (an empty one when nothing is set)."""
        return state.orders[seat] or self.empty_order(state)

    def piece_cells(self, state: State, board: int) -> int:
        """The cells pieces stand on, on ``board`` (a mask)."""
        mask = 0
        for cells in state.pieces[board]:
            for c in cells:
                mask |= 1 << c
        return mask

    def wall_cells(self, state: State, board: int) -> int:
        """Cells where a wall may be submitted on ``board`` (before the seat's own quota and choices): every
        cell (a wall that would be void is accepted and dropped at the resolution, B.1 §9.1), or with
        ``refuse_void_walls`` only the :meth:`open_cells`."""
        if not self.params.refuse_void_walls:
            return self.tables[board].all
        return self.open_cells(state, board)

    def open_cells(self, state: State, board: int) -> int:
        """Cells of ``board`` where a wall submitted now would not be void: no wall, no corner, no piece
        (the cells the bots and :meth:`random_order` choose from).

        >>> import playtest
        >>> game = playtest.load("back_to_the_wall")
        >>> state = game.initial_state()
        >>> bin(game.wall_cells(state, 0)).count("1"), bin(game.open_cells(state, 0)).count("1")   # 8 x 8
        (64, 58)
        """
        t = self.tables[board]
        return _free_cells(t.all & ~t.corner_mask, state.walls[board], state.pieces[board])

    def void_reason(self, state: State, board: int, cell: int) -> str | None:
        """Why a wall submitted on ``cell`` (an index) of ``board`` now would be void at the resolution
        (B.1 §9.1), in words, or ``None``: the table warns with it while accepting the wall.

        >>> import playtest
        >>> game = playtest.load("back_to_the_wall")
        >>> state = game.initial_state()
        >>> game.void_reason(state, 0, 0), game.void_reason(state, 0, 9) is None
        ("walls never go on a corner (this is North's corner)", True)
        """
        t = self.tables[board]
        if state.walls[board] >> cell & 1:
            return "a wall stands here already"
        if t.corner_mask >> cell & 1:
            owner = t.seat_at_corner[t.corners.index(cell)]
            return f"walls never go on a corner (this is {self.names[owner]}'s corner)" if owner >= 0 else \
                "walls never go on a corner"
        if self.piece_cells(state, board) >> cell & 1:
            return "a piece stands here"
        return None

    def garnets_promised(self, state: State, seat: int, order: Order | None = None) -> int:
        """Garnets ``seat`` has committed: its flags of earlier rounds and of ``order``, times the cost."""
        order = order if order is not None else state.orders[seat]
        flags = sum(len(rounds) for rounds in state.flags[seat]) + (sum(order.garnet) if order else 0)
        return flags * self.params.garnet_bonus_cost

    def scores(self, state: State) -> FinalScore:
        """The result as things stand (at the end: the final result, with the garnet bonuses).

        >>> import playtest
        >>> game = playtest.load("back_to_the_wall")
        >>> game.scores(game.initial_state()).totals        # nobody has a cell: all tied on every board
        (9.75, 9.75, 9.75, 9.75)
        """
        return self._final(state)

    def _final(self, state: State) -> FinalScore:
        """:func:`final_score` of ``state``, kept for the set-up and for the last position asked (the
        lab reads the running scores at every turn end, then the outcome of the same last position;
        they change only when a round resolves)."""
        key = (state.owned, state.flags, state.placed)
        finals = self._finals
        if finals[0] is None:
            start = self.initial_state()
            finals[0] = ((start.owned, start.flags, start.placed),
                         final_score(start.owned, start.flags, start.placed, self.params))
        for kept in finals:
            if kept is not None and kept[0] == key:
                return kept[1]
        result = final_score(state.owned, state.flags, state.placed, self.params)
        finals[1] = (key, result)
        return result

    def running_scores(self, state: State) -> tuple[float, ...]:
        """Each seat's total points if the game ended now (:meth:`scores`: board places on the cells
        owned, with the garnet bonuses flagged so far, secret as they are), less 0.01 for each
        seat ranked ahead of it (the overall place, with the B26 tie-breaks). The place follows
        the totals first, so this orders the seats exactly as the final ranking does: at the
        end every winner (first place) is ahead of every other seat. The last answer is kept:
        it changes only when a round resolves.

        >>> import playtest
        >>> game = playtest.load("back_to_the_wall")
        >>> game.running_scores(game.initial_state())       # nobody has a cell: all tied
        (9.75, 9.75, 9.75, 9.75)
        """
        result = self._final(state)
        kept = self._running
        if kept is not None and kept[0] is result:
            return kept[1]
        scores = tuple(total - 0.01 * (place - 1) for total, place in zip(result.totals, result.places))
        self._running = (result, scores)
        return scores

    def deciding_boards(self, state: State) -> tuple[int, ...]:
        """The boards without whose points someone else would win (for balance statistics).

        >>> import playtest
        >>> game = playtest.load("back_to_the_wall")
        >>> game.deciding_boards(game.initial_state())          # all tied: no single board decides
        ()
        """
        return deciding_boards(self.scores(state), self.params)

    def board_standings(self, state: State, seat: int | None = None) -> tuple[BoardScore, ...]:
        """Each board's cells, places and points as ``seat`` may know them: the garnet bonuses count only at
        the end (they are secret until then)."""
        if state.phase == "over":
            return self.scores(state).boards
        return board_scores(state.owned, state.flags, state.placed, self.params, with_bonus=False)

    def outcome(self, state: State) -> Outcome | None:
        if state.phase != "over":
            return None
        result = self.scores(state)
        names = self.names
        totals = ", ".join(f"{names[s]} {show_points(result.totals[s])}" for s in range(len(names)))
        winners = names_text(names, result.winners)
        shared = " (shared)" if len(result.winners) > 1 else ""
        reason = (f"{winners} {'win' if len(result.winners) > 1 else 'wins'} the Token of Life{shared} "
                  f"with {show_points(result.totals[result.winners[0]])} points; Elimination Candidate: "
                  f"{names_text(names, result.candidates)} (points: {totals})")
        return Outcome(result.winners, reason, scores=tuple(result.totals))

    # ---- legality: one decision (why_not); legal_actions enumerates what it allows from the same facts
    def _cached(self, key: tuple[Any, ...], make: Any) -> Any:
        action = self._actions.get(key)
        if action is None:
            action = self._actions[key] = make()
        return action

    def legal_actions(self, state: State, seat: int | None = None) -> list[Action]:
        """Every part ``seat`` (every pending seat, with ``None``) may add to its order now, in a fixed order.

        It is ``why_not``'s decision enumerated, written for speed (it runs at every step of a random
        game): the same quota, the same :meth:`wall_cells`, the same :meth:`_direct_choices`, garnet
        check and submit rule, with no second copy of a rule; a property test checks that it lists
        exactly what ``why_not`` lets through.
        """
        if state.phase == "over":
            return []
        if seat is not None:
            return self._seat_actions(state, seat) if 0 <= seat < len(self.names) else []
        actions: list[Action] = []
        for s in range(len(self.names)):
            actions += self._seat_actions(state, s)
        return actions

    def _seat_actions(self, state: State, seat: int) -> list[Action]:
        """``seat``'s parts, from a small cache keyed by everything the listing reads (the seat's order,
        phase, round and garnet flags; the walls and pieces when void walls are refused): a seat's
        listing is asked twice a step by a runner that also checks the bot's choice."""
        order = state.orders[seat]
        if order is not None and order.submitted:
            return [self._cached(("withdraw", seat), lambda: Withdraw(seat))] if self._others_pending(state, seat) \
                else []
        key = (seat, state.phase, state.round, order, state.flags[seat],
               (state.walls, state.pieces) if self.params.refuse_void_walls else None)
        listed = self._listings.get(key)
        if listed is None:
            if len(self._listings) >= 64:
                self._listings.clear()
            listed = self._listings[key] = tuple(self._list_seat_actions(state, seat, order))
        return list(listed)

    def _list_seat_actions(self, state: State, seat: int, order: Order | None) -> list[Action]:
        p = self.params
        cur = order or self.empty_order(state)
        actions: list[Action] = []
        if state.phase == "orders":
            for b in range(3):
                mine = cur.walls[b]
                if len(mine) < p.walls_per_round[b]:
                    table = self._wall_table(seat, b)
                    if mine:
                        actions += [table[c] for c in cell_list(self.wall_cells(state, b)) if c not in mine]
                    else:
                        actions += [table[c] for c in cell_list(self.wall_cells(state, b))]
            for b, t in enumerate(self.tables):
                for c in cur.walls[b]:
                    actions.append(self._cached(("unwall", seat, b, c), lambda: RemoveWall(seat, b, t.cell(c))))
            get = self._actions.get
            for b, per in enumerate(cur.directions):
                for k, plan in enumerate(per):
                    for i, d in enumerate(plan):
                        actions += get(("direct", seat, b, k, i, d)) or self._direct_choices(seat, b, k, i, d)
        for b in range(3):
            if cur.garnet[b]:
                actions.append(self._cached(("garnet", seat, b, False), lambda: Garnet(seat, b, False)))
            elif self._garnet_problem(state, seat, cur, b) is None:
                actions.append(self._cached(("garnet", seat, b, True), lambda: Garnet(seat, b, True)))
        if order is not None:
            actions.append(self._cached(("clear", seat), lambda: Clear(seat)))
        if self._may_submit(cur):
            actions.append(self._cached(("submit", seat), lambda: Submit(seat)))
        return actions

    def _others_pending(self, state: State, seat: int) -> bool:
        """Whether a seat other than ``seat`` has still to submit (a submitted order may be withdrawn until then)."""
        return any(o is None or not o.submitted for s, o in enumerate(state.orders) if s != seat)

    def _may_submit(self, order: Order) -> bool:
        """Whether ``order`` may be submitted: with ``missing_direction = "refuse"`` every direction is given (B22)."""
        return self.params.missing_direction == "stay" or order.missing() == 0

    def _wall_table(self, seat: int, board: int) -> list[AddWall]:
        """:class:`AddWall` of ``seat`` on every cell of ``board``, by cell index (built once)."""
        key = ("walls", seat, board)
        table = self._actions.get(key)
        if table is None:
            t = self.tables[board]
            table = self._actions[key] = [AddWall(seat, board, t.cell(c)) for c in range(t.size)]
        return table

    def _direct_choices(self, seat: int, board: int, piece: int, phase: int, current: int) -> tuple[Direct, ...]:
        """The :class:`Direct` actions open to phase ``phase + 1`` of a piece whose direction there is ``current``
        (-1: none): another direction, or (with ``missing_direction = "stay"``) none (built once)."""
        key = ("direct", seat, board, piece, phase, current)
        options = self._actions.get(key)
        if options is None:
            options = self._actions[key] = tuple(self._direct(seat, board, piece, phase, d)
                                                 for d in (0, 1, 2, 3, -1) if self._direction_open(current, d))
        return options

    def _direct(self, seat: int, board: int, piece: int, phase: int, d: int) -> Direct:
        """The :class:`Direct` giving phase ``phase + 1`` of a piece direction ``d`` (-1: none), built once: the
        listing and :meth:`random_order_parts` hand out the same object (the lab proves a part by identity)."""
        action: Direct = self._cached(("to", seat, board, piece, phase, d),
                                      lambda: Direct(seat, board, piece, phase + 1, DIRECTIONS[d] if d >= 0 else STAY))
        return action

    def _direction_open(self, current: int, d: int) -> bool:
        """Whether a phase whose direction is ``current`` (-1: none) may be given direction ``d`` (-1: none, the
        piece stays): another direction, or none when one is given and ``missing_direction = "stay"`` (B22)."""
        if d < 0:
            return current >= 0 and self.params.missing_direction == "stay"
        return d != current

    def _garnet_problem(self, state: State, seat: int, order: Order, board: int) -> Refusal | None:
        """Why ``seat`` may not flag the garnet bonus on ``board`` now (``None``: it may)."""
        p = self.params
        name, board_name = self.names[seat], p.board_names[board]
        if not p.garnet_bonus_enabled:
            return Refusal("the garnet bonus is off (garnet_bonus_enabled)", R_BONUS)
        if state.phase == "orders" and p.garnet_decision_time == "at_end":
            return Refusal('the garnet bonus is chosen after the last round (garnet_decision_time = "at_end")',
                           R_BONUS)
        used = len(state.flags[seat][board])
        if used + 1 > p.garnet_bonus_max_per_board:
            return Refusal(f"{name} has used the garnet bonus on {board_name} already (at most "
                           f"{p.garnet_bonus_max_per_board} per board)", R_BONUS)
        promised = self.garnets_promised(state, seat, order)
        if promised + p.garnet_bonus_cost > p.starting_garnets:
            return Refusal(f"{name} holds {p.starting_garnets} garnets and {promised} are promised already "
                           f"(a bonus costs {p.garnet_bonus_cost})", R_BONUS)
        return None

    def why_not(self, state: State, action: Action, seat: int | None = None) -> Refusal | None:
        """Why ``action`` may not be played in ``state`` (the text and the rule it cites), or ``None`` when it
        may: the one decision ``apply``, ``legal_actions`` and the board share. The seat is the one the
        action names (the kernel's :meth:`check` has refused another ``seat`` already).

        >>> import playtest
        >>> game = playtest.load("back_to_the_wall")
        >>> state = game.initial_state()
        >>> game.why_not(state, AddWall(1, 0, (8, 0)))
        Refusal(text='i1 is not a cell of Once (8 x 8)', rule='B.1 §1')
        >>> game.why_not(state, AddWall(1, 0, (0, 0))) is None     # accepted: void at the resolution (B.1 §9.1)
        True
        >>> playtest.load("back_to_the_wall", refuse_void_walls=True).why_not(state, AddWall(1, 0, (0, 0)))
        Refusal(text="walls never go on a corner (Once a1 is North's corner)", rule='B.1 §9.1')
        """
        p = self.params
        if not isinstance(action, self.action_types):
            return Refusal(f"{action!r} is not a Back to the Wall action"[:300])
        if state.phase == "over":
            return Refusal("the game is over", R_OVERALL)
        seat = action.seat
        if type(seat) is not int or not 0 <= seat < len(self.names):
            return Refusal(f"there is no seat {seat!r}: the seats are 0 to {len(self.names) - 1}")
        name = self.names[seat]
        order = state.orders[seat]
        submitted = order is not None and order.submitted
        if isinstance(action, Withdraw):
            if not submitted:
                return Refusal(f"{name} has no submitted order to withdraw", R_ORDER)
            if not self._others_pending(state, seat):
                return Refusal("every other seat has submitted: the round is resolved", R_ORDER)
            return None
        if submitted:
            return Refusal(f"{name} has already submitted; withdraw the order to change it", R_ORDER)
        cur = order or self.empty_order(state)
        if isinstance(action, Clear):
            return None if order is not None else Refusal(f"{name}'s order has nothing to clear", R_ORDER)
        if isinstance(action, Submit):
            if self._may_submit(cur):
                return None
            return Refusal(f"{name} must give every piece its {p.directions_per_round} directions before "
                           f'submitting ({cur.missing()} missing; missing_direction = "refuse")', "B22")
        board = action.board
        if type(board) is not int or not 0 <= board < 3:
            return Refusal(f"there is no board {board!r}: the boards are 0 ({p.board_names[0]}) to 2 "
                           f"({p.board_names[2]})")
        board_name = p.board_names[board]
        if isinstance(action, Garnet):
            if type(action.on) is not bool:
                return Refusal("a garnet flag is on (true) or off (false)")
            if cur.garnet[board] == action.on:
                return Refusal(f"{name}'s order already {'uses' if action.on else 'does not use'} the garnet bonus "
                               f"on {board_name}", R_BONUS)
            return self._garnet_problem(state, seat, cur, board) if action.on else None
        if state.phase != "orders":
            return Refusal('after the last round only the garnet bonus is chosen (garnet_decision_time = "at_end")',
                           R_BONUS)
        t = self.tables[board]
        if isinstance(action, (AddWall, RemoveWall)):
            cell = t.cell_of(action.at) if isinstance(action.at, tuple) else None
            if cell is None:
                return Refusal(f"{cell_text(action.at)} is not a cell of {board_name} ({t.cols} x {t.rows})",
                               "B.1 §1")
            where = f"{board_name} {t.label(cell)}"
            mine = cur.walls[board]
            if isinstance(action, RemoveWall):
                return None if cell in mine else Refusal(f"{where} is not in {name}'s order", R_ORDER)
            if cell in mine:
                return Refusal(f"{where} is already in {name}'s order: a cell is submitted once", R_VOID)
            quota = p.walls_per_round[board]
            if len(mine) >= quota:
                return Refusal(f"{name} may submit {quota} wall{'s' if quota != 1 else ''} a round on {board_name} "
                               f"(walls_per_round){': take one back first' if quota else ''}", R_ORDER)
            if not self.wall_cells(state, board) >> cell & 1:
                return self._void_refusal(state, board, cell)
            return None
        assert isinstance(action, Direct)
        count = len(cur.directions[board])
        if type(action.piece) is not int or not 0 <= action.piece < count:
            return Refusal(f"{name} has {count} piece{'s' if count != 1 else ''} on {board_name}, numbered from 0: "
                           f"there is no piece {action.piece!r}", R_ORDER)
        phases = p.directions_per_round
        if type(action.phase) is not int or not 1 <= action.phase <= phases:
            return Refusal(f"the phases are numbered 1 to {phases}, not {action.phase!r}", R_ORDER)
        if action.direction not in DIRECTIONS + (STAY,):
            return Refusal(f"a direction is up, right, down or left (or stay), not {action.direction!r}", R_ORDER)
        current = cur.directions[board][action.piece][action.phase - 1]
        if self._direction_open(current, -1 if action.direction == STAY else DIRECTIONS.index(action.direction)):
            return None
        piece = f"{name}'s piece {action.piece + 1} on {board_name}"
        if action.direction != STAY:
            return Refusal(f"{piece} already goes {action.direction} in phase {action.phase}", R_ORDER)
        if p.missing_direction != "stay":
            return Refusal('every phase needs a direction (missing_direction = "refuse")', "B22")
        return Refusal(f"{piece} has no direction in phase {action.phase} to take back", R_ORDER)

    def _void_refusal(self, state: State, board: int, cell: int) -> Refusal:
        """Why a wall may not go on ``cell`` (not among :meth:`wall_cells`): a wall, a corner or a piece is there."""
        t = self.tables[board]
        where = f"{self.params.board_names[board]} {t.label(cell)}"
        if state.walls[board] >> cell & 1:
            return Refusal(f"{where} is already a wall", R_VOID)
        if t.corner_mask >> cell & 1:
            owner = t.seat_at_corner[t.corners.index(cell)]
            whose = f"{self.names[owner]}'s corner" if owner >= 0 else "a corner"
            return Refusal(f"walls never go on a corner ({where} is {whose})", R_VOID)
        return Refusal(f"a piece stands on {where}: walls never go under a piece", R_VOID)

    def effect(self, state: State, action: Action) -> State:
        """The state after a legal part of an order, a clear, a withdrawal or a submission (the last one
        resolves the round)."""
        seat = action.seat  # type: ignore[attr-defined]
        order = state.orders[seat]
        if isinstance(action, Clear):
            return _with_order(state, seat, None)
        if isinstance(action, Withdraw):
            return _with_order(state, seat, _normal(order.replace(submitted=False)))
        cur = order or self.empty_order(state)
        if isinstance(action, Submit):
            state = _with_order(state, seat, cur.replace(submitted=True))
            if self.pending_seats(state):
                return state
            return self.resolve(state, record=False).after
        if isinstance(action, Garnet):
            return _with_order(state, seat, _normal(cur.replace(garnet=per_seat(cur.garnet, action.board, action.on))))
        if isinstance(action, (AddWall, RemoveWall)):
            mine = set(cur.walls[action.board])
            mine.symmetric_difference_update((self.tables[action.board].index(action.at),))
            return _with_order(state, seat, _normal(cur.replace(walls=per_seat(cur.walls, action.board,
                                                                           tuple(sorted(mine))))))
        assert isinstance(action, Direct)
        d = -1 if action.direction == STAY else DIRECTIONS.index(action.direction)
        per = cur.directions[action.board]
        plan = per_seat(per[action.piece], action.phase - 1, d)
        return _with_order(state, seat, _normal(cur.replace(
            directions=per_seat(cur.directions, action.board, per_seat(per, action.piece, plan)))))

    # ---- resolution
    def resolve(self, state: State, record: bool = True) -> RoundLog:
        """Resolve the round with every seat's order as it stands in ``state`` (submitted or not).

        Per board: the walls (B.1 §9), ownership erased under new walls, then
        the movement phases (B.1 §10); then the placed walls are counted, the
        garnet flags kept (secretly), the next round's pieces spawn (B.1 §7), or
        the game ends. With ``record`` the log holds every verdict and tick.
        """
        p = self.params
        n = len(self.names)
        orders = [self.order_of(state, s) for s in range(n)]
        if state.phase == "garnets":          # the final garnet choice: the best round of each flagged board
            flags = tuple(tuple(((max(range(1, p.rounds + 1), key=lambda r: (state.placed[s][b][r - 1], -r)),)
                                 if orders[s].garnet[b] else state.flags[s][b]) for b in range(3)) for s in range(n))
            after = state.replace(phase="over", orders=(None,) * n, flags=flags)
            return RoundLog(state.round, state, after, [BoardLog([], []) for _ in range(3)])
        walls, owned, pieces, logs, last = [], [], [], [], []
        placed = [[list(per) for per in state.placed[s]] for s in range(n)]
        for b, t in enumerate(self.tables):
            occupied: dict[int, list[int]] = {}
            for s in range(n):
                for c in state.pieces[b][s]:
                    occupied.setdefault(c, []).append(s)
            new, verdicts = resolve_walls(t, state.walls[b], sum(1 << c for c in occupied),
                                          {s: orders[s].walls[b] for s in range(n)}, p, b, self.names, occupied)
            board_walls = state.walls[b] | new
            own = list(state.owned[b])
            if p.wall_erases_ownership:
                own = [m & ~new for m in own]
            own, cells, phases = move_pieces(t, board_walls, own, state.pieces[b],
                                             [orders[s].directions[b] for s in range(n)], p, record)
            for v in verdicts:
                if v.placed:
                    for s in v.seats:
                        placed[s][b][state.round - 1] += 1
                last.append((b, v.cell, v.seats, v.text))
            walls.append(board_walls)
            owned.append(tuple(own))
            pieces.append(tuple(tuple(c) for c in cells))
            logs.append(BoardLog(verdicts, phases))
        flags = tuple(tuple(state.flags[s][b] + ((state.round,) if orders[s].garnet[b] else ()) for b in range(3))
                      for s in range(n))
        after = State(phase="orders", round=state.round, walls=tuple(walls), owned=tuple(owned), pieces=tuple(pieces),
                      orders=(None,) * n, flags=flags, placed=tuple(tuple(tuple(per) for per in placed[s])
                                                                    for s in range(n)), last=tuple(last), rules=p)
        if state.round < p.rounds:
            after = self._spawn(after.replace(round=state.round + 1))
        elif p.garnet_decision_time == "at_end" and p.garnet_bonus_enabled and p.garnet_bonus_max_per_board:
            after = after.replace(phase="garnets")
        else:
            after = after.replace(phase="over")
        return RoundLog(state.round, state, after, logs)

    def _spawn(self, state: State) -> State:
        """Each player gains ``pieces_gain_per_round`` pieces on each board, on their corner (B.1 §7)."""
        p = self.params
        gain = p.pieces_gain_per_round
        pieces, owned = [], []
        for b, t in enumerate(self.tables):
            per, own = [], list(state.owned[b])
            for s in range(len(self.names)):
                corner = t.corners[t.corner_of[s]]
                per.append(state.pieces[b][s] + (corner,) * gain)
                if p.spawn_captures and gain:
                    own = [m & ~(1 << corner) for m in own]
                    own[s] |= 1 << corner
            pieces.append(tuple(per))
            owned.append(tuple(own))
        return state.replace(pieces=tuple(pieces), owned=tuple(owned))

    # ---- what each seat may know
    def determinize(self, state: State, seat: int | None, rng: random.Random) -> State:
        """A state ``seat`` cannot tell from ``state``: the other seats' orders are redrawn (a submitted one
        stays submitted, an unsubmitted one is dropped) and so are their secret garnet flags of earlier rounds
        (within what the rules allow). Everything else is public."""
        if state.phase == "over":
            return state
        orders = list(state.orders)
        flags = list(state.flags)
        for s in range(len(self.names)):
            if s == seat:
                continue
            flags[s] = self._random_flags(state, rng)
            order = orders[s]
            orders[s] = self.random_order(state.replace(flags=tuple(flags)), s, rng).replace(submitted=True) \
                if order is not None and order.submitted else None
        return state.replace(orders=tuple(orders), flags=tuple(flags))

    def _random_flags(self, state: State, rng: random.Random) -> tuple[tuple[int, ...], ...]:
        p = self.params
        done = state.round - 1 if state.phase == "orders" else 0
        budget = p.starting_garnets // p.garnet_bonus_cost if p.garnet_bonus_cost else 99
        flags = []
        for _b in range(3):
            rounds: tuple[int, ...] = ()
            if p.garnet_bonus_enabled and done and budget and p.garnet_bonus_max_per_board and rng.random() < 0.5:
                rounds = (rng.randint(1, done),)
                budget -= 1
            flags.append(rounds)
        return tuple(flags)

    def random_order(self, state: State, seat: int, rng: random.Random) -> Order:
        """A legal order for ``seat`` drawn at random from public information (walls up to the quota on
        random :meth:`open_cells` (never a void one), a random direction for every phase, sometimes a garnet flag)."""
        p = self.params
        order = self.empty_order(state)
        if state.phase == "orders":
            walls = []
            for b in range(3):
                allowed = cell_list(self.open_cells(state, b))
                k = min(rng.randint(0, p.walls_per_round[b]), len(allowed))
                walls.append(tuple(sorted(rng.sample(allowed, k))))
            slots = sum(len(plan) for per in order.directions for plan in per)
            draw = rng.getrandbits(2 * slots) if slots else 0       # two bits per direction
            directions = []
            for per in order.directions:
                board = []
                for plan in per:
                    board.append(tuple((draw >> 2 * i) & 3 for i in range(len(plan))))
                    draw >>= 2 * len(plan)
                directions.append(tuple(board))
            order = order.replace(walls=tuple(walls), directions=tuple(directions))
        garnet = list(order.garnet)
        for b in range(3):
            if rng.random() < 0.2 and self._garnet_problem(state, seat, order.replace(garnet=tuple(garnet)), b) is None:
                garnet[b] = True
        return order.replace(garnet=tuple(garnet))

    def finish_order(self, state: State, seat: int, rng: random.Random) -> State:
        """The state after pending ``seat`` finishes its order at random and submits it (the last submission
        resolves the round): what a search bot's play-outs do instead of walking the order part by part.
        :meth:`complete_order`, then :meth:`submit_order`.

        >>> import playtest, random
        >>> game = playtest.load("back_to_the_wall", rounds=1)
        >>> state = game.finish_order(game.initial_state(), 2, random.Random(1))
        >>> game.pending_seats(state), game.order_problem(state, 2, state.orders[2]) is None
        ((0, 1, 3), True)
        """
        return self.submit_order(state, seat, self.complete_order(state, seat, rng))

    def complete_order(self, state: State, seat: int, rng: random.Random) -> Order:
        """``seat``'s order with what it has not set drawn at random (not submitted): the parts the seat
        has set stay; more walls up to a random count within the quota go on random :meth:`open_cells`,
        every direction not given gets a random one, and a garnet flag is sometimes added where the
        rules allow it (as :meth:`random_order`). An order ``why_not`` accepts part by part.
        """
        p = self.params
        order = self.order_of(state, seat)
        if state.phase == "orders":
            walls = []
            for b in range(3):
                mine = order.walls[b]
                quota = p.walls_per_round[b]
                extra = rng.randint(len(mine), quota) - len(mine) if len(mine) < quota else 0
                if extra:
                    allowed = cell_list(self.open_cells(state, b))
                    if mine:
                        allowed = tuple(c for c in allowed if c not in mine)
                    mine = tuple(sorted(mine + tuple(rng.sample(allowed, min(extra, len(allowed))))))
                walls.append(mine)
            directions = tuple(tuple(tuple(d if d >= 0 else rng.getrandbits(2) for d in plan) for plan in per)
                               for per in order.directions)
            order = order.replace(walls=tuple(walls), directions=directions)
        garnet = list(order.garnet)
        for b in range(3):
            if not garnet[b] and rng.random() < 0.2 and \
                    self._garnet_problem(state, seat, order.replace(garnet=tuple(garnet)), b) is None:
                garnet[b] = True
        return order.replace(garnet=tuple(garnet), submitted=False)

    def submit_order(self, state: State, seat: int, order: Order) -> State:
        """The state after pending ``seat`` submits ``order`` whole (a legal order, e.g. from
        :meth:`complete_order`; the last submission resolves the round). For searches: it does not check."""
        state = _with_order(state, seat, order.replace(submitted=True))
        if self.pending_seats(state):
            return state
        return self.resolve(state, record=False).after

    def random_order_parts(self, state: State, seat: int, rng: random.Random) -> list[Action] | None:
        """A random whole order for pending ``seat`` as the parts that enter it (the kernel's hook for the
        lab's random player): :meth:`complete_order` from what the seat has set, entered in
        :meth:`step_toward`'s order (walls, directions, garnet flags, then :class:`Submit`). ``None``
        when ``seat`` has no order to give (not pending, or the game is over).

        >>> import playtest, random
        >>> game = playtest.load("back_to_the_wall", rounds=1)
        >>> parts = game.random_order_parts(game.initial_state(), 0, random.Random(3))
        >>> str(parts[-1]), all(p.seat == 0 for p in parts)
        ('seat 0 submit', True)
        """
        if seat not in self.pending_seats(state):
            return None
        return self._parts_toward(state, seat, self.complete_order(state, seat, rng))

    def _parts_toward(self, state: State, seat: int, order: Order) -> list[Action]:
        """Every part :meth:`step_toward` would give, one after another, to bring ``seat``'s order to
        ``order`` and submit it (the actions built once per game, as the listing builds them)."""
        now = self.order_of(state, seat)
        parts: list[Action] = []
        for b in range(3):
            t = self.tables[b]
            want, have = order.walls[b], now.walls[b]
            for c in have:
                if c not in want:
                    parts.append(self._cached(("unwall", seat, b, c), lambda: RemoveWall(seat, b, t.cell(c))))
            if want:
                table = self._wall_table(seat, b)
                parts += [table[c] for c in want if c not in have]
        cached = self._cached
        for b, per in enumerate(order.directions):
            for k, plan in enumerate(per):
                had = now.directions[b][k]
                for i, d in enumerate(plan):
                    if had[i] != d:
                        parts.append(self._direct(seat, b, k, i, d))
        for b in range(3):
            on = order.garnet[b]
            if now.garnet[b] != on:
                parts.append(cached(("garnet", seat, b, on), lambda: Garnet(seat, b, on)))
        parts.append(cached(("submit", seat), lambda: Submit(seat)))
        return parts

    def step_toward(self, state: State, seat: int, order: Order) -> Action:
        """The next part that brings ``seat``'s order as it stands toward ``order``: walls taken off, walls
        put on, directions, garnet flags (board by board), then :class:`Submit` when they are the same.
        How a bot that plans whole orders enters them.

        >>> import playtest, random
        >>> game = playtest.load("back_to_the_wall", rounds=1)
        >>> state = game.initial_state()
        >>> plan = game.complete_order(state, 0, random.Random(3))
        >>> while not isinstance(action := game.step_toward(state, 0, plan), Submit):
        ...     state = game.apply(state, action)
        >>> game.order_of(state, 0) == plan
        True
        """
        return self._parts_toward(state, seat, order)[0]

    # ---- positions, actions, parameters
    def state_from_json(self, data: Any) -> State:
        """A position from its JSON form (the package docstring): read by :func:`.position.read_position`, then
        checked by :meth:`check_state`."""
        state = read_position(self, data)
        self.check_state(state)
        return state

    def check_state(self, state: State) -> None:
        """Refuse a position these rules cannot reach, naming the field (``ValueError``)."""
        p, names = self.params, self.names
        if state.phase == "garnets" and (p.garnet_decision_time != "at_end" or not p.garnet_bonus_enabled):
            raise ValueError('phase "garnets" (the garnet bonus chosen after the last round) needs '
                             'garnet_decision_time = "at_end" and garnet_bonus_enabled')
        if state.phase != "orders" and state.round != p.rounds:
            raise ValueError(f"phase {state.phase!r} comes after the last round: round must be {p.rounds}")
        count = pieces_in_round(p, state.round)
        for b, t in enumerate(self.tables):
            where, wall = f"boards.{p.board_names[b]}", state.walls[b]
            if wall & t.corner_mask:
                raise ValueError(f"{where}.rows: a corner cannot be a wall")
            if not t.corners_connected(wall, p.corner_rule):
                raise ValueError(f"{where}.rows: the walls cut a corner off ({p.corner_rule}, rule B.1 §9.3)")
            if p.wall_erases_ownership and any(m & wall for m in state.owned[b]):
                raise ValueError(f"{where}.rows: a wall cell cannot be owned (wall_erases_ownership)")
            for s, cells in enumerate(state.pieces[b]):
                if len(cells) != count:
                    raise ValueError(f"{where}.pieces.{names[s]}: {names[s]} has {count} piece(s) on each board in "
                                     f"round {state.round}, not {len(cells)} (pieces_initial, pieces_gain_per_round)")
                if any(wall >> c & 1 for c in cells):
                    raise ValueError(f"{where}.pieces.{names[s]}: a piece cannot stand on a wall")
        done = state.round - 1 if state.phase == "orders" else p.rounds
        for s in range(len(names)):
            for b in range(3):
                if len(state.flags[s][b]) > p.garnet_bonus_max_per_board:
                    raise ValueError(f"flags.{names[s]}.{p.board_names[b]}: at most garnet_bonus_max_per_board = "
                                     f"{p.garnet_bonus_max_per_board} bonus per board")
            used = sum(len(x) for x in state.flags[s]) * p.garnet_bonus_cost
            if used > p.starting_garnets:
                raise ValueError(f"flags.{names[s]}: {used} garnets spent but only {p.starting_garnets} held")
            if used and not p.garnet_bonus_enabled:
                raise ValueError(f"flags.{names[s]}: the garnet bonus is off (garnet_bonus_enabled)")
            for b in range(3):
                if any(state.placed[s][b][done:]):
                    raise ValueError(f"placed.{names[s]}.{p.board_names[b]}: no walls are placed in rounds not "
                                     f"played yet")
        if state.phase != "over" and all(o is not None and o.submitted for o in state.orders):
            raise ValueError("orders: when every seat has submitted, the round is resolved")
        if state.phase == "over" and any(o is not None for o in state.orders):
            raise ValueError("orders: the game is over, there are no orders")
        for s in range(len(names)):
            problem = self.order_problem(state, s, state.orders[s])
            if problem:
                raise ValueError(f"orders.{names[s]}: {problem}")

    def order_problem(self, state: State, seat: int, order: Order | None) -> str | None:
        """Why ``order`` cannot be ``seat``'s order in ``state`` (for hand-written positions), or ``None``."""
        if order is None:
            return None
        p = self.params
        empty = self.empty_order(state)
        if len(order.directions) != 3 or any(len(per) != len(e) for per, e in zip(order.directions, empty.directions)):
            return "its directions do not match the pieces on the boards"
        for b in range(3):
            if len(order.walls[b]) > p.walls_per_round[b]:
                return f"{len(order.walls[b])} walls on {p.board_names[b]}: at most {p.walls_per_round[b]} (walls_per_round)"
            allowed = self.wall_cells(state, b) if state.phase == "orders" else 0
            for c in order.walls[b]:
                if not allowed >> c & 1:
                    return (f"{p.board_names[b]} {self.tables[b].label(c)} cannot take a wall "
                            f"{'now' if state.phase != 'orders' else '(a wall, a corner or a piece is there)'}")
        flagged = [b for b in range(3) if order.garnet[b]]
        probe = order.replace(garnet=(False, False, False))
        for b in flagged:
            problem = self._garnet_problem(state, seat, probe, b)
            if problem:
                return str(problem)
            garnet = list(probe.garnet)
            garnet[b] = True
            probe = probe.replace(garnet=tuple(garnet))
        if order.submitted and p.missing_direction == "refuse" and order.missing():
            return 'it is submitted with directions missing (missing_direction = "refuse")'
        return None

    def adapt_state(self, state: State, old: Game[Any, Any, Any]) -> State:
        """After a live parameter change: the state follows the new rules; an order they no longer allow
        (more walls than the new quota, a garnet flag now refused, ...) is dropped, and its seat enters it
        again."""
        state = state.replace(rules=self.params)
        orders = tuple(None if self.order_problem(state, s, o) else o for s, o in enumerate(state.orders))
        if state.phase != "over" and all(o is not None and o.submitted for o in orders):
            orders = tuple(None for _ in orders)
        return state.replace(orders=orders)

    # ---- the scene
    def view(self, state: State, seat: int | None = None) -> dict[str, Any]:
        from .view import View
        return View(self, state, seat).build()

    def frames(self, state: State, action: Action, seat: int | None = None) -> list[dict[str, Any]]:
        """The last submission plays back: the orders revealed, the walls placed and rejected (with their
        reasons), then every tick of every movement phase."""
        if not isinstance(action, Submit) or self.pending_seats(state) != (action.seat,) \
                or self.why_not(state, action) is not None:
            return []
        from .view import playback
        return playback(self, self.last_submission(state, action.seat), seat)


@lru_cache(maxsize=512)
def _free_cells(open_cells: int, walls: int, pieces: tuple[tuple[int, ...], ...]) -> int:
    mask = open_cells & ~walls
    for cells in pieces:
        for c in cells:
            mask &= ~(1 << c)
    return mask


@lru_cache(maxsize=512)
def cell_list(mask: int) -> tuple[int, ...]:
    """The cells of ``mask`` in index order (cached: the same masks come back all round)."""
    return tuple(bits(mask))


def _normal(order: Order) -> Order | None:
    """An order with nothing set and not submitted is no order (``None``): one form per position."""
    return None if not order.submitted and order.is_empty() else order
