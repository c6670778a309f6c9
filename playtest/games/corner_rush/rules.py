"""Corner Rush's rules: the :class:`CornerRush` game, its legality, effects, chance, secrets and end.

The rules summary and the position format are in the package docstring. The game is
written on the kernel's legality template: :meth:`CornerRush.candidates` lists the actions,
:meth:`CornerRush.why_not` is the one decision (a :class:`playtest.Refusal` citing the rule, or
``None``) and :meth:`CornerRush.effect` plays a legal action; the kernel's ``apply`` checks, then
plays. The board's reasons are the same refusals, and the queries the board and the bots use
(``step_tiles``, ``push_tiles``, ``challengeable``, ``place_tiles``, ``knows``, ``challenge_odds``,
...) are the same tables.
"""

from __future__ import annotations

import random
from collections import Counter
from itertools import accumulate
from typing import Any

from ...geometry import bits
from ...kernel import CHANCE, Action, EndTurn, Game, GameType, Outcome, Refusal, Seat, refuse, register
from .actions import Challenge, Die, Draw, Leave, Place, Push, Roll, Step, Take
from .board import board
from .draws import _END, _ROLL, CHANCE_PHASES, CornerRushDraws, near
from .params import CornerRushParams, face_name
from .playout import CornerRushPlayout
from .position import State, blocker, check_position, own_blockers, rolloff_contenders, rolloff_winner
from .scores import CornerRushScores
from .words import CornerRushWords

__all__ = ["CornerRush", "SEAT_NAMES", "SEAT_COLORS", "SEAT_SHAPES"]

SEAT_NAMES = ("Red", "Blue", "Green", "Yellow")
SEAT_COLORS = ("#d1495b", "#2e86ab", "#3b9c4b", "#e0a526")
SEAT_SHAPES = ("circle", "triangle", "diamond", "hexagon")   # blockers are the squares, Aces hollow circles
#: the rule each phase's actions answer to, for reasons
PHASE_RULE = {"rolloff": "D.1 §7", "start": "D.1 §8", "roll": "D.1 §8.1", "challenge": "D.1 §9.2",
              "take": "D.1 §9.5", "move": "D.1 §8.3", "null": "D.1 §8.2", "again": "D.1 §9", "draw": "D.1 §10",
              "place": "D.1 §10", "over": "D.1 §12"}
_TAKE, _LEAVE = Take(), Leave()      # (the roll and the end of a turn: draws' _ROLL and _END, the same values)


