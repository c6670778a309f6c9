"""Corner Rush in words: the move log's lines, as each seat may read them (a bag draw and a
placed blocker's value only for the player who drew it).

A part of :class:`.rules.CornerRush` (a mixin: it reads the game's parameters, board and seat
names, and plays an action with the rules' ``apply`` to say what it did), kept apart so the rules
module stays one concern: what is legal and what it does.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ...kernel import Action
from .actions import Challenge, Die, Draw, Leave, Place, Push, Roll, Step, Take
from .board import Board
from .params import CornerRushParams, face_name
from .position import State, rolloff_contenders

__all__ = ["CornerRushWords"]


class CornerRushWords:
    """The move log in words (mixed into the game class)."""

    params: CornerRushParams
    B: Board
    n: int

    if TYPE_CHECKING:       # the game's (rules.py)
        def apply(self, state: State, action: Action, check: bool = True) -> State: ...
        def _name(self, seat: int) -> str: ...
        def _at(self, tile: int) -> str: ...
        def _beats(self, roll: int, value: int) -> bool: ...

    def notation(self, state: State, action: Action, viewer: int | None = None) -> str:
        """The move log's words, as ``viewer`` may read them: a bag draw and a placed blocker's value
        are written only for the player who drew it; a challenge flips the blocker for everyone.

        >>> import playtest
        >>> game = playtest.load("corner_rush")
        >>> state = game.state_from_json({"phase": "draw", "to_move": 0})
        >>> game.notation(state, Draw(0, 4), viewer=0), game.notation(state, Draw(0, 4), viewer=1)
        ('Red draws a 4', 'Red draws a blocker')
        """
        try:
            after = self.apply(state, action, check=False)
        except Exception:   # malformed: write it as it is
            return str(action)
        B = self.B
        name = self._name(state.mover)
        knows = viewer == state.mover and self.params.placer_knows_value
        match action:
            case Die(value):
                text = self._die_words(state, after, value)
            case Roll():
                text = f"{name} rolls the die (a normal turn)"
            case Challenge(at):
                tile = B.index(at)
                b = state.blockers[tile]
                assert b is not None      # (the effect above would have failed)
                text = f"{name} challenges {self._blocker_words(b.colour, state.mover)} on {B.label(tile)}: " \
                       f"it is a {face_name(b.value)}"
            case Step(to):
                text = f"{name} {B.label(state.pawns[state.mover])}→{to}"
            case Push(pawn, to):
                text = f"{name} moves {self._name(pawn)}'s pawn {B.label(state.pawns[pawn])}→{to}"
            case Take():
                text = f"{name} takes the blocker ({self._destination_words(state)})"
            case Leave():
                text = f"{name} leaves the blocker on {self._at(state.challenged)}, face up"
            case Draw(c, v):
                text = (f"{name} draws a {face_name(v)}" + (f" ({self._name(c)}'s)" if c != state.mover else "")
                        if knows else f"{name} draws a blocker")
            case Place(at):
                c, v = state.held  # type: ignore[misc]   # the place phase holds a blocker
                if knows:
                    whose = "its" if c == state.mover else f"{self._name(c)}'s"
                    text = f"{name} places {whose} {face_name(v)} face down on {at}"
                else:
                    colour = self.params.blocker_color_visible and c != state.mover
                    text = f"{name} places a {self._name(c) + ' ' if colour else ''}blocker face down on {at}"
            case _:
                text = {"move": f"{name} stops", "null": f"{name} moves no other pawn",
                        "again": f"{name} challenges no more", "place": f"{name} keeps the blocker in the bag"
                        }.get(state.phase, f"{name} ends the turn")
        if after.phase == "over" and state.phase != "over":
            text += f"; {after.reason}"
        return text

    def _blocker_words(self, colour: int, seat: int) -> str:
        return f"{self._name(colour)}'s blocker" if colour != seat else "its own blocker"

    def _destination_words(self, state: State) -> str:
        where = self.params.captured_blocker_destination
        if where == "removed":
            return "out of the game"
        b = state.blockers[state.challenged] if state.challenged >= 0 else None
        colour = b.colour if b is not None else state.mover
        seat = state.mover if where == "challenger_bag" else colour
        return f"into {self._name(seat)}'s bag"

    def _die_words(self, state: State, after: State, value: int) -> str:
        face = face_name(value)
        if state.phase == "rolloff":
            seat = rolloff_contenders(state.rolloff, self.n)[len(state.rolloff[-1])]
            again = " again" if len(state.rolloff) > 1 else ""
            text = f"{self._name(seat)} rolls {face}{again} for the first player"
            if after.phase != "rolloff":
                text += f"; {self._name(after.mover)} starts"
                if self.params.rolloff_is_first_roll:
                    text += " and moves with that roll"
            elif len(after.rolloff) > len(state.rolloff):
                tied = rolloff_contenders(after.rolloff, self.n)
                text += f"; {', '.join(self._name(s) for s in tied)} tie and roll again"
            return text
        name = self._name(state.mover)
        if state.phase == "challenge":
            b = state.blocker_on(state.challenged)
            if self._beats(value, b.value):
                text = f"{name} rolls {face} against {face_name(b.value)}: the blocker is beaten"
                if after.phase != "take" and after.blockers[state.challenged] is None:
                    text += f" and goes {self._destination_words(state)}"
                steps = after.steps if after.phase == "move" else 0
                text += f"; {steps} step{'s' if steps != 1 else ''} to move" if after.phase != "take" else ""
            else:
                stays = "stays face up" if self.params.failed_challenge_blocker == "revealed" else \
                    "is turned face down again"
                text = f"{name} rolls {face} against {face_name(b.value)}: the challenge fails, the blocker {stays}"
            return text
        text = f"{name} rolls {face}"
        if value == 0:
            if after.phase == "null":
                return text + ": may move another player's pawn"
            return text + ": the pawn stays"
        if after.phase == "move":
            if after.steps < value:
                return text + f": no way of exactly {value} steps; the pawn moves {after.steps} (stuck_policy)"
            return text + f": {value} steps to move"
        return text + f": no way of exactly {value} steps, the pawn stays"
