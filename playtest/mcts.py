"""Monte Carlo tree search that plays every game of the kit through the public rules API.

:class:`MCTSBot` is UCT (upper confidence bounds on trees) over *information
sets*: a seat does not search the position it was handed, but many positions it
cannot tell from it. Each iteration

1. draws a world with ``game.determinize(state, seat, rng)`` (games with secrets:
   the face-down card, the other seats' orders are redrawn; other games: the
   state itself);
2. walks down the tree, every seat choosing by UCB1 among the actions legal in
   that world (counted by *availability*: an action only competes in the worlds
   where it is legal), chance drawing an outcome by its probability
   (``chance_outcomes``, or ``UncountedChance.sample``);
3. adds one node, then finishes the game with random actions
   (``game.random_action``, cheap), stopping after ``rollout_limit`` turns (a
   turn: one seat's actions in a row, or one simultaneous round: every seat's
   order, then its resolution); a sequential game that writes
   :meth:`playtest.Game.random_playout` plays the rollout itself, on its compact
   form (the same draws, so the same rollout and the same choices);
4. scores the end for every seat in ``[0, 1]`` (:func:`returns`) and adds each
   seat's score to the statistics of that seat's decisions.

Hidden information. In a game with secrets each seat has its own tree whose
edges are what *that seat* saw happen: its own actions, and everything else as
``game.notation(state, action, viewer=seat)`` ("North is dealt a card",
"North changes their order"). So a seat's statistics never depend on what it
could not have seen (multiple-observer ISMCTS). A simultaneous step is searched
seat by seat (the first pending seat, then the next), and since the later seat
sees only the notation of the earlier one's order, nobody reacts to a
submission it cannot know. Games without secrets share one tree.

Simultaneous orders. A play-out fills the pending seats' orders seat by seat
(the first pending seat, then the next), never every pending seat's parts at
once. A game whose orders are built part by part may offer
``finish_order(state, seat, rng) -> state``: the state after ``seat`` completes
its order at random (keeping the parts it has set) and submits it. Then a
play-out submits whole orders with it (a handful of steps a round instead of a
hundred parts each chosen from a full listing, and no ``Withdraw`` or ``Clear``),
and the tree stops where the other seats' orders begin: the search weighs the
seat's next part against random completions of its order and random orders of
the others.

Deterministic: for a given ``seed`` and the same calls, the same choices.

>>> import playtest
>>> game = playtest.load("eat_thyself")
>>> bot = MCTSBot(iterations=20, seed=1)
>>> state = game.initial_state()
>>> bot.choose(game, state) in game.legal_actions(state)
True
>>> MCTSBot(iterations=20, seed=1).choose(game, state) == MCTSBot(iterations=20, seed=1).choose(game, state)
True
"""

from __future__ import annotations

import math
import random
from typing import Any

from .bots import Bot
from .rules import CHANCE, SIMULTANEOUS, Game

__all__ = ["MCTSBot", "returns", "plans_orders"]


class _Node:
    """One edge's statistics: reward summed for the seat that chose it, visits, availability."""

    __slots__ = ("children", "visits", "reward", "avail")

    def __init__(self) -> None:
        self.children: dict[Any, _Node] = {}
        self.visits = 0
        self.reward = 0.0
        self.avail = 0


def returns(game: Game[Any, Any, Any], state: Any, running_scores: Any = None) -> list[float]:
    """Every seat's result in ``[0, 1]``: 1 for a winner (each member of a winning team),
    0 for a loser, 0.5 for everyone in a draw; a game that pays out (``Outcome.payoffs``:
    chips, points) gives each seat its payoff's place in the game's ``returns_range()``.

    A game that is not over (a rollout cut short) counts as a draw, unless
    ``running_scores(state)`` gives the seats' scores as things stand: then each
    seat gets its score's place between the lowest (0) and the highest (1).

    >>> import playtest
    >>> game = playtest.load("secret_bid")
    >>> returns(game, game.initial_state())
    [0.5, 0.5]
    >>> returns(game, game.initial_state(), lambda state: (3, 1))
    [1.0, 0.0]
    """
    n = game.seat_count()
    if game.to_move(state) is None:
        outcome = game.outcome(state)
        if outcome is not None and outcome.payoffs is not None:      # chips, points: how much, not only who
            low, high = game.returns_range()
            span = (high - low) or 1.0
            return [min(1.0, max(0.0, (float(p) - low) / span)) for p in outcome.payoffs]
        if outcome is not None and outcome.winners:
            won = set(outcome.winners)
            return [1.0 if s in won else 0.0 for s in range(n)]
        return [0.5] * n
    if running_scores is not None:
        scores = running_scores(state)
        if scores is not None:
            low, high = min(scores), max(scores)
            if high > low:
                return [(float(v) - low) / (high - low) for v in scores]
    return [0.5] * n


