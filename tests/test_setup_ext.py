"""`setup.constraints` (rules/mechanisms/setup_quota.py, RULES-MAP N11), worked by hand from the seeds.

The seeds' hexes and areas are said on the example module's Kasserine board (labels "CCRR"):
"Bir Hacheim" is 1715 1716 1717 1815 1816 1817 1915 with minefields in 1716 and 1815; for
Kesselring's War, "Sicily" is the hexes of rows 20-26 west of column 11, "Sardinia" column
01-03 of rows 01-05, with a port at 0522 (Palermo) and an airfield at 0824 (Gerbini).
"""

from __future__ import annotations

import doctest
from typing import Any

import pytest
from example_board import layout

from vassal_adj.model.state import GameState, Position
from vassal_adj.model.terrain import Place, TerrainMap, TerrainVocabulary
from vassal_adj.model.units import Unit
from vassal_adj.rules.engine import RuleContext
from vassal_adj.rules.packs.pack import RuleConfig
from vassal_adj.rules.registry import Params, check_value, load_builtin_rules, lookup
from vassal_adj.rules.results import Finding, Severity


def run(state: GameState, ref: str = "Sc", **given: Any) -> list[Finding]:
    load_builtin_rules()
    im = lookup("setup.constraints")
    params = Params({**im.defaults(), **{k: check_value(im.types[k], v) for k, v in given.items()}})
    h = layout().hex_of
    voc = TerrainVocabulary(frozenset({"clear", "minefield"}), frozenset(), frozenset({"area", "port", "airfield"}))
    sicily = [x for x in layout().hexes() if layout().label_of(x)[2:] >= "20" and layout().label_of(x)[:2] < "11"]
    places = (
        Place(
            "Bir Hacheim",
            frozenset({"area"}),
            tuple(h(x) for x in ("1715", "1716", "1717", "1815", "1816", "1817", "1915")),
        ),
        Place("Sicily", frozenset({"area"}), tuple(sicily)),
        Place("Sardinia", frozenset({"area"}), tuple(h(f"{c:02}{r:02}") for c in (1, 2, 3) for r in range(1, 6))),
        Place("Palermo", frozenset({"port"}), (h("0522"),)),
        Place("Gerbini", frozenset({"airfield"}), (h("0824"),)),
    )
    terrain = TerrainMap(voc, hex_terrain={h("1716"): {"minefield"}, h("1815"): {"minefield"}}, named_places=places)
    rule = RuleConfig("r", "setup.constraints", ref, params, frozenset(given), {})
    return im.func(state, RuleContext(terrain.with_board(layout().hexes()), layout(), "g", rule=rule), params)


def at(label: str) -> Position:
    return Position(layout().hex_of(label), label)


def setup(placed: list[tuple[Unit, Position]], turn: int | None = None) -> GameState:
    return GameState({u.id: u for u, _ in placed}, {u.id: p for u, p in placed}, turn)


def gun(i: int) -> Unit:
    return Unit(f"g{i}", "Gun Unit", "Allied", "hidden-gun", 0)


def errors(found: list[Finding]) -> list[str]:
    return [f.message for f in found if f.severity == Severity.ERROR]


S4_3 = {
    "in": [{"units": {"names": ["Gun Unit"]}, "in": ["Bir Hacheim - terrain:minefield"], "rule_ref": "S4.3"}],
    "spacing": [{"units": {"names": ["Gun Unit"]}, "min_distance": 2, "rule_ref": "S4.3"}],
}


def test_s4_3_gun_units_apart_in_non_minefield_bir_hacheim_hexes() -> None:
    """No Question of Surrender S4.3: "no two 'Gun Unit' markers can be adjacent to each other or
    in the same hex, and all 'Gun Units' markers must setup within a Bir Hacheim hex" (Sc.1:
    "placed in any non-minfield Bir Hacheim hex"). 1715 and 1817 are 2 apart, 1915 is 2 from
    1717: legal."""
    assert run(setup([(gun(1), at("1715")), (gun(2), at("1817")), (gun(3), at("1915"))]), **S4_3) == []


