"""The analytics' charts and the lab's plots save their text as written (``playtest._figures``): no
``$...$`` maths, and no LaTeX even where a designer's matplotlib settings turn ``text.usetex`` on
(a name handed to LaTeX failed the drawing, or ran as TeX)."""

from __future__ import annotations

import pytest

pytest.importorskip("matplotlib")

import matplotlib                                   # noqa: E402
from matplotlib.text import Text                    # noqa: E402

from playtest.analytics.chart import Chart, new_figure  # noqa: E402
from playtest.lab.plots import interval_plot         # noqa: E402

NAME = r"a $\frac{$ name"


def _chart() -> Chart:
    figure = new_figure(4, 2)
    ax = figure.subplots()
    ax.bar([NAME, "Ann $x^2$"], [1, 2])
    ax.set_title(NAME)
    return Chart(figure, "names")


def _interval() -> matplotlib.figure.Figure:
    return interval_plot({NAME: 0.1}, low={NAME: 0.0}, high={NAME: 0.2}, xlabel=NAME)


@pytest.mark.parametrize("make, png", [(_chart, lambda c: c.png()), (_interval, lambda f: f._repr_png_())],
                         ids=["analytics chart", "lab plot"])
def test_a_name_is_drawn_as_written_even_with_usetex_on(make, png):
    with matplotlib.rc_context({"text.usetex": True}):     # (no LaTeX on this machine need be called)
        drawn = make()
        assert png(drawn)[:4] == b"\x89PNG"
    figure = drawn.figure if isinstance(drawn, Chart) else drawn
    texts = figure.findobj(Text)
    assert any(t.get_text() == NAME for t in texts)
    assert not any(t.get_usetex() or t.get_parse_math() for t in texts if t.get_text())
