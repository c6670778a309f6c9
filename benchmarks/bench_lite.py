"""The serverless site's cold load, offline: from opening a tester view to the first board drawn.

Builds the site (or reuses the build of the same sources that tests/browser/test_lite_site.py
keeps), serves it on loopback, and opens a game's tester view in headless Chromium with every
request outside loopback refused, in a fresh browser profile each time (cold: nothing cached).
It measures how long until the view is on screen, and until the first board is drawn once the
tester has typed a name and pressed Start (the typing itself takes no time here), and how many
bytes the page fetched. Target (issue 25): the first board drawn within 15 s.

    python benchmarks/bench_lite.py [--quick] [--game source] [--runs 3] [--site DIR] [--profile]

``--profile`` also times, in one more cold load of the same view with clocks in its code, what
the page waits for: the browser kernel's first line of Python (the Pyodide runtime compiled, the
kernel's packages fetched and unpacked, IPython and the kernel started), ``import playtest``,
the view built, the view on screen, the first board; and when the runtime and the last wheel had arrived.
"""

from __future__ import annotations

import statistics
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parent
sys.path.insert(0, str(REPO / "tests" / "browser"))
sys.path.insert(0, str(HERE))

import lab  # noqa: E402  (tests/browser/lab.py)
import lite  # noqa: E402  (tests/browser/lite.py)
from common import parser, report  # noqa: E402

from playtest import lite as kit_lite  # noqa: E402

TARGET_S = 15.0
SVG = ".pt-table .pt-root svg.pt-svg"


def browser_cpu() -> float | None:
    """CPU seconds used so far by this script's child processes (Playwright's driver and the
    browser's processes; Linux's /proc), or None elsewhere. A load's CPU seconds hardly change
    with what else the machine runs, unlike its wall time: the figure to compare two sites by on
    a shared machine."""
    import os
    try:
        tick = os.sysconf("SC_CLK_TCK")
        children: dict[int, list[int]] = {}
        stats: dict[int, float] = {}
        for entry in os.listdir("/proc"):
            if entry.isdigit():
                try:
                    fields = Path(f"/proc/{entry}/stat").read_text().rsplit(")", 1)[1].split()
                except OSError:
                    continue
                children.setdefault(int(fields[1]), []).append(int(entry))
                stats[int(entry)] = (int(fields[11]) + int(fields[12])) / tick
    except (OSError, ValueError, AttributeError):
        return None
    total, todo = 0.0, list(children.get(os.getpid(), []))
    while todo:
        pid = todo.pop()
        total += stats.get(pid, 0.0)
        todo += children.get(pid, [])
    return total


def one_load(browser, server: "lite.StaticServer", game: str) -> tuple[float, float, int, list[str]]:
    outside: list[str] = []
    context = lite.offline_context(browser, outside)
    page = context.new_page()
    before = server.sent
    cpu = browser_cpu()
    try:
        began = time.monotonic()
        page.goto(kit_lite.tester_view_address(server.url, game), wait_until="domcontentloaded")
        name = page.locator(".pt-tester input[type=text]").first
        name.wait_for(timeout=300_000)
        view = time.monotonic() - began
        name.fill("Bench")
        page.locator(".pt-tester button", has_text="Start playing").click()
        page.wait_for_function("(sel) => { const s = document.querySelector(sel);"
                               " return !!s && Number(s.getAttribute('data-version')) > 0; }",
                               arg=SVG, timeout=120_000)
        board = time.monotonic() - began
        after = browser_cpu()
        if cpu is not None and after is not None:
            CPU.append(after - cpu)
    finally:
        context.close()
    return view, board, server.sent - before, outside


#: the browser's CPU seconds of each cold load (see :func:`browser_cpu`)
CPU: list[float] = []


