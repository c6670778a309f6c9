"""Worked examples of the game protocol: unlisted games (``playtest.games()`` leaves them out),
loadable by name once this package is imported (``playtest.load`` imports it).

* :mod:`playtest.examples.secret_bid`: Secret Bid, the game of ``docs/adding_a_game.md``;
  it uses chance, secrets, simultaneous orders and playback, so the core's tests run on it.
"""

from . import secret_bid  # noqa: F401  (registers the game, unlisted)