def _seat_actions(game: Game[Any, Any, Any], state: Any, seat: int) -> list[Any]:
    return game.legal_actions(state, seat)


class MCTSBot(Bot):
    """Monte Carlo tree search for any seat of any game (see :mod:`playtest.mcts`).

    ``iterations`` is the number of simulated games per decision; ``exploration``
    the UCB1 constant (returns are in ``[0, 1]``); ``rollout_limit`` caps the
    random play-out after the tree, in turns (a cut-short rollout scores as a
    draw, or by the game's ``running_scores`` when it has them); ``width`` is how
    many of the root's actions are searched (by default ``max(4, 2 * sqrt(iterations))``:
    the actions that hand the turn on always, others drawn at random). It plays any
    seat: ``simulate(game, {0: MCTSBot(iterations=100, seed=1), 1: "random"})``.

    >>> import playtest
    >>> game = playtest.load("secret_bid")
    >>> session = playtest.Session(game, seed=3)
    >>> action = session.play_bot(MCTSBot(iterations=30, seed=2), seat=1)
    >>> action.seat
    1
    """

    name = "mcts"
    RUN_LIMIT = 100     # decisions in a row after which only actions that hand the turn on are searched
    STEPS_PER_TURN = 64  # a rollout's steps are capped too: rollout_limit turns of this many steps

    def __init__(self, iterations: int = 200, seed: int | str | None = None, exploration: float = 1.0,
                 rollout_limit: int = 100, width: int | None = None):
        if not isinstance(iterations, int) or isinstance(iterations, bool) or iterations < 1:
            raise ValueError(f"MCTSBot iterations must be a whole number of at least 1, not {iterations!r}")
        if not isinstance(rollout_limit, int) or isinstance(rollout_limit, bool) or rollout_limit < 0:
            raise ValueError(f"MCTSBot rollout_limit must be a whole number of at least 0, not {rollout_limit!r}")
        if not isinstance(exploration, (int, float)) or exploration < 0:
            raise ValueError(f"MCTSBot exploration must be a number of at least 0, not {exploration!r}")
        self.iterations = iterations
        self.seed = seed
        self.exploration = float(exploration)
        self.rollout_limit = rollout_limit
        if width is not None and (not isinstance(width, int) or isinstance(width, bool) or width < 1):
            raise ValueError(f"MCTSBot width must be a whole number of at least 1, not {width!r}")
        self.width = width if width is not None else max(4, 2 * math.isqrt(iterations))
        self.rng = random.Random(seed)
        self._run: tuple[Any, set[Any]] | None = None    # (what it expects next, positions of this run of turns)
        self._plan: tuple[Any, Any] | None = None   # (what it expects next, the whole order it is entering)
        self.iterations_run = 0                       # every search's iterations, summed (for benchmarks)

    def __repr__(self) -> str:
        return (f"MCTSBot(iterations={self.iterations}, seed={self.seed!r}, exploration={self.exploration}, "
                f"rollout_limit={self.rollout_limit}, width={self.width})")

    def reseed(self, seed: Any) -> None:
        """Restart the generator from ``seed`` and forget the runs and plans of earlier decisions, so a
        reseeded bot plays as a fresh one whatever it played before (the lab's results do not depend
        on which worker played which games).

        >>> import playtest
        >>> game = playtest.load("back_to_the_wall", rounds=1)
        >>> bot = MCTSBot(iterations=4, seed=1)
        >>> _ = bot.choose(game, game.initial_state(), seat=0)
        >>> bot.reseed("x"); (bot._run, bot._plan)
        (None, None)
        """
        super().reseed(seed)
        self._run = None
        self._plan = None

    def choose(self, game: Game[Any, Any, Any], state: Any, seat: int | None = None) -> Any:
        mover = game.to_move(state)
        if mover is None or mover == CHANCE:
            raise ValueError("MCTSBot chooses for a seat; nobody is to move here" if mover is None
                             else "MCTSBot chooses for a seat; chance is to move here")
        if seat is None:
            seat = game.pending_seats(state)[0] if mover == SIMULTANEOUS else mover
        legal = _seat_actions(game, state, seat)
        if not legal:
            raise ValueError(f"seat {seat} has nothing to do in this position")
        if len(legal) == 1:
            return legal[0]
        if mover == SIMULTANEOUS and plans_orders(game):
            return self._order_step(game, state, seat)
        candidates = self._candidates(game, state, seat, legal)
        if len(candidates) == 1:
            pick = 0
        else:
            pick = _Search(game, seat, self).run(state, [a for a, _ in candidates])
        action, after = candidates[pick]
        assert self._run is not None        # (_candidates started this run)
        self._run = (after, self._run[1])
        return action

    def _order_step(self, game: Game[Any, Any, Any], state: Any, seat: int) -> Any:
        """The next part of the whole order this bot planned for ``seat`` this round (searched when the
        position is not the one its last part led to: a new round, or something changed meanwhile)."""
        here = self._seen(game, state, seat)
        plan = self._plan[1] if self._plan is not None and self._plan[0] == here else None
        if plan is None:
            plan = _OrderSearch(game, seat, self).run(state)
        action = game.step_toward(state, seat, plan)  # type: ignore[attr-defined]  # (offered, not on Game: plans_orders)
        self._plan = (self._seen(game, game.apply(state, action, check=False), seat), plan)
        return action

    @staticmethod
    def _seen(game: Game[Any, Any, Any], state: Any, seat: int) -> Any:
        """A position as ``seat`` knows it: the state itself when nothing is hidden, else the world
        ``determinize`` draws from it with a fixed generator (the same for every state the seat
        cannot tell apart, by determinize's contract)."""
        if not game.has_secrets:
            return state
        return game.determinize(state, seat, random.Random(0))

    def _candidates(self, game: Game[Any, Any, Any], state: Any, seat: int, legal: list[Any]) -> list[tuple[Any, Any]]:
        """The root's actions worth searching, each with the position it leads to (as the seat knows it).

        * No going round in circles: an action that leads back to a position of
          this *run* (the seat's decisions in a row, nothing else happening in
          between: a turn or an order built part by part) is left out, so walls
          built and picked up again or a bid changed back and forth cannot loop.
        * At most ``width`` actions: those that hand the turn on (an end of turn,
          a submission) always, then others drawn at random; so a turn of many
          atomic actions ends when ending it is as good as going on.
        * After ``RUN_LIMIT`` decisions in a run, only actions that hand the turn on.
        """
        here = self._seen(game, state, seat)
        if self._run is None or self._run[0] != here:
            self._run = (here, set())
        visited = self._run[1]
        visited.add(here)
        mover = game.to_move(state)
        passing: list[tuple[Any, Any]] = []
        others: list[tuple[Any, Any]] = []
        for action in legal:
            after = game.apply(state, action, check=False)
            now = game.to_move(after)
            hands_on = now != mover or (now == SIMULTANEOUS and seat not in game.pending_seats(after))
            (passing if hands_on else others).append((action, after))
        if len(visited) > self.RUN_LIMIT and passing:
            others = []
        self.rng.shuffle(others)
        kept: list[tuple[Any, Any]] = []
        for action, after in passing + others:
            if len(kept) >= max(self.width, len(passing)):
                break
            seen = self._seen(game, after, seat)
            if seen not in visited:
                kept.append((action, seen))
        if not kept:             # every action goes back: allow them all again
            kept = [(a, self._seen(game, after, seat)) for a, after in passing + others]
        order = {id(a): k for k, a in enumerate(legal)}
        return sorted(kept, key=lambda pair: order[id(pair[0])])


