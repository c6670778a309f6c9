"""The balance lab (issue 12): every measure on hand-made games, runs that do not depend on what
plays them (threads, processes, Dask), the search bot on every game, and what it may not see.

Everything runs with ``progress=False`` and small iteration counts; the statistical tests use
fixed seeds, so they are exact replays, and enough games that the p-value is far below 1%.
"""

from __future__ import annotations

import math
import pickle
import random
from concurrent.futures import ProcessPoolExecutor, ThreadPoolExecutor

import pytest
from scipy.stats import binomtest

import playtest
import playtest.lab._run as lab_run
from playtest import CHANCE, SIMULTANEOUS, Session
from playtest.bots import MCTSBot, RandomBot, available, build, choose_for
from playtest.examples.secret_bid import Deal, Roll, SecretBid
from playtest.games.then_there_was_one import GreedyTokenBot, GreedyWallBot
from playtest.lab import SimulationResult, game_seed, play_game
from playtest.lab import metrics
from playtest.lab._play import Job, play_one
from playtest.lab.compare import games_needed, two_proportion_test
from playtest.mcts import returns

SMALL_TTWO = dict(num_players=3, board_width=5, board_length=7, initial_obstacles=3, max_rounds=10,
                  move_length=4, wall_budget=6)
SMALL_SOURCE = dict(board_size=7, tokens_per_color=8)


def points(game, state):
    """Secret Bid's points as things stand: a running score for lead changes and decisiveness."""
    return state.points


# ------------------------------------------------------------------ the measures, by hand

def hand_made():
    """Six games of a four-seat table (seat 0 alone, seats 1-3 a team that wins together)."""
    game = playtest.load("then_there_was_one")
    rows = [
        {"game": 0, "seed": 10, "first_seat": 1, "winners": (1, 2, 3), "length": 10, "decisions": 8,
         "branching": 5.0, "lead_changes": 2, "decisiveness": 0.5},
        {"game": 1, "seed": 11, "first_seat": 1, "winners": (0,), "length": 20, "decisions": 16,
         "branching": 2.0, "lead_changes": 0, "decisiveness": 1.0},
        {"game": 2, "seed": 12, "first_seat": 1, "winners": (1, 2, 3), "length": 30, "decisions": 24,
         "branching": 3.0, "lead_changes": 1, "decisiveness": 0.0},
        {"game": 3, "seed": 13, "first_seat": 2, "winners": (), "reason": "no winner after 40 rounds (max_rounds)",
         "timeout": True, "length": 40, "decisions": 32, "branching": 4.0},
        {"game": 4, "seed": 14, "first_seat": None, "winners": (1, 2, 3), "length": 50, "decisions": 40,
         "branching": 1.0, "lead_changes": 4, "decisiveness": 0.25},
        {"game": 5, "seed": 15, "first_seat": 0, "winners": (), "length": 60, "decisions": 48, "branching": 2.0},
    ]
    return SimulationResult.from_rows(game, rows)


def measure(result, metric, who=""):
    table = result.summary()
    row = table[(table["metric"] == metric) & (table["who"] == who)]
    assert len(row) == 1, (metric, who)
    return row.iloc[0]


def test_win_rates_by_seat_and_team_on_hand_made_games():
    result = hand_made()
    assert result.teams() == [(0,), (1, 2, 3)]
    assert measure(result, "win rate", "Wall ■")["value"] == 1 / 6
    assert measure(result, "win rate", "Red ●")["value"] == 3 / 6
    team = measure(result, "team win rate", "Red ● + Blue ▲ + Green ◆")
    assert team["value"] == 0.5 and (team["low"], team["high"]) == metrics.wilson(3, 6)
    assert result.wins == {0: 1, 1: 3, 2: 3, 3: 3} and result.draws == 2 and result.win_rate(2) == 0.5
    assert [r["wins"] for r in result.rows()] == [1, 3, 3, 3]


def test_first_player_advantage_on_hand_made_games():
    fpa = measure(hand_made(), "first-player advantage", "first mover")
    # five games with a first mover: it won games 0 and 2 (seat 1 in the winning team); 3 and 5 had no winner;
    # a seat's fair share in those five games is (3 + 1 + 3 + 0 + 0) / (4 * 5)
    assert fpa["games"] == 5
    assert fpa["value"] == pytest.approx(2 / 5 - 7 / 20)
    low, high = metrics.wilson(2, 5)
    assert (fpa["low"], fpa["high"]) == pytest.approx((low - 7 / 20, high - 7 / 20))


