"""The core on its own: secrets, chance and simultaneous orders, proven on the worked example game
(``playtest/examples/secret_bid.py``) independently of any shipped game (issue 7).

Secret Bid has a prize die (chance with a distribution), a face-down card dealt to each seat
from a small deck (hidden information drawn without replacement), secret orders built part by
part and submitted at once (simultaneous play), and a resolution that plays back step by step
(frames).
"""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import playtest
from playtest import CHANCE, SIMULTANEOUS, IllegalAction, Session, SessionFileError
from playtest.bots import Bot, RandomBot, choose_for
from playtest.examples.secret_bid import (Bid, Clear, Deal, Roll, SecretBid, Stake, Submit,
                                          Withdraw)
from playtest.rules import UncountedChance, draw_outcome

SETTINGS = settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@pytest.fixture
def game():
    return SecretBid()


def dealt(game, prize=4, cards=(3, 1)):
    """A session at the orders of round 1 with a forced prize and forced cards."""
    session = Session(game, seed=1, auto_chance=False)
    session.force(Roll(prize))
    for seat, card in enumerate(cards):
        session.force(Deal(seat, card))
    session.auto_chance = True                       # later rounds are drawn as usual
    return session


def everything_said(session, viewer):
    """Every text a viewer is shown: its board, the move log, the report."""
    return "\n".join([json.dumps(session.game.view(session.state, viewer), ensure_ascii=False),
                      json.dumps(session.history(viewer), ensure_ascii=False),
                      session.report(viewer)])


# ------------------------------------------------------------------ the example game is listed nowhere

def test_the_example_game_is_unlisted_but_loadable():
    assert "secret_bid" not in playtest.games()
    assert playtest.load("secret_bid", num_players=3).seats()[1].name == "East"


def test_importing_a_game_module_works_beside_the_games_function():
    import playtest.games.source as source_module
    assert "source" in playtest.games() and source_module.Source.name == "source"


# ------------------------------------------------------------------ 1. hidden information

def test_a_dealt_card_is_known_only_to_its_seat(game):
    session = dealt(game, cards=(3, 1))
    north, south = session.history(0), session.history(1)
    assert north[2]["notation"] == "North is dealt a 3 (forced)"
    assert south[2]["notation"] == "North is dealt a card (forced)"
    assert session.history()[2]["notation"] == "North is dealt a card (forced)"   # the table: no secrets
    assert '"text": "3"' in json.dumps(game.view(session.state, 0))
    assert '"text": "3"' not in json.dumps(game.view(session.state, 1))
    assert '"text": "3"' not in json.dumps(game.view(session.state, None))


def test_a_secret_order_appears_as_submitted_until_the_rules_reveal_it(game):
    session = dealt(game, cards=(3, 1))
    session.play(Bid(0, 2), seat=0)
    session.play(Stake(0, True), seat=0)
    session.play(Submit(0), seat=0)
    for viewer in (None, 1):
        said = everything_said(session, viewer)
        assert "bids 2" not in said and "stakes" not in said
        assert "North submitted" in said and "North changes their order" in said
    assert "North bids 2" in everything_said(session, 0)
    session.play(Bid(1, 1), seat=1)
    session.play(Submit(1), seat=1)                 # the last submission reveals every order
    reveal = ("South submitted; revealed: North bid 2 + card 3 = 5, South bid 1 (card 1 kept) = 1; "
              "North wins 4")
    for viewer in (None, 0, 1):                      # the reveal is public: every viewer reads it
        assert reveal in [e["notation"] for e in session.history(viewer)]
    assert "North bid 2 + card 3" in session.report(1)


