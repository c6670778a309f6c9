"""``playtest.check_game``: every registered game (taken from the registry) passes it, and each of
the ways a secret leaked silently before the kernel is now caught, naming the property, the seat
and a minimal history (issues 22 and 23)."""

from __future__ import annotations

import pytest

import playtest
from playtest import GameCheckFailed, Refusal, check_game
from playtest.bots import register_bot
from playtest.kernel.registry import register
from playtest.examples.secret_bid import Deal, SecretBid
from playtest.kernel.registry import _REGISTRY, _UNLISTED

#: every game of the kit the registry holds: the five, the examples (not the tests' own games, such
#: as the frozen older-protocol one, which is kept as it was written)
REGISTERED = sorted(name for name in playtest.games() + sorted(_UNLISTED)
                    if _REGISTRY[name].__module__.startswith("playtest."))
#: random games and positions checked per game: the long games get fewer (a Back to the Wall game
#: is ~3,000 steps of order parts); every game is still played to its end
BUDGET = {"back_to_the_wall": (1, 12), "corner_rush": (2, 20), "then_there_was_one": (2, 20)}


@pytest.mark.parametrize("name", REGISTERED)
def test_every_registered_game_passes_check_game(name):
    examples, positions = BUDGET.get(name, (4, 25))
    check_game(name, examples=examples, seed=1, positions=positions).assert_ok()


class CardInTheLog(SecretBid):
    """The leak of a move log that prints a hidden card to every seat."""

    def notation(self, state, action, viewer=None):
        if isinstance(action, Deal):
            return f"{self._name(action.seat)} is dealt a {action.card}"
        return super().notation(state, action, viewer)


class CardInTheTooltip(SecretBid):
    """The leak of a board tooltip that names a hidden card."""

    def view(self, state, seat=None):
        scene = super().view(state, seat)
        for item in scene["items"]:
            if item.get("title", "").endswith("(face down)"):
                card = state.cards[int(item["id"].split(",")[1])]          # cell:0,<seat>
                item["title"] += f" it is a {card}"
        return scene


def test_a_log_that_prints_a_hidden_card_fails_check_game():
    report = check_game(CardInTheLog(), examples=2, seed=3)
    assert not report.ok and [f.property for f in report.failures] == ["secrecy: log"]
    failure = report.failures[0]
    assert failure.seat is not None and "is dealt a" in failure.message
    assert len(failure.history) <= 3                      # the die, then the deal: a minimal history
    with pytest.raises(GameCheckFailed, match="secrecy: log"):
        report.assert_ok()


def test_a_tooltip_that_names_a_hidden_card_fails_check_game():
    report = check_game(CardInTheTooltip(), examples=2, seed=3)
    assert "secrecy: board" in [f.property for f in report.failures]


def test_a_game_that_raises_is_reported_not_a_traceback():
    class Broken(SecretBid):
        def why_not(self, state, action, seat):
            if getattr(action, "amount", 0) == 2:
                raise ZeroDivisionError("a bug in the rules")
            return super().why_not(state, action, seat)
    report = check_game(Broken(), examples=1)
    assert not report.ok and any("ZeroDivisionError: a bug in the rules" in f.message for f in report.failures)


def test_a_legal_action_apply_refuses_is_caught():
    class Stingy(SecretBid):
        def effect(self, state, action):
            if getattr(action, "amount", None) == 3:
                raise playtest.IllegalAction("no bids of three")
            return super().effect(state, action)
    report = check_game(Stingy(), examples=2)
    assert "listed actions are accepted" in [f.property for f in report.failures]


def test_the_report_reads_in_a_notebook_and_escapes_what_the_game_says():
    class Shouty(CardInTheLog):
        def notation(self, state, action, viewer=None):
            return "<script>alert(1)</script> " + super().notation(state, action, viewer)
    report = check_game(Shouty(), examples=1, seed=3)
    page = report._repr_html_()
    assert "<script>" not in page and "&lt;script&gt;" in page
    assert str(report).startswith("check_game('secret_bid'): 1 failed")


def test_bad_arguments_are_named():
    with pytest.raises(ValueError, match="examples must be a whole number"):
        check_game("secret_bid", examples=0)
    with pytest.raises(ValueError, match="check_game takes a game"):
        check_game(42)
    with pytest.raises(ValueError, match="unknown game"):
        check_game("no_such_game")
    _ = (_REGISTRY, Refusal)


