"""Numeric observations of a kit game that draws a board: planes read from the seat's own scene.

A game "declares a board" when its view of the first position has a ``grid`` or ``points`` board
of at least 2 x 2 places (hands, decks and dice are 1-high strips and do not count). Each such
board becomes ``seats + 2`` planes of ``rows x cols``: one per seat (a piece in that seat's
colour), one for any other piece, one for an empty place. The numbers come from the scene the
seat itself is shown (``view(state, seat)``), so they carry no more than its board.

>>> import playtest
>>> game = playtest.load("tic_tac_toe")
>>> spec = board_spec(game)
>>> spec.shape
(4, 3, 3)
>>> state = game.apply(game.initial_state(), game.legal_actions(game.initial_state())[4])
>>> float(board_tensor(game, spec, state, 1).reshape(spec.shape)[0, 1, 1]), float(board_tensor(game, spec, state, 1).sum())
(1.0, 9.0)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

__all__ = ["BoardSpec", "board_spec", "board_tensor"]


@dataclass(frozen=True)
class BoardSpec:
    """The boards a game draws, as numbers: ``boards`` is ``((id, cols, rows), ...)``."""

    boards: tuple[tuple[str, int, int], ...]
    seats: int
    colors: tuple[str, ...]

    @property
    def planes(self) -> int:
        return self.seats + 2

    @property
    def size(self) -> int:
        return sum(self.planes * c * r for _, c, r in self.boards)

    @property
    def shape(self) -> tuple[int, ...]:
        """``(planes, rows, cols)`` for one board; the flat size for several."""
        if len(self.boards) == 1:
            _, cols, rows = self.boards[0]
            return (self.planes, rows, cols)
        return (self.size,)


def board_spec(game: Any) -> BoardSpec | None:
    """The boards ``game`` declares (see the module docstring), or ``None``."""
    try:
        scene = game.view(game.initial_state(), None)
    except Exception:
        return None
    boards = tuple((b["id"], int(b["cols"]), int(b["rows"])) for b in scene.get("boards", ())
                   if b.get("kind") in ("grid", "points") and int(b.get("cols", 0)) >= 2 and int(b.get("rows", 0)) >= 2)
    if not boards:
        return None
    seats = game.seats()
    return BoardSpec(boards, len(seats), tuple(s.color for s in seats))


def board_tensor(game: Any, spec: BoardSpec, state: Any, seat: int | None, out: Any = None) -> Any:
    """The planes of ``state`` as ``seat`` sees it, flat (a float32 numpy array, ``out`` if given)."""
    import numpy as np

    tensor = np.zeros(spec.size, np.float32) if out is None else out
    if out is not None:
        tensor.fill(0)
    scene = game.view(state, seat)
    offset = 0
    planes = spec.planes
    for board, cols, rows in spec.boards:
        block = tensor[offset:offset + planes * rows * cols].reshape(planes, rows, cols)
        block[planes - 1] = 1.0
        for item in scene.get("items", ()):
            if item.get("kind") != "piece" or item.get("board") != board:
                continue
            at = item.get("at")
            if not isinstance(at, (list, tuple)) or len(at) != 2:
                continue
            c, r = int(round(at[0])), int(round(at[1]))
            if not (0 <= c < cols and 0 <= r < rows):
                continue
            color = item.get("color")
            plane = spec.colors.index(color) if color in spec.colors else spec.seats
            block[plane, r, c] = 1.0
            block[planes - 1, r, c] = 0.0
        offset += planes * rows * cols
    return tensor
