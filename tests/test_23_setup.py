"""Kasserine 23 set-up and 23.72 (rules/mechanisms/setup.py, adapter `setup.deployment`), worked by hand.

The seed: "Place the following units in the hex listed for each" (3718 1-3-7 (2/168), ...),
"in or adjacent to the hex listed for each group. Units may not be stacked" (2714 2-1-14
(1/13), ...), "on or within two hexes of the hex listed" (0306 2-1-11 (894 and 805), ...).
23.72: "On the First Game-Turn, only, Allied units listed in the Initial Deployment (except
units within ten hexes of any Axis unit) may not be moved."

Hexes are labels of the example module's Kasserine board (columns 01-39, rows 01-26).
"""

from __future__ import annotations

import doctest
import re
import tomllib
from functools import cache
from pathlib import Path
from typing import Any

import pytest

import vassal_adj
from vassal_adj.errors import PackError
from vassal_adj.model.geometry.hexes import distance, neighbors
from vassal_adj.model.geometry.layout import HexLayout
from vassal_adj.model.geometry.maps import board_hex_layouts
from vassal_adj.model.state import GameState, Position
from vassal_adj.model.terrain import TerrainMap, TerrainVocabulary
from vassal_adj.model.units import Unit
from vassal_adj.rules.engine import RuleContext, adjudicate
from vassal_adj.rules.mechanisms import setup as order_of_battle
from vassal_adj.rules.packs.pack import RuleConfig, RulePack
from vassal_adj.rules.registry import Params, check_value, load_builtin_rules, lookup
from vassal_adj.rules.results import Finding, Severity

ROOT = Path(__file__).resolve().parents[1]
MODULE = ROOT / "modules" / "kasserine" / "example" / "Kasserine.vmod"
PACK = tomllib.loads((ROOT / "modules" / "kasserine" / "pack.toml").read_text(encoding="utf-8"))
GROUPS = PACK["rules"]["allied_setup"]["groups"]
SETUP = {k: v for k, v in PACK["rules"]["allied_setup"].items() if k not in ("impl", "rule_ref")}


@cache
def layout() -> HexLayout:
    if not MODULE.is_file():
        pytest.skip("Kasserine example module not built")
    (lay,) = board_hex_layouts(vassal_adj.load_module(MODULE).maps["Main Map"].boards["Kasserine"])
    return lay


def run(impl: str, state: GameState, ref: str = "23", **given: Any) -> list[Finding]:
    """The registered implementation `impl` run on `state` with these parameters, as the engine does."""
    load_builtin_rules()
    im = lookup(impl)
    params = {**im.defaults(), **{k: check_value(im.types[k], v) for k, v in given.items()}}
    rule = RuleConfig("r", impl, ref, Params(params), frozenset(given), {})
    ctx = RuleContext(TerrainMap(TerrainVocabulary(frozenset(), frozenset())), layout(), "kasserine", rule=rule)
    return im.func(state, ctx, rule.params)


def state(*units: tuple[str, str, str], turn: int | None = None, phase: str | None = None) -> GameState:
    """Units as (side, printed name, label or 'box:NAME'); ids are u0, u1, ..."""
    us, pos = {}, {}
    for i, (side, name, where) in enumerate(units):
        uid = f"u{i}"
        us[uid] = Unit(uid, name, side, "infantry", 7)
        pos[uid] = Position(box=where[4:]) if where.startswith("box:") else Position(layout().require(where), where)
    return GameState(us, pos, turn, phase)


def legal_setup() -> list[tuple[str, str, str]]:
    """Every unit of the pack's set-up on its own hex of its placement, none stacked."""
    taken: set[str] = set()
    out = []
    for g in GROUPS:
        centre = layout().require(g["at"])
        radius = {"exact": 0, "adjacent": 1}.get(g["placement"], g.get("distance", 0))
        free = sorted(lab for lab in layout().labels() if distance(layout().require(lab), centre) <= radius)
        for name in g["units"]:
            spot = next(lab for lab in ([g["at"]] + free) if lab not in taken)
            taken.add(spot)
            out.append(("Allied", name, spot))
    return out


