"""The lab's runner (issue 27): fresh bots for every game without deep copies (and exactly what a
deep copy would give), the running scores read at the end of every turn only, the branching factor
counted on a sample of the decisions, and the same games whatever plays them."""

from __future__ import annotations

import copy
import random
from concurrent.futures import ProcessPoolExecutor, ThreadPoolExecutor

import pytest

import playtest
import playtest.lab._play as lab_play
from playtest import SIMULTANEOUS
from playtest.bots import Bot, MCTSBot, RandomBot, build, reseeded
from playtest.lab._play import Job, fresh_bot, play_one


class Remembers(Bot):
    """A bot with a memory (a list): it must be deep-copied, never shared between games."""

    def __init__(self, seed=None):
        self.rng = random.Random(seed)
        self.seen: list = []

    def choose(self, game, state, seat=None):
        self.seen.append(state)
        legal = game.legal_actions(state)
        return legal[(len(self.seen) + self.rng.randrange(3)) % len(legal)]


def _same_play(a, b, game, games=3):
    """Two bots play the same actions from the same positions."""
    for k in range(games):
        rng_a, rng_b = random.Random(k), random.Random(k)
        state = game.initial_state()
        while game.to_move(state) is not None:
            if game.to_move(state) == playtest.CHANCE:
                action = game.chance_outcome(state, rng_a)
                rng_b.random()
            else:
                action = a.choose(game, state)
                assert b.choose(game, state) == action
            state = game.apply(state, action)


@pytest.mark.parametrize("make", [lambda: RandomBot(3), lambda: MCTSBot(iterations=5, seed=2, rollout_limit=10),
                                  lambda: build("source", "greedy"), lambda: Remembers(4)])
def test_a_fresh_bot_is_what_a_deep_copy_gives_and_the_original_is_untouched(make):
    game = playtest.load("source", board_size=7, tokens_per_color=8)
    original = make()
    before = copy.deepcopy(original.__dict__.get("rng").getstate()) if hasattr(original, "rng") else None
    fast, slow = fresh_bot(original, "run:1:0"), reseeded(original, "run:1:0")
    assert fast is not original and type(fast) is type(original)
    _same_play(fast, slow, game, games=1)
    if before is not None:
        assert original.rng.getstate() == before and fast.rng is not original.rng


def test_used_and_stateful_bots_are_deep_copied_plain_ones_are_not(monkeypatch):
    calls = []
    monkeypatch.setattr(lab_play, "reseeded", lambda bot, seed: calls.append(type(bot).__name__) or
                        reseeded(bot, seed))
    assert lab_play._copyable(RandomBot(1)) and lab_play._copyable(MCTSBot(iterations=3))
    used = MCTSBot(iterations=3, seed=1)
    used.choose(playtest.load("eat_thyself"), playtest.load("eat_thyself").initial_state())
    assert not lab_play._copyable(used) and not lab_play._copyable(Remembers(1))
    fresh_bot(RandomBot(1), "k")
    assert calls == []
    fresh_bot(used, "k")
    fresh_bot(Remembers(1), "k")
    assert calls == ["MCTSBot", "Remembers"]


def test_a_run_makes_no_deep_copy_of_plain_bots(monkeypatch):
    copied = []
    monkeypatch.setattr(lab_play, "reseeded", lambda bot, seed: copied.append(bot) or reseeded(bot, seed))
    playtest.simulate("eat_thyself", [RandomBot(1), "random"], games=6, seed=1, progress=False)
    playtest.simulate("eat_thyself", ("mcts", {"iterations": 3, "rollout_limit": 5}), games=2, seed=1,
                      progress=False)
    assert not [value for value in copied if isinstance(value, Bot)]


def test_stateful_bots_start_every_game_fresh_whatever_plays_them():
    game = playtest.load("eat_thyself")
    table = [Remembers(1), RandomBot(2)]
    here = playtest.simulate(game, table, games=6, seed=5, progress=False)
    with ThreadPoolExecutor(3) as pool:
        threads = playtest.simulate(game, table, games=6, seed=5, executor=pool, progress=False)
    with ProcessPoolExecutor(2) as pool:
        processes = playtest.simulate(game, table, games=6, seed=5, executor=pool, progress=False)
    alone = playtest.simulate(game, table, games=6, seed=5, progress=False).games.iloc[[3]]
    assert threads.games.equals(here.games) and processes.games.equals(here.games)
    assert table[0].seen == []                            # the given bot was never played itself
    assert alone.equals(here.games.iloc[[3]])


def _turn_ends(game, actions):
    state, ends, actor = game.initial_state(), 0, None

    def who(s):
        mover = game.to_move(s)
        return game.pending_seats(s)[0] if mover == SIMULTANEOUS else mover

    for _, action in actions:
        actor = who(state)
        state = game.apply(state, action)
        ends += who(state) != actor
    return ends


@pytest.mark.parametrize("name", ["back_to_the_wall", "source"])
def test_the_running_scores_are_read_at_the_end_of_every_turn_only(name):
    game = playtest.load(name)
    calls = []

    def hook(g, state):
        calls.append(state)
        return g.running_scores(state)

    row = play_one(Job(game, "random", seed=3, running_scores=hook), 0, record=True)
    assert len(calls) == _turn_ends(game, row["actions"]) < row["length"]
    assert calls[-1] == row["final"]


