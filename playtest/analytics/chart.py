"""A plot the analytics return: a matplotlib figure that notebooks display as a picture.

A bare ``matplotlib.figure.Figure`` made without pyplot shows as text
(``<Figure size 600x250 with 1 Axes>``) in a notebook that never imported
pyplot; a :class:`Chart` shows as a PNG in JupyterLab, Voila and nbval whatever
the backend, and ``chart.figure`` is the figure itself (to change or save it).

Text on a chart (a tester's name, a session's file name, a note) is drawn as it is written:
matplotlib's ``$...$`` maths and LaTeX are off for every label (:mod:`playtest._figures`), so a
name like ``$\\frac{$`` neither fails the drawing nor turns into a formula.
"""

from __future__ import annotations

import io
from typing import Any

from .._figures import text_as_written

__all__ = ["Chart", "new_figure"]


def new_figure(width: float, height: float) -> Any:
    """A figure made without pyplot (no global state, no window, no backend needed)."""
    from matplotlib.figure import Figure
    return Figure(figsize=(width, height), layout="constrained")


class Chart:
    """A matplotlib figure with a title; displays as a PNG picture in notebooks."""

    def __init__(self, figure: Any, title: str):
        self.figure = figure
        self.title = title

    def _repr_png_(self) -> bytes:
        return self.png()

    def png(self, dpi: int = 100) -> bytes:
        """The picture as PNG bytes."""
        buffer = io.BytesIO()
        self.savefig(buffer, format="png", dpi=dpi)
        return buffer.getvalue()

    def savefig(self, path: Any, **kwargs: Any) -> None:
        """Save the picture (any format matplotlib writes: png, svg, pdf)."""
        from matplotlib.backends.backend_agg import FigureCanvasAgg
        FigureCanvasAgg(self.figure)
        with text_as_written(self.figure):
            self.figure.savefig(path, **kwargs)

    def __repr__(self) -> str:
        return f"<Chart: {self.title}>"