def deploy(st: GameState, **over: Any) -> list[Finding]:
    """The findings of the set-up rule without its all-clear summary (`summary` tests that)."""
    return [f for f in run("setup.deployment", st, **{**SETUP, **over}) if " with no set-up finding " not in f.message]


def summary(st: GameState) -> list[str]:
    return [f.message for f in run("setup.deployment", st, **SETUP) if " with no set-up finding " in f.message]


def errors(found: list[Finding]) -> list[str]:
    return [f.message for f in found if f.severity == Severity.ERROR]


def moved(name: str, to: str) -> list[tuple[str, str, str]]:
    return [(s, n, to if n == name else w) for s, n, w in legal_setup()]


def hex_at(centre: str, d: int) -> str:
    """A board hex exactly `d` hexes from `centre` that the legal set-up leaves empty."""
    c, taken = layout().require(centre), {w for _, _, w in legal_setup()}
    return next(lab for lab in layout().labels() if distance(layout().require(lab), c) == d and lab not in taken)


def test_doctests() -> None:
    assert doctest.testmod(order_of_battle).failed == 0


def test_23_the_pack_set_up_lists_21_counters() -> None:
    assert sum(len(g["units"]) for g in GROUPS) == 21
    assert {g["placement"] for g in GROUPS} == {"exact", "adjacent", "within"}


def test_23_a_legal_set_up_has_no_finding() -> None:
    assert deploy(state(*legal_setup())) == []


def test_23_the_all_clear_is_said_at_set_up_and_on_turn_1_only() -> None:
    assert summary(state(*legal_setup())) == [
        "21 of 21 Allied units of the initial deployment are on the map at set-up with no set-up finding [23 set-up]"
    ]
    assert summary(state(*moved("1-3-7 (2/168)", "3719"))) == [
        "20 of 21 Allied units of the initial deployment are on the map at set-up with no set-up finding [23 set-up]"
    ]
    assert summary(state(*legal_setup(), turn=1, phase="axis-movement"))[0].startswith("21 of 21 Allied units")
    assert summary(state(*legal_setup(), turn=2, phase="axis-movement")) == []


def test_23_exact_hex_3718() -> None:
    # "3718 1-3-7 (2/168)": one hex away is already wrong.
    found = deploy(state(*moved("1-3-7 (2/168)", "3719")))
    assert errors(found) == ["Allied 1-3-7 (2/168) in 3719 is not at 3718 [23 set-up]"]
    assert found[0].rule == "kasserine:23" and found[0].hexes == ("3719",) and found[0].units


def test_23_adjacent_group_at_2714() -> None:
    # "in or adjacent to" 2714: the six neighbours are legal, a hex two away is not.
    for n in neighbors(layout().require("2714")):
        others = [u for u in legal_setup() if u[1] not in ("2-1-14 (1/13)",) and u[2] != layout().label_of(n)]
        assert errors(deploy(state(*others, ("Allied", "2-1-14 (1/13)", layout().label_of(n))))) == []
    assert distance(layout().require("2716"), layout().require("2714")) == 2
    assert errors(deploy(state(*moved("2-1-14 (1/13)", "2716")))) == [
        "Allied 2-1-14 (1/13) in 2716 is not in or adjacent to 2714 [23 set-up]"
    ]


def test_23_within_two_of_0306() -> None:
    # "on or within two hexes of" 0306: distance 2 is legal, 3 is not.
    two, three = hex_at("0306", 2), hex_at("0306", 3)
    assert errors(deploy(state(*moved("2-1-11 (894)", two)))) == []
    assert errors(deploy(state(*moved("2-1-11 (894)", three)))) == [
        f"Allied 2-1-11 (894) in {three} is not on or within 2 hexes of 0306 [23 set-up]"
    ]


