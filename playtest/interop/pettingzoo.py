"""Kit game -> PettingZoo: ``env(name, **params)`` is an AEC environment, ``parallel_env`` a
parallel one for games with simultaneous steps.

* agents ``seat_0``, ``seat_1``, ... (``infos[agent]["seat"]`` is the seat's name);
* actions: ``Discrete(n)`` over the game's stable action ids
  (:class:`playtest.kernel.encoding.ActionEncoding`), with ``observation["action_mask"]``
  (``int8``) marking the legal ones;
* observations: what the seat may see, as the board planes of :mod:`playtest.interop.board`
  when the game draws a board (a float ``Box``), else its observation text (its redacted
  position, or its own board's scene) as ASCII bytes in a ``uint8`` ``Box``, zero-padded to
  twice the longest text met in a few seeded games (a longer text is cut);
* chance steps are drawn with the generator seeded by ``reset(seed=...)``; the game's returns
  are the rewards at the end; a game that runs past its (inferred) longest length is truncated.

The actions follow the form of :mod:`playtest.interop.core`, as OpenSpiel's adapter does:
one-action orders, and orders built part by part whose complete orders can be listed (Secret
Bid: an action is a complete order, :mod:`playtest.interop.orders`), are collected seat by seat
in the AEC form (and at once in the parallel form) and applied together; orders that cannot be
listed (Back to the Wall) are given part by part in the AEC form.

In the parallel form an agent's action is always its **whole order** for the step. Where the
orders cannot be listed (Back to the Wall's: walls, three directions per piece and garnet flags
on three boards, far more orders than a ``Discrete`` space can number), the whole order is given
as its parts: the action space is ``MultiDiscrete([n + 1] * order_parts)``, each entry a part's
action id (``0..n-1``, the AEC form's ids) or ``n``, no part. The parts are entered in the
order written; a part the rules refuse when its turn comes (a wall past the round's quota, a
direction the piece already has, another seat's part) is skipped, and so is everything after
the part that completes the order (``submit``). An order the parts leave incomplete is then
completed as the game completes one: by its completing part when the rules allow it (a piece
given no direction stays), else with the rest drawn at random (the game's ``complete_order``,
with the generator seeded by ``reset(seed=...)``). ``observation["action_mask"]`` is a tuple
with one mask per entry (``int8``; what ``MultiDiscrete.sample(mask=...)`` takes): the parts
the seat may enter at the start of the step, and ``n`` (no part) always. ``order_parts`` is the
longest whole order met in a few seeded random games, or given to :func:`parallel_env`.

>>> from playtest.interop.pettingzoo import env
>>> e = env("tic_tac_toe")
>>> e.reset(seed=1)
>>> e.agent_selection, int(e.observe("seat_0")["action_mask"].sum())
('seat_0', 9)
"""

from __future__ import annotations

import random
from typing import Any

from ..kernel import CHANCE, SIMULTANEOUS, UncountedChance
from ..kernel.outcome import draw_outcome
from ..mcts import plans_orders
from ._require import need
from .board import board_spec, board_tensor
from .core import CHANCE_ID, SIM, TERMINAL, KitPlay, KitShape, resolve_game
from .orders import order_done

pettingzoo = need("pettingzoo")
spaces = need("gymnasium.spaces")
import numpy as np  # noqa: E402

__all__ = ["env", "parallel_env", "KitAECEnv", "KitParallelEnv"]

_AECBase: Any = pettingzoo.AECEnv
_ParallelBase: Any = pettingzoo.ParallelEnv



def env(name_or_game: Any, render_mode: str | None = None, **params: Any) -> "KitAECEnv":
    """The AEC environment of a kit game (its name, class or object, with ``params``)."""
    return KitAECEnv(resolve_game(name_or_game, **params), render_mode=render_mode)


def parallel_env(name_or_game: Any, render_mode: str | None = None, order_parts: int | None = None,
                 **params: Any) -> "KitParallelEnv":
    """The parallel environment of a kit game with simultaneous steps (``ValueError`` for a
    game whose seats always act one at a time: use :func:`env`); ``order_parts``: the entries
    of a whole order given as its parts (see the module docstring)."""
    return KitParallelEnv(resolve_game(name_or_game, **params), render_mode=render_mode, order_parts=order_parts)


