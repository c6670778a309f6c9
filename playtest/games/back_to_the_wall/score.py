"""The end of the game: board scores, board places and points, garnets, the overall ranking (B.1 §12-16).

>>> place_points([10, 7, 10, 2], (6, 4, 2, 1), "average")      # two tied for first: (6 + 4) / 2 each
([1, 3, 1, 4], [5.0, 2.0, 5.0, 1.0])
>>> place_points([5, 5, 5, 0], (6, 4, 2, 1), "average")[1]     # three tied for first: (6 + 4 + 2) / 3
[4.0, 4.0, 4.0, 1.0]
"""

from __future__ import annotations

from typing import NamedTuple, Sequence

from ...geometry import popcount
from .params import BackToTheWallParams

__all__ = ["BoardScore", "FinalScore", "place_points", "board_scores", "final_score"]


def place_points(scores: Sequence[float], rank_points: Sequence[int], tie_points: str) -> tuple[list[int], list[float]]:
    """Each player's place (1 = first; tied players share the best of their places) and points (B.1 §13).

    Tied players share the average of the points of the places they occupy
    (``tie_points = "average"``), or all get the highest or the lowest of them.
    """
    order = sorted(range(len(scores)), key=lambda s: -scores[s])
    places = [0] * len(scores)
    points = [0.0] * len(scores)
    i = 0
    while i < len(order):
        j = i
        while j + 1 < len(order) and scores[order[j + 1]] == scores[order[i]]:
            j += 1
        shared = [rank_points[k] if k < len(rank_points) else 0 for k in range(i, j + 1)]
        value = {"average": sum(shared) / len(shared), "highest": max(shared), "lowest": min(shared)}[tie_points]
        for k in range(i, j + 1):
            places[order[k]] = i + 1
            points[order[k]] = float(value)
        i = j + 1
    return places, points


class BoardScore(NamedTuple):
    """One board at the end (or so far): captured cells, garnet bonus, score, place and points per seat."""

    cells: tuple[int, ...]
    bonus: tuple[int, ...]
    score: tuple[int, ...]
    places: tuple[int, ...]
    points: tuple[float, ...]


class FinalScore(NamedTuple):
    """The whole game's result: per board, totals, garnets, overall places, the winners and candidates."""

    boards: tuple[BoardScore, ...]   # a BoardScore per board
    totals: tuple[float, ...]        # points over the three boards, per seat
    garnets: tuple[int, ...]         # garnets held at the end, per seat
    places: tuple[int, ...]          # overall place per seat (1 = first; tied players share it)
    winners: tuple[int, ...]         # the Token of Life: every seat in first place
    candidates: tuple[int, ...]      # the Elimination Candidate(s): every seat in last place


def board_scores(owned: Sequence[Sequence[int]], flags: Sequence[Sequence[Sequence[int]]],
                 placed: Sequence[Sequence[Sequence[int]]], p: BackToTheWallParams,
                 with_bonus: bool = True) -> tuple[BoardScore, ...]:
    """Each board's captured cells, garnet bonus (B.1 §16), score, places and points (B.1 §12-13)."""
    result = []
    seats = p.num_players
    for b in range(3):
        cells = tuple(popcount(owned[b][s]) for s in range(seats))
        bonus = tuple(sum(placed[s][b][r - 1] for r in flags[s][b]) if with_bonus and p.garnet_bonus_enabled
                      else 0 for s in range(seats))
        score = tuple(c + x for c, x in zip(cells, bonus))
        places, points = place_points(score, p.rank_points, p.tie_points)
        result.append(BoardScore(cells, bonus, score, tuple(places), tuple(points)))
    return tuple(result)


def final_score(owned: Sequence[Sequence[int]], flags: Sequence[Sequence[Sequence[int]]],
                placed: Sequence[Sequence[Sequence[int]]], p: BackToTheWallParams) -> FinalScore:
    """The overall result (B.1 §14-16): totals, garnets, places with the tie-breaks, winners, candidates.

    Equal totals are compared by ``final_tiebreak``: the highest points on any
    single board (``max_board``), then the points on each named board in turn;
    players still tied share their place (or the lower seat goes first with
    ``final_tie_policy = "seat_order"``).
    """
    boards = board_scores(owned, flags, placed, p)
    seats = p.num_players
    totals = tuple(sum(bs.points[s] for bs in boards) for s in range(seats))
    garnets = []
    for s in range(seats):
        sole = sum(1 for bs in boards if bs.places[s] == 1 and bs.places.count(1) == 1)
        paid = sum(1 for b in range(3) for r in flags[s][b]
                   if p.garnet_paid_without_walls or placed[s][b][r - 1] > 0)
        garnets.append(p.starting_garnets - paid * p.garnet_bonus_cost + sole * p.garnet_for_sole_first)

    keys = [_rank_key(boards, p, s) for s in range(seats)]
    places = [1 + sum(1 for t in range(seats) if keys[t] > keys[s]) for s in range(seats)]
    winners = tuple(s for s in range(seats) if places[s] == 1)
    last = max(places)
    candidates = tuple(s for s in range(seats) if places[s] == last)
    return FinalScore(boards, totals, tuple(garnets), tuple(places), winners, candidates)


def _rank_key(boards: Sequence[BoardScore], p: BackToTheWallParams, s: int, skip: int = -1) -> tuple[float, ...]:
    """Seat ``s``'s standing in the overall ranking (B.1 §14-15), higher is better: its points over the
    boards (all of them, or all but board ``skip``), then the ``final_tiebreak`` values (a tie-break on
    the skipped board left out), then the lower seat first with ``final_tie_policy = "seat_order"``."""
    kept = [bs for b, bs in enumerate(boards) if b != skip]
    values: list[float] = [sum(bs.points[s] for bs in kept)]
    for rule in p.final_tiebreak:
        if rule == "max_board":
            values.append(max(bs.points[s] for bs in kept))
        elif p.board_names.index(rule) != skip:
            values.append(boards[p.board_names.index(rule)].points[s])
    if p.final_tie_policy == "seat_order":
        values.append(-s)
    return tuple(values)


def deciding_boards(result: FinalScore, p: BackToTheWallParams) -> tuple[int, ...]:
    """The boards that decide the winner: without a board's points (and tie-breaks), the Token of Life
    would go to someone else (or be shared differently).

    >>> from .params import BackToTheWallParams
    >>> p = BackToTheWallParams()
    >>> boards = tuple(BoardScore((), (), (), (), points) for points in ((6, 4, 2, 1), (4, 6, 2, 1), (6, 4, 2, 1)))
    >>> result = FinalScore(boards, (16, 14, 6, 3), (), (1, 2, 3, 4), (0,), (3,))
    >>> deciding_boards(result, p)      # without Thrice: 10 all, best boards 6 all, and East is better on Twice
    (2,)
    """
    seats = len(result.totals)
    decided = []
    for skip in range(3):
        keys = [_rank_key(result.boards, p, s, skip) for s in range(seats)]
        best = max(keys)
        if tuple(s for s in range(seats) if keys[s] == best) != result.winners:
            decided.append(skip)
    return tuple(decided)


def show_points(value: float) -> str:
    """Points as the seed writes them, at most two decimals: ``6``, ``1.5``, ``2.33``."""
    return f"{value:.2f}".rstrip("0").rstrip(".")


def ordinal(place: int) -> str:
    return {1: "1st", 2: "2nd", 3: "3rd"}.get(place, f"{place}th")
