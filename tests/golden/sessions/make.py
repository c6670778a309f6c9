"""Write the session files that ``tests/test_kernel_compat.py`` loads: one per game, recorded by
the kit of the revision that wrote them (run from that revision's checkout):

    python tests/golden/sessions/make.py tests/golden/sessions

Each ``<game>.playtest.json`` is a session of random play with a branch, a note and a live
parameter change; ``<game>.expected.json`` holds what that revision said of it (every
position's JSON, the move log per viewer, the winner), so a later kit must replay it identically.
"""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path

import playtest

GAMES = playtest.games() + ["secret_bid"]


def record(name: str, folder: Path) -> None:
    game = playtest.load(name)
    path = folder / f"{name}.playtest.json"
    path.unlink(missing_ok=True)
    session = playtest.Session.open(path, game, seed=11)
    rng = random.Random(5)
    for step in range(60):
        if session.to_move is None:
            break
        actions = session.legal_actions(session.to_move if session.to_move >= 0 else None) \
            if session.to_move >= 0 else session.legal_actions()
        if not actions:
            break
        session.play(rng.choice(actions))
        if step == 10:
            session.note("a note at move ten", author="Designer")
        if step == 20:
            session.undo()
            session.undo()
    expected = {
        "final": json.loads(json.dumps(session.state.to_json())),
        "history": {str(v): session.history(v) for v in [None] + list(range(len(game.seats())))},
        "winner": session.winner if not isinstance(session.winner, tuple) else list(session.winner),
    }
    (folder / f"{name}.expected.json").write_text(json.dumps(expected, indent=1, sort_keys=True, ensure_ascii=False))


if __name__ == "__main__":
    out = Path(sys.argv[1])
    for name in GAMES:
        record(name, out)
        print("recorded", name)
