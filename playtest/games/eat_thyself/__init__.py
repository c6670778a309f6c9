"""Eat Thyself, by Martin Grider (Global Game Jam 2012), for 2 or 3 players.

Rules: ``shared/rules/RULES.md`` section E, from the seed text. Kings move
around a ring of slots by the value of a double-sided card and eat what they
land on; a player who has one piece left wins.

The ring
--------
The board is a cyclic sequence of *slots*. A slot is a bare piece, or an
"empty space" tile □ with at most one piece on top. When a king leaves a bare
slot, the slot disappears; pieces put back "between any two pieces" become new
bare slots in a *gap*. Gap ``i`` is the place before slot ``i``.

A turn is a sequence of atomic actions, so board, bots and undo share them:

* :class:`Move` — a king moves by a card's face-up value, clockwise (+1) or
  counter-clockwise (-1), and the card turns over. What it lands on decides
  what follows:
* :class:`Pass` — only when no king can move at all (a ring so short that
  every count comes back to the king's own slot; assumed, the seed never
  meets it);
* :class:`RemovePawn` / :class:`KeepPawns` — after eating your own king, the
  optional removal of one of your pawns (``own_king_bonus_removals``);
* :class:`Take` — after eating an opponent's king, pick that opponent's extra
  pieces to put back (``opponent_king_extra_pieces``);
* :class:`PlaceInGap` / :class:`PlaceOnTile` — put a piece from your hand back
  on the ring; :class:`Discard` drops an eaten pawn instead (only with
  ``opponent_pawn_return = "may"``).

Position JSON
-------------
``state.to_json()`` gives, and ``game.state_from_json`` reads::

    {"ring": ["□", "▲", "○", "△", "□●", ...],  # slot 0 first, clockwise
     "cards": [[1, 2], [1, 2]],   # per player: the face-up value of each card in card_pair
     "to_move": 0,                # seat index
     "phase": "move",             # move | bonus | take | place | over
     "hand": [],                  # pieces to put back, e.g. ["●", "○"]
     "take_from": null, "takes_left": 0, "bonus_left": 0,
     "turn": 0,                   # completed turns, for max_turns
     "last": [5]}                 # slots the last turn's pieces landed on (outlined on the
                                  # board; no part of the position's equality)

Pieces are ``▲ ● ◆`` (kings of seats 0, 1, 2) and ``△ ○ ◇`` (their pawns);
``□`` is an empty tile and ``□●`` a tile with a piece on it. ASCII works too:
``A B C`` kings, ``a b c`` pawns, ``_`` a tile (``_B`` = ``□●``). The ring may
also be one string: slots separated by spaces (``"□ ▲ □● ○"``), or one
character per slot when there are no spaces (``"_AbaC"``).

>>> import playtest
>>> game = playtest.load("eat_thyself")
>>> state = game.initial_state()
>>> " ".join(state.to_json()["ring"])
'□ ▲ ○ △ □ ● △ ○ □ ▲ ○ △ □ ● △ ○'
>>> [game.notation(state, a) for a in game.legal_actions(state)][:3]
['▲1↻1→2 eats ○', '▲1↺1→0', '▲1↻2→3 eats △']
"""


from __future__ import annotations

from .actions import CCW, CW, Discard, KeepPawns, Move, Pass, PlaceInGap, PlaceOnTile, RemovePawn, Take
from .params import (ASCII, CARD_TYPES, KING, KING_SYMBOLS, PAWN, PAWN_SYMBOLS, SEAT_COLORS, SEAT_NAMES, SEAT_SHAPES,
                     SEED_2P, SEED_3P, TILE, EatThyselfParams, Slot, piece_symbol)
from .position import PHASES, State
from .rules import EatThyself
from . import playout  # noqa: F401,E402  (EatThyself.random_playout: random play on a list of slots)

__all__ = ["EatThyself", "EatThyselfParams", "State", "Move", "Pass", "RemovePawn", "KeepPawns",
           "Take", "PlaceInGap", "PlaceOnTile", "Discard", "CW", "CCW", "PHASES", "Slot", "piece_symbol",
           "KING", "PAWN", "KING_SYMBOLS", "PAWN_SYMBOLS", "TILE", "ASCII", "SEAT_COLORS", "SEAT_SHAPES", "SEAT_NAMES",
           "SEED_2P", "SEED_3P", "CARD_TYPES"]
