"""Eat Thyself's random playout: the rules on a list of slots, for the search bot's rollouts and the
lab's random games (:meth:`playtest.Game.random_playout`).

It plays exactly what stepping the rules plays (``to_move``, ``random_action``, ``effect``): every
decision drawn as :meth:`EatThyself.random_action` draws it (the same numbers from the same
generator: a king, a card and a direction; a piece of the hand, then a gap, a □ or the discard; one
of the takes or bonus removals), the number of legal actions :meth:`EatThyself.candidates` would
list reported for each, and the same state at the end, field for field (``check_game``'s "playout"
property and ``tests/test_playout.py`` compare the two). The ring is a list changed in place; the
position is packed again at the end. It covers every parameter set.

>>> import random, playtest
>>> from playtest.check import playout_by_rules
>>> game = playtest.load("eat_thyself")
>>> game.random_playout(game.initial_state(), random.Random(2)) == playout_by_rules(
...     game, game.initial_state(), random.Random(2))
True
"""

from __future__ import annotations

import random
from typing import Any, Sequence

from ...kernel.game import PlayoutLog, randbelow
from .params import PAWN
from .position import _FREE_TILE, State, _has, _owns, _position
from .rules import EatThyself, counted_to

__all__ = ["random_playout"]

_NOBODY = -99


