"""Then There Was One (Global Game Jam 2011), for 3 to 5 players: one wall player against 2 to 4 tokens.

Rules: ``shared/rules/RULES.md`` section A, from the seed text. Seat 0 is the
wall (barrier) player; seats 1.. are the token players, one token each. The
tokens try to cross the board from row 0 to the goal row; the wall player
builds walls on the edges between tiles and buys obstacles to stop them, and
wins by trapping tokens into landing on a tile twice.

Coordinates
-----------
Tiles are ``[col, row]`` (0-based, as in JSON and in scene ids ``cell:c,r``);
row 0 is the token start row (drawn at the bottom), row ``board_length-1`` the
goal row. The move log writes tiles chess-style: ``a1`` is ``[0, 0]``, ``d5``
is ``[3, 4]``; ``d5|d6`` is the edge between two tiles. The *black line* runs
between row ``start_zone_rows-1`` and row ``start_zone_rows``.

How a game runs
---------------
1. **Setup scatter** (A.1 §9): a chance step (``to_move`` is ``CHANCE``) whose
   one outcome, :class:`Scatter`, lists every obstacle tile. It is drawn by
   :meth:`ThenThereWasOne.chance_outcome` as throws at a one-tile-wider area
   around the board: a throw off the board, behind the black line or onto an
   obstacle is thrown again; the whole scatter is redrawn if the goal row
   cannot be reached from row 0 (``ensure_path_after_setup``). A designer may
   force a scatter (``session.resolve_chance(Scatter(...))`` with
   ``auto_chance=False``, or by playing it), and it is validated by the same
   rules. With ``obstacle_setup = "players_place_in_turn"`` the players place
   the obstacles one at a time instead (:class:`PlaceObstacle`, seat order
   starting with the wall player, so 15 split as evenly as possible); with
   ``"fixed_layout"`` the tiles of ``obstacle_layout`` are used and there is no
   chance step.
2. **Start circles** (A.1 §10): each token player, in seat order, clicks the
   start circle of their token (:class:`Start`).
3. **Rounds** (A.1 §12): the wall player's turn, then each token in play in
   seat order (``wall_turns = "before_each_token"`` gives the wall player a
   turn before every token; ``token_turn_order = "team_chooses_order"`` lets
   the team pick the next token with :class:`Choose`, spoken by the
   lowest-numbered token player still to move).

A wall turn is a sequence of atomic actions ended by :class:`EndTurn`:
:class:`Build` (a wall segment on an edge, 1 point), :class:`Remove` (pick up a
standing wall, or take back one built this turn), :class:`Buy` (an obstacle,
``obstacle_cost`` points this turn only). Walls may be picked up at any point of
the wall turn, not only first: the turn ends in exactly the positions picking
up first would give (A.1 §13), and a picked-up wall put back is a new build.
A bought obstacle may go next to a token unless
``bought_obstacle_may_border_token`` is false; then "next to" means the 4 tiles
beside a token's tile, or all 8 around it with ``wall_token_clearance =
"edge_or_corner"`` (A23). A token turn is exactly ``move_length`` atomic
:class:`Step` / :class:`Jump` actions (fewer if it reaches the goal row); the
last one ends the turn by itself.

Automatic events. When the turn passes to a token that has no clean path
(no self-avoiding path of ``move_length`` steps, nor a shorter one into the goal
row), it is eliminated at once (``eliminate_when_no_path``): this happens inside
the action that passed the turn (the wall player's end of turn, or the previous
token's last step), the token is listed in ``eliminated`` as ``"trapped"``, and
the move log says so ("… ; Blue ▲ trapped: eliminated"). A token that lands on
a tile twice is listed as ``"landed twice"``. While a clean path exists the
token must keep to one (``allow_voluntary_revisit = false``): the legal steps
are those after which a clean completion still exists. With
``eliminate_when_no_path = false`` a trapped token is not eliminated: it walks
instead, until it lands twice (and is eliminated by the seed's rule); a token
that cannot step at all stays where it is, and its turn ends (A.3).

Live parameter changes take effect at the start of the next turn: the state
keeps ``rules``, the parameters in force for the turn being played, so a
``wall_budget`` changed during the wall player's turn applies from its next turn
(and the board says so). Win thresholds and ``max_rounds`` apply at once.

Not offered: ``wall_unit = "straight_piece"`` (and so ``max_wall_length``, which
must stay 0 = null), ``walls_on_boundary = true``, ``board_edge_is_wall_for_jumps
= true`` (a diagonal between two tiles of the board always has both flanking
tiles on the board, so the board edge can never close a jump side) and
``tokens_per_player > 1`` (the seed gives no turn rule for several tokens).

Board and bots
--------------
``view`` draws the grid with row 0 at the bottom, its coordinates (``a``.. and
``1``.., as the log writes them), the black line, the tinted start zone and
goal row, obstacles, tokens and walls (``"wall"`` for this turn's, ``"old"``
for walls left standing), and outlines what the last move touched. The wall
player clicks an empty edge slot to build, a wall to pick it up, and the
obstacle supply beside the board then a tile to buy; an edge where no wall
may go says why; a token player clicks one of the lit tiles (a diagonal one is
a jump), and the other neighbours say why not.
:class:`GreedyTokenBot` and :class:`GreedyWallBot` play one side each:
``playtest.Table(session, bots={0: GreedyWallBot()})``.

Files
-----
``params.py`` the parameters; ``board.py`` the board's bit tables; ``actions.py``
the actions; ``paths.py`` the token's steps and the clean-path search;
``rules.py`` the game (legality, effects, end, and the queries the board and
bots use); ``position.py`` a position and its JSON; ``view.py`` the scene;
``bots.py`` the greedy bots.

Position JSON
-------------
``state.to_json()`` gives, and ``game.state_from_json`` reads (every field but
``tokens`` is optional)::

    {"board": [10, 14],                        # width, length (checked if given)
     "phase": "wall",                          # scatter|place|start|order|wall|token|over
     "to_move": 0,                             # seat: 0 the wall player, 1.. tokens
     "round": 1, "first_wall_turn": true,      # the black-line ban is on (default: true on
                                               # the wall player's turn in round 1)
     "obstacles": [[2, 3], [3, 4]],            # every obstacle tile (setup and bought)
     "bought_this_turn": [], "bought_in_game": 0,
     "walls": [[[4, 6], [4, 7]]],              # standing from earlier turns
     "built_this_turn": [[[5, 6], [5, 7]]],    # built during this wall turn
     "tokens": {"1": [4, 0], "2": [6, 0], "3": [8, 0]},   # tokens on the board
     "arrived": [], "eliminated": [],          # seats; eliminated may be [[2, "trapped"]]
     "moved": [],                              # token seats that had their turn this round
     "path": [[4, 0], [4, 1]],                 # token turn: tiles this turn, start first
     "steps_taken": 1, "jumps_used": 0,        # token turn (derived from path if left out)
     "rules": {"wall_budget": 10},             # live parameters of this turn that differ
                                               # from the defaults; leave out = the game's
     "last": {"tiles": [[4, 0], [4, 1]],       # what the last move touched, outlined on the
              "edges": []}}                    # board (a path so far, a wall turn's walls and
                                               # obstacles); no part of the position's equality

>>> import playtest
>>> game = playtest.load("then_there_was_one")
>>> [seat.name for seat in game.seats()]
['Wall ■', 'Red ●', 'Blue ▲', 'Green ◆']
>>> session = playtest.Session(game, seed=7)
>>> session.state.phase, len(session.state.to_json()["obstacles"])
('start', 15)

A hand-written position: Red's turn, between two diagonal obstacles (e6 and f7), so
Red may jump from f6 to e7 between them:

>>> state = game.state_from_json({"obstacles": [[4, 5], [5, 6]], "to_move": 1, "round": 2,
...                               "tokens": {"1": [5, 5], "2": [0, 0], "3": [9, 0]}})
>>> [game.notation(state, a) for a in game.legal_actions(state)]
['Red ● f6→g6', 'Red ● f6→f5', 'Red ● f6⤢e7 jump']
>>> game.apply(state, Step((5, 6)))
Traceback (most recent call last):
...
playtest.rules.IllegalAction: occupied by an obstacle (rule A.1 §15)
"""

from ...rules import EndTurn
from .actions import Build, Buy, Choose, Jump, PlaceObstacle, Remove, Scatter, Start, Step
from .bots import GreedyTokenBot, GreedyWallBot
from .params import ThenThereWasOneParams
from .position import State
from .rules import ThenThereWasOne
from . import playout  # noqa: F401,E402  (ThenThereWasOne.random_playout: random play on plain ints)

__all__ = ["ThenThereWasOne", "ThenThereWasOneParams", "State", "Scatter", "PlaceObstacle", "Start",
           "Choose", "Build", "Remove", "Buy", "EndTurn", "Step", "Jump", "GreedyTokenBot",
           "GreedyWallBot"]
