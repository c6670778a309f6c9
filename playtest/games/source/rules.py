"""Source's rules: the :class:`Source` game: connection, legality, effects, end and score.

The rules summary and the position format are in the package docstring.
Connection and the score are kept up to date action by action on bit boards
(a :class:`playtest.geometry.BitGrid` of points); :meth:`Source.score_from_scratch`
recomputes them point by point as the reference. One decision, :meth:`Source.why_not`
(``_refusal`` for a point), says whether and why an action is illegal: ``apply`` checks with
it and the board's reasons quote it. The bit masks of :meth:`Source.action_masks` list the
candidates, all at once (``legal_actions`` and ``random_action`` read them, for speed): tests
check that they list exactly what ``why_not`` allows.
"""

from __future__ import annotations

import random
from typing import Any, Sequence

from ...geometry import bit_grid, bits
from ...kernel import Action, EndTurn, Game, GameType, Outcome, Refusal, Seat, per_seat, register
from ...kernel.game import PlayoutLog
from .actions import END_TURN, POINT_ACTIONS, Capture, Fortify, Place, RemoveFortification
from .params import (COLOR_CSS, COLORS, PLAYER_NAMES, R_BOARD, R_CAP_CONN, R_CAP_FORT, R_CAP_UNCONN, R_END,
                     R_FORTIFY, R_NOT_ALLOWED, R_PLACE, R_RANGE, R_REMOVE, R_TURN, SourceParams)
from .playout import random_playout as _random_playout
from .position import State, add_layer, clear_layers, read_position, remove_layer
from .score import ColorScore, Score, tally_from_scratch
from .view import view

__all__ = ["Source"]

SEAT_SHAPES = ("circle", "square")


