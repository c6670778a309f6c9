"""Worked examples of the game protocol: unlisted games (``playtest.games()`` leaves them out),
loadable by name once this package is imported (``playtest.load`` imports it).

* :mod:`.tic_tac_toe` (26 lines with its board), :mod:`.connect_four` (``cols``, ``rows`` and
  ``connect`` as parameters), :mod:`.kuhn_poker` (chance deals, hidden cards, chip payoffs) and
  :mod:`.goofspiel` (secret simultaneous bids): the games of ``docs/adding_a_game.md`` and
  ``notebooks/your_own_game.ipynb``, each as a designer would write it in a notebook cell;
* :mod:`.hex`: Hex with the board's size as a parameter, drawn on a hex board
  (``playtest.boards.Hex``, axial coordinates) and won by a chain across the board;
* :mod:`.secret_bid`: Secret Bid, a game that uses every part of the protocol (chance with a
  distribution, hidden cards, simultaneous orders built part by part, playback), so the core's
  tests run on it.
"""

from . import connect_four, goofspiel, hex, kuhn_poker, secret_bid, tic_tac_toe  # noqa: F401  (they register, unlisted)