def test_hot_seat_table_puts_a_curtain_between_seats(game):
    session = dealt(game, cards=(3, 1))
    table = playtest.Table(session)
    assert table.board.curtain["text"] == "Pass to North: click when ready"
    assert '"text": "3"' not in json.dumps(table.board.scene)        # nothing secret behind it
    table.board.receive({"type": "action", "action": Bid(0, 2).to_json()})
    assert session.move_number == 0 and "curtain" in table.board.error
    table.board.receive({"type": "command", "name": "reveal", "seat": 0})
    assert table.board.curtain == {} and table.viewer == 0
    assert '"text": "3"' in json.dumps(table.board.scene)            # North sees its card
    table.board.receive({"type": "action", "action": Bid(0, 2).to_json()})
    table.board.receive({"type": "action", "action": Submit(0).to_json()})
    assert table.board.curtain["text"] == "Pass to South: click when ready"   # North is done
    assert [s for _, s in table.board.curtain["seats"]] == [1, 0]     # North may still withdraw
    assert "bids 2" not in " ".join(label for label, _ in table.move_log.options)
    table.board.receive({"type": "command", "name": "reveal", "seat": 1})
    assert table.viewer == 1 and '"text": "3"' not in json.dumps(table.board.scene)
    table.board.receive({"type": "action", "action": Bid(0, 3).to_json()})   # South cannot act for North
    assert "North's order; this table plays for South" in table.board.error
    table.board.receive({"type": "command", "name": "hide"})
    assert table.board.curtain["text"].startswith("Pass to South")


def test_a_table_bound_to_a_seat_never_shows_a_curtain_or_another_seats_secrets(game):
    session = dealt(game, cards=(3, 1))
    south = playtest.Table(session, seat=1)
    assert south.board.curtain == {}
    assert '"text": "1"' in json.dumps(south.board.scene) and '"text": "3"' not in json.dumps(south.board.scene)
    south.board.receive({"type": "action", "action": Bid(0, 1).to_json()})
    assert "this table plays for South" in south.board.error and session.move_number == 0
    south.board.receive({"type": "command", "name": "reveal", "seat": 0})
    assert south.viewer == 1 and "cannot act" in south.board.error
    with pytest.raises(ValueError, match="seat must be"):
        playtest.Table(session, seat=5)


def test_an_export_for_one_seat_leaves_out_what_it_may_not_know(game, tmp_path):
    session = dealt(game, cards=(3, 1))
    session.play(Bid(0, 2), seat=0)
    session.play(Submit(0), seat=0)
    path = session.save(tmp_path / "south.json", seat=1)
    text = path.read_text(encoding="utf-8")
    assert "bids 2" not in text and '"text": "3"' not in text and "dealt a 3" not in text
    assert "South is dealt a 1" in text and json.loads(text)["seat_name"] == "South"
    with pytest.raises(SessionFileError, match="export for one seat"):
        Session.load(path)
    full = session.save(tmp_path / "full.json")                      # the session file: the whole truth
    assert Session.load(full).state == session.state


def test_bots_are_handed_a_state_redrawn_from_their_seats_knowledge(game):
    session = dealt(game, cards=(3, 1))
    seen = []

    class Spy(Bot):
        def choose(self, game, state, seat=None):
            seen.append(state.cards)
            return game.legal_actions(state, seat)[0]

    for k in range(20):
        choose_for(Spy(), game, session.state, 1, random.Random(k))
    assert all(cards[1] == 1 for cards in seen)                     # its own card is kept
    assert {cards[0] for cards in seen} == {1, 2, 3}                # North's card is redrawn


@SETTINGS
@given(seed=st.integers(0, 10_000), steps=st.integers(0, 40), players=st.integers(2, 4),
       viewer=st.integers(0, 3), k=st.integers(0, 1000))
def test_no_seat_ever_sees_what_it_may_not_know(seed, steps, players, viewer, k):
    """Two positions a seat cannot tell apart look the same to it everywhere, and its bot
    (handed a determinized state) chooses the same in both."""
    game = SecretBid(num_players=players)
    viewer %= players
    session = Session(game, seed=seed)
    rng = random.Random(seed)
    for _ in range(steps):
        if session.is_over:
            break
        seat = game.pending_seats(session.state)[0]
        session.play(rng.choice(session.legal_actions(seat)), seat=seat)
    state = session.state
    other = game.determinize(state, viewer, random.Random(k))       # same knowledge, other secrets
    assert game.view(state, viewer) == game.view(other, viewer)
    assert game.determinize(state, viewer, random.Random(7)) == game.determinize(other, viewer, random.Random(7))
    if game.to_move(state) == SIMULTANEOUS:
        assert game.legal_actions(state, viewer) == game.legal_actions(other, viewer)
        pick = [choose_for(RandomBot(seed=3), game, s, viewer, random.Random(5)) for s in (state, other)]
        assert pick[0] == pick[1]
    # the log: nobody reads another seat's card or order before the reveal
    for entry, node_id in zip(session.history(viewer), session.line()):
        node = session._nodes[node_id]
        if isinstance(node.action, (Deal, Bid, Stake)) and node.action.seat != viewer:
            assert entry["notation"] in (f"{game.seats()[node.action.seat].name} is dealt a card",
                                         f"{game.seats()[node.action.seat].name} changes their order")


