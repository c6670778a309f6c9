"""The games of the kit, one module each; importing this package registers them all."""

import importlib
import pkgutil

__all__ = []
for _module in pkgutil.iter_modules(__path__):
    if not _module.name.startswith("_"):
        importlib.import_module(f"{__name__}.{_module.name}")
        __all__.append(_module.name)
