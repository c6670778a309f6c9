"""Back to the Wall's rule parameters: one declaration (RULES.md table B.3) for the panel, the docs and checks.

Seats are numbered from 0 (RULES.md's P1 is seat 0); cells are ``[col, row]``
with row 0 the top row; the corners of a board are listed clockwise from the
top left (TL, TR, BR, BL).

>>> p = BackToTheWallParams()
>>> p.walls_per_round, p.rank_points, p.corner_assignment[1]
((1, 2, 3), (6, 4, 2, 1), (0, 2, 1, 3))
>>> BackToTheWallParams.create(adjacency_rules=("king", "diagonal", "none"))
Traceback (most recent call last):
...
ValueError: back_to_the_wall parameter adjacency_rules=["king", "diagonal", "none"] is not allowed: each entry must be one of king, orthogonal, none (rule B8)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ...kernel.fieldtypes import FieldType
from ...rules import Params, param, show_value

__all__ = ["BackToTheWallParams", "DIRECTIONS", "ARROWS", "LETTERS", "STEPS", "TOWARD_CORNER", "ADJACENCY", "arrows"]

#: directions by index, clockwise from up: a perpendicular is +-1, the opposite +2 (mod 4)
DIRECTIONS = ("up", "right", "down", "left")
ARROWS = ("↑", "→", "↓", "←")
LETTERS = "URDL"


def arrows(plan: Any, between: str = "") -> str:
    """A piece's directions as arrows, ``·`` for none: ``arrows((0, -1, 3))`` is ``↑·←``."""
    return between.join(ARROWS[d] if d >= 0 else "·" for d in plan)


#: step of each direction as (dcol, drow); row 0 is the top row, so "up" lowers the row
STEPS = ((0, -1), (1, 0), (0, 1), (-1, 0))
#: the two directions that point toward each corner (for the redirect tie-break, B17)
TOWARD_CORNER = ((0, 3), (0, 1), (2, 1), (2, 3))
ADJACENCY = ("king", "orthogonal", "none")

# Rule ids quoted in messages (RULES.md section B.1).
R_ORDER, R_VOID, R_OVERALL, R_BONUS = "B.1 §8", "B.1 §9.1", "B.1 §15", "B.1 §16"


def _pairs(value: object) -> bool:
    return isinstance(value, tuple) and all(
        isinstance(p, tuple) and len(p) == 2 and all(type(v) is int for v in p) for p in value)