def test_draw_timeout_and_length_on_hand_made_games():
    result = hand_made()
    assert measure(result, "draw rate")["value"] == 2 / 6
    timeouts = measure(result, "timeout rate")   # one stopped by hand, one a draw naming max_rounds
    assert timeouts["value"] == 1 / 6
    length = measure(result, "game length")
    assert length["value"] == 35.0 and length["games"] == 6
    sd = math.sqrt(sum((x - 35) ** 2 for x in (10, 20, 30, 40, 50, 60)) / 5)
    half = 2.5705818366147395 * sd / math.sqrt(6)
    assert (length["low"], length["high"]) == pytest.approx((35 - half, 35 + half))


def test_cap_draws_count_as_timeouts():
    game = playtest.load("then_there_was_one")
    result = SimulationResult.from_rows(game, [{"winners": (), "reason": "no winner after 40 rounds (max_rounds)"}])
    assert not result.games["timeout"][0]          # by hand: as given; the lab decides it while playing
    job = Job(playtest.load("then_there_was_one", max_rounds=1), "random", seed=3)
    row = play_one(job, 0)
    assert row["winners"] == () and row["timeout"] and "max_rounds" in row["reason"]
    row = play_one(Job(playtest.load("eat_thyself"), "random", seed=3, max_steps=5), 0)
    assert row["timeout"] and row["length"] == 5 and row["reason"] == "stopped after 5 steps (max_steps)"


def test_decisiveness_lead_changes_and_branching_on_hand_made_games():
    result = hand_made()
    decisive = measure(result, "decisiveness")
    assert decisive["value"] == pytest.approx((0.5 + 1.0 + 0.0 + 0.25) / 4) and decisive["games"] == 4
    assert measure(result, "lead changes")["value"] == pytest.approx(7 / 4)
    branching = measure(result, "branching factor")
    totals = [5 * 8, 2 * 16, 3 * 24, 4 * 32, 1 * 40, 2 * 48]
    assert branching["value"] == pytest.approx(sum(totals) / (8 + 16 + 24 + 32 + 40 + 48))
    assert branching["games"] == 6


def test_per_game_measures_from_traces():
    assert metrics.leader((1, 4, 4)) is None and metrics.leader((1, 5, 4)) == 1
    assert metrics.lead_changes([0, None, 1, 1, None, 1, 0]) == 2
    assert metrics.decisiveness([{1}, {1}, {0}, {0}], (0,), 2) == 0.5
    assert metrics.decisiveness([{0}, {0}, {0, 1}], (0,), 2) == 0.0      # tied at the end: not ahead
    assert metrics.decisiveness([{0}], (), 2) is None                      # a draw
    assert metrics.teams([(0,), (1,)], 2) == [(0,), (1,)]
    assert metrics.teams([(0, 1), (0, 1)], 3) == [(0, 1), (2,)]


def test_intervals_are_exact():
    assert metrics.wilson(3, 4) == pytest.approx((0.30064, 0.95441), abs=1e-5)
    assert metrics.wilson(0, 10) == pytest.approx((0.0, 0.27753), abs=1e-5)
    mean, low, high, n = metrics.mean_interval([2, 4, 6])
    assert (mean, n) == (4.0, 3) and (low, high) == pytest.approx((4 - 4.9683, 4 + 4.9683), abs=1e-4)
    ratio, low, high, n = metrics.ratio_interval([10, 30, 20], [5, 10, 10])
    assert ratio == 60 / 25 and n == 3


def _actor(game, state):
    mover = game.to_move(state)
    return game.pending_seats(state)[0] if mover == SIMULTANEOUS else mover


