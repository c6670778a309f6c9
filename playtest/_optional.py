"""Optional libraries (the ``lab`` extra: pandas, matplotlib, scipy, ...), asked for by what needs them.

A kit without them still plays, records and merges sessions (a browser kernel under
JupyterLite has none of them: no browser wheels on the registry). What needs one says
so in one line, naming the library, what needs it and what to do, instead of a bare
import error from deep inside:

>>> need("json", "reading").__name__
'json'
>>> need("no_such_library_xyz", "this example")
Traceback (most recent call last):
...
playtest._optional.MissingDependency: this example needs no_such_library_xyz, which this Python does not have: install the kit's lab extra (pip install "playtest-kit[lab]"), or run it in JupyterLab (./dev.sh lab)
"""

from __future__ import annotations

import importlib
import sys
from types import ModuleType

__all__ = ["MissingDependency", "need"]


class MissingDependency(ImportError):
    """A library of the ``lab`` extra that this Python does not have (an ``ImportError``)."""


def need(module: str, purpose: str) -> ModuleType:
    """``module`` imported, or :class:`MissingDependency` saying that ``purpose`` needs it, in one line."""
    try:
        return importlib.import_module(module)
    except ImportError as err:
        top = module.split(".")[0]
        if err.name is not None and err.name.split(".")[0] != top:
            raise                        # the library is there but broken: its own error says why
        where = (" (a browser kernel, JupyterLite, has no pandas, matplotlib or scipy)"
                 if sys.platform == "emscripten" else "")
        raise MissingDependency(f"{purpose} needs {top}, which this Python does not have{where}: install the "
                                f"kit's lab extra (pip install \"playtest-kit[lab]\"), or run it in JupyterLab "
                                f"(./dev.sh lab)", name=top) from None
