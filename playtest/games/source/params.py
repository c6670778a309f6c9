"""Source's rule parameters (RULES.md table C.3) and the colours and players they name."""

from __future__ import annotations

from dataclasses import dataclass

from ...rules import Params, param

__all__ = ["SourceParams", "COLORS", "COLOR_CSS", "LETTERS", "PLAYER_NAMES", "PLAYER_COLOR_CHOICES"]

#: The four colours, in the index order used everywhere in this game, and how they are drawn.
COLORS = ("red", "blue", "yellow", "green")
COLOR_CSS = {"red": "#d1495b", "blue": "#2f6fce", "yellow": "#e8b820", "green": "#2f9e44"}
LETTERS = "rbyg"
PLAYER_NAMES = ("A", "B")
PLAYER_COLOR_CHOICES = ("red+yellow/blue+green", "red+blue/yellow+green", "red+green/blue+yellow")

#: Rule ids quoted in error messages (RULES.md section C).
R_BOARD, R_SETUP, R_TURN, R_PLACE, R_FORTIFY, R_REMOVE = "C.1 §1", "C.1 §6", "C.1 §7", "C.1 §8", "C.1 §9", "C.1 §10"
R_CAP_CONN, R_CAP_UNCONN, R_CAP_FORT, R_RANGE, R_NOT_ALLOWED, R_END = \
    "C.1 §11", "C.1 §12", "C.1 §13", "C.1 §14", "C.1 §15", "C.1 §16"


