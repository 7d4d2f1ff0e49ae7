"""Bad pack data is a PackError naming the pack file and the key path, never silently accepted.

Each case edits a copy of the Kasserine pack the way a pack author might get it wrong: a
hexside cost of `false` (20.0's stream cost), a cost given as text, a prohibited terrain the
vocabulary does not hold (16.11 would prohibit nothing), a feature name that is no hexside
feature (16.12's road/trail hexsides, 17.13's networks, 20.2's streams), a weather the table
of 20.4 does not have. `packs validate` reports it (exit 1, its contract for a bad pack) and
`check` refuses to run (exit 2), both with the path.
"""

from __future__ import annotations

import re
import shutil
from collections.abc import Mapping
from pathlib import Path

import pytest
from click.testing import CliRunner
from conftest import REPO

from vassal_adj import cli
from vassal_adj.rules.registry import Param, ParamValueError, Registry, check_value

KASSERINE = REPO / "modules" / "kasserine"
MODULE = str(KASSERINE / "example" / "Kasserine.vmod")
SAVE = str(KASSERINE / "example" / "turn3-faults.vsav")

# (the text of the pack, what the author wrote instead, which occurrence (1: the first), the
# key path of the error, what the message says)
ROUGH = 'prohibited = { rough = ["mechanized"] }'
CASES = {
    "hexside_cost_false": (
        "value = { stream = 1 }",
        "value = { stream = false }",
        1,
        "rules.movement.hexside_costs.stream",
        "got false (bool) (from assumptions.hexside_costs)",
    ),
    "terrain_cost_text": (
        "clear = 1, rough = 2",
        'clear = "1", rough = 2',
        1,
        "rules.movement.terrain_costs.clear",
        'got "1" (str)',
    ),
    "cost_by_class_bool": (
        'hexside_costs = { assumption = "hexside_costs" }',
        "hexside_costs = { stream = { armor = true } }",
        1,
        "rules.movement.hexside_costs.stream.armor",
        "expected a number of MP, got true (bool)",
    ),
    "stream_hexside_false_in_a_rule": (
        'hexside_costs = { assumption = "hexside_costs" }',
        "hexside_costs = { stream = false }",
        1,
        "rules.movement.hexside_costs.stream",
        "got false (bool)",
    ),
    "cost_not_a_table": (
        'road_rates = { assumption = "road_costs" }',
        "road_rates = 1",
        1,
        "rules.movement.road_rates",
        "expected a table (costs), got 1 (int)",
    ),
    "prohibited_unknown_terrain": (
        ROUGH,
        ROUGH.replace("rough", "swamp"),
        1,
        "rules.rough.prohibited.swamp",
        "unknown terrain type 'swamp' (the pack's [terrain] types: clear, rough, town)",
    ),
    "movement_prohibited_unknown_terrain": (
        ROUGH,
        ROUGH.replace("rough", "swamp"),
        2,
        "rules.movement.prohibited.swamp",
        "unknown terrain type 'swamp'",
    ),
    "prohibited_classes_not_a_list": (
        ROUGH,
        "prohibited = { rough = 1 }",
        1,
        "rules.rough.prohibited.rough",
        "expected a list of names, got 1 (int)",
    ),
    "through_unknown_feature": (
        'through = ["road", "trail"]',
        'through = ["road", "rail"]',
        1,
        "rules.rough.through[1]",
        "unknown hexside feature 'rail' (the pack's [terrain] features: bridge, road, stream, trail)",
    ),
    "network_unknown_feature": (
        'networks = [["road"], ["trail"]]',
        'networks = [["rail"], ["trail"]]',
        1,
        "rules.axis_supply.networks[0][0]",
        "unknown hexside feature 'rail'",
    ),
    "supply_zoc_weather_unknown_feature": (
        'zoc_blocked_in_weather = { poor = ["stream"] }',
        'zoc_blocked_in_weather = { poor = ["river"] }',
        1,
        "rules.axis_supply.zoc_blocked_in_weather.poor[0]",
        "unknown hexside feature 'river'",
    ),
    "closed_hexsides_unknown_feature": (
        'closed_hexsides = { poor = ["stream"] }',
        'closed_hexsides = { poor = ["river"] }',
        1,
        "rules.weather.closed_hexsides.poor[0]",
        "unknown hexside feature 'river'",
    ),
    "impassable_in_weather_unknown_feature": (
        'impassable_in_weather = { poor = ["stream"] }',
        'impassable_in_weather = { poor = ["river"] }',
        1,
        "rules.movement.impassable_in_weather.poor[0]",
        "unknown hexside feature 'river'",
    ),
    "weather_unknown": (
        "fair = 4, poor = 0",
        "fiar = 4, poor = 0",
        1,
        "rules.weather.ground_support.fiar",
        "unknown weather 'fiar' (the pack's [state] weather_by_turn: fair, good, poor)",
    ),
}