def _longest_order(shape: KitShape, games: int = 8, seed: int = 0) -> int:
    """The most parts a whole order took in ``games`` seeded random games: each pending seat's
    order drawn by the game's ``random_order_parts``, else a walk of random legal parts (at most
    ``shape.max_parts``, then a completing part when there is one)."""
    game, rng = shape.game, random.Random(seed)
    longest = 1
    for _ in range(games):
        state = shape.initial_state()
        for _ in range(shape.max_length):
            if game.to_move(state) is None:
                break
            if game.to_move(state) != SIMULTANEOUS:
                state = game.apply(state, _chance_or_random(game, state, rng), check=False)
                continue
            for seat in game.pending_seats(state):
                parts = game.random_order_parts(state, seat, rng)
                if parts is None:
                    parts = []
                    here = state
                    for _ in range(4 * shape.max_parts):
                        listed = game.legal_actions(here, seat)
                        if not listed:
                            break
                        done = [a for a in listed if _completes(game, here, a, seat)]
                        part = done[0] if done and len(parts) >= shape.max_parts else rng.choice(listed)
                        parts.append(part)
                        here, before = game.apply(here, part, check=False), here
                        if order_done(game, before, here, seat):
                            break
                longest = max(longest, len(parts))
                for part in parts:
                    state = game.apply(state, part, check=False)
    return longest


def _chance_or_random(game: Any, state: Any, rng: random.Random) -> Any:
    if game.to_move(state) == CHANCE:
        outcomes = game.chance_outcomes(state)
        return outcomes.sample(rng) if isinstance(outcomes, UncountedChance) else draw_outcome(outcomes, rng)
    return rng.choice(game.legal_actions(state))


def action_id(action: Any, agent: str) -> int:
    """An agent's action as an id: a whole number (Python's or NumPy's), never a float, a text or
    a flag read as one.

    >>> action_id(np.int64(3), "seat_0")
    3
    >>> action_id(5.0, "seat_1")
    Traceback (most recent call last):
    ...
    ValueError: seat_1's action must be a whole-number id, not float
    """
    if isinstance(action, np.ndarray) and action.shape == ():
        action = action.item()
    if isinstance(action, (bool, np.bool_)) or not isinstance(action, (int, np.integer)):
        raise ValueError(f"{agent}'s action must be a whole-number id, not {type(action).__name__}")
    return int(action)


def _completes(game: Any, state: Any, action: Any, seat: int) -> bool:
    """Whether ``seat``'s ``action`` completes its order (:func:`~playtest.interop.orders.order_done`)."""
    return order_done(game, state, game.apply(state, action, check=False), seat)


