"""Stacking pools (impl stacking.pools, rules/mechanisms/stacking.py; RULES-MAP N8), worked by hand from the
rules' words.

Each pool is a unit selector with its own limit, counted apart; units in no pool do not count.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner
from conftest import REPO
from test_vassal_accepts import oracle_pieces

from vassal_adj import cli
from vassal_adj.model.geometry.hexes import Hex
from vassal_adj.model.state import GameState, Position
from vassal_adj.model.terrain import TerrainMap, TerrainVocabulary
from vassal_adj.model.units import Unit
from vassal_adj.rules.engine import RuleContext
from vassal_adj.rules.mechanisms.stacking import pools_from
from vassal_adj.rules.mechanisms.stacking_rules import stacking_pools
from vassal_adj.rules.registry import Params, load_builtin_rules
from vassal_adj.rules.results import Severity

CTX = RuleContext(TerrainMap(TerrainVocabulary(frozenset(), frozenset())), None, "test")
HEX = Hex.from_raw(3, 3)


def u(uid: str, side: str = "Axis", kind: str = "infantry", flags: tuple[str, ...] = (), steps: int = 1) -> Unit:
    return Unit(uid, uid, side, kind, 6, steps=steps, flags=frozenset(flags))


def check(
    units: list[Unit],
    pools: list[dict],
    *,
    turn: int | None = 2,
    phase: str | None = "movement",
    where: dict[str, Hex] | None = None,
    **given: object,
) -> list:
    p = Params({**load_builtin_rules().lookup("stacking.pools").defaults(), "pools": pools, **given})
    state = GameState(
        {x.id: x for x in units}, {x.id: Position((where or {}).get(x.id, HEX), "0303") for x in units}, turn, phase
    )
    return stacking_pools(state, CTX, p)


def overstacks(found: list) -> list[tuple[str, tuple[str, ...]]]:
    return [(f.message.split(" of pool ")[1].split("'")[1], f.units) for f in found if f.severity != Severity.INFO]


# Tunisia 1943 5.1: "Two combat units maximum can stacked together on a hex"; "the following do not influence
# stacking: ... the EM counters; the Tiger units (see 12)"; 12: "A Tiger counter (and one only) can stack in
# addition of the limit of two units per hex".
TUNISIA = [
    {"name": "combat", "units": {"not_flags": ["tiger", "em"]}, "limit": 2},
    {"name": "tiger", "units": {"flags": ["tiger"]}, "limit": 1},
]
TIGER, EM = ("tiger",), ("em",)


def test_5_1_two_units_a_tiger_and_an_em_may_stack() -> None:
    assert check([u("a"), u("b"), u("t1", flags=TIGER), u("em", kind="hq", flags=EM)], TUNISIA) == []


def test_5_1_a_third_combat_unit_overstacks() -> None:
    assert overstacks(check([u("a"), u("b"), u("c")], TUNISIA)) == [("combat", ("a", "b", "c"))]


def test_12_one_tiger_only() -> None:
    """Two Tigers with one unit: three units, but the Tiger pool holds one ("and one only")."""
    found = check([u("a"), u("t1", flags=TIGER), u("t2", flags=TIGER)], TUNISIA)
    assert overstacks(found) == [("tiger", ("t1", "t2"))]
    assert "2 Axis units of pool 'tiger' in 0303 exceed its limit of 1" in found[0].message


def test_5_1_checked_at_set_up_and_end_of_the_movement_phase_only() -> None:
    """5.1: "This limitation applies also at the time of initial placement, but it doesn't apply during the
    movement phase ... they cannot be voluntarily stacked more than two at the end of the movement phase"."""
    three = [u("a"), u("b"), u("c")]
    when = {"checked_at": ["setup", "end-of-phase"], "phases": ["movement"]}
    assert overstacks(check(three, TUNISIA, turn=None, phase=None, **when)) == [("combat", ("a", "b", "c"))]
    skipped = check(three, TUNISIA, phase="combat", **when)
    assert [f.severity for f in skipped] == [Severity.INFO] and "not in phase combat" in skipped[0].message
    no_setup = check(three, TUNISIA, turn=None, phase=None, checked_at=["end-of-phase"])
    assert [f.severity for f in no_setup] == [Severity.INFO] and "not in the set-up" in no_setup[0].message


