"""The lab: let bots play many games and compare parameter values.

>>> import playtest
>>> from playtest.bots import RandomBot
>>> result = playtest.simulate(playtest.load("eat_thyself"), RandomBot(1), games=20, seed=1)
>>> result.games
20
>>> sum(result.wins.values()) + result.draws
20
"""

from __future__ import annotations

import math
import random
import time
from dataclasses import dataclass, field
from typing import Any, Callable, Iterable, Mapping

from .bots import choose_for
from .rules import CHANCE, SIMULTANEOUS, Game, load

__all__ = ["simulate", "sweep", "play_game", "SimulationResult", "SweepResult"]

BotSpec = Any  # a bot, a {seat: bot} mapping, a list of bots by seat, or a zero-argument factory


def _seat_bots(bots: BotSpec, seats: int) -> list[Any]:
    if isinstance(bots, Mapping):
        missing = [s for s in range(seats) if s not in bots]
        if missing:
            raise ValueError(f"no bot for seat(s) {missing}")
        return [bots[s] for s in range(seats)]
    if isinstance(bots, (list, tuple)):
        if len(bots) != seats:
            raise ValueError(f"{len(bots)} bots for {seats} seats")
        return list(bots)
    if callable(bots) and not hasattr(bots, "choose"):
        return [bots() for _ in range(seats)]
    return [bots] * seats


def play_game(game: Game, bots: BotSpec, rng: random.Random | None = None,
              start: Any = None, max_steps: int = 1_000_000) -> tuple[Any, int]:
    """Play one game with bots from ``start`` (default: the set-up); returns (final state, steps)."""
    rng = rng or random.Random()
    players = _seat_bots(bots, len(game.seats()))
    state = game.initial_state() if start is None else start
    steps = 0
    to_move, apply, secrets = game.to_move, game.apply, game.has_secrets
    while steps < max_steps:
        mover = to_move(state)
        if mover is None:
            return state, steps
        if mover == CHANCE:
            action = game.chance_outcome(state, rng)
        elif mover == SIMULTANEOUS:   # seats submit one by one; each sees only its own knowledge
            seat = game.pending_seats(state)[0]
            action = choose_for(players[seat], game, state, seat, rng)
        elif secrets:
            action = choose_for(players[mover], game, state, mover, rng)
        else:                         # nothing hidden: the bot may have the state itself (fast path)
            action = players[mover].choose(game, state)
        state = apply(state, action, check=False)
        steps += 1
    raise RuntimeError(f"{game.name}: no end after {max_steps} steps (check the turn cap parameter)")


def _wilson(wins: int, n: int, z: float = 1.96) -> tuple[float, float]:
    if n == 0:
        return (0.0, 1.0)
    p = wins / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return (max(0.0, centre - half), min(1.0, centre + half))


@dataclass
class SimulationResult:
    """Results of many bot games: wins by seat, draws, lengths, and 95% intervals."""

    game: Game
    games: int
    wins: dict[int, int]
    draws: int
    steps: list[int] = field(default_factory=list)
    reasons: dict[str, int] = field(default_factory=dict)
    seconds: float = 0.0
    scores: list[tuple] = field(default_factory=list)

    def win_rate(self, seat: int) -> float:
        """Share of games won by ``seat`` (a team win counts for each member)."""
        return self.wins.get(seat, 0) / self.games if self.games else 0.0

    @property
    def draw_rate(self) -> float:
        return self.draws / self.games if self.games else 0.0

    def rows(self) -> list[dict[str, Any]]:
        """One row per seat: name, wins, win rate, and its 95% Wilson interval."""
        rows = []
        for seat, info in enumerate(self.game.seats()):
            wins = self.wins.get(seat, 0)
            low, high = _wilson(wins, self.games)
            rows.append({"seat": seat, "name": info.name, "wins": wins, "win_rate": self.win_rate(seat),
                         "low": low, "high": high})
        return rows

    def _repr_markdown_(self) -> str:
        lines = [f"**{self.game.title}**: {self.games} games, {self.draws} draws "
                 f"({self.draw_rate:.0%}), mean length {self.mean_steps:.0f} steps",
                 "", "| seat | wins | win rate | 95% interval |", "| --- | --- | --- | --- |"]
        for row in self.rows():
            lines.append(f"| {row['name']} | {row['wins']} | {row['win_rate']:.0%} | "
                         f"{row['low']:.0%}–{row['high']:.0%} |")
        return "\n".join(lines)

    @property
    def mean_steps(self) -> float:
        return sum(self.steps) / len(self.steps) if self.steps else 0.0

    def __repr__(self) -> str:
        rates = ", ".join(f"{r['name']}: {r['win_rate']:.0%}" for r in self.rows())
        return f"<SimulationResult {self.game.name}, {self.games} games: {rates}, draws {self.draw_rate:.0%}>"


