"""Unit selectors (rules/select.py, RULES-MAP N3): the one way a rule picks units, worked from the rules' words."""

from __future__ import annotations

import pytest

from vassal_adj.model.units import Unit
from vassal_adj.rules.registry import check_value
from vassal_adj.rules.select import Selector, SelectorError


def unit(name: str, side: str = "Axis", kind: str = "armor", **kw: object) -> Unit:
    return Unit(name, name, side, kind, 6, **kw)  # type: ignore[arg-type]


def test_12_tiger_and_5_1_em_picked_by_flags() -> None:
    """Tunisia 1943, 12: 'A Tiger counter (and one only) can stack in addition of the limit of two units
    per hex'; 5.1: 'the following do not influence stacking: ... the EM counters; the Tiger units'.
    The Tigers are { flags = ["tiger"] }; the combat units the limit of two counts are the others."""
    tigers = Selector.from_mapping({"flags": ["tiger"]})
    combat = Selector.from_mapping({"not_flags": ["tiger", "em"]})
    tiger, em, panzer = (
        unit("Tiger 1/501", flags=frozenset({"tiger"})),
        unit("EM 10", flags=frozenset({"em"})),
        unit("Pz 7"),
    )
    assert [tigers.matches(u) for u in (tiger, em, panzer)] == [True, False, False]
    assert [combat.matches(u) for u in (tiger, em, panzer)] == [False, False, True]


def test_9_1b_army_is_a_group_field() -> None:
    """Tunisia 1943, 9.1b: the EM traces 'to a map edge, city or harbour of its army': units of the
    VIII Army are { groups = { army = ["VIII Army"] } }, and a unit with no army is not one of them."""
    viii = Selector.from_mapping({"sides": ["Allied"], "groups": {"army": ["VIII Army"]}})
    assert viii.matches(unit("7 Armd", "Allied", groups={"army": "VIII Army"}))
    assert not viii.matches(unit("1 Armd Div", "Allied", groups={"army": "1st British"}))
    assert not viii.matches(unit("CCA", "Allied"))
    assert not viii.matches(unit("21 Pz", "Axis", groups={"army": "VIII Army"}))


def test_20_4_one_contingent_and_3_3_size_range() -> None:
    """Kesselring's War, 20.4: 'Air units of different Contingents may not be combined in the same
    mission'; 10.1: 'Three mobile ground units of any size'. A contingent is a group field; a size read
    from the counter is an attribute, matched by an inclusive range (a missing one never matches)."""
    us = Selector.from_mapping({"kinds": ["air"], "groups": {"contingent": ["US"]}})
    assert us.matches(unit("P-38", "Allied", "air", groups={"contingent": "US"}))
    assert not us.matches(unit("Spitfire", "Allied", "air", groups={"contingent": "Commonwealth"}))
    below_division = Selector.from_mapping({"attrs": {"size": [1, 3]}})
    assert below_division.matches(unit("reg", attrs={"size": 3}))
    assert not below_division.matches(unit("div", attrs={"size": 4}))
    assert not below_division.matches(unit("unknown size"))
    assert not below_division.matches(unit("word size", attrs={"size": "XX"}))


def test_20_2_2_full_strength_garrison_by_steps() -> None:
    """Kesselring's War, 20.2.2: 'Airfield with a full-strength garrison: two air units. Airfield with a
    reduced garrison unit: one air unit.' attrs also reads the printed numbers, such as steps."""
    full = Selector.from_mapping({"kinds": ["garrison"], "attrs": {"steps": 2}})
    assert full.matches(unit("Gar Foggia", "Allied", "garrison", steps=2))
    assert not full.matches(unit("Gar Foggia", "Allied", "garrison", steps=1))


def test_words_names_and_boxes() -> None:
    """Names are the printed names, whitespace collapsed; boxes are off-map boxes (a unit on the map is in none)."""
    s = Selector.from_mapping({"names": ["3-2-11  (31)"], "attrs": {"type": ["TAC", "STR"]}})
    assert s.matches(unit("3-2-11 (31)", attrs={"type": "TAC"}))
    assert not s.matches(unit("3-2-11 (31)", attrs={"type": "NAV"}))
    staging = Selector.from_mapping({"boxes": ["Allied Staging Area"]})
    assert staging.matches(unit("B-17"), box="Allied Staging Area")
    assert not staging.matches(unit("B-17"))
    assert Selector.from_mapping({}).matches(unit("anything"))


@pytest.mark.parametrize(
    ("data", "at", "words"),
    [
        ({"side": ["Axis"]}, ("side",), "unknown key"),
        ({"flags": "tiger"}, ("flags",), "not the string"),
        ({"kinds": ["armor", 3]}, ("kinds", 1), "expected a name"),
        ({"groups": {"corps": ["XXX"]}}, ("groups", "corps"), "unknown group field"),
        ({"attrs": {"size": [3, 1]}}, ("attrs", "size"), "empty"),
        ({"attrs": {"size": [1, 2, 3]}}, ("attrs", "size"), "range [lo, hi]"),
        ({"attrs": {"size": True}}, ("attrs", "size"), "expected a whole number"),
    ],
)
def test_a_bad_selector_names_the_key_path(data: dict, at: tuple, words: str) -> None:
    with pytest.raises(SelectorError) as e:
        Selector.from_mapping(data)
    assert e.value.at == at and words in str(e.value)


def test_selector_parameter_type_is_checked_by_the_registry() -> None:
    """A parameter of type "selector" is validated when the pack loads, and kept as plain data."""
    value = check_value("selector", {"flags": ["tiger"], "attrs": {"size": [1, 3]}})
    assert Selector.from_mapping(value).matches(unit("t", flags=frozenset({"tiger"}), attrs={"size": 2}))
    with pytest.raises(ValueError, match="expected a table"):
        check_value("selector", ["tiger"])