def test_s4_3_adjacent_same_hex_minefield_and_outside_are_errors() -> None:
    """1716 (a minefield) is adjacent to 1715 (same column, next row); two markers share 1917,
    outside Bir Hacheim, two columns from the others."""
    found = errors(
        run(setup([(gun(1), at("1715")), (gun(2), at("1716")), (gun(3), at("1917")), (gun(4), at("1917"))]), **S4_3)
    )
    rule = "no two units named Gun Unit may be nearer than 2 hexes [S4.3]"
    assert sorted(found) == [
        "Allied Gun Unit (1716) is not set up in Bir Hacheim - terrain:minefield [S4.3]",
        "Allied Gun Unit (1917) is not set up in Bir Hacheim - terrain:minefield [S4.3]",
        "Allied Gun Unit (1917) is not set up in Bir Hacheim - terrain:minefield [S4.3]",
        f"Gun Unit (1715) and Gun Unit (1716) are 1 hex apart: {rule}",
        f"Gun Unit (1917) and Gun Unit (1917) are in the same hex: {rule}",
    ]


def test_sc3_one_antichar_in_each_of_three_hexes() -> None:
    """No Question of Surrender Sc.3: "3 randomly selected Antichar units (place one in each of
    16.12, 17.11, 20.10)"; and "1/1 RA FFL; 2/1 RA FFL (placed one in hex 19.17 and the other in
    22.12)". Two Antichar in 1612 and none in 2010 is one finding per hex; the artillery is right."""
    at_ = [Unit(f"a{i}", f"{i}/1 Antichar", "Allied", "antitank", 1) for i in (1, 2, 3)]
    ra = [Unit(f"r{i}", f"{i}/1 RA FFL", "Allied", "artillery", 1) for i in (1, 2)]
    rules = {
        "one_each": [
            {"units": {"kinds": ["antitank"]}, "hexes": ["1612", "1711", "2010"]},
            {"units": {"names": ["1/1 RA FFL", "2/1 RA FFL"]}, "hexes": ["1917", "2212"]},
        ]
    }
    assert (
        run(
            setup(
                [
                    (at_[0], at("1612")),
                    (at_[1], at("1711")),
                    (at_[2], at("2010")),
                    (ra[0], at("2212")),
                    (ra[1], at("1917")),
                ]
            ),
            **rules,
        )
        == []
    )
    found = run(
        setup(
            [(at_[0], at("1612")), (at_[1], at("1711")), (at_[2], at("1612")), (ra[0], at("2212")), (ra[1], at("1917"))]
        ),
        **rules,
    )
    assert errors(found) == [
        (
            "1612 holds 1/1 Antichar, 3/1 Antichar of the antitank units: one goes in each of 1612 "
            "and 1711 and 2010 [Sc]"
        ),
        "2010 holds none of the antitank units: one goes in each of 1612 and 1711 and 2010 [Sc]",
    ]


def test_sc_leaders_stack_with_a_unit_of_their_command() -> None:
    """No Question of Surrender, scenarios: "Leaders Amilakvary, de Roux, Champrosay stack with any
    Unit of their command." de Roux stacked with a unit of another formation is in error."""

    def u(uid: str, formation: str, leader: bool = False) -> Unit:
        return Unit(
            uid,
            uid,
            "Allied",
            "leader" if leader else "infantry",
            4,
            formation=formation,
            flags=frozenset({"leader"}) if leader else frozenset(),
        )

    rules = {"with": [{"units": {"flags": ["leader"]}, "of": {"not_flags": ["leader"]}, "same": "formation"}]}
    found = run(
        setup(
            [
                (u("Amilakvary", "13 DBLE", True), at("1715")),
                (u("II/13", "13 DBLE"), at("1715")),
                (u("de Roux", "BM 2", True), at("1816")),
                (u("BP 1", "BP 1"), at("1816")),
            ]
        ),
        **rules,
    )
    assert errors(found) == [
        ("Allied de Roux (1816) is not stacked with one of the units not leader of its own formation [Sc]")
    ]


GARRISON = {"flags": ["garrison"]}


def garrison(i: int, where: str) -> tuple[Unit, Position]:
    return Unit(f"gar{i}", f"Garrison {i}", "Axis", "garrison", 0, flags=frozenset({"garrison"})), at(where)


def test_27_1_at_most_four_german_units_in_sicily_and_sardinia() -> None:
    """Kesselring's War 27.1: "Mainland Italy, Sicily, Sardinia: 3rd, 15th, ... Important: A
    maximum of four units may start in Sicily and Sardinia, combined." Five: an error; and
    "Staging Area: 1st Parachute Division" in a box."""
    germans = [
        (Unit(f"d{i}", f"div {i}", "Axis", "infantry", 4, nationality="German"), at(w))
        for i, w in enumerate(("0521", "0622", "0101", "0203", "0921"))
    ]
    para = Unit("p", "1st Parachute", "Axis", "infantry", 4, nationality="German")
    rules = {
        "count": [{"units": {"nationalities": ["German"]}, "in": ["Sicily + Sardinia"], "max": 4, "rule_ref": "27.1"}],
        "in": [{"units": {"names": ["1st Parachute"]}, "boxes": ["Axis Staging Area"], "rule_ref": "27.1"}],
    }
    found = run(setup([*germans, (para, Position(box="Axis Staging Area"))]), **rules)
    assert errors(found) == ["German units set up in Sicily + Sardinia: 5, but at most 4 may be [27.1]"]
    found = run(setup([*germans[:4], (para, at("1010"))]), **rules)
    assert errors(found) == ["Axis 1st Parachute (1010) is not set up in box 'Axis Staging Area' [27.1]"]


