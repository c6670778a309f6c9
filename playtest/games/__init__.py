"""The games of the kit, one module (or package) each; importing this package registers them all.

``playtest.games`` is both this package and the function that lists the games:

>>> import playtest
>>> import playtest.games.source
>>> "source" in playtest.games()
True
>>> playtest.games.source.Source.name
'source'
"""

import importlib
import pkgutil
import sys
import types

__all__ = []
for _module in pkgutil.iter_modules(__path__):
    if not _module.name.startswith("_"):
        try:
            importlib.import_module(f"{__name__}.{_module.name}")
        except Exception as _exc:        # one broken game is reported; the others load (playtest.broken_games())
            from ..kernel.registry import report_broken
            report_broken(f"{__name__}.{_module.name}", _exc)
            continue
        __all__.append(_module.name)


class _GamesPackage(types.ModuleType):
    """This package, callable: ``playtest.games()`` lists the games' names."""

    def __call__(self) -> list[str]:
        from ..rules import games
        return games()


sys.modules[__name__].__class__ = _GamesPackage
