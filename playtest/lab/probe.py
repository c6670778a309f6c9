"""``probe``: a searching bot in one seat against the others, over a grid of parameters; where does
one side win almost always, and where does play degenerate (draws, games that only end at the
turn cap, games that do not end)? Each finding comes with a session file of one such game.
"""

from __future__ import annotations

import random
import re
from concurrent.futures import Executor
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Iterable, Mapping

from .._optional import need
from ..bots import bots_for, build
from ..rules import CHANCE, Game, draw_outcome
from ._play import BotSpec, Job, play_one
from ._run import run_jobs
from .compare import two_proportion_test
from .metrics import teams, wilson
from .result import SimulationResult
from .simulation import check_count, run_seed
from .sweep import grid_games, grid_jobs

__all__ = ["probe", "ProbeResult", "Finding", "default_bot", "kind_of", "DEGENERATE"]


def default_bot(game: Game, seat: int) -> str:
    """The name of the bot that plays ``seat`` by default: the game's own first bot that plays
    it, else ``"random"``.

    >>> import playtest
    >>> game = playtest.load("then_there_was_one")
    >>> default_bot(game, 0), default_bot(game, 1), default_bot(playtest.load("eat_thyself"), 0)
    ('greedy_wall', 'greedy_token', 'random')
    """
    for name in bots_for(game):
        if name not in ("random", "mcts") and build(game, name).plays(game, seat):
            return name
    return "random"


#: The kinds of degenerate play a probe reports, with the words its findings use.
DEGENERATE = {"draw": "were draws", "turn cap": "only ended at the turn cap", "stall": "did not end (stopped by max_steps)"}


@dataclass(frozen=True)
class Finding:
    """A parameter set where the searched games show something: one side (a seat or a team) won at
    least the threshold of them (``kind="dominance"``), or at least the ``degenerate`` share of
    them were draws (``"draw"``), only ended at one of the game's ``max_...`` caps (``"turn cap"``)
    or did not end within ``max_steps`` (``"stall"``).

    ``win_rate`` is the share of the games (``share`` says the same for every kind), ``low`` and
    ``high`` its 95% interval, ``baseline`` the same share with the seat's own bot (``None``
    without a baseline); ``session`` a game of that kind, replayable."""

    params: dict
    side: tuple[int, ...]
    who: str
    win_rate: float
    low: float
    high: float
    games: int
    session: Path           # a game of that kind, replayable: playtest.Session.load(session)
    game_index: int
    seed: int
    kind: str = "dominance"
    baseline: float | None = None

    @property
    def share(self) -> float:
        """The share of the searched games this finding takes."""
        return self.win_rate

    @property
    def degenerate(self) -> bool:
        """A draw, turn-cap or stall finding (not a side that dominates)."""
        return self.kind != "dominance"

    def __str__(self) -> str:
        shown = ", ".join(f"{k}={v!r}" for k, v in self.params.items()) or "the parameters as given"
        base = "" if self.baseline is None else f"; with the seat's own bot: {self.baseline:.0%}"
        if self.kind == "dominance":
            what = f"{self.who} won {self.win_rate:.0%} of {self.games} games"
        else:
            what = f"{self.win_rate:.0%} of {self.games} games {DEGENERATE.get(self.kind, self.kind)}"
        return (f"{shown}: {what} (95% interval {self.low:.0%}–{self.high:.0%}){base}; "
                f"game {self.game_index}: {self.session}")


def kind_of(row: Mapping[str, Any]) -> str | None:
    """``"stall"``, ``"turn cap"``, ``"draw"`` or ``None`` (a game with a winner) for a row of games.

    >>> kind_of({"winners": (), "draw": True, "timeout": True, "stalled": True})
    'stall'
    >>> kind_of({"winners": (), "draw": True, "timeout": True, "stalled": False}), kind_of({"winners": (1,)})
    ('turn cap', None)
    """
    if row.get("stalled", False) is True:
        return "stall"
    if tuple(row.get("winners", ())):
        return None
    return "turn cap" if row.get("timeout", False) is True else "draw"


def _mcts(spec: Any) -> Any:
    if spec is None:
        return ("mcts", {"iterations": 100})
    if isinstance(spec, Mapping):
        return ("mcts", dict(spec))
    return spec


def _table_for(game: Game, seat: int, searcher: Any, others: BotSpec) -> dict[int, Any]:
    table: dict[int, Any] = {}
    for s in range(len(game.seats())):
        if s == seat:
            table[s] = searcher
        elif others is None:
            table[s] = default_bot(game, s)
        elif isinstance(others, Mapping):
            table[s] = others[s] if s in others else default_bot(game, s)
        else:
            table[s] = others
    return table


