"""A token's turn in Then There Was One: the jump rule, the search for a clean path, and why a step is refused.

A *clean* path lands on no tile twice (A.1 §15–17). :class:`TokenPaths` answers
the game's token queries (which steps are allowed, which keep a clean path, is
the token trapped, why not this tile) on bit masks of a :class:`~.board.Board`;
:func:`jump_allowed` and :func:`clean_finisher` also serve the greedy token bot.
"""

from __future__ import annotations

import random
from typing import Any, Callable, NamedTuple

from ...kernel import Refusal
from .board import Board
from .params import ThenThereWasOneParams

__all__ = ["TokenTurn", "TokenPaths", "jump_allowed", "clean_finisher"]

MEMO_FROM = 3  # the clean-path search remembers failed subtrees of at least this many steps
FINISHER_MEMO = 20_000  # a kept clean-path search starts afresh once it remembers this many failures
AROUND_KEPT = 50_000  # the steps from a tile are kept for at most this many surroundings (then afresh)


class TokenTurn(NamedTuple):
    """Where the token to move stands, and what bounds its next steps (cells are indices, sets are masks)."""

    pos: int           #: the token's tile
    walls: int         #: every wall standing (an edge mask)
    obstacles: int     #: obstacle tiles
    occupied: int      #: tiles it may not enter: obstacles, and other tokens with tokens_block_tokens
    visited: int       #: tiles landed on this turn (the start tile too with start_tile_counts)
    steps_left: int    #: steps left in the turn
    jumps_left: int    #: jumps left in the turn


def jump_allowed(entry: tuple, walls: int, obstacles: int, rules: ThenThereWasOneParams) -> bool:
    """Whether the jump of ``entry`` (one of :attr:`Board.diag`) is open, as rule A.1 §15 has it.

    Both sides must be closed (an obstacle on the side tile, or a wall on one of
    its two edges), one of them by an obstacle (two obstacles with
    ``jump_allow_obstacle_wall`` off), and at most ``max_walls_at_jump_corner``
    walls may end at the corner point. The landing tile is not looked at.
    """
    _, b, c, side_b, side_c, corner = entry
    ob = obstacles >> b & 1
    oc = obstacles >> c & 1
    if not (ob or oc):
        return False
    if rules.jump_allow_obstacle_wall:
        if not ((ob or walls & side_b) and (oc or walls & side_c)):
            return False
    elif not (ob and oc):
        return False
    return (walls & corner).bit_count() <= rules.max_walls_at_jump_corner


def clean_finisher(board: Board, walls: int, obstacles: int,
                   rules: ThenThereWasOneParams) -> Callable[[int, int, int, int], bool]:
    """``finish(cell, k, jumps, blocked)``: can a clean path of exactly ``k`` more steps go on from ``cell``?

    ``blocked`` holds occupied and already landed-on tiles, ``jumps`` the jumps
    left. Entering the goal row finishes at once with ``goal_on_entry``.
    Failures are memoised for the position (the key includes ``blocked``).
    """
    return _clean_finisher(board, walls, obstacles, rules)[0]


def _clean_finisher(board: Board, walls: int, obstacles: int,
                    rules: ThenThereWasOneParams) -> tuple[Callable[[int, int, int, int], bool], set[Any]]:
    """:func:`clean_finisher`, and the set of failures it remembers."""
    search = CleanSearch(board, walls, obstacles, rules)
    return search.finish, search.failed


