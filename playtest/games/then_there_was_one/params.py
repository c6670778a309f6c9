"""Then There Was One's rule parameters: one declaration (RULES.md table A.3) for the panel, the docs and checks."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ...kernel import Params, param
from ...kernel.fieldtypes import FieldType
from ...kernel.values import shown

__all__ = ["ThenThereWasOneParams", "DEFAULT_LAYOUT", "bracketed"]

#: a layout for obstacle_setup = "fixed_layout" on the default 10 x 14 board (5 diagonal pairs)
DEFAULT_LAYOUT = ((2, 3), (3, 4), (7, 3), (6, 4), (0, 6), (4, 6), (5, 7), (9, 6), (2, 9), (3, 10),
                  (7, 9), (6, 10), (1, 12), (5, 12), (8, 12))


@dataclass(frozen=True)
class ThenThereWasOneParams(Params):
    """Rule parameters of Then There Was One (RULES.md table A.3, plus ``num_players``)."""

    num_players: int = param(4, "players: one wall player and 2 to 4 token players", source="seed",
                             live=False, min=3, max=5, rule="A.0")
    board_width: int = param(10, "columns of the board", live=False, min=2, max=26, rule="A1")
    board_length: int = param(14, "rows from the start row to the goal row", live=False, min=3, max=40,
                              rule="A1")
    start_zone_rows: int = param(2, "rows behind the black line (the start zone)", live=False, min=1,
                                 max=38, rule="A2")
    start_cells: tuple[int, ...] = param((), "columns of row 0 with a start circle; empty = all of row 0",
                                         live=False, rule="A3")
    initial_obstacles: int = param(15, "obstacles scattered at setup", source="seed", live=False,
                                   min=0, max=400, rule="A5")
    obstacle_setup: str = param("uniform_random", "how the setup obstacles get on the board: a seeded "
                                "scatter, placed by the players in turn, or obstacle_layout",
                                live=False, choices=("uniform_random", "players_place_in_turn", "fixed_layout"),
                                rule="A5")
    obstacle_layout: tuple[tuple[int, int], ...] = param(DEFAULT_LAYOUT, "the tiles [col, row] used by "
                                                         "obstacle_setup = \"fixed_layout\"", live=False, rule="A5")
    ensure_path_after_setup: bool = param(True, "redraw the scatter (or refuse a placement) if the goal "
                                          "row is cut off from row 0", live=False, rule="A7")
    move_length: int = param(6, "exact steps per token turn", source="seed", min=1, max=20, rule="A9")
    jump_step_cost: int = param(1, "steps a jump uses", min=1, max=4, rule="A9")
    max_jumps_per_turn: int = param(1, "jumps per token turn", source="seed", min=0, max=20, rule="A11")
    jump_allow_obstacle_wall: bool = param(True, "a jump may pass an obstacle and a wall, not only two "
                                           "obstacles", source="seed", rule="A10")
    max_walls_at_jump_corner: int = param(1, "more wall segments than this ending at the corner point "
                                          "block a jump", min=0, max=4, rule="A12")
    board_edge_is_wall_for_jumps: bool = param(False, "the board edge can close a jump side (true is not "
                                               "offered: it never applies to a diagonal between two tiles)",
                                               choices=(False,), rule="A11")
    tokens_block_tokens: bool = param(True, "tokens occupy their tiles for other tokens", rule="A13")
    start_tile_counts: bool = param(True, "the start tile counts as landed on (the path is self-avoiding)",
                                    rule="A15")
    allow_voluntary_revisit: bool = param(False, "a token may walk into a double landing even when a "
                                          "clean path exists", rule="A16")
    eliminate_when_no_path: bool = param(True, "a token with no clean path at the start of its turn "
                                         "(or stuck mid-turn) is eliminated at once; false: a trapped token "
                                         "walks until it lands twice, and one that cannot step at all stays "
                                         "and its turn ends", rule="A16")
    goal_on_entry: bool = param(True, "entering the goal row ends the move and arrives (false: only a "
                                "move that ends on it)", rule="A17")
    finished_token_leaves_board: bool = param(True, "arrived tokens leave the board and stop blocking",
                                              rule="A17")
    wall_budget: int = param(12, "points per wall turn, walls left standing included (a wall may be picked "
                             "up at any point of the turn, freeing its point)", source="seed", min=0, max=400,
                             rule="A20")
    wall_unit: str = param("segment", "a wall piece is one edge segment of cost 1 (straight pieces are "
                           "not offered)", choices=("segment",), rule="A19")
    max_wall_length: int = param(0, "longest straight piece; 0 = null (only for straight pieces, which "
                                 "are not offered)", min=0, max=0, rule="A19")
    walls_on_boundary: bool = param(False, "walls on the board boundary (true is not offered)",
                                    choices=(False,), rule="A19")
    obstacle_cost: int = param(2, "budget points per bought obstacle, in the turn of purchase only",
                               source="seed", min=0, max=400, rule="A21")
    max_obstacles_per_turn: int = param(2, "obstacles the wall player may buy per turn", source="seed",
                                        min=0, max=400, rule="A22")
    max_bought_obstacles_per_game: int = param(8, "obstacles the wall player may buy per game",
                                               source="seed", min=0, max=400, rule="A22")
    bought_obstacle_may_border_token: bool = param(True, "a bought obstacle may go next to a token (false: "
                                                   "not on the 4 tiles beside a token's tile, or on any of the "
                                                   "8 around it with wall_token_clearance = edge_or_corner)",
                                                   rule="A23")
    wall_token_clearance: str = param("edge", "a new wall may not lie on an edge of a token's tile "
                                      "(edge_or_corner: nor touch its corners)",
                                      choices=("edge", "edge_or_corner"), rule="A24")
    first_turn_black_line_ban: bool = param(True, "nothing is built behind the black line on the wall "
                                            "player's first turn", source="seed", rule="A26")
    first_turn_ban_applies_to_obstacles: bool = param(True, "the first-turn ban covers bought obstacles",
                                                      rule="A23")
    require_open_corridor: bool = param(False, "variant: walls and obstacles may not cut the goal row off "
                                        "from the front of the black line", rule="A28")
    token_turn_order: str = param("seat_order", "tokens move in seat order, or the team picks who is next",
                                  choices=("seat_order", "team_chooses_order"), rule="A18")
    wall_turns: str = param("once_per_round", "the wall player moves once a round, or before every token",
                            choices=("once_per_round", "before_each_token"), rule="A18")
    tokens_per_player: int = param(1, "tokens per token player (only 1 is offered)", live=False, min=1,
                                   max=1, rule="A29")
    token_win_threshold: tuple[int, ...] = param((1, 2, 2), "arrivals that win for the tokens, with 2, 3, 4 token "
                                                 "players", source="seed", rule="A27")
    wall_win_threshold: tuple[int, ...] = param((1, 2, 2), "eliminations that win for the wall player, with 2, 3, 4 "
                                                "token players", source="seed", rule="A27")
    max_rounds: int = param(40, "rounds before the game is a draw", min=1, max=10000, rule="A28")
    rng_seed: int = param(-1, "seed of the setup scatter; -1 = the session's seed (engine-supplied)",
                          live=False, min=-1, max=2 ** 31, rule="A.4")

    @classmethod
    def _playtest_record(cls, annotation: Any) -> FieldType:
        """These parameters as the type of a declared state field (the rules in force for a turn): an
        object of parameter values, each validated. The kernel's field types have no parameters; this
        is its hook for a type of one's own."""
        def read(value: Any, where: str) -> ThenThereWasOneParams:
            if not isinstance(value, dict) or not all(isinstance(k, str) for k in value):
                raise ValueError(f"{where} must be an object of parameter values, not {shown(value)}")
            return cls.create(**value)  # type: ignore[return-value]
        return FieldType("an object of parameter values", read, lambda p: p.to_json(), cls, plain=False)

    def check(self) -> None:
        name = "then_there_was_one parameter"
        W, L, S = self.board_width, self.board_length, self.start_zone_rows
        tokens = self.num_players - 1
        if S > L - 1:
            raise ValueError(f"{name} start_zone_rows={S} is not allowed: the goal row must lie in front "
                             f"of the black line (at most board_length-1 = {L - 1}) (rule A2)")
        cols = self.start_cells
        if any(not isinstance(c, int) or isinstance(c, bool) or not 0 <= c < W for c in cols) \
                or len(set(cols)) != len(cols):
            raise ValueError(f"{name} start_cells={list(cols)} is not allowed: it must list different "
                             f"columns from 0 to {W - 1} (rule A3)")
        circles = len(cols) if cols else W
        if circles < tokens:
            raise ValueError(f"{name} start_cells={list(cols)} is not allowed: {tokens} token players "
                             f"need at least {tokens} start circles (rule A3)")
        front = W * (L - S)
        if self.initial_obstacles > front:
            raise ValueError(f"{name} initial_obstacles={self.initial_obstacles} is not allowed: only "
                             f"{front} tiles lie in front of the black line (rule A7)")
        if self.obstacle_setup == "fixed_layout":
            layout = self.obstacle_layout
            for cell in layout:
                if not (isinstance(cell, tuple) and len(cell) == 2 and all(
                        isinstance(v, int) and not isinstance(v, bool) for v in cell)
                        and 0 <= cell[0] < W and S <= cell[1] < L):
                    raise ValueError(f"{name} obstacle_layout is not allowed: {bracketed(cell)} is not a tile "
                                     f"[col, row] of the board in front of the black line (rule A5)")
            if len(set(layout)) != len(layout) or len(layout) != self.initial_obstacles:
                raise ValueError(f"{name} obstacle_layout is not allowed: it must list "
                                 f"initial_obstacles={self.initial_obstacles} different tiles, "
                                 f"not {len(layout)} (rule A5)")
        if self.max_jumps_per_turn > self.move_length:
            raise ValueError(f"{name} max_jumps_per_turn={self.max_jumps_per_turn} is not allowed: "
                             f"at most move_length={self.move_length} (rule A11)")
        for pname in ("token_win_threshold", "wall_win_threshold"):
            values = getattr(self, pname)
            if len(values) != 3 or any(not 1 <= v <= n for v, n in zip(values, (2, 3, 4))):
                raise ValueError(f"{name} {pname}={list(values)} is not allowed: it must be three "
                                 "counts, for 2, 3 and 4 token players, each from 1 to that number "
                                 "(rule A27)")


def bracketed(value: Any) -> str:
    """A value for messages and panels, tuples written as lists: ``(2, 3)`` as ``[2, 3]``.

    >>> bracketed(((2, 3), 4)), bracketed(True)
    ('[[2, 3], 4]', 'True')
    """
    if isinstance(value, tuple):
        return "[" + ", ".join(bracketed(v) for v in value) + "]"
    return str(value)