# Kesselring's War 10.1: "Three mobile ground units of any size, plus one Garrison unit, may stack in a hex";
# "Two air units of any type may stack in a hex when flying a mission on the map, or when based at a
# functional airfield (20.2.2)"; "Special Support Units (SSU) do not count towards stacking limits (23.0)".
# 20.2.2: "Airfield with a full-strength garrison: two air units. Airfield with a reduced garrison unit: one".
KESSELRING = [
    {"name": "mobile", "units": {"kinds": ["mobile"], "not_flags": ["ssu"]}, "limit": 3},
    {"name": "garrison", "units": {"kinds": ["garrison"]}, "limit": 1},
    {
        "name": "air",
        "units": {"kinds": ["air"]},
        "limit": 2,
        "capacity_from": [{"units": {"kinds": ["garrison"], "attrs": {"steps": 1}}, "limit": 1}],
    },
]


def test_10_1_two_divisions_a_regiment_and_a_garrison() -> None:
    """10.1's own example: "Two divisions, one regiment and one garrison could stack in a hex"; an SSU is free."""
    units = [
        u("div1", kind="mobile"),
        u("div2", kind="mobile"),
        u("reg", kind="mobile"),
        u("gar", kind="garrison", steps=2),
        u("ssu", kind="mobile", flags=("ssu",)),
    ]
    assert check(units, KESSELRING) == []


def test_10_1_a_fourth_mobile_unit_and_a_second_garrison_overstack_apart() -> None:
    units = [u(f"m{i}", kind="mobile") for i in range(4)] + [u("g1", kind="garrison"), u("g2", kind="garrison")]
    assert sorted(overstacks(check(units, KESSELRING))) == [
        ("garrison", ("g1", "g2")),
        ("mobile", ("m0", "m1", "m2", "m3")),
    ]


def test_20_2_2_airfield_capacity_from_its_garrison() -> None:
    """Two air units with a full-strength (2-step) garrison are legal; with a reduced one only one is."""
    air = [u("p38", kind="air"), u("b25", kind="air")]
    assert check([*air, u("gar", kind="garrison", steps=2)], KESSELRING) == []
    found = check([*air, u("gar", kind="garrison", steps=1)], KESSELRING)
    assert overstacks(found) == [("air", ("p38", "b25"))]
    assert "exceed its limit of 1 set by gar" in found[0].message


def test_10_0_each_side_counts_apart_and_an_enemy_garrison_sets_no_capacity() -> None:
    """10.0: "Ground unit stacking limitations apply for all units of both sides"; 20.4: "Air units may be
    placed in enemy occupied hexes for attacks against them": two Allied air units over an Axis reduced
    garrison are a mission (limit 2), not based at that airfield."""
    units = [
        u("p38", "Allied", "air"),
        u("b25", "Allied", "air"),
        u("gar", "Axis", "garrison", steps=1),
        *(u(f"m{i}", "Axis", "mobile") for i in range(3)),
        *(u(f"a{i}", "Allied", "mobile") for i in range(3)),
    ]
    assert check(units, KESSELRING) == []


# No Question of Surrender 1.0: "The maximum stacking in a hex is 4 Units, 3 not in Column and 1 in Column."
# Scenarios: "Reinforcements may arrive overstacked."
NQOS = [
    {"name": "not in column", "units": {"not_flags": ["column", "leader"]}, "limit": 3},
    {"name": "in column", "units": {"flags": ["column"]}, "limit": 1},
]


def test_1_0_three_not_in_column_and_one_in_column() -> None:
    assert check([u("a"), u("b"), u("c"), u("d", flags=("column",))], NQOS) == []


def test_1_0_two_in_column_overstack_though_the_total_is_four() -> None:
    """Four units, within the total of 4, but "1 in Column": the pools are counted apart."""
    found = check([u("a"), u("b"), u("c", flags=("column",)), u("d", flags=("column",))], NQOS)
    assert overstacks(found) == [("in column", ("c", "d"))]


def test_reinforcements_may_arrive_overstacked_so_the_save_cannot_tell() -> None:
    """With exempt_arrivals an overstack in play is a warning saying what the save cannot tell; at set-up
    ("All Units may setup ... observing stacking limits") it stays an error."""
    four = [u("a"), u("b"), u("c"), u("d")]
    found = check(four, NQOS, exempt_arrivals=True)
    assert [f.severity for f in found] == [Severity.WARNING] and "the save cannot tell" in found[0].message
    assert [f.severity for f in check(four, NQOS, turn=None, phase=None, exempt_arrivals=True)] == [Severity.ERROR]


def test_a_pool_may_count_steps() -> None:
    pools = [{"name": "steps", "units": {}, "limit": 4, "measure": "steps"}]
    found = check([u("a", steps=3), u("b", steps=2)], pools)
    assert "5 steps of Axis units of pool 'steps'" in found[0].message