def test_23_printed_name_without_space_is_the_same_counter() -> None:
    # The seed prints "0914 2-1-14(1/1)"; the piece may be named either way.
    units = [(s, "2-1-14(1/1)" if n == "2-1-14 (1/1)" else n, w) for s, n, w in legal_setup()]
    assert deploy(state(*units)) == []
    units = [(s, n, "0917" if n == "2-1-14(1/1)" else w) for s, n, w in units]
    assert errors(deploy(state(*units))) == ["Allied 2-1-14 (1/1) in 0917 is not in or adjacent to 0914 [23 set-up]"]


def test_23_no_stacking_at_set_up() -> None:
    # "Units may not be stacked": two units of the 2714 group both in 2714.
    found = deploy(state(*moved("2-3-11 (1/6)", "2714")))
    assert errors(found) == [
        ("Allied 2-1-14 (1/13), 2-3-11 (1/6) are stacked in 2714: units may not be stacked [23 set-up]")
    ]
    assert errors(deploy(state(*moved("2-3-11 (1/6)", "2714")), no_stacking=False)) == []


def test_23_a_listed_unit_off_the_map_at_set_up_is_an_error() -> None:
    found = deploy(state(*moved("1-2-7 (1/168)", "box:Turn 1")))
    assert errors(found) == [
        ("Allied 1-2-7 (1/168) is not on the map (box 'Turn 1') but should be on or within 2 hexes of 1220 [23 set-up]")
    ]
    assert found[0].hexes == ()


def test_23_a_listed_unit_missing_from_the_save_is_a_warning() -> None:
    found = deploy(state(*[u for u in legal_setup() if u[1] != "1-3-7 (19)"]))
    assert [(f.severity, f.message) for f in found] == [
        (
            Severity.WARNING,
            ("Allied 1-3-7 (19), which the set-up places in or adjacent to 1703, is not in the save [23 set-up]"),
        )
    ]


def test_23_axis_units_are_not_part_of_the_allied_set_up() -> None:
    # An Axis piece of a designation the Allied list shares is not the Allied counter.
    assert deploy(state(*legal_setup(), ("Axis", "2-1-7 (1/1)", "3901"))) == []


def test_23_72_frozen_unit_moved_on_turn_1_is_an_error() -> None:
    # No Axis unit on the map: 1-3-7 (2/168) may not have left 3718.
    found = deploy(state(*moved("1-3-7 (2/168)", "3618"), turn=1, phase="allied-movement"))
    assert errors(found) == [
        (
            "Allied 1-3-7 (2/168) (3618) is not at 3718 on Game-Turn 1: units of the initial "
            "deployment may not be moved unless within 10 hexes of an enemy unit, and none is "
            "[23.72]"
        )
    ]


def test_23_72_unit_within_ten_of_axis_may_move() -> None:
    # An Axis unit exactly ten hexes from 3618 makes the move legal; eleven from both 3618 and 3718 does not.
    ten = hex_at("3618", 10)
    found = deploy(
        state(*moved("1-3-7 (2/168)", "3618"), ("Axis", "5-3-12 (2/7)", ten), turn=1, phase="allied-movement")
    )
    assert errors(found) == []
    assert [f.severity for f in found] == [Severity.INFO] and "[23.72]" in found[0].message
    assert f"Axis 5-3-12 (2/7) in {ten} is within 10 hexes" in found[0].message
    far = next(
        lab
        for lab in layout().labels()
        if min(distance(layout().require(lab), layout().require(x)) for x in ("3618", "3718")) == 11
    )
    found = deploy(
        state(*moved("1-3-7 (2/168)", "3618"), ("Axis", "5-3-12 (2/7)", far), turn=1, phase="allied-movement")
    )
    assert len(errors(found)) == 1 and "[23.72]" in errors(found)[0]


def test_23_72_a_unit_at_its_placement_on_turn_1_is_not_questioned() -> None:
    assert deploy(state(*legal_setup(), turn=1, phase="allied-combat")) == []


