"""Corner Rush's rule parameters: one declaration (RULES.md table D.3) for the panel, the docs and checks.

Every gap of RULES.md D.2 is a parameter here, with the default RULES.md gives
it and its source tag. A few readings RULES.md states without naming a
parameter are parameters too: ``other_aces_open`` (D8), ``allow_sealing`` (D10).

>>> p = CornerRushParams.create(die_faces=[0, 2, 3, 4, 5, 6, 6])
>>> p.die_faces, p.blocker_set()
((0, 2, 3, 4, 5, 6, 6), (0, 2, 3, 4, 5))
>>> CornerRushParams.create(die_faces=[3, 3])
Traceback (most recent call last):
...
ValueError: corner_rush parameter die_faces=[3, 3] is not allowed: the die needs at least two different faces, or every roll-off for the first player is a tie and the game never starts (rule D.1 §7)
>>> CornerRushParams.create(board_size=6)
Traceback (most recent call last):
...
ValueError: corner_rush parameter board_size=6 is not allowed: the board needs a middle tile for center_hole = true (an odd size) (rule D1)
"""

from __future__ import annotations

from dataclasses import dataclass

from ...rules import Params, param

__all__ = ["CornerRushParams", "face_name"]

MAX_VALUE = 12     # the largest die face or blocker value offered


def face_name(value: int) -> str:
    """A die face or blocker value as the seed writes it: ``Null`` for 0, ``Ace`` for 6, else the number.

    >>> [face_name(v) for v in (0, 2, 6, 7)]
    ['Null', '2', 'Ace', '7']
    """
    return "Null" if value == 0 else "Ace" if value == 6 else str(value)


