"""What a unit is worth and a scored line (RULES-MAP E8), shared by victory.py, victory_terms.py and
withdrawal.py. Pure.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping
from dataclasses import dataclass, field

from vassal_adj.model.geometry.hexes import Hex
from vassal_adj.model.units import Unit

__all__ = ["Item", "Label", "UnitValue", "strengths", "unit_value"]

Label = Callable[[Hex], str]


@dataclass(frozen=True)
class UnitValue:
    """What a unit is worth: its printed `fields` added, or for a unit of a kind in `by_kind`,
    those fields (a missing strength counts 0). Seed 000 22.11: attack + defense, barrage + FPF
    + defense for artillery; seed 003 Sc.2: a unit's steps."""

    fields: tuple[str, ...]
    by_kind: Mapping[str, tuple[str, ...]] = field(default_factory=dict, hash=False)

    def fields_of(self, unit: Unit) -> tuple[str, ...]:
        return self.by_kind.get(unit.kind, self.fields)

    def of(self, unit: Unit) -> int:
        return sum(getattr(unit, f) or 0 for f in self.fields_of(unit))

    def words(self, unit: Unit) -> str:
        """How the value is made up, for messages: "attack 5 + defense 3"."""
        return " + ".join(f"{f} {getattr(unit, f) or 0}" for f in self.fields_of(unit))


def strengths(artillery_kinds: Collection[str]) -> UnitValue:
    """22.11's value: attack + defense, or barrage + FPF + defense for the artillery kinds."""
    return UnitValue(("attack", "defense"), {k: ("barrage", "fpf", "defense") for k in artillery_kinds})


def unit_value(unit: Unit, artillery_kinds: Collection[str] = ("artillery",)) -> int:
    """A unit's victory-point value (22.11): its combat strengths added; a missing one is 0.

    >>> unit_value(Unit("1", "5-3-12 (2/7)", "Axis", "armor", 12, attack=5, defense=3))
    8
    """
    return strengths(artillery_kinds).of(unit)


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