def test_the_recorded_trace_gives_the_leaders():
    """With a running score (Secret Bid's points), the row's lead changes and decisiveness are those of
    the game's own trace at the end of every turn (a step after which another seat is to decide,
    or the game ends; chance steps belong to the turn around them), recomputed here from the
    recorded actions."""
    game = SecretBid()
    job = Job(game, "random", seed=4, running_scores=points)
    turns = steps = chances = 0
    for index in range(6):
        row = play_one(job, index, record=True)
        state, tops, leaders = game.initial_state(), [], []
        actor = None if game.to_move(state) == CHANCE else _actor(game, state)
        for _, action in row["actions"]:
            state = game.apply(state, action)
            steps += 1
            who = _actor(game, state)
            if game.to_move(state) == CHANCE:
                chances += 1
                continue                  # chance acts within a turn
            if who == actor:
                continue                  # the same seat decides on: the middle of a turn
            actor = who
            turns += 1
            tops.append({s for s, v in enumerate(state.points) if v == max(state.points)})
            leaders.append(metrics.leader(state.points))
        assert row["lead_changes"] == metrics.lead_changes(leaders)
        assert row["decisiveness"] == metrics.decisiveness(tops, row["winners"], 2)
    assert 0 < turns <= steps and chances     # (Secret Bid deals: the trace has chance steps)
    result = playtest.simulate(game, games=6, seed=4, running_scores=points, progress=False)
    assert result.games["decisiveness"].notna().sum() == sum(1 for w in result.games["winners"] if w)


def test_displays():
    result = playtest.simulate("eat_thyself", games=5, seed=1, progress=False)
    assert "first-player advantage" in result._repr_markdown_() and "<table>" in result._repr_html_()
    assert repr(result).startswith("<SimulationResult eat_thyself, 5 games")


def test_a_bare_tally_still_works():
    """Code that counts its own games (Corner Rush's turn-order table) builds a result by hand."""
    game = playtest.load("eat_thyself")
    tally = SimulationResult(game=game, games=4, wins={}, draws=0)
    tally.wins[0] = 3
    tally.draws += 1
    assert tally.games == 4 and tally.win_rate(0) == 0.75 and tally.rows()[0]["wins"] == 3
    assert "75%" in tally._repr_markdown_()
    with pytest.raises(ValueError, match="bare count"):
        tally.summary()


# ------------------------------------------------------------------ runs that nothing else changes

def mixed_table():
    return {0: MCTSBot(iterations=5, seed=2, rollout_limit=30), 1: RandomBot(seed=4)}


def test_same_games_whatever_plays_them():
    game = SecretBid()
    here = playtest.simulate(game, mixed_table(), games=8, seed=9, executor=None, progress=False)
    with ThreadPoolExecutor(2) as pool:
        threads = playtest.simulate(game, mixed_table(), games=8, seed=9, executor=pool, progress=False)
    with ProcessPoolExecutor(1) as pool:
        one = playtest.simulate(game, mixed_table(), games=8, seed=9, executor=pool, progress=False)
    with ProcessPoolExecutor(2) as pool:
        two = playtest.simulate(game, mixed_table(), games=8, seed=9, executor=pool, progress=False)
    for other in (threads, one, two):
        assert other.games.equals(here.games)
    assert not playtest.simulate(game, mixed_table(), games=8, seed=10, progress=False).games.equals(here.games)


def test_the_default_uses_processes_for_long_runs_with_the_same_result(monkeypatch):
    game = playtest.load("eat_thyself")
    here = playtest.simulate(game, games=12, seed=5, progress=False)
    monkeypatch.setattr(lab_run, "LOCAL_SECONDS", 0.0)          # every run is "long": processes
    used = []
    original = lab_run.ProcessPoolExecutor
    monkeypatch.setattr(lab_run, "ProcessPoolExecutor", lambda **kw: used.append(kw) or original(**kw))
    pooled = playtest.simulate(game, games=12, seed=5, progress=False)
    assert pooled.games.equals(here.games)
    assert used or lab_run.os.cpu_count() == 1


def test_a_lambda_as_bots_runs_in_the_worker_processes_too(monkeypatch):
    """Games and bots travel to the workers with cloudpickle: a lambda is no reason to stay on one core."""
    here = playtest.simulate("eat_thyself", lambda: RandomBot(1), games=4, seed=1, progress=False)
    monkeypatch.setattr(lab_run, "LOCAL_SECONDS", 0.0)
    if (lab_run.os.cpu_count() or 1) < 2:
        pytest.skip("one core: runs stay in this process anyway")
    import warnings
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        pooled = playtest.simulate("eat_thyself", lambda: RandomBot(1), games=4, seed=1, progress=False)
    assert pooled.games.equals(here.games)


