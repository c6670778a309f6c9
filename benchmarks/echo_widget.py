"""A bare anywidget used as the latency baseline.

The round trip it measures is the smallest one a widget can make:

    click in the page -> ``model.send({"type": "click"})`` -> kernel ``on_msg``
    -> ``count += 1`` (a synced Int trait) -> ``change:count`` in the page
    -> the counter is redrawn.

The page shows a button-like ``<div class="echo-target">`` and a counter
``<span class="echo-count">``.  Nothing here depends on playtest itself, so the
number it gives is the floor any playtest widget can hope for.

Use in a notebook::

    from echo_widget import EchoWidget
    EchoWidget()
"""

from __future__ import annotations

import anywidget
import traitlets

ESM = r"""
function render({ model, el }) {
  const root = document.createElement("div");
  root.className = "echo-root";

  const target = document.createElement("div");
  target.className = "echo-target";
  target.setAttribute("role", "button");
  target.setAttribute("tabindex", "0");
  target.textContent = "echo";

  const count = document.createElement("span");
  count.className = "echo-count";

  const draw = () => {
    count.textContent = String(model.get("count"));
  };
  const onClick = () => model.send({ type: "click" });

  target.addEventListener("click", onClick);
  model.on("change:count", draw);
  draw();

  root.append(target, count);
  el.append(root);
  return () => {
    model.off("change:count", draw);
    target.removeEventListener("click", onClick);
  };
}
export default { render };
"""

CSS = r"""
.echo-root { display: flex; gap: 12px; align-items: center; font: 14px sans-serif; }
.echo-target {
  padding: 6px 14px; border: 1px solid #888; border-radius: 4px;
  background: #eee; cursor: pointer; user-select: none;
}
.echo-count { min-width: 3em; font-variant-numeric: tabular-nums; }
"""


class EchoWidget(anywidget.AnyWidget):
    """Counts the clicks its page sends it; the page redraws on every change."""

    _esm = ESM
    _css = CSS
    count = traitlets.Int(0).tag(sync=True)

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self.on_msg(self._on_custom_msg)

    def _on_custom_msg(self, _widget, content, _buffers) -> None:
        if isinstance(content, dict) and content.get("type") == "click":
            self.count += 1


__all__ = ["EchoWidget"]