@register
class CornerRush(CornerRushWords, CornerRushDraws, CornerRushScores, CornerRushPlayout, Game[CornerRushParams, State, Action]):
    """Corner Rush: race your pawn to your Ace in the opposite corner, past face-down blockers.

    >>> import playtest
    >>> game = playtest.load("corner_rush")
    >>> [seat.name for seat in game.seats()], game.has_secrets
    (['Red', 'Blue', 'Green', 'Yellow'], True)
    >>> [(str(a), p) for a, p in game.chance_outcomes(game.initial_state())][:2]    # the roll-off
    [('die Null', 0.16666666666666666), ('die 2', 0.16666666666666666)]
    """

    name = "corner_rush"
    title = "Corner Rush"
    credit = ("Corner Rush, a student team project ([Team 4] -- [TW03-04]: Go Jun Ying Jonathan, Ngo Li Ning "
              "Jeanette, Park Sang Min), played on Tabletopia.")
    Params = CornerRushParams
    state_type = State
    action_types = (Roll, Challenge, Die, Step, Push, Take, Leave, Draw, Place, EndTurn)
    # the roll-off may tie again and again: no longest game
    game_type = GameType(chance=True, information="imperfect")
    end_rule = "D.1 §12"
    candidates_are_legal = True      # read off the tables the reasons use (challengeable, step_tiles, ...)

    def __init__(self, params: CornerRushParams | None = None, **values: Any):
        super().__init__(params, **values)
        p = self.params
        self.n = p.num_players
        self.B = board(p.board_size, p.center_hole, p.start_cells, p.goal_cells, self.n)
        self._seats = [Seat(SEAT_NAMES[i], SEAT_COLORS[i], SEAT_SHAPES[i]) for i in range(self.n)]
        faces = Counter(p.die_faces)
        self._die = [(Die(v), faces[v] / len(p.die_faces)) for v in sorted(faces)]
        # draw_outcome's running totals of the faces, added up once (the last face once more: past the last total)
        self._die_totals = list(accumulate(prob for _, prob in self._die))
        self._die_faces = [die for die, _ in self._die] + [self._die[-1][0]]
        # actions are values: each tile's step, challenge, placement and push is made once per game
        labels = self.B.labels
        self._step_of = tuple(Step(t) for t in labels)
        self._challenge_of = tuple(Challenge(t) for t in labels)
        self._place_of = tuple(Place(t) for t in labels)
        self._push_of = tuple(tuple(Push(q, t) for t in labels) for q in range(self.n))
        self._draws: dict[tuple[int, int], Draw] = {}
        self._bag_outcomes: dict[tuple[tuple[int, int], ...], tuple[tuple[Action, float], ...]] = {}
        #: the tiles a pawn may cross with no blocker and no pawn (the hole aside unless passable), and for
        #: each seat the Ace tiles closed to its pawn (the others', unless other_aces_open)
        self._open = self.B.all if p.hole_passable else self.B.all & ~self.B.hole_mask
        self._closed = tuple(0 if p.other_aces_open else self.B.ace_mask & ~(1 << a) for a in self.B.aces)
        #: each seat's steps from its Ace with every blocker lifted (running_scores)
        self._far = tuple(self.B.grid.distances(1 << a, self._open & ~c) for a, c in zip(self.B.aces, self._closed))
        self._all_moves = p.must_use_all_moves           # no stopping early: a move lists its steps only
        self._must_place = p.blocker_placement_mandatory
        self._random_draw = p.blocker_draw == "random"   # the bag draw is chance's (not the owner's choice)
        self.everyone = (1 << self.n) - 1          #: the bit mask of every seat (a value all have seen)
        #: the last walk_masks asked: [state, seat, masks, its exact walks (Board.exact_walks) once asked]
        self._walk_kept: list[Any] = [None, -1, (0, 0, 0), []]
        # running_scores: its last answer (blocked, pawns, scores); each seat's last score with what it
        # depended on (blocked, the pawn's tile, the tiles its search went over, those and the tiles next
        # to them, the score, the length of the route found); a pawn's steps with the blockers lifted, by tile
        self._running: tuple[int, tuple[int, ...], tuple[int, ...]] | None = None
        self._seat_running: list[tuple[int, int, int, int, int, int] | None] = [None] * self.n
        self._pawn_steps: dict[int, list[int]] = {}      # by seat and tile: its steps over those tiles
        self._through_kept: dict[int, list[int]] = {}    # by seat and tile: a route's fewest steps over each tile
        #: the playout's blockers shown by a failed challenge (by the blocker's id) and placed (by colour and value)
        self._faces: tuple[dict[int, tuple[Any, Any]], dict[tuple[int, int], list[Any]]] = ({}, {})
        self._tokens_seen: tuple[State, tuple[bool, bool]] | None = None   # the playout's checks of its start
        self._bag_shares: dict[int, list[float]] = {}    # the playout's draws from bags of blockers all different

    # ------------------------------------------------------------------ seats and setup
    def seats(self) -> list[Seat]:
        return list(self._seats)

    def _name(self, seat: int) -> str:
        return SEAT_NAMES[seat] if 0 <= seat < self.n else f"seat {seat}"

    def initial_state(self) -> State:
        made = self.__dict__.get("_initial")
        if made is None:            # a value: made once (the lab starts every game from it)
            B = self.B
            bag = self.params.blocker_set()
            bags = tuple(tuple(sorted((c, v) for v in bag)) for c in range(self.n))
            made = self.__dict__["_initial"] = State(size=B.size, phase="rolloff", mover=-1, pawns=B.starts,
                                                     blockers=(None,) * B.tiles, bags=bags)
        return made

    # ------------------------------------------------------------------ whose turn, the end
    def to_move(self, state: State) -> int | None:
        phase = state.phase
        if phase == "over":
            return None
        if phase in CHANCE_PHASES or (phase == "draw" and self._random_draw):
            return CHANCE
        return state.mover

    def outcome(self, state: State) -> Outcome | None:
        if state.phase != "over":
            return None
        return Outcome((state.winner,) if state.winner >= 0 else (), state.reason)

    def describe_state(self, state: State) -> str:
        """One line for the turn bar and the report.

        >>> import playtest
        >>> game = playtest.load("corner_rush")
        >>> game.describe_state(game.initial_state())
        'Roll-off for the first player: Red rolls'
        """
        phase = state.phase
        if phase == "over":
            return f"Game over: {state.reason}"
        if phase == "rolloff":
            rnd = state.rolloff[-1]
            seat = rolloff_contenders(state.rolloff, self.n)[len(rnd)]
            again = " again (a tie)" if len(state.rolloff) > 1 else ""
            return f"Roll-off for the first player: {self._name(seat)} rolls{again}"
        name = self._name(state.mover)
        turn = f"turn {state.turn + 1} of {self.params.max_turns}"
        words = {
            "start": f"{name} to move ({turn}): roll the die, or challenge a blocker next to the pawn",
            "roll": f"{name} rolls the die ({turn})",
            "challenge": f"{name} rolls against the blocker on {self._at(state.challenged)}",
            "take": f"{name} beat the blocker on {self._at(state.challenged)}: take it or leave it",
            "move": f"{name} moves: {state.steps} step{'s' if state.steps != 1 else ''} left",
            "null": f"{name} rolled Null: may move another player's pawn ({state.steps} step"
                    f"{'s' if state.steps != 1 else ''} left)",
            "again": f"{name} may challenge again, or go on to the blocker",
            "draw": f"{name} draws a blocker from the bag",
            "place": f"{name} places the blocker drawn, face down",
        }
        return words[phase]

    def _at(self, tile: int) -> str:
        return self.B.label(tile) if tile >= 0 else "-"

    # ------------------------------------------------------------------ queries (board and bots)
    def pawn_mask(self, state: State, but: int = -1) -> int:
        """Tiles with a pawn, leaving out seat ``but``'s."""
        mask = 0
        if but < 0:
            for t in state.pawns:
                mask |= 1 << t
            return mask
        for seat, t in enumerate(state.pawns):
            if seat != but:
                mask |= 1 << t
        return mask

    def walk_masks(self, state: State, seat: int) -> tuple[int, int, int]:
        """(walk, end, win) for ``seat``'s pawn: the tiles it may cross, end on, and its Ace when entering wins.

        The last answer is kept for its state, with the exact walks worked out from it (a move's
        steps ask for the same masks: they depend on the blockers and the other pawns only)."""
        kept = self._walk_kept
        if kept[0] is state and kept[1] == seat:
            masks: tuple[int, int, int] = kept[2]
            return masks
        masks = self._walk_masks(state, seat)
        self._walk_kept = [state, seat, masks, []]
        return masks

    def _walk_masks(self, state: State, seat: int) -> tuple[int, int, int]:
        p = self.params
        free = self._open & ~state.blocked
        others = self.pawn_mask(state, seat)
        closed = self._closed[seat]
        walk = free & ~closed
        end = walk
        if not p.pawn_pass_through:
            walk &= ~others
        if not p.pawn_stacking:
            end &= ~others
        elif not p.pawn_pass_through:
            end |= others & free & ~closed       # may end on a pawn, though not cross one
        ace = self.B.aces[seat]
        ace_ok = (1 << ace) if (not others >> ace & 1 or p.win_on_occupied_ace) else 0
        if p.win_on_entry:
            return walk, end, ace_ok
        return walk, end | ace_ok, 0

    def ace_distances(self, state: State, seat: int, blocked: int | None = None) -> list[int]:
        """Steps from every tile to ``seat``'s Ace for its pawn, around blockers (``blocked``, default the
        board's), the hole and closed tiles; pawns are ignored when they may be passed
        (:data:`playtest.geometry.FAR`: cut off).

        >>> import playtest
        >>> game = playtest.load("corner_rush")
        >>> state = game.initial_state()
        >>> game.ace_distances(state, 0)[state.pawns[0]]       # corner to opposite corner, round the hole
        8
        """
        if blocked is not None:
            state = state.replace(blocked=blocked)
        walk, _end, win = self.walk_masks(state, seat)
        if not self.params.pawn_pass_through:
            walk |= self.pawn_mask(state, seat)     # a pawn in the way may move off it later
        ace = 1 << self.B.aces[seat]
        return self.B.grid.distances(ace, walk | ace | win)

    def step_tiles(self, state: State, k: int | None = None) -> int:
        """The tiles (a mask) the pawn to move may step onto now, with ``k`` steps left (default: the state's).

        A step is legal when the move can still end legally: exactly the steps left (revisits allowed,
        no blocker, no hole, passing pawns but not ending on one), or on entering the own Ace.

        >>> import playtest
        >>> game = playtest.load("corner_rush")
        >>> state = game.state_from_json({"phase": "move", "to_move": 0, "steps": 2, "path": ["a5"],
        ...                               "blockers": {"a4": {"colour": 1, "value": 3}}})
        >>> game.B.labels_of(game.step_tiles(state))
        ['b5']
        """
        return self._step_tiles(state, state.steps if k is None else k)

    def _step_tiles(self, state: State, k: int) -> int:
        p = self.params
        seat = state.mover
        if k <= 0:
            return 0
        pos = state.pawns[seat]
        walk, end, win = self.walk_masks(state, seat)
        may_stop = not p.must_use_all_moves
        if p.allow_revisit:     # exact walks: layer j does not depend on k, so a move's later steps read them
            kept = self._walk_kept
            walks: list[int] = kept[3]
            if len(walks) < k:
                walks = kept[3] = self.B.exact_walks(walk, end, win, k, may_stop)
            return self.B.adj4[pos] & walks[k - 1]
        visited = 0
        for t in state.path or (pos,):
            visited |= 1 << t
        adj4 = self.B.adj4

        def finishes(tile: int, left: int, seen: int) -> bool:
            if win >> tile & 1:
                return True
            if left == 0:
                return bool(end >> tile & 1)
            if not walk >> tile & 1:
                return False
            if may_stop and end >> tile & 1:
                return True
            return any(finishes(m, left - 1, seen | 1 << m) for m in bits(adj4[tile] & ~seen))

        return sum(1 << m for m in bits(adj4[pos] & ~visited) if finishes(m, k - 1, visited | 1 << m))

    def may_stop(self, state: State) -> bool:
        """Whether the pawn on the move may stop here (``must_use_all_moves = false``, not on another pawn)."""
        if self.params.must_use_all_moves or state.phase != "move":
            return False
        _walk, end, win = self.walk_masks(state, state.mover)
        return bool((end | win) >> state.pawns[state.mover] & 1)

    def push_tiles(self, state: State, pawn: int) -> int:
        """After a Null: the tiles (a mask) seat ``pawn``'s pawn may be moved onto now (none for the mover's)."""
        p, B = self.params, self.B
        if pawn == state.mover or not 0 <= pawn < self.n or (state.pushed >= 0 and pawn != state.pushed):
            return 0
        target = self._open & ~state.blocked
        if not p.pawn_stacking:
            target &= ~self.pawn_mask(state)
        own = 1 << B.aces[pawn]
        if not p.other_aces_open:
            target &= ~(B.ace_mask & ~own)
        if not p.null_can_finish_other:
            target &= ~own
        return B.adj4[state.pawns[pawn]] & target

    def challengeable(self, state: State) -> int:
        """The blockers (a mask of tiles) the player to move may challenge now."""
        if state.phase not in ("start", "again"):
            return 0
        return self._challenge_tiles(state)

    def _challenge_tiles(self, state: State) -> int:
        """The blockers the player to move could challenge were it the start of a challenge (any phase)."""
        p = self.params
        if not p.challenge_enabled:
            return 0
        if state.challenges >= p.max_challenges_per_turn:
            return 0
        table = self.B.adj8 if p.challenge_adjacency == "king" else self.B.adj4
        return table[state.pawns[state.mover]] & state.blocked

    def free_tiles(self, state: State) -> int:
        """Unoccupied tiles: no pawn, no blocker, no Ace token, not the hole (where a blocker may go)."""
        B = self.B
        return B.all & ~state.blocked & ~self.pawn_mask(state) & ~B.ace_mask & ~B.hole_mask

    def place_tiles(self, state: State) -> int:
        """The tiles (a mask) where the blocker drawn may be placed now (``allow_sealing`` applied)."""
        free = self.free_tiles(state)
        if self.params.allow_sealing:
            return free
        return sum(1 << t for t in bits(free) if self._seals(state, t) < 0)

    def _route_open(self, state: State, seat: int, blocked: int) -> bool:
        B = self.B
        allowed = B.all & ~blocked
        if not self.params.hole_passable:
            allowed &= ~B.hole_mask
        return bool(B.grid.flood(1 << state.pawns[seat], allowed) >> B.aces[seat] & 1)

    def _seals(self, state: State, tile: int) -> int:
        """The seat whose pawn a blocker on ``tile`` would cut off from its Ace (-1 when none)."""
        for seat in range(self.n):
            if self._route_open(state, seat, state.blocked) and not self._route_open(
                    state, seat, state.blocked | 1 << tile):
                return seat
        return -1

    def knows(self, state: State, seat: int | None, tile: int) -> bool:
        """Whether ``seat`` knows the value of the blocker on ``tile`` (face up, or it is in its ``known``)."""
        b = state.blockers[tile]
        if b is None:
            return False
        return b.face_up or b.known == self.everyone or (seat is not None and seat >= 0
                                                            and bool(b.known >> seat & 1))

    def bag_known(self, seat: int | None, owner: int) -> bool:
        """Whether ``seat`` sees the contents of ``owner``'s bag (its own, when the placer sees its draws)."""
        return seat == owner and self.params.placer_knows_value

    def hidden_pool(self, state: State, seat: int | None) -> list[tuple[int, int]]:
        """Every blocker ``seat`` cannot place (``(colour, value)``, sorted): those face down it does not
        know, in other bags, or held by another player. What ``determinize`` shuffles.

        >>> import playtest
        >>> game = playtest.load("corner_rush", num_players=2, blocker_values=[1, 2], blockers_per_player=2)
        >>> state = game.state_from_json({"pawns": ["a5", "e1"], "blockers": {"c4": {"colour": 1, "value": 2}}})
        >>> game.hidden_pool(state, 0)      # Blue's bag (a 1) and Blue's face-down 2
        [(1, 1), (1, 2)]
        """
        pool: Counter[tuple[int, int]] = Counter()
        for c in range(self.n):
            pool.update((c, v) for v in self.params.blocker_set())
        for tile in bits(state.blocked):
            if self.knows(state, seat, tile):
                b = state.blocker_on(tile)
                pool[(b.colour, b.value)] -= 1
        pool.subtract(state.removed)
        if seat is not None and 0 <= seat < self.n and self.bag_known(seat, seat):
            pool.subtract(state.bags[seat])
            if state.held is not None and state.mover == seat:
                pool[state.held] -= 1
        return sorted(pool.elements())

    def challenge_odds(self, state: State, seat: int, tile: int) -> float:
        """The chance that a challenge roll beats the blocker on ``tile`` as ``seat`` sees it: its value when
        ``seat`` knows it, else what it may be worth (:meth:`hidden_pool`, of its colour when colours show).

        >>> import playtest
        >>> game = playtest.load("corner_rush")
        >>> state = game.state_from_json({"pawns": ["a4", "e5", "e1", "a1"],
        ...                               "blockers": {"b4": {"colour": 0, "value": 5}}})    # Red placed its 5
        >>> [round(game.challenge_odds(state, seat, game.B.index("b4")), 3) for seat in (0, 1)]
        [0.333, 0.667]
        """
        b = state.blockers[tile]
        if b is None:
            return 0.0
        if self.knows(state, seat, tile):
            values = Counter({b.value: 1})
        else:
            pool = self.hidden_pool(state, seat)
            if self.params.blocker_color_visible:
                pool = [t for t in pool if t[0] == b.colour] or pool
            values = Counter(v for _, v in pool)
        total = sum(values.values())
        return sum(k * self.success_chance(v) for v, k in values.items()) / total if total else 0.0

    def success_chance(self, value: int) -> float:
        """The probability that a challenge roll beats a blocker of ``value``.

        >>> import playtest
        >>> [round(playtest.load("corner_rush").success_chance(v), 3) for v in (0, 2, 5)]
        [1.0, 0.833, 0.333]
        """
        return sum(prob for die, prob in self._die if self._beats(die.value, value))

    # ------------------------------------------------------------------ legality: candidates, why_not, effect
    def candidates(self, state: State, seat: int) -> list[Action]:
        """The actions of the seat to move, in a fixed order, read off the tables the reasons use
        (``challengeable``, ``step_tiles``, ``push_tiles``, ``place_tiles``): exactly the legal ones."""
        phase = state.phase
        if phase == "move":
            step_of = self._step_of
            actions: list[Action] = [step_of[t] for t in near(self.step_tiles(state))]
            if self.may_stop(state):
                actions.append(_END)
            return actions
        if phase == "start":
            challenge_of = self._challenge_of
            return [_ROLL, *[challenge_of[t] for t in near(self.challengeable(state))]]
        if phase == "place":
            place_of = self._place_of
            actions = [place_of[t] for t in bits(self.place_tiles(state))]
            if not self.params.blocker_placement_mandatory:
                actions.append(_END)
            return actions
        if phase == "null":
            push_of = self._push_of
            actions = [push_of[q][t] for q in range(self.n) for t in bits(self.push_tiles(state, q))]
            actions.append(_END)
            return actions
        if phase == "take":
            return [_TAKE, _LEAVE]
        if phase == "again":
            challenge_of = self._challenge_of
            actions = [challenge_of[t] for t in near(self.challengeable(state))]
            actions.append(_END)
            return actions
        if phase == "draw":
            draw = self._draw
            return [draw(token) for token in sorted(set(state.bags[state.mover]))]
        return []

    def why_not(self, state: State, action: Action, seat: int | None = None) -> Refusal | None:
        """Why ``action`` is illegal in ``state``, citing the rule, or ``None`` when it is legal.

        >>> import playtest
        >>> game = playtest.load("corner_rush")
        >>> state = game.state_from_json({"phase": "move", "to_move": 0, "steps": 3, "path": ["a5"],
        ...                               "blockers": {"b5": {"colour": 1, "value": 3}}})
        >>> print(game.why_not(state, Step("b5")))
        a blocker stands on b5: go around it, or challenge it at the start of a turn (rule D.1 §8.3)
        >>> game.why_not(state, Step("a4")) is None
        True
        """
        phase = state.phase
        if phase == "over":
            return refuse(f"the game is over ({state.reason})", self.end_rule)
        if action in self.legal_actions(state):
            return None
        kind = action.kind
        if self.to_move(state) == CHANCE:
            return self.chance_refusal(state, action)
        name = self._name(state.mover)
        if kind == "die":
            return refuse("the die is rolled by chance, not played", PHASE_RULE[phase])
        wanted = {"roll": ("start",), "challenge": ("start", "again"), "step": ("move",), "push": ("null",),
                  "take": ("take",), "leave": ("take",), "draw": ("draw",), "place": ("place",),
                  "end_turn": ("move", "null", "again", "place")}[kind]
        if phase not in wanted:
            return refuse(f"a {kind.replace('_', ' ')} is not possible now: {self.describe_state(state)}",
                          PHASE_RULE[phase])
        match action:
            case Challenge(at):
                return self.challenge_reason(state, self.B.index(at), at)
            case Step(to):
                return self.step_reason(state, self.B.index(to), to)
            case Push():
                return self.push_reason(state, action)
            case Place(at):
                return self.place_reason(state, self.B.index(at), at)
            case Draw(colour, value):
                return refuse(f"there is no {self._token(colour, value)} in {name}'s bag", "D.1 §10")
        if phase == "move":
            if self.params.must_use_all_moves:
                return refuse(f"{name}'s pawn must use all {state.steps} steps left (must_use_all_moves)", "D6")
            return refuse(f"{name}'s pawn may not stop on another pawn", "D7")
        return refuse("the blocker drawn must be placed (blocker_placement_mandatory)", "D10")

    def chance_refusal(self, state: State, action: Action) -> Refusal:
        """Why ``action`` is not what chance may bring now (a die roll or a bag draw is pending), in the
        game's words, with the rule.

        >>> import playtest
        >>> game = playtest.load("corner_rush")
        >>> state = game.initial_state()
        >>> print(game.why_not(state, Roll()))
        the roll-off for the first player is on (Red rolls): the die decides, no one plays a turn yet (rule D.1 §7)
        >>> print(game.why_not(state, Die(1)))
        the die has no 1: its faces are Null, 2, 3, 4, 5, Ace (die_faces) (rule D4)
        """
        phase, kind = state.phase, action.kind
        rule = PHASE_RULE[phase]
        if phase == "draw":
            name = self._name(state.mover)
            pending = f"{name} draws a blocker from the bag ({len(state.bags[state.mover])} in it)"
            if kind == "draw":
                token = self._token(action.colour, action.value)  # type: ignore[attr-defined]
                return refuse(f"{name}'s bag holds no {token}: {pending}", rule)
            if kind == "die":
                return refuse(f"{pending}: a blocker is drawn, no die is rolled now", rule)
            return refuse(f"{pending}: the draw is chance's, not a player's move", rule)
        if phase == "rolloff":
            rnd = state.rolloff[-1]
            seat = rolloff_contenders(state.rolloff, self.n)[len(rnd)]
            pending = (f"the roll-off for the first player is on ({self._name(seat)} rolls"
                       f"{' again' if len(state.rolloff) > 1 else ''})")
            doing = "the die decides, no one plays a turn yet"
        elif phase == "challenge":
            pending = f"{self._name(state.mover)} rolls the die against the blocker on {self._at(state.challenged)}"
            doing = "the die decides"
        else:
            pending = f"{self._name(state.mover)} has chosen a normal turn and rolls the die"
            doing = "the die decides"
        if kind == "die":
            faces = ", ".join(face_name(v) for v in sorted(set(self.params.die_faces)))
            shown = _face(action.value)  # type: ignore[attr-defined]
            return refuse(f"the die has no {shown}: its faces are {faces} (die_faces)", "D4")
        if kind == "draw":
            return refuse(f"{pending}: no blocker is drawn now", rule)
        return refuse(f"{pending}: {doing}", rule)

    def _token(self, colour: Any, value: Any) -> str:
        """A blocker named in a refusal (``Blue 4``), whatever an action brought."""
        whose = self._name(colour) if type(colour) is int and 0 <= colour < self.n else f"seat {colour!r}"
        return f"{whose} {_face(value)}"

    def _tile_words(self, tile: int, text: Any) -> Refusal | None:
        """The refusal of a tile name that names no tile (``None`` for a tile of the board)."""
        if tile < 0:
            return refuse(f"{str(text)[:20]!r} is not a tile of the {self.B.size}x{self.B.size} board")
        return None

    def challenge_reason(self, state: State, tile: int, text: Any = None) -> Refusal:
        """Why the player to move may not challenge the blocker on ``tile`` now (with the rule)."""
        bad = self._tile_words(tile, text)
        if bad:
            return bad
        p, label = self.params, self.B.label(tile)
        if not p.challenge_enabled:
            return refuse("challenges are off (challenge_enabled = false)", "D12")
        if state.blockers[tile] is None:
            return refuse(f"there is no blocker on {label} to challenge", "D.1 §9")
        if state.challenges >= p.max_challenges_per_turn:
            return refuse(f"at most {p.max_challenges_per_turn} challenge{'s' if p.max_challenges_per_turn > 1 else ''}"
                          " a turn (max_challenges_per_turn)", "D.1 §9")
        which = "one of the eight tiles around" if p.challenge_adjacency == "king" else "orthogonally next to"
        return refuse(f"only a blocker {which} the pawn can be challenged; {label} is not", "D12")

    def step_reason(self, state: State, tile: int, text: Any = None) -> Refusal:
        """Why the pawn to move may not step onto ``tile`` now (with the rule)."""
        bad = self._tile_words(tile, text)
        if bad:
            return bad
        p, B = self.params, self.B
        seat = state.mover
        pos, label = state.pawns[seat], B.label(tile)
        if not B.adj4[pos] >> tile & 1:
            return refuse(f"a pawn moves one orthogonal step at a time: {label} is not next to {B.label(pos)}",
                          "D.1 §8.3")
        if state.blocked >> tile & 1:
            return refuse(f"a blocker stands on {label}: go around it, or challenge it at the start of a turn",
                          "D.1 §8.3")
        if tile == B.hole and not p.hole_passable:
            return refuse(f"{label} is the hole in the middle of the board", "D1")
        if not p.other_aces_open and B.ace_mask >> tile & 1 and tile != B.aces[seat]:
            return refuse(f"{label} is another player's Ace tile (other_aces_open = false)", "D8")
        if not p.pawn_pass_through and self.pawn_mask(state, seat) >> tile & 1:
            return refuse(f"a pawn stands on {label} and pawns do not pass pawns (pawn_pass_through = false)", "D7")
        if not p.allow_revisit and tile in state.path:
            return refuse(f"the pawn crossed {label} already this turn (allow_revisit = false)", "D6")
        left = state.steps - 1
        if left:
            return refuse(f"from {label} no way of exactly {left} more step{'s' if left != 1 else ''} ends on a "
                          "free tile (a pawn may pass pawns but not end on one)", "D.1 §8.3")
        return refuse(f"the move may not end on {label}: a pawn stands there", "D7")

    def push_reason(self, state: State, action: Push) -> Refusal:
        """Why this Null move of another pawn is not legal now (with the rule)."""
        p, B = self.params, self.B
        pawn, tile = action.pawn, B.index(action.to)
        if not 0 <= pawn < self.n:
            return refuse(f"there is no seat {pawn}", "D21")
        if pawn == state.mover:
            return refuse(f"on a Null {self._name(pawn)}'s own pawn stays: move another player's pawn", "D.1 §8.2")
        if state.pushed >= 0 and pawn != state.pushed:
            return refuse(f"this Null moves {self._name(state.pushed)}'s pawn only", "D9")
        bad = self._tile_words(tile, action.to)
        if bad:
            return bad
        label = B.label(tile)
        if not B.adj4[state.pawns[pawn]] >> tile & 1:
            return refuse(f"the pawn moves one orthogonal step: {label} is not next to {B.label(state.pawns[pawn])}",
                          "D.1 §8.2")
        if state.blocked >> tile & 1 or (tile == B.hole and not p.hole_passable):
            return refuse(f"{label} is blocked (a blocker or the hole)", "D.1 §8.2")
        if tile == B.aces[pawn]:
            return refuse("a pawn may not be moved onto its own Ace (null_can_finish_other = false)", "D9")
        if B.ace_mask >> tile & 1:
            return refuse(f"{label} is another player's Ace tile (other_aces_open = false)", "D8")
        return refuse(f"a pawn stands on {label}", "D7")

    def place_reason(self, state: State, tile: int, text: Any = None) -> Refusal:
        """Why the blocker drawn may not go on ``tile`` (with the rule)."""
        bad = self._tile_words(tile, text)
        if bad:
            return bad
        B, label = self.B, self.B.label(tile)
        if tile == B.hole:
            return refuse(f"{label} is the hole: no blocker goes there", "D1")
        if self.pawn_mask(state) >> tile & 1:
            return refuse(f"a pawn stands on {label}: a blocker goes on an unoccupied tile", "D10")
        if B.ace_mask >> tile & 1:
            return refuse(f"an Ace token lies on {label}: a blocker goes on an unoccupied tile", "D10")
        if state.blocked >> tile & 1:
            return refuse(f"a blocker lies on {label} already", "D10")
        sealed = self._seals(state, tile)
        return refuse(f"a blocker on {label} would cut {self._name(sealed)}'s pawn off from its Ace "
                      "(allow_sealing = false)", "D10")

    # ------------------------------------------------------------------ effects
    def effect(self, state: State, action: Action) -> State:
        """The state after a legal ``action`` (the kernel's ``apply`` checks it first).

        The action's class is asked, most frequent first: a ``match`` on class patterns costs several
        times as much here, and the lab plays millions of actions.
        """
        if isinstance(action, Step):
            return self._step(state, self.B.tile_of[action.to])
        if isinstance(action, Die):
            return self._after_die(state, action.value)
        if isinstance(action, Challenge):
            tile = self.B.tile_of[action.at]
            face_down = state.blocker_on(tile)
            flipped = blocker(face_down.colour, face_down.value, True, 0)
            return state.replace(phase="challenge", blockers=_put(state.blockers, tile, flipped), challenged=tile,
                                 challenges=state.challenges + 1)
        if isinstance(action, Draw):
            colour, value = action.colour, action.value
            bag = list(state.bags[state.mover])
            bag.remove((colour, value))
            return state.replace(phase="place", held=(colour, value), bags=_put(state.bags, state.mover, tuple(bag)))
        if isinstance(action, Place):
            tile = self.B.tile_of[action.at]
            colour, value = state.held  # type: ignore[misc]   # the place phase holds a blocker
            known = 1 << state.mover if self.params.placer_knows_value else 0
            blockers = _put(state.blockers, tile, blocker(colour, value, False, known))
            return self._end_turn(state, placed=tile, blockers=blockers, blocked=state.blocked | 1 << tile)
        if isinstance(action, Roll):
            return state.replace(phase="roll")
        if isinstance(action, Push):
            return self._push(state, action.pawn, self.B.tile_of[action.to])
        if isinstance(action, (Take, Leave)):
            return self._beaten(state, state.die, take=isinstance(action, Take))
        # end turn: stop what is optional
        phase = state.phase
        if phase == "place" and state.held is not None:
            kept = tuple(sorted(state.bags[state.mover] + (state.held,)))
            return self._end_turn(state, placed=-1, bags=_put(state.bags, state.mover, kept))
        if phase == "again":
            return self._blocker_step(state)
        return self._after_move(state)

    def _after_die(self, state: State, value: int) -> State:
        phase = state.phase
        if phase == "rolloff":
            return self._rolloff(state, value)
        if phase == "challenge":
            return self._challenge_roll(state, value)
        if value != 0:             # a move (the die in the same copy)
            return self._start_move(state, value, die=value)
        return self._move_roll(state.replace(die=value), value)

    def _rolloff(self, state: State, value: int) -> State:
        """Everyone rolls; the single highest starts, tied highest roll again (D.1 §7)."""
        contenders = rolloff_contenders(state.rolloff, self.n)
        rnd = state.rolloff[-1] + ((contenders[len(state.rolloff[-1])], value),)
        rounds = state.rolloff[:-1] + (rnd,)
        if len(rnd) < len(contenders):
            return state.replace(rolloff=rounds)
        first = rolloff_winner(rnd, contenders)
        if first < 0:
            return state.replace(rolloff=rounds + ((),))
        state = state.replace(rolloff=rounds, phase="start", mover=first)
        if self.params.rolloff_is_first_roll:
            best = max(v for _, v in rnd)
            return self._move_roll(state.replace(die=best), best)
        return state

    def _move_roll(self, state: State, value: int) -> State:
        """A normal turn's roll: Null lets the player move another pawn; otherwise the pawn moves exactly."""
        if value == 0:
            if self.params.null_moves_other:
                return self._null(state)
            return self._after_move(state)
        return self._start_move(state, value)

    def _null(self, state: State) -> State:
        state = state.replace(phase="null", steps=self.params.null_other_steps, pushed=-1)
        return state if any(self.push_tiles(state, q) for q in range(self.n)) else self._after_move(state)

    def _start_move(self, state: State, k: int, **changes: Any) -> State:
        """The pawn moves exactly ``k`` steps; with no such path it stays (or moves the longest it can).
        ``changes``: what else the roll changed, in the same copy."""
        pos = state.pawns[state.mover]
        state = state.replace(**changes, phase="move", steps=k, path=(pos,))
        if self.step_tiles(state):
            return state
        if self.params.stuck_policy == "longest":
            for shorter in range(k - 1, 0, -1):
                if self.step_tiles(state, shorter):
                    return state.replace(steps=shorter)
        return self._after_move(state.replace(steps=0))

    def _challenge_roll(self, state: State, value: int) -> State:
        """Success (roll >= value): the blocker is taken (or may be left) and the pawn moves roll - value;
        failure: the blocker stays face up (or is turned down again, known to all) and the pawn stays."""
        p = self.params
        tile = state.challenged
        b = state.blocker_on(tile)
        if not self._beats(value, b.value):
            if p.failed_challenge_blocker == "flip_back":
                hidden = b.replace(face_up=False, known=self.everyone)
                return self._after_challenge(state, value, 0, die=value, blockers=_put(state.blockers, tile, hidden))
            return self._after_challenge(state, value, 0, die=value)
        if p.challenge_removal == "optional":
            return state.replace(phase="take", die=value)
        return self._beaten(state, value, take=True, die=value)

    def _beaten(self, state: State, value: int, take: bool, **changes: Any) -> State:
        """A successful challenge: the blocker is taken (or left, face up), then the pawn moves (D.1 §9.2).
        Taken, it leaves the board for the challenger's bag (or its owner's, or the box)."""
        p = self.params
        tile = state.challenged
        b = state.blocker_on(tile)
        steps = value - b.value if p.challenge_moves == "difference" else value if p.challenge_moves == "roll" else 0
        if take:
            token, where = (b.colour, b.value), p.captured_blocker_destination
            changes.update(blockers=_put(state.blockers, tile, None), blocked=state.blocked & ~(1 << tile))
            if where == "removed":
                changes["removed"] = tuple(sorted(state.removed + (token,)))
            else:
                seat = state.mover if where == "challenger_bag" else b.colour
                changes["bags"] = _put(state.bags, seat, tuple(sorted(state.bags[seat] + (token,))))
        return self._after_challenge(state, value, steps, **changes)

    def _after_challenge(self, state: State, value: int, steps: int, **changes: Any) -> State:
        """The pawn moves ``steps`` after a challenge (``changes``: what the challenge changed, in the same copy)."""
        if steps > 0:
            return self._start_move(state, steps, **changes)
        state = state.replace(**changes) if changes else state
        if value == 0 and self.params.null_power_in_challenge and self.params.null_moves_other:
            return self._null(state)
        return self._after_move(state)

    def _step(self, state: State, tile: int) -> State:
        p, B = self.params, self.B
        seat = state.mover
        before = state
        state = state.replace(pawns=_put(state.pawns, seat, tile), path=state.path + (tile,), steps=state.steps - 1)
        kept = self._walk_kept
        if kept[0] is before and kept[1] == seat:     # the next step's walk masks are these (walk_masks)
            kept[0] = state
        if tile == B.aces[seat] and (p.win_on_entry or state.steps == 0):
            if p.win_on_occupied_ace or not self.pawn_mask(state, seat) >> tile & 1:
                return self._win(state, seat, f"{self._name(seat)} reaches its Ace on {B.label(tile)}")
        if state.steps == 0:
            return self._after_move(state)
        return state

    def _push(self, state: State, pawn: int, tile: int) -> State:
        B = self.B
        start = state.pawns[pawn]
        path = state.path + (tile,) if state.pushed == pawn else (start, tile)
        state = state.replace(pawns=_put(state.pawns, pawn, tile), pushed=pawn, path=path, steps=state.steps - 1)
        if tile == B.aces[pawn]:
            return self._win(state, pawn, f"{self._name(state.mover)} moves {self._name(pawn)}'s pawn onto its Ace "
                                          f"on {B.label(tile)}")
        if state.steps == 0 or not self.push_tiles(state, pawn):
            return self._after_move(state)
        return state

    def _after_move(self, state: State) -> State:
        """The move (or challenge) is done: another challenge if the turn allows one, else the blocker step."""
        if state.challenges and self._challenge_tiles(state):
            return state.replace(phase="again", steps=0)
        return self._blocker_step(state)

    def _blocker_step(self, state: State) -> State:
        """Draw a blocker and place it, when the bag has one and a tile is free; else the turn ends (D.1 §10)."""
        if state.bags[state.mover] and self.place_tiles(state):
            return state.replace(phase="draw", steps=0)
        return self._end_turn(state, placed=-1)        # (which sets steps to 0 too)

    def _end_turn(self, state: State, placed: int, **changes: Any) -> State:
        """The turn is over: the next seat's starts (or the game ends at ``max_turns``), with ``changes`` (what
        the last action changed, in the same copy) and no blocker held."""
        mover = state.mover
        moved = state.pushed if state.pushed >= 0 else mover
        last = (moved, state.path, placed)
        turn = state.turn + 1
        if turn >= self.params.max_turns:
            return state.replace(**changes, phase="over", turn=turn, last=last, steps=0, held=None,
                                 reason=f"max_turns = {self.params.max_turns} turns played: a draw")
        step = 1 if self.params.turn_order == "clockwise" else -1
        return state.replace(**changes, phase="start", mover=(mover + step) % self.n, turn=turn, steps=0, path=(),
                             challenged=-1, challenges=0, pushed=-1, held=None, last=last)

    def _win(self, state: State, seat: int, reason: str) -> State:
        moved = state.pushed if state.pushed >= 0 else state.mover
        return state.replace(phase="over", winner=seat, reason=reason, steps=0, last=(moved, state.path, -1))

    # ------------------------------------------------------------------ what each seat may know
    def determinize(self, state: State, seat: int | None, rng: random.Random) -> State:
        """Redraw everything hidden from ``seat``: the values of face-down blockers it does not know (each
        keeps its visible colour), the blocker another player holds, and the other bags (their sizes
        kept), as one consistent shuffle of :meth:`hidden_pool`.

        >>> import random, playtest
        >>> game = playtest.load("corner_rush", num_players=2)
        >>> state = game.state_from_json({"pawns": ["a5", "e1"], "blockers": {"c4": {"colour": 1, "value": 2}}})
        >>> other = game.determinize(state, 0, random.Random(4))
        >>> other.bags[0] == state.bags[0], other.blockers[game.B.index("c4")].colour, len(other.bags[1])
        (True, 1, 4)
        """
        n = self.n
        me = seat if seat is not None and 0 <= seat < n else -1
        me_bit = 1 << me if me >= 0 else 0
        everyone = self.everyone
        sees_bag = me >= 0 and self.params.placer_knows_value
        # The hidden blockers are gathered from the state, but only as a sorted multiset: every blocker
        # minus those ``seat`` can place, the same for every state it cannot tell apart (hidden_pool).
        visible = self.params.blocker_color_visible
        slots: dict[int, list[int]] = {}      # the face-down blockers it does not know, by the colour everyone sees
        pool = []
        for tile, b in enumerate(state.blockers):
            if b is not None and not b.face_up and not b.known & me_bit and b.known != everyone:
                slots.setdefault(b.colour if visible else -1, []).append(tile)
                pool.append((b.colour, b.value))
        held = state.held
        hide_held = held is not None and not (sees_bag and state.mover == me)
        if held is not None and hide_held:
            pool.append(held)
        hidden_bags = [owner for owner in range(n) if not (sees_bag and owner == me)]
        for owner in hidden_bags:
            pool.extend(state.bags[owner])
        if not pool:
            return state
        pool.sort()
        draw = rng.random
        blockers = list(state.blockers)
        rest = []
        any_colour = slots.get(-1)
        for token in sorted(pool, key=lambda _token: draw()):     # one shuffle of the canonical multiset
            tiles = any_colour or slots.get(token[0])
            if tiles:
                tile = tiles.pop()
                there = blockers[tile]
                assert there is not None        # (slots hold only tiles with a blocker)
                blockers[tile] = blocker(token[0], token[1], False, there.known)
            else:
                rest.append(token)
        if hide_held:
            held = rest.pop()
        bags = list(state.bags)
        for owner in hidden_bags:
            size = len(bags[owner])
            bags[owner] = tuple(sorted(rest[:size]))
            del rest[:size]
        return state.replace(blockers=tuple(blockers), held=held, bags=tuple(bags))

    def _beats(self, roll: int, value: int) -> bool:
        return roll > value if self.params.challenge_success == "greater" else roll >= value

    # ------------------------------------------------------------------ JSON and the scene
    def state_from_json(self, data: Any) -> State:
        """A position from the JSON of the package docstring (the declaration converts and checks it),
        what it leaves out as at the start of a game, then :meth:`check_state`."""
        B = self.B
        if isinstance(data, dict):
            data = {"to_move": None if data.get("phase") == "rolloff" else 0, "pawns": [B.label(i) for i in B.starts],
                    "challenges": 1 if data.get("challenged") is not None else 0, **data}
        state: State = State.from_json(data, where=self.name, context=self)
        blockers = state.blockers + (None,) * (B.tiles - len(state.blockers))
        bags = (tuple(tuple(sorted(bag)) for bag in state.bags) if "bags" in data
                else own_blockers(self, blockers, state.held, state.removed))
        state = state.replace(size=B.size, blockers=blockers, bags=bags, removed=tuple(sorted(state.removed)),
                              blocked=sum(1 << i for i, b in enumerate(blockers) if b is not None))
        self.check_state(state)
        return state

    def adapt_state(self, state: State, old: Game[Any, Any, Any]) -> State:
        """After a live parameter change the game goes on under the new rules, and never stalls.

        A move under way that the new rules leave without a legal step (``pawn_pass_through``,
        ``allow_revisit``, ``other_aces_open``, ``hole_passable``, ``must_use_all_moves`` ... changed
        mid-move) is a move with no way of exactly the steps left, so ``stuck_policy`` settles it as it
        settles a roll (D6): with ``"longest"`` the pawn goes on for the longest exact length it still
        can; otherwise it stops where it stands (the steps already taken stay taken), and the turn goes
        on to the blocker step. A blocker step the new rules leave without a tile (``allow_sealing``)
        is skipped, the blocker staying in the bag, as when no tile is free (D.1 §10).

        >>> import playtest
        >>> game = playtest.load("corner_rush", num_players=2)
        >>> state = game.state_from_json({"phase": "move", "to_move": 0, "steps": 2, "path": ["a5"],
        ...                               "pawns": ["a5", "b5"], "blockers": {"a4": {"colour": 1, "value": 3}}})
        >>> strict = playtest.load("corner_rush", num_players=2, pawn_pass_through=False)
        >>> after = strict.adapt_state(state, game)            # b5 was the only way on, over Blue's pawn
        >>> after.phase, strict.B.label(after.pawns[0]), strict.to_move(after)   # stays; Red's bag draw
        ('draw', 'a5', -1)
        """
        phase = state.phase
        if phase == "move" and not self.legal_actions(state):
            if self.params.stuck_policy == "longest":
                for shorter in range(state.steps - 1, 0, -1):
                    if self.step_tiles(state, shorter):
                        return state._replace(steps=shorter)
            return self._after_move(state._replace(steps=0))
        if phase == "place" and not self.legal_actions(state):
            held = state.held
            assert held is not None             # (the place phase holds the blocker drawn)
            bag = tuple(sorted(state.bags[state.mover] + (held,)))
            return self._end_turn(state._replace(held=None, bags=_put(state.bags, state.mover, bag)), placed=-1)
        if phase == "draw" and not self.place_tiles(state):
            return self._end_turn(state, placed=-1)
        return state

    def check_state(self, state: State) -> None:
        """Refuse a position these rules could not reach (``ValueError`` naming the field)."""
        check_position(self, state)

    def view(self, state: State, seat: int | None = None) -> dict[str, Any]:
        from .view import View
        return View(self, state, seat).build()


def _face(value: Any) -> str:
    return face_name(value) if type(value) is int else repr(value)[:20]


def _put(values: tuple[Any, ...], index: int, value: Any) -> tuple[Any, ...]:
    return values[:index] + (value,) + values[index + 1:]