# ------------------------------------------------------------------ 2. chance

def test_chance_outcomes_are_a_distribution(game):
    state = game.initial_state()
    outcomes = game.chance_outcomes(state)
    assert [o for o, _ in outcomes] == [Roll(p) for p in range(1, 7)]
    assert sum(p for _, p in outcomes) == pytest.approx(1)
    after = game.apply(game.apply(state, Roll(2)), Deal(0, 3))
    deal = dict(game.chance_outcomes(after))
    assert deal == {Deal(1, 1): 0.4, Deal(1, 2): 0.4, Deal(1, 3): 0.2}   # without replacement


def test_draws_follow_the_probabilities():
    rng = random.Random(0)
    counts = {"a": 0, "b": 0}
    for _ in range(4000):
        counts[draw_outcome([("a", 0.25), ("b", 0.75)], rng)] += 1
    assert 900 < counts["a"] < 1100


def test_a_chance_step_is_drawn_recorded_and_replayed(game, tmp_path):
    session = Session(game, seed=5, path=tmp_path / "bid.json")
    assert session.to_move == SIMULTANEOUS and session.state.prize in range(1, 7)
    saved = [json.loads(line)["node"] for line in (tmp_path / "bid.json").read_text().splitlines()[1:-1]]
    assert [n["chance"]["kind"] for n in saved] == ["roll", "deal", "deal"]
    assert not any(n.get("forced") for n in saved)
    assert Session.load(tmp_path / "bid.json").state == session.state


def test_undo_stops_before_a_chance_step_so_a_designer_can_force_it(game, tmp_path):
    session = Session(game, seed=5, path=tmp_path / "bid.json")
    session.undo()                                   # before South's card
    assert session.to_move == CHANCE and session.state.cards[1] is None
    session.undo()
    session.undo()                                   # before the die
    assert session.to_move == CHANCE and session.state.prize is None and not session.can_undo
    session.force(Roll(6))                           # "undo, then force a 6"
    assert session.state.prize == 6
    assert session.to_move == SIMULTANEOUS           # the deal after it is drawn as usual
    history = session.history()
    assert history[1]["notation"].endswith("(forced)") and history[1]["forced"]
    assert not history[2]["forced"]
    assert "(forced)" in session.report()
    saved = [json.loads(line) for line in (tmp_path / "bid.json").read_text().splitlines()]
    forced = [{k: v for k, v in r["node"].items() if k not in ("by", "t")} for r in saved
              if "node" in r and r["node"].get("forced")]
    assert forced == [{"parent": 0, "chance": {"kind": "roll", "prize": 6}, "forced": True}]
    reloaded = Session.load(tmp_path / "bid.json")
    assert reloaded.state == session.state and reloaded.history()[1]["forced"]


def test_an_impossible_forced_outcome_is_refused(game):
    session = dealt(game, cards=(3,))                # North has a 3; South's card is next
    before = (session.state, session.positions())
    for impossible in (Deal(1, 7), Deal(0, 1), Roll(3)):
        with pytest.raises(IllegalAction, match="cannot happen here"):
            session.force(impossible)
    assert (session.state, session.positions()) == before       # a refusal changes nothing
    session.play(Deal(1, 3))                         # an outcome played when chance is to move is forced
    assert session.history()[-1]["forced"] and session.state.cards == (3, 3)
    with pytest.raises(IllegalAction, match="chance is not to move"):
        session.force(Roll(3))
    with pytest.raises(IllegalAction, match="chance is to move, not North"):
        dealt(game, cards=(3,)).play(Deal(1, 1), seat=0)


def test_forcing_a_die_twice_in_a_row_is_refused_once_it_is_rolled(game):
    session = Session(game, seed=2, auto_chance=False)
    session.roll()
    assert session.to_move == CHANCE and not session.history()[-1]["forced"]


