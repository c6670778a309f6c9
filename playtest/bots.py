"""Bots: players that choose actions through the same rules API as a person.

A bot is any object with ``choose(game, state, seat=None) -> action``. The
random bot works for every game; games add their own (greedy) bots in their
modules and list them in :data:`BOTS`.

A bot is a player like any other: it never gets the true state of a game with
secrets. Whatever drives it (the table, the session, the lab) calls
:func:`choose_for`, and what the bot is handed there is a declared property of
the bot, :attr:`Bot.needs_world`:

* ``needs_world = True`` (the default, and any bot that does not say): the bot
  reads the position, so it is handed ``game.determinize(state, seat, rng)``, a
  state in which everything its seat may not know is redrawn at random,
  consistently with what the seat does know. A searching bot may call
  ``determinize`` again on what it got to sample other possible worlds.
* ``needs_world = False``: the bot reads nothing but its own choices, so in a
  game with secrets it is handed no state at all, only the seat's legal actions
  (:meth:`Bot.choose_from`), which are the same in every position the seat cannot
  tell apart (``check_game``'s "secrecy: choices"). No world is drawn for it:
  redrawing the other seats' orders, flags and bags at every decision of a random
  bot was most of a random game's time.

So a bot cannot read a face-down value, whichever it declares.

A bot may also declare :attr:`Bot.random_orders`: in a simultaneous step of a game that
draws random whole orders (:meth:`playtest.Game.random_order_parts`), the lab asks it for its
seat's whole order at once (:func:`order_for`) and plays the order's parts one step each (checked
as :mod:`playtest.lab` says); the bot is handed the game's draw, never the state. The kit's :class:`RandomBot`
declares it: in such a game a random player plays a random whole order (as a person writes one),
not a random walk over the parts of an order (which wanders, clears and withdraws for a thousand
steps a game). A table's bot seat does the same: it draws the seat's whole order at once and plays
it one part a step through the session, each part checked. Where the game draws no orders, the bot
is asked part by part as before.

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
from copy import deepcopy
from typing import Any, Callable

from .rules import SIMULTANEOUS

__all__ = ["Bot", "RandomBot", "MCTSBot", "BOTS", "register_bot", "bots_for", "available", "build",
           "choose_for", "order_for", "reseeded"]


class Bot:
    """Base class: a named player that picks an action for the seat to move.

    In a simultaneous step (``game.to_move(state) == playtest.SIMULTANEOUS``)
    the caller passes ``seat=``: the bot submits for that seat.
    """

    name = "bot"
    #: Whether the bot reads the position (then, in a game with secrets, it is handed a redrawn world:
    #: ``game.determinize``), or only its seat's legal actions (then :meth:`choose_from` is called with
    #: them, and no world is drawn). A declared property, never a guess: a bot that does not say
    #: (a duck-typed one included) is handed a world.
    needs_world: bool = True
    #: Whether the bot plays random whole orders in a simultaneous step of a game that draws them
    #: (:meth:`playtest.Game.random_order_parts`): the lab then asks it for the seat's whole order at
    #: once (:meth:`choose_order`, through :func:`order_for`), not part by part. A declared property:
    #: a bot that does not say is asked part by part.
    random_orders: bool = False

    def choose(self, game: Any, state: Any, seat: int | None = None) -> Any:
        raise NotImplementedError

    def choose_order(self, draw: Callable[[random.Random], Any]) -> Any:
        """The parts of a whole order, for a bot with ``random_orders = True``: ``draw(rng)`` is the
        game's random whole order for the seat (drawn from what the seat may know), given the
        generator to draw it with; ``None`` to be asked part by part instead.

        >>> RandomBot(seed=1).choose_order(lambda rng: ["part", rng.choice(["a", "b"])])[0]
        'part'
        """
        raise NotImplementedError(f"{type(self).__name__} declares random_orders = True but has no choose_order")

    def choose_from(self, actions: list[Any]) -> Any:
        """One of ``actions`` (a seat's legal actions, never empty): what a bot with
        ``needs_world = False`` is asked in a game with secrets, instead of :meth:`choose`.

        >>> RandomBot(seed=1).choose_from(["a", "b", "c"]) in ("a", "b", "c")
        True
        """
        raise NotImplementedError(f"{type(self).__name__} declares needs_world = False but has no choose_from")

    def plays(self, game: Any, seat: int) -> bool:
        """Whether this bot can play ``seat`` of ``game`` (a table's seat menu offers it only there).

        >>> import playtest
        >>> RandomBot().plays(playtest.load("source"), 1)
        True
        """
        return True

    def reseed(self, seed: Any) -> None:
        """Restart every random generator the bot holds from ``seed``.

        The lab calls it on a fresh copy of the bot for every game, so a game's
        result depends on the run's seed and the game's number only, never on
        which worker played which games before.
        """
        for name, value in vars(self).items():
            if isinstance(value, random.Random):
                value.seed(f"{seed}:{name}")

    def __repr__(self) -> str:
        return f"{type(self).__name__}()"


class RandomBot(Bot):
    """Plays a uniformly random legal action (its own seeded generator).

    It reads only its own legal actions (``needs_world = False``): in a game with
    secrets no world is drawn for it, it picks among the seat's legal actions.
    """

    name = "random"
    needs_world = False
    random_orders = True

    def __init__(self, seed: int | None = None):
        self.seed = seed
        self.rng = random.Random(seed)

    def choose(self, game: Any, state: Any, seat: int | None = None) -> Any:
        if seat is not None and game.to_move(state) == SIMULTANEOUS:   # only this seat's submissions
            return self.rng.choice(game.legal_actions(state, seat))
        return game.random_action(state, self.rng)

    def choose_from(self, actions: list[Any]) -> Any:
        return self.rng.choice(actions)

    def choose_order(self, draw: Callable[[random.Random], Any]) -> Any:
        return draw(self.rng)

    def __repr__(self) -> str:
        return f"RandomBot(seed={self.seed!r})"


def choose_for(bot: Any, game: Any, state: Any, seat: int, rng: random.Random, legal: list[Any] | None = None) -> Any:
    """What ``bot`` plays for ``seat`` in ``state``, seeing only what ``seat`` may know.

    In a game with secrets, a bot that reads the position (:attr:`Bot.needs_world`,
    the default) is handed ``game.determinize(state, seat, rng)``; a bot that
    declares ``needs_world = False`` is handed only ``seat``'s legal actions
    (``legal`` when the caller has listed them already) through
    :meth:`Bot.choose_from`, and ``rng`` is not used. Games without secrets hand
    every bot the state itself. Either way the bot cannot read a hidden value;
    its choice depends only on the seat's knowledge, ``rng`` and its own generator.

    >>> import playtest
    >>> game = playtest.load("eat_thyself")
    >>> state = game.initial_state()
    >>> choose_for(RandomBot(seed=1), game, state, 0, random.Random(2)) in game.legal_actions(state)
    True
    >>> secret = playtest.load("back_to_the_wall", rounds=1)
    >>> hidden = secret.initial_state()
    >>> choose_for(RandomBot(seed=1), secret, hidden, 2, random.Random(2)) in secret.legal_actions(hidden, 2)
    True
    """
    if game.has_secrets:
        if not getattr(bot, "needs_world", True):
            actions = legal if legal is not None else game.legal_actions(state, seat)
            if not actions:
                raise ValueError(f"seat {seat} has nothing to do in this position")
            return bot.choose_from(actions)
        seen = game.determinize(state, seat, rng)
    else:
        seen = state
    if game.to_move(state) == SIMULTANEOUS:
        return bot.choose(game, seen, seat=seat)
    return bot.choose(game, seen)


def order_for(bot: Any, game: Any, state: Any, seat: int) -> list[Any] | None:
    """The parts of a whole order ``bot`` gives for pending ``seat`` at once in a simultaneous step, in
    the order they are played (the last submits it), or ``None``: then the bot is asked part by part
    (:func:`choose_for`).

    Only a bot that declares :attr:`Bot.random_orders` is asked, and only in a game that draws
    random whole orders (:meth:`playtest.Game.random_order_parts`); the bot is handed the game's
    draw (a function of a generator), never the state, and the game draws from what ``seat`` may
    know. The caller plays the parts one step each; the lab checks every part of a bot's order
    through the game's legality decision, except the kit's own :class:`RandomBot`'s, which are the
    rules' draw (verified by ``check_game``, proved at the lab's sampled decisions).

    >>> import playtest
    >>> game = playtest.load("back_to_the_wall", rounds=1)
    >>> state = game.initial_state()
    >>> parts = order_for(RandomBot(seed=1), game, state, 2)
    >>> for part in parts:
    ...     state = game.apply(state, part)          # each part legal in turn
    >>> game.pending_seats(state)
    (0, 1, 3)
    >>> order_for(RandomBot(seed=1), playtest.load("eat_thyself"), playtest.load("eat_thyself").initial_state(), 0)
    """
    if not getattr(bot, "random_orders", False) or game.to_move(state) != SIMULTANEOUS:
        return None
    parts = bot.choose_order(lambda rng: game.random_order_parts(state, seat, rng))
    return list(parts) if parts is not None else None


def reseeded(bot: Any, seed: Any) -> Any:
    """A copy of ``bot`` with its random generators restarted from ``seed`` (the original is untouched).

    >>> a, b = reseeded(RandomBot(1), "run:0"), reseeded(RandomBot(1), "run:0")
    >>> a.rng.random() == b.rng.random()
    True
    """
    copy = deepcopy(bot)
    if hasattr(copy, "reseed"):
        copy.reseed(seed)
    else:        # a duck-typed bot: restart the generators it holds all the same
        Bot.reseed(copy, seed)
    return copy


#: Bots by game name: ``{"then_there_was_one": {"greedy_token": cls, ...}}``.
BOTS: dict[str, dict[str, Callable[..., Bot]]] = {}


def register_bot(game: str, name: str) -> Callable[[type], type]:
    """Class decorator listing a game's own bot in :data:`BOTS`."""
    def wrap(cls: type) -> type:
        BOTS.setdefault(game, {})[name] = cls
        return cls
    return wrap


def bots_for(game: Any) -> dict[str, Callable[..., Bot]]:
    """The bots that can play ``game`` (a name or a game) by name: ``random``, ``mcts`` and the game's own."""
    from .rules import _ensure_loaded
    _ensure_loaded()
    name = game if isinstance(game, str) else game.name
    return {"random": RandomBot, "mcts": MCTSBot, **BOTS.get(name, {})}


def available(game: Any, seat: int | None = None) -> list[str]:
    """The names of the bots for ``game`` (a name or a game); with ``seat``, only those that can play it.

    >>> available("source")
    ['random', 'mcts', 'greedy']
    >>> available("then_there_was_one", seat=0)
    ['random', 'mcts', 'greedy_wall']
    """
    names = list(bots_for(game))
    if seat is None:
        return names
    from .rules import load
    game = load(game) if isinstance(game, str) else game
    return [name for name in names if build(game, name).plays(game, seat)]


def build(game: Any, name: str, **options: Any) -> Bot:
    """A new bot called ``name`` for ``game`` (a name or a game), made with ``options``.

    >>> build("then_there_was_one", "mcts", iterations=50, seed=1)
    MCTSBot(iterations=50, seed=1, exploration=1.0, rollout_limit=100, width=14)
    >>> build("source", "cleverest")
    Traceback (most recent call last):
    ...
    ValueError: source has no bot called 'cleverest'; its bots are: random, mcts, greedy
    """
    makers = bots_for(game)
    if name not in makers:
        shown = game if isinstance(game, str) else game.name
        raise ValueError(f"{shown} has no bot called {name!r}; its bots are: {', '.join(makers)}")
    return makers[name](**options)


from .mcts import MCTSBot  # noqa: E402  (the search bot is a Bot: defined after the base class)
