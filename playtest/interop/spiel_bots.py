"""OpenSpiel's MCTS as a kit bot, for OpenSpiel's games on the table and for kit games alike.

>>> import playtest
>>> from playtest.interop.spiel_bots import SpielMCTSBot
>>> game = playtest.load("tic_tac_toe")
>>> bot = SpielMCTSBot(simulations=50, seed=1)
>>> bot.choose(game, game.initial_state()) in game.legal_actions(game.initial_state())
True
"""

from __future__ import annotations

import random
from typing import Any

from ..bots import Bot
from ..kernel import SIMULTANEOUS
from ._require import need

__all__ = ["SpielMCTSBot"]


class SpielMCTSBot(Bot):
    """OpenSpiel's ``mcts.MCTSBot`` (UCT with random rollouts) playing a kit seat.

    ``simulations`` per decision, ``uct_c`` the exploration constant, ``rollouts`` random
    rollouts per leaf. A kit game is searched through :func:`playtest.interop.openspiel.register`
    (its stable action numbers); an ``openspiel:`` game directly. It plays the seat to move of a
    sequential game (OpenSpiel's MCTS does not search simultaneous nodes); like every kit bot it
    is handed only what its seat may know (a determinized state).
    """

    name = "openspiel_mcts"

    def __init__(self, simulations: int = 200, seed: int | None = None, uct_c: float = 2.0, rollouts: int = 1):
        if not isinstance(simulations, int) or isinstance(simulations, bool) or simulations < 1:
            raise ValueError(f"SpielMCTSBot simulations must be a whole number of at least 1, not {simulations!r}")
        if not isinstance(rollouts, int) or isinstance(rollouts, bool) or rollouts < 1:
            raise ValueError(f"SpielMCTSBot rollouts must be a whole number of at least 1, not {rollouts!r}")
        if not isinstance(uct_c, (int, float)) or uct_c < 0:
            raise ValueError(f"SpielMCTSBot uct_c must be a number of at least 0, not {uct_c!r}")
        self.simulations, self.seed, self.uct_c, self.rollouts = simulations, seed, float(uct_c), rollouts
        self.rng = random.Random(seed)

    def __repr__(self) -> str:
        return (f"SpielMCTSBot(simulations={self.simulations}, seed={self.seed!r}, uct_c={self.uct_c}, "
                f"rollouts={self.rollouts})")

    def plays(self, game: Any, seat: int) -> bool:
        gtype = getattr(game, "game_type", None)
        return gtype is None or gtype.dynamics == "sequential"

    def _spiel(self, game: Any, state: Any) -> tuple[Any, Any, Any]:
        """(the pyspiel game, the pyspiel state, id -> kit action)."""
        from .spiel_game import SpielGame, SpielMove
        if isinstance(game, SpielGame):
            return game.spiel, game.spiel_state(state).clone(), SpielMove
        from .core import KitPlay
        from .openspiel import register
        spiel = register(game)
        spiel_state = spiel.new_initial_state()
        spiel_state.play = KitPlay(spiel.shape, state)
        return spiel, spiel_state, spiel.shape.encoding.decode

    def choose(self, game: Any, state: Any, seat: int | None = None) -> Any:
        if game.to_move(state) == SIMULTANEOUS:
            raise ValueError(f"{self.name}: OpenSpiel's MCTS does not play simultaneous steps ({game.name})")
        np = need("numpy")
        mcts = need("open_spiel.python.algorithms.mcts")
        spiel, spiel_state, to_kit = self._spiel(game, state)
        shape = getattr(spiel, "shape", None)
        random_state = np.random.RandomState(self.rng.randrange(2 ** 31))
        evaluator = mcts.RandomRolloutEvaluator(n_rollouts=self.rollouts, random_state=random_state)
        bot = mcts.MCTSBot(spiel, self.uct_c, self.simulations, evaluator, random_state=random_state, solve=False)
        while True:
            legal = spiel_state.legal_actions()
            code = int(legal[0]) if len(legal) == 1 else int(bot.step(spiel_state))
            if shape is None or shape.kind_of(code) is None:
                return to_kit(code)
            # a staged decision (see playtest.interop.core): the kind chosen, then which one
            group = spiel_state.play.kind_groups()[code - shape.encoding.capacity]
            if len(group) == 1:
                return group[0]
            spiel_state.apply_action(code)