def simulate(game: Game | str, bots: BotSpec = None, games: int = 100, seed: int | None = 0,
             **params: Any) -> SimulationResult:
    """Let ``bots`` play ``games`` games of ``game`` and count who wins.

    ``bots`` is one bot for every seat, a list or ``{seat: bot}`` mapping, or
    a factory called once per seat; by default random bots. ``seed`` makes the
    chance steps (and default bots) repeatable.
    """
    from .bots import RandomBot
    if isinstance(game, str):
        game = load(game, **params)
    elif params:
        game = game.with_params(**params)
    if bots is None:
        bots = [RandomBot(None if seed is None else seed * 1000 + s) for s in range(len(game.seats()))]
    players = _seat_bots(bots, len(game.seats()))
    rng = random.Random(seed)
    result = SimulationResult(game=game, games=games, wins={}, draws=0)
    started = time.perf_counter()
    for _ in range(games):
        state, steps = play_game(game, players, rng)
        outcome = game.outcome(state)
        result.steps.append(steps)
        result.reasons[outcome.reason] = result.reasons.get(outcome.reason, 0) + 1
        if outcome.scores is not None:
            result.scores.append(outcome.scores)
        if outcome.is_draw:
            result.draws += 1
        for seat in outcome.winners:
            result.wins[seat] = result.wins.get(seat, 0) + 1
    result.seconds = time.perf_counter() - started
    return result


@dataclass
class SweepResult:
    """Simulation results for each value of one parameter."""

    name: str
    values: list[Any]
    results: list[SimulationResult]

    def _repr_markdown_(self) -> str:
        seats = self.results[0].game.seats()
        head = "| " + self.name + " | " + " | ".join(s.name for s in seats) + " | draws | mean steps |"
        lines = [head, "|" + " --- |" * (len(seats) + 3)]
        for value, res in zip(self.values, self.results):
            rates = " | ".join(f"{res.win_rate(i):.0%}" for i in range(len(seats)))
            lines.append(f"| {value} | {rates} | {res.draw_rate:.0%} | {res.mean_steps:.0f} |")
        return "\n".join(lines)

    def rows(self) -> list[dict[str, Any]]:
        out = []
        for value, res in zip(self.values, self.results):
            row = {self.name: value, "draws": res.draw_rate, "mean_steps": res.mean_steps}
            for seat in res.rows():
                row[seat["name"]] = seat["win_rate"]
            out.append(row)
        return out


def sweep(game: str, name: str, values: Iterable[Any], bots: BotSpec = None, games: int = 100,
          seed: int | None = 0, **params: Any) -> SweepResult:
    """Simulate ``game`` once per value of parameter ``name``: "is it fairer with a budget of 10?"

    ``bots`` may be a factory ``lambda: [bot_for_seat0, ...]`` so every value
    starts with fresh bots.
    """
    values = list(values)
    results = []
    for value in values:
        players = bots() if callable(bots) and not hasattr(bots, "choose") and not isinstance(bots, type) else bots
        results.append(simulate(load(game, **{**params, name: value}), players, games=games, seed=seed))
    return SweepResult(name, values, results)