def _text_length(shape: KitShape, games: int = 3) -> int:
    """The observation text's length in bytes: twice the longest met in a few seeded random
    games, in whole blocks of 256 (a longer text is cut there)."""
    rng = random.Random(0)
    longest = 0
    for _ in range(games):
        play = KitPlay(shape)
        for _ in range(min(shape.max_length, 2000)):
            longest = max([longest] + [len(play.observation(s).encode("ascii", "backslashreplace"))
                                       for s in range(shape.num_players)])
            who = play.current()
            if who == TERMINAL:
                break
            if who == CHANCE_ID:
                play.step(CHANCE_ID, rng.choice(play.chance_outcomes())[0])
            elif who == SIM:
                play.step_joint([rng.choice(play.legal_ids(s)) for s in range(shape.num_players)])
            else:
                play.step(who, rng.choice(play.legal_ids(who)))
    return max(256, -(-2 * longest // 256) * 256)


class _Spaces:
    """What the two environments share: agents, spaces, observations, chance."""

    def _setup(self, game: Any, render_mode: str | None) -> None:
        self.game = game
        self.shape = KitShape.of(game)
        self.board = board_spec(game)
        self.render_mode = render_mode
        n = self.shape.num_players
        self.possible_agents = [f"seat_{i}" for i in range(n)]
        self._index = {a: i for i, a in enumerate(self.possible_agents)}
        actions = self.shape.num_actions
        if self.board is not None:
            inner: Any = spaces.Box(0.0, 1.0, self.board.shape, np.float32)
        else:
            self.text_length = _text_length(self.shape)
            inner = spaces.Box(0, 255, (self.text_length,), np.uint8)
        self._inner = inner
        self._obs_space = spaces.Dict({"observation": inner,
                                       "action_mask": spaces.Box(0, 1, (actions,), np.int8)})
        self._act_space = spaces.Discrete(actions)
        self._rng = random.Random()
        self.play = KitPlay(self.shape)

    def observation_space(self, agent: str) -> Any:
        return self._obs_space

    def action_space(self, agent: str) -> Any:
        return self._act_space

    def _observe(self, seat: int, legal: list[int]) -> dict[str, Any]:
        mask = np.zeros(self.shape.num_actions, np.int8)
        mask[legal] = 1
        if self.board is not None:
            obs: Any = board_tensor(self.game, self.board, self.play.state, seat).reshape(self.board.shape)
        else:
            obs = np.zeros(self.text_length, np.uint8)
            text = self.play.observation(seat).encode("ascii", "backslashreplace")[:self.text_length]
            obs[:len(text)] = np.frombuffer(text, np.uint8)
        return {"observation": obs, "action_mask": mask}

    def _resolve_chance(self) -> None:
        while self.play.current() == CHANCE_ID:
            outcomes = self.play.chance_outcomes()
            x, total, code = self._rng.random(), 0.0, outcomes[-1][0]
            for c, p in outcomes:
                total += p
                if x < total:
                    code = c
                    break
            self.play.step(CHANCE_ID, code)

    def render(self) -> str | None:
        text = self.game.describe_state(self.play.state)
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        pass


class KitAECEnv(_Spaces, _AECBase):
    """A kit game as a PettingZoo AEC environment (see the module docstring)."""

    def __init__(self, game: Any, render_mode: str | None = None):
        super().__init__()
        self._setup(game, render_mode)
        self.metadata = {"render_modes": ["ansi", "human"], "name": f"playtest_{game.name}",
                         "is_parallelizable": False}
        self._pending: dict[int, int] = {}

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        self._rng = random.Random(seed)
        self.play = KitPlay(self.shape)
        self.agents = list(self.possible_agents)
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos = {a: {"seat": s.name} for a, s in zip(self.agents, self.game.seats())}
        self._pending = {}
        self._steps = 0
        self._resolve_chance()
        self._select()

    def _acting(self) -> list[int]:
        """The seats that act now: one, or at a simultaneous node those with an order to give."""
        who = self.play.current()
        if who == SIM:
            return [s for s in range(self.shape.num_players)
                    if self.play.legal_ids(s) != [self.shape.pass_id] and s not in self._pending]
        return [who] if who >= 0 else []

    def _select(self) -> None:
        acting = self._acting()
        if acting:
            self.agent_selection = self.possible_agents[acting[0]]

    def _legal(self, seat: int) -> list[int]:
        if self.play.current() == TERMINAL or seat not in self._acting():
            return []
        return self.play.legal_ids(seat)

    def observe(self, agent: str) -> dict[str, Any]:
        seat = self._index[agent]
        return self._observe(seat, self._legal(seat))

    def step(self, action: Any) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        seat = self._index[agent]
        code = action_id(action, agent)
        if code not in self._legal(seat):
            raise ValueError(f"{self.game.name}: action {code} is not legal for {agent} here")
        self._cumulative_rewards[agent] = 0.0
        if self.play.current() == SIM:
            self._pending[seat] = code
            if self._acting():
                self._select()
                return
            codes = [self._pending.get(s, self.shape.pass_id) for s in range(self.shape.num_players)]
            self._pending = {}
            self.play.step_joint(codes)
        else:
            self.play.step(seat, code)
        self._steps += 1
        self._resolve_chance()
        if self.play.current() == TERMINAL:
            for a, r in zip(self.possible_agents, self.play.returns()):
                self.rewards[a] = r
                self.terminations[a] = True
        elif self._steps >= self.shape.max_length:
            for a in self.agents:
                self.truncations[a] = True
        else:
            self.rewards = {a: 0.0 for a in self.agents}
        self._accumulate_rewards()
        if self.play.current() == TERMINAL or self._steps >= self.shape.max_length:
            self.agent_selection = self.agents[0]
        else:
            self._select()


class KitParallelEnv(_Spaces, _ParallelBase):
    """A kit game with simultaneous steps as a PettingZoo parallel environment: at each
    simultaneous step every seat that has an order to give gives its whole order at once (one
    id, or, where the orders cannot be listed, its parts: see the module docstring); at the
    other steps only the seat to move has legal actions (the others' masks are empty and their
    actions are ignored)."""

    def __init__(self, game: Any, render_mode: str | None = None, order_parts: int | None = None):
        super().__init__()
        self._setup(game, render_mode)
        if self.shape.form == "sequential":
            raise ValueError(f"{game.name} has no simultaneous steps: use playtest.interop.pettingzoo.env")
        self.metadata = {"render_modes": ["ansi", "human"], "name": f"playtest_{game.name}_parallel"}
        self.order_parts = 0
        if self.shape.form == "hidden_orders":         # whole orders as their parts
            if order_parts is not None and (type(order_parts) is not int or not 1 <= order_parts <= 1000):
                raise ValueError(f"order_parts must be a whole number from 1 to 1000, not {order_parts!r}")
            self.order_parts = order_parts or _longest_order(self.shape)
            self._none = self.shape.encoding.capacity          # the "no part" value of an entry
            slot = spaces.Box(0, 1, (self._none + 1,), np.int8)
            self._act_space = spaces.MultiDiscrete([self._none + 1] * self.order_parts)
            self._obs_space = spaces.Dict({"observation": self._inner,
                                           "action_mask": spaces.Tuple((slot,) * self.order_parts)})

    def _simultaneous(self) -> bool:
        return self.game.to_move(self.play.state) == SIMULTANEOUS

    def _legal(self, seat: int) -> list[int]:
        play = self.play
        who = play.current()
        if who == TERMINAL:
            return []
        if self.order_parts and self._simultaneous():
            if seat not in self.game.pending_seats(play.state):
                return []
            return sorted(self.shape.encoding.ids(self.game.legal_actions(play.state, seat)))
        if who == SIM:                                   # one-action or complete orders: ids of the node
            return play.legal_ids(seat)
        return play.legal_ids(seat) if seat == who else []

    def _observe(self, seat: int, legal: list[int]) -> dict[str, Any]:
        seen = super()._observe(seat, legal)
        if self.order_parts:
            mask = np.zeros(self._none + 1, np.int8)
            mask[legal] = 1
            mask[self._none] = 1
            seen["action_mask"] = (mask,) * self.order_parts
        return seen

    def _all(self) -> dict[str, Any]:
        return {a: self._observe(i, self._legal(i)) for i, a in enumerate(self.agents)}

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> tuple[dict, dict]:
        self._rng = random.Random(seed)
        self.play = KitPlay(self.shape)
        self.agents = list(self.possible_agents)
        self._steps = 0
        self._resolve_chance()
        return self._all(), {a: {"seat": s.name} for a, s in zip(self.agents, self.game.seats())}

    def _give_order(self, seat: int, given: Any) -> None:
        """``seat``'s whole order from its parts' ids (see the module docstring)."""
        game, play, encoding = self.game, self.play, self.shape.encoding
        given = None if given is None else np.asarray(given)
        if given is not None and given.dtype.kind not in "iu":
            raise ValueError(f"{self.possible_agents[seat]}'s order must be whole-number part ids, "
                             f"not {given.dtype}")
        codes = [] if given is None else [int(x) for x in given.reshape(-1)[:self.order_parts]]
        for code in codes:
            if not 0 <= code < self._none:
                continue
            try:
                action = encoding.decode(code)
            except ValueError:
                continue
            if game.check(play.state, action, seat) is None and self._part(seat, code, action):
                return
        plan = None
        for _ in range(4 * self.shape.max_parts + self.order_parts):
            state = play.state
            listed = game.legal_actions(state, seat)
            if not listed:
                return
            done = [a for a in listed if getattr(a, "kind", None) in self.shape.completing
                    and _completes(game, state, a, seat)]
            if done:
                part = done[0]
            elif plans_orders(game):
                plan = plan if plan is not None else game.complete_order(state, seat, self._rng)
                part = game.step_toward(state, seat, plan)
            else:
                part = self._rng.choice(listed)
            if self._part(seat, encoding.encode(part), part):
                return

    def _part(self, seat: int, code: int, action: Any) -> bool:
        """Play a part of ``seat``'s order: whether it completed the order."""
        before = self.play.state
        self.play._play(seat, code, action)
        return order_done(self.game, before, self.play.state, seat)

    def step(self, actions: dict[str, Any]) -> tuple[dict, dict, dict, dict, dict]:
        play, n = self.play, self.shape.num_players
        who = play.current()
        if self.order_parts and who != TERMINAL and self._simultaneous():
            for s in self.game.pending_seats(play.state):
                self._give_order(s, actions.get(self.possible_agents[s]))
        elif who == SIM:
            legal = {s: self._legal(s) for s in range(n)}
            codes = []
            for s in range(n):
                code = action_id(actions.get(self.possible_agents[s], self.shape.pass_id), self.possible_agents[s])
                codes.append(code if code in legal[s] else (legal[s][0] if legal[s] else self.shape.pass_id))
            play.step_joint(codes)
        elif who >= 0:
            agent = self.possible_agents[who]
            if agent not in actions or action_id(actions[agent], agent) not in self._legal(who):
                raise ValueError(f"{self.game.name}: {agent} is to move and needs a legal action")
            play.step(who, action_id(actions[agent], agent))
        self._steps += 1
        self._resolve_chance()
        over = play.current() == TERMINAL
        cut = not over and self._steps >= self.shape.max_length
        returns = play.returns() if over else [0.0] * n
        observations = self._all()
        rewards = {a: returns[i] for i, a in enumerate(self.agents)}
        terminations = {a: over for a in self.agents}
        truncations = {a: cut for a in self.agents}
        infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        if over or cut:
            self.agents = []
        return observations, rewards, terminations, truncations, infos
