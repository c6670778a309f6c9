"""A game's row in the lab's table: what one played game measured (who won and why, its length,
branching, lead changes, decisiveness, each seat's result, score and return), headed by the run's
parameter columns. The columns are documented on :class:`playtest.lab.SimulationResult`.
"""

from __future__ import annotations

import functools
from typing import TYPE_CHECKING, Any

from ..rules import Game
from ._standings import reading_measures
from .metrics import decisiveness, lead_changes

if TYPE_CHECKING:
    from ._play import Job, _Plan

__all__ = ["ROW_COLUMNS"]


def _cap_draw(game: Game, reason: str) -> bool:
    """A draw by the game's own turn cap: its reason names a ``max_...`` parameter."""
    return any(spec.name.startswith("max_") and spec.name in reason for spec in game.Params.specs())


def _plan_cap_draw(plan: "_Plan", reason: str) -> bool:
    """:func:`_cap_draw` of the plan's game, kept by reason (a game's draws give the same few reasons)."""
    known = plan.cap_draws.get(reason)
    if known is None:
        if len(plan.cap_draws) > 256:
            plan.cap_draws.clear()
        known = plan.cap_draws[reason] = _cap_draw(plan.job.game, reason)
    return known


def _row(job: Job, plan: "_Plan", index: int, seed: int, state: Any, timeout: bool, steps: int, chances: int,
         branching: int, counted: int, first: Any, tops: list[frozenset[int]], leaders: list[int | None],
         actions: list[tuple[bool, Any]] | None, readings: list[Any] | None = None) -> dict[str, Any]:
    """The row of one game (``actions``: the moves, when recorded; ``final`` is then the state reached).
    ``readings``, when given, stands for ``tops`` and ``leaders``: the running scores at every turn end
    (:func:`~._standings.reading_measures`)."""
    game = job.game
    seats = plan.seats
    outcome = None if timeout else game.outcome(state)
    if outcome is not None:
        winners = tuple(outcome.winners)
        reason = outcome.reason
        scores = outcome.scores
        paid = outcome.returns(seats)                # payoffs (chips), or +1/-1/0
    else:
        winners, scores, paid = (), None, None
        reason = f"stopped after {job.max_steps} steps (max_steps)"
    if readings is None:
        changes = lead_changes(leaders) if tops else None
        decisive = decisiveness(tops, winners, seats) if tops else None
    else:
        changes, decisive = reading_measures(readings, winners, seats)
    row: dict[str, Any] = {"game": index, "seed": seed, **plan.head,
                           "first_seat": first,
                           "winners": winners,
                           "draw": not winners,
                           "timeout": timeout or (not winners and _plan_cap_draw(plan, reason)),
                           "stalled": timeout,
                           "reason": reason,
                           "length": steps,
                           "decisions": steps - chances,
                           "branching": branching / counted if counted else None,
                           "branching_counted": counted,
                           "lead_changes": changes,
                           "decisiveness": decisive,
                           "paid": outcome is not None and outcome.payoffs is not None}
    for s, (result, score, paid_s) in enumerate(plan.seat_columns):
        row[result] = "win" if s in winners else ("draw" if not winners else "loss")
        row[score] = float(scores[s]) if scores is not None else None
        row[paid_s] = paid[s] if paid is not None else None
    if actions is not None:
        row["actions"] = actions
        row["final"] = state
    return row


#: the columns a row writes itself (and the seats' ``result_<seat>``, ``score_<seat>``, ``return_<seat>``)
ROW_COLUMNS = frozenset({"game", "seed", "first_seat", "winners", "draw", "timeout", "stalled", "reason", "length",
                         "decisions", "branching", "branching_counted", "lead_changes", "decisiveness", "paid",
                         "actions", "final"})


def _head_column(name: str) -> str:
    """A parameter's column in a row: its name, or ``"<name> (parameter)"`` when a measure has the name
    (a game's ``length`` parameter would otherwise be overwritten by the game's length).

    >>> _head_column("wall_budget"), _head_column("length"), _head_column("score_1")
    ('wall_budget', 'length (parameter)', 'score_1 (parameter)')
    """
    if name in ROW_COLUMNS or name.partition("_")[0] in ("result", "score", "return") and \
            name.partition("_")[2].isdigit():
        return f"{name} (parameter)"
    return name


@functools.lru_cache(maxsize=32)
def _seat_columns(seats: int) -> tuple[tuple[str, str, str], ...]:
    """The names of each seat's columns of a row: result, score, return."""
    return tuple((f"result_{s}", f"score_{s}", f"return_{s}") for s in range(seats))
