"""Corner Rush's scene: the board, the pieces, the panels and what each click may do, for one viewer.

The view asks the game's public queries (``step_tiles``, ``push_tiles``,
``challengeable``, ``place_tiles``, the ``*_reason`` methods, ``knows``) what
is legal and why not, so the board and the rules never disagree; it decides
only looks. A viewer sees a face-down blocker's value only when it may know it
(it placed it, or the blocker was shown to everyone); the table (``None``)
sees no seat's secrets and offers no actions (the curtain goes up first).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ...geometry import bits
from ...rules import EndTurn
from ...scene import Scene, cell_id
from .actions import Challenge, Draw, Leave, Place, Push, Roll, Step, Take
from .params import face_name
from .position import State, first_player
from .rules import SEAT_COLORS, SEAT_NAMES

if TYPE_CHECKING:
    from .rules import CornerRush

__all__ = ["View"]

TILE_FILL = "#f4efe4"
HOLE_FILL = "#4a4038"
ACE_TINT = ("#f6d5da", "#cfe3ee", "#d3ead6", "#f6e6bf")
UNKNOWN_BACK = "#8a8f98"     # a face-down blocker whose colour is hidden (blocker_color_visible = false)


class View:
    """Builds the scene of a position for one viewer (see :mod:`playtest.scene`)."""

    def __init__(self, game: CornerRush, state: State, viewer: int | None):
        self.game, self.state = game, state
        self.viewer = viewer if viewer is not None and 0 <= viewer < game.n else None
        self.B = game.B
        self.s = Scene()

    # ------------------------------------------------------------------ the picture
    def build(self) -> dict[str, Any]:
        game, state, B, s = self.game, self.state, self.B, self.s
        title = f"{game.title}: turn {min(state.turn + 1, game.params.max_turns)} of {game.params.max_turns}"
        s.board("board", "grid", title=title, cols=B.size, rows=B.size, cell=60, flip=True,
                labels={"cols": [B.label(c)[0] for c in range(B.size)],
                        "rows": [str(r + 1) for r in range(B.size)]})     # a1 style, as the notation writes
        ace_of = {a: seat for seat, a in enumerate(B.aces)}
        for i in range(B.tiles):
            words = [B.label(i)]
            fill = TILE_FILL
            if i == B.hole:
                fill = HOLE_FILL
                words.append("the hole: no pawn, no blocker")
            elif i in ace_of:
                fill = ACE_TINT[ace_of[i]]
                words.append(f"{SEAT_NAMES[ace_of[i]]}'s Ace")
            s.cell("board", B.grid.cell(i), fill=fill, title=" ".join(words))
        self.path_line()
        for seat, a in enumerate(B.aces):
            s.piece("board", B.grid.cell(a), "circle", SEAT_COLORS[seat], size=0.8, hollow=True, text="A",
                    title=f"{SEAT_NAMES[seat]}'s Ace: {SEAT_NAMES[seat]} wins on reaching it")
        for tile in bits(state.blocked):
            self.blocker(tile)
        mover = state.mover if state.phase not in ("rolloff", "over") else -1
        for seat, tile in enumerate(state.pawns):
            s.piece("board", B.grid.cell(tile), self.game.seats()[seat].shape, SEAT_COLORS[seat], size=0.56,
                    text=SEAT_NAMES[seat][0], outline="#111",
                    title=f"{SEAT_NAMES[seat]}'s pawn on {B.label(tile)}" + (" (to move)" if seat == mover else ""))
        self.mark_last()
        self.status()
        self.panels()
        self.legend()
        self.interact()
        return s.to_json()

    def legend(self) -> None:
        """What the marks on the board mean (the Ace rings sit under the pawns that start there)."""
        state, s = self.state, self.s
        seat = max(0, state.mover) if state.mover < len(SEAT_COLORS) else 0
        s.legend("ring with A: a seat's Ace, the corner it wins on reaching, in its colour (at the start "
                 "another seat's pawn stands inside it)",
                 "piece", shape="circle", color=SEAT_COLORS[seat], size=0.8, hollow=True, text="A")
        s.legend("a pawn (its seat's initial)", "piece", shape=self.game.seats()[seat].shape,
                 color=SEAT_COLORS[seat], size=0.56, text=SEAT_NAMES[seat][0], outline="#111")
        if state.blocked:
            s.legend("a face-down blocker", "piece", shape="square", color=UNKNOWN_BACK, size=0.62, text="?")
            s.legend("a face-down blocker whose value you know", "piece", shape="square",
                     color=SEAT_COLORS[seat], size=0.62, hollow=True, text="1")
            s.legend("a face-up blocker", "piece", shape="square", color=SEAT_COLORS[seat], size=0.62, text="1")
        if state.path or state.last is not None:
            s.legend("the pawn's path (this turn's, else the last)", "line", color=SEAT_COLORS[seat], width=4,
                     dash=True, arrow=True)
        if self.B.hole >= 0:
            s.legend("the hole: no pawn, no blocker", "cell", fill=HOLE_FILL)

    def mark_last(self) -> None:
        """The last move outlined: where the pawn moved last (this turn's, else the previous turn's), the
        blocker challenged this turn, the blocker placed last."""
        state, B = self.state, self.B
        marked = []
        if state.path:
            marked.append(state.path[-1])
        elif state.last is not None:
            _seat, path, placed = state.last
            marked += ([path[-1]] if path else []) + ([placed] if placed >= 0 else [])
        if state.challenged >= 0:
            marked.append(state.challenged)
        self.s.last(*(cell_id(B.grid.cell(i)) for i in marked))

    def blocker(self, tile: int) -> None:
        game, state, B = self.game, self.state, self.B
        b = state.blocker_on(tile)
        owner = SEAT_NAMES[b.colour]
        colour_seen = game.params.blocker_color_visible or b.face_up
        color = SEAT_COLORS[b.colour] if colour_seen else UNKNOWN_BACK
        back = f"{owner}'s blocker" if colour_seen else "a blocker"
        if b.face_up:
            self.s.piece("board", B.grid.cell(tile), "square", color, size=0.62, text=face_name(b.value),
                         title=f"{back} on {B.label(tile)}, face up: {face_name(b.value)}")
        elif self.sees(tile):
            who = "everyone saw it" if b.known == game.everyone else "you placed it; nobody else knows it"
            self.s.piece("board", B.grid.cell(tile), "square", color, size=0.62, hollow=True,
                         text=face_name(b.value),
                         title=f"{back} on {B.label(tile)}, face down: {face_name(b.value)} (known: {who})")
        else:
            self.s.piece("board", B.grid.cell(tile), "square", color, size=0.62, text="?",
                         title=f"{back} on {B.label(tile)}, face down")

    def sees(self, tile: int) -> bool:
        """Whether the viewer may know the value of the blocker on ``tile``."""
        return self.game.knows(self.state, self.viewer, tile)

    def path_line(self) -> None:
        """The last move marked: this turn's path so far, else the previous turn's."""
        state, B = self.state, self.B
        if len(state.path) >= 2:
            seat, path = (state.pushed if state.pushed >= 0 else state.mover), state.path
        elif state.last is not None and len(state.last[1]) >= 2:
            seat, path = state.last[0], state.last[1]
        else:
            return
        points = [(i % B.size + 0.5, i // B.size + 0.5) for i in path]
        self.s.line("board", points, color=SEAT_COLORS[seat], width=4, dash=True, arrow=True)

    def status(self) -> None:
        game, state, s = self.game, self.state, self.s
        if state.phase in ("over", "rolloff") or state.mover < 0:
            s.status(game.describe_state(state))
            return
        seat = game.seats()[state.mover]
        s.status(game.describe_state(state), seat.color, seat.shape)

    def panels(self) -> None:
        game, state, s = self.game, self.state, self.s
        rows = [["last roll", "-" if state.die < 0 else _face_words(state.die)]]
        if state.challenged >= 0:
            rows.append(["challenged", self.B.label(state.challenged)])
        rows.append(["turn", f"{min(state.turn + 1, game.params.max_turns)} of {game.params.max_turns}"])
        s.panel("Die", rows)
        bags = []
        for seat in range(game.n):
            bag = state.bags[seat]
            row = [SEAT_NAMES[seat], f"{len(bag)} in the bag"]
            if game.bag_known(self.viewer, seat):
                row.append("yours: " + (", ".join(_token_words(t, seat) for t in bag) or "empty"))
            bags.append(row)
        s.panel("Bags", bags)
        if state.held is not None:
            held = (_token_words(state.held, state.mover) if game.bag_known(self.viewer, state.mover)
                    and self.viewer == state.mover else "face down")
            s.panel("Drawn", [[SEAT_NAMES[state.mover], held]])
        if state.rolloff != ((),):
            rounds = []
            for k, rnd in enumerate(state.rolloff):
                if rnd:
                    rounds.append([f"round {k + 1}" if k else "roll-off",
                                   ", ".join(f"{SEAT_NAMES[seat]} {face_name(v)}" for seat, v in rnd)])
            first = first_player(state)
            if first >= 0:
                rounds.append(["first player", SEAT_NAMES[first]])
            s.panel("First player", rounds)

    # ------------------------------------------------------------------ what a click may do
    def interact(self) -> None:
        game, state, s = self.game, self.state, self.s
        mover = game.to_move(state)
        if state.phase == "over":
            s.hint("The game is over. Undo, or jump back in the history to try another line.")
            return
        if mover is None or mover < 0:
            s.hint("Chance: " + game.describe_state(state) + ". Roll, or force the outcome.")
            return
        if self.viewer is None:
            s.hint(f"{SEAT_NAMES[mover]} to act: the curtain goes up between seats (blocker values are secret).")
            return
        if self.viewer != mover:
            s.hint(f"Waiting for {SEAT_NAMES[mover]}.")
            return
        getattr(self, f"interact_{state.phase}")()

    def _everything_else(self, why: str, skip: int = 0) -> None:
        """The reason shown on every tile that is not offered (``skip``, a mask: tiles handled elsewhere)."""
        offered = self.s.to_json()["moves"]
        for i in range(self.B.tiles):
            cid = cell_id(self.B.grid.cell(i))
            if not skip >> i & 1 and cid not in offered:
                self.s.reason(cid, why)

    def interact_start(self) -> None:
        game, state, s, B = self.game, self.state, self.s, self.B
        s.button("Roll the die (normal turn)", Roll().to_json())
        challengeable = self._offer_challenges()
        for tile in bits(state.blocked & ~challengeable):
            s.reason(cell_id(B.grid.cell(tile)), str(game.challenge_reason(state, tile)))
        self._everything_else("Roll the die for a normal turn, or click a blocker next to your pawn to challenge "
                              "it (rule D.1 §8)", state.blocked)
        where = " or click a lit blocker to challenge it" if challengeable else ""
        s.hint(f"{SEAT_NAMES[state.mover]}: roll the die{where}.")

    def _offer_challenges(self) -> int:
        """The blockers the player may challenge, each with its odds as the player sees them (a mask)."""
        game, state, B = self.game, self.state, self.B
        challengeable = game.challengeable(state)
        for tile in bits(challengeable):
            odds = game.challenge_odds(state, state.mover, tile)
            what = f"a {face_name(state.blocker_on(tile).value)}" if self.sees(tile) else "value unknown"
            self.s.move(cell_id(B.grid.cell(tile)), f"challenge this blocker ({what}; beaten {odds:.0%} of the time)",
                        Challenge(B.label(tile)).to_json())
        return challengeable

    def interact_again(self) -> None:
        state, s = self.state, self.s
        self._offer_challenges()
        s.button("No more challenges", EndTurn().to_json())
        self._everything_else("Click a lit blocker to challenge it again, or go on to your blocker "
                              "(rule D.1 §9)")
        s.hint(f"{SEAT_NAMES[state.mover]}: challenge another blocker, or no more challenges.")

    def interact_move(self) -> None:
        game, state, s, B = self.game, self.state, self.s, self.B
        seat = state.mover
        pos = state.pawns[seat]
        lit = game.step_tiles(state)
        left = state.steps - 1
        for tile in bits(lit):
            if tile == B.aces[seat]:
                label = "step here: your Ace, you win!"
            else:
                label = f"step here ({left} step{'s' if left != 1 else ''} left after)"
            s.move(cell_id(B.grid.cell(tile)), label, Step(B.label(tile)).to_json())
        for tile in bits(B.adj4[pos] & ~lit):
            s.reason(cell_id(B.grid.cell(tile)), str(game.step_reason(state, tile)))
        self._everything_else("The pawn moves one orthogonal step at a time: click a lit tile next to it "
                              "(rule D.1 §8.3)", B.adj4[pos])
        if game.may_stop(state):
            s.button("Stop here", EndTurn().to_json())
        s.hint(f"{SEAT_NAMES[seat]}: {state.steps} step{'s' if state.steps != 1 else ''} left. Click a lit tile.")

    def interact_null(self) -> None:
        game, state, s, B = self.game, self.state, self.s, self.B
        for pawn in range(game.n):
            targets = game.push_tiles(state, pawn)
            source = cell_id(B.grid.cell(state.pawns[pawn]))
            for tile in bits(targets):
                s.select(source, cell_id(B.grid.cell(tile)), f"move {SEAT_NAMES[pawn]}'s pawn here",
                         Push(pawn, B.label(tile)).to_json())
        s.button("Move no pawn", EndTurn().to_json())
        own = cell_id(B.grid.cell(state.pawns[state.mover]))
        s.reason(own, "On a Null your own pawn stays; you may move another player's pawn one step (rule D.1 §8.2)")
        movable = sum(1 << state.pawns[pawn] for pawn in range(game.n) if game.push_tiles(state, pawn))
        self._everything_else("On a Null, click another player's pawn that can move, then a lit tile next to it "
                              "(rule D.1 §8.2)", movable | 1 << state.pawns[state.mover])
        s.hint(f"{SEAT_NAMES[state.mover]} rolled Null: click another player's pawn, then a lit tile next to it; "
               "or move no pawn.")

    def interact_take(self) -> None:
        s = self.s
        s.button("Take the blocker", Take().to_json())
        s.button("Leave it face up", Leave().to_json())
        s.hint(f"{SEAT_NAMES[self.state.mover]} beat the blocker: take it, or leave it on the board.")

    def interact_draw(self) -> None:
        game, state, s = self.game, self.state, self.s
        for action in game.legal_actions(state):
            assert isinstance(action, Draw)
            s.button(f"Draw {_token_words((action.colour, action.value), state.mover)}", action.to_json())
        s.hint(f"{SEAT_NAMES[state.mover]}: choose the blocker to draw from your bag.")

    def interact_place(self) -> None:
        game, state, s, B = self.game, self.state, self.s, self.B
        held = _token_words(state.held, state.mover) if game.bag_known(state.mover, state.mover) and state.held \
            else "blocker"
        lit = game.place_tiles(state)
        for tile in bits(lit):
            s.move(cell_id(B.grid.cell(tile)), f"place the {held} here, face down", Place(B.label(tile)).to_json())
        for tile in bits(B.all & ~lit):
            s.reason(cell_id(B.grid.cell(tile)), str(game.place_reason(state, tile)))
        if not game.params.blocker_placement_mandatory:
            s.button("Keep it in the bag", EndTurn().to_json())
        s.hint(f"{SEAT_NAMES[state.mover]}: place the {held} you drew face down on a lit tile.")


def _face_words(value: int) -> str:
    """A die result for the panel: ``Ace (6)``, ``Null (0)``, ``4``."""
    name = face_name(value)
    return name if name == str(value) else f"{name} ({value})"


def _token_words(token: tuple[int, int], seat: int) -> str:
    """A blocker in a bag: its value, and its colour when it is another seat's."""
    colour, value = token
    return face_name(value) + ("" if colour == seat else f" ({SEAT_NAMES[colour]}'s)")

