"""The board: one anywidget that draws any scene as SVG and sends back committed actions.

The browser does all the highlighting from the scene's ``moves``, ``selects``
and ``buttons`` (see :mod:`playtest.scene`); only a committed action comes
back, as ``{"type": "action", "action": {...}, "version": 12}`` (the scene version it was
clicked on: :attr:`Board.action_version` while the handlers run), or a table command from a
button or the curtain, as ``{"type": "command", "name": "roll"}`` or
``{"type": "command", "name": "reveal", "seat": 1}``. A click the scene says
no to (the page shows the item's reason) is reported as ``{"type":
"refused", "item": "edge:0,0:1,0", "version": 12}``, so a table can keep the
attempt (the reason is read from the kernel's own scene, never from the page).
Anything else the browser sends is refused with a visible error and changes nothing.

**Previews.** What a click may commit next (the target the pointer rests on,
a selected piece's targets, a menu's options), the page asks about ahead:
``{"type": "preview", "n": 7, "version": 12, "actions": [{...}, ...]}`` (1 to
16 actions). The board's preview handler (the table's) answers for each with
the scene the action leads to, or ``None`` when that cannot be shown before
the move is made (a game with secrets, chance next, an illegal action); the
board sends them back as ``{"type": "preview", "n": 7, "scenes": ["<scene
JSON>" | null, ...]}``. The page draws that scene the moment the click
commits, and the kernel's own redraw follows. A request for a scene version
the board no longer shows gets ``null`` for every action. A request costs the
kernel at most about :attr:`Board.PREVIEW_SECONDS` (a click waits behind it):
``scenes`` may then be shorter than ``actions``, and the page asks for the
rest again when it needs them.

>>> from playtest.widgets.board import Board
>>> board = Board()
>>> seen = []
>>> board.on_action(seen.append)
>>> board.receive({"type": "action", "action": {"kind": "move"}})
>>> seen
[{'kind': 'move'}]
>>> board.receive({"type": "shout"})
>>> print(board.error)
The board sent a message playtest does not understand (type 'shout'); nothing was changed.
"""

from __future__ import annotations

import json
import sys
import threading
import time
from pathlib import Path
from typing import Any, Callable

import anywidget
import traitlets

__all__ = ["Board", "board_js", "encode_scene", "send_now"]

_STATIC = Path(__file__).parent / "static"
#: the renderer's parts, in the order they are joined into one ES module (no build step)
BOARD_PARTS = ("draw.js", "scene.js", "widget.js")


def board_js() -> str:
    """The board renderer as the one ES module the page loads: ``static/board/*.js`` joined.

    >>> board_js().rstrip().endswith("export default { render };")
    True
    """
    parts = [(_STATIC / "board" / name).read_text(encoding="utf-8") for name in BOARD_PARTS]
    return "\n".join(f"// ---- static/board/{name}\n{text}" for name, text in zip(BOARD_PARTS, parts))


def encode_scene(scene: dict[str, Any]) -> str:
    """A scene as the compact JSON text the board sends to the browser (tables showing one
    position share one encoding: each board only adds its version number)."""
    return json.dumps(scene, ensure_ascii=False, separators=(",", ":"), allow_nan=False)


def send_now(timeout: float = 0.005) -> bool:
    """Let the kernel send the widget messages queued so far before this thread goes on.

    ipykernel sends messages from its IOPub thread, which needs the GIL: while
    the handler of a click goes on working (a table updates its move log and
    menus after the board), the board's message waits for that thread's turn,
    a millisecond or more. The table calls this right after the board's update
    so the page can start drawing while the kernel finishes the rest. It waits
    for the IOPub thread (at most ``timeout`` seconds), as ipykernel's own
    ``sys.stdout.flush()`` does. Outside a kernel, or on that thread, it does
    nothing and returns False.

    >>> send_now()      # no kernel here
    False
    """
    kernelbase = sys.modules.get("ipykernel.kernelbase")   # never imports ipykernel itself
    if kernelbase is None or not kernelbase.Kernel.initialized():
        return False
    io = getattr(kernelbase.Kernel.instance(), "iopub_thread", None)
    thread = getattr(io, "thread", None)
    if io is None or thread is None or not thread.is_alive() or thread is threading.current_thread():
        return False
    sent = threading.Event()
    io.schedule(sent.set)
    return sent.wait(timeout)


