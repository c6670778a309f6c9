"""Source, from "The Crossroads Challenge" week 1 (junksalongames.com, May 2012), for 2 players.

Rules: ``shared/rules/RULES.md`` section C, from the seed text. Four colours grow
chains of tokens from their *source* corners on the points of a 9x9 grid.
Player A plays red + yellow, player B blue + green; the colours take turns
clockwise (red, blue, yellow, green) with 2 action points each. A token is
*connected* when an orthogonal chain of its colour links it to its source;
connection decides where a colour may place, what it may fortify, what a
capture costs and what a token scores, so it is recomputed after every action.
The game ends when a colour's supply runs out; connected tokens score 2,
unconnected ones 1, a connected centre 10, and an empty point enclosed by one
colour (the board edge is a wall) 3; with ``territory_color_rule = "same_player"``
a point enclosed by both of a player's colours goes to the colour with more
tokens next to it, a tie to the one earlier in turn order (C19).

A turn is a sequence of atomic actions, so board, bots and undo share them:

* :class:`Place` (1 AP) — a supply token on an empty point next to a connected
  token of the active colour;
* :class:`Fortify` (1 AP) — a supply token on top of a connected token of the
  active colour (not on the centre);
* :class:`RemoveFortification` (1 AP + 1 supply token) — take the fortification
  off an opponent's connected stack (a fortified source's too: only capturing a
  source is forbidden);
* :class:`Capture` — an opponent's token: 2 AP when connected, 1 when not, and 1
  for an unconnected fortified stack (both tokens go);
* :class:`EndTurn` — end the turn; the remaining points are lost. A turn also
  ends by itself when its points are spent. A turn in which the colour took no
  action is a *pass* (a turn of only free actions, when a cost is 0, is not);
  ``pass_limit`` passes in a row end the game (C.1 §7, C15).

Points are named like ``e5``: a column letter (``a`` on the left) and a row
number counted **from the top** (row 1 is the top line of the diagram), so
``a1`` is the top-left corner, red's source.

Files
-----
``params.py`` the parameters and colours; ``actions.py`` the actions;
``rules.py`` the game (connection, legality, effects, end, score, and the
queries the board and bots use); ``score.py`` the score's value types and its
point-by-point reference count; ``position.py`` a position and its JSON;
``view.py`` the scene; ``bots.py`` the greedy bot.

Position JSON
-------------
``state.to_json()`` gives, and ``game.state_from_json`` reads::

    {"board": ["r.......b",      # one text line per row, the top row first
               ".........",      # . empty, r b y g a token of red, blue,
               "....R....",      #   yellow, green; upper case: fortified
               ...,
               "g.......y"],
     "supply": {"red": 24, "blue": 24, "yellow": 24, "green": 24},
     "to_move": "red",           # the active colour
     "ap_left": 2,               # its action points left
     "acted": false,             # has it acted this turn (a turn without action is a pass)
     "passes": 0,                # colour turns in a row that passed
     "turn": 0,                  # colour turns completed (turn 0 gets first_turn_ap)
     "over": "",                 # why the game ended, "" while it goes on
     "last": ["b1", "b2"]}       # the points the last colour's turn touched, outlined
                                 #   on the board (no part of the position's equality)

Only ``board`` is required: ``supply`` defaults to the tokens not on the
board, ``to_move`` to ``first_color`` and ``ap_left`` to a full turn. A row
may also be written with spaces between points (``"r . . R2 . . . . b"``);
then ``R2`` is a red stack with 2 fortification tokens (``max_fortify_layers``).

>>> import playtest
>>> game = playtest.load("source")
>>> state = game.state_from_json({"board": [
...     "rr......b",
...     "r........",
...     ".........",
...     ".........",
...     ".........",
...     ".........",
...     ".........",
...     ".........",
...     "g.......y"]})
>>> state.supply
(22, 24, 24, 24)
>>> [str(a) for a in game.legal_actions(state)][:4]
['place c1', 'place b2', 'place a3', 'fortify a1']
>>> state = game.apply(state, game.action_from_json({"kind": "place", "col": 4, "row": 4}))
Traceback (most recent call last):
...
playtest.rules.IllegalAction: e5 is not next to a connected red token (rule C.1 §8)
>>> state = game.apply(state, game.action_from_json({"kind": "place", "col": 2, "row": 0}))
>>> state.to_json()["board"][0], state.ap_left
('rrr.....b', 1)
>>> game.score(state).players
(10, 4)
"""

from ...rules import EndTurn
from .actions import Capture, Fortify, Place, RemoveFortification, point_name
from .bots import GreedyBot
from .params import COLORS, SourceParams  # noqa: F401  (COLORS: tests and notebooks use it)
from .position import State
from .rules import Source
from .score import ColorScore, Score

__all__ = ["Source", "SourceParams", "State", "Place", "Fortify", "RemoveFortification", "Capture",
           "EndTurn", "ColorScore", "Score", "GreedyBot", "point_name"]
