"""What kind of game it is, declared as OpenSpiel declares it: dynamics, chance, information,
utility and the longest game. The kernel reads it to keep secrets safe by default.

>>> GameType(dynamics="simultaneous").secret          # orders are secret until revealed
True
>>> GameType(dynamics="simultaneous", public_orders=True).secret
False
>>> GameType(information="partial")
Traceback (most recent call last):
...
playtest.DeclarationError: GameType.information must be one of perfect, imperfect, not 'partial'
"""

from __future__ import annotations

from dataclasses import dataclass

from .fieldtypes import DeclarationError

__all__ = ["GameType", "DYNAMICS", "INFORMATION", "UTILITY"]

DYNAMICS = ("sequential", "simultaneous")
INFORMATION = ("perfect", "imperfect")
UTILITY = ("zero_sum", "constant_sum", "general_sum")


@dataclass(frozen=True)
class GameType:
    """A game's declared type.

    * ``dynamics``: ``"sequential"`` (one seat acts at a time) or ``"simultaneous"`` (seats
      submit orders together; see :data:`playtest.SIMULTANEOUS`);
    * ``chance``: whether chance steps happen (dice, deals, shuffles);
    * ``information``: ``"perfect"`` (every seat may see everything) or ``"imperfect"``;
    * ``utility``: ``"zero_sum"`` (win/loss/draw or returns summing to 0), ``"constant_sum"``
      or ``"general_sum"``;
    * ``max_length``: the most actions a game can take, when known (``None``: unbounded);
    * ``public_orders``: in a simultaneous game, whether every seat may see the others' orders
      while they are being built (default: no, they are secret until revealed).
    """

    dynamics: str = "sequential"
    chance: bool = False
    information: str = "perfect"
    utility: str = "zero_sum"
    max_length: int | None = None
    public_orders: bool = False

    def __post_init__(self) -> None:
        for name, allowed in (("dynamics", DYNAMICS), ("information", INFORMATION), ("utility", UTILITY)):
            value = getattr(self, name)
            if value not in allowed:
                raise DeclarationError(f"GameType.{name} must be one of {', '.join(allowed)}, not {value!r}")
        for name in ("chance", "public_orders"):
            if type(getattr(self, name)) is not bool:
                raise DeclarationError(f"GameType.{name} must be true or false, not {getattr(self, name)!r}")
        if self.max_length is not None and (type(self.max_length) is not int or self.max_length < 1):
            raise DeclarationError(f"GameType.max_length must be a whole number of at least 1 or None, "
                                   f"not {self.max_length!r}")
        if self.public_orders and self.dynamics != "simultaneous":
            raise DeclarationError("GameType.public_orders is for simultaneous games only")

    @property
    def secret(self) -> bool:
        """True when some seat may not know everything: hidden information, or secret orders."""
        return self.information == "imperfect" or (self.dynamics == "simultaneous" and not self.public_orders)
