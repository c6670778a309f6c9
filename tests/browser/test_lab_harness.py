"""The harness itself, end to end: JupyterLab + Chromium + an anywidget.

Opens a notebook showing the echo widget (benchmarks/echo_widget.py), runs
all cells from the Run menu, clicks the widget and reads the kernel's answer
back from the page; then restarts the kernel from the Kernel menu and runs the
notebook again.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.browser

REPO = Path(__file__).resolve().parents[2]
ECHO = REPO / "benchmarks" / "echo_widget.py"

CELLS = [
    "import sys\nprint(sys.executable)",
    "from echo_widget import EchoWidget\nw = EchoWidget()\nw",
]


def test_echo_click_restart_rerun(open_notebook):
    nb = open_notebook("harness_echo.ipynb", CELLS, files=[ECHO])
    assert "Idle" in nb.kernel_status()

    nb.run_all()
    # The kernel is this venv's interpreter (python3 kernelspec -> venv).
    assert Path(nb.cell_output_text(0)).parent == Path(sys.executable).parent

    count = nb.wait_for(".echo-count")
    assert count.inner_text() == "0"
    nb.page.locator(".echo-target").click()
    nb.page.wait_for_function(
        "() => document.querySelector('.echo-count').textContent === '1'", timeout=15_000
    )
    assert count.inner_text() == "1"
    assert nb.run_code("print(w.count)") == "1"

    nb.restart_kernel()
    # A fresh kernel: the name bound before the restart is gone.
    assert nb.run_code("print('w' in dir())") == "False"

    nb.run_all()
    assert Path(nb.cell_output_text(0)).parent == Path(sys.executable).parent
    assert nb.wait_for(".echo-count").inner_text() == "0"
    nb.page.locator(".echo-target").click()
    nb.page.wait_for_function(
        "() => document.querySelector('.echo-count').textContent === '1'", timeout=15_000
    )
    assert nb.errors() == []