class _Locked(RandomBot):
    """A bot that copies itself but refuses to be sent anywhere (as one holding a live connection would)."""

    def __deepcopy__(self, memo):
        copy = _Locked.__new__(_Locked)
        copy.__dict__.update({k: __import__("copy").deepcopy(v, memo) for k, v in self.__dict__.items()})
        return copy

    def __reduce_ex__(self, protocol):
        raise TypeError("this bot holds a live connection")


def test_bots_that_cannot_be_sent_play_here_with_a_warning(monkeypatch):
    monkeypatch.setattr(lab_run, "LOCAL_SECONDS", 0.0)
    if (lab_run.os.cpu_count() or 1) < 2:
        pytest.skip("one core: runs stay in this process anyway")
    with pytest.warns(UserWarning, match="cannot be sent to other processes"):
        result = playtest.simulate("eat_thyself", _Locked(1), games=4, seed=1, progress=False)
    assert len(result.games) == 4


def test_games_and_bots_pickle():
    for name in playtest.games() + ["secret_bid"]:
        game = playtest.load(name)
        assert pickle.loads(pickle.dumps(game)) == game
        for bot in available(name):
            made = build(name, bot)
            assert type(pickle.loads(pickle.dumps(made))) is type(made)


def test_game_seeds_depend_on_the_run_and_the_index_only():
    assert game_seed(1, 0) == game_seed(1, 0) != game_seed(1, 1) != game_seed(2, 1)
    result = playtest.simulate("eat_thyself", games=3, seed=1, progress=False)
    assert list(result.games["seed"]) == [game_seed(1, i) for i in range(3)]


@pytest.mark.dask
def test_dask_local_cluster_gives_the_same_games():
    distributed = pytest.importorskip("distributed", reason="dask[distributed] is not installed "
                                                            "(pip install -e '.[test]')")
    game = SecretBid()
    here = playtest.simulate(game, mixed_table(), games=6, seed=3, progress=False)
    with distributed.LocalCluster(processes=False, n_workers=1, threads_per_worker=2, dashboard_address=None) \
            as cluster, distributed.Client(cluster) as client:
        remote = playtest.simulate(game, mixed_table(), games=6, seed=3, executor=client.get_executor(),
                                   progress=False)
    assert remote.games.equals(here.games)


def test_no_progress_bar_when_switched_off(capfd):
    playtest.simulate("eat_thyself", games=5, seed=1, progress=False)
    assert capfd.readouterr().err == ""
    assert lab_run._bar(5, False, "x") is None


def test_a_progress_bar_on_long_runs(capfd, monkeypatch):
    monkeypatch.setattr(lab_run, "LOCAL_SECONDS", 0.0)
    playtest.simulate("eat_thyself", games=3, seed=1, executor=ThreadPoolExecutor(1), progress=True)
    assert "eat_thyself" in capfd.readouterr().err


# ------------------------------------------------------------------ bots by name, and the seats they play

def test_bots_are_listed_and_built_by_name():
    assert available("source") == ["random", "mcts", "greedy"]
    assert available("then_there_was_one", seat=0) == ["random", "mcts", "greedy_wall"]
    assert available("then_there_was_one", seat=3) == ["random", "mcts", "greedy_token"]
    assert isinstance(build("source", "mcts", iterations=5), MCTSBot)
    game = playtest.load("then_there_was_one")
    assert not GreedyTokenBot().plays(game, 0) and GreedyTokenBot().plays(game, 2)
    assert GreedyWallBot().plays(game, 0) and not GreedyWallBot().plays(game, 1)
    assert RandomBot().plays(game, 0) and MCTSBot().plays(game, 3)


def test_a_bot_in_a_seat_it_cannot_play_is_refused_at_once():
    with pytest.raises(ValueError, match=r"GreedyTokenBot cannot play seat 0 \(Wall ■\).*greedy_wall"):
        playtest.simulate("then_there_was_one", GreedyTokenBot(), games=2, progress=False)
    with pytest.raises(ValueError, match="no bot called 'clever'"):
        playtest.simulate("source", "clever", games=2, progress=False)


def test_bots_by_name_and_options():
    result = playtest.simulate("then_there_was_one", {0: "greedy_wall", 1: "greedy_token", 2: "greedy_token",
                                                      3: ("random", {"seed": 3})}, games=2, seed=1,
                               max_rounds=6, progress=False)
    assert len(result.games) == 2 and list(result.games["max_rounds"]) == [6, 6]


# ------------------------------------------------------------------ the search bot