class Board(anywidget.AnyWidget):
    """The SVG board. ``scene`` is the scene to draw; ``error`` a message shown on the board.

    The scene travels as JSON text (``scene_json``): ipywidgets would walk and
    validate a nested dict on every redraw of every board, while a text made once
    per change is shared by every table of the session.
    """

    _esm = board_js()
    _css = _STATIC / "board.css"

    #: the scene drawn now, as JSON text with its ``version`` first (see :meth:`show`)
    scene_json = traitlets.Unicode('{"version":0}').tag(sync=True)
    error = traitlets.Unicode("").tag(sync=True)
    #: ``{"text": "Pass to East: click when ready", "seats": [["I am East", 1], ...]}``
    #: hides the board until a seat is chosen; ``{}``: no curtain
    curtain = traitlets.Dict().tag(sync=True)

    #: the table commands the browser may send
    COMMANDS = ("roll", "reveal", "hide")

    def __init__(self, scene: dict[str, Any] | None = None, **kwargs: Any):
        super().__init__(**kwargs)
        self._version = 0
        self._scene: dict[str, Any] = {}
        self._handlers: list[Callable[[dict[str, Any]], None]] = []
        self._command_handlers: list[Callable[[str, int | None], None]] = []
        self._view_handlers: list[Callable[[int], None]] = []
        self._refused_handlers: list[Callable[[str], None]] = []
        self._preview: Callable[[dict[str, Any]], str | None] | None = None
        #: the scene version the action being handled was clicked on (``None``: not said, or no action)
        self.action_version: int | None = None
        #: views of this board open in browsers now; whether it ever had one
        self.views = 0
        self.had_view = False
        self.on_msg(self._on_msg)
        if scene is not None:
            self.show(scene)

    @property
    def scene(self) -> dict[str, Any]:
        """The scene drawn now (with its ``version``); assigning one draws it."""
        return self._scene

    @scene.setter
    def scene(self, scene: dict[str, Any]) -> None:
        self.show(scene)

    def show(self, scene: dict[str, Any], encoded: str | None = None) -> None:
        """Draw ``scene`` (a new version number tells the page it changed).

        ``encoded`` is ``encode_scene(scene)`` when the caller has it already
        (a session's tables share it); it must be the encoding of ``scene``.
        """
        if not isinstance(scene, dict):
            raise TypeError(f"a scene is a dict, not {type(scene).__name__}")
        if "version" in scene or encoded is None:
            scene = {k: v for k, v in scene.items() if k != "version"}
            encoded = encode_scene(scene)
        self._version += 1
        self._scene = {**scene, "version": self._version}
        rest = encoded[1:].lstrip()
        self.scene_json = f'{{"version":{self._version}' + ("}" if rest.startswith("}") else "," + rest)

    def on_action(self, handler: Callable[[dict[str, Any]], None]) -> None:
        """Call ``handler(action_json)`` for every action committed on the board."""
        self._handlers.append(handler)

    def on_views(self, handler: Callable[[int], None]) -> None:
        """Call ``handler(count)`` whenever a view of the board opens or closes in a browser."""
        self._view_handlers.append(handler)

    def on_refused(self, handler: Callable[[str], None]) -> None:
        """Call ``handler(item_id)`` for every click on the scene drawn now that the scene says no to."""
        self._refused_handlers.append(handler)

    def on_command(self, handler: Callable[[str, int | None], None]) -> None:
        """Call ``handler(name, seat)`` for every table command sent by the board."""
        self._command_handlers.append(handler)

    def on_preview(self, handler: Callable[[dict[str, Any]], str | None] | None) -> None:
        """Answer the page's preview requests with ``handler(action_json)`` for each action asked
        about: the encoded scene the action leads to, or ``None``. One handler; ``None`` stops
        previews."""
        self._preview = handler

    @property
    def version(self) -> int:
        """The version number of the scene drawn now (it grows by one per :meth:`show`)."""
        return self._version

    def _on_msg(self, _widget: Any, content: Any, _buffers: Any) -> None:
        self.receive(content)

    def receive(self, content: Any) -> None:
        """Handle one message from the browser (also how tests drive the board)."""
        if not isinstance(content, dict):
            self.error = f"The board sent a malformed message ({type(content).__name__}); nothing was changed."
            return
        if _too_large(content):
            self.error = ("The board sent a message too large or too deeply nested to read (a click's message is "
                          "small); nothing was changed.")
            return
        kind = content.get("type")
        if kind == "view":               # a view of the board opened or closed in the browser
            opened = content.get("open") is True
            self.views = max(0, self.views + (1 if opened else -1))
            self.had_view = self.had_view or opened
            for view_handler in list(self._view_handlers):
                view_handler(self.views)
            return
        if kind == "command":
            name, seat = content.get("name"), content.get("seat")
            if name not in self.COMMANDS:
                self.error = f"The board sent an unknown command ({_short(name)}); nothing was changed."
                return
            if seat is not None and (type(seat) is not int or not 0 <= seat < 64):
                self.error = (f"The board sent the command {_short(name)} for a seat that is none of the game's "
                              f"({_short(seat)}); nothing was changed.")
                return
            for command_handler in list(self._command_handlers):
                command_handler(name, seat)
            return
        if kind == "preview":
            self._answer_preview(content)
            return
        if kind == "refused":
            item, version = content.get("item"), content.get("version")
            if type(item) is not str or not 0 < len(item) <= 200 or type(version) is not int:
                self.error = "The board reported a refused click without an item id and version; nothing was changed."
                return
            if version == self._version:      # a click on a scene no longer drawn is not kept
                for refused_handler in list(self._refused_handlers):
                    refused_handler(item)
            return
        if kind != "action":
            self.error = (f"The board sent a message playtest does not understand (type {_short(kind)}); "
                          "nothing was changed.")
            return
        action = content.get("action")
        if not isinstance(action, dict) or not isinstance(action.get("kind"), str):
            self.error = "The board sent an action without a 'kind'; nothing was changed."
            return
        version = content.get("version")
        if version is not None and (type(version) is not int or not 0 <= version < 2**53):
            self.error = (f"The board sent an action with a scene version ({_short(version)}) that is not a whole "
                          f"number from 0; nothing was changed.")
            return
        self.action_version = version
        try:
            for handler in list(self._handlers):
                handler(action)
        finally:
            self.action_version = None

    #: actions in one preview request at most (MAX_ASKED in static/board/widget.js)
    MAX_ASKED = 16
    #: the kernel's time for one preview request: once spent, the rest of its actions are left
    #: unanswered (the first is always answered)
    PREVIEW_SECONDS = 0.012

    def _answer_preview(self, content: dict[str, Any]) -> None:
        n, version, actions = content.get("n"), content.get("version"), content.get("actions")
        if type(n) is not int or not 0 <= n < 2**31 or type(version) is not int:
            self.error = ("The board sent a preview request without a valid 'n' and 'version'; "
                          "nothing was changed.")
            return
        if (not isinstance(actions, list) or not 1 <= len(actions) <= self.MAX_ASKED
                or not all(isinstance(a, dict) and isinstance(a.get("kind"), str) for a in actions)):
            self.error = (f"The board sent a preview request without 1 to {self.MAX_ASKED} 'actions', "
                          "each with a 'kind'; nothing was changed.")
            return
        scenes: list[str | None] = []
        if version != self._version or self._preview is None:
            scenes = [None] * len(actions)
        else:
            until = time.perf_counter() + self.PREVIEW_SECONDS
            for action in actions:
                if scenes and time.perf_counter() > until:
                    break
                scenes.append(self._preview(action))
        self.send({"type": "preview", "n": n, "scenes": scenes})

    def __repr__(self) -> str:
        scene = self.scene or {}
        boards = ", ".join(b.get("id", "?") for b in scene.get("boards", []))
        return f"Board({boards or 'empty'})"


def _too_large(value: Any, max_items: int = 2_000, max_depth: int = 8) -> bool:
    """Whether a browser message is bigger than any action (walked without recursion)."""
    stack, seen = [(value, 0)], 0
    while stack:
        item, depth = stack.pop()
        seen += 1
        if seen > max_items or depth > max_depth:
            return True
        if isinstance(item, dict):
            stack.extend((v, depth + 1) for v in item.values())
        elif isinstance(item, list):
            stack.extend((v, depth + 1) for v in item)
        elif isinstance(item, str) and len(item) > 10_000:
            return True
    return False


def _short(value: Any) -> str:
    """A value from the browser, shown in an error without echoing a huge input back."""
    text = repr(value) if isinstance(value, (str, int, float, bool, type(None))) else type(value).__name__
    return text if len(text) <= 60 else text[:57] + "..."