@dataclass(frozen=True)
class CornerRushParams(Params):
    """Rule parameters of Corner Rush (RULES.md table D.3, plus ``other_aces_open`` and ``allow_sealing``)."""

    num_players: int = param(4, "players (2: two diagonally opposite corners; 3: the first three corners "
                             "clockwise)", source="seed", live=False, min=2, max=4, rule="D21")
    board_size: int = param(5, "tiles on a side of the square board", source="seed", live=False, min=3, max=9,
                            rule="D.1 §1")
    center_hole: bool = param(True, "the middle tile is missing: a hole where no blocker goes", source="seed",
                              live=False, rule="D1")
    hole_passable: bool = param(False, "pawns may cross the hole and stop on it (blockers never go there)",
                                rule="D1")
    start_cells: str = param("corners", "where the pawns start: the corners, or the middles of the edges",
                             live=False, choices=("corners", "edge_middles"), rule="D2")
    goal_cells: str = param("opposite", "where each Ace token lies: the tile diagonally opposite the pawn's "
                            "start, or the next start place clockwise", live=False,
                            choices=("opposite", "next_clockwise"), rule="D3")
    die_faces: tuple[int, ...] = param((0, 2, 3, 4, 5, 6), "the die's faces as values (Null = 0, Ace = 6), "
                                       "each equally likely", source="seed", rule="D4")
    blockers_per_player: int = param(5, "blockers in each player's bag at the start", source="seed", live=False,
                                     min=0, max=12, rule="D5")
    blocker_values: tuple[int, ...] = param((0, 2, 3, 4, 5), "the values of each player's blockers (used in order, "
                                            "repeated if the bag holds more)", live=False, rule="D5")
    must_use_all_moves: bool = param(True, "the pawn moves exactly the roll (false: it may stop early)",
                                     source="seed", rule="D6")
    allow_revisit: bool = param(True, "a move may come back to a tile it already crossed this turn", rule="D6")
    stuck_policy: str = param("no_move", "when no path of exactly the roll exists: the pawn stays, or it moves "
                              "the longest exact length it can", choices=("no_move", "longest"), rule="D6")
    pawn_pass_through: bool = param(True, "a pawn may pass over other pawns", rule="D7")
    pawn_stacking: bool = param(False, "a pawn may end its move on another pawn", live=False, rule="D7")
    other_aces_open: bool = param(True, "a pawn may enter and stand on another player's Ace tile", rule="D8")
    null_moves_other: bool = param(True, "a Null lets the player move another player's pawn", source="seed",
                                   rule="D9")
    null_other_steps: int = param(1, "steps the other pawn moves after a Null (up to this many; optional)",
                                  source="seed", min=1, max=6, rule="D9")
    null_can_finish_other: bool = param(False, "the other pawn may be moved onto its own Ace (its player "
                                        "then wins)", rule="D9")
    blocker_placement_mandatory: bool = param(True, "the drawn blocker must be placed (false: it may go back "
                                              "into the bag)", rule="D10")
    allow_sealing: bool = param(True, "a blocker may cut a pawn off from its Ace (false: such a tile is "
                                "refused)", rule="D10")
    blocker_draw: str = param("random", "the blocker is drawn at random from the bag, or chosen by its owner",
                              choices=("random", "choose"), rule="D11")
    placer_knows_value: bool = param(True, "the player sees the blocker drawn (false: nobody sees a value "
                                     "before a challenge, bag contents included)", live=False, rule="D11")
    challenge_enabled: bool = param(True, "a player may challenge a blocker instead of a normal turn",
                                    source="seed", rule="D12")
    challenge_adjacency: str = param("orthogonal", "which blockers can be challenged: orthogonal neighbours "
                                     "of the pawn, or all eight", choices=("orthogonal", "king"), rule="D12")
    challenge_success: str = param("at_least", "a challenge succeeds when the roll is at least the value "
                                   "(or greater than it)", source="seed", choices=("at_least", "greater"),
                                   rule="D13")
    challenge_moves: str = param("difference", "steps after a successful challenge: roll - value, the whole "
                                 "roll, or none", source="seed", choices=("difference", "roll", "none"),
                                 rule="D14")
    failed_challenge_blocker: str = param("revealed", "after a failed challenge the blocker stays face up, or is "
                                          "turned face down again (its value is then known to everyone)",
                                          choices=("revealed", "flip_back"), rule="D15")
    captured_blocker_destination: str = param("challenger_bag", "where a beaten blocker goes: the challenger's "
                                              "bag, its owner's bag, or out of the game", source="seed",
                                              choices=("challenger_bag", "owner_bag", "removed"), rule="D17")
    win_on_entry: bool = param(True, "entering the own Ace at any step wins at once (false: the move must end "
                               "there)", source="seed", rule="D19")
    turn_order: str = param("clockwise", "the order of turns after the first player",
                            choices=("clockwise", "counterclockwise"), rule="D18")
    max_turns: int = param(200, "turns (of all players together) before the game is a draw", min=1,
                           max=100_000, rule="D22")
    rolloff_is_first_roll: bool = param(False, "the starter's roll-off die is its first move (false: it rolls "
                                        "again)", live=False, rule="D.1 §7")
    win_on_occupied_ace: bool = param(True, "entering the own Ace wins even if another pawn stands there",
                                      rule="D.1 §8.4")
    max_challenges_per_turn: int = param(1, "challenges in one challenge turn (each after the last one's move)",
                                         min=1, max=4, rule="D.1 §9")
    null_power_in_challenge: bool = param(False, "a Null rolled in a challenge also lets the player move "
                                          "another pawn", rule="D.1 §9.4")
    challenge_removal: str = param("automatic", "a beaten blocker is always taken, or the challenger may "
                                   "leave it on the board (face up)", choices=("automatic", "optional"),
                                   rule="D.1 §9.5")
    no_free_tile: str = param("skip", "when no tile is free the blocker step is skipped and the blocker stays "
                              "in the bag (the only reading offered)", choices=("skip",), rule="D.1 §10")
    blocker_color_visible: bool = param(True, "a face-down blocker shows its colour (its back) to everyone",
                                        rule="D.1 §10")
    rng_seed: int = param(-1, "the dice and bag draws come from the session's seed "
                          "(playtest.Session(game, seed=...)); -1 is the only value", live=False, min=-1, max=-1,
                          rule="D.4")

    def check(self) -> None:
        name = "corner_rush parameter"
        size = self.board_size
        if size % 2 == 0 and self.center_hole:
            raise ValueError(f"{name} board_size={size} is not allowed: the board needs a middle tile for "
                             "center_hole = true (an odd size) (rule D1)")
        if size % 2 == 0 and self.start_cells == "edge_middles":
            raise ValueError(f"{name} board_size={size} is not allowed: start_cells = \"edge_middles\" needs an "
                             "odd size (rule D2)")
        for pname, values, low in (("die_faces", self.die_faces, 1), ("blocker_values", self.blocker_values, 1)):
            if len(values) < low or len(values) > 12 or any(
                    type(v) is not int or not 0 <= v <= MAX_VALUE for v in values):
                raise ValueError(f"{name} {pname}={list(values)} is not allowed: it must list 1 to 12 values, "
                                 f"each a whole number from 0 to {MAX_VALUE} (rule D4/D5)")
        if len(set(self.die_faces)) < 2:
            raise ValueError(f"{name} die_faces={list(self.die_faces)} is not allowed: the die needs at least two "
                             "different faces, or every roll-off for the first player is a tie and the game "
                             "never starts (rule D.1 §7)")
        if self.blocker_draw == "choose" and not self.placer_knows_value:
            raise ValueError(f"{name} blocker_draw=\"choose\" is not allowed with placer_knows_value = false: "
                             "choosing a blocker means seeing the bag (rule D11)")

    def blocker_set(self) -> tuple[int, ...]:
        """The values of one player's blockers: ``blocker_values`` in order, repeated to
        ``blockers_per_player`` values."""
        values = self.blocker_values
        return tuple(values[i % len(values)] for i in range(self.blockers_per_player))
