"""What ``check_game`` could not see (the newcomer passes, tests/newgames/): each blind spot pinned
by a small game broken on purpose, as a designer breaks one without noticing, that passed
``check_game`` (or failed it pointing the wrong way) before.

1. an ``effect`` that changes the state it is given (a dict field assigned into);
2. an action ``why_not`` allows that ``candidates`` never lists (the table never offers it);
3. ``determinize`` drawing worlds the game refuses (hidden cards without their ``pool``);
4. a hand left undeclared, printed in the move log: the failure says how to declare it.
"""

from __future__ import annotations

import pytest

import playtest
from playtest import (CHANCE, Action, Game, GameType, Outcome, Refusal, State, check_game, field, per_seat, register)
from playtest.boards import board_view

CELLS = 5


class Mark(Action):
    cell: int


class Swap(Action):
    pass


class Line(State):
    cells: tuple[int, ...] = field((-1,) * CELLS, min=-1, max=1)      # -1 empty, else the seat's mark
    turn: int = field(0, min=0, max=CELLS)


@register(listed=False)
class Marks(Game):
    """Two seats mark the cells of a line in turn; the seat with more marks wins. Correct as written:
    the broken games below change one thing each."""
    name, seat_names, state_type, action_types = "marks", ("A", "B"), Line, (Mark,)
    game_type = GameType(max_length=CELLS + 1)

    def to_move(self, s):
        return None if s.turn >= CELLS else s.turn % 2

    def candidates(self, s, seat):
        return [Mark(c) for c in range(CELLS)]

    def why_not(self, s, a, seat):
        if not 0 <= a.cell < CELLS:
            return Refusal("that cell is off the line")
        if s.cells[a.cell] >= 0:
            return Refusal("that cell is marked")
        return None

    def effect(self, s, a):
        return s.replace(cells=per_seat(s.cells, a.cell, s.turn % 2), turn=s.turn + 1)

    def outcome(self, s):
        if s.turn < CELLS:
            return None
        counts = [s.cells.count(seat) for seat in (0, 1)]
        return Outcome((counts.index(max(counts)),), "more marks")


def test_the_correct_game_passes():
    check_game(Marks(), examples=3, seed=1).assert_ok()


# --- 1. an effect that changes the state it is given ----------------------------------------------

class Board(State):
    cells: dict[str, int] = field(min=-1, max=1)          # (empty by default; initial_state fills it)
    turn: int = field(0, min=0, max=CELLS)


@register(listed=False)
class AssignsIntoItsState(Marks):
    """``s.cells[k] = v``: the dict is shared by the state given and the one returned."""
    name, state_type = "assigns_into", Board

    def initial_state(self):
        return Board(cells={str(c): -1 for c in range(CELLS)})

    def why_not(self, s, a, seat):
        if str(a.cell) not in s.cells:
            return Refusal("that cell is off the line")
        if s.cells[str(a.cell)] >= 0:
            return Refusal("that cell is marked")
        return None

    def effect(self, s, a):
        s.cells[str(a.cell)] = s.turn % 2          # the defect: the state it was given changes too
        return s.replace(turn=s.turn + 1)

    def outcome(self, s):
        if s.turn < CELLS:
            return None
        counts = [list(s.cells.values()).count(seat) for seat in (0, 1)]
        return Outcome((counts.index(max(counts)),), "more marks")


def test_an_effect_that_changes_the_state_it_was_given_is_named():
    """Before: "random action is legal: IndexError: Cannot choose from an empty sequence ... in the
    kit's code, not the game's" (every replayed position showed the last board, nothing left to
    mark), which pointed at the kit."""
    report = check_game(AssignsIntoItsState(), examples=3, seed=1)
    assert [f.property for f in report.failures] == ["listed actions are accepted"], report
    message = report.failures[0].message
    assert message.startswith("effect() changed the state it was given (playing mark ")
    assert "field cells['" in message and "before -1, after 0" in message
    assert "return state.replace(...) with new values instead" in message
    assert report.failures[0].history == []            # the first move already does it
    assert "IndexError" not in str(report)


@register(listed=False)
class OnlyTheLastCell(AssignsIntoItsState):
    """Assigns into its state for the last cell only."""
    name = "only_the_last_cell"

    def effect(self, s, a):
        if a.cell == CELLS - 1:
            s.cells[str(a.cell)] = s.turn % 2
            return s.replace(turn=s.turn + 1)
        return s.replace(cells={**s.cells, str(a.cell): s.turn % 2}, turn=s.turn + 1)


def test_a_changed_state_is_caught_where_the_listed_actions_are_played_too():
    """An effect that changes its state only for a move the random games never played at that
    position: "listed actions are accepted" plays the others and sees it."""
    from playtest.check.actions import _listed_accepted
    from playtest.check.report import CheckReport, _Stop
    import random

    game = OnlyTheLastCell()
    with pytest.raises(_Stop) as stopped:
        _listed_accepted(game, game.initial_state(), CheckReport("", {}, 0), random.Random(0), [])
    assert stopped.value.failure.message.startswith(f"effect() changed the state it was given (playing "
                                                    f"mark {CELLS - 1}, field cells['{CELLS - 1}']")