def probe(game: Game | str, seat: int, grid: Mapping[str, Iterable[Any]] | None = None, *, bots: BotSpec = None,
          mcts: Any = None, games: int = 20, threshold: float = 0.9, degenerate: float | None = 0.25,
          baseline: bool = True, seed: Any = 0, path: str | Path = "sessions/probe",
          executor: Executor | None = None, progress: bool = True, max_steps: int = 100_000,
          **params: Any) -> "ProbeResult":
    """Seat a searching bot in ``seat`` against the other seats' bots, for every parameter set of
    ``grid`` (``{parameter: values}``, one or two parameters; none: the game as given).

    ``mcts`` is the searching bot: an :class:`~playtest.bots.MCTSBot`, its options
    (``{"iterations": 50}``) or any bot (default: 100 iterations). ``bots`` are the
    other seats' (one for all, or ``{seat: bot}``); by default each seat's own bot
    (:func:`default_bot`). With ``baseline`` the same games are also played with
    the default bot in ``seat``, to see what the search changes (with the p-value
    of the difference, :func:`playtest.compare`'s test).

    Every parameter set where one side (a seat, or a team that wins together)
    wins at least ``threshold`` of the searched games is a :class:`Finding`,
    with a session file of the first such game it won, written under ``path``
    (created; an existing file is never overwritten): open it with
    ``playtest.Session.load(finding.session)`` and watch it in the table.

    Degenerate play is a finding too: where at least ``degenerate`` of the
    searched games are draws, games that only end at one of the game's ``max_...``
    caps, or games that do not end within ``max_steps`` (stalls), each kind is a
    :class:`Finding` with its share, its interval, the baseline's share and a
    session file of the first such game (``degenerate=None``: not reported).

    >>> import playtest, tempfile
    >>> found = playtest.probe("eat_thyself", 0, {"count_empty_tiles": [True]}, mcts={"iterations": 10},
    ...                        games=4, threshold=0.5, path=tempfile.mkdtemp(), progress=False)
    >>> list(found.table.columns)[:3]
    ['count_empty_tiles', 'seat', 'search']
    >>> all(f.session.exists() for f in found.findings)
    True
    """
    if isinstance(threshold, bool) or not isinstance(threshold, (int, float)) or not 0 < threshold <= 1:
        raise ValueError(f"threshold must be a share of the games, above 0 and at most 1, not {threshold!r}")
    if degenerate is not None and (isinstance(degenerate, bool) or not isinstance(degenerate, (int, float))
                                   or not 0 < degenerate <= 1):
        raise ValueError(f"degenerate must be a share of the games, above 0 and at most 1, or None, "
                         f"not {degenerate!r}")
    games = check_count(games)
    seed = run_seed(seed)
    lists: dict[str, list[Any]] = {name: list(values) for name, values in (grid or {}).items()}
    if len(lists) > 2:
        raise ValueError("probe takes a grid of at most two parameters")
    names = list(lists)
    combos = grid_games(game, lists, params)
    first = combos[0][1]
    if not isinstance(seat, int) or not 0 <= seat < len(first.seats()):
        raise ValueError(f"seat must be a seat of {first.name}: 0 to {len(first.seats()) - 1}, not {seat!r}")
    searcher = _mcts(mcts)
    jobs = [grid_jobs([(combo, g)], names, _table_for(g, seat, searcher, bots), seed, max_steps, None)[0]
            for combo, g in combos]
    if baseline:
        jobs += [grid_jobs([(combo, g)], names, _table_for(g, seat, default_bot(g, seat), bots), seed,
                           max_steps, None)[0] for combo, g in combos]
    rows = run_jobs(jobs, games, executor, progress, desc=f"{first.name} probe")
    searched = [SimulationResult.from_rows(g, r, seed=seed) for (_, g), r in zip(combos, rows)]
    base = [SimulationResult.from_rows(g, r, seed=seed) for (_, g), r in zip(combos, rows[len(combos):])]
    findings = []
    for (combo, g), job, result in zip(combos, jobs, searched):
        for side in teams(list(result.games["winners"]), len(g.seats())):
            won = [i for i, w in enumerate(result.games["winners"]) if set(side) <= set(w)]
            if not won or len(won) / result.n < threshold:
                continue
            low, high = wilson(len(won), result.n)
            session = _write_session(job, won[0], Path(path), _name(g, names, combo, side, won[0]),
                                     f"probe: {result.side_name(side)} won {len(won)} of {result.n} games "
                                     f"with a searching bot in seat {seat} ({g.seats()[seat].name}); "
                                     f"this is game {won[0]}")
            base_share = None
            if baseline:
                base_rows = base[combos.index((combo, g))].games["winners"]
                base_share = sum(1 for w in base_rows if set(side) <= set(w)) / len(base_rows)
            findings.append(Finding(dict(zip(names, combo)), side, result.side_name(side), len(won) / result.n,
                                    low, high, result.n, session, won[0], int(result.games["seed"][won[0]]),
                                    "dominance", base_share))
        if degenerate is not None:
            findings += _degenerate(combo, g, job, result, base[combos.index((combo, g))] if baseline else None,
                                    names, seat, degenerate, Path(path))
    return ProbeResult(first, seat, names, [c for c, _ in combos], searched, base, threshold, findings, degenerate)


