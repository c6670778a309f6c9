"""The lab's measures, as plain functions of a game's trace or of a table of games.

Every interval is a 95% interval: Wilson's score interval for a share of games
(it stays inside [0, 1] and behaves with few games), Student's t for a mean.

Measures of one game (computed while it is played):

* **branching**: the mean number of legal actions at the game's decision
  steps (``len(game.legal_actions(state, seat))`` for the seat deciding; chance
  steps are not decisions), counted at a sample of them: about one decision in
  ``BRANCHING_SAMPLE`` (32), spaced by the game's seed, so the same games give the
  same sample. Listing every legal action at every decision only to count them
  costs more than playing the game; pooled over many games the sample gives the
  same mean, with its interval.
* **leader**: at the end of each turn (a step after which another seat, or
  chance, is to act, or the game is over), the seat whose *running score* is
  strictly the highest (``None`` on a tie at the top). Running scores come from the
  game's optional ``running_scores(state)`` (a score per seat, higher is ahead) or
  the ``running_scores=`` argument of :func:`playtest.simulate`; without them there
  is no leader, and lead changes and decisiveness are missing (NaN). Positions in
  the middle of a seat's turn (an order built part by part, a move step by step)
  are not read: nobody has handed over yet.
* **lead changes**: how many times the leader differs from the previous
  leader (turns without a leader are skipped: A, tie, A is no change).
* **decisiveness** (games with a winner): with L turns, let t be the first
  turn from which, at the end of every later turn, the top running score belongs
  to winners only and not to every seat (the eventual winner is ahead and stays
  ahead); decisiveness is ``1 - (t - 1) / L``: 1 when the winner led from the
  first turn to the end, 0.5 when it took the lead for good halfway through,
  0 when it was not ahead even after the last turn (a tie-break, a sudden win).

>>> lead_changes([0, 0, None, 1, 1, 0])
2
>>> decisiveness([{1}, {0}, {0, 1}, {0}, {0}], winners=(0,), seats=2)
0.4
"""

from __future__ import annotations

import math
from typing import Any, Iterable, Sequence

from .._optional import need

__all__ = ["wilson", "mean_interval", "ratio_interval", "leader", "lead_changes", "decisiveness", "teams",
           "first_player_advantage"]

Z95 = 1.959963984540054


def wilson(successes: int, n: int, z: float = Z95) -> tuple[float, float]:
    """The 95% Wilson score interval of a share ``successes / n``.

    >>> [round(x, 4) for x in wilson(3, 4)]
    [0.3006, 0.9544]
    >>> wilson(0, 0)
    (0.0, 1.0)
    """
    if n == 0:
        return (0.0, 1.0)
    p = successes / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return (max(0.0, centre - half), min(1.0, centre + half))


def _t95(df: int) -> float:
    t = need("scipy.stats", "a lab statistic").t
    return float(t.ppf(0.975, df))


def mean_interval(values: Iterable[float]) -> tuple[float, float, float, int]:
    """Mean, 95% Student-t interval and count of the values that are not missing.

    >>> m, low, high, n = mean_interval([1, 2, 3, None])
    >>> m, round(low, 4), round(high, 4), n
    (2.0, -0.4841, 4.4841, 3)
    """
    xs = [float(v) for v in values if v is not None and not (isinstance(v, float) and math.isnan(v))]
    n = len(xs)
    if n == 0:
        return (math.nan, math.nan, math.nan, 0)
    mean = sum(xs) / n
    if n == 1:
        return (mean, math.nan, math.nan, 1)
    sd = math.sqrt(sum((x - mean) ** 2 for x in xs) / (n - 1))
    half = _t95(n - 1) * sd / math.sqrt(n)
    return (mean, mean - half, mean + half, n)


def ratio_interval(totals: Sequence[float], counts: Sequence[float]) -> tuple[float, float, float, int]:
    """Pooled mean ``sum(totals) / sum(counts)`` over games, with a 95% interval from the
    ratio estimator's standard error (each game is one sample of a total and a count).

    The branching factor is pooled this way: every decision step of every game weighs the same.

    >>> m, low, high, n = ratio_interval([10, 30], [5, 10])
    >>> round(m, 4), n
    (2.6667, 2)
    """
    pairs = [(float(t), float(c)) for t, c in zip(totals, counts) if c]
    n = len(pairs)
    if n == 0:
        return (math.nan, math.nan, math.nan, 0)
    total, count = sum(t for t, _ in pairs), sum(c for _, c in pairs)
    ratio = total / count
    if n == 1:
        return (ratio, math.nan, math.nan, 1)
    mean_count = count / n
    se = math.sqrt(sum((t - ratio * c) ** 2 for t, c in pairs) / (n * (n - 1))) / mean_count
    half = _t95(n - 1) * se
    return (ratio, ratio - half, ratio + half, n)


