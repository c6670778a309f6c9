"""The lab's figures: matplotlib figures that display as pictures wherever they are shown.

A :class:`matplotlib.figure.Figure` made without ``pyplot`` (the lab never touches the global
pyplot state) has no picture of its own: a notebook shows it as the text ``<Figure size
600x250 with 1 Axes>`` unless pyplot's inline backend happens to be active. The lab's
:class:`Figure` renders itself as a PNG (``_repr_png_``), so it displays in JupyterLab, Voila
and nbval alike, with or without pyplot. Import this module only when plotting: it needs
matplotlib (the ``lab`` extra).

>>> figure = interval_plot({"A": 0.1, "B": -0.05}, low={"A": 0.0, "B": -0.2}, high={"A": 0.2, "B": 0.1},
...                        xlabel="advantage")
>>> figure._repr_png_()[:8] == b"\\x89PNG\\r\\n\\x1a\\n"
True
"""

from __future__ import annotations

import io
import math
from typing import Any, Iterable, Mapping

from matplotlib.figure import Figure as _MatplotlibFigure
from matplotlib.ticker import MaxNLocator, PercentFormatter

from .._figures import text_as_written

__all__ = ["Figure", "interval_plot", "integer_ticks", "percent_axis"]


class Figure(_MatplotlibFigure):
    """A matplotlib figure that shows itself as a PNG picture in a notebook (``_repr_png_``).

    Its labels (seat and bot names, parameter values) are drawn as written: matplotlib's ``$...$``
    maths and LaTeX are off (:mod:`playtest._figures`), so a name like ``$\\frac{$`` neither fails the
    drawing nor becomes a formula."""

    def _repr_png_(self) -> bytes:
        buffer = io.BytesIO()
        self.savefig(buffer, format="png", bbox_inches="tight")
        return buffer.getvalue()

    def savefig(self, fname: Any, *args: Any, **kwargs: Any) -> None:
        with text_as_written(self):
            super().savefig(fname, *args, **kwargs)


def integer_ticks(axis: Any, values: Iterable[Any]) -> None:
    """Ticks at whole numbers only: at each value when there are few, else whole numbers chosen by matplotlib."""
    values = list(values)
    if len(values) <= 12:
        axis.set_ticks(values, [str(v) for v in values])
    else:
        axis.set_major_locator(MaxNLocator(integer=True))


def percent_axis(axis: Any) -> None:
    """Label a share (0 to 1) as a percentage."""
    axis.set_major_formatter(PercentFormatter(1.0, decimals=0))


def _as_dict(values: Any) -> dict[Any, float]:
    if isinstance(values, Mapping):
        return dict(values)
    if hasattr(values, "items"):                 # a pandas Series: its index gives the labels
        return dict(values.items())
    return dict(enumerate(values))


def interval_plot(values: Any, low: Any, high: Any, *, xlabel: str = "", title: str = "",
                  reference: float | None = 0.0, percent: bool = True) -> Figure:
    """One row per label: the value as a dot and its interval as a bar (a forest plot).

    ``values``, ``low`` and ``high`` are mappings (or pandas Series) from a label to a number;
    labels whose value is missing (NaN) are left out. ``reference`` draws a grey line (the
    "no difference" mark); ``percent`` labels the axis as percentages.
    """
    centre, lows, highs = _as_dict(values), _as_dict(low), _as_dict(high)
    labels = [k for k, v in centre.items() if v is not None and not (isinstance(v, float) and math.isnan(v))]
    if not labels:
        raise ValueError("interval_plot: no value to plot (every value is missing)")
    figure = Figure(figsize=(6, 0.6 + 0.45 * len(labels)), layout="constrained")
    ax = figure.subplots()
    xs = [float(centre[k]) for k in labels]
    errors = [[x - float(lows[k]) for x, k in zip(xs, labels)], [float(highs[k]) - x for x, k in zip(xs, labels)]]
    ax.errorbar(xs, range(len(labels)), xerr=errors, fmt="o", capsize=4)
    if reference is not None:
        ax.axvline(reference, color="grey", lw=1)
    ax.set_yticks(range(len(labels)), [str(k) for k in labels])
    ax.invert_yaxis()                           # the first label on top, as in the table
    if percent:
        percent_axis(ax.xaxis)
    ax.set_xlabel(xlabel)
    if title:
        ax.set_title(title)
    return figure