def plans_orders(game: Game[Any, Any, Any]) -> bool:
    """Whether ``game`` lets a bot plan a simultaneous order whole: it offers ``complete_order(state, seat,
    rng) -> order`` (the seat's order with the rest drawn at random), ``submit_order(state, seat, order)
    -> state`` and ``step_toward(state, seat, order) -> action`` (the next part toward an order).

    >>> import playtest
    >>> plans_orders(playtest.load("back_to_the_wall")), plans_orders(playtest.load("goofspiel"))
    (True, False)
    """
    return all(callable(getattr(game, name, None)) for name in ("complete_order", "submit_order", "step_toward"))


class _OrderSearch:
    """One round's search over whole orders (a game that :func:`plans_orders`): ``width`` different
    completions of the seat's order drawn at random, each iteration one of them chosen by UCB1 (an
    untried one first), submitted in a world drawn for the seat, and played out (the others' orders
    whole, seat by seat; later rounds too, up to ``rollout_limit`` rounds). The most tried order wins."""

    def __init__(self, game: Game[Any, Any, Any], seat: int, bot: MCTSBot):
        self.game, self.seat, self.bot, self.rng = game, seat, bot, bot.rng

    def run(self, state: Any) -> Any:
        game, seat, rng, bot = self.game, self.seat, self.rng, self.bot
        complete, submit = game.complete_order, game.submit_order  # type: ignore[attr-defined]  # (plans_orders)
        orders: list[Any] = []
        known: set[Any] = set()
        for _ in range(3 * bot.width):
            if len(orders) >= bot.width:
                break
            order = complete(state, seat, rng)
            if order not in known:
                known.add(order)
                orders.append(order)
        search = _Search(game, seat, bot)
        visits = [0] * len(orders)
        reward = [0.0] * len(orders)
        c = bot.exploration
        for done in range(bot.iterations):
            if done < len(orders):
                pick = done
            else:
                log = math.log(done)
                pick = max(range(len(orders)),
                           key=lambda i: reward[i] / visits[i] + c * math.sqrt(log / visits[i]))
            world = game.determinize(state, seat, rng) if game.has_secrets else state
            end = search._rollout(submit(world, seat, orders[pick]))
            visits[pick] += 1
            reward[pick] += returns(game, end, search.running_scores)[seat]
        bot.iterations_run += bot.iterations
        best = max(range(len(orders)), key=lambda i: (visits[i], reward[i] / visits[i] if visits[i] else 0.0))
        return orders[best]