class CleanSearch:
    """The clean-path search of :func:`clean_finisher` on one board, walls, obstacles and rules: called as
    ``search(cell, k, jumps, blocked)``. An object rather than a closure that calls itself (a
    reference cycle, freed only by the garbage collector): dropped, it is freed at once."""

    __slots__ = ("ortho", "diag", "goal", "runs", "jcost", "walls", "obstacles", "rules", "failed")

    def __init__(self, board: Board, walls: int, obstacles: int, rules: ThenThereWasOneParams):
        self.ortho, self.diag = board.ortho, board.diag
        self.goal = board.goal if rules.goal_on_entry else 0
        self.runs = board.runs(rules.goal_on_entry, rules.move_length)
        self.jcost = rules.jump_step_cost
        self.walls, self.obstacles, self.rules = walls, obstacles, rules
        #: the failures remembered (the key includes ``blocked``)
        self.failed: set[tuple[int, int, int, int]] = set()

    def __call__(self, cell: int, k: int, jumps: int, blocked: int) -> bool:
        return self.finish(cell, k, jumps, blocked)

    def finish(self, cell: int, k: int, jumps: int, blocked: int) -> bool:
        """Can a clean path of exactly ``k`` more steps go on from ``cell``?"""
        if k <= 0:
            return True
        walls = self.walls
        # a straight run is a clean path: on an open board one is found at once, no search needed
        for tiles, edges in self.runs[cell][k]:
            if not (tiles & blocked or edges & walls):
                return True
        return self.beyond(cell, k, jumps, blocked)

    def beyond(self, cell: int, k: int, jumps: int, blocked: int) -> bool:
        """:meth:`finish` past its first look, when no straight run of ``k`` steps from ``cell`` is clean
        (``k`` at least 1): :meth:`TokenPaths.move_masks` looks first itself, inline."""
        walls = self.walls
        # big subtrees: remember the ones that fail (the same tiles reached another way); most searches
        # meet no failure at all, so the memo is asked only once it holds something
        failed = self.failed
        if k >= MEMO_FROM and failed and (cell, k, jumps, blocked) in failed:
            return False
        goal = self.goal
        for n, bit in self.ortho[cell]:
            if walls & bit or blocked >> n & 1:
                continue
            if k == 1 or goal >> n & 1:
                return True
            if self.finish(n, k - 1, jumps, blocked | 1 << n):
                return True
        jcost = self.jcost
        if jumps > 0 and k >= jcost:
            obstacles = self.obstacles
            for entry in self.diag[cell]:
                d = entry[0]
                if (blocked >> d & 1 or not (obstacles >> entry[1] & 1 or obstacles >> entry[2] & 1)
                        or not jump_allowed(entry, walls, obstacles, self.rules)):   # (a jump needs an obstacle beside)
                    continue
                if k == jcost or goal >> d & 1:
                    return True
                if self.finish(d, k - jcost, jumps - 1, blocked | 1 << d):
                    return True
        if k >= MEMO_FROM:
            failed.add((cell, k, jumps, blocked))
        return False


