"""What a unit is worth and a scored line (RULES-MAP E8), shared by victory.py and
withdrawal.py. Pure.
"""

from __future__ import annotations

from collections.abc import Callable, Collection
from dataclasses import dataclass

from vassal_adj.model.geometry.hexes import Hex
from vassal_adj.model.units import Unit

__all__ = ["Item", "Label", "unit_value", "value_words"]

Label = Callable[[Hex], str]


def _value_fields(unit: Unit, artillery_kinds: Collection[str]) -> tuple[str, ...]:
    return ("barrage", "fpf", "defense") if unit.kind in artillery_kinds else ("attack", "defense")


def unit_value(unit: Unit, artillery_kinds: Collection[str] = ("artillery",)) -> int:
    """A unit's victory-point value (22.11): its combat strengths added; a missing one is 0.

    >>> unit_value(Unit("1", "5-3-12 (2/7)", "Axis", "armor", 12, attack=5, defense=3))
    8
    """
    return sum(getattr(unit, f) or 0 for f in _value_fields(unit, artillery_kinds))


def value_words(unit: Unit, artillery_kinds: Collection[str]) -> str:
    """How the value is made up, for messages: "attack 5 + defense 3"."""
    return " + ".join(f"{f} {getattr(unit, f) or 0}" for f in _value_fields(unit, artillery_kinds))




@dataclass(frozen=True)
class Item:
    """One scored line; `index` is the state (position in the history) from which it counts."""

    rule_ref: str
    text: str
    points: int
    turn: int | None
    index: int
    units: tuple[str, ...] = ()
    hexes: tuple[str, ...] = ()
