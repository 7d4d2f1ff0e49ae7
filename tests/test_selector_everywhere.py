"""One unit selector (rules/select.py, RULES-MAP N3) in every rule that picks units: the keys the
local matchers had (nationalities, printed names), key paths in errors, and "$name" values of a
segment's opener put in before the selector is built."""

from __future__ import annotations

import pytest

from vassal_adj.model.units import Unit
from vassal_adj.rules.mechanisms.movement_mods import allowance_modifiers
from vassal_adj.rules.segments import Opened, movers_in
from vassal_adj.rules.select import Selector, selector_at


def test_nqos_italian_units_are_picked_by_nationality() -> None:
    """No Question of Surrender: counters are "light green (Italian, 103 Ariete Divisione) ... blue
    (French, 1re Brigade Française Libre)"; Sc.2 scores "each unsuppressed Italian Unit in a Fortress
    hex". { nationalities = ["Italian"] } takes the Ariete unit, not the French one."""
    italian = Selector.from_mapping({"sides": ["Axis"], "nationalities": ["Italian"]})
    assert italian.matches(Unit("a", "Ariete", "Axis", "armor", 6, nationality="Italian"))
    assert not italian.matches(Unit("f", "1/1 BLE", "Allied", "infantry", 4, nationality="French"))
    assert not italian.matches(Unit("g", "90 le", "Axis", "infantry", 4, nationality="German"))
    assert italian.words() == "Italian Axis units"


def test_23_a_printed_name_matches_however_it_is_spaced() -> None:
    """Kasserine 23: "Place the following units in the hex listed for each" ("0914 2-1-14(1/1)"): the
    piece may be named "2-1-14 (1/1)" or "2-1-14(1/1)"; a name in a selector is either."""
    named = Selector.from_mapping({"names": ["2-1-14(1/1)"]})
    assert named.matches(Unit("x", "2-1-14  (1/1)", "Allied", "infantry", 14))
    assert not named.matches(Unit("y", "2-1-14 (1/6)", "Allied", "infantry", 14))


def test_a_bad_selector_names_its_full_key_path() -> None:
    with pytest.raises(ValueError, match=r"^restrictions\[0\]\.units\.names\[1\]: expected a name, got 3$"):
        selector_at({"names": ["a", 3]}, "restrictions[0].units")
    with pytest.raises(ValueError, match=r"^allowance_modifiers\[0\]\.sides: expected a list of names"):
        allowance_modifiers([{"sides": "Axis", "cap": 3}])


def test_nqos_a_formation_chit_moves_its_division_by_group() -> None:
    """No Question of Surrender: "The 13 DBLE Formation Activation Chit" activates the units of that
    formation. The chit's value is put in first, so "$formation" works in any key, a group field too."""
    movers = {"sides": ["Allied"], "groups": {"division": ["$formation"]}}
    chit = Opened("activation", {"formation": "13 DBLE"})
    picked = movers_in(movers, chit, "activation")
    assert picked.matches(Unit("d", "2/13 DBLE", "Allied", "infantry", 4, groups={"division": "13 DBLE"}))
    assert not picked.matches(Unit("b", "1/1 BLE", "Allied", "infantry", 4, groups={"division": "1 BFL"}))


def test_a_movers_selector_that_does_not_fit_names_its_key_path() -> None:
    with pytest.raises(ValueError, match=r"^movers: expected a list of names.*\(at movers\.\*\.sides\)$"):
        movers_in({"sides": "$side"}, Opened("segment", {"side": "Axis"}), "*")


def test_9_2_an_out_of_supply_unit_but_not_an_em_is_capped_at_one() -> None:
    """Tunisia 1943 9.2: an out of supply unit "cannot use more than one movement point", an out of
    supply EM "only ... two": the first row needs every selector key, not_flags included."""
    rows = allowance_modifiers(
        [{"flags": ["out-of-supply"], "not_flags": ["em"], "cap": 1}, {"flags": ["out-of-supply"], "cap": 2}]
    )
    cut = frozenset({"out-of-supply"})
    assert rows[0].apply(Unit("u", "2-2-8", "Axis", "infantry", 8, flags=cut), None, 8) == 1
    assert rows[0].apply(Unit("e", "EM", "Axis", "em", 8, flags=cut | {"em"}), None, 8) is None
    assert rows[1].apply(Unit("e", "EM", "Axis", "em", 8, flags=cut | {"em"}), None, 8) == 2
