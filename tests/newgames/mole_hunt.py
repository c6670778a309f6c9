"""Mole Hunt: one hidden saboteur among 3 to 5 seats (a third newcomer's game, from the guide alone).

Rules
-----
M1. 3 to 5 seats. At the start one seat is made the mole, by chance, each seat alike; only the
    mole knows it.
M2. Each round the leader (seat ``round`` modulo the seats) picks ``team`` seats for a mission,
    one at a time (itself allowed, nobody twice).
M3. The team members then play a card each, in secret and at once: loyal seats must play
    ``pass``; the mole may play ``pass`` or ``sabotage``. When all have played, the number of
    sabotages is revealed (not who); a mission with one or more fails.
M4. ``need`` successful missions: the loyal seats win together; ``need`` failed missions: the mole
    wins. The mole is revealed when the game ends.
"""
from __future__ import annotations

import random
from dataclasses import dataclass

from playtest import (CHANCE, SIMULTANEOUS, Action, Game, GameType, Outcome, Params, Refusal, State, field, param,
                      register)

NAMES = {3: ("Ann", "Ben", "Cal"), 4: ("Ann", "Ben", "Cal", "Dee"), 5: ("Ann", "Ben", "Cal", "Dee", "Eve")}


@dataclass(frozen=True)
class MoleParams(Params):
    num_players: int = param(4, "seats", live=False, min=3, max=5, rule="M1")
    team: int = param(2, "seats on each mission", live=False, min=1, max=3, rule="M2")
    need: int = param(2, "missions that decide the game", live=False, min=1, max=3, rule="M4")

    def check(self):
        if self.team >= self.num_players:
            raise ValueError(f"a team of {self.team} leaves nobody out of {self.num_players} seats (rule M2)")


class Unmask(Action):                       # chance: who is the mole
    mole: int


class Pick(Action):
    member: int


class Play(Action):
    seat: int
    sabotage: bool


class Hunt(State):
    roles: tuple[int | None, ...] = field(default=(None,) * 4, min=0, max=1, visible="owner", pool="roles",
                                          revealed="over", length="seats")   # 1: the mole
    round: int = field(default=0, min=0, max=5)
    team: tuple[int, ...] = field(default=(), min=0, max=4)
    cards: tuple[bool | None, ...] = field(default=(None,) * 4, visible="owner", length="seats")
    played: tuple[bool, ...] = field(default=(False,) * 4, length="seats")
    results: tuple[int, ...] = field(default=(), min=0, max=3)              # sabotages on each mission so far
    over: bool = False


@register(listed=False)
class MoleHunt(Game):
    name, title, seat_names, Params, state_type = "mole_hunt", "Mole Hunt", NAMES, MoleParams, Hunt
    action_types = (Unmask, Pick, Play)
    game_type = GameType(dynamics="simultaneous", chance=True, information="imperfect", utility="general_sum",
                         max_length=1 + 5 * 6)

    def initial_state(self):
        n = self.params.num_players
        return Hunt(roles=(None,) * n, cards=(None,) * n, played=(False,) * n)

    def check_state(self, s):
        if None not in s.roles and sum(s.roles) != 1:
            raise ValueError("mole_hunt.roles: exactly one seat is the mole")
        if len(set(s.team)) != len(s.team) or any(m >= len(s.roles) for m in s.team):
            raise ValueError("mole_hunt.team: each member a seat, once")

    def stage(self, s):
        if None in s.roles:
            return "deal"
        if s.over:
            return "over"
        return "mission" if len(s.team) == self.params.team else "pick"

    def to_move(self, s):
        return {"deal": CHANCE, "over": None, "pick": s.round % len(s.roles), "mission": SIMULTANEOUS}[self.stage(s)]

    def pending_seats(self, s):
        return tuple(m for m in s.team if not s.played[m]) if self.stage(s) == "mission" else ()

    def chance_outcomes(self, s):
        n = len(s.roles)
        return [(Unmask(k), 1 / n) for k in range(n)]

    def candidates(self, s, seat):
        if self.stage(s) == "pick":
            return [Pick(m) for m in range(len(s.roles))]
        return [Play(seat, False), Play(seat, True)]

    def why_not(self, s, a, seat):
        if isinstance(a, Unmask):
            return Refusal("the mole is chosen by chance", "M1")
        if isinstance(a, Pick) != (self.stage(s) == "pick"):
            return Refusal("the leader picks the team first, then the team plays", "M2")
        if isinstance(a, Pick):
            if not 0 <= a.member < len(s.roles):
                return Refusal("no such seat", "M2")
            return Refusal("already on the team", "M2") if a.member in s.team else None
        if isinstance(a, Play):
            if a.seat not in s.team:
                return Refusal("only the team plays cards", "M3")
            if s.played[a.seat]:
                return Refusal("you have played your card", "M3")
            if a.sabotage and s.roles[a.seat] != 1:
                return Refusal("a loyal seat must play pass", "M3")
        return None

    def effect(self, s, a):
        if isinstance(a, Unmask):
            return s.replace(roles=tuple(int(k == a.mole) for k in range(len(s.roles))))
        if isinstance(a, Pick):
            return s.replace(team=tuple(sorted(s.team + (a.member,))))
        cards = tuple(a.sabotage if i == a.seat else c for i, c in enumerate(s.cards))
        played = tuple(True if i == a.seat else p for i, p in enumerate(s.played))
        if not all(played[m] for m in s.team):
            return s.replace(cards=cards, played=played)
        n = len(s.roles)
        results = s.results + (sum(1 for c in cards if c),)
        done = sum(1 for r in results if r) >= self.params.need or sum(1 for r in results if not r) >= self.params.need
        return s.replace(team=(), cards=(None,) * n, played=(False,) * n, results=results, round=s.round + 1, over=done)

    def determinize(self, s, seat, rng: random.Random):
        if None in s.roles or s.over:
            return s
        others = [k for k in range(len(s.roles)) if k != seat]
        mole = seat if s.roles[seat] == 1 else rng.choice(others)
        roles = tuple(int(k == mole) for k in range(len(s.roles)))
        cards = tuple(c if c is None or k == seat else (rng.random() < 0.5 if k == mole else False)
                      for k, c in enumerate(s.cards))
        return s.replace(roles=roles, cards=cards)

    def outcome(self, s):
        if not s.over:
            return None
        mole = s.roles.index(1)
        if sum(1 for r in s.results if r) >= self.params.need:
            return Outcome((mole,), "missions failed", payoffs=tuple(float(k == mole) for k in range(len(s.roles))))
        loyal = tuple(k for k in range(len(s.roles)) if k != mole)
        return Outcome(loyal, "missions succeeded", payoffs=tuple(float(k != mole) for k in range(len(s.roles))))

    def returns_range(self):
        return (0.0, 1.0)