def broken_pack(tmp_path: Path, old: str, new: str, nth: int) -> Path:
    pack = tmp_path / "kasserine-copy"
    shutil.copytree(KASSERINE, pack, ignore=shutil.ignore_patterns("example"))
    toml = pack / "pack.toml"
    text = toml.read_text(encoding="utf-8")
    parts = text.split(old)
    assert len(parts) > nth, old
    toml.write_text(old.join(parts[:nth]) + new + old.join(parts[nth:]), encoding="utf-8")
    return pack


def run(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(cli.main, list(args))
    return result.exit_code, result.stdout + result.stderr


@pytest.mark.parametrize("case", sorted(CASES))
def test_check_refuses_bad_pack_data_naming_file_and_key_path(tmp_path: Path, case: str) -> None:
    old, new, nth, path, message = CASES[case]
    pack = broken_pack(tmp_path, old, new, nth)
    code, out = run("check", SAVE, "--module", MODULE, "--pack", str(pack))
    assert code == 2, out
    assert f"{pack / 'pack.toml'}: {path}: " in out and message in out, out
    assert "internal error" not in out


@pytest.mark.parametrize("case", sorted(CASES))
def test_packs_validate_reports_bad_pack_data_with_the_key_path(tmp_path: Path, case: str) -> None:
    old, new, nth, path, message = CASES[case]
    pack = broken_pack(tmp_path, old, new, nth)
    code, out = run("packs", "validate", str(pack), "--module", MODULE)
    assert code == 1, out  # `packs validate`: 1 when the pack has an error
    assert f"{pack / 'pack.toml'}: error: {path}: " in out and message in out, out


def test_the_unbroken_copy_is_valid(tmp_path: Path) -> None:
    pack = broken_pack(tmp_path, "[rules.stacking]", "[rules.stacking]", 1)
    code, out = run("packs", "validate", str(pack), "--module", MODULE)
    assert code == 0 and ": valid" in out.strip().splitlines()[-1] and ": error:" not in out, out


# -- the registry's types, one level down -------------------------------------------------------
@pytest.mark.parametrize(
    ("value", "at", "message"),
    [
        ({"stream": False}, ("stream",), "got false (bool)"),
        ({"clear": "1"}, ("clear",), 'got "1" (str)'),
        ({"rough": {"mechanized": 4, "*": True}}, ("rough", "*"), "expected a number of MP, got true (bool)"),
        ({"rough": [2]}, ("rough",), "got [2] (list)"),
        ([1], (), "expected a table (costs)"),
    ],
)
def test_costs_are_numbers_or_tables_of_numbers_never_bools(value: object, at: tuple[str, ...], message: str) -> None:
    with pytest.raises(ParamValueError, match=re.escape(message)) as e:
        check_value("costs", value)
    assert e.value.at == at


def test_costs_keep_whole_and_fractional_numbers_and_class_tables() -> None:
    got = check_value("costs", {"clear": 1, "road": 0.5, "rough": {"mechanized": 4, "*": 2}})
    assert isinstance(got, Mapping) and got["road"] == 0.5 and dict(got["rough"]) == {"mechanized": 4, "*": 2}


@pytest.mark.parametrize(
    ("type_", "value", "at"),
    [
        ("table[list[str]]", {"poor": "stream"}, ("poor",)),
        ("table[list[str]]", {"poor": ["stream", 3]}, ("poor", 1)),
        ("list[list[str]]", [["road"], []], (1,)),
        ("list[list[str]]", [["road"], [False]], (1, 0)),
    ],
)
def test_name_tables_and_groups_say_where_inside_they_are_wrong(type_: str, value: object, at: tuple) -> None:
    with pytest.raises(ParamValueError) as e:
        check_value(type_, value)
    assert e.value.at == at


def test_a_vocabulary_is_declared_on_a_type_that_holds_names() -> None:
    r = Registry()
    with pytest.raises(ValueError, match="names='features' needs"):
        r.register("x.y", params={"n": Param(1, "int", names="features")})
    with pytest.raises(ValueError, match="keys='rivers' needs"):
        r.register("x.z", params={"t": Param({}, "costs", keys="rivers")})
