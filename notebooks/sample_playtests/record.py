"""Record the sample playtests of notebooks/playtest_report.ipynb by playing them at the table.

    python notebooks/sample_playtests/record.py            # writes notebooks/sample_playtests/*.playtest.json

Three testers (Ana, Ben, Chloé) each play two games of Then There Was One at a
:class:`playtest.Table`, one with ``wall_budget`` 8 and one with 12 (the default).
Each plays the wall player (seat 0) and the Red token (seat 1); greedy bots
play Blue and Green. Every click goes through the table as the browser sends it
(``board.receive``): actions, clicks on places the board says no to (the refusal
is kept with the scene's own reason), the odd action the rules refuse, notes,
and the feedback form at the end. The files are the kit's own session files.

The testers are simulated, and said so: a tester's choice is a greedy bot's
(or, one time in seven, a random legal action), and the time it takes is drawn
from a model, not measured. The model thinks longer when there is more to
choose from (the log of the number of legal actions), so any difference in think
time between the parameter sets comes from the game, not from the script. The
clock is the session's ``clock`` (simulated seconds): recording takes a minute,
not the hours the games would. Feedback answers are drawn loosely from the game
as played (a long game more often "too long").

Re-recording replaces the sample files (it asks for ``--replace``).
"""

from __future__ import annotations

import argparse
import math
import random
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
TESTERS = ("Ana", "Ben", "Chloé")
BUDGETS = (8, 12)
SEED = 2011
START = 1_767_225_600.0          # 2026-01-01T00:00:00Z: the sessions' simulated clock starts here
NOTES = ["I wasn't sure whether a wall may touch the start circles", "the wall player has too many choices here",
         "Blue got stuck behind two walls", "nice tension in this round", "I forgot the six-step rule again",
         "can a token jump over a wall? the board said no"]
CONFUSED = ["when exactly walls may be built next to a token", "whether jumps cost a step",
            "why my wall was refused on the first turn", "", "the black line", ""]


class Tester:
    """A simulated person at the table: chooses like a greedy bot, takes time to think, sometimes errs."""

    def __init__(self, name: str, rng: random.Random, clock: list[float]):
        self.name = name
        self.rng = rng
        self.clock = clock

    def think(self, options: int) -> None:
        """Let time pass as this person thinks: longer with more to choose from (lognormal)."""
        base = 1.2 + 1.1 * math.log1p(options)
        self.clock[0] += min(240.0, self.rng.lognormvariate(math.log(base), 0.55))


def record(directory: Path, replace: bool = False) -> list[Path]:
    sys.path.insert(0, str(HERE.parents[1]))
    import playtest
    from playtest.bots import RandomBot
    from playtest.games.then_there_was_one import GreedyTokenBot, GreedyWallBot

    written = []
    for k, name in enumerate(TESTERS):
        for j, budget in enumerate(BUDGETS):
            path = directory / f"then_there_was_one-{name.lower().replace('é', 'e')}-wall_budget_{budget}.playtest.json"
            if path.exists():
                if not replace:
                    raise SystemExit(f"{path.name} exists: re-record with --replace")
                path.unlink()
            rng = random.Random(f"{name}:{budget}")
            clock = [START + 86_400 * (2 * k + j) + 3_600 * rng.random()]
            tester = Tester(name, rng, clock)
            game = playtest.load("then_there_was_one", wall_budget=budget)
            session = playtest.Session(game, seed=SEED, path=path, clock=lambda: clock[0])
            session.author = name
            table = playtest.Table(session, bots={2: GreedyTokenBot(seed=2), 3: GreedyTokenBot(seed=3)})
            play(session, table, tester, {0: GreedyWallBot(seed=k), 1: GreedyTokenBot(seed=k)}, RandomBot(seed=k))
            answer_feedback(session, table, tester)
            table.close()
            written.append(path)
            print(f"{path.name}: {session.positions()} positions, {len(session.refusals)} refusals, "
                  f"{len(session.notes)} notes, {'over' if session.is_over else 'stopped'} at move "
                  f"{session.move_number}")
    return written


def play(session, table, tester: Tester, policy: dict, random_bot, limit: int = 260) -> None:
    """Play the tester's seats by clicking until the game ends (or the tester stops after ``limit`` moves)."""
    from playtest.bots import choose_for
    rng = tester.rng
    while not session.is_over and session.move_number < limit:
        seat = session.to_move
        if seat not in policy:
            raise RuntimeError(f"the table left seat {seat} to move: bots should have played it")
        legal = session.legal_actions()
        tester.think(len(legal))
        scene = table.board.scene
        reasons = scene.get("reasons") or {}
        if reasons and rng.random() < 0.15:           # clicks a place the board says no to
            item = rng.choice(sorted(reasons))
            table.board.receive({"type": "refused", "item": item, "version": table.board.version})
            tester.think(3)
            if item.startswith("edge:") and rng.random() < 0.4:    # and then insists: the rules refuse it
                a, b = (list(map(int, part.split(","))) for part in item[5:].split(":"))
                table.board.receive({"type": "action", "action": {"kind": "build", "a": a, "b": b}})
                tester.think(3)
        if rng.random() < 1 / 7:
            action = random_bot.choose(session.game, session.state)
        else:
            action = choose_for(policy[seat], session.game, session.state, seat, random.Random(rng.random()))
        table.board.receive({"type": "action", "action": action.to_json()})
        if table.board.error:
            raise RuntimeError(f"the table refused a legal move: {table.board.error}")
        if rng.random() < 0.02:
            tester.clock[0] += 10
            table.note_box.value = rng.choice(NOTES)
            table.note_button.click()


def answer_feedback(session, table, tester: Tester) -> None:
    """Fill in the table's feedback form (it opens by itself when the game ends)."""
    rng = tester.rng
    moves = session.move_number
    tester.clock[0] += 40
    controls = table.feedback.controls
    long_game = moves > 200
    controls["fun"].value = str(max(1, min(5, round(rng.gauss(2.6 if long_game else 3.6, 0.8)))))
    controls["clarity"].value = str(max(1, min(5, round(rng.gauss(3.2 - 0.08 * len(session.refusals), 0.7)))))
    controls["length"].value = rng.choice(["right", "too long", "too long"] if long_game else
                                          ["right", "right", "too short"])
    controls["confused"].value = rng.choice(CONFUSED)
    if not table.feedback.send():
        raise RuntimeError(f"the feedback was refused: {table.feedback.message.value}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.strip().splitlines()[0])
    ap.add_argument("--replace", action="store_true", help="replace the sample files already there")
    ap.add_argument("--directory", type=Path, default=HERE)
    args = ap.parse_args()
    record(args.directory, args.replace)


if __name__ == "__main__":
    main()
