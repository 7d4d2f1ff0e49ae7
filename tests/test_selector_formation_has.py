"""The unit selector's `formation_has` key (rules/select.py): a unit is picked when it, or a unit of
its formation, meets the inner selector. seed 001 10: "These EM and all their units can then, during
the exploitation phase, move" with only the EM marked sustained (its Sustained layer)."""

from __future__ import annotations

import pytest

from vassal_adj.model.units import Unit
from vassal_adj.rules.select import Selector, SelectorError, selector_at

EM = Unit("em", "EM 2-6 (HG)", "Axis", "em", 6, formation="HG", flags=frozenset({"em", "sustained"}))
JG = Unit("jg", "5-6-6-8 Jg HG (HG)", "Axis", "infantry", 6, formation="HG")
GREN = Unit("gr", "4-5-5-7 Gren 754 (334.ID)", "Axis", "infantry", 5, formation="334")
EM_334 = Unit("em334", "EM 2-5 (334.ID)", "Axis", "em", 5, formation="334", flags=frozenset({"em"}))
TIGER = Unit("t", "8-7-7-* sPzAbt 501/1", "Axis", "tiger", 7, flags=frozenset({"tiger"}))
FJR = Unit("fj", "5-6-5-9 FJR 5", "Axis", "infantry", 5)
UNITS = {u.id: u for u in (EM, JG, GREN, EM_334, TIGER, FJR)}
SUSTAINED = {"formation_has": {"kinds": ["em"], "flags": ["sustained"]}}


def test_10_a_unit_of_a_sustained_ems_division_is_picked() -> None:
    s = Selector.from_mapping(SUSTAINED, position=True)
    assert [u.id for u in UNITS.values() if s.matches(u, units=UNITS)] == ["em", "jg"]


def test_10_the_unit_itself_or_its_formation_tigers_and_panzer_flags() -> None:
    """10: "All the German armored divisions (Panzerdivision) and the Tiger units are always
    considered sustained": a flag on the unit itself is enough, and a unit of no formation (FJR 5)
    is picked only by its own flags."""
    s = Selector.from_mapping({"formation_has": {"flags": ["sustained", "tiger"]}}, position=True)
    assert [u.id for u in UNITS.values() if s.matches(u, units=UNITS)] == ["em", "jg", "t"]
    assert s.words() == "units of a formation with units flagged sustained or tiger"


def test_without_the_position_only_the_unit_itself_is_asked() -> None:
    s = Selector.from_mapping(SUSTAINED, position=True)
    assert not s.matches(JG) and s.matches(EM)


def test_a_rule_that_does_not_read_the_position_refuses_the_key() -> None:
    with pytest.raises(SelectorError, match="formation_has asks the other units of the position"):
        Selector.from_mapping(SUSTAINED)
    with pytest.raises(ValueError, match=r"^pools\[0\]\.units\.formation_has: formation_has asks"):
        selector_at(SUSTAINED, "pools[0].units")
    with pytest.raises(ValueError, match=r"^movers\.formation_has\.flag: unknown key"):
        selector_at({"formation_has": {"flag": ["x"]}}, "movers", position=True)
