"""Corner Rush's random playout: the rules on plain lists and ints, for the search bot's rollouts and
the lab's random games (:meth:`playtest.Game.random_playout`).

A part of :class:`.rules.CornerRush` (a mixin: it reads the game's parameters, board, die and tables),
kept apart so the rules module stays one concern. It plays exactly what stepping the rules plays
(``to_move``, ``legal_actions``, ``chance_outcome``, ``effect``): the same listing's length at each
decision (an index drawn with ``rng.choice(range(n))``, as ``rng.choice(listing)`` draws it), the die
and the bag drawn as :meth:`chance_outcome` draws them, and the same state at the end, field for
field; ``check_game``'s "playout" property, ``tests/test_playout.py`` and
``tests/test_corner_rush_playout.py`` compare the two. The position is unpacked once into local
variables (the pawns and the blockers as lists), each effect changes them in place, and the state is
packed again at the end.

On the common readings (one challenge a turn, a beaten blocker always taken, the bag drawn by chance,
the placement mandatory, no longest move) and with plain ``random.Random`` generators, a whole turn is
played inline from its first decision (the choice, the die, the walk, the bag, the placement), each
listing's index drawn as ``choice`` draws it (``getrandbits`` of the length's bits until below it);
a Null's pushes, and every other reading, go on one step at a time. The running scores read at turn
ends are :meth:`running_scores`' own, each seat's kept with what it depends on (the tiles where a blocker
put or taken away could change it) and worked out again only then or when its pawn moved: without a
search when a shortest route with the blockers lifted is clear of them, or when blockers wall its Ace in.

It covers every parameter set but three readings, for which it answers ``None`` (the rules play):
``must_use_all_moves = false`` (a move may stop early), ``allow_revisit = false`` (paths, not walks)
and ``allow_sealing = false`` (a flood per free tile).

>>> import random, playtest
>>> game = playtest.load("corner_rush", num_players=2)
>>> state, steps = game.random_playout(game.initial_state(), random.Random(5))
>>> state.phase, steps > 0
('over', True)
"""

from __future__ import annotations

import random
from bisect import bisect_right
from typing import TYPE_CHECKING, Any, Sequence, cast

from ...geometry import FAR, bits
from ...kernel.game import PlayoutLog
from ...kernel.outcome import draw_outcome
from .board import Board
from .draws import near
from .params import CornerRushParams
from .position import State, blocker, rolloff_contenders, rolloff_winner
from .scores import CornerRushScores

__all__ = ["CornerRushPlayout"]

_NOBODY = -99        # no decision yet (no seat has this number)


class _Standing:
    """The two fields :meth:`CornerRush.running_scores` reads (the blockers' mask, the pawns), without
    packing a state at every turn end."""

    __slots__ = ("blocked", "pawns")

    def __init__(self) -> None:
        self.blocked = 0
        self.pawns: tuple[int, ...] = ()


