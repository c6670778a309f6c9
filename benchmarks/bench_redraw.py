"""Board redraws in a real browser: the JavaScript and the layout of one redraw, per game.

    python benchmarks/bench_redraw.py [--quick] [--seconds 5] [--moves 40] [--against REV]

The scenes of a seeded random game are handed to the board renderer
(``playtest/widgets/static/board/*.js``, joined as the widget loads them) in
headless Chromium, one after another, each after a painted frame, as the
table's redraws come. For each redraw: the
time in the renderer (parsing the scene, building or reusing the items), then
the style and layout the browser does for it. A redraw reuses the nodes of
items whose drawing did not change, moved to their place, so a move touches a
few nodes, even on Eat Thyself's ring, which changes size on most moves (a bare
slot disappears) and moves every slot. No target in the issues: the figures are
reported, the part of the table's click-to-redraw time that is the browser's
(see latency.py).

``--against REV`` also times the renderer of another git revision (its
``board.js``, or its ``board/*.js`` joined) on a second page of the same
browser, the two interleaved round by round, and prints each game's ratio now / then: the
figure to trust on a noisy machine.
"""

from __future__ import annotations

import json
import random
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "tests" / "browser"))

from common import parser, report  # noqa: E402

import playtest  # noqa: E402
from playtest.rules import CHANCE  # noqa: E402

ORIGIN = "http://playtest.test"
HARNESS = REPO / "tests" / "browser" / "board_harness.html"
STATIC = REPO / "playtest" / "widgets" / "static"

_TIME_JS = """
async ([scenes, rounds]) => {
  const out = [];
  const painted = () => new Promise((r) => requestAnimationFrame(() => setTimeout(r, 0)));
  const svg = () => document.querySelector('svg.pt-svg');
  for (let k = 0; k < rounds; k++) for (const s of scenes) {
    await painted();
    const t0 = performance.now();
    window.pt.setScene(JSON.parse(s));
    const t1 = performance.now();
    svg().getBoundingClientRect();        // the style and layout the next frame would do
    out.push([t1 - t0, performance.now() - t1]);
  }
  return out;
}
"""


def scenes_of(name: str, moves: int, seed: int = 1) -> list[str]:
    """The table's scenes (viewer None) along a seeded random game, as JSON text."""
    session = playtest.Session(playtest.load(name), seed=seed)
    rng = random.Random(seed)
    out = []
    for _ in range(moves):
        if session.is_over:
            break
        out.append(json.dumps(session.game.view(session.state, None)))
        if session.to_move == CHANCE:
            session.roll()
        else:
            session.play(session.game.random_action(session.state, rng))
    return out


def _serve(route, board_js: Path | None = None) -> None:
    path = route.request.url[len(ORIGIN):].split("?")[0]
    if path in ("/", "/harness.html"):
        route.fulfill(path=str(HARNESS), content_type="text/html")
        return
    if path == "/static/board.js":
        if board_js is not None:
            route.fulfill(path=str(board_js), content_type="text/javascript")
        else:                                   # the working tree's parts, joined as the widget loads them
            from playtest.widgets.board import board_js as joined
            route.fulfill(body=joined(), content_type="text/javascript")
        return
    file = STATIC / path[len("/static/"):]
    if file.is_file() and STATIC in file.resolve().parents:
        route.fulfill(path=str(file), content_type="text/javascript" if file.suffix == ".js" else "text/css")
    else:
        route.fulfill(status=404, body="not found")


def _server(board_js: Path | None):
    """A route handler serving the harness with this board.js (None: the working tree's)."""
    return lambda route: _serve(route, board_js)


def _renderer_at(rev: str, into: Path) -> Path:
    """The renderer as it was at git revision ``rev`` (one ``board.js`` until it was split into
    ``static/board/*.js``, then those parts joined), written into the directory ``into``."""
    def show(path: str) -> subprocess.CompletedProcess:
        return subprocess.run(["git", "show", f"{rev}:{path}"], cwd=REPO, capture_output=True, text=True)

    single = show("playtest/widgets/static/board.js")
    if single.returncode == 0:
        text = single.stdout
    else:
        from playtest.widgets.board import BOARD_PARTS
        parts = []
        for name in BOARD_PARTS:
            part = show(f"playtest/widgets/static/board/{name}")
            if part.returncode != 0:
                raise SystemExit(f"no board renderer at {rev}: {part.stderr.strip()}")
            parts.append(part.stdout)
        text = "\n".join(parts)
    out = into / "board.js"
    out.write_text(text)
    return out


def main() -> None:
    ap = parser(__doc__)
    ap.add_argument("--moves", type=int, default=40)
    ap.add_argument("--against", metavar="REV",
                    help="also time board.js of this git revision, in the same run")
    args = ap.parse_args()
    import lab
    from playwright.sync_api import sync_playwright

    chromium = lab.find_chromium()
    if not chromium:
        raise SystemExit("no Chromium: set PLAYTEST_CHROMIUM or install chromium")
    moves = 10 if args.quick else args.moves
    rounds = 1 if args.quick else max(1, min(5, int(args.seconds)))
    rows = []
    with sync_playwright() as pw, tempfile.TemporaryDirectory() as tmp:
        browser = lab.launch_chromium(pw, chromium)
        renderers = {"now": None}
        if args.against:
            renderers[args.against] = _renderer_at(args.against, Path(tmp))
        pages = {}
        for label, board_js in renderers.items():
            page = browser.new_page(viewport={"width": 1400, "height": 900})
            page.route(f"{ORIGIN}/**", _server(board_js))
            page.goto(f"{ORIGIN}/harness.html")
            page.wait_for_function("window.ptReady === true")
            pages[label] = page
        for name in playtest.games():
            scenes = scenes_of(name, moves)
            times: dict[str, list] = {label: [] for label in pages}
            for _ in range(rounds):            # interleaved: both renderers see the same machine
                for label, page in pages.items():
                    page.bring_to_front()
                    page.evaluate("(s) => window.pt.mount(JSON.parse(s))", scenes[0])
                    times[label] += page.evaluate(_TIME_JS, [scenes[1:], 1])
            figures = {label: (statistics.median(t[0] for t in ts), statistics.median(t[1] for t in ts),
                               statistics.median(t[0] + t[1] for t in ts)) for label, ts in times.items()}
            js, layout, total = figures["now"]
            measured = f"{total:.1f} ms ({js:.1f} ms renderer + {layout:.1f} ms style and layout)"
            if args.against:
                then = figures[args.against][2]
                measured += f"; {args.against}: {then:.1f} ms, now ×{total / then:.2f}"
            rows.append((f"{name}: one redraw ({len(times['now'])} redraws)", measured, "", None))
        browser.close()
    report(rows, "Board redraws in Chromium")


if __name__ == "__main__":
    main()