@dataclass(frozen=True)
class BackToTheWallParams(Params):
    """Rule parameters of Back to the Wall (RULES.md table B.3, plus the readings of this package)."""

    # ---- players, boards, setup
    num_players: int = param(4, "players (the Main Match is for 4; with fewer, the corners of the missing "
                             "seats stay empty)", source="seed", live=False, min=2, max=4, rule="B27")
    rounds: int = param(3, "rounds in a game", source="seed", live=False, min=1, max=9, rule="B30")
    board_names: tuple[str, ...] = param(("Once", "Twice", "Thrice"), "the three boards' names, smallest first",
                                         source="seed", live=False, rule="B.1 §1")
    board_sizes: tuple[tuple[int, int], ...] = param(((8, 8), (9, 9), (10, 10)), "columns and rows of each board",
                                                     live=False, rule="B1")
    preplaced_walls: tuple[tuple[tuple[int, int], ...], ...] = param(
        (((2, 3), (5, 4)), ((2, 4), (6, 4)), ((3, 4), (6, 5))),
        "the wall cells [col, row] on each board at the start (2 per board, "
        "point-symmetric about the centre)", live=False, rule="B2")
    corner_assignment: tuple[tuple[int, ...], ...] = param(
        ((0, 1, 2, 3), (0, 2, 1, 3), (0, 1, 3, 2)),
        "the seat in each corner (top left, top right, bottom right, bottom "
        "left) of each board: every player faces a different opponent "
        "diagonally on each board", live=False, rule="B3")
    pieces_initial: int = param(1, "pieces each player has on each board in round 1, on their corner",
                                source="seed", live=False, min=1, max=6, rule="B12")
    pieces_gain_per_round: int = param(1, "pieces each player gains on each board at the start of every "
                                       "later round, on their corner", source="seed", live=False, min=0,
                                       max=6, rule="B12")
    spawn_captures: bool = param(False, "a piece captures its corner when it is placed there (at the start "
                                 "and when it spawns)", rule="B13")
    # ---- orders
    walls_per_round: tuple[int, ...] = param((1, 2, 3), "wall cells each player may submit per round on each board "
                                             "(fewer allowed)", source="seed", rule="B5")
    directions_per_round: int = param(3, "directions each piece is given per round (one per movement "
                                      "phase)", source="seed", live=False, min=1, max=6, rule="B.1 §8")
    missing_direction: str = param("stay", "a phase with no direction: the piece stays (an order may leave "
                                   "directions out), or every direction must be given before submitting",
                                   choices=("stay", "refuse"), rule="B22")
    refuse_void_walls: bool = param(False, "a wall submission that would be void (on a corner, a piece or a "
                                    "wall) is refused when it is entered, with the reason, and the player "
                                    "chooses again (a variant); false: it is accepted, uses up its slot, and "
                                    "is dropped at the resolution, as the seed has it",
                                    rule="B10")
    # ---- walls
    adjacency_rules: tuple[str, ...] = param(("king", "orthogonal", "none"), "per board: submitted walls that touch "
                                             "(king: also diagonally; orthogonal: side by side) are all void",
                                             source="seed", rule="B8")
    adjacency_scope: str = param("submissions", "the adjacency rule compares this round's submissions only, "
                                 "or also each submission with the walls already standing",
                                 source="public", choices=("submissions", "submissions_and_walls"), rule="B8")
    corner_rule: str = param("each_reaches_one", "walls may not cut a corner off from every other corner "
                             "(each_reaches_one), or from any other corner (all_pairs)", source="seed",
                             choices=("each_reaches_one", "all_pairs"), rule="B6")
    corner_violation_resolution: str = param("dm_minimal_subsets", "which new walls go when the corner rule "
                                             "is broken: the union of all smallest sets whose removal "
                                             "restores it, every new wall, or walls added in seat order "
                                             "while they keep it", source="public",
                                             choices=("dm_minimal_subsets", "reject_all_new",
                                                      "reject_by_seat_priority"), rule="B7")
    wall_rule_order: str = param("independent_on_submissions", "the corner rule looks at every submission "
                                 "(a wall must pass both rules), or only at those the adjacency rule "
                                 "kept", source="public",
                                 choices=("independent_on_submissions", "adjacency_then_corner"), rule="B9")
    wall_on_piece: str = param("void", "a wall submitted on a piece's cell is void", choices=("void",),
                               rule="B10")
    duplicate_wall: str = param("place_once_credit_all", "a cell submitted by several players is placed "
                                "once and credited to each of them, or void for all",
                                choices=("place_once_credit_all", "void"), rule="B10")
    wall_erases_ownership: bool = param(True, "a cell that becomes a wall loses its owner", rule="B11")
    forbid_piece_enclosure: bool = param(False, "the Death Match rule: new walls that would leave a piece "
                                         "with walls on every side are not placed", source="public",
                                         rule="B28")
    # ---- movement
    redirect_metric: str = param("unowned_cells", "a blocked piece turns to the direction whose whole slide "
                                 "crosses the most unowned cells, cells not its own, or the longest slide",
                                 choices=("unowned_cells", "not_own_cells", "distance"), rule="B15")
    corner_tiebreak: str = param("toward_own_corner", "between two perpendicular directions still tied, "
                                 "the one pointing toward (or away from) the player's corner on that board",
                                 choices=("toward_own_corner", "away_from_own_corner"), rule="B17")
    stopped_pieces_contest: bool = param(True, "a piece standing on a cell (stopped, or staying this phase) "
                                         "keeps other players' pieces from capturing it", rule="B21")
    contested_capture: str = param("no_change", "a cell entered while pieces of different players are on "
                                   "it keeps its owner, or loses it", choices=("no_change", "neutralise"),
                                   rule="B21")
    same_owner_contest: bool = param(False, "two pieces of the same player on one cell also block the "
                                     "capture", rule="B21")
    # ---- scoring
    rank_points: tuple[int, ...] = param((6, 4, 2, 1), "points for 1st, 2nd, 3rd and 4th place on a board",
                                         source="seed", rule="B.1 §13")
    tie_points: str = param("average", "tied players share the average of their places' points, or all get "
                            "the highest or the lowest", source="seed",
                            choices=("average", "highest", "lowest"), rule="B24")
    garnet_for_sole_first: int = param(1, "garnets a player earns for each board where they are first alone",
                                       source="seed", min=0, max=5, rule="B25")
    garnet_bonus_enabled: bool = param(True, "a player may pay a garnet to add their placed walls to a "
                                       "board's score", source="seed", rule="B23")
    garnet_bonus_cost: int = param(1, "garnets one garnet bonus costs", source="seed", min=0, max=5,
                                   rule="B23")
    garnet_bonus_max_per_board: int = param(1, "garnet bonuses a player may use on one board", source="seed",
                                            min=0, max=9, rule="B23")
    garnet_decision_time: str = param("during_round", "the bonus is flagged secretly with a round's order "
                                      "(and counts that round's placed walls), or chosen after the last "
                                      "round (and counts the best round's)",
                                      live=False, choices=("during_round", "at_end"), rule="B23")
    garnet_paid_without_walls: bool = param(True, "a flag on a round in which the player placed no wall "
                                            "still costs its garnet", rule="B.1 §16")
    starting_garnets: int = param(3, "garnets each player holds at the start (flags may never cost more)",
                                  live=False, min=0, max=20, rule="B23")
    final_tiebreak: tuple[str, ...] = param(("max_board", "Thrice", "Twice", "Once"), "equal totals are ranked by the "
                                            "best single board, then by the points on these boards in turn",
                                            source="seed", rule="B26")
    final_tie_policy: str = param("shared", "players still tied share their place, or the lower seat "
                                  "ranks first", choices=("shared", "seat_order"), rule="B.1 §15")

    def check(self) -> None:
        name = "back_to_the_wall parameter"

        def refuse(pname: str, why: str, rule: str) -> None:
            raise ValueError(f"{name} {pname}={show_value(getattr(self, pname))} is not allowed: {why} "
                             f"(rule {rule})")

        names = self.board_names
        if len(names) != 3 or len(set(names)) != 3 or any(not n.strip() or len(n) > 20 for n in names):
            refuse("board_names", "it must name three different boards (1 to 20 characters each)", "B.1 §1")
        if len(self.board_sizes) != 3 or not _pairs(self.board_sizes) or any(
                not 3 <= c <= 26 or not 3 <= r <= 26 for c, r in self.board_sizes):
            refuse("board_sizes", "it must give [columns, rows] for each of the three boards, each from 3 "
                   "to 26", "B1")
        for pname, values, choices in (("walls_per_round", self.walls_per_round, None),
                                       ("adjacency_rules", self.adjacency_rules, ADJACENCY)):
            if len(values) != 3:
                refuse(pname, "it must have one entry per board (three)", "B5" if choices is None else "B8")
            if choices is None and any(type(v) is not int or not 0 <= v <= 12 for v in values):
                refuse(pname, "each entry must be a whole number from 0 to 12", "B5")
            if choices is not None and any(v not in choices for v in values):
                refuse(pname, f"each entry must be one of {', '.join(choices)}", "B8")
        if len(self.preplaced_walls) != 3 or any(not _pairs(cells) for cells in self.preplaced_walls):
            refuse("preplaced_walls", "it must list the wall cells [col, row] of each of the three boards",
                   "B2")
        n = self.num_players
        if len(self.corner_assignment) != 3 or any(
                not isinstance(corners, tuple) or len(corners) != 4 or any(type(s) is not int for s in corners)
                for corners in self.corner_assignment):
            refuse("corner_assignment", "it must give four seats (top left, top right, bottom right, bottom "
                   "left) for each of the three boards", "B3")
        for corners in self.corner_assignment:
            seated = [s for s in corners if 0 <= s < n]
            if sorted(seated) != list(range(n)) or any(s < -1 for s in corners):
                refuse("corner_assignment", f"on every board each of the {n} seats needs exactly one corner "
                       f"(seats from 0; -1 or a missing seat's number leaves a corner empty)", "B3")
        for k, ((cols, rows), cells) in enumerate(zip(self.board_sizes, self.preplaced_walls)):
            corner_cells = {(0, 0), (cols - 1, 0), (cols - 1, rows - 1), (0, rows - 1)}
            if len(set(cells)) != len(cells) or any(
                    not (0 <= c < cols and 0 <= r < rows) or (c, r) in corner_cells for c, r in cells):
                refuse("preplaced_walls", f"the walls of {names[k]} must be different cells of its "
                       f"{cols} x {rows} grid, none on a corner", "B2")
        if len(self.rank_points) < n or any(type(v) is not int or not 0 <= v <= 100 for v in self.rank_points):
            refuse("rank_points", f"it must give points (0 to 100) for at least {n} places", "B.1 §13")
        allowed = ("max_board",) + tuple(names)
        if len(set(self.final_tiebreak)) != len(self.final_tiebreak) or any(
                v not in allowed for v in self.final_tiebreak):
            refuse("final_tiebreak", f"each entry must be one of {', '.join(allowed)}, at most once", "B26")
        # the pre-placed walls must leave the corner rule intact (checked with the board tables)
        from .boards import board_tables
        for k in range(3):
            tables = board_tables(self, k)
            if not tables.corners_connected(tables.preplaced, self.corner_rule):
                refuse("preplaced_walls", f"the walls of {names[k]} cut a corner off ({self.corner_rule})",
                       "B.1 §9.3")

    @classmethod
    def _playtest_record(cls, annotation: Any) -> FieldType:
        """How a declared state field holding these parameters (``State.rules``) is typed: never read
        from or written to a position's JSON (the game gives it), only checked to be parameters.

        (A game-local stand-in for a kernel field type "the game's parameters".)
        """
        def read(value: Any, where: str) -> Any:
            if not isinstance(value, cls):
                raise ValueError(f"{where} must be {cls.__name__}, not {type(value).__name__}")
            return value
        return FieldType("the parameters in force", read, lambda value: value, cls, plain=False)