def test_a_game_without_running_scores_is_not_asked_for_them(monkeypatch):
    from playtest.rules import Game
    game = playtest.load("eat_thyself")
    assert lab_play._hook(Job(game), game) is not None
    monkeypatch.setattr(type(game), "running_scores", Game.running_scores)
    assert lab_play._hook(Job(game), game) is None


def test_the_branching_factor_is_counted_on_a_sample_of_the_decisions(monkeypatch):
    game = playtest.load("source", board_size=7, tokens_per_color=8)
    job = Job(game, "random", seed=2)
    rows = [play_one(job, i, record=True) for i in range(30)]
    decisions = sum(r["decisions"] for r in rows)
    counted = sum(r["branching_counted"] for r in rows)
    assert decisions / (2 * lab_play.BRANCHING_SAMPLE) < counted < decisions / (lab_play.BRANCHING_SAMPLE / 2)
    monkeypatch.setattr(lab_play, "BRANCHING_SAMPLE", 1)          # every decision: the exact mean
    for i in range(3):
        row = play_one(job, i, record=True)
        state, listed = game.initial_state(), []
        for is_chance, action in row["actions"]:
            if not is_chance:
                listed.append(len(game.legal_actions(state, game.to_move(state))))
            state = game.apply(state, action)
        assert row["branching_counted"] == row["decisions"] == len(listed)
        assert row["branching"] == pytest.approx(sum(listed) / len(listed))
        assert {k: v for k, v in row.items() if k not in ("branching", "branching_counted", "actions", "final")} \
            == {k: v for k, v in rows[i].items() if k not in ("branching", "branching_counted", "actions", "final")}


def test_the_summary_pools_the_counted_decisions():
    result = playtest.simulate("eat_thyself", games=40, seed=3, progress=False)
    table = result.games
    expected = (table["branching"] * table["branching_counted"]).sum() / table["branching_counted"].sum()
    summary = result.summary()
    assert summary.loc[summary["metric"] == "branching factor", "value"].item() == pytest.approx(expected)


def _old_style_game():
    import sys
    from pathlib import Path
    sys.path.insert(0, str(Path(__file__).parent))
    try:
        import old_style_game
    finally:
        sys.path.pop(0)
    return next(v for v in vars(old_style_game).values()
                if isinstance(v, type) and issubclass(v, playtest.Game) and v.__module__ == "old_style_game")()


def test_a_game_written_the_older_way_is_checked_by_its_own_legal_actions():
    """Its own ``apply`` and ``legal_actions`` (no ``effect``): a legal action plays, an illegal one is
    refused with the reason its ``apply`` gives."""
    from playtest.lab import BotError
    game = _old_style_game()
    result = playtest.simulate(game, "random", games=4, seed=1, progress=False)
    assert len(result.games) == 4 and not result.games["stalled"].any()

    class Greedy(Bot):
        def choose(self, game, state, seat=None):
            return type(game.legal_actions(state, seat)[0])(seat, 99) if seat is not None else None

    with pytest.raises(BotError, match="seat 0"):
        playtest.simulate(game, Greedy(), games=1, seed=1, progress=False)


class _Twins(Bot):
    """Two attributes holding one generator, another of its own, and plain values."""

    def __init__(self, seed=None):
        self.shared = random.Random(seed)
        self.label = "twins"
        self.same = self.shared
        self.other = random.Random(seed)
        self.weights = (1, 2.5, "x")


class _OwnReseed(_Twins):
    """A reseed of its own that leaves one generator as it was."""

    def reseed(self, seed):
        self.other.seed(f"own:{seed}")


class _Duck:
    """No Bot base, no reseed: restarted as Bot.reseed would."""

    def __init__(self):
        self.rng = random.Random(5)

    def choose(self, game, state, seat=None):
        return self.rng.choice(game.legal_actions(state, seat))


@pytest.mark.parametrize("make", [lambda: RandomBot(7), lambda: _Twins(3), lambda: _OwnReseed(3), _Duck])
def test_a_runs_copies_are_what_fresh_bot_gives(make):
    """The runner reads a pattern once per run (``_Cloner``) and makes every game's bot from it: the
    same attributes in the same order, generators shared as in the pattern, restarted the same way."""
    pattern = make()
    pattern.__dict__.get("other", random.Random()).random()       # a used generator: its state is copied
    cloner = lab_play._Cloner(pattern)
    for seed in ("1:0:0:None", "1:7:2:None"):
        fast, slow = cloner(seed), lab_play._clone(pattern, seed)
        assert type(fast) is type(slow) and list(vars(fast)) == list(vars(slow))
        for name, value in vars(slow).items():
            if isinstance(value, random.Random):
                assert vars(fast)[name].getstate() == value.getstate() and vars(fast)[name] is not vars(pattern)[name]
            else:
                assert vars(fast)[name] == value
        if isinstance(pattern, _Twins):
            assert fast.same is fast.shared and fast.other is not fast.shared