def test_27_2_ten_garrisons_on_ports_and_airfields_on_game_turn_3() -> None:
    """Kesselring's War 27.2 (the scenario begins on GT 3): "Garrisons: Ten total, deployed on any
    cities, ports and/or airfields in mainland Italy." Two places here, so the quota is shown
    with min 2: one garrison short, on a Game-Turn 3 state with no phase; none on turn 4."""
    rules = {
        "in": [{"units": GARRISON, "in": ["place-kind:port + place-kind:airfield"], "rule_ref": "27.2"}],
        "count": [{"units": GARRISON, "in": ["place-kind:port + place-kind:airfield"], "min": 2, "rule_ref": "27.2"}],
        "setup_turn": 3,
    }
    assert errors(run(setup([garrison(1, "0522")], turn=3), **rules)) == [
        "units flagged garrison set up in place-kind:port + place-kind:airfield: 1, but at least 2 must be [27.2]"
    ]
    assert run(setup([garrison(1, "0522")], turn=4), **rules) == []
    assert run(setup([garrison(1, "0522"), garrison(2, "0824")], turn=3), **rules) == []


def test_7_5_a_garrison_with_a_friendly_mobile_unit_and_not_with_another_garrison() -> None:
    """Kesselring's War 7.5: "the unit may be placed in any city, port or airfield hex occupied by
    a friendly mobile ground unit. Important: The deployment hex cannot already contain a
    Garrison." Judged on a set-up state: with (distance 0) and spacing (min 1: not in one hex)."""
    mobile = Unit("m", "15 PzG", "Axis", "mechanized", 6, flags=frozenset({"mobile"}))
    enemy = Unit("e", "7th Armd", "Allied", "armor", 6, flags=frozenset({"mobile"}))
    rules = {
        "with": [{"units": GARRISON, "of": {"flags": ["mobile"]}, "rule_ref": "7.5"}],
        "spacing": [{"units": GARRISON, "min_distance": 1, "rule_ref": "7.5"}],
    }
    found = run(
        setup(
            [garrison(1, "0522"), garrison(2, "0522"), (mobile, at("0522")), garrison(3, "0824"), (enemy, at("0824"))]
        ),
        **rules,
    )
    assert sorted(errors(found)) == [
        "Axis Garrison 3 (0824) is not stacked with one of the units flagged mobile [7.5]",
        (
            "Garrison 1 (0522) and Garrison 2 (0522) are in the same hex: no two units flagged garrison may share a "
            "hex [7.5]"
        ),
    ]


def test_not_a_set_up_state_is_not_checked() -> None:
    assert run(setup([(gun(1), at("2020"))], turn=2), **S4_3) == []


@pytest.mark.parametrize(
    ("given", "words"),
    [
        ({"in": [{"units": {}}]}, r"in\[0\]: expected 'in' \(hexes, places or regions\) or 'boxes'"),
        ({"count": [{"units": {}, "in": ["0101"]}]}, r"count\[0\]: expected 'min', 'max' or both"),
        ({"count": [{"units": {}, "in": ["0101"], "min": 3, "max": 2}]}, r"count\[0\]: max 2 is below min 3"),
        ({"spacing": [{"units": {}, "min_distance": 0}]}, r"spacing\[0\].min_distance: expected a whole number >= 1"),
        ({"with": [{"units": {}, "of": {}, "same": "army"}]}, r"with\[0\].same: expected 'formation'"),
        ({"one_each": [{"units": {}, "hexes": ["0101-0103"]}]}, r"one_each\[0\].hexes: expected one hex"),
    ],
)
def test_bad_constraints_name_the_key(given: dict[str, Any], words: str) -> None:
    with pytest.raises(ValueError, match=words):
        run(setup([]), **given)


def test_doctests() -> None:
    from vassal_adj.rules import select
    from vassal_adj.rules.mechanisms import setup_quota

    assert doctest.testmod(setup_quota).failed == 0 and doctest.testmod(select).failed == 0
