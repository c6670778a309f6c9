"""Browser tests of the board renderer (playtest/widgets/static/board/*.js, joined as the widget loads it).

The module is tested on its own, without JupyterLab: a harness page
(``board_harness.html``) mounts it on a mock anywidget model. Pages and the
static files are served from a fake origin by Playwright routing, so no
server and no network are needed.

Chromium comes from ``$PLAYTEST_CHROMIUM`` or ``chromium`` on the PATH; the
tests are skipped when there is none, unless ``$PLAYTEST_REQUIRE_BROWSER`` is
set (then they fail).
"""

from __future__ import annotations

import importlib.util
import json
import os
import shutil
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
STATIC = ROOT / "playtest" / "widgets" / "static"
HARNESS = Path(__file__).with_name("board_harness.html")
ORIGIN = "http://playtest.test"
from lab import CHROMIUM_ARGS  # noqa: E402  (conftest puts tests/browser on sys.path)


def _load_scene_module():
    """playtest/scene.py on its own (it has no dependencies), so these tests
    do not depend on the rest of the package importing cleanly."""
    spec = importlib.util.spec_from_file_location("_playtest_scene_for_board_js", ROOT / "playtest" / "scene.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


_scene = _load_scene_module()
Scene, cell_id, edge_id, gap_id, point_id, slot_id = (
    _scene.Scene, _scene.cell_id, _scene.edge_id, _scene.gap_id, _scene.point_id, _scene.slot_id,
)

pytestmark = pytest.mark.browser

XSS = '<img src=x onerror="window.__xss=1">'


# ---------------------------------------------------------------- fixtures
def _no_browser(why: str):
    if os.environ.get("PLAYTEST_REQUIRE_BROWSER"):
        pytest.fail(f"browser required but unavailable: {why}")
    pytest.skip(why)


@pytest.fixture(scope="module")
def browser():
    path = os.environ.get("PLAYTEST_CHROMIUM") or shutil.which("chromium")
    if not path or not Path(path).exists():
        _no_browser("no Chromium found (set PLAYTEST_CHROMIUM)")
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:  # pragma: no cover - depends on the environment
        _no_browser("playwright is not installed")
    with sync_playwright() as pw:
        b = pw.chromium.launch(executable_path=path, args=CHROMIUM_ARGS)
        try:
            yield b
        finally:
            b.close()


def _serve(route):
    path = route.request.url[len(ORIGIN):].split("?")[0]
    if path in ("/", "/harness.html"):
        return route.fulfill(path=str(HARNESS), content_type="text/html")
    if path == "/static/board.js":              # the renderer's parts joined, as the widget loads it
        from playtest.widgets.board import board_js
        return route.fulfill(body=board_js(), content_type="text/javascript")
    if path.startswith("/static/"):
        file = STATIC / path[len("/static/"):]
        if file.is_file() and STATIC in file.resolve().parents:
            types = {".js": "text/javascript", ".css": "text/css"}
            return route.fulfill(path=str(file), content_type=types.get(file.suffix, "text/plain"))
    return route.fulfill(status=404, body="not found")


@pytest.fixture
def page(browser):
    context = browser.new_context(viewport={"width": 1400, "height": 900})
    pg = context.new_page()
    errors: list[str] = []
    pg.on("pageerror", lambda exc: errors.append(str(exc)))
    pg.route(f"{ORIGIN}/**", _serve)
    pg.route(lambda url: not url.startswith(ORIGIN), lambda route: route.abort())
    pg.goto(f"{ORIGIN}/harness.html")
    pg.wait_for_function("window.ptReady === true")
    yield pg
    context.close()
    assert not errors, f"page errors: {errors}"


def as_json(scene) -> str:
    """Scenes go to the page as a JSON string: much faster than Playwright's
    object serialisation for big scenes."""
    return json.dumps(scene.to_json() if isinstance(scene, Scene) else scene)


def mount(page, scene, error=""):
    page.evaluate("([s, e]) => window.pt.mount(JSON.parse(s), e)", [as_json(scene), error])


def settle(page):
    """Two frames and a little: a resized column is laid out again in the frame after it changed."""
    page.evaluate("() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)))")
    page.wait_for_timeout(50)


def set_scene(page, scene):
    page.evaluate("(s) => window.pt.setScene(JSON.parse(s))", as_json(scene))


def answer(page):
    """What the kernel does after a committed action: it sends the board a scene (here the same)."""
    page.evaluate("() => window.pt.model.set('scene_json', window.pt.model.get('scene_json'))")


def sent(page):
    """The actions and commands the board sent (not its {type: "view"} open/close notices, nor
    the previews it asks for while the pointer rests on something: see ``asked``, nor the clicks
    it reports refused: see ``refused``)."""
    found = [m for m in page.evaluate("() => window.pt.sent()")
             if m.get("type") not in ("view", "preview", "refused")]
    for message in found:           # an action says the scene version it was clicked on (checked below)
        if message.get("type") == "action" and "version" in message:
            assert type(message.pop("version")) is int
    return found


def refused(page):
    """The clicks the board reported as refused (the scene said no: the kernel keeps them)."""
    return [m for m in page.evaluate("() => window.pt.sent()") if m.get("type") == "refused"]


def asked(page):
    """The previews the board asked the kernel for."""
    return [m for m in page.evaluate("() => window.pt.sent()") if m.get("type") == "preview"]


def rest(page, locator, action):
    """Rest the pointer on ``locator`` until the board has asked about ``action``; that request."""
    locator.hover()
    page.wait_for_function("(a) => window.pt.sent().some((m) => m.type === 'preview'"
                           " && m.actions.some((b) => JSON.stringify(b) === JSON.stringify(a)))",
                           arg=action, timeout=2000)
    return [m for m in asked(page) if action in m["actions"]][-1]


def item(page, id_):
    return page.locator(f'svg.pt-svg g[data-id="{id_}"]').first


def classes(page, id_):
    return page.evaluate(
        "(id) => [...document.querySelectorAll(`svg.pt-svg g[data-id='${id}']`)]"
        ".map(g => [...g.classList])",
        id_,
    )


def message(page):
    return page.locator(".pt-root .pt-message").text_content()


# ---------------------------------------------------------------- scenes
def full_scene(version=1) -> Scene:
    """A grid, a ring and a points board with every item kind."""
    s = Scene()
    s.board("g", "grid", title="Grid", cols=4, rows=3, cell=36, flip=True)
    s.board("r", "ring", title="Ring", slots=8, slot=34)
    s.board("p", "points", title="Points", cols=5, rows=5, spacing=40)
    for c in range(4):
        for r in range(3):
            s.cell("g", (c, r), fill="#f0e6d2" if (c + r) % 2 else "#fbf6ec")
    s.edge("g", (0, 0), (1, 0), style="wall")
    s.edge("g", (1, 0), (1, 1), style="old")
    s.edge("g", (2, 1), (3, 1), style="slot")
    s.edge("g", (2, 2), (2, 1), style="slot")
    shapes = ["circle", "triangle", "diamond", "square"]
    for i, shape in enumerate(shapes):
        s.piece("g", (i, 2), shape, "#c0392b" if i % 2 else "#2f6fb5", id=f"pc:{shape}", text=str(i + 1))
    s.piece("g", (0, 1), "hexagon", "#8e44ad", id="pc:hex", double=True, outline="#f1c40f")
    s.piece("g", (3, 0), "circle", "#27ae60", id="pc:dim", dim=True)
    s.line("g", [(0.5, 0.5), (2.5, 0.5), (2.5, 1.5)], color="#111", width=3, arrow=True)
    s.line("g", [(0, 3), (4, 3)], color="#555", width=2, dash=True)
    s.text("g", (2, 1.5), "mid")
    for i in range(8):
        s.cell("r", i, fill="#fff8e6" if i % 2 else "#eef4fb", text=str(i))
        s.gap("r", i)
    s.piece("r", 2, "triangle", "#c33", id="king")
    s.piece("r", 5, "circle", "#2a7", id="pawn", double=True)
    s.text("r", (0, 0), "centre")
    for c in range(5):
        for r in range(5):
            if (c + r) % 4 == 0:
                s.cell("p", (c, r), id=point_id((c, r)))
    s.piece("p", (2, 2), "circle", "#222", id="stone:b", text="B")
    s.piece("p", (3, 2), "circle", "#fafafa", id="stone:w", text="W", outline="#333")
    # interaction
    s.select("king", slot_id(4), "King to 4", {"kind": "king", "to": 4})
    s.select("king", slot_id(6), "King to 6", {"kind": "king", "to": 6})
    s.select("king", gap_id(7), "Insert", {"kind": "insert", "at": 7})
    s.select("pc:circle", cell_id((1, 1)), "Step", {"kind": "step", "to": [1, 1]})
    s.select("pc:circle", cell_id((2, 1)), "Walk", {"kind": "walk", "to": [2, 1]})
    s.select("pc:circle", cell_id((2, 1)), "Run", {"kind": "run", "to": [2, 1]})
    s.move(edge_id((2, 1), (3, 1)), "Build wall", {"kind": "wall", "at": "2,1:3,1"})
    s.move(point_id((0, 0)), "Place", {"kind": "place", "at": [0, 0]})
    s.move(point_id((0, 0)), "Place twice", {"kind": "place2", "at": [0, 0]})
    s.move("stone:b", "Lift", {"kind": "lift"})
    s.button("End turn", {"kind": "end"})
    s.button("Undo", {"kind": "undo"})
    s.reason("pawn", "The pawn is pinned.")
    s.hint("Move the king or a piece.")
    s.status("Red to move", color="#c33", shape="triangle")
    s.panel("Score", [["Red", 3], ["Blue", 5]])
    data = s.to_json()
    data["version"] = version
    return s


# ---------------------------------------------------------------- tests
def test_every_board_kind_renders_items(page):
    mount(page, full_scene())
    svg = page.locator("svg.pt-svg")
    assert svg.get_attribute("data-version") == "1"
    ids = [
        cell_id((0, 0)), cell_id((3, 2)), edge_id((0, 0), (1, 0)), edge_id((1, 0), (1, 1)),
        edge_id((2, 1), (3, 1)), "pc:circle", "pc:triangle", "pc:diamond", "pc:square", "pc:hex",
        "pc:dim", slot_id(0), slot_id(7), gap_id(0), gap_id(7), "king", "pawn",
        point_id((0, 0)), point_id((2, 2)), "stone:b", "stone:w",
    ]
    for id_ in ids:
        assert item(page, id_).count() == 1, id_
    kinds = page.evaluate(
        "() => Object.fromEntries([...document.querySelectorAll('g.pt-item[data-id]')]"
        ".map(g => [g.dataset.id, [...g.classList].filter(c => c.startsWith('pt-'))]))"
    )
    assert "pt-cell" in kinds[cell_id((0, 0))] and "pt-item" in kinds[cell_id((0, 0))]
    assert "pt-edge" in kinds[edge_id((0, 0), (1, 0))]
    assert "pt-gap" in kinds[gap_id(3)]
    assert "pt-piece" in kinds["king"]
    assert "pt-movable" in kinds["king"] and "pt-movable" in kinds["pc:circle"]
    assert "pt-movable" in kinds[edge_id((2, 1), (3, 1))] and "pt-movable" in kinds[point_id((0, 0))]
    assert "pt-movable" not in kinds["pawn"] and "pt-movable" not in kinds[cell_id((1, 1))]
    # items without an id are drawn too, but inert
    assert page.locator("g.pt-line").count() == 2
    assert page.locator("g.pt-text").count() == 2
    assert page.locator("g.pt-line:not([data-id])").count() == 2
    titles = page.locator("text.pt-board-title").all_text_contents()
    assert titles == ["Grid", "Ring", "Points"]
    # boards are laid out left to right
    xs = [page.locator(f'g.pt-board[data-board="{b}"]').bounding_box()["x"] for b in "grp"]
    assert xs == sorted(xs)
    # status, panels, buttons
    assert page.locator(".pt-status").text_content().strip() == "Red to move"
    assert page.locator(".pt-status svg polygon").count() == 1
    assert page.locator("table.pt-panel caption").text_content() == "Score"
    assert page.locator("table.pt-panel td").all_text_contents() == ["Red", "3", "Blue", "5"]
    assert page.locator("div.pt-buttons button.pt-button").all_text_contents() == ["End turn", "Undo"]
    assert message(page) == "Move the king or a piece."
    assert page.locator(".pt-error").is_hidden()


def test_grid_flip_and_edges_geometry(page):
    mount(page, full_scene())
    box = lambda id_: item(page, id_).locator(".pt-shape").first.bounding_box()  # noqa: E731
    # flip: row 0 is drawn at the bottom
    assert box(cell_id((0, 0)))["y"] > box(cell_id((0, 2)))["y"]
    # the wall between (0,0) and (1,0) is vertical, on their shared side
    wall = box(edge_id((0, 0), (1, 0)))
    left, right = box(cell_id((0, 0))), box(cell_id((1, 0)))
    assert wall["height"] > wall["width"]
    assert abs((wall["x"] + wall["width"] / 2) - (left["x"] + left["width"])) < 1.5
    assert abs((wall["x"] + wall["width"] / 2) - right["x"]) < 1.5
    # (1,0)-(1,1) is horizontal
    old = box(edge_id((1, 0), (1, 1)))
    assert old["width"] > old["height"]


def test_ring_geometry(page):
    mount(page, full_scene())
    centre = lambda id_: (lambda b: (b["x"] + b["width"] / 2, b["y"] + b["height"] / 2))(  # noqa: E731
        item(page, id_).locator(".pt-shape").first.bounding_box()
    )
    pts = [centre(slot_id(i)) for i in range(8)]
    top = min(range(8), key=lambda i: pts[i][1])
    assert top == 0  # slot 0 at the top
    assert pts[2][0] > pts[0][0] and pts[6][0] < pts[0][0]  # clockwise: 2 is to the right
    cx = sum(p[0] for p in pts) / 8
    cy = sum(p[1] for p in pts) / 8
    radius = ((pts[0][0] - cx) ** 2 + (pts[0][1] - cy) ** 2) ** 0.5
    assert abs(radius - 120) < 1.5  # max(120, 8*34*1.15/2pi) = 120
    # gap 1 sits between slot 0 and slot 1
    g1 = centre(gap_id(1))
    mid = ((pts[0][0] + pts[1][0]) / 2, (pts[0][1] + pts[1][1]) / 2)
    assert ((g1[0] - cx) ** 2 + (g1[1] - cy) ** 2) ** 0.5 == pytest.approx(radius, abs=1.5)
    assert ((g1[0] - mid[0]) ** 2 + (g1[1] - mid[1]) ** 2) ** 0.5 < 10


def test_select_highlights_targets_in_the_same_frame(page):
    mount(page, full_scene())
    result = page.evaluate(
        """() => {
            const g = document.querySelector('svg.pt-svg g[data-id="king"]');
            const frames = [];
            requestAnimationFrame(() => frames.push('raf'));
            g.querySelector('.pt-shape').dispatchEvent(new MouseEvent('click', {bubbles: true}));
            const has = (id, c) => [...document.querySelectorAll(`g[data-id="${id}"]`)]
                .some(n => n.classList.contains(c));
            return {
                frames: frames.length,
                selected: has('king', 'pt-selected'),
                t4: has('slot:4', 'pt-target'), t6: has('slot:6', 'pt-target'),
                gap: has('gap:7', 'pt-target'), t5: has('slot:5', 'pt-target'),
            };
        }"""
    )
    assert result == {"frames": 0, "selected": True, "t4": True, "t6": True, "gap": True, "t5": False}
    assert sent(page) == []
    # click again: deselect
    item(page, "king").click()
    assert page.locator(".pt-selected, .pt-target").count() == 0
    # select the king, then switch to another selectable piece
    item(page, "king").click()
    item(page, "pc:circle").click()
    assert "pt-selected" in classes(page, "pc:circle")[0]
    assert "pt-selected" not in classes(page, "king")[0]
    assert all("pt-target" in c for c in classes(page, cell_id((1, 1))))
    assert all("pt-target" not in c for c in classes(page, slot_id(4)))
    assert sent(page) == []


def test_an_action_carries_the_version_of_the_scene_it_was_clicked_on(page):
    """The kernel refuses a click made on an earlier board (a double click, a move in between)."""
    mount(page, full_scene(version=7))
    version = 7
    item(page, "king").click()
    page.locator(f'g.pt-cell[data-id="{slot_id(4)}"]').click()
    actions = [m for m in page.evaluate("() => window.pt.sent()") if m.get("type") == "action"]
    assert actions == [{"type": "action", "action": {"kind": "king", "to": 4}, "version": version}]


def test_target_click_sends_action(page):
    mount(page, full_scene())
    item(page, "king").click()
    page.locator(f'g.pt-cell[data-id="{slot_id(4)}"]').click()
    assert sent(page) == [{"type": "action", "action": {"kind": "king", "to": 4}}]
    answer(page)
    assert page.locator(".pt-selected, .pt-target").count() == 0
    # a gap target
    item(page, "king").click()
    item(page, gap_id(7)).click()
    assert sent(page)[-1] == {"type": "action", "action": {"kind": "insert", "at": 7}}


def test_target_under_a_piece_with_its_own_id(page):
    s = Scene()
    s.board("g", "grid", cols=3, rows=1)
    for c in range(3):
        s.cell("g", (c, 0))
    s.piece("g", (0, 0), "circle", "#36c", id="me")
    s.piece("g", (2, 0), "square", "#c33", id="enemy")
    s.select("me", cell_id((2, 0)), "Capture", {"kind": "capture"})
    mount(page, s)
    item(page, "me").click()
    item(page, "enemy").click()  # the piece is on top of the target cell
    assert sent(page) == [{"type": "action", "action": {"kind": "capture"}}]


def test_multi_option_menu(page):
    mount(page, full_scene())
    # a move with two options opens a menu
    item(page, point_id((0, 0))).click()
    menu = page.locator("div.pt-menu")
    assert menu.is_visible()
    assert menu.locator("button").all_text_contents() == ["Place", "Place twice", "Cancel"]
    assert sent(page) == []
    menu.locator("button", has_text="Cancel").click()
    assert page.locator("div.pt-menu").count() == 0
    assert sent(page) == []
    item(page, point_id((0, 0))).click()
    page.locator("div.pt-menu button", has_text="Place twice").click()
    assert sent(page) == [{"type": "action", "action": {"kind": "place2", "at": [0, 0]}}]
    assert page.locator("div.pt-menu").count() == 0
    # a target with two options
    item(page, "pc:circle").click()
    item(page, cell_id((2, 1))).click(position={"x": 18, "y": 18})
    assert page.locator("div.pt-menu button").all_text_contents() == ["Walk", "Run", "Cancel"]
    assert "pt-selected" in classes(page, "pc:circle")[0]  # selection stays while choosing
    page.locator("div.pt-menu button", has_text="Run").click()
    assert sent(page)[-1] == {"type": "action", "action": {"kind": "run", "to": [2, 1]}}
    assert page.locator("div.pt-menu").count() == 0        # the menu goes at once
    answer(page)
    assert page.locator(".pt-selected").count() == 0
    # Escape closes a menu
    item(page, point_id((0, 0))).click()
    page.keyboard.press("Escape")
    assert page.locator("div.pt-menu").count() == 0
    assert len(sent(page)) == 2


def test_moves_direct_click_and_edge_hit_area(page):
    mount(page, full_scene())
    item(page, "stone:b").click()
    assert sent(page) == [{"type": "action", "action": {"kind": "lift"}}]
    # the empty wall slot is clickable a few px off the line
    edge = item(page, edge_id((2, 1), (3, 1))).locator(".pt-edge-line").bounding_box()
    x, y = edge["x"] + edge["width"] / 2, edge["y"] + edge["height"] / 2
    page.mouse.click(x + 4, y)
    assert sent(page)[-1] == {"type": "action", "action": {"kind": "wall", "at": "2,1:3,1"}}
    # ... but a cell centre is the cell's, not the edge's
    cell = item(page, cell_id((3, 1))).bounding_box()
    page.mouse.click(cell["x"] + cell["width"] / 2, cell["y"] + cell["height"] / 2)
    assert len(sent(page)) == 2
    assert message(page) == "Not a legal choice now. Move the king or a piece."


def test_buttons_send_their_action(page):
    mount(page, full_scene())
    page.locator("button.pt-button", has_text="Undo").click()
    page.locator("button.pt-button", has_text="End turn").click()
    assert sent(page) == [
        {"type": "action", "action": {"kind": "undo"}},
        {"type": "action", "action": {"kind": "end"}},
    ]


def test_reasons_shown_and_nothing_sent(page):
    mount(page, full_scene())
    item(page, "pawn").click()
    assert message(page) == "The pawn is pinned."
    item(page, "pc:dim").click()
    assert message(page) == "Not a legal choice now. Move the king or a piece."
    # with a selection, a non-target keeps the selection and explains
    item(page, "king").click()
    item(page, "pawn").click()
    assert message(page) == "The pawn is pinned."
    assert "pt-selected" in classes(page, "king")[0]
    assert sent(page) == []


def test_a_click_the_scene_says_no_to_is_reported_for_the_kernel_to_keep(page):
    mount(page, full_scene(version=3))
    item(page, "pawn").click()
    item(page, "pc:dim").click()
    page.locator("svg.pt-svg").click(position={"x": 2, "y": 2})      # empty space: nothing tried
    assert refused(page) == [{"type": "refused", "item": "pawn", "version": 3},
                             {"type": "refused", "item": "pc:dim", "version": 3}]
    assert sent(page) == []


def test_escape_and_empty_space_clear_selection(page):
    mount(page, full_scene())
    item(page, "king").click()
    assert page.locator(".pt-target").count() > 0
    page.keyboard.press("Escape")
    assert page.locator(".pt-selected, .pt-target").count() == 0
    item(page, "king").click()
    svg = page.locator("svg.pt-svg").bounding_box()
    page.mouse.click(svg["x"] + 4, svg["y"] + svg["height"] - 4)  # margin: empty space
    assert page.locator(".pt-selected, .pt-target").count() == 0
    assert message(page) == "Move the king or a piece."
    assert sent(page) == []


def test_error_trait(page):
    mount(page, full_scene(), error="")
    err = page.locator(".pt-root .pt-error")
    assert err.is_hidden()
    page.evaluate("() => window.pt.setError('Illegal: no AP left')")
    assert err.is_visible() and err.text_content() == "Illegal: no AP left"
    page.evaluate("() => window.pt.setError('')")
    assert err.is_hidden()
    mount(page, full_scene(), error="boom")
    assert page.locator(".pt-root .pt-error").text_content() == "boom"


def test_version_updates_and_selection_survives_when_still_selectable(page):
    mount(page, full_scene(version=1))
    item(page, "king").click()
    set_scene(page, full_scene(version=2))
    assert page.locator("svg.pt-svg").get_attribute("data-version") == "2"
    assert "pt-selected" in classes(page, "king")[0]
    assert any("pt-target" in c for c in classes(page, slot_id(4)))
    # the king is no longer selectable: selection cleared
    s = full_scene(version=3)
    del s.to_json()["selects"]["king"]
    set_scene(page, s)
    assert page.locator("svg.pt-svg").get_attribute("data-version") == "3"
    assert page.locator(".pt-selected, .pt-target").count() == 0
    # data-version is written after the drawing (a redraw changes only what changed: the king
    # is selectable again, so its classes change, in place)
    order = page.evaluate(
        """(scene) => new Promise(resolve => {
            const svg = document.querySelector('svg.pt-svg');
            const seen = [];
            new MutationObserver(records => {
                for (const r of records) {
                    seen.push(r.target === svg && r.attributeName === 'data-version' ? 'version' : 'drawing');
                }
                resolve(seen);
            }).observe(svg, {attributes: true, childList: true, subtree: true});
            window.pt.setScene(JSON.parse(scene));
        })""",
        as_json(full_scene(version=4)),
    )
    assert order[-1] == "version" and "drawing" in order
    assert order.index("drawing") < order.index("version")


def test_strings_are_text_never_html(page):
    s = Scene()
    s.board("g", "grid", title=XSS, cols=2, rows=1)
    s.cell("g", (0, 0), text=XSS, title=XSS)
    s.cell("g", (1, 0))
    s.piece("g", (1, 0), "circle", "#c33", id="p", text=XSS)
    s.text("g", (1, 0.5), XSS)
    s.move("p", XSS, {"kind": "a"})
    s.move("p", "other", {"kind": "b"})
    s.button(XSS, {"kind": "end"})
    s.reason(cell_id((0, 0)), XSS)
    s.hint(XSS)
    s.status(XSS, color="#c33")
    s.panel(XSS, [[XSS, XSS]])
    mount(page, s, error=XSS)
    item(page, "p").click()
    page.wait_for_timeout(150)
    assert page.locator(".pt-root img").count() == 0
    assert page.locator("div.pt-menu button").first.text_content() == XSS
    page.keyboard.press("Escape")
    item(page, cell_id((0, 0))).locator(".pt-shape").click()
    texts = page.evaluate(
        """() => ({
            status: document.querySelector('.pt-status').textContent.trim(),
            error: document.querySelector('.pt-error').textContent,
            message: document.querySelector('.pt-message').textContent,
            button: document.querySelector('.pt-button').textContent,
            caption: document.querySelector('.pt-panel caption').textContent,
            cells: [...document.querySelectorAll('.pt-panel td')].map(td => td.textContent),
            svgTexts: [...document.querySelectorAll('svg.pt-svg text')].map(t => t.textContent),
            title: document.querySelector('svg.pt-svg title').textContent,
            imgs: document.querySelectorAll('img').length,
            xss: window.__xss,
        })"""
    )
    assert texts["status"] == XSS
    assert texts["error"] == XSS
    assert texts["message"] == XSS  # the reason
    assert texts["button"] == XSS
    assert texts["caption"] == XSS and texts["cells"] == [XSS, XSS]
    assert texts["svgTexts"].count(XSS) == 4  # board title, cell, piece, text item
    assert texts["title"] == XSS
    assert texts["imgs"] == 0
    assert texts["xss"] is None  # undefined in the page
    assert page.evaluate("() => typeof window.__xss") == "undefined"


def test_cleanup_removes_listeners(page):
    mount(page, full_scene())
    remaining = page.evaluate("() => window.pt.unmount()")
    assert remaining == 0
    assert page.locator(".pt-root").count() == 0


def test_large_scene_renders_fast(page):
    s = Scene()
    s.board("g", "grid", cols=30, rows=30, cell=24)
    for c in range(30):
        for r in range(30):
            s.cell("g", (c, r), fill="#f5efe3")
            s.move(cell_id((c, r)), "Go", {"kind": "go", "to": [c, r]})
            if c < 29:
                s.edge("g", (c, r), (c + 1, r), style="slot")
    s.to_json()["version"] = 1
    mount(page, s)
    elapsed = page.evaluate(
        """(text) => {
            const scene = JSON.parse(text);
            const t0 = performance.now();
            for (let v = 2; v < 7; v++) window.pt.setScene({...scene, version: v});
            document.querySelector('svg.pt-svg').getBoundingClientRect();
            return (performance.now() - t0) / 5;
        }""",
        as_json(s),
    )
    assert page.locator("svg.pt-svg").get_attribute("data-version") == "6"
    assert page.locator("g.pt-item[data-id]").count() == 900 + 870
    assert elapsed < 800, f"a redraw of ~1800 items took {elapsed:.0f} ms"


def test_fall_through_respects_a_reason_on_top(page):
    s = Scene()
    s.board("g", "grid", cols=2, rows=1)
    s.cell("g", (0, 0))
    s.cell("g", (1, 0))
    s.piece("g", (0, 0), "circle", "#36c", id="pinned")
    s.piece("g", (1, 0), "circle", "#36c", id="loose")
    s.move(cell_id((0, 0)), "Build", {"kind": "build", "at": 0})
    s.move(cell_id((1, 0)), "Build", {"kind": "build", "at": 1})
    s.reason("pinned", "Pinned.")
    s.hint("Build.")
    mount(page, s)
    item(page, "pinned").click()
    assert message(page) == "Pinned." and sent(page) == []
    item(page, "loose").click()  # no reason: the movable cell below takes it
    assert sent(page) == [{"type": "action", "action": {"kind": "build", "at": 1}}]


def test_item_both_movable_and_selectable(page):
    s = Scene()
    s.board("g", "grid", cols=3, rows=1)
    for c in range(3):
        s.cell("g", (c, 0))
    s.piece("g", (0, 0), "circle", "#36c", id="p")
    s.select("p", cell_id((2, 0)), "Go", {"kind": "go"})
    s.move("p", "Fortify", {"kind": "fortify"})
    mount(page, s)
    item(page, "p").click()
    assert "pt-selected" in classes(page, "p")[0]
    item(page, "p").click()  # again: its own actions
    assert sent(page) == [{"type": "action", "action": {"kind": "fortify"}}]
    answer(page)
    assert page.locator(".pt-selected").count() == 0


def test_escape_works_with_focus_outside_the_widget(page):
    mount(page, full_scene())
    item(page, "king").click()
    page.evaluate("() => document.activeElement && document.activeElement.blur()")
    page.keyboard.press("Escape")
    assert page.locator(".pt-selected, .pt-target").count() == 0
    item(page, point_id((0, 0))).click()
    assert page.locator(f'g.pt-menu-source[data-id="{point_id((0, 0))}"]').count() == 1
    page.keyboard.press("Escape")
    assert page.locator("div.pt-menu, .pt-menu-source").count() == 0
    assert sent(page) == []


# ---------------------------------------------------------------- boards that explain themselves (issue 8)
def test_edges_have_a_wide_click_area_and_their_reason_wins_over_the_tile(page):
    """A click a few pixels off an edge is the edge's: a blank edge (no wall may go there) says why,
    even over a tile that could be clicked; the tile's centre stays the tile's."""
    s = Scene()
    s.board("g", "grid", cols=3, rows=2, cell=36)
    for c in range(3):
        for r in range(2):
            s.cell("g", (c, r))
    s.move(cell_id((1, 0)), "Buy here", {"kind": "buy", "at": [1, 0]})
    blocked = s.edge("g", (1, 0), (2, 0), style="blank")
    s.reason(blocked, "a wall may not lie on an edge of a token's tile (rule A.1 §14.3)")
    s.reason(cell_id((2, 0)), "an obstacle costs 2 points and only 1 are left (rule A.1 §14.1)")
    open_ = s.edge("g", (0, 1), (1, 1), style="slot")
    s.move(open_, "Build", {"kind": "build"})
    s.hint("Build or buy.")
    mount(page, s)
    hit = page.evaluate(
        """(id) => {
            const g = document.querySelector(`g[data-id="${id}"]`);
            return {hit: Number(g.querySelector('.pt-hit').getAttribute('stroke-width')),
                    line: getComputedStyle(g.querySelector('.pt-edge-line')).stroke};
        }""", blocked)
    assert hit["hit"] >= 12 and hit["line"] == "none"            # a wide, invisible click area
    cell = item(page, cell_id((1, 0))).locator(".pt-shape").bounding_box()
    edge_x = cell["x"] + cell["width"]                           # the edge between (1,0) and (2,0)
    mid_y = cell["y"] + cell["height"] / 2
    page.mouse.click(edge_x - 5, mid_y)                          # 5 px inside the lit tile
    assert message(page) == "a wall may not lie on an edge of a token's tile (rule A.1 §14.3)"
    assert sent(page) == []
    page.mouse.click(edge_x + 5, mid_y)                          # 5 px inside the tile that has a reason
    assert message(page).startswith("a wall may not lie")        # the edge's reason, not the tile's
    page.mouse.click(cell["x"] + cell["width"] / 2, mid_y)       # the tile's centre: the tile's move
    assert sent(page) == [{"type": "action", "action": {"kind": "buy", "at": [1, 0]}}]
    right = item(page, cell_id((2, 0))).locator(".pt-shape").bounding_box()
    page.mouse.click(right["x"] + right["width"] / 2, mid_y)     # and a tile's centre gets its own reason
    assert message(page).startswith("an obstacle costs 2 points")
    # a usable edge is still clicked a few px off its line
    box = item(page, open_).locator(".pt-edge-line").bounding_box()
    page.mouse.click(box["x"] + box["width"] / 2 + 5, box["y"] + box["height"] / 2)
    assert sent(page)[-1] == {"type": "action", "action": {"kind": "build"}}


def test_coordinates_are_drawn_as_text_beside_every_board_kind(page):
    s = Scene()
    s.board("g", "grid", cols=3, rows=2, cell=36, flip=True, labels={"cols": ["a", "b", XSS], "rows": ["1", "2"]})
    s.board("p", "points", cols=3, rows=3, spacing=40, pad=0.9, labels={"cols": "xyz", "rows": ["1", "2", "3"]})
    s.board("r", "ring", slots=6, labels={"slots": [str(i) for i in range(6)]})
    for c in range(3):
        for r in range(2):
            s.cell("g", (c, r))
    for i in range(6):
        s.cell("r", i)
    mount(page, s)
    coords = page.evaluate(
        """() => [...document.querySelectorAll('svg.pt-svg text.pt-coord')].map((t) => {
            const b = t.getBoundingClientRect();
            return {text: t.textContent, x: b.x + b.width / 2, y: b.y + b.height / 2,
                    board: t.closest('[data-board]').getAttribute('data-board'),
                    events: getComputedStyle(t).pointerEvents};
        })""")
    by = {}
    for c in coords:
        by.setdefault(c["board"], []).append(c)
    assert [c["text"] for c in by["g"]] == ["a", "b", XSS, "1", "2"]
    assert [c["text"] for c in by["p"]] == ["x", "y", "z", "1", "2", "3"]
    assert [c["text"] for c in by["r"]] == ["0", "1", "2", "3", "4", "5"]
    assert all(c["events"] == "none" for c in coords)             # labels are never clicked
    assert page.locator(".pt-root img").count() == 0              # text, never HTML
    # the grid is flipped: column labels below row 0, each under its column; row 1 beside row 0
    a1 = item(page, cell_id((0, 0))).locator(".pt-shape").bounding_box()
    col_a, row_1, row_2 = by["g"][0], by["g"][3], by["g"][4]
    assert col_a["y"] > a1["y"] + a1["height"] and abs(col_a["x"] - (a1["x"] + a1["width"] / 2)) < 2
    assert row_1["x"] < a1["x"] and abs(row_1["y"] - (a1["y"] + a1["height"] / 2)) < 2
    assert row_2["y"] < row_1["y"]
    # the ring's numbers go clockwise from the top, inside the ring
    ring = by["r"]
    assert min(ring, key=lambda c: c["y"])["text"] == "0" and ring[1]["x"] > ring[0]["x"]


def test_the_last_move_is_outlined_with_a_class_of_its_own(page):
    s = Scene()
    s.board("g", "grid", cols=3, rows=2, cell=36)
    s.board("r", "ring", slots=6)
    for c in range(3):
        for r in range(2):
            s.cell("g", (c, r))
    wall = s.edge("g", (0, 0), (1, 0), style="old")
    s.piece("g", (2, 1), "circle", "#c33")                      # a piece without an id: its cell is marked
    for i in range(6):
        s.piece("r", i, "triangle", "#36c", id=slot_id(i))
    s.move(cell_id((2, 1)), "Step", {"kind": "step"})
    s.last(cell_id((2, 1)), wall, slot_id(4), "no-such-item")
    mount(page, s)
    marked = page.evaluate(
        """() => [...document.querySelectorAll('g.pt-last')].map((g) => g.getAttribute('data-id'))""")
    assert sorted(marked) == sorted([cell_id((2, 1)), wall, slot_id(4)])
    assert page.locator("svg.pt-svg .pt-last-mark").count() == 3     # each id once; an unknown id: nothing
    stroke = page.evaluate(
        "() => getComputedStyle(document.querySelector('g.pt-cell.pt-last .pt-last-mark')).stroke")
    assert stroke == "rgb(124, 58, 237)"                             # its own colour (--pt-last)
    # under the highlight of a lit cell, so a target stays visible
    order = page.evaluate(
        """(id) => [...document.querySelector(`g[data-id="${id}"]`).children].map((n) => n.getAttribute('class'))""",
        cell_id((2, 1)))
    assert order.index("pt-last-mark") < order.index("pt-hl")
    legend = page.locator(".pt-root .pt-legend")
    assert legend.is_visible() and legend.text_content() == "outlined: the last move"
    s.to_json()["last"] = []
    set_scene(page, s)
    assert page.locator(".pt-last, .pt-last-mark").count() == 0 and legend.is_hidden()


def test_a_long_note_wraps_and_never_widens_the_board(page):
    note = ("A long note about this position, written while the game goes on, "
            "to see whether it wraps. " * 4)[:250] + "\nand a second line"

    def scene(with_note: bool) -> Scene:
        s = Scene()
        s.board("g", "grid", cols=6, rows=6, cell=36)
        s.panel("Score", [["Red", 3], ["Blue", 5]])
        if with_note:
            s.panel("Notes at move 3", [[note]])
        return s

    mount(page, scene(False))
    width = lambda: page.evaluate(  # noqa: E731
        "() => [document.querySelector('.pt-root').getBoundingClientRect().width,"
        " document.documentElement.scrollWidth]")
    (root_before, page_before) = width()
    set_scene(page, scene(True))
    (root_after, page_after) = width()
    cell = page.locator(".pt-panel td").last
    assert cell.text_content() == note                                # whole, the line break kept
    assert page.evaluate("() => getComputedStyle(document.querySelector('.pt-panel td.pt-text')).whiteSpace") \
        == "pre-wrap"
    box = cell.bounding_box()
    assert box["width"] <= 360 and box["height"] > 60                 # wrapped onto several lines
    assert page_after == page_before                                   # the page did not widen
    assert root_after <= root_before + 360
    # in a narrow column the board is drawn smaller to fit it (issue 28): nothing scrolls, the page
    # does not widen
    page.evaluate("() => { document.getElementById('host').style.width = '200px'; }")
    settle(page)
    narrow = page.evaluate(
        """() => { const st = document.querySelector('.pt-stage');
                   return [document.querySelector('.pt-root').getBoundingClientRect().width,
                           st.scrollWidth > st.clientWidth, document.documentElement.scrollWidth,
                           Number(document.querySelector('svg.pt-svg').dataset.scale)]; }""")
    assert narrow[0] <= 200 and not narrow[1] and narrow[2] == page_before and narrow[3] < 1


def test_an_error_shows_the_cited_rules_text_below_it(page):
    mount(page, full_scene())
    page.evaluate("() => window.pt.setError('a wall may not lie here (rule A.1 §14.3)\\n\\n"
                  "A.1 §14.3 Clearance from tokens\\n\"Walls cannot be built ...\"')")
    err = page.locator(".pt-root .pt-error")
    assert err.locator(".pt-error-text").text_content() == "a wall may not lie here (rule A.1 §14.3)"
    rule = err.locator(".pt-error-rule")
    assert rule.text_content() == 'A.1 §14.3 Clearance from tokens\n"Walls cannot be built ..."'
    rule_box, text_box = rule.bounding_box(), err.locator(".pt-error-text").bounding_box()
    assert rule_box["y"] >= text_box["y"] + text_box["height"] - 1    # below the message
    page.evaluate(f"() => window.pt.setError({json.dumps(XSS + chr(10) * 2 + XSS)})")
    assert page.locator(".pt-root img").count() == 0 and err.locator(".pt-error-rule").text_content() == XSS


def test_a_reason_citing_a_rule_shows_the_rule_below_the_board(page):
    s = Scene()
    s.board("g", "grid", cols=2, rows=1, cell=36)
    s.cell("g", (0, 0))
    s.cell("g", (1, 0))
    s.reason(cell_id((0, 0)), "a token stands on a1 (rule A.1 §14.2)")
    s.reason(cell_id((1, 0)), "no rule cited here")
    s.hint("Build.")
    data = s.to_json()
    data["rules"] = {"A.1 §14.2": "A.1 §14.2 Buying obstacles\n" + XSS}
    mount(page, data)
    rule = page.locator(".pt-root .pt-rule")
    assert rule.is_hidden()
    svg_bottom = (lambda b: b["y"] + b["height"])(page.locator("svg.pt-svg").bounding_box())
    item(page, cell_id((0, 0))).locator(".pt-shape").click()
    assert message(page) == "a token stands on a1 (rule A.1 §14.2)"
    assert rule.is_visible() and rule.text_content() == "A.1 §14.2 Buying obstacles\n" + XSS
    assert rule.bounding_box()["y"] >= svg_bottom                   # below the board: nothing moves
    assert page.locator(".pt-root img").count() == 0
    item(page, cell_id((1, 0))).locator(".pt-shape").click()
    assert message(page) == "no rule cited here" and rule.is_hidden()


def _ring_scene(pieces: dict, last=(), version=1) -> dict:
    """A ring of 6 slots with pieces on some: item ids slot:<i> (cells) and pc:<i> (pieces)."""
    items = [{"kind": "cell", "board": "r", "id": f"slot:{i}", "at": i} for i in range(6)]
    items += [{"kind": "piece", "board": "r", "id": f"pc:{i}", "at": i, "shape": "circle", "color": color}
              for i, color in sorted(pieces.items())]
    return {"version": version, "boards": [{"id": "r", "kind": "ring", "slots": 6, "slot": 34}],
            "items": items, "moves": {f"pc:{i}": [{"label": "go", "action": {"kind": "go", "from": i}}]
                                      for i in pieces}, "last": list(last)}


def test_a_redraw_keeps_the_nodes_of_unchanged_items_and_redraws_the_rest(page):
    """Only what changed touches the page: an unchanged item keeps its very node, one that only moved
    (or changed its id) keeps it too, a changed one is drawn anew, a removed one goes, the drawing
    order follows the scene, and the last-move marks and movable classes follow the new scene (none
    is left on a kept node)."""
    mount(page, _ring_scene({0: "#c33", 2: "#36c"}, last=["pc:0"]))
    page.evaluate("""() => { for (const g of document.querySelectorAll('svg.pt-svg g[data-id]'))
                               g.__before = g.getAttribute('data-id'); }""")
    set_scene(page, _ring_scene({0: "#c33", 3: "#36c"}, last=["pc:3"], version=2))
    seen = page.evaluate("""() => Array.from(document.querySelectorAll('svg.pt-svg g.pt-item'),
        (g) => [g.getAttribute('data-id'), g.__before || null, [...g.classList].filter(
                 (c) => c === 'pt-last' || c === 'pt-movable').sort().join(' '),
                g.querySelectorAll(':scope > .pt-last-mark').length])""")
    by_id = {row[0]: row for row in seen}
    assert [row[0] for row in seen] == [f"slot:{i}" for i in range(6)] + ["pc:0", "pc:3"]
    assert all(by_id[f"slot:{i}"][1] == f"slot:{i}" for i in (0, 1, 2, 4, 5))    # kept
    assert by_id["pc:0"][1] == "pc:0" and by_id["pc:0"][2:] == ["pt-movable", 0]  # kept, unmarked
    # the piece that went from slot 2 to 3 is the same drawing elsewhere: its node moved and took the new id
    assert by_id["pc:3"][1] == "pc:2" and by_id["pc:3"][2] == "pt-last pt-movable"
    assert by_id["pc:3"][3] == 1 and page.locator("svg.pt-svg .pt-last-mark").count() == 1
    assert page.locator('svg.pt-svg g[data-id="pc:2"]').count() == 0
    # the ring grows to 8 slots: its base takes the new shape, every item keeps its node and moves
    # to its new place (one attribute), and only the new slots are drawn
    page.evaluate("""() => { for (const g of document.querySelectorAll('svg.pt-svg g[data-id]'))
                               g.__move = g.getAttribute('transform'); }""")
    scene = _ring_scene({0: "#c33"}, version=3)
    scene["boards"][0]["slots"] = 8
    scene["items"] += [{"kind": "cell", "board": "r", "id": f"slot:{i}", "at": i} for i in (6, 7)]
    set_scene(page, scene)
    seen = page.evaluate("""() => Array.from(document.querySelectorAll('svg.pt-svg g[data-id]'),
        (g) => [g.getAttribute('data-id'), g.__before || null, g.__move || null, g.getAttribute('transform')])""")
    by_id = {row[0]: row for row in seen}
    assert all(by_id[f"slot:{i}"][1] == f"slot:{i}" for i in range(6)) and by_id["pc:0"][1] == "pc:0"
    assert by_id["slot:6"][1] is None and by_id["slot:7"][1] is None
    assert by_id["slot:0"][2] == by_id["slot:0"][3]                  # at the top in both rings
    assert all(by_id[f"slot:{i}"][2] != by_id[f"slot:{i}"][3] for i in range(1, 6))   # moved
    assert page.locator("svg.pt-svg .pt-ring-slot").count() == 8
    # where it is drawn is where it is: slot 2 of 8 sits a quarter turn right of the top
    box = lambda id_: item(page, id_).locator(".pt-shape").first.bounding_box()  # noqa: E731
    top, right = box("slot:0"), box("slot:2")
    assert right["x"] > top["x"] + 60 and abs((right["y"] + right["height"] / 2)
                                              - (top["y"] + top["height"] / 2)) > 60


def test_a_ring_that_changes_size_and_back_gets_its_earlier_base_back(page):
    """Eat Thyself's ring changes size on most moves and returns to sizes it had: the base drawn
    for a size is kept, detached, and put back when the ring has that size again (no drawing, no
    reshaping before the frame); one base is shown at a time and always has the ring's slots."""
    def ring(slots: int, version: int) -> dict:
        scene = _ring_scene({0: "#c33"}, version=version)
        scene["boards"][0]["slots"] = slots
        scene["boards"][0]["title"] = f"{slots} slots"
        return scene

    mount(page, ring(6, 1))
    page.evaluate("() => { document.querySelector('svg.pt-svg .pt-board').__size = 6; }")
    for slots, version in ((8, 2), (7, 3)):
        set_scene(page, ring(slots, version))
        page.evaluate(f"() => {{ document.querySelector('svg.pt-svg .pt-board').__size = {slots}; }}")
    for slots, version in ((6, 4), (8, 5), (7, 6), (6, 7)):
        set_scene(page, ring(slots, version))
        shown = page.evaluate("""() => Array.from(document.querySelectorAll('svg.pt-svg .pt-board'),
            (g) => [g.__size || null, g.querySelectorAll('.pt-ring-slot').length,
                    g.querySelector('.pt-board-title').textContent])""")
        assert shown == [[slots, slots, f"{slots} slots"]]
    # a base is kept while the board looks the same: a redraw that only moves a piece keeps it
    set_scene(page, _ring_scene({1: "#c33"}, version=8))
    page.evaluate("() => { document.querySelector('svg.pt-svg .pt-board').__kept = true; }")
    set_scene(page, _ring_scene({2: "#c33"}, version=9))
    assert page.evaluate("() => document.querySelector('svg.pt-svg .pt-board').__kept === true")


def test_a_committed_click_changes_nothing_on_the_page_until_the_kernel_answers(page):
    """The click that commits an action sends it and leaves the page as it is, so the browser has
    no frame to draw while the kernel works: the highlight goes with the answer (the redraw), with
    a refusal (an error, shown with it), or when no answer came for a while."""
    mount(page, full_scene())
    page.evaluate("""() => { window.__changes = 0; new MutationObserver((records) => {
        window.__changes += records.length; }).observe(document.querySelector('.pt-root'),
        {subtree: true, attributes: true, childList: true, characterData: true}); }""")
    item(page, "king").click()
    page.evaluate("() => { window.__changes = 0; }")
    page.locator(f'g.pt-cell[data-id="{slot_id(4)}"]').click()
    assert sent(page)[-1] == {"type": "action", "action": {"kind": "king", "to": 4}}
    assert page.evaluate("() => window.__changes") == 0
    assert page.locator(".pt-selected, .pt-target").count() > 0
    answer(page)                                       # the redraw: no highlight left
    assert page.locator(".pt-selected, .pt-target").count() == 0
    # refused: the highlight goes with the reason
    item(page, "king").click()
    page.locator(f'g.pt-cell[data-id="{slot_id(4)}"]').click()
    page.evaluate("() => window.pt.setError('Not now: rule 3.')")
    assert page.locator(".pt-selected, .pt-target").count() == 0
    assert "Not now" in page.locator(".pt-error").inner_text()
    # no answer at all (a kernel gone): the highlight goes after a while
    page.evaluate("() => window.pt.setError('')")
    item(page, "king").click()
    page.locator(f'g.pt-cell[data-id="{slot_id(4)}"]').click()
    assert page.locator(".pt-selected").count() == 1
    page.wait_for_function("() => document.querySelectorAll('.pt-selected, .pt-target').length === 0",
                           timeout=3000)


def _answer(page, request, scenes):
    """The kernel's answer to a preview request: ``scenes`` (JSON texts or None), one an action."""
    page.evaluate("([n, scenes]) => window.pt.custom({type: 'preview', n, scenes})", [request["n"], scenes])


def test_a_preview_asked_ahead_is_drawn_the_moment_the_click_commits(page):
    """A selected piece's targets are asked about at once, in one request; resting the pointer on
    a target asks nothing more (once per action and scene version). The click then draws the
    scene the kernel sent ahead, marked with ``data-preview`` (``data-version`` waits for the
    kernel's own redraw). A refusal, or no answer at all, puts back what the kernel shows."""
    mount(page, full_scene())
    ahead = full_scene()
    ahead.status("Blue to move", color="#2a7", shape="circle")
    ahead = json.dumps({k: v for k, v in ahead.to_json().items() if k != "version"})
    item(page, "king").click()
    targets = [{"kind": "king", "to": 4}, {"kind": "king", "to": 6}, {"kind": "insert", "at": 7}]
    request = {"type": "preview", "n": 1, "version": 1, "actions": targets}
    assert asked(page) == [request]                      # the select asked, in one message
    target = page.locator(f'g.pt-cell[data-id="{slot_id(4)}"]')
    target.hover()
    page.wait_for_timeout(150)
    assert asked(page) == [request]                      # asked once per action and version
    status = page.locator(".pt-status-text")
    # an answer for a request the page does not know is dropped; then the real one
    page.evaluate("(s) => window.pt.custom({type: 'preview', n: 99, scenes: [s, s, s]})", ahead)
    _answer(page, request, [ahead, None, "{not json"])
    assert status.inner_text() == "Red to move"          # nothing drawn before the click
    target.click()
    assert sent(page)[-1] == {"type": "action", "action": {"kind": "king", "to": 4}}
    assert status.inner_text() == "Blue to move"         # drawn with the click, before any answer
    svg = page.locator("svg.pt-svg")
    assert svg.get_attribute("data-preview") == "1" and svg.get_attribute("data-version") == "1"
    assert page.locator(".pt-selected, .pt-target").count() == 0
    set_scene(page, {**json.loads(ahead), "version": 2})  # the kernel's redraw
    assert svg.get_attribute("data-preview") is None and svg.get_attribute("data-version") == "2"
    assert status.inner_text() == "Blue to move"
    # the kernel said null (slot 6), or sent garbage (the gap): the click waits for the answer
    mount(page, full_scene())
    item(page, "king").click()
    _answer(page, asked(page)[-1], [ahead, None, "{not json"])
    page.locator(f'g.pt-cell[data-id="{slot_id(6)}"]').click()
    assert status.inner_text() == "Red to move" and svg.get_attribute("data-preview") is None
    answer(page)
    item(page, "king").click()                           # (the same scene: asked already)
    item(page, gap_id(7)).click()
    assert status.inner_text() == "Red to move" and svg.get_attribute("data-preview") is None
    # refused: the kernel's scene comes back with the reason
    mount(page, full_scene())
    _answer(page, rest(page, item(page, "stone:b"), {"kind": "lift"}), [ahead])   # a direct move
    item(page, "stone:b").click()
    assert status.inner_text() == "Blue to move"
    page.evaluate("() => window.pt.setError('Not now: rule 3.')")
    assert status.inner_text() == "Red to move" and svg.get_attribute("data-preview") is None
    assert "Not now" in page.locator(".pt-error").inner_text()
    # no answer at all: a preview goes back after a while
    mount(page, full_scene())
    _answer(page, rest(page, page.locator("button.pt-button", has_text="End turn"), {"kind": "end"}), [ahead])
    page.locator("button.pt-button", has_text="End turn").click()
    assert status.inner_text() == "Blue to move"
    page.wait_for_function("() => !document.querySelector('svg.pt-svg').hasAttribute('data-preview')",
                           timeout=5000)
    assert status.inner_text() == "Red to move"


def test_a_pointer_sweeping_over_the_board_asks_nothing(page):
    """A preview is asked once the pointer rests on an item (40 ms), not for every item it passes
    over on its way, nor after it left the board."""
    mount(page, full_scene())
    sweep = """(ids) => {
        const over = (node, type) => node.dispatchEvent(new MouseEvent(type, {bubbles: true, view: window}));
        for (const id of ids) over(document.querySelector(`svg.pt-svg g[data-id="${id}"]`), 'mouseover');
        over(document.querySelector('svg.pt-svg'), 'mouseleave');
    }"""
    page.evaluate(sweep, ["stone:b", point_id((0, 0)), "stone:w", "stone:b"])
    page.wait_for_timeout(150)
    assert asked(page) == []
    rest(page, item(page, "stone:b"), {"kind": "lift"})   # resting on one: asked once
    assert [m["actions"] for m in asked(page)] == [[{"kind": "lift"}]]


def test_a_menu_asks_for_the_previews_of_its_options_and_a_new_scene_forgets_them(page):
    mount(page, full_scene())
    item(page, point_id((0, 0))).click()
    assert [m["actions"] for m in asked(page)] == [[{"kind": "place", "at": [0, 0]}, {"kind": "place2", "at": [0, 0]}]]
    # a new scene version: its previews are asked again, with the new version
    set_scene(page, full_scene(version=2))
    page.evaluate("() => window.pt.clearSent()")
    request = rest(page, item(page, "stone:b"), {"kind": "lift"})
    assert request == {"type": "preview", "n": request["n"], "version": 2, "actions": [{"kind": "lift"}]}


def test_actions_the_kernel_had_no_time_for_are_asked_again(page):
    """An answer shorter than its request (the kernel's time for one request ran out) leaves the
    rest unasked: resting the pointer on one of them asks again."""
    mount(page, full_scene())
    item(page, "king").click()
    first = asked(page)[-1]
    assert len(first["actions"]) == 3
    _answer(page, first, [None])                         # only the first was made
    page.locator(f'g.pt-cell[data-id="{slot_id(6)}"]').hover()
    page.wait_for_function("() => window.pt.sent().filter((m) => m.type === 'preview').length === 2",
                           timeout=2000)
    again = asked(page)[-1]
    assert again["n"] != first["n"] and again["actions"] == [{"kind": "king", "to": 6}]


# ---------------------------------------------------------------- issue 28: boards that fit, a legend
def three_boards() -> Scene:
    """Three grids side by side, 962 px in all at their own size (Back to the Wall's shape)."""
    s = Scene()
    for k, n in enumerate((8, 9, 10)):
        s.board(f"b{k}", "grid", title=f"Board {k}", cols=n, rows=n, cell=30,
                labels={"cols": "abcdefghij"[:n], "rows": [str(r + 1) for r in range(n)]})
        for c in range(n):
            for r in range(n):
                s.cell(f"b{k}", (c, r), fill="#fbf8f1", id=f"b{k}:{c},{r}")
        s.move(f"b{k}:{n - 1},{n - 1}", "far corner", {"kind": "corner", "board": k})
    return s


def far_corner(page, board: str):
    """The page point 4 px inside the bottom-right corner of a grid board's frame (scrolled to, by the
    page: never by the board's own box)."""
    page.evaluate("""(b) => { const r = document.querySelector(`g.pt-board[data-board="${b}"] .pt-board-frame`)
        .getBoundingClientRect(); window.scrollBy(0, r.top - 40); }""", board)
    return page.evaluate("""(b) => { const r = document.querySelector(
        `g.pt-board[data-board="${b}"] .pt-board-frame`).getBoundingClientRect();
        return [r.right - 4, r.bottom - 4, r.width]; }""", board)


@pytest.mark.parametrize("width", [1100, 520, 240])
def test_boards_stack_and_scale_to_the_column_and_their_far_corners_take_clicks(page, width):
    page.evaluate(f"() => {{ document.getElementById('host').style.width = '{width}px'; }}")
    mount(page, three_boards())
    settle(page)
    svg = page.locator("svg.pt-svg")
    rows, scale = int(svg.get_attribute("data-rows")), float(svg.get_attribute("data-scale"))
    assert rows == (1 if width >= 1000 else 3 if width < 400 else 2) or (width == 520 and rows == 3)
    assert scale == 1 or width == 240
    box = page.evaluate("() => [document.querySelector('svg.pt-svg').getBoundingClientRect().right,"
                        " document.getElementById('host').getBoundingClientRect().right,"
                        " document.querySelector('.pt-stage').scrollWidth - document.querySelector('.pt-stage').clientWidth]")
    assert box[0] <= box[1] + 0.5 and box[2] <= 1, box
    for k in range(3):
        x, y, _ = far_corner(page, f"b{k}")
        page.mouse.click(x, y)
        assert sent(page)[-1] == {"type": "action", "action": {"kind": "corner", "board": k}}
        answer(page)


def test_zoom_scales_the_drawing_and_fit_comes_back(page):
    page.evaluate("() => { document.getElementById('host').style.width = '300px'; }")
    mount(page, three_boards())
    settle(page)
    svg = page.locator("svg.pt-svg")
    fit = float(svg.get_attribute("data-scale"))
    assert fit < 1 and int(svg.get_attribute("data-rows")) == 3
    assert page.locator(".pt-zoom-text").inner_text() == f"fit ({round(fit * 100)}%)"
    page.locator(".pt-zoom-in").click()
    page.locator(".pt-zoom-in").click()
    big = float(svg.get_attribute("data-scale"))
    assert big == 1.25 and page.locator(".pt-zoom-text").inner_text() == "125%"
    assert page.evaluate("() => { const st = document.querySelector('.pt-stage'); return st.scrollWidth > st.clientWidth; }")
    page.locator(".pt-stage").evaluate("(st) => { st.scrollLeft = st.scrollWidth; }")     # its own box scrolls
    x, y, width = far_corner(page, "b2")
    assert width == pytest.approx(10 * 30 * 1.25, abs=1)
    page.mouse.click(x, y)
    assert sent(page)[-1]["action"] == {"kind": "corner", "board": 2}
    for _ in range(3):
        page.locator(".pt-zoom-out").click()
    assert float(svg.get_attribute("data-scale")) == 0.67
    page.locator(".pt-zoom-fit").click()
    assert float(svg.get_attribute("data-scale")) == fit


def test_a_legend_draws_each_mark_as_the_board_does_and_its_words_as_text(page):
    s = three_boards()
    s.legend("a wall left standing", "edge", style="old")
    s.legend("a token on the move", "piece", shape="triangle", color="#c33", text="3", outline="#111")
    s.legend("its path", "line", color="#c33", dash=True, arrow=True)
    s.legend("a captured cell", "cell", fill="#f2c4bf", text="N")
    s.legend(XSS)
    mount(page, s)
    entries = page.locator(".pt-key .pt-key-entry")
    assert entries.count() == 5
    assert entries.locator(".pt-key-text").all_inner_texts()[:4] == ["a wall left standing", "a token on the move", "its path",
                                             "a captured cell"]
    assert entries.nth(0).locator("g.pt-edge-old line.pt-edge-line").count() == 1
    assert entries.nth(1).locator("polygon.pt-shape").count() == 1 and entries.nth(1).locator("text").text_content() == "3"
    assert entries.nth(2).locator("polyline.pt-line-path[stroke-dasharray]").count() == 1
    assert entries.nth(3).locator("rect.pt-shape[fill='#f2c4bf']").count() == 1
    assert entries.nth(4).inner_text() == XSS and page.locator(".pt-root img").count() == 0
    assert entries.nth(4).locator("svg").count() == 0
    # under the boards, never wider than the drawing pushes it
    key, drawing = page.locator(".pt-key").bounding_box(), page.locator("svg.pt-svg").bounding_box()
    assert key["y"] >= drawing["y"] + drawing["height"] - 1 and key["width"] <= max(280, drawing["width"]) + 1
    s2 = three_boards()
    set_scene(page, s2)
    assert page.locator(".pt-key").is_hidden()
