"""The strategy probe reports degenerate play, not only dominance (issue 27): a scripted strategy that
draws every game, one that stalls every game to the turn cap, and one that stalls a game with no
cap until ``max_steps`` are findings, each with its share of the games, its interval, the
baseline's share and a session file that replays that game."""

from dataclasses import dataclass

import pytest

import playtest
from playtest import Action, Game, GameType, Outcome, Params, State, field, param, register
from playtest.bots import Bot
from playtest.lab.probe import kind_of


class Take(Action):
    pass


class Wait(Action):
    pass


class Truce(Action):
    pass


@dataclass(frozen=True)
class StandoffParams(Params):
    pile: int = param(4, "tokens the first seat must take to win", min=1, max=20, rule="S1")
    max_turns: int = param(12, "turns before the game ends in a draw (0: no cap)", min=0, max=1000, rule="S3")


class Pile(State):
    left: int = field(4, min=0, max=20)
    turn: int = field(0, min=0)
    truce: bool = False


@register(listed=False)
class Standoff(Game[StandoffParams, Pile, Action]):
    """A test game where the first seat alone decides how play ends: it takes the pile (and wins),
    waits (the turn passes, nothing changes), or calls a truce (a draw). The second seat only waits."""

    name, title, seat_names = "test_standoff", "Standoff", ("Taker", "Watcher")
    Params, state_type, action_types = StandoffParams, Pile, (Take, Wait, Truce)
    game_type = GameType(max_length=1000)

    def initial_state(self):
        return Pile(left=self.params.pile)

    def to_move(self, s):
        return None if self.outcome(s) else s.turn % 2

    def candidates(self, s, seat):
        return [Take(), Wait(), Truce()] if seat == 0 else [Wait()]

    def why_not(self, s, a, seat):
        return None

    def effect(self, s, a):
        if isinstance(a, Take):
            return s.replace(left=s.left - 1, turn=s.turn + 1)
        if isinstance(a, Truce):
            return s.replace(truce=True, turn=s.turn + 1)
        return s.replace(turn=s.turn + 1)

    def outcome(self, s):
        if s.left == 0:
            return Outcome((0,), "the Taker took the pile")
        if s.truce:
            return Outcome((), "a truce")
        if self.params.max_turns and s.turn >= self.params.max_turns:
            return Outcome((), f"{self.params.max_turns} turns played (max_turns)")
        return None

    def view(self, s, seat=None):
        return {"left": s.left, "turn": s.turn}


class Scripted(Bot):
    """Plays the first legal action of one kind whenever it can."""

    def __init__(self, kind: type):
        self.kind = kind

    def choose(self, game, state, seat=None):
        return next(a for a in game.legal_actions(state) if isinstance(a, self.kind))


def test_a_strategy_that_draws_every_game_is_a_finding(tmp_path):
    found = playtest.probe(Standoff(), 0, mcts=Scripted(Truce), games=10, seed=1, path=tmp_path, progress=False)
    assert not found.dominant
    (finding,) = found.degenerate
    assert finding.kind == "draw" and finding.share == 1.0 and finding.games == 10
    assert finding.low > 0.6 and finding.high == pytest.approx(1.0)
    assert finding.baseline is not None and finding.baseline < 1.0       # the random Taker draws less often
    replay = playtest.Session.load(finding.session)
    assert replay.game.outcome(replay.state).reason == "a truce"
    text = found._repr_markdown_()
    assert "Findings, degenerate play:" in text and "100% of 10 games were draws" in text
    assert "No side dominates anywhere." in text
    assert found.table["draws"].tolist() == [1.0] and found.table["degenerate"].tolist() == ["draw 100%"]


def test_a_strategy_that_stalls_to_the_turn_cap_is_a_finding(tmp_path):
    found = playtest.probe(Standoff(), 0, {"max_turns": [8, 12]}, mcts=Scripted(Wait), games=6, seed=2,
                           path=tmp_path, progress=False)
    assert [f.kind for f in found.findings] == ["turn cap", "turn cap"]
    assert [f.params for f in found.findings] == [{"max_turns": 8}, {"max_turns": 12}]
    for finding in found.findings:
        assert finding.share == 1.0 and "only ended at the turn cap" in str(finding)
        replay = playtest.Session.load(finding.session)
        assert replay.state.turn == finding.params["max_turns"] and "max_turns" in \
            replay.game.outcome(replay.state).reason
    assert found.table["turn_cap"].tolist() == [1.0, 1.0]


def test_a_game_that_never_ends_is_a_stall_with_its_session(tmp_path):
    found = playtest.probe(Standoff(), 0, mcts=Scripted(Wait), games=4, seed=3, path=tmp_path, progress=False,
                           max_steps=50, max_turns=0)
    (finding,) = found.findings
    assert finding.kind == "stall" and finding.share == 1.0
    assert found.searched[0].games["stalled"].all()
    replay = playtest.Session.load(finding.session)
    assert replay.state.turn == 50 and replay.game.outcome(replay.state) is None
    assert "did not end (stopped by max_steps)" in found._repr_markdown_()


def test_winning_play_is_dominance_not_degenerate(tmp_path):
    found = playtest.probe(Standoff(), 0, mcts=Scripted(Take), games=5, seed=1, path=tmp_path, progress=False)
    assert [f.kind for f in found.findings] == ["dominance"] and not found.degenerate
    assert found.findings[0].who == "Taker" and found.findings[0].share == 1.0


def test_degenerate_play_below_the_share_or_switched_off_is_no_finding(tmp_path):
    quiet = playtest.probe(Standoff(), 0, mcts=Scripted(Truce), games=4, seed=1, path=tmp_path, progress=False,
                           degenerate=None)
    assert not quiet.findings and "No side dominates anywhere." in quiet._repr_markdown_()
    random_taker = playtest.probe(Standoff(), 0, mcts="random", games=20, seed=1, path=tmp_path,
                                  progress=False, degenerate=1.0, threshold=1.0)
    assert not random_taker.degenerate
    with pytest.raises(ValueError, match="degenerate must be a share"):
        playtest.probe(Standoff(), 0, games=2, degenerate=1.5, progress=False)


def test_kinds_of_rows():
    assert kind_of({"winners": (0,), "draw": False, "timeout": False, "stalled": False}) is None
    assert kind_of({"winners": (), "draw": True, "timeout": False, "stalled": False}) == "draw"
    assert kind_of({"winners": (), "draw": True, "timeout": True, "stalled": False}) == "turn cap"
    assert kind_of({"winners": (), "draw": True, "timeout": True, "stalled": True}) == "stall"