def _kinds(result: SimulationResult) -> list[str | None]:
    return [kind_of(row) for row in result.games.to_dict("records")]


def _degenerate(combo: tuple, game: Game, job: Job, result: SimulationResult, base: SimulationResult | None,
                names: list[str], seat: int, share: float, path: Path) -> list[Finding]:
    """The draw, turn-cap and stall findings of one parameter set."""
    kinds = _kinds(result)
    base_kinds = _kinds(base) if base is not None else None
    found = []
    for kind in DEGENERATE:
        which = [i for i, k in enumerate(kinds) if k == kind]
        if not which or len(which) / result.n < share:
            continue
        low, high = wilson(len(which), result.n)
        index = which[0]
        stem = _name(game, names, combo, kind.replace(" ", "_"), index)
        session = _write_session(job, index, path, stem,
                                 f"probe: {len(which)} of {result.n} games {DEGENERATE[kind]} with a searching "
                                 f"bot in seat {seat} ({game.seats()[seat].name}); this is game {index}")
        base_share = base_kinds.count(kind) / len(base_kinds) if base_kinds else None
        found.append(Finding(dict(zip(names, combo)), (), kind, len(which) / result.n, low, high, result.n,
                             session, index, int(result.games["seed"][index]), kind, base_share))
    return found


def _name(game: Game, names: list[str], combo: tuple, what: tuple[int, ...] | str, index: int) -> str:
    """A session file's stem: the game, the parameter values, the side (or kind of play), the game."""
    label = what if isinstance(what, str) else f"seats{'+'.join(map(str, what))}"
    values = "-".join(f"{n}={v}" for n, v in zip(names, combo))
    text = f"{game.name}-{values}-{label}-game{index}" if values else f"{game.name}-{label}-game{index}"
    return re.sub(r"[^A-Za-z0-9_.=+-]", "_", text)


def _free(directory: Path, stem: str) -> Path:
    candidate = directory / f"{stem}.playtest.json"
    k = 2
    while candidate.exists():
        candidate = directory / f"{stem}-{k}.playtest.json"
        k += 1
    return candidate


def _write_session(job: Job, index: int, directory: Path, stem: str, note: str) -> Path:
    """Replay game ``index`` of ``job`` into a new session file; chance results are drawn from the
    game's seed as the lab drew them (forced, and marked so, only if they could not be)."""
    from ..session import Session
    row = play_one(job, index, record=True)
    game = job.game
    directory.mkdir(parents=True, exist_ok=True)
    path = _free(directory, stem)
    session = Session(game, seed=row["seed"], path=path, auto_chance=False)
    mirror = random.Random(row["seed"])      # the session's own draws, followed step by step
    in_step = True
    for is_chance, action in row["actions"]:
        if is_chance:
            if in_step and draw_outcome(game.chance_outcomes(session.state), mirror) == action:
                session.roll()
            else:
                in_step = False
                session.force(action)
        else:
            session.play(action)
    stopped = row.get("stalled", False) is True            # a stall ends wherever max_steps stopped it
    if (not stopped and game.to_move(session.state) == CHANCE) or session.state != row["final"]:
        raise RuntimeError(f"the replay of game {index} into {path} did not reach the same end")
    session.note(note)
    return path