@register
class Source(Game[SourceParams, State, Action]):
    """Source: four colours grow chains from their corner sources; connection is everything.

    >>> import playtest
    >>> game = playtest.load("source")
    >>> state = game.initial_state()
    >>> game.describe_state(state)
    'red (player A) to act: 2 AP left'
    >>> [s.name for s in game.seats()]
    ['A (red+yellow)', 'B (blue+green)']
    """

    name = "source"
    title = "Source"
    credit = ("Source, from \"The Crossroads Challenge\" week 1 (junksalongames.com, May 2012); "
              "rules read from the designer's blog posts.")
    Params = SourceParams
    state_type = State
    action_types = (Place, Fortify, RemoveFortification, Capture, EndTurn)
    # two players, each moving two colours; the end comes when a supply runs out (no fixed bound)
    game_type = GameType(dynamics="sequential", chance=False, information="perfect", utility="zero_sum")
    end_rule = R_END
    candidates_are_legal = True      # the masks why_not decides with list them (tests/test_source.py checks it)

    def __init__(self, params: SourceParams | None = None, **values: Any):
        super().__init__(params, **values)
        p = self.params
        #: the board's points as bits (a BitGrid; bit ``row * board_size + col``)
        b = self.board = bit_grid(p.board_size, p.board_size)
        #: the centre point
        self.centre = b.index((b.cols // 2, b.rows // 2))
        clockwise = tuple(COLORS.index(name) for name in p.colors_clockwise)
        corner = [0] * 4
        for k, c in enumerate(clockwise):
            corner[c] = b.corners[k]
        #: each colour's source point (its corner), by colour index
        self.sources = tuple(corner)
        self._corner_bit = tuple(1 << i for i in corner)
        self._next = {clockwise[k]: clockwise[(k + 1) % 4] for k in range(4)}
        first = COLORS.index(p.first_color)
        self._first = first
        self._round_last = clockwise[(clockwise.index(first) - 1) % 4]
        #: the colour indices in turn order, the first colour first
        self.turn_order = tuple(clockwise[(clockwise.index(first) + k) % 4] for k in range(4))
        pairs = tuple(tuple(COLORS.index(x) for x in half.split("+")) for half in p.player_colors.split("/"))
        #: each player's two colour indices, player A first
        self.color_pairs = pairs
        seat_of = [0] * 4
        partner = [0] * 4
        for seat, (c1, c2) in enumerate(pairs):
            seat_of[c1] = seat_of[c2] = seat
            partner[c1], partner[c2] = c2, c1
        #: the seat (player) of each colour, and each colour's partner colour
        self.color_seat = tuple(seat_of)
        self.partner = tuple(partner)
        self._opponents = tuple(pairs[1 - seat_of[c]] for c in range(4))
        # the colours that enclose together; a player's pair earlier colour first, since ties go to it (C19)
        self._groups = tuple((c,) for c in range(4)) if p.territory_color_rule == "single_color" else \
            tuple(tuple(sorted(pair, key=self.turn_order.index)) for pair in pairs)
        self._touch = b.touch4 if p.territory_neighbourhood == "orthogonal" else b.touch8
        self._nmask = b.adj4 if p.territory_neighbourhood == "orthogonal" else b.adj8
        self._fortifiable = b.all if p.center_fortifiable else b.all & ~(1 << self.centre)
        # one action object per point and kind, shared by legal_actions and random_action
        self._acts = tuple(tuple(cls(*b.cell(i)) for i in range(b.size)) for cls in POINT_ACTIONS)

    # ---- seats and setup
    def seats(self) -> list[Seat]:
        return [Seat(f"{PLAYER_NAMES[seat]} ({'+'.join(COLORS[c] for c in pair)})", COLOR_CSS[COLORS[pair[0]]],
                     SEAT_SHAPES[seat]) for seat, pair in enumerate(self.color_pairs)]

    def color_name(self, color: int) -> str:
        """``"red (player A)"``: a colour with its player."""
        return f"{COLORS[color]} (player {PLAYER_NAMES[self.color_seat[color]]})"

    def initial_state(self) -> State:
        p = self.params
        stones = self._corner_bit
        start = p.tokens_per_color - (1 if p.source_from_supply else 0)
        return self._derive(State(p.board_size, stones, (), (start,) * 4, self._first, p.first_turn_ap))

    def _allowance(self, turn: int) -> int:
        return self.params.first_turn_ap if turn == 0 else self.params.ap_per_turn

    # ---- connection and score (incremental pieces)
    def _connect(self, stones: Sequence[int], c: int) -> int:
        """Colour ``c``'s connected tokens: flood fill from its source token."""
        allowed = stones[c]
        if self.params.connection_through_partner:
            allowed |= stones[self.partner[c]]
        return self.board.flood(self._corner_bit[c] & stones[c], allowed) & stones[c]

    def _token_points(self, mine: int, connected: int, forts: tuple[int, ...]) -> tuple[int, int, int]:
        """(connected, unconnected, centre) points of a colour's tokens ``mine`` (``connected``: the connected ones)."""
        p = self.params
        n_connected = connected.bit_count()
        conn_pts = p.score_connected * n_connected
        unconn_pts = p.score_unconnected * (mine.bit_count() - n_connected)
        centre_pts = 0
        if connected >> self.centre & 1:
            centre_pts = p.center_connected_value
            if p.center_mode == "replace":
                conn_pts -= p.score_connected
        if p.fortification_scores:
            for f in forts:
                conn_pts += p.score_connected * (f & connected).bit_count()
                unconn_pts += p.score_unconnected * (f & mine & ~connected).bit_count()
        return conn_pts, unconn_pts, centre_pts

    def _territory(self, stones: Sequence[int]) -> tuple[int, int, int, int]:
        """Bit masks of the surrounded points that score for each colour."""
        p, b = self.params, self.board
        empty = b.all & ~(stones[0] | stones[1] | stones[2] | stones[3])
        out = [0, 0, 0, 0]
        touch = self._touch
        if p.territory_mode == "single_point":
            for group in self._groups:
                s = 0
                for c in group:
                    s |= stones[c]
                if not s:
                    continue
                candidates = empty if p.territory_requires_empty else b.all & ~s
                enclosed = candidates & ~touch(b.all & ~s)
                if not p.edge_counts_as_wall:
                    enclosed &= ~b.border
                if not enclosed:
                    continue
                if len(group) == 1:
                    out[group[0]] = enclosed
                else:
                    c1, c2 = group
                    for i in bits(enclosed):
                        near = self._nmask[i]
                        if (near & stones[c1]).bit_count() >= (near & stones[c2]).bit_count():
                            out[c1] |= 1 << i
                        else:
                            out[c2] |= 1 << i
            return out[0], out[1], out[2], out[3]
        remaining = empty
        while remaining:
            region = b.flood(remaining & -remaining, empty)
            remaining &= ~region
            if not p.edge_counts_as_wall and region & b.border:
                continue
            wall = touch(region) & ~region
            if not wall or wall & empty:
                continue
            for group in self._groups:
                s = 0
                for c in group:
                    s |= stones[c]
                if wall & ~s:
                    continue
                if len(group) == 1:
                    out[group[0]] |= region
                else:
                    c1, c2 = group
                    big = c1 if (wall & stones[c1]).bit_count() >= (wall & stones[c2]).bit_count() else c2
                    out[big] |= region
                break
        return out[0], out[1], out[2], out[3]

    def _derive(self, state: State) -> State:
        """``state`` with ``connected`` and ``tally`` computed afresh (bit boards)."""
        stones, forts = state.stones, state.forts
        connected = tuple(self._connect(stones, c) for c in range(4))
        territory = self._territory(stones)
        tv = self.params.territory_value
        tally = tuple(self._token_points(stones[c], connected[c], forts) + (territory[c].bit_count() * tv,)
                      for c in range(4))
        return state.replace(connected=connected, tally=tally)

    def _trigger(self, stones: Sequence[int], supply: Sequence[int]) -> str:
        """Why the end is triggered (``end_trigger``), or ``""``."""
        if self.params.end_trigger == "supply_empty":
            for c in range(4):
                if supply[c] <= 0:
                    return f"{COLORS[c]}'s supply ran out"
        else:
            for c in range(4):
                if not stones[c]:
                    return f"{COLORS[c]} has no token left on the board"
        return ""

    # ---- the protocol
    def to_move(self, state: State) -> int | None:
        return None if state.over else self.color_seat[state.active]

    def outcome(self, state: State) -> Outcome | None:
        if not state.over:
            return None
        a, b = self._players(state.tally)
        scores = (a, b)
        if a != b:
            seat = 0 if a > b else 1
            return Outcome((seat,), f"player {PLAYER_NAMES[seat]} wins {max(a, b)}–{min(a, b)} ({state.over})",
                           scores)
        holder = state.color_at(self.centre)
        rule = self.params.tiebreak
        if holder >= 0 and (rule == "center_control" or
                            (rule == "center_connected" and state.connected[holder] >> self.centre & 1)):
            seat = self.color_seat[holder]
            how = "holds" if rule == "center_control" else "holds a connected token on"
            return Outcome((seat,), f"tied {a}–{b}; player {PLAYER_NAMES[seat]} {how} the centre "
                                    f"({state.over})", scores)
        return Outcome((), f"draw {a}–{b} ({state.over})", scores)

    def player_totals(self, state: State) -> tuple[int, int]:
        """The two players' scores (player A first): :meth:`score`'s totals, without building the table.

        >>> import playtest
        >>> game = playtest.load("source")
        >>> game.player_totals(game.initial_state())
        (4, 4)
        """
        return self._players(state.tally)

    def running_scores(self, state: State) -> tuple[float, float]:
        """The two players' scores as they stand (:meth:`player_totals`, kept up to date action by
        action), plus 0.5 for the player the ``tiebreak`` rule would give a tie to (C20): a
        token on the centre, or a connected one with ``"center_connected"``; nothing with
        ``"draw"``. Points are whole numbers, so the half point only breaks a tie, as
        :meth:`outcome` does: the winner is never behind.

        >>> import playtest
        >>> game = playtest.load("source")
        >>> game.running_scores(game.initial_state())
        (4, 4)
        """
        tally = state.tally                 # (read at every turn end by the lab: sums and one bit, nothing built)
        (a1, a2), (b1, b2) = self.color_pairs
        a, b = sum(tally[a1]) + sum(tally[a2]), sum(tally[b1]) + sum(tally[b2])
        rule = self.params.tiebreak
        if rule == "center_control" or rule == "center_connected":
            bit = 1 << self.centre
            for holder, stones in enumerate(state.stones):        # the centre's token (as state.color_at)
                if stones & bit:
                    if rule == "center_control" or state.connected[holder] & bit:
                        return (a + 0.5, b) if self.color_seat[holder] == 0 else (a, b + 0.5)
                    break
        return (a, b)

    def _players(self, tally: Sequence[Sequence[int]]) -> tuple[int, int]:
        # (a tuple of two: color_pairs holds player A's pair and player B's)
        return tuple(sum(sum(tally[c]) for c in pair) for pair in self.color_pairs)  # type: ignore[return-value]

    def score(self, state: State) -> Score:
        """The score of ``state``, kept up to date action by action.

        >>> import playtest
        >>> game = playtest.load("source")
        >>> print(game.score(game.initial_state()))
                    connected  unconnected  centre  surrounded  total
        red (A)             2            0       0           0      2
        yellow (A)          2            0       0           0      2
        blue (B)            2            0       0           0      2
        green (B)           2            0       0           0      2
        player A            4            0       0           0      4
        player B            4            0       0           0      4
        """
        return self._score_from_tally(state.tally)

    def _score_from_tally(self, tally: Sequence[Sequence[int]]) -> Score:
        colors = {COLORS[c]: ColorScore(*tally[c]) for c in range(4)}
        return Score(colors, self._players(tally),
                     tuple(tuple(COLORS[c] for c in pair) for pair in self.color_pairs))

    def score_from_scratch(self, state: State) -> Score:
        """The score of ``state`` computed from nothing, point by point (the reference for :meth:`score`)."""
        return self._score_from_tally(tally_from_scratch(self, state))

    def unconnected(self, state: State) -> dict[str, list[str]]:
        """The points of every colour's unconnected tokens, by colour name."""
        return {COLORS[c]: [self.board.labels[i] for i in bits(state.stones[c] & ~state.connected[c])]
                for c in range(4)}

    def is_connected(self, state: State, point: str | tuple[int, int]) -> bool:
        """Whether the token on ``point`` (``"e5"`` or ``(col, row)``) is connected to its source."""
        i = self._index(point)
        c = state.color_at(i)
        if c < 0:
            raise ValueError(f"there is no token on {self.board.labels[i]}")
        return bool(state.connected[c] >> i & 1)

    def _index(self, point: str | tuple[int, int]) -> int:
        b = self.board
        if isinstance(point, str):
            if point not in b.labels:
                raise ValueError(f"{point!r} is not a point of the {b.cols}x{b.cols} board (a1 to "
                                 f"{b.labels[-1]})")
            return b.labels.index(point)
        col, row = point
        if not (0 <= col < b.cols and 0 <= row < b.cols):
            raise ValueError(f"({col}, {row}) is not a point of the {b.cols}x{b.cols} board")
        return row * b.cols + col

    # ---- what may be done
    def action_masks(self, state: State) -> tuple[int, int, int, int]:
        """Bit masks of the points where Place, Fortify, RemoveFortification and Capture are legal.

        >>> import playtest
        >>> game = playtest.load("source")
        >>> [game.board.labels[i] for i in bits(game.action_masks(game.initial_state())[0])]
        ['b1', 'a2']
        """
        if state.over:
            return 0, 0, 0, 0
        p, b = self.params, self.board
        c = state.active
        ap = state.ap_left
        supply = state.supply[c]
        stones, connected, forts = state.stones, state.connected, state.forts
        mine = connected[c]
        near = b.touch4(mine)
        occupied = stones[0] | stones[1] | stones[2] | stones[3]
        place = near & ~occupied if supply >= 1 and ap >= p.cost_place else 0
        fortify = 0
        if p.max_fortify_layers and supply >= 1 and ap >= p.cost_fortify:
            full = forts[p.max_fortify_layers - 1] if len(forts) >= p.max_fortify_layers else 0
            fortify = mine & ~full & self._fortifiable
        o1, o2 = self._opponents[c]
        targets = stones[o1] | stones[o2]
        if p.action_range == "adjacent_to_connected":
            targets &= near
        if not targets:
            return place, fortify, 0, 0
        theirs = connected[o1] | connected[o2]
        fortified = forts[0] if forts else 0
        remove = 0
        if ap >= p.cost_remove_fortification and supply >= p.remove_fortification_tokens:
            remove = targets & fortified & theirs
        if not p.source_capturable:   # only capturing a source is forbidden: its fortification may go (C.1 §10, §15)
            targets &= ~((self._corner_bit[o1] & stones[o1]) | (self._corner_bit[o2] & stones[o2]))
        capture = 0
        if ap >= p.cost_capture_connected:
            capture |= targets & theirs & ~fortified
        if ap >= p.cost_capture_unconnected:
            capture |= targets & ~theirs & ~fortified
        if ap >= p.cost_capture_unconnected_fortified:
            capture |= targets & ~theirs & fortified
        if p.capture_connected_fortified_cost and ap >= p.capture_connected_fortified_cost:
            capture |= targets & theirs & fortified
        return place, fortify, remove, capture

    def candidates(self, state: State, seat: int) -> list[Action]:
        """Places, fortifications, removals, captures (each by point, row by row from a1), then End turn:
        what the masks list."""
        actions: list[Action] = [self._acts[k][i] for k, mask in enumerate(self.action_masks(state))
                                 for i in bits(mask)]
        actions.append(END_TURN)
        return actions

    def random_action(self, state: State, rng: random.Random) -> Action:
        """A uniformly random legal action, drawn from the bit masks without listing them all."""
        masks = self.action_masks(state)
        counts = [m.bit_count() for m in masks]
        k = rng.randrange(sum(counts) + 1)
        for acts, mask, count in zip(self._acts, masks, counts):
            if k < count:
                for _ in range(k):
                    mask &= mask - 1
                return acts[(mask & -mask).bit_length() - 1]
            k -= count
        return END_TURN

    def random_playout(self, state: State, rng: random.Random, seat_rngs: Sequence[random.Random] | None = None,
                       max_steps: int = 1_000_000, max_turns: int | None = None,
                       log: PlayoutLog | None = None) -> tuple[State, int] | None:
        """Random play from ``state`` on plain lists and ints, the very game stepping these rules plays
        (:meth:`playtest.Game.random_playout`; written in :mod:`.playout`)."""
        return _random_playout(self, state, rng, seat_rngs, max_steps, max_turns, log)

    def _capture_cost(self, state: State, target: int, bit: int) -> tuple[int, str, str]:
        """(cost, what it is, rule) of capturing the ``target`` colour's token at ``bit``; cost 0: not allowed."""
        p = self.params
        fortified = bool(state.forts and state.forts[0] & bit)
        connected = bool(state.connected[target] & bit)
        if connected and fortified:
            return p.capture_connected_fortified_cost, "a connected fortified stack", R_NOT_ALLOWED
        if connected:
            return p.cost_capture_connected, "a connected token", R_CAP_CONN
        if fortified:
            return p.cost_capture_unconnected_fortified, "an unconnected fortified stack", R_CAP_FORT
        return p.cost_capture_unconnected, "an unconnected token", R_CAP_UNCONN

    def _refusal(self, state: State, kind: str, i: int) -> Refusal | None:
        """Why action ``kind`` on point ``i`` is illegal (the refusal names the rule), or None when it is legal."""
        p, b = self.params, self.board
        c = state.active
        name = COLORS[c]
        where = b.labels[i]
        bit = 1 << i
        owner = state.color_at(i)
        ap = state.ap_left
        supply = state.supply[c]
        near = bool(b.adj4[i] & state.connected[c])      # next to a connected token of the active colour
        if kind == "place":
            if owner >= 0:
                return Refusal(f"{where} is not empty", R_PLACE)
            if not near:
                return Refusal(f"{where} is not next to a connected {name} token", R_PLACE)
            if supply < 1:
                return Refusal(f"{name} has no tokens left in supply", R_PLACE)
            if ap < p.cost_place:
                return Refusal(f"placing costs {p.cost_place} AP; {name} has {ap} left", R_TURN)
            return None
        if kind == "fortify":
            if owner < 0:
                return Refusal(f"there is no token to fortify on {where}", R_FORTIFY)
            if owner != c:
                return Refusal(f"{name} fortifies only its own tokens, and {where} is {COLORS[owner]}",
                               R_FORTIFY)
            if not p.max_fortify_layers:
                return Refusal("fortifying is switched off (max_fortify_layers = 0)", "C8")
            layers = state.layers(i)
            if layers >= p.max_fortify_layers:
                return Refusal(f"{where} already holds {layers} fortification token{'s' if layers > 1 else ''}, "
                               f"the most allowed (max_fortify_layers = {p.max_fortify_layers})", "C8")
            if i == self.centre and not p.center_fortifiable:
                return Refusal("the centre cannot be fortified (center_fortifiable = false)", "C8")
            if not state.connected[c] & bit:
                return Refusal(f"{where} is not connected to the {name} source: only a connected token is "
                               "fortified", R_FORTIFY)
            if supply < 1:
                return Refusal(f"{name} has no tokens left in supply to fortify with", R_FORTIFY)
            if ap < p.cost_fortify:
                return Refusal(f"fortifying costs {p.cost_fortify} AP; {name} has {ap} left", R_TURN)
            return None
        # removal and capture target an opponent's token
        if owner < 0:
            return Refusal(f"there is no token on {where}",
                           R_REMOVE if kind == "remove_fortification" else R_CAP_CONN)
        if owner == c:
            return Refusal(f"{name} cannot capture or unfortify its own token", R_NOT_ALLOWED)
        if owner == self.partner[c]:
            return Refusal(f"{COLORS[owner]} is {name}'s partner colour: partners are never captured",
                           R_NOT_ALLOWED)
        if kind == "remove_fortification":
            if not (state.forts and state.forts[0] & bit):
                return Refusal(f"the {COLORS[owner]} token on {where} is not fortified", R_REMOVE)
            if not state.connected[owner] & bit:
                cost = p.cost_capture_unconnected_fortified
                return Refusal(f"the {COLORS[owner]} stack on {where} is not connected: capture it whole "
                               f"instead ({cost} AP, rule {R_CAP_FORT})", R_REMOVE)
            if p.action_range == "adjacent_to_connected" and not near:
                return Refusal(f"{where} is not next to a connected {name} token", R_RANGE)
            if supply < p.remove_fortification_tokens:
                return Refusal(f"removing a fortification also costs {p.remove_fortification_tokens} of "
                               f"{name}'s unused tokens, and {name} has {supply} in supply", R_REMOVE)
            if ap < p.cost_remove_fortification:
                return Refusal(f"removing a fortification costs {p.cost_remove_fortification} AP; {name} has "
                               f"{ap} left", R_REMOVE)
            return None
        if i == self.sources[owner] and not p.source_capturable:
            return Refusal(f"{where} is the {COLORS[owner]} source: a source token cannot be captured "
                           "(source_capturable = false)", R_NOT_ALLOWED)
        if p.action_range == "adjacent_to_connected" and not near:
            return Refusal(f"{where} is not next to a connected {name} token", R_RANGE)
        cost, what, rule = self._capture_cost(state, owner, bit)
        if cost == 0 and rule == R_NOT_ALLOWED:
            return Refusal("capturing a connected fortified token needs its fortification removed first",
                           R_NOT_ALLOWED)
        if ap < cost:
            return Refusal(f"capturing {what} costs {cost} AP; {name} has {ap} left", rule)
        return None

    def why_not(self, state: State, action: Action, seat: int) -> Refusal | None:
        """Why the active colour may not play ``action`` now (rules C.1 §1, §7-§15), or ``None``.

        >>> import playtest
        >>> game = playtest.load("source")
        >>> game.why_not(game.initial_state(), Place(4, 4), 0)
        Refusal(text='e5 is not next to a connected red token', rule='C.1 §8')
        """
        if isinstance(action, EndTurn):
            return None
        n = self.board.cols
        col, row = action.col, action.row  # type: ignore[attr-defined]  # a point action
        if not (0 <= col < n and 0 <= row < n):
            return Refusal(f"({col!r}, {row!r}) is not a point of the {n}x{n} board", R_BOARD)
        return self._refusal(state, action.kind, row * n + col)

    # ---- applying actions
    def effect(self, state: State, action: Action) -> State:
        """The state after a legal ``action`` (a new value; ``state`` is untouched).

        Connection is recomputed for the colours the action touches, and the
        score (``state.tally``) is updated from the previous one.
        """
        # the board's last-move mark: the points this colour's turn touched (a new turn starts afresh)
        last = state.last if state.acted else ()
        if action.kind == "end_turn":
            return self._end_turn(state, state.stones, state.forts, state.supply, state.connected,
                                  state.tally, state.acted, last)
        p, b = self.params, self.board
        i = action.row * b.cols + action.col  # type: ignore[attr-defined]
        if i not in last:
            last += (i,)
        bit = 1 << i
        c = state.active
        stones, forts, supply, connected = state.stones, state.forts, state.supply, state.connected
        through = p.connection_through_partner
        kind = action.kind
        occupancy = False
        if kind == "place":
            cost = p.cost_place
            stones = per_seat(stones, c, stones[c] | bit)
            supply = per_seat(supply, c, supply[c] - 1)
            if through:
                changed: tuple[int, ...] = (c, self.partner[c])
            else:  # the new token joins the chain, with any stranded tokens it touches
                connected = per_seat(connected, c, connected[c] | b.flood(bit, stones[c] & ~connected[c]))
                changed = (c,)
            occupancy = True
        elif kind == "fortify":
            cost = p.cost_fortify
            supply = per_seat(supply, c, supply[c] - 1)
            forts = add_layer(forts, bit)
            changed = (c,) if p.fortification_scores else ()
        elif kind == "remove_fortification":
            cost = p.cost_remove_fortification
            supply = per_seat(supply, c, supply[c] - p.remove_fortification_tokens)
            forts = remove_layer(forts, bit)
            changed = (state.color_at(i),) if p.fortification_scores else ()
        else:  # capture: the token (or the whole stack) leaves the game
            target = state.color_at(i)
            cost = self._capture_cost(state, target, bit)[0]
            stones = per_seat(stones, target, stones[target] & ~bit)
            if forts and forts[0] & bit:
                forts = clear_layers(forts, bit)
            if through:
                changed = (target, self.partner[target])
            elif connected[target] & bit:   # a chain may be cut: recompute that colour
                changed = (target,)
            else:
                connected = per_seat(connected, target, connected[target] & ~bit)
                changed = (target,)
            occupancy = True
        if through or (kind == "capture" and state.connected[changed[0]] & bit):
            links = list(connected)
            for d in changed:
                links[d] = self._connect(stones, d)
            connected = tuple(links)
        tally = state.tally
        if changed or occupancy:
            parts = list(tally)
            for d in changed:
                parts[d] = self._token_points(stones[d], connected[d], forts) + (parts[d][3],)
            if occupancy:
                tv = p.territory_value
                for d, enclosed in enumerate(self._territory(stones)):
                    t = parts[d]
                    parts[d] = (t[0], t[1], t[2], enclosed.bit_count() * tv)
            tally = tuple(parts)
        ap_left = state.ap_left - cost
        if p.end_timing == "immediate":
            over = self._trigger(stones, supply)
            if over:
                return state.replace(stones=stones, forts=forts, supply=supply, ap_left=max(ap_left, 0), acted=True,
                                     over=over, connected=connected, tally=tally, last=last)
        if ap_left <= 0:
            return self._end_turn(state, stones, forts, supply, connected, tally, True, last)
        return state.replace(stones=stones, forts=forts, supply=supply, ap_left=ap_left, acted=True, over="",
                             connected=connected, tally=tally, last=last)

    def _end_turn(self, state: State, stones: tuple[int, ...], forts: tuple[int, ...], supply: tuple[int, ...],
                  connected: tuple[int, ...], tally: tuple[tuple[int, int, int, int], ...], acted: bool,
                  last: tuple[int, ...] = ()) -> State:
        """The turn of ``state.active`` ends: the game may end (rule C.1 §16), else the next colour starts."""
        p = self.params
        passes = 0 if acted else state.passes + 1
        turn = state.turn + 1
        c = state.active
        over = ""
        if passes >= p.pass_limit:
            over = f"{passes} turns in a row without an action (pass_limit = {p.pass_limit})"
        elif p.end_timing != "immediate":
            reason = self._trigger(stones, supply)
            if reason and (p.end_timing == "end_of_turn" or c == self._round_last):
                over = reason + (" (end of the turn)" if p.end_timing == "end_of_turn" else " (end of the round)")
        if over:
            return state.replace(stones=stones, forts=forts, supply=supply, ap_left=0, acted=acted, passes=passes,
                                 turn=turn, over=over, connected=connected, tally=tally, last=last)
        return state.replace(stones=stones, forts=forts, supply=supply, active=self._next[c], ap_left=p.ap_per_turn,
                             acted=False, passes=passes, turn=turn, over="", connected=connected, tally=tally,
                             last=last)

    def adapt_state(self, state: State, old: Game[Any, Any, Any]) -> State:
        """After a live parameter change: connection and score are recomputed; a turn that has not acted
        yet gets the new number of action points (one that has keeps at most that many); and the game
        ends if the new end rules say it is over."""
        p = self.params
        ap_left, over = state.ap_left, state.over
        if not over:
            allowance = self._allowance(state.turn)
            ap_left = min(ap_left, allowance) if state.acted else allowance
            if state.passes >= p.pass_limit:
                over = f"{state.passes} turns in a row without an action (pass_limit = {p.pass_limit})"
            elif p.end_timing == "immediate":
                over = self._trigger(state.stones, state.supply)
        return self._derive(state.replace(ap_left=ap_left, over=over))

    # ---- notation and JSON
    def notation(self, state: State, action: Action, viewer: int | None = None) -> str:
        name = COLORS[state.active]
        if action.kind == "end_turn":
            if not state.acted:
                return f"{name}: pass"
            return f"{name}: end turn" + (f" ({state.ap_left} AP unused)" if state.ap_left else "")
        try:
            i = self._index((action.col, action.row))  # type: ignore[attr-defined]
        except (ValueError, TypeError):
            return f"{name}: {action}"
        where = self.board.labels[i]
        owner = state.color_at(i)
        if action.kind == "place":
            return f"{name}: place {where}"
        if action.kind == "fortify":
            return f"{name}: fortify {where}"
        other = COLORS[owner] if owner >= 0 else "?"
        if action.kind == "remove_fortification":
            return f"{name}: remove {other}'s fortification on {where}"
        if owner < 0:
            return f"{name}: capture {where}"
        cost, what, _ = self._capture_cost(state, owner, 1 << i)
        stack = " stack" if "stack" in what else ""
        return f"{name}: capture {other}{stack} {where} ({cost} AP)"

    def describe_state(self, state: State) -> str:
        if state.over:
            outcome = self.outcome(state)
            return f"Game over: {outcome.reason}" if outcome else "Game over"
        return f"{self.color_name(state.active)} to act: {state.ap_left} AP left"

    def state_from_json(self, data: Any) -> State:
        return read_position(self, data)

    # ---- the scene, and what a click on a point may do
    def view(self, state: State, seat: int | None = None) -> dict[str, Any]:
        return view(self, state, seat)

    def point_actions(self, state: State, i: int, masks: tuple[int, int, int, int] | None = None
                      ) -> list[tuple[str, Action]]:
        """(label with its cost, action) for everything a click on point index ``i`` may do now.

        ``masks`` are :meth:`action_masks` of ``state``, when the caller has them already.

        >>> import playtest
        >>> game = playtest.load("source")
        >>> game.point_actions(game.initial_state(), 1)
        [('Place (1 AP)', Place(col=1, row=0))]
        """
        p = self.params
        if masks is None:
            masks = self.action_masks(state)
        bit = 1 << i
        place, fortify, remove, capture = masks
        options: list[tuple[str, Action]] = []
        if place & bit:
            options.append((f"Place ({p.cost_place} AP)", self._acts[0][i]))
        if fortify & bit:
            options.append((f"Fortify ({p.cost_fortify} AP)", self._acts[1][i]))
        if remove & bit:
            tokens = p.remove_fortification_tokens
            options.append((f"Remove fortification ({p.cost_remove_fortification} AP + {tokens} "
                            f"token{'s' if tokens != 1 else ''})", self._acts[2][i]))
        if capture & bit:
            cost, what, _ = self._capture_cost(state, state.color_at(i), bit)
            label = {"a connected token": "Capture", "an unconnected token": "Capture unconnected token",
                     "an unconnected fortified stack": "Capture unconnected stack, both tokens",
                     "a connected fortified stack": "Capture fortified stack, both tokens"}[what]
            options.append((f"{label} ({cost} AP)", self._acts[3][i]))
        return options

    def options(self, state: State, point: str | tuple[int, int]) -> list[str]:
        """What a click on ``point`` offers now, with costs (empty: see :meth:`why`).

        >>> import playtest
        >>> game = playtest.load("source")
        >>> game.options(game.initial_state(), "a1"), game.options(game.initial_state(), "b1")
        (['Fortify (1 AP)'], ['Place (1 AP)'])
        """
        i = self._index(point)
        return [label for label, _ in self.point_actions(state, i)]

    def why(self, state: State, point: str | tuple[int, int]) -> str:
        """Why nothing can be done on ``point`` now, naming the rules (``""`` when something can).

        >>> import playtest
        >>> game = playtest.load("source")
        >>> game.why(game.initial_state(), "e5")
        'e5 is not next to a connected red token (rule C.1 §8)'
        >>> game.why(game.initial_state(), "i1")
        'i1 is the blue source: a source token cannot be captured (source_capturable = false) (rule C.1 §15)'
        """
        i = self._index(point)
        if state.over:
            return f"the game is over ({state.over}) (rule {R_END})"
        return "" if self.options(state, point) else self.blocked_reason(state, i)

    def blocked_reason(self, state: State, i: int) -> str:
        """Why nothing can be done on point index ``i`` now (when :meth:`point_actions` is empty), naming
        the rules.

        >>> import playtest
        >>> game = playtest.load("source")
        >>> game.blocked_reason(game.initial_state(), 40)
        'e5 is not next to a connected red token (rule C.1 §8)'
        """
        owner = state.color_at(i)
        c = state.active
        kinds: tuple[str, ...]
        if owner < 0:
            kinds = ("place",)
        elif owner == c:
            kinds = ("fortify",)
        elif owner == self.partner[c]:
            kinds = ("capture",)
        elif state.forts and state.forts[0] >> i & 1 and state.connected[owner] >> i & 1:
            kinds = ("capture", "remove_fortification")
        else:
            kinds = ("capture",)
        found: list[str] = []
        for kind in kinds:
            refusal = self._refusal(state, kind, i)
            if refusal is not None and str(refusal) not in found:
                found.append(str(refusal))
        return "; ".join(found)
