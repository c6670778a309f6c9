"""Then There Was One's scene: the board, the pieces, the panels and what each click may do.

The view asks the game's public queries (``build_edges``, ``buy_tiles``,
``legal_token_moves``, ``step_reason``, ``check``, ...) what is legal and why
not, so the board and the rules never disagree; it decides only looks.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ...geometry import LETTERS, bits, popcount
from ...rules import EndTurn
from ...scene import Scene, cell_id, edge_id
from .actions import Build, Buy, Remove
from .params import bracketed
from .position import State

if TYPE_CHECKING:
    from .rules import ThenThereWasOne

__all__ = ["View"]

SUPPLY = "supply:obstacle"   # scene id of the obstacle supply the wall player buys from
TILE_FILL = "#f7f2e7"
ZONE_FILL = "#dbe7f3"
GOAL_FILL = "#d8eed2"
OBSTACLE_COLOR = "#7a5c3e"


class View:
    """Builds the scene of a position for one viewer (see :mod:`playtest.scene`)."""

    def __init__(self, game: ThenThereWasOne, state: State, seat: int | None):
        self.game, self.state, self.seat = game, state, seat
        self.B = game.B
        self.s = Scene()

    def build(self) -> dict[str, Any]:
        game, state, B, s = self.game, self.state, self.B, self.s
        seats = game.seats()
        # coordinates as the move log writes them: c12 is column c, row 12 (row 1 at the bottom)
        s.board("board", "grid", title=f"{game.title}: round {state.round}", cols=B.cols, rows=B.rows, cell=34,
                flip=True, labels={"cols": LETTERS[:B.cols], "rows": [str(r + 1) for r in range(B.rows)]})
        tokens_at = {t: k + 1 for k, t in enumerate(state.tokens) if t >= 0}
        for i in range(B.size):
            fill = GOAL_FILL if B.goal >> i & 1 else ZONE_FILL if B.zone >> i & 1 else TILE_FILL
            start = i < B.cols and B.start_mask >> i & 1
            title = f"{B.label(i)} {list(B.cell(i))}" + (" start circle" if start else "") + \
                (" goal row" if B.goal >> i & 1 else "")
            s.cell("board", B.cell(i), fill=fill, text="○" if start and i not in tokens_at else None, title=title)
        s.line("board", [(0, B.zone_rows), (B.cols, B.zone_rows)], color="#111", width=4)
        for i in bits(state.obstacles):
            bought = state.bought >> i & 1
            s.piece("board", B.cell(i), "square", OBSTACLE_COLOR, size=0.84,
                    outline="#f2b134" if bought else None,
                    title="obstacle bought this turn" if bought else "obstacle")
        mover = game.to_move(state)
        acting = state.phase not in ("over", "scatter") and (self.seat is None or self.seat == mover)
        wall_turn = state.phase == "wall" and acting
        for e in bits(state.walls | state.built):
            i, j = B.edge_ends(e)
            style = "wall" if state.built >> e & 1 else "old"
            eid = s.edge("board", B.cell(i), B.cell(j), style=style,
                         title="built this turn" if style == "wall" else "left standing from an earlier turn")
            if wall_turn:
                verb = "take back this wall" if style == "wall" else "pick up this wall"
                s.move(eid, verb, game.wall_action(Remove, e).to_json())
        if state.phase == "token" and state.path:
            color = seats[state.mover].color
            points = [(i % B.cols + 0.5, i // B.cols + 0.5) for i in state.path]
            if len(points) >= 2:
                s.line("board", points, color=color, width=3, dash=True)
        for seat, t in enumerate(state.tokens, start=1):
            if t < 0:
                continue
            dim = seat in state.arrived
            moving = state.phase == "token" and seat == state.mover
            if moving:  # the token on the move shows its steps left
                left = state.rules.move_length - state.steps_taken
                text, title = str(left), f"{seats[seat].name}'s token: {left} step{'s' if left != 1 else ''} left"
            else:
                text, title = str(seat), f"{seats[seat].name}'s token (seat {seat})" + (" (arrived)" if dim else "")
            s.piece("board", B.cell(t), seats[seat].shape, seats[seat].color, size=0.72, text=text, dim=dim,
                    title=title, outline="#111" if moving else None)
        self.last_move()
        self.status()
        self.panels()
        self.legend()
        if acting:
            getattr(self, f"interact_{state.phase}")()
        elif state.phase == "over":
            s.hint("The game is over. Undo, or jump back in the history to try another line.")
        elif state.phase == "scatter":
            s.hint("The obstacles are about to be scattered (a chance step).")
        else:
            assert mover is not None                # (only a game over has nobody to move)
            s.hint(f"Waiting for {seats[mover].name}.")
        s.cite_rules(game.name)
        return s.to_json()

    def legend(self) -> None:
        """What the marks on the board mean, those it shows now."""
        state, s = self.state, self.s
        seats = self.game.seats()
        s.legend("start circle", "cell", fill=TILE_FILL, text="○")
        s.legend("the start zone's edge", "line", color="#111", width=4)
        if state.built:
            s.legend("wall built this turn", "edge", style="wall")
        if state.walls:
            s.legend("wall left standing from an earlier turn (grey dashes)", "edge", style="old")
        if state.obstacles:
            s.legend("obstacle", "piece", shape="square", color=OBSTACLE_COLOR, size=0.84)
        if state.bought:
            s.legend("obstacle bought this turn", "piece", shape="square", color=OBSTACLE_COLOR, size=0.84,
                     outline="#f2b134")
        if state.phase == "token" and 0 < state.mover < len(seats):
            seat = seats[state.mover]
            left = state.rules.move_length - state.steps_taken
            s.legend("the token on the move, with its steps left", "piece", shape=seat.shape, color=seat.color,
                     size=0.72, text=str(left), outline="#111")
            if state.path:
                s.legend("its path this turn", "line", color=seat.color, width=3, dash=True)
        if state.arrived:
            s.legend("a token that arrived (faded)", "piece", shape="circle", color="#8a8f98", size=0.72, dim=True)

    def last_move(self) -> None:
        """Outline what the last action touched (a bot's too): a token's path, a wall, a bought obstacle."""
        state, B, s = self.state, self.B, self.s
        for i in state.last_tiles:
            s.last(cell_id(B.cell(i)))
        for e in bits(state.last_edges):
            i, j = B.edge_ends(e)
            s.last(edge_id(B.cell(i), B.cell(j)))

    def status(self) -> None:
        game, state, s = self.game, self.state, self.s
        if state.phase in ("over", "scatter"):      # (nobody's colour)
            s.status(game.describe_state(state))
            return
        seat = game.seats()[state.mover]
        s.status(game.describe_state(state), seat.color, seat.shape)

    def panels(self) -> None:
        game, state, s, B = self.game, self.state, self.s, self.B
        p = game.params
        rules = state.rules
        seats = game.seats()
        n = game.tokens_n
        standing = popcount(state.walls | state.built)
        if state.phase == "wall":
            used = game.points_used(state)
            rows = [["points used", f"{used} of {rules.wall_budget}"],
                    ["points left", str(rules.wall_budget - used)],
                    ["walls standing", f"{popcount(state.walls)} (+{popcount(state.built)} built this turn)"],
                    ["obstacles bought", f"{popcount(state.bought)} this turn (max {rules.max_obstacles_per_turn}), "
                                         f"{state.bought_total} of {rules.max_bought_obstacles_per_game} this game"],
                    ["obstacle cost", f"{rules.obstacle_cost} points, this turn only"]]
            if state.first_wall_turn and rules.first_turn_black_line_ban:
                rows.append(["first turn", "nothing behind the black line"])
        else:
            rows = [["walls standing", f"{standing} (count towards the next wall turn)"],
                    ["budget", f"{p.wall_budget} points a wall turn"],
                    ["obstacles bought", f"{state.bought_total} of {p.max_bought_obstacles_per_game} this game"]]
        if state.phase == "wall" and p.wall_budget != rules.wall_budget:
            rows.append(["next turn", f"budget {p.wall_budget} from the wall player's next turn"])
        s.panel("Wall budget", rows)
        token_rows = []
        for seat in range(1, n + 1):
            t = state.tokens[seat - 1]
            how = dict(state.eliminated).get(seat)
            if how:
                where = f"eliminated ({how})"
            elif seat in state.arrived:
                where = "arrived" + (f" on {B.label(t)}" if t >= 0 else "")
            elif t >= 0:
                where = f"on {B.label(t)}" + (" (moved this round)" if seat in state.moved else "")
            else:
                where = "not placed yet"
            token_rows.append([seats[seat].name, where])
        s.panel("Tokens", token_rows)
        s.panel("Game", [["round", f"{state.round} of {p.max_rounds}"],
                         ["arrived", f"{len(state.arrived)} (the tokens win at {p.token_win_threshold[n - 2]})"],
                         ["eliminated", f"{len(state.eliminated)} (the wall player wins at "
                                        f"{p.wall_win_threshold[n - 2]})"]])
        if state.phase == "token":
            s.panel("This turn", [["steps", f"{state.steps_taken} of {rules.move_length}"],
                                  ["jumps", f"{state.jumps_used} of {rules.max_jumps_per_turn}"]])
        if state.phase in ("wall", "token"):
            changed = [[spec.name, f"{bracketed(getattr(p, spec.name))} from the next turn "
                                   f"(now {bracketed(getattr(rules, spec.name))})"]
                       for spec in p.specs() if spec.live and getattr(p, spec.name) != getattr(rules, spec.name)]
            if changed:
                s.panel("Changed rules", changed)

    # one method per phase: the player to move's clickable options
    def interact_wall(self) -> None:
        game, state, s, B = self.game, self.state, self.s, self.B
        rules = state.rules
        build = game.build_edges(state)
        for e in bits(build):
            i, j = B.edge_ends(e)
            eid = s.edge("board", B.cell(i), B.cell(j), style="slot")
            s.move(eid, "build a wall here (1 point)", game.wall_action(Build, e).to_json())
        # every other empty edge says why no wall may go there (a click there is the edge's, not the tile's);
        # with the budget spent that is one reason for all, asked once
        spent = game.points_used(state) + 1 > rules.wall_budget
        why = ""
        for e in bits(B.inner & ~(state.walls | state.built | build)):
            i, j = B.edge_ends(e)
            eid = s.edge("board", B.cell(i), B.cell(j), style="blank")
            why = why if spent and why else str(game.check(state, game.wall_action(Build, e)) or "")
            s.reason(eid, why)
        # buying is two clicks: the obstacle supply beside the board, then a tile (so the tiles are
        # not all lit up while the player builds walls)
        s.board("supply", "grid", title="Buy", cols=1, rows=1, cell=40)
        s.cell("supply", (0, 0), fill="#fffdf8", id="supply:cell")
        supply = s.piece("supply", (0, 0), "square", OBSTACLE_COLOR, size=0.8, id=SUPPLY,
                         title=f"an obstacle: {rules.obstacle_cost} points this turn, permanent")
        buy = game.buy_tiles(state)
        used = game.points_used(state)
        buyable = 0
        for i in range(B.size):
            cid = cell_id(B.cell(i))
            if buy >> i & 1:
                s.select(supply, cid, f"buy an obstacle here ({rules.obstacle_cost} points, permanent)",
                         Buy(B.cell(i)).to_json())
                buyable += 1
                continue
            why = str(game.check(state, Buy(B.cell(i))) or "")
            if why:
                s.reason(cid, why)
        if not buyable:
            if popcount(state.bought) >= rules.max_obstacles_per_turn:
                why = (f"{popcount(state.bought)} obstacles were bought this turn already "
                       f"(max_obstacles_per_turn) (rule A.1 §14.2)")
            elif state.bought_total >= rules.max_bought_obstacles_per_game:
                why = (f"{state.bought_total} obstacles were bought in this game already "
                       f"(max_bought_obstacles_per_game) (rule A.1 §14.2)")
            elif used + rules.obstacle_cost > rules.wall_budget:
                why = (f"an obstacle costs {rules.obstacle_cost} points and only {rules.wall_budget - used} are "
                       "left (rule A.1 §14.1)")
            else:
                why = "no tile can take an obstacle now"
            s.reason(supply, why)
        if used <= rules.wall_budget:
            s.button("End wall turn", EndTurn().to_json())
            s.hint(f"Click an empty edge to build a wall (1 point) or a wall to pick it up; to buy an obstacle "
                   f"({_points(rules.obstacle_cost)}) click the supply, then a tile. "
                   f"{_points(rules.wall_budget - used)} left. Then End wall turn.")
        else:
            s.hint(f"{used} points are used but the budget is {rules.wall_budget}: pick up "
                   f"{used - rules.wall_budget} wall(s) first (rule A.1 §14.1).")

    def interact_token(self) -> None:
        game, state, s, B = self.game, self.state, self.s, self.B
        rules = state.rules
        legal = game.legal_token_moves(state)
        visited = game.token_turn(state).visited
        pos = state.path[-1]
        left = rules.move_length - state.steps_taken
        seen = set()
        for n, jump in legal:
            cid = cell_id(B.cell(n))
            if visited >> n & 1:
                label = "step here: lands twice, eliminated!"
            elif jump:
                label = f"jump here ({rules.jump_step_cost} step{'s' if rules.jump_step_cost > 1 else ''})"
            else:
                label = "step here"
            if B.goal >> n & 1 and rules.goal_on_entry:
                label += ": reaches the goal row"
            s.move(cid, label, game.step_action(n, jump).to_json())
            seen.add(n)
        for n in bits(B.adj8[pos]):
            if n in seen:
                continue
            diagonal = not B.adj4[pos] >> n & 1
            s.reason(cell_id(B.cell(n)), str(game.step_reason(state, n, diagonal)))
        name = game.seats()[state.mover].name
        s.hint(f"{name}: {left} step{'s' if left != 1 else ''} left. Click a highlighted tile to step there "
               f"(a diagonal is a jump, {rules.max_jumps_per_turn - state.jumps_used} left).")

    def interact_start(self) -> None:
        game, state, s = self.game, self.state, self.s
        for action in game.legal_actions(state):
            s.move(cell_id(action.at), "start here", action.to_json())  # type: ignore[attr-defined]
        s.hint(f"{game.seats()[state.mover].name}: click a start circle ○ in row 1 for your token.")

    def interact_order(self) -> None:
        game, state, s = self.game, self.state, self.s
        for action in game.legal_actions(state):
            s.button(f"{game.seats()[action.seat].name} moves next", action.to_json())  # type: ignore
        s.hint("The token team picks which token moves next.")

    def interact_place(self) -> None:
        game, state, s = self.game, self.state, self.s
        for action in game.legal_actions(state):
            s.move(cell_id(action.at), "place an obstacle here", action.to_json())  # type: ignore
        s.hint(f"{game.seats()[state.mover].name}: click a tile in front of the black line for an obstacle.")


def _points(n: int) -> str:
    """``1 point``, ``3 points``."""
    return f"{n} point{'s' if n != 1 else ''}"
