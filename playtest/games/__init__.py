"""The games of the kit, one module each; importing this package registers them."""

from . import eat_thyself  # noqa: F401

__all__ = ["eat_thyself"]
