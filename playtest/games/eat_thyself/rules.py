"""Eat Thyself's rules: the game (legality, effect, the random sampler, outcome, notation and board)."""

from __future__ import annotations

import random
from typing import Any, Callable, Sequence

from ...kernel import Action, Game, GameType, IllegalAction, Outcome, Refusal, Seat, register
from ...kernel.game import randbelow
from ...scene import Scene, gap_id, slot_id
from .actions import (_DOING, _PHASE_OF, CCW, CW, Discard, KeepPawns, Move, Pass, PlaceInGap, PlaceOnTile, RemovePawn,
                      Take)
from .params import (KING, KING_SYMBOLS, PAWN, SEAT_COLORS, SEAT_NAMES, SEAT_SHAPES, EatThyselfParams, Slot, _card_faces,
                     piece_symbol)
from .position import _FREE_TILE, State, _free_tiles, _has, _lifted, _owns, _piece_counts, _position, _setup_ring

#: (a state made by ``_end_turn``, the slots of its mover's kings, its running scores and the scoring rule
#: they were counted by): what ``random_action``, ``candidates`` and ``running_scores`` read there instead
#: of going round the ring again (kept by identity, so it holds for that very state, and for the scores,
#: that very rule: a game with another win_condition, live, counts them again)
_COUNTED: tuple[Any, list[int], tuple[int, ...], Any] = (None, [], (), None)
#: the most listings :meth:`EatThyself.legal_runs` remembers (then it starts again)
LISTINGS_KEPT = 4096


def counted_to(ring: Sequence[Any], slot: int, value: int, direction: int, count_tiles: bool) -> int | None:
    """The slot a count of ``value`` from ``slot`` in ``direction`` ends on (rule E.1 §9), or None when
    it comes back to ``slot``: every slot counts, or (E2 alternative, ``count_tiles`` false) only
    slots with a piece, the king's own among them when the count wraps, so a ring with no
    unoccupied tile moves the same. :meth:`EatThyself.target` and the random playout read it."""
    n = len(ring)
    if count_tiles:
        t = (slot + direction * value) % n
        return None if t == slot else t
    i, steps = slot, 0
    while True:
        i = (i + direction) % n
        if ring[i][1] is not None:
            steps += 1
            if steps == value:
                return None if i == slot else i


def _moves_at(directions: tuple[int, ...], slot: int) -> tuple[Move, ...]:
    """The moves of a king on ``slot``: card 0 then card 1, in each allowed direction."""
    return tuple(Move(slot, card, d) for card in (0, 1) for d in directions)


# --------------------------------------------------------------------------- the game