def beats_random(name, params, mcts_seats, games, iterations):
    """Games won by the search bot's side (MCTS in ``mcts_seats``, random elsewhere)."""
    game = playtest.load(name, **params)
    table = {s: (MCTSBot(iterations=iterations, seed=s) if s in mcts_seats else RandomBot(seed=s))
             for s in range(len(game.seats()))}
    result = playtest.simulate(game, table, games=games, seed=21, progress=False)
    return sum(1 for w in result.games["winners"] if set(mcts_seats) <= set(w))


@pytest.mark.parametrize("name, params, games, iterations", [
    ("eat_thyself", {}, 12, 15),
    ("source", SMALL_SOURCE, 8, 10),
    ("secret_bid", {"rounds": 1, "max_bid": 2}, 40, 30),
])
def test_mcts_beats_random_in_most_games_of_two_player_games(name, params, games, iterations):
    wins = beats_random(name, params, (0,), games, iterations) + beats_random(name, params, (1,), games, iterations)
    assert binomtest(wins, 2 * games, 0.5, alternative="greater").pvalue < 0.01, wins


def test_mcts_tokens_beat_a_random_wall_in_most_games():
    """Then There Was One, on a small board: the token seats searching, the wall player random."""
    wins = beats_random("then_there_was_one", SMALL_TTWO, (1, 2), 10, 6)
    assert binomtest(wins, 10, 0.5, alternative="greater").pvalue < 0.01, wins


def test_mcts_is_deterministic_for_a_seed():
    game = playtest.load("source", **SMALL_SOURCE)
    state = game.initial_state()
    picks = {str(MCTSBot(iterations=15, seed=4).choose(game, state)) for _ in range(3)}
    assert len(picks) == 1


def test_mcts_makes_a_legal_choice_in_every_game():
    """Every registered game (and the ones that land later), through the public protocol only."""
    for name in playtest.games() + ["secret_bid"]:
        game = playtest.load(name)
        session = Session(game, seed=1)
        seat = session.to_move if session.to_move != SIMULTANEOUS else game.pending_seats(session.state)[0]
        before = sum(1 for entry in session.history() if entry["kind"] == "move")
        action = session.play_bot(MCTSBot(iterations=3, rollout_limit=20, seed=1), seat=seat)
        assert sum(1 for entry in session.history() if entry["kind"] == "move") == before + 1, (name, action)


def test_returns_are_normalised_per_seat():
    game = SecretBid()
    over = game.state_from_json({"round": 3, "points": [6, 2], "coins": [1, 1], "over": True})
    assert returns(game, over) == [1.0, 0.0]
    tied = game.state_from_json({"round": 3, "points": [4, 4], "coins": [1, 1], "over": True})
    assert returns(game, tied) == [0.5, 0.5]


