"""Back to the Wall (a Main Match of *The Genius: Tempo Up*, by "Zero"), for 4 players: secret simultaneous orders.

Rules: ``shared/rules/RULES.md`` section B, from the seed text. Four players
(North, East, South, West; RULES.md's P1 to P4 are seats 0 to 3) play three
boards at once, **Once**, **Twice** and **Thrice** (8 x 8, 9 x 9, 10 x 10, each
with 2 pre-placed wall cells). On each board every player owns a corner, and
faces a different opponent diagonally on each board (``corner_assignment``).

How a game runs
---------------
Each of the 3 rounds, every player secretly builds an order, part by part
(``to_move`` is ``playtest.SIMULTANEOUS``; every action names its seat):

* up to 1 / 2 / 3 **wall cells** on Once / Twice / Thrice (:class:`AddWall`,
  :class:`RemoveWall`);
* for **every piece** it has on each board, one direction per phase, three
  phases (:class:`Direct`; ``stay`` takes a direction back);
* optionally the secret **garnet bonus** on a board (:class:`Garnet`);

then :class:`Submit` (:class:`Clear` empties the order; :class:`Withdraw` takes
a submitted order back while another seat still has to submit). A seat's
parts are visible only to it (``view`` and ``notation`` with a viewer). When
the last seat submits, everything is revealed (except the garnet flags, which
stay secret until the end) and each board resolves:

1. **Walls** (B.1 §9). A submission on a wall, a corner or a piece is void: it
   is accepted (it uses up one of the round's wall slots; the table warns that
   it will be void) and dropped here. A cell submitted by several players is
   one wall, credited to each. On the raw submissions, walls that touch are all
   void (Once: king-adjacent, Twice: orthogonally adjacent, Thrice: no rule;
   one's own walls included). No corner may be cut off from every other corner:
   if the new walls would do it, the union of every smallest set of new walls
   whose removal restores the rule is removed (the Death Match procedure). A
   cell that becomes a wall loses its owner. Each rejected wall is explained:
   ``rejected: orthogonally adjacent to East's wall e5 on Twice``,
   ``rejected: it would cut off a corner (a1, North's corner)``.
2. **Movement** (B.1 §10), three phases on all boards at once. In phase *i*
   every piece slides in its *i*-th direction, one cell per tick, until a wall
   or the border. A piece whose next cell is a wall or off the board turns to
   the direction whose whole slide crosses the most unowned cells (phase-start
   snapshot); ties go to a perpendicular over the opposite, then to the
   perpendicular toward the player's own corner; with no way out it stays.
   Pieces never block each other (they pass through each other). Every cell a
   piece enters is captured by its player, unless pieces of different players
   are on it at that tick (moving or standing): then it keeps its owner.
3. The next round each player gains a piece on each board, on its corner.

After the last round (B.1 §12-16): on each board, players are ranked by owned
cells plus their garnet bonus (the walls they placed on that board in the
round they flagged it; it costs a garnet); places earn 6 / 4 / 2 / 1 points,
tied players sharing the average. A player first alone on a board earns a
garnet. The most points wins the Token of Life, the fewest is the Elimination
Candidate; equal totals are split by the best single board, then the points
on Thrice, Twice, Once, then shared.

Readings (each one a parameter; RULES.md tags them [A] or [P])
-------------------------------------------------------------
* ``board_sizes`` 8x8, 9x9, 10x10; ``preplaced_walls`` point-symmetric;
  ``corner_assignment`` as RULES.md B3 (B1-B3).
* ``walls_per_round`` every round, fewer allowed (B5); a cell submitted twice
  by one player is refused (B.1 §9.1).
* ``refuse_void_walls`` false: a wall that would be void is accepted when it is
  entered, uses up its slot and is dropped at the resolution (``wall_on_piece =
  "void"``), as the seed's "walls will not be placed if ..." has it; ``true``
  (a variant) refuses it at entry with its reason, and the player chooses again
  (B10).
* ``duplicate_wall`` placed once, credited to all; ``adjacency_scope`` the
  submissions only; ``wall_rule_order`` both rules on the raw submissions;
  ``corner_rule`` each corner reaches at least one other;
  ``corner_violation_resolution`` the union of all minimal removal sets
  (B6-B10); ``forbid_piece_enclosure`` off (B28).
* ``wall_erases_ownership`` (B11); ``spawn_captures`` off (B13);
  ``pieces_initial`` 1 and ``pieces_gain_per_round`` 1 (B12).
* ``redirect_metric`` unowned cells on the phase-start snapshot (B15);
  ``corner_tiebreak`` toward the own corner: TL prefers up or left (B17); with
  no travel in any direction the piece stays (B18).
* ``stopped_pieces_contest`` (this package's reading of B21): a piece standing
  on a cell (stopped, or staying that phase) counts as being there;
  ``contested_capture`` keeps the owner; ``same_owner_contest`` off.
* ``missing_direction`` a phase left without a direction means the piece
  stays; ``"refuse"`` requires all directions before submitting (B22).
* ``garnet_decision_time`` during the round, counting walls *placed* that
  round; ``garnet_paid_without_walls``; ``starting_garnets`` 3; flags may never
  promise more garnets than held (B23). The sole-first garnets are counted
  after the bonus (B25). ``"at_end"`` adds a last secret order after round 3
  in which each player picks the boards (its best round counts).
* ``final_tiebreak`` compares the maximum only, then Thrice, Twice, Once (B26);
  ``final_tie_policy`` shared (tied winners all win; tied last places are all
  Elimination Candidates); ``tie_points`` average.
* Other player counts (``num_players`` 2 or 3): the corners of missing seats
  stay empty and only the first places' points are used (B27).

Board and bots
--------------
``view`` draws the three boards side by side with their coordinates (columns
``a``.., rows ``1``.. from the top; the log writes ``Twice d5``): owned cells
tinted with their owner's colour, walls dark, corners marked with their
owner's initial, pieces numbered. A seat clicks cells to add or take back
walls (a click where a wall may not go says why, with the rule) and clicks
its pieces for a menu of arrows per phase; the garnet flag, Clear, Submit and
Withdraw are buttons; panels show the seats' submitted state, the seat's own
secret order, each board's captured cells, places and points, and the last
round's walls with the reason for each rejection. ``frames`` plays a round
back: the orders revealed, the walls placed and rejected, then every tick.
:class:`GreedyBot` (``"greedy"``) plays the order that captures most cells
against random opponents; the core's ``RandomBot`` plays uniformly random
parts (Submit is always among them, so its orders end).

Files
-----
``params.py`` the parameters; ``boards.py`` each board's tables; ``actions.py``
the actions; ``resolution.py`` walls and movement; ``score.py`` places, points
and the ranking; ``rules.py`` the game (legality, effects, end, the queries
the board and bots use); ``position.py`` a position and its JSON; ``view.py``
the scene and the playback; ``bots.py`` the greedy bot.

Position JSON
-------------
``state.to_json()`` gives, and ``game.state_from_json`` reads (every field is
optional; a board without ``rows`` is the starting board, a seat without
``pieces`` has them all on its corner)::

    {"round": 2, "phase": "orders",                # orders | garnets (after the last round) | over
     "boards": {"Once": {"rows": ["N.......",      # one text per row, top first: '.' unowned,
                                  "........",      # '#' wall, N/E/S/W the owner (lower case:
                                  ...],            # an owned wall, when walls keep owners)
                         "pieces": {"North": ["a1", "c1"], "East": ["h1", "h1"], ...}},
                "Twice": {...}, "Thrice": {...}},
     "orders": {"North": {"walls": {"Twice": ["d5"]},                 # secret until revealed
                          "directions": {"Once": ["URD", "L.."]},     # per piece: U R D L, '.' none
                          "garnet": ["Thrice"], "submitted": false}},
     "flags": {"North": {"Once": [1]}},           # secret garnet bonuses of earlier rounds
     "placed": {"North": {"Once": [1, 0, 0]}},    # walls placed per round (for the bonus)
     "last": [{"board": "Twice", "cell": "d5", "by": ["North"],       # the last round's walls
               "result": "rejected: orthogonally adjacent to East's wall e5 on Twice"}]}

>>> import playtest
>>> game = playtest.load("back_to_the_wall")
>>> session = playtest.Session(game, seed=1)
>>> session.play(AddWall(1, 1, (3, 4)), seat=1)                  # East: a wall on Twice d5
>>> session.history(viewer=0)[-1]["notation"], session.history(viewer=1)[-1]["notation"]
('East changes their order', 'East: wall Twice d5')
>>> session.play(Submit(1), seat=1)
>>> game.describe_state(session.state)
'Round 1 of 3: waiting for North, South, West'
"""

from .actions import STAY, AddWall, Clear, Direct, Garnet, RemoveWall, Submit, Withdraw
from .bots import GreedyBot
from .params import BackToTheWallParams
from .position import Order, State
from .rules import BackToTheWall, RoundLog

__all__ = ["BackToTheWall", "BackToTheWallParams", "State", "Order", "RoundLog", "AddWall", "RemoveWall",
           "Direct", "Garnet", "Clear", "Submit", "Withdraw", "STAY", "GreedyBot"]
