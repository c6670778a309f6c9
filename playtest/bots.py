"""Bots: players that choose actions through the same rules API as a person.

A bot is any object with ``choose(game, state, seat=None) -> action``. The
random bot works for every game; games add their own (greedy) bots in their
modules and list them in :data:`BOTS`.

A bot is a player like any other: it never gets the true state of a game with
secrets. Whatever drives it (the table, the session, the lab) calls
:func:`choose_for`, which hands the bot ``game.determinize(state, seat, rng)``:
a state in which everything its seat may not know is redrawn at random,
consistently with what the seat does know. So a bot cannot read a face-down
value; a searching bot may call ``determinize`` again on what it got to sample
other possible worlds.

>>> import playtest
>>> from playtest.bots import RandomBot
>>> game = playtest.load("eat_thyself")
>>> bot = RandomBot(seed=3)
>>> action = bot.choose(game, game.initial_state())
>>> action in game.legal_actions(game.initial_state())
True
"""

from __future__ import annotations

import random
from typing import Any, Callable

from .rules import SIMULTANEOUS

__all__ = ["Bot", "RandomBot", "BOTS", "register_bot", "bots_for", "choose_for"]


class Bot:
    """Base class: a named player that picks an action for the seat to move.

    In a simultaneous step (``game.to_move(state) == playtest.SIMULTANEOUS``)
    the caller passes ``seat=``: the bot submits for that seat.
    """

    name = "bot"

    def choose(self, game: Any, state: Any, seat: int | None = None) -> Any:
        raise NotImplementedError

    def __repr__(self) -> str:
        return f"{type(self).__name__}()"


class RandomBot(Bot):
    """Plays a uniformly random legal action (its own seeded generator)."""

    name = "random"

    def __init__(self, seed: int | None = None):
        self.seed = seed
        self.rng = random.Random(seed)

    def choose(self, game: Any, state: Any, seat: int | None = None) -> Any:
        if seat is not None and game.to_move(state) == SIMULTANEOUS:   # only this seat's submissions
            return self.rng.choice(game.legal_actions(state, seat))
        return game.random_action(state, self.rng)

    def __repr__(self) -> str:
        return f"RandomBot(seed={self.seed!r})"


def choose_for(bot: Any, game: Any, state: Any, seat: int, rng: random.Random) -> Any:
    """What ``bot`` plays for ``seat`` in ``state``, seeing only what ``seat`` may know.

    The bot is handed ``game.determinize(state, seat, rng)`` (the state itself
    for games without secrets), so it cannot read a hidden value; its choice
    depends only on the seat's knowledge, ``rng`` and its own generator.

    >>> import playtest
    >>> game = playtest.load("eat_thyself")
    >>> state = game.initial_state()
    >>> choose_for(RandomBot(seed=1), game, state, 0, random.Random(2)) in game.legal_actions(state)
    True
    """
    seen = game.determinize(state, seat, rng) if game.has_secrets else state
    if game.to_move(state) == SIMULTANEOUS:
        return bot.choose(game, seen, seat=seat)
    return bot.choose(game, seen)


#: Bots by game name: ``{"then_there_was_one": {"greedy_token": cls, ...}}``.
BOTS: dict[str, dict[str, Callable[..., Bot]]] = {}


def register_bot(game: str, name: str) -> Callable[[type], type]:
    """Class decorator listing a game's own bot in :data:`BOTS`."""
    def wrap(cls: type) -> type:
        BOTS.setdefault(game, {})[name] = cls
        return cls
    return wrap


def bots_for(game: str) -> dict[str, Callable[..., Bot]]:
    """The bots that can play ``game``: ``random`` plus the game's own."""
    from .rules import _ensure_loaded
    _ensure_loaded()
    return {"random": RandomBot, **BOTS.get(game, {})}