class TokenPaths:
    """The token-turn queries on one board: allowed steps, clean steps, a random step, why a step is refused.

    The game holds one (``game.paths``) and answers its public queries
    (``token_moves``, ``step_reason``, ...) with it. Cells are indices.
    """

    def __init__(self, board: Board):
        self.B = board
        #: the last clean-path search: (walls, obstacles, rules, the search, which remembers its failures)
        self._finisher: tuple[int, int, ThenThereWasOneParams, CleanSearch] | None = None
        #: the steps the board allows from a tile, by what lies around it (:meth:`steps_from`), for one rules
        self._around: dict[tuple[int, int, int, int], tuple[tuple[int, bool], ...]] = {}
        self._around_rules: Any = None
        #: the same as masks of tiles for :meth:`move_masks` (see :meth:`_masks_from`), and what it reads of
        #: the rules (see :meth:`_fix`), for one rules object
        self._around_masks: dict[tuple[int, int, int, int], tuple[Any, ...]] = {}
        self._fixed: tuple[Any, ...] | None = None
        #: (a state, its tiles the token may not enter, its tiles landed on): the last ones worked out by
        #: :meth:`random_step`, carried on by the game to the state its step leads to (same turn)
        self.here: tuple[Any, int, int] | None = None

    def __getstate__(self) -> dict[str, Any]:
        """The board alone: what it keeps (the last search, the steps by surroundings) is made again on demand.

        >>> import pickle, playtest
        >>> game = playtest.load("then_there_was_one")
        >>> _ = game.paths.finisher(0, 0, game.params)
        >>> pickle.loads(pickle.dumps(game.paths))._finisher is None
        True
        """
        return {"B": self.B}

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.B = state["B"]
        self._finisher = None
        self._around, self._around_rules = {}, None
        self._around_masks, self._fixed = {}, None
        self.here = None

    def token_cells(self, state: Any, exclude: int = -1) -> int:
        """The tiles of the tokens on the board (a mask), but seat ``exclude``'s."""
        mask = 0
        for k, t in enumerate(state.tokens):
            if t >= 0 and k + 1 != exclude:
                mask |= 1 << t
        return mask

    def masks(self, state: Any) -> tuple[int, int]:
        """(tiles the token to move may not enter, tiles it landed on this turn): kept as :attr:`here`
        for the state its step leads to, which the game carries on (same turn, one tile more)."""
        here = self.here
        if here is not None and here[0] is state:
            return here[1], here[2]
        rules, path = state.rules, state.path
        occupied = state.obstacles
        if rules.tokens_block_tokens:
            occupied |= self.token_cells(state, exclude=state.mover)
        visited = 1 << path[0] if rules.start_tile_counts else 0
        for i in path[1:]:
            visited |= 1 << i
        self.here = (state, occupied, visited)
        return occupied, visited

    def context(self, state: Any) -> tuple:
        """The fields of :class:`TokenTurn` as a plain tuple."""
        rules = state.rules
        occupied, visited = self.masks(state)
        return (state.path[-1], state.walls | state.built, state.obstacles, occupied, visited,
                rules.move_length - state.steps_taken, rules.max_jumps_per_turn - state.jumps_used)

    def candidates(self, state: Any, ctx: tuple) -> list[tuple[int, bool]]:
        """Steps the board allows from the token's tile (walls, occupancy, jump rule), revisits included."""
        pos, walls, obstacles, occupied, _, k, jumps = ctx
        rules = state.rules
        return list(self.steps_from(pos, walls, obstacles, occupied, jumps > 0 and k >= rules.jump_step_cost, rules))

    def steps_from(self, pos: int, walls: int, obstacles: int, occupied: int, jump: bool,
                   rules: ThenThereWasOneParams) -> tuple[tuple[int, bool], ...]:
        """The steps the board allows from ``pos`` as ``(cell, is_jump)``: orthogonal steps (north first)
        across no wall onto a tile not ``occupied``, then (``jump``: one is left and affordable) the open
        jumps. They depend only on what lies around ``pos`` (its tile's edges and corners' walls, its 8
        neighbours' occupancy, its 4 neighbours' obstacles) and the jump rules, so they are kept by that:
        a board has few such surroundings.

        >>> import playtest
        >>> game = playtest.load("then_there_was_one")
        >>> B = game.B
        >>> [B.label(n) for n, _ in game.paths.steps_from(B.index((0, 0)), 0, 0, 1 << B.index((1, 0)), True, game.params)]
        ['a2']
        """
        B = self.B
        key = (pos, walls & B.corner_edges[pos], occupied & B.adj8[pos], obstacles & B.adj4[pos] if jump else -1)
        if self._around_rules is not rules:
            self._around, self._around_rules = {}, rules
        known = self._around.get(key)
        if known is None:
            out = [(n, False) for n, bit in B.ortho[pos] if not (walls & bit or occupied >> n & 1)]
            if jump:
                for entry in B.diag[pos]:
                    d = entry[0]
                    if not occupied >> d & 1 and jump_allowed(entry, walls, obstacles, rules):
                        out.append((d, True))
            known = tuple(out)
            if len(self._around) >= AROUND_KEPT:
                self._around = {}
            self._around[key] = known
        return known

    def can_step(self, state: Any, pos: int) -> bool:
        """Whether the token to move (on ``pos``) has any step the board allows, revisits included."""
        return bool(self.candidates(state, self.context(state)))

    def token_moves(self, state: Any) -> tuple[list[tuple[int, bool]], list[tuple[int, bool]]]:
        """(clean, other) allowed steps, as ``(cell, is_jump)``: see ``ThenThereWasOne.token_moves``."""
        rules = state.rules
        walls, obstacles = state.walls | state.built, state.obstacles
        occupied, visited = self.masks(state)
        k, jumps = rules.move_length - state.steps_taken, rules.max_jumps_per_turn - state.jumps_used
        jcost = rules.jump_step_cost
        goal = self.B.goal if rules.goal_on_entry else 0
        finish = None
        clean: list[tuple[int, bool]] = []
        other: list[tuple[int, bool]] = []
        for step in self.steps_from(state.path[-1], walls, obstacles, occupied, jumps > 0 and k >= jcost, rules):
            n, jump = step
            cost = jcost if jump else 1
            if visited >> n & 1:
                other.append(step)
            elif k == cost or goal >> n & 1:
                clean.append(step)
            else:
                finish = finish or self.finisher(walls, obstacles, rules)
                (clean if finish(n, k - cost, jumps - jump, occupied | visited | 1 << n) else other).append(step)
        return clean, other

    def move_masks(self, state: Any) -> tuple[int, int]:
        """The steps and the jumps the token to move may take now, as two masks of their tiles:
        ``ThenThereWasOne.legal_token_moves`` (the clean ones while one exists, unless
        ``allow_voluntary_revisit``), decided as :meth:`token_moves` decides, without a list. A
        step's clean completion is looked for as the search looks first, along a straight run
        (inline: most steps have one), and then by the search itself.

        >>> import playtest
        >>> game = playtest.load("then_there_was_one")
        >>> state = game.state_from_json({"obstacles": [[4, 5], [5, 6]], "to_move": 1, "round": 2,
        ...                               "tokens": {"1": [5, 5], "2": [0, 0], "3": [9, 0]}})
        >>> steps, jumps = game.paths.move_masks(state)
        >>> [game.B.label(i) for i in range(game.B.size) if steps >> i & 1], [game.B.label(i) for i in range(game.B.size) if jumps >> i & 1]
        (['f5', 'g6'], ['e7'])
        """
        rules = state.rules
        fixed = self._fixed
        if fixed is None or fixed[0] is not rules:
            fixed = self._fix(rules)
        _, length, most_jumps, jcost, goal, runs, revisit = fixed
        B, pos = self.B, state.path[-1]
        walls, obstacles = state.walls | state.built, state.obstacles
        here = self.here
        if here is not None and here[0] is state:
            occupied, visited = here[1], here[2]
        else:
            occupied, visited = self.masks(state)
        k, jumps = length - state.steps_taken, most_jumps - state.jumps_used
        # the steps by surroundings (see steps_from): without an obstacle beside the tile no jump is open
        # (one needs an obstacle on a side), and the steps see only the tile's own edges and 4 neighbours
        beside = obstacles & B.adj4[pos] if jumps > 0 and k >= jcost else 0
        key = ((pos, walls & B.corner_edges[pos], occupied & B.adj8[pos], beside) if beside
               else (pos, walls & B.cell_edges[pos], occupied & B.adj4[pos], -1))
        known = self._around_masks.get(key)
        if known is None:
            known = self._masks_from(key, pos, walls, obstacles, occupied, beside != 0, rules)
        every_step, every_jump, step_tiles, jump_tiles = known
        landed = occupied | visited
        finish = None
        clean_steps = clean_jumps = 0
        left = k - 1
        if not left:                     # the turn's last step: every tile not landed on is clean
            clean_steps = every_step & ~visited
        else:
            for n, bit in step_tiles:
                if visited & bit:
                    continue
                if goal & bit:
                    clean_steps |= bit
                    continue
                blocked = landed | bit
                for tiles, edges in runs[n][left]:     # (the search's first look, a straight run, inline)
                    if not (tiles & blocked or edges & walls):
                        clean_steps |= bit
                        break
                else:
                    if finish is None:
                        finish = self.search(walls, obstacles, rules).beyond
                    if finish(n, left, jumps, blocked):
                        clean_steps |= bit
        if every_jump:                   # (listed only when a jump is left and affordable)
            left = k - jcost
            for n, bit in jump_tiles:
                if visited & bit:
                    continue
                if not left or goal & bit:
                    clean_jumps |= bit
                    continue
                blocked = landed | bit
                for tiles, edges in runs[n][left]:
                    if not (tiles & blocked or edges & walls):
                        clean_jumps |= bit
                        break
                else:
                    if finish is None:
                        finish = self.search(walls, obstacles, rules).beyond
                    if finish(n, left, jumps - 1, blocked):
                        clean_jumps |= bit
        if (clean_steps != every_step or clean_jumps != every_jump) and (revisit or not (clean_steps or clean_jumps)):
            return every_step, every_jump
        return clean_steps, clean_jumps

    def _fix(self, rules: ThenThereWasOneParams) -> tuple[Any, ...]:
        """What :meth:`move_masks` reads of ``rules``, kept while they are the same object: ``(rules,
        move_length, max_jumps_per_turn, jump_step_cost, the goal row's mask or 0 (goal_on_entry), the
        board's straight runs, allow_voluntary_revisit)``; a new object starts its steps' memo afresh."""
        self._fixed = (rules, rules.move_length, rules.max_jumps_per_turn, rules.jump_step_cost,
                       self.B.goal if rules.goal_on_entry else 0, self.B.runs(rules.goal_on_entry, rules.move_length),
                       rules.allow_voluntary_revisit)
        self._around_masks = {}
        return self._fixed

    def _masks_from(self, key: tuple[int, int, int, int], pos: int, walls: int, obstacles: int, occupied: int,
                    jump: bool, rules: ThenThereWasOneParams) -> tuple[Any, ...]:
        """:meth:`steps_from` as :meth:`move_masks` reads it, kept by the same surroundings (``key``):
        ``(its steps' tiles, its jumps' tiles, ((tile, bit), ...) of the steps, the same of the jumps)``."""
        allowed = self.steps_from(pos, walls, obstacles, occupied, jump, rules)
        steps = [(n, 1 << n) for n, jumped in allowed if not jumped]
        jumps = [(n, 1 << n) for n, jumped in allowed if jumped]
        made = (sum(bit for _, bit in steps), sum(bit for _, bit in jumps), tuple(steps), tuple(jumps))
        if len(self._around_masks) >= AROUND_KEPT:
            self._around_masks = {}
        self._around_masks[key] = made
        return made

    def has_clean_path(self, state: Any) -> bool:
        """Whether the token to move can still complete its turn without landing twice (A.1 §17)."""
        rules = state.rules
        occupied, visited = self.masks(state)
        return self.finisher(state.walls | state.built, state.obstacles, rules)(
            state.path[-1], rules.move_length - state.steps_taken, rules.max_jumps_per_turn - state.jumps_used,
            occupied | visited)

    def random_step(self, state: Any, rng: random.Random) -> tuple[int, bool]:
        """A uniformly random legal step ``(cell, is_jump)``, found without listing every clean step.

        The steps the board allows are drawn from without replacement until a clean one comes up:
        uniform among the clean ones (any allowed step when none is clean, or with
        ``allow_voluntary_revisit``). Each draw is ``rng.choice`` of the steps not drawn yet, the
        drawn one swapped to the end and dropped.
        """
        rules, pos, B = state.rules, state.path[-1], self.B
        walls, obstacles = state.walls | state.built, state.obstacles
        occupied, visited = self.masks(state)
        k, jumps = rules.move_length - state.steps_taken, rules.max_jumps_per_turn - state.jumps_used
        jcost = rules.jump_step_cost
        # (steps_from, inline: this is the hot path)
        jump = jumps > 0 and k >= jcost
        key = (pos, walls & B.corner_edges[pos], occupied & B.adj8[pos], obstacles & B.adj4[pos] if jump else -1)
        cands = self._around.get(key) if self._around_rules is rules else None
        if cands is None:
            cands = self.steps_from(pos, walls, obstacles, occupied, jump, rules)
        if not rules.allow_voluntary_revisit:
            goal = B.goal if rules.goal_on_entry else 0
            finish = None
            pool = list(cands)
            choice = rng.choice
            while pool:  # draw without replacement until a clean step: uniform among the clean ones
                step = choice(pool)
                pick = pool.index(step)
                pool[pick] = pool[-1]
                pool.pop()
                n, jump = step
                if visited >> n & 1:
                    continue
                cost = jcost if jump else 1
                if k == cost or goal >> n & 1:
                    return step
                finish = finish or self.finisher(walls, obstacles, rules)
                if finish(n, k - cost, jumps - jump, occupied | visited | 1 << n):
                    return step
        return rng.choice(cands)

    def finisher(self, walls: int, obstacles: int,
                 rules: ThenThereWasOneParams) -> Callable[[int, int, int, int], bool]:
        """:func:`clean_finisher` for this board, kept while the walls, obstacles and rules stay the same
        (a whole token turn, and the play-outs of a search between wall turns): what it found
        impossible stays so, since it depends on nothing else."""
        kept = self._finisher
        if (kept is not None and kept[0] == walls and kept[1] == obstacles and kept[2] is rules
                and len(kept[3].failed) < FINISHER_MEMO):
            return kept[3].finish
        return self.search(walls, obstacles, rules).finish

    def search(self, walls: int, obstacles: int, rules: ThenThereWasOneParams) -> CleanSearch:
        """The :class:`CleanSearch` that :meth:`finisher` answers with (kept as it says)."""
        kept = self._finisher
        if (kept is not None and kept[0] == walls and kept[1] == obstacles and kept[2] is rules
                and len(kept[3].failed) < FINISHER_MEMO):
            return kept[3]
        search = CleanSearch(self.B, walls, obstacles, rules)
        self._finisher = (walls, obstacles, rules, search)
        return search

    def step_reason(self, state: Any, to: int, jump: bool | None, seat_name: Callable[[int], str]) -> Refusal:
        """Why the token to move cannot step (or jump) onto cell ``to`` now, naming the rule."""
        B = self.B
        rules = state.rules
        ctx = self.context(state)
        pos, walls, obstacles, occupied, visited, k, jumps = ctx
        pc, pr = pos % B.cols, pos // B.cols
        tc, tr = to % B.cols, to // B.cols
        dist = abs(pc - tc) + abs(pr - tr)
        diagonal = abs(pc - tc) == 1 and abs(pr - tr) == 1
        if jump is None:
            jump = diagonal
        if not jump and dist != 1:
            return Refusal(f"{B.label(to)} is not next to the token: a step goes to an orthogonally adjacent "
                           "tile", "A.1 §15")
        if jump and not diagonal:
            return Refusal(f"a jump goes to a diagonal neighbour, and {B.label(to)} is not one", "A.1 §15")
        if obstacles >> to & 1:
            return Refusal("occupied by an obstacle", "A.1 §15")
        if occupied >> to & 1:
            owner = next(k + 1 for k, t in enumerate(state.tokens) if t == to)
            return Refusal(f"occupied by {seat_name(owner)}'s token (tokens_block_tokens)", "A.1 §15")
        if jump:
            if jumps <= 0:
                return Refusal(f"only {rules.max_jumps_per_turn} jump(s) per turn", "A.1 §15")
            if k < rules.jump_step_cost:
                return Refusal(f"a jump uses {rules.jump_step_cost} steps and only {k} are left", "A9")
            entry = next(e for e in B.diag[pos] if e[0] == to)
            if (walls & entry[5]).bit_count() > rules.max_walls_at_jump_corner:
                return Refusal("two walls meet at this corner: it cannot be jumped", "A.1 §15")
            if not jump_allowed(entry, walls, obstacles, rules):
                if rules.jump_allow_obstacle_wall:
                    return Refusal("a diagonal move is a jump, only between two obstacles or an obstacle and "
                                   "a wall", "A.1 §15")
                return Refusal("a diagonal move is a jump, only between two obstacles (jump_allow_obstacle_wall "
                               "is off)", "A.1 §15")
        else:
            if walls & (1 << B.edge_bit(pos, to)):
                return Refusal("a wall blocks this side", "A.1 §15")
        if visited >> to & 1:
            return Refusal("would land on a tile twice", "A.1 §16")
        return Refusal(f"no clean path of {rules.move_length} steps from there (a clean one exists elsewhere)",
                       "A.1 §17")
