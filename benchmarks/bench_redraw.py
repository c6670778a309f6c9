"""Board redraws in a real browser: the JavaScript and the layout of one redraw, per game.

    python benchmarks/bench_redraw.py [--quick] [--seconds 5] [--moves 40]

The scenes of a seeded random game are handed to the board renderer
(``playtest/widgets/static/board.js``) in headless Chromium, one after another,
each after a painted frame, as the table's redraws come. For each redraw: the
time in the renderer (parsing the scene, building or reusing the items), then
the style and layout the browser does for it. A redraw reuses the nodes of
items that did not change, so on a grid a move touches a few nodes; Eat
Thyself's ring changes size on most moves (a bare slot disappears), so its
redraws start afresh. No target in the issues: the figures are reported, the
part of the table's click-to-redraw time that is the browser's (see latency.py).
"""

from __future__ import annotations

import json
import random
import statistics
import sys
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


def _serve(route) -> None:
    path = route.request.url[len(ORIGIN):].split("?")[0]
    if path in ("/", "/harness.html"):
        route.fulfill(path=str(HARNESS), content_type="text/html")
        return
    file = STATIC / path[len("/static/"):]
    if file.is_file() and STATIC in file.resolve().parents:
        route.fulfill(path=str(file), content_type="text/javascript" if file.suffix == ".js" else "text/css")
    else:
        route.fulfill(status=404, body="not found")


def main() -> None:
    ap = parser(__doc__)
    ap.add_argument("--moves", type=int, default=40)
    args = ap.parse_args()
    import lab
    from playwright.sync_api import sync_playwright

    chromium = lab.find_chromium()
    if not chromium:
        raise SystemExit("no Chromium: set PLAYTEST_CHROMIUM or install chromium")
    moves = 10 if args.quick else args.moves
    rounds = 1 if args.quick else max(1, min(5, int(args.seconds)))
    rows = []
    with sync_playwright() as pw:
        browser = lab.launch_chromium(pw, chromium)
        page = browser.new_page(viewport={"width": 1400, "height": 900})
        page.route(f"{ORIGIN}/**", _serve)
        page.goto(f"{ORIGIN}/harness.html")
        page.wait_for_function("window.ptReady === true")
        for name in playtest.games():
            scenes = scenes_of(name, moves)
            page.evaluate("(s) => window.pt.mount(JSON.parse(s))", scenes[0])
            times = page.evaluate(_TIME_JS, [scenes[1:], rounds])
            js = statistics.median(t[0] for t in times)
            layout = statistics.median(t[1] for t in times)
            rows.append((f"{name}: one redraw ({len(times)} redraws)",
                         f"{js + layout:.1f} ms ({js:.1f} ms renderer + {layout:.1f} ms style and layout)",
                         "", None))
        browser.close()
    report(rows, "Board redraws in Chromium")


if __name__ == "__main__":
    main()