# --- 2. an action why_not allows that candidates never lists --------------------------------------

@register(listed=False)
class ForgottenSwap(Marks):
    """The pie rule: B's first move may swap A's mark for its own. ``why_not`` allows it; the
    listing leaves it out, so the table never offers it (a file or the browser may still send it)."""
    name, action_types = "forgotten_swap", (Mark, Swap)

    def why_not(self, s, a, seat):
        if isinstance(a, Swap):
            return None if s.turn == 1 else Refusal("only B's first move may be a swap")
        return super().why_not(s, a, seat)

    def effect(self, s, a):
        if isinstance(a, Swap):
            return s.replace(cells=tuple(1 if c == 0 else c for c in s.cells), turn=s.turn + 1)
        return super().effect(s, a)


def test_an_action_kind_the_listing_leaves_out_is_found():
    report = check_game(ForgottenSwap(), examples=3, seed=1)
    assert [f.property for f in report.failures] == ["illegal actions are refused"], report
    assert report.failures[0].message == ("why_not allows swap, which candidates() does not list: the table "
                                          "never offers it (add it to candidates, or refuse it in why_not)")
    assert len(report.failures[0].history) == 1         # A's first mark, then B may swap


@register(listed=False)
class ListedSwap(ForgottenSwap):
    name = "listed_swap"

    def candidates(self, s, seat):
        return super().candidates(s, seat) + [Swap()]


def test_listed_in_full_the_swap_passes():
    check_game(ListedSwap(), examples=3, seed=1).assert_ok()


@register(listed=False)
class ShortLoop(Marks):
    """A listing whose loop stops one cell short: the last cell is never offered, though legal."""
    name = "short_loop"
    game_type = GameType(max_length=CELLS)

    def to_move(self, s):
        return None if s.turn >= CELLS - 1 else s.turn % 2

    def candidates(self, s, seat):
        return [Mark(c) for c in range(CELLS - 1)]

    def outcome(self, s):
        return None if s.turn < CELLS - 1 else Outcome((), "the line is full")


def test_a_listed_action_with_a_field_changed_that_why_not_allows_is_found():
    report = check_game(ShortLoop(), examples=2, seed=1)
    assert [f.property for f in report.failures] == ["illegal actions are refused"], report
    assert report.failures[0].message.startswith(f"why_not allows mark {CELLS - 1}, which candidates() "
                                                 "does not list")


def test_unlisted_actions_in_a_simultaneous_step_are_tried_for_the_seat_they_name():
    """In a simultaneous step the kernel gives an action to the seat it names: a seat's listed order
    with the other seat named is no stray acceptance, and the example games pass."""
    check_game("goofspiel", examples=2, seed=3, positions=10).assert_ok()


# --- 3. determinize drawing worlds the game refuses ---------------------------------------------------

class Deal(Action):
    seat: int
    card: int


class Bet(Action):
    high: bool


class Table(State):
    hands: tuple[int | None, ...] = field((None, None), visible="owner", min=0, max=5)
    deck: tuple[int, ...] = field((0, 1, 2, 3, 4, 5), visible="none", min=0, max=5)     # no pool="deck"
    bets: tuple[int, ...] = field((-1, -1), min=-1, max=1)


@register(listed=False)
class HighCard(Game):
    """Each seat is dealt a card of six, then bets high or low; the higher card wins. Its hands and
    deck are hidden, but without one ``pool`` each hidden card is redrawn on its own."""
    name, seat_names, state_type, action_types = "high_card", ("A", "B"), Table, (Deal, Bet)
    game_type = GameType(chance=True, information="imperfect", max_length=4)

    def check_state(self, s):
        held = [c for c in s.hands if c is not None] + list(s.deck)
        if sorted(held) != list(range(6)):
            raise ValueError(f"high_card: the hands and the deck hold {sorted(held)}, not each card 0 to 5 once")

    def to_move(self, s):
        if None in s.hands:
            return CHANCE
        return None if min(s.bets) >= 0 else s.bets.index(-1)

    def chance_outcomes(self, s):
        seat = s.hands.index(None)
        return [(Deal(seat, c), 1 / len(s.deck)) for c in s.deck]

    def candidates(self, s, seat):
        return [Bet(True), Bet(False)]

    def effect(self, s, a):
        if isinstance(a, Deal):
            return s.replace(hands=per_seat(s.hands, a.seat, a.card), deck=tuple(c for c in s.deck if c != a.card))
        return s.replace(bets=per_seat(s.bets, s.bets.index(-1), int(a.high)))

    def notation(self, state, action, viewer=None):
        if isinstance(action, Deal):
            return f"{self.seats()[action.seat].name} is dealt a card" if viewer != action.seat else \
                f"you are dealt {action.card}"
        return super().notation(state, action, viewer)

    def outcome(self, s):
        if min(s.bets) < 0:
            return None
        return Outcome((0 if s.hands[0] > s.hands[1] else 1,), "the higher card")