def random_playout(self: EatThyself, state: State, rng: random.Random,
                   seat_rngs: Sequence[random.Random] | None = None, max_steps: int = 1_000_000,
                   max_turns: int | None = None, log: PlayoutLog | None = None) -> tuple[State, int] | None:
    """Random play from ``state`` on a list of slots (the contract: :meth:`playtest.Game.random_playout`).

    >>> import random, playtest
    >>> game = playtest.load("eat_thyself", num_players=3, allow_both_directions=False)
    >>> state, steps = game.random_playout(game.initial_state(), random.Random(1), max_turns=5)
    >>> state.turn, steps >= 5
    (5, True)
    """
    p = self.params
    count_tiles, directions, flips = self._count_tiles, self._directions, self._flip
    ways = len(directions)
    may = self._may
    next_of, scores_of = self._next, self._scores
    bonus_removals, extra_pieces = p.own_king_bonus_removals, p.opponent_king_extra_pieces
    last_turn = p.max_turns

    ring = list(state.ring)
    cards, me, phase, hand = state.cards, state.to_move, state.phase, state.hand
    take_from, takes_left, bonus_left, turn = state.take_from, state.takes_left, state.bonus_left, state.turn
    winners, reason, last = state.winners, state.reason, state.last

    kings: list[int] = []                   # the slots of the mover's kings, as the last end of a turn found them
    kings_known = False

    def target(slot: int, card: int, direction: int) -> int | None:     # EatThyself.target on the list
        return counted_to(ring, slot, cards[me][card], direction, count_tiles)

    def lift(slot: int) -> None:            # position._lifted, in place
        nonlocal last
        if ring[slot][0]:
            ring[slot] = _FREE_TILE
        else:
            del ring[slot]
            last = tuple([i - 1 if i > slot else i for i in last if i != slot])

    def end_turn() -> tuple[int, ...]:
        """EatThyself._end_turn: the next player's move, a win or the draw; the scores of the ring."""
        nonlocal turn, me, phase, hand, take_from, takes_left, bonus_left, winners, reason, kings_known
        turn += 1
        kings_known = True
        counts = [0] * 7
        nxt = next_of[me]
        king = 2 * nxt
        kings.clear()                       # (the next player's kings, in the same pass: its move reads them)
        i = -1
        for _, piece in ring:
            i += 1
            if piece is not None:
                counts[piece] += 1
                if piece == king:
                    kings.append(i)
        scores = scores_of(counts)
        hand, take_from, takes_left, bonus_left = (), None, 0, 0
        if -1 not in scores and turn < last_turn:
            me, phase = nxt, "move"
            return scores
        winners, reason = self._ending(scores, me, turn)
        phase = "over"
        return scores

    def pack() -> State:
        return _position(tuple(ring), cards, me, phase, hand, take_from, takes_left, bonus_left, turn, winners,
                         reason, last)

    choosers = seat_rngs if seat_rngs is not None else [rng] * p.num_players
    belows = [randbelow(r) for r in choosers]
    options = log.options if log is not None else None
    read = log is not None and log.scores is not None
    scored: Any = None                      # the running scores, once a turn has ended here
    played = turns = 0
    turn_cap = max_turns if max_turns is not None else -1
    decider = _NOBODY
    while True:
        if phase == "over" or me != decider:        # a turn ends: the game, or another seat decides
            if read and played:
                if scored is None:                  # (from the start position: ring and hand)
                    scored = self.running_scores(pack())
                log.scores.append(scored)  # type: ignore[union-attr]
            if phase == "over":
                break
            if log is not None and log.first is None:
                log.first = me
            turns += 1
            if turns > turn_cap >= 0:
                break
            decider = me
        if played == max_steps:
            break
        played += 1
        below = belows[me]
        n = len(ring)
        if phase == "move":
            if kings_known:
                slots = kings
            else:                                   # (a move the playout starts with)
                slots = [i for i, (_, piece) in enumerate(ring) if piece == me * 2]
                kings_known = True
            faces = cards[me]
            move: tuple[int, int, int] | None = None
            if count_tiles:
                both = faces[0] % n and faces[1] % n
                if options is not None:
                    legal = len(slots) * ways * (2 if both else (faces[0] % n != 0) + (faces[1] % n != 0))
                    options.append(legal or 1)
                if slots and both:
                    m = len(slots) * 2 * ways
                    k = below(m)
                    j = k % (2 * ways)
                    move = (slots[k // (2 * ways)], j // ways, directions[j % ways])
            elif options is not None:
                options.append(sum(target(s, c, d) is not None for s in slots for c in (0, 1) for d in directions)
                               or 1)
            if move is None:
                choices = [(s, c, d) for s in slots for c in (0, 1) for d in directions]
                while choices:
                    candidate = choices.pop(below(len(choices)))
                    if target(*candidate) is not None:
                        move = candidate
                        break
            if move is None:                            # a pass
                last = ()
                scored = end_turn()
                continue
            src, card, direction = move
            dst = (src + direction * faces[card]) % n if count_tiles else target(src, card, direction)
            assert dst is not None
            kings_known = False
            mine = faces
            face = flips[card][mine[card]]
            cards = cards[:me] + (((face, mine[1]) if card == 0 else (mine[0], face)),) + cards[me + 1:]
            src_tile, king_piece = ring[src]
            tile, eaten = ring[dst]
            ring[dst] = (tile, king_piece)
            if src_tile:
                last = (dst,)
                ring[src] = _FREE_TILE
            else:
                last = (dst - 1 if dst > src else dst,)
                del ring[src]
            own_pawn = me * 2 + PAWN
            if eaten is None or eaten == own_pawn:
                scored = end_turn()
                continue
            owner = eaten >> 1
            if owner == me:
                if bonus_removals > 0 and _has(ring, own_pawn):
                    phase, bonus_left = "bonus", bonus_removals
                else:
                    scored = end_turn()
            elif eaten & 1:
                phase, hand, take_from = "place", (eaten,), None
            elif extra_pieces > 0 and _owns(ring, owner):
                phase, hand, take_from, takes_left = "take", (eaten,), owner, extra_pieces
            else:
                phase, hand, take_from = "place", (eaten,), owner
        elif phase == "place":
            free = ring.count(_FREE_TILE)
            if options is not None:
                if may:
                    options.append(sum(n + free + (bool(piece & 1) and take_from is None)
                                       for piece in (hand if len(hand) == 1 else set(hand))))
                else:
                    options.append((n + free) * (1 if len(hand) == 1 else len(set(hand))))
            if len(hand) == 1:
                piece = hand[0]
                below(1)
            else:
                piece = hand[below(len(hand))]
            m = n + free + (may and bool(piece & 1) and take_from is None)
            k = below(m)
            if k < n:
                ring.insert(k, (False, piece))
                last = tuple([i + 1 if i >= k else i for i in last]) + (k,)
            elif k - n < free:
                slot = [i for i, s in enumerate(ring) if s == _FREE_TILE][k - n]
                ring[slot] = (True, piece)
                last = last + (slot,)
            if len(hand) == 1:
                scored = end_turn()
            else:
                rest = list(hand)
                rest.remove(piece)
                hand = tuple(rest)
        elif phase == "take":
            theirs = [i for i, (_, piece) in enumerate(ring) if piece is not None and piece >> 1 == take_from]
            if options is not None:
                options.append(len(theirs))
            if not theirs:
                raise IndexError("Cannot choose from an empty sequence")
            slot = theirs[below(len(theirs))]
            taken = ring[slot][1]
            assert taken is not None and take_from is not None
            lift(slot)
            hand = tuple(sorted(hand + (taken,)))
            takes_left -= 1
            if not (takes_left > 0 and _owns(ring, take_from)):
                takes_left, phase = 0, "place"
        else:                                           # the bonus: remove an own pawn, or keep them
            own_pawn = me * 2 + PAWN
            pawns = [i for i, (_, piece) in enumerate(ring) if piece == own_pawn]
            if options is not None:
                options.append(len(pawns) + 1)
            k = below(len(pawns) + 1)
            if k == len(pawns):
                scored = end_turn()
                continue
            lift(pawns[k])
            bonus_left -= 1
            if not (bonus_left > 0 and _has(ring, own_pawn)):
                scored = end_turn()

    return pack(), played


EatThyself.random_playout = random_playout  # type: ignore[assignment]