def test_23_72_off_the_map_on_turn_1() -> None:
    # Eliminated far from any Axis unit: it cannot have fought, and may not have moved.
    found = deploy(state(*moved("1-2-7 (1/168)", "box:Eliminated"), turn=1, phase="allied-combat"))
    assert len(errors(found)) == 1 and "1-2-7 (1/168) (box 'Eliminated')" in errors(found)[0]
    near = deploy(
        state(
            *moved("1-2-7 (1/168)", "box:Eliminated"), ("Axis", "5-3-12 (2/7)", "1221"), turn=1, phase="allied-combat"
        )
    )
    assert errors(near) == [] and [f.severity for f in near] == [Severity.INFO]


def test_23_72_stack_of_frozen_units_on_turn_1_is_a_set_up_stack() -> None:
    st = state(*moved("2-3-11 (1/6)", "2714"), turn=1, phase="axis-movement")
    assert [f.message for f in deploy(st)][-1].startswith("Allied 2-1-14 (1/13), 2-3-11 (1/6) are stacked in 2714")
    near = state(*moved("2-3-11 (1/6)", "2714"), ("Axis", "5-3-12 (2/7)", "2720"), turn=1, phase="axis-movement")
    assert not any("stacked" in m for m in errors(deploy(near)))


def test_23_72_after_game_turn_one_units_move_freely() -> None:
    assert deploy(state(*moved("1-3-7 (2/168)", "0101"), turn=2, phase="allied-movement")) == []
    assert deploy(state(*moved("1-3-7 (2/168)", "0101"), turn=1), frozen_turn=0) == []


def test_23_a_state_with_a_phase_but_no_turn_is_not_judged() -> None:
    found = deploy(state(*moved("1-3-7 (2/168)", "0101"), phase="allied-movement"))
    assert [f.severity for f in found] == [Severity.INFO] and "no Game-Turn" in found[0].message


@pytest.mark.parametrize(
    ("group", "message"),
    [
        (
            {"at": "2714", "placement": "near", "units": ["x"]},
            "groups[0].placement: expected 'exact', 'adjacent' or 'within', got 'near'",
        ),
        ({"at": "2714", "placement": "exact", "units": ["x"], "hex": "1"}, "groups[0].hex: unknown key"),
        (
            {"at": "0306", "placement": "within", "units": ["x"]},
            "groups[0].distance: missing required key for placement 'within'",
        ),
        (
            {"at": "0306", "placement": "adjacent", "distance": 2, "units": ["x"]},
            "groups[0].distance: only placement 'within' takes a distance",
        ),
        ({"at": "0306", "placement": "exact", "units": []}, "groups[0].units: expected a non-empty list"),
        ({"at": "4099", "placement": "exact", "units": ["x"]}, "groups[0].at '4099'"),
        ({"at": "0306-0307", "placement": "exact", "units": ["x"]}, "groups[0].at: expected one hex"),
        ({"placement": "exact", "units": ["x"]}, "groups[0].at: missing required key"),
    ],
)
def test_23_bad_groups_name_the_key_path(group: dict[str, Any], message: str) -> None:
    with pytest.raises(ValueError, match="^" + re.escape(message)):
        deploy(state(), groups=[group])


def test_23_the_engine_reports_a_bad_group_as_a_pack_error() -> None:
    data = {
        **PACK,
        "rules": {
            "allied_setup": {
                **PACK["rules"]["allied_setup"],
                "groups": [{"at": "2714", "placement": "near", "units": ["x"]}],
            }
        },
    }
    pack = RulePack.from_mapping(data)
    ctx = RuleContext(TerrainMap(TerrainVocabulary(frozenset(), frozenset())), layout(), "kasserine")
    with pytest.raises(PackError, match=r"rules\.allied_setup: groups\[0\]\.placement: expected"):
        adjudicate(state(), pack, ctx)
