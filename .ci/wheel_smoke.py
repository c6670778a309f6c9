"""The built wheel, installed in a fresh environment, works: run by .ci/wheel with that environment's python.

    python wheel_smoke.py REPO

Run from outside the repository (so ``import playtest`` finds the installed copy, never the checkout).
Checks, each failing with a message naming what is missing:

* the distribution is ``playtest-kit`` (import name ``playtest``), with its Python versions and classifiers;
* every game of the registry loads and plays a random game to its end;
* a Table builds for every game (the anywidget board with its scene);
* every rules page of the repository is in the wheel, and each of its numbered rules resolves;
* the board's JavaScript and CSS are in the wheel, byte for byte, and the board serves them;
* the kit's server setting is installed where Jupyter looks for it
  (``{sys.prefix}/etc/jupyter/jupyter_server_config.d/playtest.json``, enabling ``playtest.server``).
"""

from __future__ import annotations

import json
import random
import sys
import time
from importlib import metadata
from pathlib import Path


def main(repo: Path) -> None:
    started = time.perf_counter()
    import playtest
    from playtest import rulebook
    from playtest.rules import CHANCE, draw_outcome
    from playtest.widgets.board import Board

    package = Path(playtest.__file__).resolve().parent
    assert repo.resolve() not in package.parents, f"playtest was imported from the checkout ({package})"
    assert Path(sys.prefix).resolve() in package.parents, f"playtest is not installed in {sys.prefix} ({package})"

    dist = metadata.distribution("playtest-kit")
    meta = dist.metadata
    assert meta["Name"] == "playtest-kit" and meta["Requires-Python"] == ">=3.10", (meta["Name"], meta["Requires-Python"])
    classifiers = set(meta.get_all("Classifier") or ())
    for minor in (10, 11, 12, 13):
        assert f"Programming Language :: Python :: 3.{minor}" in classifiers, f"no classifier for Python 3.{minor}"
    assert (dist.read_text("top_level.txt") or "").split() == ["playtest"], dist.read_text("top_level.txt")
    assert dist.version == playtest.__version__, (dist.version, playtest.__version__)

    games = playtest.games()
    assert len(games) >= 5, games
    for name in games:
        game = playtest.load(name)
        state, rng, steps = game.initial_state(), random.Random(name), 0
        while game.to_move(state) is not None:
            assert steps < 200_000, f"{name}: a random game did not end in 200,000 steps"
            if game.to_move(state) == CHANCE:
                action = draw_outcome(game.chance_outcomes(state), rng)
            else:
                action = game.random_action(state, rng)
            state = game.apply(state, action)
            steps += 1
        assert game.outcome(state) is not None, name
        table = playtest.Table(playtest.Session(game, seed=1))
        scene = table.board.scene
        assert scene.get("boards") and scene.get("status"), f"{name}: the table's board has no scene"
        table.close()
        print(f"  {name}: a random game of {steps} steps ends ({game.outcome(state).reason}); a Table builds")

    pages = sorted(p.stem for p in (repo / "playtest" / "rules_pages").glob("*.md"))
    assert pages, "the repository has no rules pages"
    for name in pages:
        ids = rulebook.rule_ids(name)
        assert ids, f"the rules page of {name} numbers no rule"
        for rule_id in ids:
            assert rulebook.rule_text(name, rule_id).startswith(rule_id), (name, rule_id)
        print(f"  rules page {name}: {len(ids)} rules resolve")
    missing = [g for g in games if g not in pages]
    if missing:
        print(f"  (no rules page yet in the repository for {', '.join(missing)})")

    static = repo / "playtest" / "widgets" / "static"
    files = sorted(p.relative_to(static) for p in static.rglob("*") if p.is_file() and p.suffix in (".js", ".css"))
    assert any(str(f).startswith("board/") for f in files), files
    for rel in files:
        installed = package / "widgets" / "static" / rel
        assert installed.is_file(), f"the wheel lacks playtest/widgets/static/{rel}"
        assert installed.read_bytes() == (static / rel).read_bytes(), f"static/{rel} differs from the repository"
    esm = str(Board._esm)
    assert all((static / "board" / p.name).read_text(encoding="utf-8") in esm
               for p in (static / "board").glob("*.js")), "the board's module lacks a static/board/*.js part"
    print(f"  the board's JavaScript and CSS: {len(files)} files in the wheel, the board serves them")

    config = Path(sys.prefix) / "etc" / "jupyter" / "jupyter_server_config.d" / "playtest.json"
    assert config.is_file(), f"the server setting is not installed at {config}"
    enabled = json.loads(config.read_text(encoding="utf-8"))["ServerApp"]["jpserver_extensions"]
    assert enabled == {"playtest.server": True}, enabled
    print(f"  the server setting: {config.relative_to(sys.prefix)} enables playtest.server")
    print(f"wheel smoke test passed in {time.perf_counter() - started:.1f} s")


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit("usage: python wheel_smoke.py REPO")
    main(Path(sys.argv[1]))