@pytest.mark.parametrize(
    ("pools", "message"),
    [
        ([], "pools: expected a non-empty list"),
        ([{"name": "a", "units": {}}], "pools[0].limit: missing required key"),
        ([{"name": "a", "units": {}, "limit": 1, "max": 2}], "pools[0].max: unknown key"),
        ([{"name": "a", "units": {}, "limit": 1}, {"name": "a", "units": {}, "limit": 1}], "pools[1].name:"),
        ([{"name": "a", "units": {"flags": "tiger"}, "limit": 1}], "pools[0].units.flags: expected a list of names"),
        ([{"name": "a", "units": {}, "limit": -1}], "pools[0].limit: expected a whole number >= 0"),
        ([{"name": "a", "units": {}, "limit": 1, "measure": "size"}], "pools[0].measure: expected one of"),
        (
            [{"name": "a", "units": {}, "limit": 1, "capacity_from": [{"units": {"kinds": [1]}, "limit": 1}]}],
            "pools[0].capacity_from[0].units.kinds[0]: expected a name",
        ),
        (
            [{"name": "a", "units": {}, "limit": 1, "capacity_from": [{"limit": 1}]}],
            "pools[0].capacity_from[0].units: missing required key",
        ),
    ],
)
def test_a_bad_pool_names_its_key_path(pools: list, message: str) -> None:
    with pytest.raises(ValueError) as e:
        pools_from(pools)
    assert str(e.value).startswith(message), str(e.value)


KASSERINE = REPO / "modules" / "kasserine"
EXAMPLE = KASSERINE / "example"


def run_check(tmp_path: Path, rule: str) -> tuple[int, str]:
    pack = tmp_path / "kasserine-pools"
    shutil.copytree(KASSERINE, pack, ignore=shutil.ignore_patterns("example"))
    toml = pack / "pack.toml"
    text = toml.read_text(encoding="utf-8")
    old = 'impl = "stacking.limit"\nrule_ref = { assumption = "stacking_limit" }\n'
    old += 'limit = { assumption = "stacking_limit" }\n'
    old += "exempt_kinds = []\nexempt_flags = []"
    assert old in text
    toml.write_text(text.replace(old, f'impl = "stacking.pools"\nrule_ref = "23"\n{rule}'), encoding="utf-8")
    result = CliRunner().invoke(
        cli.main,
        [
            "check",
            str(EXAMPLE / "turn3-faults.vsav"),
            "--module",
            str(EXAMPLE / "Kasserine.vmod"),
            "--pack",
            str(pack),
            "--format",
            "json",
        ],
    )
    return result.exit_code, result.stdout + result.stderr


def test_one_pool_of_every_unit_gives_the_standard_rules_verdicts(tmp_path: Path) -> None:
    """The standard rules' "units may not stack" is one pool of every unit with a limit of 1: on the example
    save it finds the overstacks stacking.limit finds (the golden report's stacking findings)."""
    code, out = run_check(tmp_path, 'pools = [{ name = "units", units = {}, limit = 1 }]')
    golden = (REPO / "tests" / "golden" / "turn3-faults.txt").read_text(encoding="utf-8")
    want = sorted(
        line.split(" in ")[1].split(" exceed")[0] for line in golden.splitlines() if "exceed the limit" in line
    )
    got = sorted(line.split(" in ")[1].split(" exceed")[0] for line in out.splitlines() if "of pool 'units'" in line)
    assert code != 2 and want and got == want, (want, out[:2000])
    found = [f for f in json.loads(out)["findings"] if "of pool 'units'" in f["message"]]
    # VASSAL itself puts the units the pool counts in the hex the finding names.
    vassal = {
        p["id"]: p["location"]
        for p in oracle_pieces(EXAMPLE / "Kasserine.vmod", EXAMPLE / "turn3-faults.vsav")["result"]["pieces"]
    }
    assert [[vassal[uid] for uid in f["units"]] for f in found] == [[f["hexes"][0]] * len(f["units"]) for f in found]


def test_a_bad_pool_in_a_pack_is_a_usage_error_naming_the_file_and_key(tmp_path: Path) -> None:
    code, out = run_check(tmp_path, 'pools = [{ name = "units", units = { flag = ["hq"] }, limit = 1 }]')
    assert code == 2, out
    # named as the pack is read (the parameter's shape), before any rule runs
    assert "pack.toml: rules.stacking.pools[0].units.flag: unknown key 'flag'" in out, out