@register
class EatThyself(Game[EatThyselfParams, State, Action]):
    """Eat Thyself: kings eat their own pawns around a ring; one piece left wins.

    >>> import playtest
    >>> game = playtest.load("eat_thyself", num_players=3)
    >>> len(game.initial_state().ring)
    24
    """

    name = "eat_thyself"
    title = "Eat Thyself"
    credit = ("Eat Thyself by Martin Grider, art by August Brown, made for the Global Game Jam "
              "(2012); released under CC BY-NC-SA 3.0 Unported.")
    Params = EatThyselfParams
    state_type = State
    action_types = (Move, Pass, RemovePawn, KeepPawns, Take, PlaceInGap, PlaceOnTile, Discard)
    # the length is bounded by max_turns, a parameter: no bound for the game as such
    game_type = GameType(dynamics="sequential", chance=False, information="perfect", utility="zero_sum")
    end_rule = "E.1 §12"
    # the candidates below are exactly the legal actions (a move whose count comes back to its king,
    # a pass while a move exists and a discard the rules forbid are left out), in the same order:
    # legal_actions lists them without asking why_not of each (tests/test_kernel.py holds it to that)
    candidates_are_legal = True

    def __init__(self, params: EatThyselfParams | None = None, **values: Any):
        super().__init__(params, **values)
        p = self.params
        self._cards = tuple(_card_faces(c) for c in p.card_pair)
        self._flip = tuple({low: high, high: low} for low, high in self._cards)    # a card's face once turned over
        order = tuple(range(p.num_players))[::1 if p.turn_order == "setup_order" else -1]
        self._next = {seat: order[(k + 1) % len(order)] for k, seat in enumerate(order)}
        self._directions = (CW, CCW) if p.allow_both_directions else (CW,)
        self._count_tiles = p.count_empty_tiles
        self._may = p.opponent_pawn_return == "may"
        # the piece codes each player's score counts (minus them): its king and pawn, or its king only (E1;
        # code 6, which no piece has)
        self._scored = tuple((2 * pl, 2 * pl + 1 if p.win_condition == "one_piece_left" else 6)
                             for pl in range(p.num_players))
        self._two_by_pieces = self._scored == ((0, 1), (2, 3))
        # a move drawn as one number k: its king is slots[k >> _shift], its (card, direction) k & _mask
        self._shift = len(self._directions)            # 2 or 1: four or two moves a king
        self._mask = (1 << self._shift) - 1
        # the actions, made once per game (actions are values: a listing and a draw hand out the same objects,
        # and a numbering library finds them by identity)
        self._pass, self._keep, self._discards = Pass(), KeepPawns(), tuple(Discard(piece) for piece in range(6))
        self._keeps = (self._keep,)        # (a bonus's last run: legal_runs)
        self._actions_by_slot: dict[tuple[Any, ...], list[Any]] = {}
        self._moves: list[tuple[Move, ...]] = self._by_slot(0, _moves_at, self._directions)   # (the tables,
        self._gaps: list[list[PlaceInGap]] = [self._by_slot(0, PlaceInGap, piece) for piece in range(6)]  # at hand)
        self._takes: list[Take] = self._by_slot(0, Take)
        self._tiles: list[list[PlaceOnTile]] = [self._by_slot(0, PlaceOnTile, piece) for piece in range(6)]
        self._removes: list[RemovePawn] = self._by_slot(0, RemovePawn)
        self._initial: State | None = None
        #: legal_runs's listings of a move, by what decides them (see there)
        self._listings: dict[tuple[Any, ...], tuple[tuple[Action, ...], int]] = {}
        self._turned: dict[tuple[Any, ...], tuple[tuple[int, int], ...]] = {}
        # why_not and effect by kind of action
        self._why: dict[type, Callable[[State, Any], Refusal | None]] = {
            Move: self._why_move, Pass: self._why_pass, KeepPawns: self._why_keep, RemovePawn: self._why_remove,
            Take: self._why_take, PlaceInGap: self._why_place, PlaceOnTile: self._why_place, Discard: self._why_place}
        self._effect: dict[type, Callable[[State, Any], State]] = {
            Move: self._move, Pass: self._pass_turn, KeepPawns: self._keep_pawns, RemovePawn: self._remove,
            Take: self._take, PlaceInGap: self._place_in_gap, PlaceOnTile: self._place_on_tile, Discard: self._drop}

    # ---- seats and setup
    def seats(self) -> list[Seat]:
        return [Seat(f"{SEAT_NAMES[i]} {KING_SYMBOLS[i]}", SEAT_COLORS[i], SEAT_SHAPES[i])
                for i in range(self.params.num_players)]

    def initial_state(self) -> State:
        made = self._initial          # a state is a value: the set-up is made once per game
        if made is None:
            p = self.params
            text = p.setup_sequence_2p if p.num_players == 2 else p.setup_sequence_3p
            faces = tuple((p.initial_faces[0], p.initial_faces[1]) for _ in range(p.num_players))
            made = self._initial = State(ring=_setup_ring(text), cards=faces, to_move=p.first_player)
        return made

    # ---- the protocol
    def to_move(self, state: State) -> int | None:
        return None if state.phase == "over" else state.to_move

    def outcome(self, state: State) -> Outcome | None:
        if state.phase != "over":
            return None
        return Outcome(state.winners, state.reason)

    def running_scores(self, state: State) -> tuple[int, ...]:
        """Minus the pieces each player still has (on the ring and in hand), or minus its kings with
        ``win_condition = "one_king_left"``: the goal is to get down to one, so fewer is ahead.

        A winner is at one, and nobody ever goes below one. With ``simultaneous_win = "mover"``
        no loser is at one either: one turn cannot bring two players there (the mover loses
        pieces only by eating its own, another player at most one pawn, by a discard), so
        winners are never behind.

        >>> import playtest
        >>> game = playtest.load("eat_thyself")
        >>> game.running_scores(game.state_from_json({"ring": "▲△△□●○", "cards": [[1, 2], [1, 2]]}))
        (-3, -2)
        """
        counted, _, scores, rule = _COUNTED
        if counted is state and rule is self._scored:
            return scores
        return self._scores(_piece_counts(state.ring, state.hand))

    def _scores(self, counts: list[int]) -> tuple[int, ...]:
        """The running scores of a position with ``counts`` pieces of each code (and none of code 6)."""
        if self._two_by_pieces:
            return (-counts[0] - counts[1], -counts[2] - counts[3])
        return tuple([-counts[king] - counts[pawn] for king, pawn in self._scored])

    def target(self, state: State, slot: int, card: int, direction: int) -> int | None:
        """Index of the slot a king on ``slot`` reaches with ``card`` (rule E.1 §9), or None.

        None means the count comes back to the king's own slot: not a legal move.
        This is the one decision on a move's count that ``why_not`` (and so ``legal_actions``,
        ``apply`` and ``random_action``), the notation and the board all use.

        >>> import playtest
        >>> game = playtest.load("eat_thyself", count_empty_tiles=False)
        >>> state = game.state_from_json({"ring": ["▲", "□", "●", "△", "○"], "cards": [[1, 4], [1, 2]]})
        >>> game.target(state, 0, 0, +1), game.target(state, 0, 1, +1)   # 4 of 4 pieces: back to ▲
        (2, None)
        """
        return counted_to(state.ring, slot, state.cards[state.to_move][card], direction,
                          self.params.count_empty_tiles)

    # ---- legality: candidates, one decision (why_not) and the effect
    def _by_slot(self, n: int, kind: Callable[..., Any], *first: Any) -> list[Any]:
        """``kind(*first, i)`` for every slot (or gap) ``i`` of rings of up to ``n`` slots and more,
        made once per game (actions are values: the same object every time)."""
        table = self._actions_by_slot.setdefault((kind,) + first, [])
        while len(table) < n:
            table.append(kind(*first, len(table)))
        return table

    def _kings(self, state: State) -> list[int]:
        """The slots of the mover's kings (as ``_end_turn`` found them, for a state it made)."""
        counted, kings, _, _ = _COUNTED
        if counted is state:
            return kings
        king = state.to_move * 2
        return [slot for slot, (_, piece) in enumerate(state.ring) if piece == king]

    def _legal_moves(self, state: State) -> list[Any]:
        """Every king of the mover with either card in every allowed direction (rules E.1 §7-§8, E3),
        but a count that comes back to its king (E.1 §9)."""
        n = len(state.ring)
        slots, table = self._kings(state), self._moves
        if len(table) < n:
            self._by_slot(n, _moves_at, self._directions)
        if not self._count_tiles:
            target = self.target
            return [m for slot in slots for m in table[slot] if target(state, slot, m.card, m.direction) is not None]
        # self.target, for every king at once: a count comes back to its king exactly when the card's
        # value is a multiple of the ring's length (d * value, d = +1 or -1), whatever the slot
        faces = state.cards[state.to_move]
        if faces[0] % n and faces[1] % n:
            return [m for slot in slots for m in table[slot]]
        return [m for slot in slots for m in table[slot] if faces[m.card] % n]

    def _may_discard(self, state: State, piece: int) -> bool:
        """An eaten opponent pawn may stay off the ring (E6: ``opponent_pawn_return = "may"``)."""
        return self._may and bool(piece & 1) and state.take_from is None

    def candidates(self, state: State, seat: int) -> list[Action]:
        """The legal actions of the phase, in the order the board and the bots list them (what
        ``why_not`` lets through: a move's count may not come back to its king, E.1 §9; a pass
        only when no move is possible, E12; a discard only where E6 allows it)."""
        phase, ring = state.phase, state.ring
        n = len(ring)
        if phase == "move":
            return self._legal_moves(state) or [self._pass]
        if phase == "place":
            free_tiles = _free_tiles(ring) if _FREE_TILE in ring else []
            actions: list[Action] = []
            hand = state.hand
            for piece in (hand if len(hand) == 1 else sorted(set(hand))):
                gaps = self._gaps[piece]
                actions += gaps[:n] if len(gaps) >= n else self._by_slot(n, PlaceInGap, piece)[:n]
                if free_tiles:
                    actions += map(self._by_slot(n, PlaceOnTile, piece).__getitem__, free_tiles)
                if self._may and self._may_discard(state, piece):
                    actions.append(self._discards[piece])
            return actions
        if phase == "take":
            table, owner = self._takes if len(self._takes) >= n else self._by_slot(n, Take), state.take_from
            return [table[i] for i, (_, p) in enumerate(ring) if p is not None and p >> 1 == owner]
        if phase == "bonus":
            own_pawn, table = state.to_move * 2 + PAWN, self._by_slot(n, RemovePawn)
            return [table[i] for i, (_, p) in enumerate(ring) if p == own_pawn] + [self._keep]
        return []

    def action_space(self) -> list[Action]:
        """Every action of these parameters, for the stable numbering that numbering libraries
        (OpenSpiel, PettingZoo) read (:mod:`playtest.kernel.encoding`): the same ids in every
        process, none taken in the order actions are met. The ring never holds more slots than at
        the set-up (a slot is a □ tile or a piece off the tiles, and no piece is ever added), so
        slots and gaps are numbered below its length.

        >>> import playtest
        >>> game = playtest.load("eat_thyself")
        >>> len(game.action_space()), set(game.legal_actions(game.initial_state())) <= set(game.action_space())
        (230, True)
        """
        n, pieces = len(self.initial_state().ring), range(2 * self.params.num_players)
        return ([Move(s, c, d) for s in range(n) for c in (0, 1) for d in (CW, CCW)] + [Pass()]
                + [RemovePawn(s) for s in range(n)] + [KeepPawns()] + [Take(s) for s in range(n)]
                + [PlaceInGap(p, g) for p in pieces for g in range(n)]
                + [PlaceOnTile(p, s) for p in pieces for s in range(n)] + [Discard(p) for p in pieces])

    def legal_runs(self, state: State) -> list[tuple[Sequence[Action], int]] | None:
        """The legal actions as the adapters for numbering libraries read them
        (:mod:`playtest.interop.core`): runs ``(table, mask)`` of prebuilt actions that select
        together exactly what :meth:`candidates` lists (the same objects, the kinds in its order).

        * a move: one run of every action of the listing, the listing remembered by what decides
          it (the mover's kings and which of its two cards can move: with ``count_empty_tiles`` a
          card moves unless its value is a multiple of the ring's length), so the same listing is
          the same tuple again, numbered by its remembered ids;
        * a placement: for each piece of the hand in the listing's order, its table of gaps (every
          gap of the ring), its table of □ tiles (the unoccupied ones) and its discard (where E6
          allows it);
        * a take or a bonus: the table of takes (the slots of the pieces of the player whose king
          was eaten), or of the mover's own pawns to remove and then keeping them.

        ``None`` for a move when the count skips empty tiles: listed as usual.

        >>> import playtest
        >>> from playtest.geometry import select
        >>> game = playtest.load("eat_thyself")
        >>> state = game.initial_state()
        >>> [(listing, mask)] = game.legal_runs(state)
        >>> list(listing) == game.candidates(state, 0), bin(mask), game.legal_runs(state)[0][0] is listing
        (True, '0b11111111', True)
        >>> state = game.state_from_json({"ring": "▲△△□●○", "cards": [[1, 2], [1, 2]], "phase": "place", "hand": ["△"]})
        >>> [a for table, mask in game.legal_runs(state) for a in select(table, mask)] == game.candidates(state, 0)
        True
        """
        phase, ring = state.phase, state.ring
        n = len(ring)
        if phase == "move":
            if not self._count_tiles:
                return None
            faces = state.cards[state.to_move]
            key = (tuple(self._kings(state)), faces[0] % n != 0, faces[1] % n != 0)
            got = self._listings.get(key)
            if got is None:
                listing = tuple(self.candidates(state, state.to_move))
                if len(self._listings) >= LISTINGS_KEPT:
                    self._listings.clear()
                got = self._listings[key] = (listing, (1 << len(listing)) - 1)
            return [got]
        if phase == "place":
            free, at = 0, -1
            for _ in range(ring.count(_FREE_TILE)):      # (the unoccupied □: found in C, a bit each)
                at = ring.index(_FREE_TILE, at + 1)
                free |= 1 << at
            runs: list[tuple[Sequence[Action], int]] = []
            hand = state.hand
            for piece in (hand if len(hand) == 1 else sorted(set(hand))):
                gaps = self._gaps[piece]
                runs.append((gaps if len(gaps) >= n else self._by_slot(n, PlaceInGap, piece), (1 << n) - 1))
                if free:
                    tiles = self._tiles[piece]
                    runs.append((tiles if len(tiles) >= n else self._by_slot(n, PlaceOnTile, piece), free))
                if self._may and self._may_discard(state, piece):
                    runs.append((self._discards, 1 << piece))
            return runs
        if phase == "take":
            table, owner, mask = self._takes if len(self._takes) >= n else self._by_slot(n, Take), state.take_from, 0
            for i, (_, p) in enumerate(ring):
                if p is not None and p >> 1 == owner:
                    mask |= 1 << i
            return [(table, mask)]
        if phase == "bonus":
            own_pawn, table, mask = state.to_move * 2 + PAWN, self._removes, 0
            if len(table) < n:
                self._by_slot(n, RemovePawn)
            for i, (_, p) in enumerate(ring):
                if p == own_pawn:
                    mask |= 1 << i
            return [(table, mask), (self._keeps, 1)]
        return None

    def why_not(self, state: State, action: Action, seat: int) -> Refusal | None:
        """Why the mover may not play ``action`` now (rules E.1 §7-§12, E3, E6-E9, E12), or ``None``.

        >>> import playtest
        >>> game = playtest.load("eat_thyself")
        >>> game.why_not(game.initial_state(), Move(5, 0, CW), 0)
        Refusal(text='move one of your own kings', rule='E.1 §8')
        """
        kind = type(action)
        phase = _PHASE_OF.get(kind)
        if phase != state.phase:
            if phase is None:
                return Refusal(f"{action!r} is not an Eat Thyself action"[:300])
            return Refusal(f"now {self.seats()[state.to_move].name} must {_DOING[state.phase]}", "E.1 §11")
        return self._why[kind](state, action)

    def _why_move(self, state: State, move: Move) -> Refusal | None:
        slot, ring = move.slot, state.ring
        if not 0 <= slot < len(ring) or ring[slot][1] != state.to_move * 2:
            return Refusal("move one of your own kings", "E.1 §8")
        if move.card not in (0, 1):
            return Refusal("choose one of your two cards (0 or 1)", "E.1 §7")
        if move.direction not in self._directions:
            return Refusal("a king moves clockwise (+1)" + (" or counter-clockwise (-1)" if
                           self.params.allow_both_directions else ""), "E3")
        if self.target(state, slot, move.card, move.direction) is None:
            return Refusal("this move would come back to the king's own slot", "E.1 §9")
        return None

    def _why_pass(self, state: State, action: Pass) -> Refusal | None:
        if self._legal_moves(state):
            return Refusal("a player may pass only when no move is possible: moving is mandatory", "E12")
        return None

    def _why_keep(self, state: State, action: KeepPawns) -> Refusal | None:
        return None

    def _why_remove(self, state: State, action: RemovePawn) -> Refusal | None:
        slot, ring = action.slot, state.ring
        if not 0 <= slot < len(ring) or ring[slot][1] != state.to_move * 2 + PAWN:
            return Refusal("the bonus removes one of your own pawns", "E7")
        return None

    def _why_take(self, state: State, action: Take) -> Refusal | None:
        slot, ring = action.slot, state.ring
        piece = ring[slot][1] if 0 <= slot < len(ring) else None
        if piece is None or piece >> 1 != state.take_from:
            return Refusal("take pieces of the player whose king you ate", "E8")
        return None

    def _why_place(self, state: State, action: PlaceInGap | PlaceOnTile | Discard) -> Refusal | None:
        piece, ring = action.piece, state.ring
        if piece not in state.hand:
            return Refusal(f"{piece_symbol(piece) if 0 <= piece < 6 else piece} is not in your hand", "E.1 §11")
        if isinstance(action, PlaceInGap):
            if not 0 <= action.gap < len(ring):
                return Refusal(f"gap {action.gap} is not between two slots of the ring", "E9")
        elif isinstance(action, PlaceOnTile):
            slot = action.slot
            if not 0 <= slot < len(ring) or not ring[slot][0] or ring[slot][1] is not None:
                return Refusal("a piece goes between two pieces or on an unoccupied □", "E9")
        elif not self._may_discard(state, piece):
            return Refusal("an eaten opponent pawn must be put back (opponent_pawn_return = \"must\")", "E6")
        return None

    def random_action(self, state: State, rng: random.Random) -> Action:
        """A uniformly random legal action, drawn without listing them all.

        Every draw is ``rng.randrange(m)`` (``rng.choice`` where the choices are listed: the same
        draw) over the choices in the order :meth:`candidates` lists them: a move is a king, a card
        and a direction (when some of those come back to their king, they are drawn without
        replacement until one does not); a placement is a piece of the hand, then a gap, an
        unoccupied □ or the discard; a take or a bonus is one of the candidates. A plain
        ``random.Random`` is asked for the number through ``_randbelow``, the method its
        ``randrange`` ends in: the same number without the call's checks
        (``tests/test_eat_thyself_shortcuts.py`` holds the two equal).

        >>> import random, playtest
        >>> game = playtest.load("eat_thyself")
        >>> state = game.initial_state()
        >>> game.random_action(state, random.Random(3)) == random.Random(3).choice(game.legal_actions(state))
        True
        """
        below = randbelow(rng)
        phase, ring = state.phase, state.ring
        n = len(ring)
        if phase == "move":
            counted, slots, _, _ = _COUNTED     # (self._kings(state), without the call in a play-out)
            if counted is not state:
                slots = self._kings(state)
            table = self._moves
            if len(table) < n:
                self._by_slot(n, _moves_at, self._directions)
            faces = state.cards[state.to_move]
            if slots and self._count_tiles and faces[0] % n and faces[1] % n:
                # no (card, direction) comes back to its king (see _legal_moves): the first draw of the
                # loop below is a legal move
                k = below(len(slots) << self._shift)
                return table[slots[k >> self._shift]][k & self._mask]
            choices = [m for slot in slots for m in table[slot]]
            while choices:
                move = choices.pop(below(len(choices)))
                if self._why_move(state, move) is None:
                    return move
            return self._pass
        if phase == "place":  # sample without listing every gap for every piece
            hand = state.hand
            piece = hand[below(len(hand))] if hand else rng.choice(hand)
            free = ring.count(_FREE_TILE)      # how many unoccupied □ (their slots listed only if drawn)
            k = below(n + free + (self._may and self._may_discard(state, piece)))
            if k < n:
                gaps = self._gaps[piece]
                return gaps[k] if k < len(gaps) else self._by_slot(n, PlaceInGap, piece)[k]
            if k - n < free:
                return self._by_slot(n, PlaceOnTile, piece)[_free_tiles(ring)[k - n]]
            return self._discards[piece]
        listed = self.candidates(state, state.to_move)      # a take or a bonus: one of the candidates
        return listed[below(len(listed))] if listed else rng.choice(listed)

    # ---- what an action does
    def effect(self, state: State, action: Action) -> State:
        return self._effect[type(action)](state, action)

    def _move(self, state: State, move: Move) -> State:
        me, slots, cards = state.to_move, list(state.ring), state.cards
        src, card = move.slot, move.card
        if self._count_tiles:   # self.target, inline (the hot path of every game)
            dst = (src + move.direction * cards[me][card]) % len(slots)
        else:
            dst = self.target(state, src, card, move.direction)  # type: ignore[assignment]
        turned = self._turned.get((cards, me, card))
        if turned is None:      # the cards once ``me`` turns ``card`` over, kept (a few dozen face-ups a game)
            mine = cards[me]
            face = self._flip[card][mine[card]]
            turned = cards[:me] + (((face, mine[1]) if card == 0 else (mine[0], face)),) + cards[me + 1:]
            if len(self._turned) < 4096:
                self._turned[cards, me, card] = turned
        cards = turned
        src_tile, king = slots[src]
        tile, eaten = slots[dst]
        slots[dst] = (tile, king)
        # the last-move mark: where the king lands, once its old slot is gone (a bare slot disappears)
        if src_tile:
            last = (dst,)
            slots[src] = _FREE_TILE
        else:
            last = (dst - 1 if dst > src else dst,)
            del slots[src]
        ring = tuple(slots)
        own_pawn = me * 2 + PAWN
        if eaten is None or eaten == own_pawn:  # an empty tile, or own pawn: removed from the game
            return self._end_turn(state, ring, last, cards)
        p = self.params
        owner = eaten >> 1
        if owner == me:  # own king: removed; optional bonus removal of own pawns
            if p.own_king_bonus_removals > 0 and _has(ring, own_pawn):
                return state.replace(ring=ring, cards=cards, last=last, phase="bonus",
                                     bonus_left=p.own_king_bonus_removals)
            return self._end_turn(state, ring, last, cards)
        if eaten & 1:  # opponent's pawn: in hand, to be put back
            return state.replace(ring=ring, cards=cards, last=last, phase="place", hand=(eaten,), take_from=None)
        # opponent's king: in hand with extra pieces of that opponent
        if p.opponent_king_extra_pieces > 0 and _owns(ring, owner):
            return state.replace(ring=ring, cards=cards, last=last, phase="take", hand=(eaten,),
                                 take_from=owner, takes_left=p.opponent_king_extra_pieces)
        return state.replace(ring=ring, cards=cards, last=last, phase="place", hand=(eaten,), take_from=owner)

    def _pass_turn(self, state: State, action: Pass) -> State:
        return self._end_turn(state, state.ring, ())

    def _keep_pawns(self, state: State, action: KeepPawns) -> State:
        return self._end_turn(state, state.ring, state.last)

    def _remove(self, state: State, action: RemovePawn) -> State:
        ring, last = _lifted(state.ring, state.last, action.slot)
        bonus_left = state.bonus_left - 1
        if bonus_left > 0 and _has(ring, state.to_move * 2 + PAWN):
            return state.replace(ring=ring, bonus_left=bonus_left, last=last)
        return self._end_turn(state, ring, last)

    def _take(self, state: State, action: Take) -> State:
        piece, owner = state.ring[action.slot][1], state.take_from
        assert piece is not None and owner is not None     # (why_not: a piece of the player whose king was eaten)
        ring, last = _lifted(state.ring, state.last, action.slot)
        hand = tuple(sorted(state.hand + (piece,)))
        takes_left = state.takes_left - 1
        if takes_left > 0 and _owns(ring, owner):
            return state.replace(ring=ring, hand=hand, takes_left=takes_left, last=last)
        return state.replace(ring=ring, hand=hand, takes_left=0, phase="place", last=last)

    def _place_in_gap(self, state: State, action: PlaceInGap) -> State:
        piece, gap = action.piece, action.gap
        return self._placed(state, piece, state.ring[:gap] + ((False, piece),) + state.ring[gap:],
                            tuple([i + 1 if i >= gap else i for i in state.last]) + (gap,))

    def _place_on_tile(self, state: State, action: PlaceOnTile) -> State:
        piece, slot = action.piece, action.slot
        return self._placed(state, piece, state.ring[:slot] + ((True, piece),) + state.ring[slot + 1:],
                            state.last + (slot,))

    def _drop(self, state: State, action: Discard) -> State:
        return self._placed(state, action.piece, state.ring, state.last)

    def _placed(self, state: State, piece: int, ring: tuple[Slot, ...], last: tuple[int, ...]) -> State:
        """``piece`` has left the hand for ``ring``: the next piece to put back, or the end of the turn."""
        hand = state.hand
        if len(hand) == 1 and hand[0] == piece:
            return self._end_turn(state, ring, last)
        rest = list(hand)
        rest.remove(piece)        # (a ValueError when the hand has no such piece)
        return state.replace(ring=ring, hand=tuple(rest), last=last)

    def _end_turn(self, state: State, ring: tuple[Slot, ...], last: tuple[int, ...],
                  cards: tuple[tuple[int, int], ...] | None = None) -> State:
        """The end of a fully resolved turn played from ``state``, leaving ``ring``, ``last`` (and
        ``cards``): a win (rule E.1 §12, E1: a player down to one), a draw at the turn cap, or the
        next player's turn."""
        global _COUNTED
        turn, mover = state.turn + 1, state.to_move
        nxt = self._next[mover]
        king = nxt * 2
        counts = [0] * 7          # _piece_counts(ring, ()), and the slots of the next player's kings, in one pass
        kings = []
        i = -1
        for _, piece in ring:
            i += 1
            if piece is not None:
                counts[piece] += 1
                if piece == king:
                    kings.append(i)
        scores = self._scores(counts)
        if -1 not in scores and turn < self.params.max_turns:
            after = _position(ring, cards or state.cards, nxt, "move", (), None, 0, 0, turn, state.winners,
                              state.reason, last)
            _COUNTED = (after, kings, scores, self._scored)
            return after
        winners, reason = self._ending(scores, mover, turn)
        over = state.replace(ring=ring, cards=cards or state.cards, phase="over", hand=(), take_from=None,
                             takes_left=0, bonus_left=0, turn=turn, last=last, winners=winners, reason=reason)
        _COUNTED = (over, [], scores, self._scored)
        return over

    def _ending(self, scores: tuple[int, ...], mover: int, turn: int) -> tuple[tuple[int, ...], str]:
        """The winners and the reason of a game over after ``mover``'s turn ``turn`` left ``scores``
        (-1 for a player down to one): the win (rule E.1 §12, E1), or the draw at the turn cap."""
        p = self.params
        winners = [pl for pl, score in enumerate(scores) if score == -1]
        if not winners:
            return (), f"draw after {turn} turns (max_turns)"
        if len(winners) > 1 and p.simultaneous_win == "mover":
            first = mover                     # the mover, else the first winner after it in turn order
            while first not in winners:
                first = self._next[first]
            winners = [first]
        what = "one piece left" if p.win_condition == "one_piece_left" else "one king left"
        return tuple(winners), f"{' and '.join(self.seats()[w].name for w in winners)} has {what}"

    # ---- notation and positions
    def notation(self, state: State, action: Action, viewer: int | None = None) -> str:
        me = state.to_move
        match action:
            case Move(slot, card, direction):
                target = self.target(state, slot, card, direction)
                arrow = "↻" if direction == CW else "↺"
                landed = state.ring[target][1] if target is not None else None
                eats = f" eats {piece_symbol(landed)}" if landed is not None else ""
                # both cards showing the same value: name the card, so every move has its own notation
                faces = state.cards[me]
                named = f"({self.params.card_pair[card]})" if faces[0] == faces[1] else ""
                return f"{piece_symbol(me * 2)}{slot}{arrow}{faces[card]}{named}→{target}{eats}"
            case RemovePawn(slot):
                return f"removes {piece_symbol(me * 2 + PAWN)}{slot}"
            case Take(slot):
                return f"takes {piece_symbol(state.ring[slot][1])}{slot}"  # type: ignore[arg-type]
        return str(action)

    def log_lines(self, state: State, action: Action, viewer: int | None = None) -> list[str] | None:
        """The table's move log (an optional hook): a move's notation numbers the slots as they were
        before it; where the ring then closed up, the row unfolds into where the king stands now."""
        if action.kind != "move":
            return None
        try:
            after = self.apply(state, action)
        except (IllegalAction, ValueError):
            return None
        target = self.target(state, action.slot, action.card, action.direction)  # type: ignore[attr-defined]
        if not after.last or after.last[0] == target:
            return None
        return [self.notation(state, action, viewer),
                f"slots as numbered before this move: the ring closed up to {len(after.ring)} slots, and "
                f"the king now stands on slot {after.last[0]}"]

    def state_from_json(self, data: Any) -> State:
        """A position from its JSON form (module docstring); ``cards`` and ``to_move`` left out are as at
        the start, and ``winners`` makes it a finished game."""
        if isinstance(data, dict):
            p = self.params
            data = {"cards": [list(p.initial_faces)] * p.num_players, "to_move": p.first_player, **data}
        state = State.from_json(data, where=self.name)
        if "winners" in data:
            state = state.replace(phase="over")
        if state.phase != "over" or len(state.reason) > 300:    # the reason is a finished game's
            state = state.replace(reason=state.reason[:300] if state.phase == "over" else "")
        self.check_state(state)
        return state

    def check_state(self, state: State) -> None:
        """Refuse a position these parameters cannot reach (what the declared types cannot say)."""
        p = self.params
        n = p.num_players
        for _, piece in state.ring:
            if piece is not None and piece >> 1 >= n:
                raise ValueError(f"ring: {piece_symbol(piece)} belongs to a seat that is not playing "
                                 f"(num_players={n})")
        if len(state.cards) != n:
            raise ValueError(f"cards: one pair of face-up values per player ({n} players)")
        for player, pair in enumerate(state.cards):
            if any(face not in faces_of for face, faces_of in zip(pair, self._cards)):
                raise ValueError(f"cards: player {player}'s face-up values must be faces of {list(p.card_pair)}")
        for name in ("to_move", "take_from"):
            value = getattr(state, name)
            if value is not None and value >= n:
                raise ValueError(f"{name} must be a seat from 0 to {n - 1}, not {value}")
        for player in range(n):
            kings, pawns = state.count(player)
            if kings > p.kings_per_player or pawns > p.pawns_per_player:
                raise ValueError(f"player {player} has {kings} kings and {pawns} pawns, more than "
                                 f"kings_per_player={p.kings_per_player}, pawns_per_player={p.pawns_per_player}")
            if kings == 0:
                raise ValueError(f"player {player} has no king left: a king is never removed by an "
                                 "opponent, so this position cannot happen")
        if (state.phase in ("place", "take")) != bool(state.hand):
            raise ValueError("pieces are in hand exactly when the phase is 'place' or 'take' (the eaten king "
                             "is in hand while its owner's extra pieces are taken)")
        if state.phase == "take" and state.take_from is None:
            raise ValueError("phase 'take' needs take_from, the seat whose king was eaten")
        if state.phase != "over" and -1 in self.running_scores(state):
            raise ValueError("a player in this position has already won; write \"phase\": \"over\" "
                             "with \"winners\" for a finished game")
        if any(w >= n for w in state.winners) or len(set(state.winners)) != len(state.winners):
            raise ValueError(f"winners: different seats from 0 to {n - 1}")
        if any(i >= len(state.ring) for i in state.last):
            raise ValueError(f"last: the slots the last turn's pieces landed on, numbers from 0 to "
                             f"{len(state.ring) - 1}")

    # ---- the scene
    def view(self, state: State, seat: int | None = None) -> dict[str, Any]:
        seats = self.seats()
        s = Scene()
        ring = state.ring
        n = len(ring)
        # slot numbers as the move log writes them (▲1↻2→3: the king on slot 1 moves 2 to slot 3)
        s.board("ring", "ring", title=f"The ring ({n} slots)", slots=n, slot=34,
                labels={"slots": [str(i) for i in range(n)]})
        s.last(*(slot_id(i) for i in state.last))
        for i, (tile, piece) in enumerate(ring):
            if tile:
                s.cell("ring", i, fill="#f4efe6", id=False if piece is not None else slot_id(i),
                       title="empty space □" if piece is None else None)
            if piece is not None:
                player, kind = divmod(piece, 2)
                s.piece("ring", i, SEAT_SHAPES[player], SEAT_COLORS[player], id=slot_id(i),
                        size=0.62 if tile else 0.72, hollow=bool(kind == PAWN),
                        text="K" if kind == KING else "", title=piece_symbol(piece))
        me = state.to_move
        mover_seat = seats[me]
        if state.phase == "over":
            outcome = self.outcome(state)
            s.status(f"Game over: {outcome.reason if outcome else ''}")
            s.hint("The game is over. Undo, or jump back in the history to try another line.")
        else:
            s.status(f"{mover_seat.name} to move", mover_seat.color, mover_seat.shape)
        # the cards of every player
        s.panel("Cards (face up)", [[seats[pl].name] + [f"{self.params.card_pair[c]}: {state.cards[pl][c]}"
                                                        for c in (0, 1)] for pl in range(self.params.num_players)])
        s.panel("Pieces left", [[seats[pl].name, _count(k, "king"), _count(pw, "pawn"), _count(k + pw, "piece")]
                                for pl, (k, pw) in enumerate(map(state.count, range(self.params.num_players)))])
        first = seats[state.mover if 0 <= state.mover < len(seats) else 0]
        s.legend("a king (K), filled in its seat's colour", "piece", shape=first.shape, color=first.color,
                 size=0.72, text="K")
        s.legend("a pawn, hollow", "piece", shape=first.shape, color=first.color, size=0.72, hollow=True)
        if any(tile for tile, _ in ring):
            s.legend("a tile: an empty space □ on the ring, a piece may stand on it", "cell", fill="#f4efe6")
        s.legend("the move log's ▲1↻2→3: the king on slot 1 moves 2 clockwise (↺: counter-clockwise) to "
                 "slot 3, slots numbered as before that move (where the ring then closed up, the row's ▸ says "
                 "where the king stands)")
        if state.phase == "over":
            return s.to_json()
        actions = self.legal_actions(state)
        if state.phase == "move":
            for a in actions:
                if not isinstance(a, Move):
                    continue                         # (a pass: its button below)
                target = self.target(state, a.slot, a.card, a.direction)
                assert target is not None            # a legal move never comes back to its own slot
                arrow = "clockwise ↻" if a.direction == CW else "counter-clockwise ↺"
                label = f"card {self.params.card_pair[a.card]} showing {state.cards[me][a.card]}, {arrow}"
                s.select(slot_id(a.slot), slot_id(target), label, a.to_json())
            if actions == [Pass()]:
                s.button("Pass (no king can move)", Pass().to_json())
            s.hint(f"{mover_seat.name}: click one of your kings (K), then the slot it moves to.")
            for i, (_, piece) in enumerate(ring):
                if piece is not None and piece != me * 2:
                    s.reason(slot_id(i), f"only {mover_seat.name}'s kings move now (rule E.1 §8)")
        elif state.phase == "bonus":
            for a in actions[:-1]:                   # the pawns, then KeepPawns (its button)
                s.move(slot_id(a.slot), "remove this pawn (bonus)", a.to_json())  # type: ignore[attr-defined]
            s.button("Keep my pawns", KeepPawns().to_json())
            s.hint(f"{mover_seat.name} ate their own king: you may remove one of your pawns too.")
        elif state.phase == "take":
            for a in actions:
                s.move(slot_id(a.slot), "take in hand", a.to_json())  # type: ignore[attr-defined]
            s.hint(f"Take {_count(state.takes_left, 'more piece')} of {seats[state.take_from or 0].name} in hand.")
        elif state.phase == "place":
            s.board("hand", "grid", title="In hand", cols=max(1, len(state.hand)), rows=1, cell=40)
            for i, piece in enumerate(state.hand):
                player, kind = divmod(piece, 2)
                s.cell("hand", (i, 0), fill="#fff", id=f"hand:{i}")
                s.piece("hand", (i, 0), SEAT_SHAPES[player], SEAT_COLORS[player], hollow=kind == PAWN,
                        text="K" if kind == KING else "")
            for g in range(n):
                s.gap("ring", g)
            for a in actions:
                if isinstance(a, (PlaceInGap, PlaceOnTile)):
                    to, label = (gap_id(a.gap), "put it here") if isinstance(a, PlaceInGap) else \
                        (slot_id(a.slot), "put it on this □")
                    for i in (i for i, q in enumerate(state.hand) if q == a.piece):
                        s.select(f"hand:{i}", to, label, a.to_json())
            for a in actions:
                if isinstance(a, Discard):
                    s.button(f"Do not put {piece_symbol(a.piece)} back", a.to_json())
            s.hint("Click a piece in hand, then a gap between slots or an unoccupied □.")
        s.cite_rules(self.name)
        return s.to_json()


def _count(n: int, word: str) -> str:
    """``1 king``, ``2 kings``."""
    return f"{n} {word}{'s' if n != 1 else ''}"
