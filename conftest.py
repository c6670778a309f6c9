"""Checks on the notebooks' outputs while nbval runs them (``pytest notebooks/ --nbval-lax``).

nbval checks that every cell runs (and, with stored outputs, what it prints); notebooks are
committed without outputs, so it cannot see *how* a result displays. Two checks are added to
every notebook cell nbval runs:

* a cell tagged ``plot`` (cell metadata ``"tags": ["plot"]``) must show a picture: an
  ``image/png`` output, or HTML with an embedded PNG (a sweep's table and plot);
* no cell may show a matplotlib figure as its text (``<Figure size 600x250 with 1 Axes>``):
  that is what a figure made without pyplot looks like when nothing renders it;
* the kit's notebooks follow the kit's advice: no cell may print the lab's warning that its
  games or bots cannot be sent to other processes (the run then stays on one core).
"""

from __future__ import annotations

import re
from typing import Any

import pytest

PICTURE_IN_HTML = re.compile(r'<img [^>]*src="data:image/png;base64,')


def picture_problems(cell: Any, outputs: list[dict[str, Any]]) -> list[str]:
    """What is wrong with the pictures of one executed cell (empty: nothing)."""
    problems = []
    for output in outputs:
        if output.get("output_type") == "stream" and "cannot be sent to other processes" in str(output.get("text", "")):
            problems.append(f"the lab warned: {str(output.get('text', '')).strip()[:300]}")
    shown = [o.get("data", {}) for o in outputs if o.get("output_type") in ("display_data", "execute_result")]
    for data in shown:
        if str(data.get("text/plain", "")).startswith("<Figure size") and "image/png" not in data:
            problems.append(f"a figure is shown as text, not as a picture: {data['text/plain']}")
    tags = (cell.get("metadata") or {}).get("tags") or []
    if "plot" in tags and not any("image/png" in data or PICTURE_IN_HTML.search(str(data.get("text/html", "")))
                                  for data in shown):
        problems.append("this cell is tagged 'plot' but shows no picture (image/png)")
    return problems


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item: Any, call: Any) -> Any:
    outcome = yield
    report = outcome.get_result()
    if call.when != "call" or not report.passed or not hasattr(item, "test_outputs") or not hasattr(item, "cell"):
        return
    problems = picture_problems(item.cell, item.test_outputs or [])
    if problems:
        report.outcome = "failed"
        report.longrepr = "\n".join(problems)
