"""Source's random playout: the rules on plain lists and ints, for the search bot's rollouts and the
lab's random games (:meth:`playtest.Game.random_playout`; :meth:`Source.random_playout` calls
:func:`random_playout`).

It plays exactly what stepping the rules plays (``to_move``, ``random_action``, ``effect``): every
decision drawn as :meth:`Source.random_action` draws it (one number below the count of the action
masks plus End turn, from the deciding seat's generator), that count reported as the number of
legal actions (:meth:`Source.candidates` lists the same), the running scores at every turn end as
:meth:`Source.running_scores` gives them, and the same state at the end, field for field, the
derived ``connected``, ``tally`` and ``last`` included (``check_game``'s "playout" property and
``tests/test_source_playout.py`` compare the two). Rule numbers are those of RULES.md section C.

The position is unpacked once: the four colours' stone masks, supplies and connected masks as
lists changed in place, the fortification layers as the rules' own tuple. Connection is kept up to
date action by action, as the rules keep it (the masks of the next decision read it); the score
(``tally``) is brought up to date only when it is read, at a turn end and at the end, from the
colours an action touched since (the rules' own pieces, ``_token_points`` and ``_territory``, so
the values are theirs; the seed's reading of surrounded points, C18's defaults, is counted here on
the masks, as ``_territory`` counts it). It covers every parameter set and every position the rules
play, so it never leaves a game to them (it never answers ``None``).

>>> import random, playtest
>>> from playtest.check import playout_by_rules
>>> game = playtest.load("source")
>>> game.random_playout(game.initial_state(), random.Random(2)) == playout_by_rules(
...     game, game.initial_state(), random.Random(2))
True
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Any, Sequence

from ...kernel.game import PlayoutLog, randbelow
from .position import State, add_layer, clear_layers, remove_layer

if TYPE_CHECKING:
    from .rules import Source

__all__ = ["random_playout"]

_NOBODY = -99            # no decision yet (no seat has this number)


def random_playout(game: Source, state: State, rng: random.Random, seat_rngs: Sequence[random.Random] | None = None,
                   max_steps: int = 1_000_000, max_turns: int | None = None,
                   log: PlayoutLog | None = None) -> tuple[State, int]:
    """Random play from ``state`` on plain lists (the contract: :meth:`playtest.Game.random_playout`).

    Source has no chance step: ``rng`` draws every colour's decisions unless ``seat_rngs`` is
    given (then ``seat_rngs[s]`` draws player ``s``'s, for both of its colours). A *turn* of the
    contract is a run of decisions by one player: with the default colours a colour turn
    (C.1 §7), with ``player_colors = "red+blue/yellow+green"`` two colour turns in a row.

    >>> import random, playtest
    >>> game = playtest.load("source", board_size=7, tokens_per_color=10)
    >>> state, steps = game.random_playout(game.initial_state(), random.Random(1), max_turns=6)
    >>> state.turn >= 6, steps >= 6, state.over
    (True, True, '')
    """
    p, b = game.params, game.board
    # ---------------------------------------------------------------- the tables (fixed by the parameters)
    n, whole, not_first, not_last = b.cols, b.all, b.not_first_col, b.not_last_col
    flood = b.flood
    seat_of, partner, next_colour, opponents = game.color_seat, game.partner, game._next, game._opponents
    source_bit, fortifiable, round_last = game._corner_bit, game._fortifiable, game._round_last
    (a1, a2), (b1, b2) = game.color_pairs
    centre_bit = 1 << game.centre
    connect, token_points, territory = game._connect, game._token_points, game._territory
    cost_place, cost_fortify, cost_remove = p.cost_place, p.cost_fortify, p.cost_remove_fortification
    remove_tokens = p.remove_fortification_tokens
    cost_connected, cost_unconnected = p.cost_capture_connected, p.cost_capture_unconnected
    cost_stack, cost_connected_stack = p.cost_capture_unconnected_fortified, p.capture_connected_fortified_cost
    most_layers, source_capturable = p.max_fortify_layers, p.source_capturable
    adjacent_only = p.action_range == "adjacent_to_connected"
    through = p.connection_through_partner
    fortification_scores, territory_value = p.fortification_scores, p.territory_value
    simple_enclosure = (p.territory_mode == "single_point" and p.territory_neighbourhood == "orthogonal"
                        and p.territory_color_rule == "single_color" and p.territory_requires_empty
                        and p.edge_counts_as_wall)
    supply_trigger = p.end_trigger == "supply_empty"
    immediate, end_of_turn = p.end_timing == "immediate", p.end_timing == "end_of_turn"
    pass_limit, ap_per_turn = p.pass_limit, p.ap_per_turn
    tiebreak = p.tiebreak
    centre_rule = tiebreak in ("center_control", "center_connected")
    control = tiebreak == "center_control"

    # ---------------------------------------------------------------- the position, unpacked
    stones, supply, connected = list(state.stones), list(state.supply), list(state.connected)
    forts = state.forts
    c, ap, acted, passes, turn, over, last = (state.active, state.ap_left, state.acted, state.passes, state.turn,
                                              state.over, state.last)
    points = [t[:3] for t in state.tally]     # per colour: (connected, unconnected, centre) points
    surrounded = [t[3] for t in state.tally]  # per colour: surrounded points
    stale = 0                                 # bit d: colour d's token points are out of date
    enclosure_stale = False                   # the surrounded points are out of date (a token came or went)
    scored: Any = None                        # the running scores, while nothing has changed since

    def bring_up_to_date() -> None:
        """The score as the rules keep it: the token points of every colour an action touched
        (C.1 §17, C16, C17), the surrounded points of all four after a token came or went (C18, C19)."""
        nonlocal stale, enclosure_stale
        for d in range(4):
            if stale >> d & 1:
                points[d] = token_points(stones[d], connected[d], forts)
        stale = 0
        if enclosure_stale:
            enclosure_stale = False
            if not simple_enclosure:
                surrounded[:] = [enclosed.bit_count() * territory_value for enclosed in territory(stones)]
                return
            # the seed's reading (C.1 §17, C18): an empty point whose every neighbour on the board is the
            # colour's token; Source._territory reads the same with its other parameters
            empty = whole & ~(stones[0] | stones[1] | stones[2] | stones[3])
            for d in range(4):
                tokens = stones[d]
                if tokens:
                    rest = whole & ~tokens              # the points that do not enclose for d
                    touched = (((rest << 1) & not_first) | ((rest >> 1) & not_last) | (rest << n) | (rest >> n))
                    surrounded[d] = (empty & ~touched).bit_count() * territory_value
                else:
                    surrounded[d] = 0

    def running_scores() -> tuple[float, float]:
        """:meth:`Source.running_scores`: the players' totals (C.1 §18), plus 0.5 for the player the
        ``tiebreak`` rule gives a tie to (C20)."""
        bring_up_to_date()
        score_a = sum(points[a1]) + surrounded[a1] + sum(points[a2]) + surrounded[a2]
        score_b = sum(points[b1]) + surrounded[b1] + sum(points[b2]) + surrounded[b2]
        if centre_rule:
            for holder in range(4):
                if stones[holder] & centre_bit:
                    if control or connected[holder] & centre_bit:
                        return (score_a + 0.5, score_b) if seat_of[holder] == 0 else (score_a, score_b + 0.5)
                    break
        return (score_a, score_b)

    draws = [randbelow(r) for r in seat_rngs] if seat_rngs is not None else [randbelow(rng)] * 2
    options = log.options if log is not None else None
    read = log is not None and log.scores is not None
    played = turns = 0
    turn_cap = max_turns if max_turns is not None else -1
    decider = _NOBODY
    while True:
        mover = None if over else seat_of[c]
        if mover != decider:                  # a turn ends: the game, or the other player decides
            if read and played:
                if scored is None:
                    scored = running_scores()
                log.scores.append(scored)  # type: ignore[union-attr]
            if mover is None:
                break
            if log is not None and log.first is None:
                log.first = mover
            turns += 1
            if turns > turn_cap >= 0:
                break
            decider = mover
        if played == max_steps:
            break
        played += 1

        # ---- what may be done (Source.action_masks): C.1 §8-§15
        mine = connected[c]
        near = (((mine << 1) & not_first) | ((mine >> 1) & not_last) | (mine << n) | (mine >> n)) & whole
        own = supply[c]
        # §8: next to a connected token of the colour, on an empty point
        place = near & ~(stones[0] | stones[1] | stones[2] | stones[3]) if own >= 1 and ap >= cost_place else 0
        fortify = 0
        if most_layers and own >= 1 and ap >= cost_fortify:     # §9, C8: a connected token, below the top layer
            full = forts[most_layers - 1] if len(forts) >= most_layers else 0
            fortify = mine & ~full & fortifiable
        remove = capture = 0
        o1, o2 = opponents[c]
        targets = stones[o1] | stones[o2]
        if adjacent_only:                                       # §14, C6: the range of §10-§13
            targets &= near
        if targets:
            theirs = connected[o1] | connected[o2]
            fortified = forts[0] if forts else 0
            if ap >= cost_remove and own >= remove_tokens:      # §10, C10: a connected fortified stack
                remove = targets & fortified & theirs
            if not source_capturable:                           # §15, C7: never a source itself
                targets &= ~((source_bit[o1] & stones[o1]) | (source_bit[o2] & stones[o2]))
            if ap >= cost_connected:                            # §11
                capture |= targets & theirs & ~fortified
            if ap >= cost_unconnected:                          # §12
                capture |= targets & ~theirs & ~fortified
            if ap >= cost_stack:                                # §13
                capture |= targets & ~theirs & fortified
            if cost_connected_stack and ap >= cost_connected_stack:     # C11 (0: §15, not at all)
                capture |= targets & theirs & fortified
        count_place, count_fortify = place.bit_count(), fortify.bit_count()
        count_remove, count_capture = remove.bit_count(), capture.bit_count()
        legal = count_place + count_fortify + count_remove + count_capture + 1   # + End turn
        if options is not None:
            options.append(legal)
        k = draws[seat_of[c]](legal)            # Source.random_action's one draw

        # ---- the action drawn (Source.effect)
        if k == legal - 1:                      # End turn (C.1 §7, C13): the points left are lost
            if not acted:
                last = ()
            turn_ends = True
        else:
            scored = None
            if not acted:                       # a colour's first action: the mark starts afresh
                last = ()
            if k < count_place:
                kind, mask = 0, place
            elif (k := k - count_place) < count_fortify:
                kind, mask = 1, fortify
            elif (k := k - count_fortify) < count_remove:
                kind, mask = 2, remove
            else:
                kind, mask = 3, capture
                k -= count_remove
            for _ in range(k):
                mask &= mask - 1
            bit = mask & -mask
            i = bit.bit_length() - 1
            if i not in last:                   # the board's mark: the points this colour's turn touched
                last += (i,)
            if kind == 0:                       # Place (§8): the new token joins the chain, with any
                cost = cost_place               # stranded tokens it touches (C5: or both colours' chains)
                stones[c] |= bit
                supply[c] -= 1
                if through:
                    connected[c] = connect(stones, c)
                    connected[partner[c]] = connect(stones, partner[c])
                    stale |= 1 << c | 1 << partner[c]
                else:
                    stranded = stones[c] & ~connected[c]        # (the new token, and any cut off before)
                    connected[c] |= bit if stranded == bit else flood(bit, stranded)
                    stale |= 1 << c
                enclosure_stale = True
            elif kind == 1:                     # Fortify (§9): a supply token on top
                cost = cost_fortify
                supply[c] -= 1
                forts = add_layer(forts, bit)
                if fortification_scores:        # C17
                    stale |= 1 << c
            elif kind == 2:                     # Remove a fortification (§10, C10): AP and supply tokens
                cost = cost_remove
                supply[c] -= remove_tokens
                forts = remove_layer(forts, bit)
                if fortification_scores:
                    stale |= 1 << (o1 if stones[o1] & bit else o2)
            else:                               # Capture (§11-§13, C11): the token or the whole stack goes
                target = o1 if stones[o1] & bit else o2
                was_fortified, was_connected = forts and forts[0] & bit, connected[target] & bit
                if was_connected:
                    cost = cost_connected_stack if was_fortified else cost_connected
                else:
                    cost = cost_stack if was_fortified else cost_unconnected
                stones[target] &= ~bit
                if was_fortified:
                    forts = clear_layers(forts, bit)
                if through:                     # C5: the partner's chain may run through the token
                    connected[target] = connect(stones, target)
                    connected[partner[target]] = connect(stones, partner[target])
                    stale |= 1 << target | 1 << partner[target]
                else:                           # C12: a chain may be cut, recompute that colour
                    if was_connected:
                        connected[target] = connect(stones, target)
                    stale |= 1 << target
                enclosure_stale = True
            acted = True
            ap -= cost
            if immediate and (min(supply) <= 0 if supply_trigger else not all(stones)):
                over = game._trigger(stones, supply)            # §16, C14: the game ends at once
                if over:
                    ap = max(ap, 0)
                    continue
            turn_ends = ap <= 0                 # the points are spent: the turn ends by itself
        if turn_ends:                           # Source._end_turn: §7, §16, C14, C15
            passes = 0 if acted else passes + 1
            turn += 1
            if passes >= pass_limit:
                over = f"{passes} turns in a row without an action (pass_limit = {pass_limit})"
            elif not immediate and (min(supply) <= 0 if supply_trigger else not all(stones)):
                reason = game._trigger(stones, supply)
                if reason and (end_of_turn or c == round_last):
                    over = reason + (" (end of the turn)" if end_of_turn else " (end of the round)")
            if over:
                ap = 0
            else:
                c, ap, acted = next_colour[c], ap_per_turn, False

    if not played:
        return state, 0
    bring_up_to_date()
    tally = tuple(points[d] + (surrounded[d],) for d in range(4))
    return state.replace(stones=tuple(stones), forts=forts, supply=tuple(supply), active=c, ap_left=ap, acted=acted,
                         passes=passes, turn=turn, over=over, connected=tuple(connected), tally=tally,
                         last=last), played

