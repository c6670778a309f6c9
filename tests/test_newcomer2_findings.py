"""Defects a second newcomer found writing three games from the guide alone (tests/newgames/pig.py,
expeditions.py, hex_pie.py), each pinned by a test that failed before its fix."""

from __future__ import annotations

import random

import pytest

import playtest
from playtest import Action, Game, GameType, Outcome, State, field, per_seat


class Card(Action):
    seat: int
    card: int


class Hands(State):
    hands: tuple[tuple[int, ...], ...] = field(((), ()), visible="owner", pool="deck", min=0, max=9)
    deck: tuple[int, ...] = field(tuple(range(10)), visible="none", pool="deck", min=0, max=9)


def test_a_pool_shared_by_hands_of_several_cards_is_shuffled_card_by_card():
    """``hands: tuple[tuple[int, ...], ...]`` in one pool with the deck: determinize shuffled a whole
    hand (a tuple) in with the deck's cards, drawing ``hands=((), 3)`` and a deck holding ``()``, a
    world the declaration forbids (the game's view then raised TypeError)."""
    dealt = Hands(hands=((0, 1, 2), (3, 4, 5)), deck=(6, 7, 8, 9))
    for k in range(30):
        world = dealt.determinize(0, random.Random(k))
        assert world.hands[0] == (0, 1, 2)                           # its own hand stays
        assert len(world.hands[1]) == 3 and len(world.deck) == 4     # the shapes stay
        assert sorted(world.hands[1] + world.deck) == [3, 4, 5, 6, 7, 8, 9]
        Hands.from_json(world.to_json())                             # a world the declaration allows
    assert {world.hands[1] for world in (dealt.determinize(0, random.Random(k)) for k in range(30))} != {(3, 4, 5)}
    empty = Hands().determinize(1, random.Random(2))                 # hands not dealt yet stay empty
    assert empty.hands == ((), ()) and sorted(empty.deck) == list(range(10))


class Pairs(State):
    cards: tuple[tuple[int, int] | None, ...] = field((None, None), visible="owner", pool="deck", min=0, max=5)
    deck: tuple[tuple[int, int], ...] = field(((0, 1), (2, 3)), visible="none", pool="deck", min=0, max=5)


def test_a_card_that_is_a_fixed_tuple_stays_one_card_in_its_pool():
    dealt = Pairs(cards=((4, 5), (0, 1)), deck=((2, 3), (1, 1)))
    worlds = [dealt.determinize(0, random.Random(k)) for k in range(20)]
    assert all(w.cards[0] == (4, 5) for w in worlds)
    assert {w.cards[1] for w in worlds} == {(0, 1), (2, 3), (1, 1)}
