"""Text on a figure drawn as it is written: what the analytics' charts and the lab's plots save.

A label of a picture the kit draws may be a user's text (a tester's name, a session's file name,
a seat or bot name, a parameter value). Matplotlib reads ``$...$`` in a label as maths and, with
``text.usetex`` on, hands the label to LaTeX: a name like ``$\\frac{$`` would then fail the drawing
or turn into a formula. :func:`text_as_written` turns both off for one save. Imported by
:mod:`playtest.analytics.chart` and :mod:`playtest.lab.plots` when they draw (it needs matplotlib,
imported on call), and by nothing at ``import playtest``.

>>> import io
>>> from matplotlib.figure import Figure
>>> figure = Figure()
>>> title = figure.subplots().set_title(r"a $\\frac{$ name")
>>> with text_as_written(figure):           # (without it: ValueError, "$\\frac{$" is no formula)
...     figure.savefig(io.BytesIO(), format="png")
>>> title.get_text(), title.get_parse_math(), title.get_usetex()
('a $\\\\frac{$ name', False, False)
"""

from __future__ import annotations

import contextlib
from typing import Any, Iterator

__all__ = ["text_as_written"]


@contextlib.contextmanager
def text_as_written(figure: Any) -> Iterator[None]:
    """Within the block, ``figure`` saves with every text drawn as written: the labels made so far
    (titles, names on the axes) and the tick labels made while drawing (no ``$...$`` maths, no LaTeX)."""
    import matplotlib
    from matplotlib.text import Text
    for text in figure.findobj(Text):       # labels made so far (titles, names on the axes)
        text.set_parse_math(False)
        text.set_usetex(False)
    with matplotlib.rc_context({"text.parse_math": False, "text.usetex": False}):     # and the tick labels drawn now
        yield