def test_a_redrawn_world_the_game_refuses_is_found():
    """Before: check_game passed, while the bots searched worlds with a card twice in the deck."""
    report = check_game(HighCard(), examples=3, seed=1)
    assert [f.property for f in report.failures] == ["secrecy: determinize"], report
    message = report.failures[0].message
    assert message.startswith("determinize drew a world the game refuses: high_card: the hands and the deck hold")
    assert message.endswith("; declare the hidden fields' pool (field(..., pool=...)) or write determinize")


class Pooled(Table):
    hands: tuple[int | None, ...] = field((None, None), visible="owner", pool="deck", min=0, max=5)
    deck: tuple[int, ...] = field((0, 1, 2, 3, 4, 5), visible="none", pool="deck", min=0, max=5)
    bets: tuple[int, ...] = field((-1, -1), min=-1, max=1)


@register(listed=False)
class PooledHighCard(HighCard):
    name, state_type = "pooled_high_card", Pooled

    def initial_state(self):
        return Pooled()


@register(listed=False)
class OwnDeterminize(HighCard):
    name = "own_determinize"

    def determinize(self, state, seat, rng):
        return state.replace(deck=tuple(rng.randrange(6) for _ in state.deck))    # a deck drawn anyhow


def test_one_pool_for_the_hands_and_the_deck_passes():
    check_game(PooledHighCard(), examples=3, seed=1).assert_ok()


def test_a_games_own_determinize_is_told_to_draw_reachable_worlds():
    report = check_game(OwnDeterminize(), examples=2, seed=1)
    failure = next(f for f in report.failures if f.property == "secrecy: determinize")
    assert failure.message.endswith("; its determinize must redraw only worlds the rules can reach")


# --- 4. a hand not declared hidden, printed in the move log ----------------------------------------

class Draw(Action):
    seat: int
    card: int


class Open(State):
    hands: tuple[int | None, ...] = field((None, None), min=1, max=3)     # the defect: no visible="owner"
    deck: tuple[int, ...] = field((1, 2, 3), visible="none", pool="deck", min=1, max=3)
    passed: int = field(0, min=0, max=2)


@register(listed=False)
class LoudHands(Game):
    """Its board shows each seat its own card only, but the hand is not declared hidden, and the move
    log names the card drawn to everyone."""
    name, seat_names, state_type, action_types = "loud_hands", ("A", "B"), Open, (Draw, playtest.EndTurn)
    game_type = GameType(chance=True, information="imperfect", max_length=4)

    def to_move(self, s):
        if None in s.hands:
            return CHANCE
        return None if s.passed >= 2 else s.passed

    def chance_outcomes(self, s):
        seat = s.hands.index(None)
        return [(Draw(seat, c), 1 / len(s.deck)) for c in s.deck]

    def candidates(self, s, seat):
        return [playtest.EndTurn()]

    def effect(self, s, a):
        if isinstance(a, Draw):
            return s.replace(hands=per_seat(s.hands, a.seat, a.card), deck=tuple(c for c in s.deck if c != a.card))
        return s.replace(passed=s.passed + 1)

    def notation(self, state, action, viewer=None):
        if isinstance(action, Draw):
            return f"seat {action.seat} draws blue {action.card}"
        return super().notation(state, action, viewer)

    def view(self, state, seat=None):
        mine = state.hands[seat] if seat is not None else None
        return board_view(self, state, seat, panels=[("Hand", [["yours", str(mine)]])])

    def outcome(self, s):
        return None if s.passed < 2 else Outcome((0 if s.hands[0] > s.hands[1] else 1,), "the higher card")


def test_an_undeclared_hand_printed_in_the_log_says_how_to_declare_it():
    report = check_game(LoudHands(), examples=3, seed=1)
    failure = next(f for f in report.failures if f.property == "secrecy: log")
    assert "look the same on its board (a value the board hides from this seat must be declared hidden: " \
           "field(..., visible='owner'), and the notation written per viewer)" in failure.message


@register(listed=False)
class ListsByHand(ForgottenSwap):
    """The swap left out of a ``legal_actions`` written by hand (no candidates to add it to)."""
    name = "lists_by_hand"

    def legal_actions(self, state, seat=None):
        mover = self.to_move(state)
        if mover is None or seat not in (None, mover):
            return []
        return [Mark(c) for c in range(CELLS) if state.cells[c] < 0]


def test_a_hand_written_listing_that_leaves_out_an_allowed_action_is_told_in_its_words():
    report = check_game(ListsByHand(), examples=3, seed=1)
    assert [f.message for f in report.failures] == [
        "apply accepts swap, which legal_actions does not list: the table never offers it (list it in "
        "legal_actions, or refuse it in why_not)"], report