def leader(scores: Sequence[float] | None) -> int | None:
    """The seat strictly ahead on ``scores``, or ``None`` (a tie at the top, or no scores).

    >>> leader((3, 5, 1)), leader((5, 5, 1)), leader(None)
    (1, None, None)
    """
    if not scores:
        return None
    top = max(scores)
    at_top = [s for s, v in enumerate(scores) if v == top]
    return at_top[0] if len(at_top) == 1 else None


def top_seats(scores: Sequence[float]) -> frozenset[int]:
    """The seats with the highest score."""
    top = max(scores)
    return frozenset(s for s, v in enumerate(scores) if v == top)


def lead_changes(leaders: Sequence[int | None]) -> int:
    """How many times the leader changes, steps without a leader skipped.

    >>> lead_changes([None, 0, None, 0, 1, 1, None, 0])
    2
    """
    changes, last = 0, None
    for who in leaders:
        if who is None:
            continue
        if last is not None and who != last:
            changes += 1
        last = who
    return changes


def decisiveness(tops: Sequence[Iterable[int]], winners: Iterable[int], seats: int) -> float | None:
    """How early the eventual winners lead for good: ``1 - (t - 1) / L`` (see the module docstring).

    ``tops`` holds, at the end of each of the L turns (the lab's trace; any sequence of
    positions will do), the seats with the highest running score. ``None`` for a game
    without a winner or without turns.

    >>> decisiveness([{0}, {0}, {0}, {0}], winners=(0,), seats=2)
    1.0
    >>> decisiveness([{0}, {1}, {0}, {1}], winners=(0,), seats=2)
    0.0
    >>> decisiveness([{1}, {0, 1}], winners=(0, 1), seats=3)
    1.0
    """
    won = set(winners)
    steps = len(tops)
    if not won or steps == 0:
        return None
    first = steps + 1              # t: the first step of the winners' last unbroken lead (1-based)
    for k in range(steps, 0, -1):
        top = set(tops[k - 1])
        if top <= won and len(top) < seats:
            first = k
        else:
            break
    return 1 - (first - 1) / steps


def teams(winner_sets: Sequence[Iterable[int]], seats: int) -> list[tuple[int, ...]]:
    """The sides of the table, found from who won together: seats that won exactly the same
    games (at least one) form a team; every other seat is a side of its own. When
    all seats would form one team (everyone always shares the wins) each is its own side.

    >>> teams([(1, 2, 3), (0,), (1, 2, 3)], seats=4)
    [(0,), (1, 2, 3)]
    >>> teams([(0,), (0, 1), (1,)], seats=2)
    [(0,), (1,)]
    """
    won: list[frozenset[int]] = [frozenset(g for g, ws in enumerate(winner_sets) if s in set(ws))
                                 for s in range(seats)]
    sides: dict[Any, list[int]] = {}
    for s in range(seats):
        key = won[s] if won[s] else ("alone", s)
        sides.setdefault(key, []).append(s)
    groups = [tuple(members) for members in sides.values()]
    if len(groups) == 1 and seats > 1:
        groups = [(s,) for s in range(seats)]
    return sorted(groups)


def first_player_advantage(first_seats: Sequence[int | None], winner_sets: Sequence[Iterable[int]],
                           seats: int) -> dict[str, float]:
    """The first mover's win rate against its fair share, with a 95% interval.

    Over the games whose first decision was one seat's (not a simultaneous step):
    ``rate`` is the share won by the seat that moved first (a team win counts),
    ``fair`` the share a seat wins on average in those same games (the mean of
    ``len(winners) / seats``: 1/2 in a two-player game without draws), and
    ``advantage = rate - fair`` with Wilson's interval of ``rate`` shifted by ``fair``.

    >>> fpa = first_player_advantage([0, 0, 1, 0], [(0,), (1,), (1,), ()], seats=2)
    >>> fpa["rate"], fpa["fair"], fpa["advantage"], fpa["games"]
    (0.5, 0.375, 0.125, 4)
    """
    pairs = [(f, set(w)) for f, w in zip(first_seats, winner_sets)
             if f is not None and not (isinstance(f, float) and math.isnan(f))]
    n = len(pairs)
    if n == 0:
        return {"rate": math.nan, "fair": math.nan, "advantage": math.nan, "low": math.nan, "high": math.nan,
                "games": 0}
    wins = sum(1 for f, w in pairs if int(f) in w)
    fair = sum(len(w) for _, w in pairs) / (seats * n)
    low, high = wilson(wins, n)
    return {"rate": wins / n, "fair": fair, "advantage": wins / n - fair, "low": low - fair, "high": high - fair,
            "games": n}