#: the true cards of every world handed out, by the world's identity (a cache the bot may read)
_PEEK: dict[int, tuple] = {}


@register(listed=False)
class PeekingBid(SecretBid):
    """A game whose worlds carry the true cards outside what equality compares (a cache, say):
    every world a seat is handed looks the same, but one attribute is the truth."""
    name = "peeking_bid"

    def determinize(self, state, seat, rng):
        world = super().determinize(state, seat, rng)
        _PEEK[id(world)] = state.cards
        return world


@register_bot("peeking_bid", "peeker")
class Peeker(playtest.bots.Bot):
    """A bot that reads the cards through the cache: what its seat may not know."""

    name = "peeker"

    def choose(self, game, state, seat=None):
        actions = game.legal_actions(state, seat)
        return actions[sum(c or 0 for c in _PEEK.get(id(state), ())) % len(actions)]


def test_a_registered_bot_that_reads_a_hidden_value_fails_check_game():
    """Every bot registered for a game is checked, not only the random one: two positions a seat
    cannot tell apart must get the same choice from each."""
    report = check_game(PeekingBid(), examples=4, seed=3)
    assert [f.property for f in report.failures] == ["secrecy: bots"], str(report)
    failure = next(f for f in report.failures if f.property == "secrecy: bots")
    assert "'peeker'" in failure.message and failure.seat is not None


class Dealt(playtest.Action):
    seat: int
    card: int


class Guess(playtest.Action):
    seat: int
    high: bool


class ZeroState(playtest.State):
    cards: tuple[int, ...] = playtest.field((0, 0), min=0, max=6, visible="owner")     # 0: "not dealt yet"
    guesses: tuple[int, ...] = playtest.field((-1, -1), min=-1, max=1, visible="owner")


@register(listed=False)
class UndealtAsZero(playtest.Game):
    """A designer's first try: a card not dealt yet is written 0, which ``determinize`` redraws."""
    name, seat_names, state_type, action_types = "undealt_as_zero", ("A", "B"), ZeroState, (Dealt, Guess)
    game_type = playtest.GameType(dynamics="simultaneous", chance=True, information="imperfect", max_length=4)

    def to_move(self, s):
        return None if min(s.guesses) >= 0 else playtest.CHANCE if 0 in s.cards else playtest.SIMULTANEOUS

    def chance_outcomes(self, s):
        return [(Dealt(s.cards.index(0), c), 1 / 6) for c in range(1, 7)]

    def pending_seats(self, s):
        return [i for i in range(2) if s.guesses[i] < 0]

    def candidates(self, s, seat):
        return [Guess(seat, True), Guess(seat, False)] if s.guesses[seat] < 0 else []

    def effect(self, s, a):
        if isinstance(a, Dealt):
            return s.replace(cards=playtest.per_seat(s.cards, a.seat, a.card))
        return s.replace(guesses=playtest.per_seat(s.guesses, a.seat, int(a.high)))

    def outcome(self, s):
        if min(s.guesses) < 0:
            return None
        return playtest.Outcome(tuple(i for i in range(2) if (s.cards[1 - i] > 3) == bool(s.guesses[i])), "guessed")


def test_a_board_leak_names_what_differs_and_why():
    """The failure shows where two boards differ; when redrawing changed whose turn it is, it
    says how to mark a value not drawn yet."""
    report = check_game(UndealtAsZero(), examples=3, seed=1)
    failure = next(f for f in report.failures if f.property == "secrecy: board")
    assert "view[" in failure.message and "changed whose turn it is (chance / orders)" in failure.message
    assert "should be None" in failure.message


class FirstOutcomeAlways(SecretBid):
    """A faster chance sampler that is wrong: it always draws the first outcome listed."""

    def chance_outcome(self, state, rng):
        rng.random()
        return self.chance_outcomes(state)[0][0]


def test_a_chance_sampler_that_draws_otherwise_than_the_listing_fails_check_game():
    """The lab and the search bots draw chance with ``chance_outcome``; a game that writes its own
    must make the draws ``chance_outcomes`` lists, or seeded results differ by path."""
    report = check_game(FirstOutcomeAlways(), examples=2, seed=3)
    failures = {f.property: f.message for f in report.failures}
    assert "random action is legal" in failures
    assert "chance_outcome drew" in failures["random action is legal"]
    assert "where a draw from chance_outcomes with the same generator gives" in failures["random action is legal"]