def test_the_table_offers_the_roll_and_every_outcome_with_its_probability(game):
    session = Session(game, seed=5)
    session.undo()                                   # before South's card
    table = playtest.Table(session)
    buttons = table.board.scene["buttons"]
    assert buttons[0] == {"label": "🎲 Roll", "command": "roll", "title": buttons[0]["title"]}
    labels = [b["label"] for b in buttons[1:]]
    # the table's words would hide the card; the designer forcing one sees which is which
    assert [label.split(" (")[0] for label in labels] == [f"Force: deal {v} to seat 1" for v in (1, 2, 3)]
    assert sorted(label.rsplit("(", 1)[1] for label in labels) == ["1/5)", "2/5)", "2/5)"]
    force = buttons[1]["action"]
    table.board.receive({"type": "action", "action": force})
    assert session.history()[-1]["forced"] and "(forced)" in table.move_log.options[-1][0]
    session.undo()
    table.board.receive({"type": "command", "name": "roll"})
    assert session.to_move == SIMULTANEOUS and not session.history()[-1]["forced"]
    bound = playtest.Table(session, seat=0)
    session.undo()
    assert [b["label"] for b in bound.board.scene["buttons"]] == ["🎲 Roll"]   # a player only rolls


def test_an_uncounted_chance_step_is_sampled_and_checked():
    game = playtest.load("then_there_was_one")
    outcomes = game.chance_outcomes(game.initial_state())
    assert isinstance(outcomes, UncountedChance)
    scatter = outcomes.sample(random.Random(1))
    outcomes.check(scatter)
    with pytest.raises(IllegalAction):
        outcomes.check(type(scatter)(scatter.cells[:3]))
    session = Session(game, seed=3, auto_chance=False)
    table = playtest.Table(session)
    assert [b["label"] for b in table.board.scene["buttons"]] == ["🎲 Roll"]
    table.board.receive({"type": "command", "name": "roll"})
    assert session.to_move not in (CHANCE, None)


# ------------------------------------------------------------------ 3. simultaneous orders

def test_each_pending_seat_has_its_own_legal_actions(game):
    session = dealt(game)
    north, south = session.legal_actions(0), session.legal_actions(1)
    assert north and south and all(a.seat == 0 for a in north) and all(a.seat == 1 for a in south)
    assert set(session.legal_actions()) == set(north) | set(south)


def test_an_action_of_another_seat_is_refused_naming_the_seat(game):
    session = dealt(game)
    with pytest.raises(IllegalAction, match="this is South's order; this table plays for North"):
        session.play(Bid(1, 1), seat=0)
    with pytest.raises(IllegalAction, match="this is South's order"):
        session.play({"kind": "bid", "seat": 1, "amount": 1}, seat=0)
    session.play(Bid(0, 1), seat=0)
    session.play(Submit(0), seat=0)
    with pytest.raises(IllegalAction, match="North has already submitted"):
        session.play(Bid(0, 2), seat=0)
    with pytest.raises(IllegalAction, match="North has already submitted"):
        session.play(Submit(0))


def test_bools_are_not_seats(game):
    session = dealt(game)
    with pytest.raises(IllegalAction, match="seat must be a whole number"):
        session.play(Bid(True, 1))
    with pytest.raises(ValueError, match="must be true or false"):
        session.play({"kind": "stake", "seat": 0, "on": 1})


def test_an_order_is_built_part_by_part_and_withdrawn(game):
    session = dealt(game)
    session.play(Bid(0, 2), seat=0)
    session.play(Stake(0, True), seat=0)
    session.play(Clear(0), seat=0)                   # parts withdrawn before submitting
    assert session.state.orders[0] is None
    with pytest.raises(IllegalAction, match="must choose a bid before submitting"):
        session.play(Submit(0), seat=0)
    session.play(Bid(0, 1), seat=0)
    session.play(Submit(0), seat=0)
    session.play(Withdraw(0), seat=0)                # taken back while South still has to submit
    assert game.pending_seats(session.state) == (0, 1)
    session.play(Submit(0), seat=0)
    session.play(Bid(1, 0), seat=1)
    session.play(Submit(1), seat=1)
    assert session.state.round == 2 and session.state.points == (4, 0)


