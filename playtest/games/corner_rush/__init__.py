"""Corner Rush (a student team project played on Tabletopia), for 2 to 4 players: dice, bags, face-down blockers.

Rules: ``shared/rules/RULES.md`` section D, from the seed text. Each player's
pawn starts on a corner of a 5x5 board whose middle tile is a hole; its Ace
token lies on the diagonally opposite corner. The first pawn to reach its own
Ace wins.

How a game runs
---------------
1. **Roll-off** (D.1 §7): every seat rolls the die (faces Null, 2, 3, 4, 5,
   Ace = 0, 2, 3, 4, 5, 6); the single highest starts, the tied highest roll
   again. Each roll is a chance step (:class:`Die`). Turns then go clockwise:
   Red (top-left, ``a5``), Blue (``e5``), Green (``e1``), Yellow (``a1``).
2. **A turn** starts with a choice (D.1 §8, §9):

   * :class:`Roll`, a normal turn: the die is rolled (a chance step). On a
     value v the pawn moves exactly v orthogonal steps, one :class:`Step` each:
     no blocker, no hole, passing pawns but not ending on one, revisits allowed.
     When no way of exactly v steps exists the pawn stays. On a Null the pawn
     stays, and the player may move another player's pawn one step
     (:class:`Push`), not onto that pawn's own Ace, or decline (``EndTurn``).
   * :class:`Challenge` of a blocker orthogonally next to the pawn: it is
     flipped face up (its value is public from then on) and the die is rolled.
     If the roll is at least the value the blocker goes into the challenger's
     bag and the pawn moves exactly roll - value steps; otherwise the blocker
     stays face up and the pawn stays.

   Entering one's own Ace at any step wins at once; the remaining steps are
   dropped.
3. **The blocker step** (D.1 §10): when the player's bag is not empty and a
   tile is free, a blocker is drawn at random (:class:`Draw`, a chance step
   whose outcome only the drawer sees) and placed face down (:class:`Place`)
   on a tile with no pawn, blocker or Ace token that is not the hole. The
   placer knows its value; nobody else does until a challenge flips it.
4. The game is a draw after ``max_turns`` turns (all players together).

A move of several steps is a sequence of atomic :class:`Step` actions ended by
the rules when the steps are used up, so the board, bots and undo share it.

Readings (each a parameter, default first; RULES.md D.2)
---------------------------------------------------------
``center_hole`` true and ``hole_passable`` false (D1); ``start_cells`` corners
and ``goal_cells`` opposite (D2, D3); ``die_faces`` [0, 2, 3, 4, 5, 6] (D4);
``blocker_values`` [0, 2, 3, 4, 5] for ``blockers_per_player`` 5 (D5);
``must_use_all_moves`` true, ``allow_revisit`` true, ``stuck_policy`` no_move
(D6); ``pawn_pass_through`` true, ``pawn_stacking`` false (D7);
``other_aces_open`` true: pawns may enter and stand on other players' Ace tiles
(D8, a parameter this package adds); ``null_moves_other`` true,
``null_other_steps`` 1 (up to that many steps of one pawn),
``null_can_finish_other`` false (D9); ``blocker_placement_mandatory`` true
after a normal turn and after a challenge alike (D10, D16); ``allow_sealing``
true: a blocker may cut a pawn off from its Ace (D10, added here);
``blocker_draw`` random, ``placer_knows_value`` true (D11);
``challenge_enabled`` true, ``challenge_adjacency`` orthogonal, the challenge
replaces the turn's roll (D12); ``challenge_success`` at_least (D13);
``challenge_moves`` difference, the freed tile may or may not be used (D14);
``failed_challenge_blocker`` revealed (D15); ``captured_blocker_destination``
challenger_bag (D17); ``turn_order`` clockwise, all tied highest re-roll (D18);
``win_on_entry`` true, also in a challenge's move (D19); ``num_players`` 4
(D21); ``max_turns`` 200 (D22); ``rolloff_is_first_roll`` false,
``win_on_occupied_ace`` true, ``max_challenges_per_turn`` 1 (a further challenge
comes after the last one's move), ``null_power_in_challenge`` false,
``challenge_removal`` automatic, ``no_free_tile`` skip and
``blocker_color_visible`` true (D.1). The tiles lying face down (D20) have no
effect. ``rng_seed``: dice and draws come from the session's seed.

Hidden information
------------------
A face-down blocker's value is known to the seat that placed it (``known``);
a challenge turns it face up, public from then on (with
``failed_challenge_blocker = "flip_back"`` it goes face down again, known to
every seat). A bag's contents are known to its owner; the others see how many
blockers it holds. "Known" means *shown*: a seat is not credited with what it
could deduce. ``view``, ``notation`` (the move log and the report) and the
bots follow this: a bag draw reads "Red draws a blocker" to everyone but Red,
and :meth:`CornerRush.determinize` redraws, for a seat, every value it does not
know, the blocker another player holds and the other bags (sizes kept), as one
shuffle of the blockers it cannot place (:meth:`CornerRush.hidden_pool`).

Files
-----
``params.py`` the parameters; ``board.py`` the tiles and exact-length walks;
``actions.py`` the actions; ``rules.py`` the game (legality, effects, chance,
secrets, notation); ``position.py`` a position and its JSON; ``view.py`` the
scene; ``bots.py`` the greedy bot and wins by turn order.

Position JSON
-------------
``state.to_json()`` gives, and ``game.state_from_json`` reads (every field is
optional; tiles are written as in the notation, ``a1`` bottom-left)::

    {"phase": "move",          # rolloff|start|roll|challenge|take|move|null|again|draw|place|over
     "to_move": 0,             # the seat whose turn it is (null during the roll-off)
     "turn": 12,               # turns played, all players together
     "pawns": ["b5", "e5", "e1", "a1"],               # one tile per seat
     "blockers": {"c4": {"colour": 1, "value": 3, "known": [1]},   # face down, known to seat 1
                  "b2": {"colour": 0, "value": 5, "face_up": true}},
     "bags": [[[0, 0], [0, 2]], ...],   # per seat: [colour, value] of each blocker in it; left out: each
                                        # seat's own blockers that are nowhere else
     "held": null,             # [colour, value] drawn and not yet placed (phase place)
     "die": 4,                 # the die's last result (null: none yet)
     "steps": 3,               # move: steps left; null: pawn steps left
     "path": ["a5", "b5"],     # this turn's tiles of the pawn moved, its start first
     "challenged": null, "challenges": 0,   # the blocker challenged this turn, and how many
     "pushed": null,           # null phase: the seat whose pawn is being moved
     "rolloff": [[[0, 6], [1, 5], [2, 3], [3, 2]]],   # rounds of [seat, value]
     "removed": [],            # blockers out of the game (captured_blocker_destination = "removed")
     "last": {"seat": 3, "path": ["a1", "a2"], "placed": "c2"},    # the previous turn, marked on the board
     "winner": null, "reason": ""}

Every blocker must be somewhere exactly once (board, bags, held or removed).

>>> import playtest
>>> game = playtest.load("corner_rush")
>>> session = playtest.Session(game, seed=3)          # the roll-off is drawn at once: a tie, rolled again
>>> for entry in session.history()[-3:]:
...     print(entry["notation"])
Yellow rolls 4 for the first player; Blue, Yellow tie and roll again
Blue rolls 4 again for the first player
Yellow rolls Null again for the first player; Blue starts
>>> session.play("roll the die")                      # Blue's normal turn: the die is drawn from the seed
>>> session.history()[-1]["notation"]
"Blue rolls Null: may move another player's pawn"
>>> session.play(Push(pawn=0, to="b5"))               # Red's pawn, one step; then Blue's blocker is drawn
>>> [entry["notation"] for entry in session.history(viewer=1)[-2:]]
["Blue moves Red's pawn a5→b5", 'Blue draws a 5']
>>> session.history(viewer=0)[-1]["notation"]         # what Red reads
'Blue draws a blocker'
"""

from ...rules import EndTurn
from .actions import Challenge, Die, Draw, Leave, Place, Push, Roll, Step, Take
from .bots import GreedyBot, turn_order_results
from .params import CornerRushParams, face_name
from .position import Blocker, State, first_player
from .rules import CornerRush

__all__ = ["CornerRush", "CornerRushParams", "State", "Blocker", "Roll", "Challenge", "Die", "Step", "Push",
           "Take", "Leave", "Draw", "Place", "EndTurn", "GreedyBot", "first_player", "turn_order_results",
           "face_name"]