class ProbeResult:
    """What :func:`probe` found: ``table`` (one row per parameter set: the searching seat's win
    rate with its interval, the baseline's, the p-value of the difference, the side that
    dominates if any, the shares of draws, turn-cap games and stalls, and the degenerate play
    found), ``findings`` (:class:`Finding`: ``dominant`` and ``degenerate`` split them), and the
    :class:`SimulationResult` of every set (``searched`` and ``baseline``)."""

    def __init__(self, game: Game, seat: int, params: list[str], combos: list[tuple],
                 searched: list[SimulationResult], baseline: list[SimulationResult], threshold: float,
                 findings: list[Finding], degenerate: float | None = None):
        self.game, self.seat, self.params, self.combos = game, seat, params, combos
        self.searched, self.baseline, self.threshold, self.findings = searched, baseline, threshold, findings
        self.degenerate_share = degenerate
        self.table = self._make_table()

    @property
    def dominant(self) -> list[Finding]:
        """The findings where one side wins at least the threshold of the games."""
        return [f for f in self.findings if not f.degenerate]

    @property
    def degenerate(self) -> list[Finding]:
        """The findings of degenerate play: draws, turn-cap games, stalls."""
        return [f for f in self.findings if f.degenerate]

    def _make_table(self) -> Any:
        pd = need("pandas", "a lab table")
        rows = []
        for k, (combo, result) in enumerate(zip(self.combos, self.searched)):
            row: dict[str, Any] = dict(zip(self.params, combo))
            wins = result.wins.get(self.seat, 0)
            low, high = wilson(wins, result.n)
            row.update({"seat": result.game.seats()[self.seat].name, "search": wins / result.n,
                        "search_low": low, "search_high": high})
            if self.baseline:
                base = self.baseline[k]
                bw = base.wins.get(self.seat, 0)
                blow, bhigh = wilson(bw, base.n)
                row.update({"baseline": bw / base.n, "baseline_low": blow, "baseline_high": bhigh,
                            "p_value": two_proportion_test(bw, base.n, wins, result.n)[1]})
            here = [f for f in self.findings if dict(zip(self.params, combo)) == f.params]
            row["dominant"] = "; ".join(f"{f.who} {f.win_rate:.0%}" for f in here if not f.degenerate)
            kinds = _kinds(result)
            for kind, column in (("draw", "draws"), ("turn cap", "turn_cap"), ("stall", "stalls")):
                row[column] = kinds.count(kind) / result.n
            row["degenerate"] = "; ".join(f"{f.kind} {f.win_rate:.0%}" for f in here if f.degenerate)
            rows.append(row)
        return pd.DataFrame(rows)

    def _repr_markdown_(self) -> str:
        seat_name = self.game.seats()[self.seat].name
        head = (f"**{self.game.title}**: a searching bot in seat {self.seat} ({seat_name}), "
                f"{self.searched[0].n} games per parameter set; a side dominates at {self.threshold:.0%} or more")
        if self.degenerate_share is not None:
            head += f"; draws, turn-cap games or stalls are degenerate play at {self.degenerate_share:.0%} or more"
        cols = self.params + ["search", "baseline", "p-value", "dominant"] if self.baseline else \
            self.params + ["search", "dominant"]
        cols += ["draws / turn cap / stalls", "degenerate"]
        lines = [head, "", "| " + " | ".join(cols) + " |", "|" + " --- |" * len(cols)]
        for r in self.table.to_dict("records"):
            cells = [str(r[p]) for p in self.params]
            cells.append(f"{r['search']:.0%} ({r['search_low']:.0%}–{r['search_high']:.0%})")
            if self.baseline:
                cells.append(f"{r['baseline']:.0%} ({r['baseline_low']:.0%}–{r['baseline_high']:.0%})")
                cells.append(f"{r['p_value']:.3g}")
            cells.append(r["dominant"] or "–")
            cells.append(f"{r['draws']:.0%} / {r['turn_cap']:.0%} / {r['stalls']:.0%}")
            cells.append(r["degenerate"] or "–")
            lines.append("| " + " | ".join(cells) + " |")
        lines += ["", "* *search*: the win rate of the seat played by the searching bot (95% interval)."]
        if self.baseline:
            lines += ["* *baseline*: the same seat's win rate with its own bot, on the same game seeds.",
                      "* *p-value*: how often a difference at least this large would appear if the two bots "
                      "played alike (the two-proportion z-test, or Fisher's exact test)."]
        lines += ["* *draws / turn cap / stalls*: the searched games that ended with no winner by the rules, "
                  "that only ended at one of the game's `max_...` caps, and that did not end within `max_steps`."]
        if not self.findings:
            lines += ["", "No side dominates anywhere" + ("." if self.degenerate_share is None else
                                                         ", and no degenerate play (draws, turn-cap games, stalls) "
                                                         f"reaches {self.degenerate_share:.0%} anywhere.")]
        else:
            if self.dominant:
                lines += ["", "Findings, a side dominates:"] + [f"* {f}" for f in self.dominant]
            else:
                lines += ["", "No side dominates anywhere."]
            if self.degenerate:
                lines += ["", "Findings, degenerate play:"] + [f"* {f}" for f in self.degenerate]
        return "\n".join(lines)

    def __repr__(self) -> str:
        return (f"<ProbeResult {self.game.name}, seat {self.seat}: {len(self.findings)} finding(s)"
                f"{f', {len(self.degenerate)} of degenerate play' if self.degenerate else ''}>")