class CornerRushPlayout:
    """:meth:`random_playout` (mixed into the game class)."""

    params: CornerRushParams
    B: Board
    n: int
    everyone: int
    _die_totals: list[float]
    _die_faces: list[Any]
    _open: int
    _closed: tuple[int, ...]
    _random_draw: bool
    _faces: tuple[dict[int, tuple[Any, Any]], dict[tuple[int, int], list[Any]]]
    _tokens_seen: tuple[State, tuple[bool, bool]] | None
    _bag_shares: dict[int, list[float]]

    if TYPE_CHECKING:       # the game's (rules.py and draws.py)
        def running_scores(self, state: State) -> tuple[int, ...]: ...
        def _bag_outcomes_of(self, bag: tuple[tuple[int, int], ...]) -> Any: ...
        def _name(self, seat: int) -> str: ...
        _far: tuple[list[int], ...]
        def _cut_scores(self) -> list[list[int]]: ...
        def _corridors(self) -> list[list[int]]: ...
        def _off_route(self, seat: int, tile: int, added: int, route: int) -> bool: ...
        def _no_shortcut(self, seat: int, tile: int, lifted: int, route: int) -> bool: ...
        def _through(self, seat: int, tile: int) -> list[int]: ...
        _through_kept: dict[int, list[int]]

    def random_playout(self, state: State, rng: random.Random, seat_rngs: Sequence[random.Random] | None = None,
                       max_steps: int = 1_000_000, max_turns: int | None = None,
                       log: PlayoutLog | None = None) -> tuple[State, int] | None:
        """Random play from ``state`` on plain lists (the contract: :meth:`playtest.Game.random_playout`).

        >>> import random, playtest
        >>> from playtest.check import playout_by_rules
        >>> game = playtest.load("corner_rush")
        >>> state = game.state_from_json({"phase": "move", "to_move": 0, "steps": 3, "path": ["a5"]})
        >>> game.random_playout(state, random.Random(2), max_turns=2) == playout_by_rules(
        ...     game, state, random.Random(2), max_turns=2)
        True
        """
        p = self.params
        if not p.must_use_all_moves or not p.allow_revisit or not p.allow_sealing:
            return None
        B, n = self.B, self.n
        adj4, aces, labels = B.adj4, B.aces, B.labels
        cols, not_first, not_last = B.grid.cols, B.grid.not_first_col, B.grid.not_last_col
        challenge_table = B.adj8 if p.challenge_adjacency == "king" else B.adj4
        challenge_on = p.challenge_enabled
        most_challenges = p.max_challenges_per_turn
        no_place = ~B.ace_mask & ~B.hole_mask & B.all
        ace_mask = B.ace_mask
        # worked out once per game: a tile's bit (the pawns' tiles as a mask: their bits added up when no two
        # pawns share a tile: no stacking, the rules keep them apart, the winner's aside, and then no turn is
        # played), the lengths in bits of the listings' lengths, the faces' values, each seat's Ace as a bit
        # and the tiles its pawn may cross with the blockers lifted
        tables = self.__dict__.get("_playout_tables")
        if tables is None:
            tables = self.__dict__["_playout_tables"] = (
                [1 << t for t in range(B.tiles)].__getitem__, [k.bit_length() for k in range(B.tiles + 2)],
                [face.value for face in self._die_faces], [1 << a for a in aces],
                [self._open & ~shut for shut in self._closed], {}, {})
        bit_of, widths, face_values, ace_bits, lifted_open = tables[:5]
        step_kept: dict[int, tuple[list[int], int, int]] = tables[5]
        start_kept: dict[int, tuple[list[int], int, int]] = tables[6]
        #: the inline turns' listings by mask (kept by the game, a few hundred masks), with the number of choices
        #: and the bits drawn for one: a step of a move (the tiles, lowest first: draws.near), a turn's start
        #: (the roll, then a challenge of each blocker next to the pawn)
        step_picks, start_picks = step_kept.get, start_kept.get

        def picks_made(mask: int, kept: dict[int, tuple[list[int], int, int]], more: int
                       ) -> tuple[list[int], int, int]:
            tiles = near(mask)
            k = len(tiles) + more
            made = kept[mask] = (tiles, k, widths[k])
            return made
        open_tiles, closed = self._open, self._closed
        pass_through, stacking = p.pawn_pass_through, p.pawn_stacking
        on_occupied, on_entry = p.win_on_occupied_ace, p.win_on_entry
        greater = p.challenge_success == "greater"
        moves_by = p.challenge_moves
        flip_back = p.failed_challenge_blocker == "flip_back"
        optional_take = p.challenge_removal == "optional"
        destination = p.captured_blocker_destination
        null_other, null_steps, null_finish = p.null_moves_other, p.null_other_steps, p.null_can_finish_other
        null_in_challenge = p.null_power_in_challenge
        others_open = p.other_aces_open
        longest = p.stuck_policy == "longest"
        mandatory = p.blocker_placement_mandatory
        random_draw = self._random_draw
        knows_value = p.placer_knows_value
        first_roll = p.rolloff_is_first_roll
        step_round = 1 if p.turn_order == "clockwise" else -1
        next_seat = [(seat + step_round) % n for seat in range(n)]
        last_turn = p.max_turns
        everyone = self.everyone
        totals, faces = self._die_totals, self._die_faces
        bag_outcomes = self._bag_outcomes_of

        # ---------------------------------------------------------------- the position, unpacked
        phase = state.phase
        mover, turn = state.mover, state.turn
        pawns = list(state.pawns)
        blockers: list[Any] = list(state.blockers)
        blocked = state.blocked
        bags = list(state.bags)
        held, die, steps, path = state.held, state.die, state.steps, list(state.path)
        challenged, challenges, pushed = state.challenged, state.challenges, state.pushed
        last: Any        # (a turn's path kept as a list until the state is packed)
        rolloff, removed, last, winner, reason = state.rolloff, state.removed, state.last, state.winner, state.reason
        walks: list[int] = []           # the move's exact walks (Board.exact_walks), for its pawn's masks

        def walk_masks(seat: int) -> tuple[int, int, int]:        # CornerRush._walk_masks on the lists
            free = open_tiles & ~blocked
            others = 0
            for s, t in enumerate(pawns):
                if s != seat:
                    others |= 1 << t
            shut = closed[seat]
            walk = free & ~shut
            end = walk
            if not pass_through:
                walk &= ~others
            if not stacking:
                end &= ~others
            elif not pass_through:
                end |= others & free & ~shut
            ace = aces[seat]
            ace_ok = (1 << ace) if (not others >> ace & 1 or on_occupied) else 0
            if on_entry:
                return walk, end, ace_ok
            return walk, end | ace_ok, 0

        def step_tiles(k: int) -> int:      # CornerRush._step_tiles (revisits allowed, the whole roll used)
            nonlocal walks
            if k <= 0:
                return 0
            if len(walks) < k:            # Board.exact_walks (its touch4 inline: walk is within the board)
                walk, end, win = walk_masks(mover)
                layer = end | win
                walks = [layer]
                for _ in range(1, k):
                    layer = win | (walk & (((layer << 1) & not_first) | ((layer >> 1) & not_last) | (layer << cols)
                                           | (layer >> cols)))
                    walks.append(layer)
            return adj4[pawns[mover]] & walks[k - 1]

        def push_tiles(pawn: int) -> int:
            if pawn == mover or (pushed >= 0 and pawn != pushed):
                return 0
            target = open_tiles & ~blocked
            if not stacking:
                for t in pawns:
                    target &= ~(1 << t)
            own = 1 << aces[pawn]
            if not others_open:
                target &= ~(B.ace_mask & ~own)
            if not null_finish:
                target &= ~own
            return adj4[pawns[pawn]] & target

        def place_tiles() -> int:
            free = no_place & ~blocked
            for t in pawns:
                free &= ~(1 << t)
            return free

        def challenge_tiles() -> int:
            if not challenge_on or challenges >= most_challenges:
                return 0
            return challenge_table[pawns[mover]] & blocked

        # ---------------------------------------------------------------- the effects (rules.py's, in place)
        def end_turn(placed: int) -> None:
            nonlocal last, turn, phase, steps, held, reason, mover, path, challenged, challenges, pushed
            last = (pushed if pushed >= 0 else mover, tuple(path), placed)
            turn += 1
            steps, held = 0, None
            if turn >= last_turn:
                phase = "over"
                reason = f"max_turns = {last_turn} turns played: a draw"
                return
            phase = "start"
            mover = (mover + step_round) % n
            path, challenged, challenges, pushed = [], -1, 0, -1

        def win(seat: int, why: str) -> None:
            nonlocal phase, winner, reason, steps, last
            last = (pushed if pushed >= 0 else mover, tuple(path), -1)
            phase, winner, reason, steps = "over", seat, why, 0

        def blocker_step() -> None:
            nonlocal phase, steps
            if bags[mover] and place_tiles():
                phase, steps = "draw", 0
            else:
                end_turn(-1)

        def after_move() -> None:
            nonlocal phase, steps
            if challenges and challenge_tiles():
                phase, steps = "again", 0
            else:
                blocker_step()

        def null() -> None:
            nonlocal phase, steps, pushed
            phase, steps, pushed = "null", null_steps, -1
            if not any(push_tiles(q) for q in range(n)):
                after_move()

        def start_move(k: int) -> None:
            nonlocal phase, steps, path, walks
            phase, steps, path, walks = "move", k, [pawns[mover]], []
            if step_tiles(k):
                return
            if longest:
                for shorter in range(k - 1, 0, -1):
                    if step_tiles(shorter):
                        steps = shorter
                        return
            steps = 0
            after_move()

        def after_challenge(value: int, moved: int) -> None:
            if moved > 0:
                start_move(moved)
            elif value == 0 and null_in_challenge and null_other:
                null()
            else:
                after_move()

        def beaten(value: int, take: bool) -> None:
            nonlocal blocked, removed
            b = blockers[challenged]
            moved = value - b.value if moves_by == "difference" else value if moves_by == "roll" else 0
            if take:
                token = (b.colour, b.value)
                blockers[challenged] = None
                blocked &= ~(1 << challenged)
                if destination == "removed":
                    removed = tuple(sorted(removed + (token,)))
                else:
                    seat = mover if destination == "challenger_bag" else b.colour
                    bags[seat] = tuple(sorted(bags[seat] + (token,)))
            after_challenge(value, moved)

        def challenge(tile: int) -> None:
            nonlocal phase, challenged, challenges
            b = blockers[tile]
            blockers[tile] = blocker(b.colour, b.value, True, 0)
            phase, challenged, challenges = "challenge", tile, challenges + 1

        def die_rolled(value: int) -> None:
            nonlocal phase, die, rolloff, mover
            if phase == "roll":
                if value != 0:
                    die = value
                    start_move(value)
                    return
                die = 0
                if null_other:
                    null()
                else:
                    after_move()
                return
            if phase == "challenge":
                b = blockers[challenged]
                if not (value > b.value if greater else value >= b.value):
                    if flip_back:
                        blockers[challenged] = blocker(b.colour, b.value, False, everyone)
                    die = value
                    after_challenge(value, 0)
                elif optional_take:
                    phase, die = "take", value
                else:
                    die = value
                    beaten(value, True)
                return
            contenders = rolloff_contenders(rolloff, n)       # the roll-off
            rnd = rolloff[-1] + ((contenders[len(rolloff[-1])], value),)
            rounds = rolloff[:-1] + (rnd,)
            if len(rnd) < len(contenders):
                rolloff = rounds
                return
            first = rolloff_winner(rnd, contenders)
            if first < 0:
                rolloff = rounds + ((),)
                return
            rolloff, phase, mover = rounds, "start", first
            if first_roll:
                best = max(v for _, v in rnd)
                die = best
                if best == 0:
                    if null_other:
                        null()
                    else:
                        after_move()
                else:
                    start_move(best)

        # ---------------------------------------------------------------- the loop (playout_by_rules')
        choosers = seat_rngs if seat_rngs is not None else [rng] * n
        draws: Any = None           # (the step by step loop's draw for each seat, made when first needed)
        read = log is not None and log.scores is not None
        options = log.options if log is not None else None
        note = (options if options is not None else []).append      # (the inline turns' record of them)
        standing = _Standing()
        seen_blocked = -1                           # (no reading yet)
        scored: Any = None
        scores_read: Any = log.scores if log is not None else None
        own_scores = type(self).running_scores is CornerRushScores.running_scores
        # each seat's score kept with what it depends on: the tiles where a blocker put changes it (unless it
        # stays off the route found), those where a blocker taken away does, the length of the route found
        # (-1: none to check against), the pawn's tile
        put_on, taken_from, routes = [0] * n, [0] * n, [-1] * n
        seat_tiles = [-1] * n
        seat_scores = cast(list[Any], [None] * n)      # (no score yet: the first reading makes its tuple)
        first_unknown = True
        off_route = self._off_route
        cut_scores, far, corridors = self._cut_scores(), self._far, self._corridors()
        #: the tiles each seat's Ace reaches when blockers wall it in, the blockers then, those tiles and their
        #: neighbours (0: none found)
        walls, walled_at, walls_around = [0] * n, [0] * n, [0] * n
        no_shortcut, through = self._no_shortcut, self._through
        through_kept = self._through_kept
        tiles_count = B.tiles
        search_steps = range(1, tiles_count + 1)        # (a search takes fewer steps than there are tiles)
        seat_range = range(n)
        vias: list[list[int]] = [[]] * n       #: the seat's _through table for its pawn's tile, when a route was found

        played = turns = 0
        turn_cap = max_turns if max_turns is not None else 1 << 62     # (no cap: more turns than any game plays)
        decider = _NOBODY
        random_roll = rng.random
        # whole turns inline (the common readings: one challenge a turn, a beaten blocker always taken, the
        # bag's draw by chance, the placement mandatory, no longest move; every seat drawing with a plain
        # generator, whose choice of k things is getrandbits(k.bit_length()) until below k)
        lean = (most_challenges == 1 and not optional_take and random_draw and mandatory and not longest
                and _PLAIN_BELOW and all(type(r) is random.Random for r in choosers)
                and state.challenges == 0 and state.pushed < 0 and self._sorted_and_distinct(state)[0])
        #: no two blockers of the game alike (the default: each colour's values differ): every group of equal
        #: blockers in a bag is one blocker, and the bag's draw reads the shares added up from a table
        distinct = lean and self._sorted_and_distinct(state)[1]
        shares_of = self._bag_shares.get
        bits_of = [r.getrandbits for r in choosers]
        #: the blockers the turns make, by what they are made from (kept by the game): a challenged blocker
        #: shown (by the blocker, its id), a blocker placed (by its colour and value, for each seat placing it)
        shown, hidden = self._faces
        if len(shown) > 4096:
            shown.clear()
        turn_steps = 4 + max(face_values)       # the most steps of a turn on that path: start, roll, move, draw, place
        lean_until = max_steps - turn_steps if lean else -1     # (a whole turn inline while it cannot pass max_steps)
        #: who acts in each phase: 0 the seat to move, 1 chance, 2 nobody (the game is over)
        kinds = {"move": 0, "start": 0, "place": 0, "null": 0, "take": 0, "again": 0, "draw": 1 if random_draw else 0,
                 "roll": 1, "challenge": 1, "rolloff": 1, "over": 2}
        while True:
            kind = kinds[phase]
            if kind == 1:                           # chance: the die, or the bag
                if played == max_steps:
                    break
                played += 1
                if phase == "draw":
                    drawn = draw_outcome(bag_outcomes(bags[mover]), rng)
                    bag = list(bags[mover])
                    bag.remove((drawn.colour, drawn.value))
                    bags[mover], held, phase = tuple(bag), (drawn.colour, drawn.value), "place"
                else:
                    die_rolled(faces[bisect_right(totals, random_roll())].value)
                continue
            if kind == 2 or mover != decider:       # a turn ends: the game, or another seat decides
                if read and played:             # (the same pawns and blockers: the same scores)
                    if blocked != seen_blocked or pawns != seat_tiles:     # (the pawns' tiles at the last reading)
                        if own_scores:
                            # running_scores' answer: a seat's score worked out again (below) when its
                            # pawn moved, a blocker left a tile it depends on, or one came onto such a tile
                            # on the route found (scores.py's rules for keeping a score)
                            added, lifted = blocked & ~seen_blocked, seen_blocked & ~blocked
                            changed = False
                            # (each seat with its pawn's tile now and at the last reading and what its score
                            # depends on; a seat's entries are read before its turn in the loop changes them)
                            for s, tile, seen, taken, put in zip(seat_range, pawns, seat_tiles, taken_from, put_on):
                                if tile == seen:
                                    taken &= lifted
                                    put &= added
                                    if not taken and not put:
                                        continue
                                    route = routes[s]
                                    if route >= 0:      # no_shortcut and off_route, one tile read off the seat's table
                                        via = vias[s]
                                        if (not taken or (via[taken.bit_length() - 1] >= route
                                                          if not taken & (taken - 1)
                                                          else no_shortcut(s, tile, taken, route))) and \
                                                (not put or (via[put.bit_length() - 1] > route if not put & (put - 1)
                                                             else off_route(s, tile, put, route))):
                                            continue
                                seat_tiles[s] = tile
                                # the score (CornerRushScores._ace_steps) with what it depends on: no search
                                # when blockers wall the Ace in with the pawn outside, or when a shortest route
                                # with the blockers lifted is clear of them; else the breadth first search
                                allowed = lifted_open[s] & ~blocked
                                if allowed >> tile & 1:
                                    target, extra = 1 << tile, 0
                                else:
                                    target, extra = adj4[tile], 1
                                walled = walls[s]
                                if walled and not walled & target and not walled_at[s] & ~blocked & walls_around[s]:
                                    # (no blocker taken from around them since; more put only wall it in tighter)
                                    put_on[s], taken_from[s], routes[s] = 0, walls_around[s], -1
                                    score = cut_scores[s][tile]
                                elif not extra and not corridors[s][tile] & blocked and far[s][tile] < FAR:
                                    put_on[s], taken_from[s], routes[s] = corridors[s][tile], 0, -1
                                    score = -far[s][tile]
                                elif target & ace_bits[s]:
                                    put_on[s] = taken_from[s] = 0
                                    routes[s] = -1
                                    score = -extra
                                else:
                                    # (breadth first from the Ace; ``left``: the allowed tiles not reached yet,
                                    # so the tiles reached are worked out once, after the search)
                                    frontier = ace_bit = ace_bits[s]
                                    left = allowed & ~ace_bit
                                    for steps_to in search_steps:
                                        frontier = (((frontier << 1) & not_first) | ((frontier >> 1) & not_last)
                                                    | (frontier << cols) | (frontier >> cols)) & left
                                        if not frontier or frontier & target:
                                            break
                                        left ^= frontier
                                    reach = (allowed & ~left) | ace_bit | frontier
                                    taken_from[s] = reach | (((reach << 1) & not_first) | ((reach >> 1) & not_last)
                                                             | (reach << cols) | (reach >> cols))
                                    if frontier:            # (it met the pawn's tile, or a tile next to it)
                                        put_on[s], routes[s] = reach, -1 if extra else steps_to
                                        if not extra:
                                            vias[s] = through_kept.get(s * tiles_count + tile) or through(s, tile)
                                        score = -(steps_to + extra)
                                    else:       # cut off: more blockers keep it so
                                        put_on[s], routes[s] = 0, -1
                                        walls[s], walls_around[s], walled_at[s] = reach, taken_from[s], blocked
                                        score = cut_scores[s][tile]
                                if score != seat_scores[s]:
                                    seat_scores[s] = score
                                    changed = True
                            if changed:             # (else the same reading again, the same tuple)
                                scored = tuple(seat_scores)
                        else:
                            standing.pawns = tuple(pawns)
                            standing.blocked = blocked
                            scored = self.running_scores(cast(State, standing))
                            seat_tiles = pawns[:]
                        seen_blocked = blocked
                    scores_read.append(scored)
                if kind == 2:
                    break
                if first_unknown:
                    first_unknown = False
                    if log is not None and log.first is None:
                        log.first = mover
                turns += 1
                if turns > turn_cap:
                    break
                decider = mover
            if played <= lean_until and phase == "start":
                # ------------------------------------------------ a whole turn on the common path, inline
                # (the same draws, in the same order, as the steps below and the effects above; a Null
                # goes on below, one step at a time)
                getbits = bits_of[mover]
                pos = pawns[mover]
                played += 2                             # the choice, then the die
                near_mask = challenge_table[pos] & blocked if challenge_on else 0
                if near_mask:
                    tiles, k, width = start_picks(near_mask) or picks_made(near_mask, start_kept, 1)
                    pick = getbits(width)
                    while pick >= k:
                        pick = getbits(width)
                else:                                   # the roll alone: still drawn, as _randbelow(1) draws
                    k, pick = 1, getbits(1)
                    while pick:
                        pick = getbits(1)
                note(k)
                value = face_values[bisect_right(totals, random_roll())]
                die = value
                if pick:                                # a challenge, and its roll
                    tile = tiles[pick - 1]
                    b = blockers[tile]
                    challenged, challenges = tile, 1
                    if not (value > b.value if greater else value >= b.value):
                        kept = shown.get(id(b))
                        if kept is None or kept[0] is not b:
                            kept = shown[id(b)] = (b, blocker(b.colour, b.value, False, everyone) if flip_back
                                                   else blocker(b.colour, b.value, True, 0))
                        blockers[tile] = kept[1]
                        moved = 0
                    else:
                        token = (b.colour, b.value)
                        blockers[tile] = None
                        blocked &= ~(1 << tile)
                        moved = value - b.value if moves_by == "difference" else value if moves_by == "roll" else 0
                        if destination == "removed":
                            removed = tuple(sorted(removed + (token,)))
                        else:
                            seat = mover if destination == "challenger_bag" else b.colour
                            sack = bags[seat]
                            i = bisect_right(sack, token)
                            bags[seat] = sack[:i] + (token,) + sack[i:]
                    if moved <= 0 and value == 0 and null_in_challenge and null_other:
                        phase = "challenge"             # (the Null's pushes: below, step by step)
                        after_challenge(value, moved)
                        continue
                elif value == 0:                        # a Null: another pawn pushed, or none (null, push_tiles)
                    moved = 0
                    if null_other:
                        target = open_tiles & ~blocked
                        if not stacking:
                            target &= ~sum(map(bit_of, pawns))
                        pushes = []
                        for q in range(n):
                            if q != mover:
                                own = ace_bits[q]
                                goal = target if others_open else target & ~(ace_mask & ~own)
                                tiles_q = adj4[pawns[q]] & (goal if null_finish else goal & ~own)
                                if tiles_q:
                                    pushes.extend([(q, t) for t in near(tiles_q)])
                        if pushes:
                            played += 1
                            k = len(pushes) + 1
                            note(k)
                            pick = getbits(widths[k])
                            while pick >= k:
                                pick = getbits(widths[k])
                            if pick < k - 1:
                                q, t = pushes[pick]
                                path = [pawns[q], t]
                                pawns[q], pushed = t, q
                                if t == aces[q]:
                                    phase, steps = "null", null_steps - 1
                                    win(q, f"{self._name(mover)} moves {self._name(q)}'s pawn onto its Ace on "
                                           f"{labels[t]}")
                                    continue
                                if null_steps > 1 and push_tiles(q):    # more pushes: one step at a time
                                    phase, steps = "null", null_steps - 1
                                    continue
                else:
                    moved = value
                if moved > 0:                           # the move: start_move and the steps
                    steps, path = moved, [pos]
                    if stacking:
                        others = 0
                        for s, t in enumerate(pawns):
                            if s != mover:
                                others |= 1 << t
                    else:
                        others = sum(map(bit_of, pawns)) & ~(1 << pos)
                    free = open_tiles & ~blocked
                    walk = end = free & ~closed[mover]
                    if not pass_through:
                        walk &= ~others
                    if not stacking:
                        end &= ~others
                    elif not pass_through:
                        end |= others & free & ~closed[mover]
                    ace = aces[mover]
                    ace_ok = (1 << ace) if (not others >> ace & 1 or on_occupied) else 0
                    if on_entry:
                        win_mask = ace_ok
                    else:
                        win_mask, end = 0, end | ace_ok
                    layer = end | win_mask
                    walks = [layer]
                    if moved > 1:
                        rightward, leftward, add = walk & not_first, walk & not_last, walks.append
                        for _ in range(1, moved):
                            layer = (win_mask | ((layer << 1) & rightward) | ((layer >> 1) & leftward)
                                     | (walk & ((layer << cols) | (layer >> cols))))
                            add(layer)
                    if adj4[pos] & layer:
                        played += moved
                        for steps in range(moved - 1, -1, -1):      # (steps: those left after this one)
                            mask = adj4[pos] & walks[steps]
                            tiles, k, width = step_picks(mask) or picks_made(mask, step_kept, 0)
                            note(k)
                            pick = getbits(width)
                            while pick >= k:
                                pick = getbits(width)
                            pos = tiles[pick]
                            path.append(pos)
                            if pos == ace and (on_entry or not steps) and (on_occupied or not others >> pos & 1):
                                played -= steps                 # (the steps not taken)
                                pawns[mover] = pos
                                phase = "move"
                                win(mover, f"{self._name(mover)} reaches its Ace on {labels[pos]}")
                                break
                        if phase == "over":
                            continue
                        pawns[mover] = pos
                    else:
                        steps = 0                       # no walk of the whole roll: the pawn stays
                # the blocker step (after_move: no second challenge in a turn)
                if bags[mover]:
                    if stacking:
                        free = no_place & ~blocked
                        for t in pawns:
                            free &= ~(1 << t)
                    else:
                        free = no_place & ~blocked & ~sum(map(bit_of, pawns))
                    if free:
                        played += 2                     # the bag's draw, then the placement
                        # chance_outcome's draw: draw_outcome over the bag's blockers, equal ones grouped
                        # (a run of the sorted bag), each group's share added up in order
                        sack = bags[mover]
                        size = len(sack)
                        if distinct:                    # (groups of one: the shares 1 / size added up, kept)
                            i = bisect_right(shares_of(size) or self._shares_made(size), random_roll())
                            if i == size:
                                i -= 1
                            held = sack[i]
                        else:
                            x, total, i = random_roll(), 0.0, 0
                            while True:
                                held = sack[i]
                                j = i + 1
                                while j < size and sack[j] == held:
                                    j += 1
                                total += (j - i) / size
                                if x < total or j == size:
                                    break
                                i = j
                        bags[mover] = sack[:i] + sack[i + 1:]
                        k = free.bit_count()
                        note(k)
                        pick = getbits(widths[k])
                        while pick >= k:
                            pick = getbits(widths[k])
                        for _ in range(pick):           # the pick-th free tile
                            free &= free - 1
                        tile = (free & -free).bit_length() - 1
                        face = hidden.get(held)
                        if face is None:
                            face = hidden[held] = [blocker(held[0], held[1], False, 1 << seat if knows_value else 0)
                                                   for seat in range(n)]
                        blockers[tile] = face[mover]
                        blocked |= 1 << tile
                        placed = tile
                    else:
                        placed = -1
                else:
                    placed = -1
                steps = 0                               # end_turn
                last = (pushed if pushed >= 0 else mover, path, placed)  # (the path a tuple when the state is packed)
                turn += 1
                held = None
                if turn >= last_turn:
                    phase = "over"
                    reason = f"max_turns = {last_turn} turns played: a draw"
                    continue
                phase = "start"
                mover = next_seat[mover]
                path, challenged, challenges, pushed = [], -1, 0, -1
                continue
            if played == max_steps:
                break
            played += 1
            if draws is None:
                draws = [_below(r) for r in choosers]
            draw = draws[mover]
            if phase == "move":                     # the whole move at once: one seat decides every step
                if len(walks) < steps:
                    step_tiles(steps)
                ace, pos = aces[mover], pawns[mover]
                while True:
                    tiles = near(adj4[pos] & walks[steps - 1])
                    k = len(tiles)
                    if options is not None:
                        options.append(k)
                    pos = tiles[draw(k)]
                    path.append(pos)
                    steps -= 1
                    if pos == ace and (on_entry or steps == 0):
                        pawns[mover] = pos
                        mask = 0
                        for s, t in enumerate(pawns):
                            if s != mover:
                                mask |= 1 << t
                        if on_occupied or not mask >> pos & 1:
                            win(mover, f"{self._name(mover)} reaches its Ace on {labels[pos]}")
                            break
                    if steps == 0:
                        pawns[mover] = pos
                        after_move()
                        break
                    if played == max_steps:
                        pawns[mover] = pos
                        break
                    played += 1
            elif phase == "start":
                tiles = near(challenge_tiles())
                k = len(tiles) + 1
                if options is not None:
                    options.append(k)
                pick = draw(k)
                if pick == 0:
                    phase = "roll"
                else:
                    challenge(tiles[pick - 1])
            elif phase == "place":              # the listing: a placement per free tile, lowest first
                free = place_tiles()
                count = free.bit_count()
                k = count if mandatory else count + 1
                if options is not None:
                    options.append(k)
                pick = draw(k)
                assert held is not None
                if pick == count:               # the end of the turn: the blocker back into the bag
                    bags[mover] = tuple(sorted(bags[mover] + (held,)))
                    end_turn(-1)
                else:
                    for _ in range(pick):       # the pick-th free tile
                        free &= free - 1
                    tile = (free & -free).bit_length() - 1
                    blockers[tile] = blocker(held[0], held[1], False, 1 << mover if knows_value else 0)
                    blocked |= 1 << tile
                    end_turn(tile)
            elif phase == "null":
                pushes = [(q, t) for q in range(n) for t in bits(push_tiles(q))]
                k = len(pushes) + 1
                if options is not None:
                    options.append(k)
                pick = draw(k)
                if pick == len(pushes):
                    after_move()
                    continue
                q, tile = pushes[pick]
                path = path + [tile] if pushed == q else [pawns[q], tile]
                pawns[q], pushed = tile, q
                steps -= 1
                if tile == aces[q]:
                    win(q, f"{self._name(mover)} moves {self._name(q)}'s pawn onto its Ace on {labels[tile]}")
                elif steps == 0 or not push_tiles(q):
                    after_move()
            elif phase == "take":
                if options is not None:
                    options.append(2)
                beaten(die, draw(2) == 0)
            elif phase == "again":
                tiles = near(challenge_tiles())
                k = len(tiles) + 1
                if options is not None:
                    options.append(k)
                pick = draw(k)
                if pick == len(tiles):
                    blocker_step()
                else:
                    challenge(tiles[pick])
            else:                               # the owner chooses the blocker drawn
                tokens = sorted(set(bags[mover]))
                if options is not None:
                    options.append(len(tokens))
                token = tokens[draw(len(tokens))]
                bag = list(bags[mover])
                bag.remove(token)
                bags[mover], held, phase = tuple(bag), token, "place"
            continue

        # ---------------------------------------------------------------- packed again
        return state.replace(phase=phase, mover=mover, turn=turn, pawns=tuple(pawns), blockers=tuple(blockers),
                             blocked=blocked, bags=tuple(bags), held=held, die=die, steps=steps, path=tuple(path),
                             challenged=challenged, challenges=challenges, pushed=pushed, rolloff=rolloff,
                             removed=removed, winner=winner, reason=reason,
                             last=last if last is None or type(last[1]) is tuple else (last[0], tuple(last[1]), last[2])
                             ), played


    def _sorted_and_distinct(self, state: State) -> tuple[bool, bool]:
        """(every bag of ``state`` sorted, no two blockers of the game alike: in the bags, on the board, held
        or removed), kept for the last state asked about (the set-up, game after game)."""
        kept = self._tokens_seen
        if kept is not None and kept[0] is state:
            return kept[1]
        tokens = [token for bag in state.bags for token in bag] + list(state.removed)
        tokens.extend((b.colour, b.value) for b in state.blockers if b is not None)
        if state.held is not None:
            tokens.append(state.held)
        found = (all(list(bag) == sorted(bag) for bag in state.bags), len(set(tokens)) == len(tokens))
        self._tokens_seen = (state, found)
        return found

    def _shares_made(self, size: int) -> list[float]:
        """The shares of a bag of ``size`` blockers all different, added up in order as
        :func:`~playtest.rules.draw_outcome` adds them (``1 / size`` at a time), kept."""
        shares, total = [], 0.0
        for _ in range(size):
            total += 1 / size
            shares.append(total)
        self._bag_shares[size] = shares
        return shares

#: a plain generator draws an index below k as getrandbits(k.bit_length()) until it is below k (every Python
#: this package supports; checked against the rules by tests/test_playout.py)
_PLAIN_BELOW = getattr(random.Random, "_randbelow", None) is getattr(random.Random, "_randbelow_with_getrandbits", 0)


def _below(rng: random.Random) -> Any:
    """``draw(k)``: the index ``rng.choice`` draws from a listing of ``k`` actions (``IndexError`` for none,
    as ``rng.choice([])`` raises)."""
    if type(rng) is random.Random:
        below = getattr(rng, "_randbelow")

        def draw(k: int) -> int:
            if k:
                return int(below(k))
            raise IndexError("Cannot choose from an empty sequence")
        return draw
    return lambda k: rng.choice(range(k))