@dataclass(frozen=True)
class SourceParams(Params):
    """Rule parameters of Source (RULES.md table C.3)."""

    board_size: int = param(9, "points per side of the square board (odd, so that there is a centre)",
                            source="seed", live=False, min=5, max=19, rule="C2")
    colors_clockwise: tuple[str, ...] = param(COLORS, "the sources' colours clockwise from the top-left corner; "
                                              "turns go round in this order", source="seed", live=False, rule="C3")
    player_colors: str = param("red+yellow/blue+green", "the colours of player A / player B",
                               source="seed", live=False, choices=PLAYER_COLOR_CHOICES, rule="C.1 §3")
    tokens_per_color: int = param(25, "tokens of each colour in the box", source="public", live=False,
                                  min=2, max=400, rule="C1")
    source_from_supply: bool = param(True, "the source token is one of the colour's tokens "
                                     "(else it is extra and the supply starts full)", live=False, rule="C1")
    first_color: str = param("red", "the colour that takes the first turn", live=False, choices=COLORS,
                             rule="C4")
    ap_per_turn: int = param(2, "action points of a colour's turn (unused points are lost)",
                             source="seed", min=1, max=20, rule="C13")
    first_turn_ap: int = param(2, "action points of the game's very first turn (a balancing knob)",
                               min=1, max=20, rule="C4")
    cost_place: int = param(1, "action points to place a token", source="seed", min=0, max=20,
                            rule="C.1 §8")
    cost_fortify: int = param(1, "action points to fortify a connected token of your colour",
                              source="seed", min=0, max=20, rule="C.1 §9")
    cost_remove_fortification: int = param(1, "action points to remove an opponent's connected fortification",
                                           source="seed", min=0, max=20, rule="C.1 §10")
    remove_fortification_tokens: int = param(1, "unused tokens of the active colour that a fortification "
                                             "removal also costs (they leave the game)", source="seed",
                                             min=0, max=10, rule="C10")
    cost_capture_connected: int = param(2, "action points to capture an opponent's connected token",
                                        source="seed", min=0, max=20, rule="C.1 §11")
    cost_capture_unconnected: int = param(1, "action points to capture an opponent's unconnected token",
                                          source="seed", min=0, max=20, rule="C.1 §12")
    cost_capture_unconnected_fortified: int = param(1, "action points to capture an unconnected fortified "
                                                    "stack (all its tokens go)", source="seed", min=0,
                                                    max=20, rule="C.1 §13")
    capture_connected_fortified_cost: int = param(0, "action points to capture a connected fortified stack "
                                                  "directly (all its tokens go); 0: not allowed, remove the "
                                                  "fortification first", min=0, max=20, rule="C11")
    max_fortify_layers: int = param(1, "fortification tokens one point may hold (0: no fortifying)",
                                    min=0, max=9, rule="C8")
    center_fortifiable: bool = param(False, "the centre point may be fortified", source="public", rule="C8")
    source_capturable: bool = param(False, "a source token may be captured (either way a fortified source's "
                                    "fortification may be removed)", rule="C7")
    action_range: str = param("adjacent_to_connected", "captures and fortification removals target points "
                              "next to a connected token of the active colour, or anywhere",
                              choices=("adjacent_to_connected", "global"), rule="C6")
    connection_through_partner: bool = param(False, "the partner colour's tokens also carry a colour's "
                                             "connection to its source (a placement still goes next to an "
                                             "own connected token)", rule="C5")
    end_trigger: str = param("supply_empty", "the end comes when a colour's supply is empty, or when a colour "
                             "has no token left on the board", source="seed",
                             choices=("supply_empty", "board_empty"), rule="C14")
    end_timing: str = param("immediate", "the game ends right after the triggering action, at the end of "
                            "that turn, or at the end of that round (equal turns)",
                            choices=("immediate", "end_of_turn", "end_of_round"), rule="C14")
    pass_limit: int = param(4, "the game ends after this many colour turns in a row without an action",
                            min=1, max=100, rule="C15")
    score_connected: int = param(2, "points for each connected token", source="seed", min=0, max=100,
                                 rule="C.1 §17")
    score_unconnected: int = param(1, "points for each unconnected token", source="seed", min=0, max=100,
                                   rule="C.1 §17")
    center_connected_value: int = param(10, "points for a connected token on the centre", source="seed",
                                        min=0, max=100, rule="C16")
    center_mode: str = param("replace", "the centre value replaces score_connected, or is added to it",
                             choices=("replace", "add"), rule="C16")
    fortification_scores: bool = param(False, "fortification tokens score like their base token",
                                       source="public", rule="C17")
    territory_value: int = param(3, "points for each surrounded point", source="seed", min=0, max=100,
                                 rule="C18")
    territory_mode: str = param("single_point", "what scores as surrounded: single empty points, or whole "
                                "empty regions", choices=("single_point", "region"), rule="C18")
    territory_neighbourhood: str = param("orthogonal", "the neighbours that must enclose a point: 4 "
                                         "(orthogonal) or 8 (king)", choices=("orthogonal", "king"),
                                         rule="C18")
    territory_color_rule: str = param("single_color", "the enclosing tokens are of one colour, or of one "
                                      "player's two colours (the point goes to the colour with more tokens "
                                      "next to it, a tie to the one earlier in turn order)", source="seed",
                                      choices=("single_color", "same_player"), rule="C19")
    territory_requires_empty: bool = param(True, "only empty points are surrounded points (false: a point "
                                           "holding another colour's token counts too; single_point mode)",
                                           rule="C18")
    edge_counts_as_wall: bool = param(True, "the board edge encloses like a wall of tokens", source="seed",
                                      rule="C18")
    tiebreak: str = param("center_control", "a tie goes to the player with a token on the centre, with a "
                          "connected token there, or is a draw",
                          choices=("center_control", "center_connected", "draw"), rule="C20")

    def check(self) -> None:
        if self.board_size % 2 == 0:
            raise ValueError(f"source parameter board_size={self.board_size} is not allowed: it must be odd, "
                             "so that the board has a centre point (rule C.1 §1)")
        if sorted(self.colors_clockwise) != sorted(COLORS):
            raise ValueError(f"source parameter colors_clockwise={list(self.colors_clockwise)} is not allowed: "
                             f"it must name each of {', '.join(COLORS)} once (rule C3)")