class _Search:
    """One decision's search: the trees, and the loop of iterations."""

    def __init__(self, game: Game[Any, Any, Any], seat: int, bot: MCTSBot):
        self.game = game
        self.seat = seat
        self.bot = bot
        self.rng = bot.rng
        self.secrets = game.has_secrets
        n = game.seat_count()
        # games without secrets: one tree, everyone sees every action; else one tree per seat
        self.observers = list(range(n)) if self.secrets else [seat]
        self.running_scores = getattr(game, "running_scores", None)
        self.finish_order = getattr(game, "finish_order", None)   # a whole order at random (optional)
        #: the game's own random play (Game.random_playout) plays the rollouts of a sequential game
        own = getattr(type(game), "random_playout", None)
        self.playout = (own is not None and own is not Game.random_playout and game.game_type is not None
                        and game.game_type.dynamics == "sequential")

    def run(self, state: Any, legal: list[Any]) -> int:
        """The index of the most visited of ``legal`` (the root's candidates) after the iterations;
        among equals the best on average, then one drawn at random (a fixed order would favour
        the same kind of action every time, e.g. never ending a turn when nothing is known)."""
        game, rng, seat = self.game, self.rng, self.seat
        self.root_actions = legal
        roots = {o: _Node() for o in self.observers}
        for _ in range(self.bot.iterations):
            world = game.determinize(state, seat, rng) if self.secrets else state
            self._iterate(world, roots)
        self.bot.iterations_run += self.bot.iterations
        root = roots[seat]

        draw = [rng.random() for _ in legal]

        def rank(index_action: tuple[int, Any]) -> tuple[Any, ...]:
            index, action = index_action
            child = root.children.get(action)
            if child is None or child.visits == 0:
                return (0, 0.0, draw[index])
            return (child.visits, child.reward / child.visits, draw[index])
        return max(enumerate(legal), key=rank)[0]

    def _iterate(self, state: Any, roots: dict[int, _Node]) -> None:
        game, rng = self.game, self.rng
        to_move, apply, notation = game.to_move, game.apply, game.notation
        shared = not self.secrets
        current = dict(roots)
        touched: list[tuple[_Node, int]] = []      # (edge, seat that chose it)
        first = True
        grown = False
        while not grown:
            mover = to_move(state)
            if mover is None:
                break
            if not first and mover == SIMULTANEOUS and self.finish_order is not None:
                break      # orders are played out whole (see the module's docstring)
            if mover == CHANCE:
                action = game.chance_outcome(state, rng)
                actor = CHANCE
            else:
                if first:
                    actor, legal = self.seat, self.root_actions
                else:
                    actor = game.pending_seats(state)[0] if mover == SIMULTANEOUS else mover
                    legal = _seat_actions(game, state, actor)
                tree = current[self.seat if shared else actor]
                action = self._select(tree, legal)
            for observer, node in current.items():
                if shared or observer == actor:
                    key = action
                else:      # what this seat saw happen: never another seat's secret
                    key = ("seen", notation(state, action, observer))
                child = node.children.get(key)
                if child is None:
                    child = node.children[key] = _Node()
                    child.avail = 1
                    grown = True
                current[observer] = child
                if actor >= 0 and (shared or observer == actor):
                    touched.append((child, actor))
            state = apply(state, action, check=False)
            first = False
        state = self._rollout(state)
        values = returns(game, state, self.running_scores)
        for node, actor in touched:
            node.visits += 1
            node.reward += values[actor]

    def _select(self, node: _Node, legal: list[Any]) -> Any:
        """UCB1 over the actions legal in this world; an untried one first (chosen at random)."""
        children = node.children
        untried = []
        best, best_value = None, -1.0
        c = self.bot.exploration
        scored = []
        for action in legal:
            child = children.get(action)
            if child is None or child.visits == 0:
                untried.append(action)
            else:
                child.avail += 1
                scored.append((action, child))
        if untried:
            return untried[self.rng.randrange(len(untried))]
        for action, child in scored:
            value = child.reward / child.visits + c * math.sqrt(math.log(child.avail) / child.visits)
            if value > best_value:
                best, best_value = action, value
        return best

    def _rollout(self, state: Any) -> Any:
        """Random play from ``state`` for at most ``rollout_limit`` turns (and ``STEPS_PER_TURN`` times
        as many steps). Counting turns, not steps, matters: a seat that dawdles inside its own turn
        (a wall built, picked up, built elsewhere) must not push the others' moves past the horizon.
        A simultaneous round is one turn (it ends when a resolution makes seats pending again); its
        orders are filled seat by seat, whole ones with the game's ``finish_order`` when it has one."""
        game, rng = self.game, self.rng
        limit = self.bot.rollout_limit
        if self.playout:         # the same play-out, on the game's compact form (None: left to the rules)
            played = game.random_playout(state, rng, None, max_steps=limit * self.bot.STEPS_PER_TURN,
                                         max_turns=limit)
            if played is not None:
                return played[0]
        to_move, random_action, chance = game.to_move, game.random_action, game.chance_outcome
        pending_seats, seat_actions, finish = game.pending_seats, game.legal_actions, self.finish_order
        play = _player(game)
        turns, last, waiting = 0, None, 0
        together, by_chance = SIMULTANEOUS, CHANCE
        for _ in range(limit * self.bot.STEPS_PER_TURN):
            mover = to_move(state)
            if mover is None:
                break
            if mover >= 0:                  # a seat's turn: the common case, first
                if mover != last:
                    turns += 1
                    if turns > limit:
                        break
                    last = mover
                state = play(state, random_action(state, rng))
                continue
            if mover == together:
                pending = pending_seats(state)
                if last != SIMULTANEOUS or len(pending) > waiting:     # a new round
                    turns += 1
                    if turns > limit:
                        break
                last, waiting = mover, len(pending)
                if finish is not None:
                    state = finish(state, pending[0], rng)
                    continue
                actions = seat_actions(state, pending[0])
                if not actions:
                    raise RuntimeError(_stuck(game, state, pending[0]))
                action = actions[rng.randrange(len(actions))]
            elif mover == by_chance:
                action = chance(state, rng)
            else:
                if mover != last:
                    turns += 1
                    if turns > limit:
                        break
                    last = mover
                action = random_action(state, rng)
            state = play(state, action)
        return state


def _stuck(game: Game[Any, Any, Any], state: Any, seat: int) -> str:
    """Why a play-out cannot go on: a seat the step waits for has nothing it may do."""
    return (f"{game.name}: seat {seat} is pending in a simultaneous step but has no legal action, in a "
            f"position the search reached from a world drawn by determinize: the drawn world may break a "
            f"rule between values (the default determinize redraws each hidden value within its field's "
            f"min..max, knowing nothing of the rules): write the game's own determinize (guide, section 9), "
            f"or make pending_seats and legal_actions agree; the position: {game.describe_state(state)[:200]}")


def _player(game: Game[Any, Any, Any]) -> Any:
    """``play(state, action) -> state`` for actions known to be legal: the game's ``effect`` itself when it
    keeps the kernel's ``apply`` (which, unchecked, is just that call), else its ``apply`` unchecked."""
    if type(game).apply is Game.apply and callable(getattr(game, "effect", None)):
        return game.effect
    apply = game.apply
    return lambda state, action: apply(state, action, check=False)