def profile_load(browser, server: "lite.StaticServer", game: str) -> list[tuple[str, str, str, bool | None]]:
    """One cold load of ``game``'s tester view with clocks in its code: what the page waits for."""
    from urllib.parse import quote
    code = ("import time as _t; _a = _t.time()\nimport playtest\n_b = _t.time()\n"
            f"_v = playtest.TesterView({game!r}, directory={kit_lite.TESTER_FOLDER!r})\n_c = _t.time()\n"
            "print('clocks', _a, _b, _c)\n_v")
    outside: list[str] = []
    context = lite.offline_context(browser, outside)
    page = context.new_page()
    arrived: list[tuple[float, str, int]] = []
    page.on("requestfinished", lambda r: arrived.append((time.time(), r.url.rsplit("/", 1)[-1].split("?")[0], 0)))
    try:
        began = time.time()
        page.goto(f"{server.url}/repl/index.html?kernel=python&showBanner=0&hideCodeInput=1&code={quote(code, safe='')}",
                  wait_until="domcontentloaded")
        page.locator(".pt-tester input[type=text]").first.wait_for(timeout=300_000)
        shown = time.time()
        import re
        clocks = re.search(r"clocks ([0-9.]+) ([0-9.]+) ([0-9.]+)", page.inner_text("body"))
        page.locator(".pt-tester input[type=text]").first.fill("Bench")
        page.locator(".pt-tester button", has_text="Start playing").click()
        page.wait_for_function("(sel) => { const s = document.querySelector(sel);"
                               " return !!s && Number(s.getAttribute('data-version')) > 0; }",
                               arg=SVG, timeout=120_000)
        drawn = time.time()
    finally:
        context.close()
    if clocks is None:
        return [("profile", "the clocks were not printed", "", None)]
    first, imported, built = (float(x) for x in clocks.groups())
    rows = [("  kernel's first line of Python (runtime, packages, IPython, kernel)", f"{first - began:.1f} s", "", None),
            ("  import playtest", f"{imported - first:.1f} s", "", None),
            ("  the tester view built", f"{built - imported:.1f} s", "", None),
            ("  the view on screen (widgets' front ends)", f"{shown - built:.1f} s", "", None),
            ("  Start pressed to the first board drawn", f"{drawn - shown:.1f} s", "", None)]
    for what, ends in (("the runtime's WebAssembly", ".wasm"), ("the last wheel", ".whl")):
        times = [at for at, name, _size in arrived if name.endswith(ends)]
        if times:
            rows.append((f"  {what} fetched", f"{max(times) - began:.1f} s", "", None))
    return rows


def main() -> None:
    ap = parser(__doc__)
    ap.add_argument("--game", default="source", help="whose tester view to open")
    ap.add_argument("--runs", type=int, default=3, help="cold loads to time (the median is reported)")
    ap.add_argument("--site", type=Path, default=None, help="a built site to serve (default: build or reuse)")
    ap.add_argument("--profile", action="store_true", help="one more load, timing what the page waits for")
    args = ap.parse_args()
    runs = 1 if args.quick else max(1, args.runs)
    if args.site is not None:
        site = args.site
    else:
        cache = Path(tempfile.gettempdir()) / "pytest-of-root" / "playtest-lite-cache"
        cache.mkdir(parents=True, exist_ok=True)
        site, _built = lite.cached_site(cache)
    size = sum(p.stat().st_size for p in site.rglob("*") if p.is_file())
    chromium = lab.find_chromium()
    if not chromium:
        sys.exit("no Chromium found (set PLAYTEST_CHROMIUM)")
    from playwright.sync_api import sync_playwright
    views, boards, sent, outside = [], [], [], []
    proxy = lite.RefusingProxy()
    with lite.StaticServer(site) as server, sync_playwright() as pw:
        browser = lab.launch_chromium(pw, chromium, args=proxy.arguments)
        try:
            for _ in range(runs):
                view, board, fetched, away = one_load(browser, server, args.game)
                views.append(view)
                boards.append(board)
                sent.append(fetched)
                outside += away
            phases = profile_load(browser, server, args.game) if args.profile else []
        finally:
            browser.close()
            proxy.close()
    board = statistics.median(boards)
    _own, others = lite.split_requests(proxy.seen)
    report([
        ("site size on disk", f"{size / 1e6:.1f} MB", "", None),
        ("transferred per cold load", f"{statistics.median(sent) / 1e6:.1f} MB", "", None),
        ("tester view on screen (cold)", f"{statistics.median(views):.1f} s", "", None),
        ("first board drawn (cold)", f"{board:.1f} s (runs: {', '.join(f'{b:.1f}' for b in boards)})",
         f"<= {TARGET_S:.0f} s", board <= TARGET_S),
        *([("browser CPU per cold load, to the first board (less load-sensitive)",
            f"{statistics.median(CPU):.1f} s (runs: {', '.join(f'{c:.1f}' for c in CPU)})", "", None)] if CPU else []),
        ("requests outside loopback (the site's)", str(len(outside) + len(others)), "0",
         not outside and not others),
        *([("what a cold load waits for (one more load, --profile)", "", "", None)] + phases if phases else []),
    ], title=f"Serverless site, {args.game}'s tester view, offline")


if __name__ == "__main__":
    main()