class SpyBid(SecretBid):
    """Secret Bid that writes down every state the search hands it."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.states, self.determinized = [], []

    def legal_actions(self, state, seat=None):
        self.states.append(state)
        return super().legal_actions(state, seat)

    def apply(self, state, action, check=True):
        self.states.append(state)
        return super().apply(state, action, check)

    def determinize(self, state, seat, rng):
        self.determinized.append(seat)
        return super().determinize(state, seat, rng)


def at_the_orders(game, cards):
    session = Session(game, seed=1, auto_chance=False)
    session.force(Roll(4))
    for seat, card in enumerate(cards):
        session.force(Deal(seat, card))
    return session.state


def test_mcts_searches_only_worlds_its_seat_may_believe():
    game = SpyBid()
    truth = at_the_orders(game, (3, 1))                  # North holds a 3, South (the bot) a 1
    handed = game.determinize(truth, 1, random.Random(5))
    game.states.clear(), game.determinized.clear()
    MCTSBot(iterations=40, seed=1).choose(game, handed, seat=1)
    assert len(game.determinized) >= 40 and set(game.determinized) == {1}   # a world per iteration, South's
    assert all(state is not truth for state in game.states)
    dealt = [s for s in game.states if s.round == 1 and None not in s.cards]
    assert {s.cards[1] for s in dealt} == {1}            # its own card is kept
    assert {s.cards[0] for s in dealt} == {1, 2, 3}      # North's card is redrawn: it is never read


def test_mcts_chooses_the_same_whatever_the_hidden_card():
    game = SecretBid()
    picks = {str(choose_for(MCTSBot(iterations=30, seed=2), game, at_the_orders(game, (north, 1)), 1,
                            random.Random(8))) for north in (1, 2, 3)}
    assert len(picks) == 1


def test_play_game_keeps_its_old_shape():
    game = playtest.load("eat_thyself")
    state, steps = play_game(game, RandomBot(seed=1), random.Random(1))
    assert game.outcome(state) is not None and steps > 0


# ------------------------------------------------------------------ sweep, compare, probe

def test_sweep_over_one_parameter_gives_a_table_and_a_band_plot():
    result = playtest.sweep("eat_thyself", {"opponent_pawn_return": ["must", "may"]}, games=6, seed=1,
                            progress=False)
    table = result.table()
    assert list(table.index) == ["must", "may"] and list(table.columns) == ["Triangle ▲", "Circle ●"]
    assert table.loc["must", "Triangle ▲"] == result.results[0].win_rate(0)
    figure = result.plot()
    assert len(figure.axes[0].lines) == 2 and len(figure.axes[0].collections) == 2     # lines and bands
    assert "<img" in result._repr_html_() and result.name == "opponent_pawn_return"


def test_sweep_keeps_the_old_call_shape():
    result = playtest.sweep("eat_thyself", "win_condition", ["one_piece_left", "one_king_left"], games=4,
                            seed=2, progress=False)
    assert result.values == ["one_piece_left", "one_king_left"]
    assert [r["win_condition"] for r in result.rows()] == result.values


def test_sweep_over_two_parameters_gives_a_heat_map():
    result = playtest.sweep("source", {"first_turn_ap": [1, 2], "ap_per_turn": [2, 3]}, games=3, seed=1,
                            progress=False, **SMALL_SOURCE)
    assert result.values == [(1, 2), (1, 3), (2, 2), (2, 3)]
    assert result.table().shape == (4, 2)
    figure = result.plot(who="A (red+yellow)")
    assert figure.axes[0].images and figure.axes[0].get_xlabel() == "first_turn_ap"
    with pytest.raises(ValueError, match="one or two parameters"):
        playtest.sweep("source", {"first_turn_ap": [1], "ap_per_turn": [2], "cost_place": [1]}, games=1)


def test_the_two_proportion_tests():
    test, p = two_proportion_test(30, 100, 45, 100)
    assert test == "two-proportion z-test" and p == pytest.approx(0.028459737, abs=1e-8)
    test, p = two_proportion_test(1, 10, 6, 10)
    assert test == "Fisher's exact test" and p == pytest.approx(0.057275541795665, abs=1e-9)
    assert games_needed(0.5, 0.1) == 388 and games_needed(0.5, 0.0) is None


def test_compare_states_the_test_the_p_value_and_the_games_needed():
    ab = playtest.compare("source", {"first_turn_ap": 1}, {"first_turn_ap": 3}, games=12, seed=1,
                          progress=False, **SMALL_SOURCE)
    row = ab.table.iloc[0]
    assert row["who"] == "A (red+yellow)" and row["test"] in ("two-proportion z-test", "Fisher's exact test")
    assert 0 <= row["p_value"] <= 1 and row["games_needed"] >= 1
    assert "p-value" in ab._repr_markdown_() and "games per side" in ab._repr_markdown_()


def test_probe_reports_dominated_parameter_sets_with_a_replayable_session(tmp_path):
    found = playtest.probe("then_there_was_one", 0, {"wall_budget": [2, 4]}, mcts={"iterations": 4,
                           "rollout_limit": 30}, games=3, threshold=0.6, path=tmp_path, seed=2, progress=False,
                           **SMALL_TTWO)
    assert list(found.table["wall_budget"]) == [2, 4]
    assert found.findings, found.table
    finding = found.findings[0]
    assert finding.win_rate >= 0.6 and finding.session.parent == tmp_path
    reopened = Session.load(finding.session)
    assert reopened.is_over and set(reopened.outcome.winners) >= set(finding.side)
    assert not any(entry["forced"] for entry in reopened.history())     # chance drawn from the seed, not forced
    again = playtest.probe("then_there_was_one", 0, {"wall_budget": [2]}, mcts={"iterations": 4,
                           "rollout_limit": 30}, games=3, threshold=0.6, path=tmp_path, seed=2, progress=False,
                           baseline=False, **SMALL_TTWO)
    assert again.findings[0].session != finding.session and finding.session.exists()   # never overwritten
