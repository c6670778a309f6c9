"""Source's bot: a greedy player that looks one action ahead at the score."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ...bots import Bot, register_bot
from ...rules import Action
from .position import State

if TYPE_CHECKING:
    from .rules import Source

__all__ = ["GreedyBot"]


@register_bot("source", "greedy")
class GreedyBot(Bot):
    """Plays the action after which its player's score lead is largest.

    It plays whichever colour is active. The value of an action is, after it,
    (own player's score - the other player's score), or only the own score
    with ``margin=False``. Ties go to the first action in
    :meth:`Source.legal_actions` order: place before fortify before remove a
    fortification before capture, each from the lowest point index (row by row
    from a1), and End turn last — so it ends a turn only when every action
    would lower its value.

    >>> import playtest
    >>> game = playtest.load("source")
    >>> str(GreedyBot().choose(game, game.initial_state()))
    'place b1'
    """

    name = "greedy"

    def __init__(self, margin: bool = True):
        self.margin = margin

    def choose(self, game: Source, state: State, seat: int | None = None) -> Action:
        seat = game.to_move(state)
        assert seat is not None, "the game is over: nobody chooses"
        best, best_value = None, None
        for action in game.legal_actions(state):
            after = game.apply(state, action, check=False)
            players = game.player_totals(after)
            value = players[seat] - players[1 - seat] if self.margin else players[seat]
            if best_value is None or value > best_value:
                best, best_value = action, value
        return best  # type: ignore[return-value]

    def __repr__(self) -> str:
        return f"GreedyBot(margin={self.margin})"