@SETTINGS
@given(bids=st.lists(st.tuples(st.integers(0, 3), st.booleans()), min_size=3, max_size=3),
       order=st.permutations([0, 1, 2]))
def test_resolution_does_not_depend_on_the_order_of_submission(bids, order):
    game = SecretBid(num_players=3)
    start = game.apply(game.apply(game.apply(game.apply(game.initial_state(), Roll(5)),
                                             Deal(0, 1)), Deal(1, 2)), Deal(2, 3))
    results = []
    for sequence in (order, [0, 1, 2]):
        state = start
        for seat in sequence:
            state = game.apply(state, Bid(seat, bids[seat][0]))
            if bids[seat][1]:
                state = game.apply(state, Stake(seat, True))
        for seat in sequence:
            state = game.apply(state, Submit(seat))
        results.append(state)
    assert results[0] == results[1]


# ------------------------------------------------------------------ 4. playback

def test_the_last_submission_plays_back_step_by_step(game):
    session = dealt(game, cards=(3, 1))
    session.play(Bid(0, 2), seat=0)
    session.play(Submit(0), seat=0)
    assert session.playback() == []
    session.play(Bid(1, 1), seat=1)
    session.play(Submit(1), seat=1)
    frames = session.playback(viewer=None)
    assert len(frames) == 3                          # North revealed, South revealed, the result
    cards = [{i["at"][1]: i.get("text") for i in f["items"] if i["kind"] == "cell" and i["at"][0] == 0}
             for f in frames]
    assert cards[0] == {0: "3", 1: "?"} and cards[1] == {0: "3", 1: "1"}   # one seat revealed at a time
    table = playtest.Table(session, seat=0)
    assert table.playback.layout.display == "flex" and table.playback_slider.max == 3
    assert table.playback_slider.value == 3          # the live position first
    table.playback_slider.value = 0
    assert "Revealing the orders: 1 of 2" in table.board.scene["hint"]
    table.playback_next.click()
    assert "2 of 2" in table.board.scene["hint"]
    table.playback_slider.value = 3
    assert table.board.scene["status"]["text"].startswith("Orders")   # round 2, dealt on its own
    session.undo()                                   # before round 2's last card: still the last move's
    assert table.playback.layout.display == "flex"
    while session.state.round == 2:
        session.undo()
    assert table.playback.layout.display == "none"


def test_frames_of_a_secret_resolution_are_not_shown_behind_the_curtain(game):
    session = dealt(game, cards=(3, 1))
    table = playtest.Table(session)
    for seat, bid in ((0, 2), (1, 1)):
        table.board.receive({"type": "command", "name": "reveal", "seat": seat})
        table.board.receive({"type": "action", "action": Bid(seat, bid).to_json()})
        table.board.receive({"type": "action", "action": Submit(seat).to_json()})
    assert session.state.round == 2
    # the resolution plays first, at the table's level (no seat's secrets), before any curtain
    assert table.held and table.board.curtain == {} and table.viewer is None
    assert table.playback.layout.display == "flex" and table._frames == session.playback(None)
    table.continue_button.click()
    assert table.board.curtain and table.playback.layout.display == "none"
    table.board.receive({"type": "command", "name": "reveal", "seat": 0})
    assert table.playback.layout.display == "flex"


# ------------------------------------------------------------------ the lab and bots

def test_the_lab_plays_the_example_game(game):
    result = playtest.simulate(game, games=40, seed=3)
    assert sum(result.wins.values()) + result.draws == 40


def test_a_bot_seat_submits_for_itself_at_the_table(game):
    session = Session(game, seed=2)
    table = playtest.Table(session, bots={1: RandomBot(seed=4)}, seat=0)
    table.board.receive({"type": "action", "action": Bid(0, 1).to_json()})
    table.board.receive({"type": "action", "action": Submit(0).to_json()})
    assert session.state.round == 2 or session.state.orders[1] is not None


def test_random_play_through_the_session_ends(game):
    session = Session(game, seed=9)
    rng = random.Random(0)
    while not session.is_over:
        seat = game.pending_seats(session.state)[0]
        session.play_bot(RandomBot(rng.randint(0, 99)), seat)
    assert session.winner in (0, 1, playtest.DRAW)
