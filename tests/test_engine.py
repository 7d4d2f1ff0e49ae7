"""The rules engine end to end: a pack built in tmp_path, `vassal-adj check` on the example save.

The pack is the template plus: units.toml patterns for the example's Allied pieces
(`A-D-M (desig)` and `B-F-R/D-M (desig)`, side from the piece property "Side"), a terrain file
with three roads (row 06, columns 27 and 39), an Allied supply-source place along column 39
and rough hexes, and three rules (stacking 23, Allied supply 17.12, rough terrain 16.11).
"""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

import vassal_adj
from vassal_adj.cli import main
from vassal_adj.packs import load_pack
from vassal_adj.parse.builder import game_pieces
from vassal_adj.rules.registry import conformance_problems, load_builtin_rules
from vassal_adj.rules.results import Severity

ROOT = Path(__file__).resolve().parents[1]
EXAMPLE = ROOT / "modules" / "kasserine" / "example"
MODULE = EXAMPLE / "Kasserine.vmod"
SAVE = EXAMPLE / "setup.vsav"

RULES = """
[rules.stacking]
impl = "stacking.limit"
rule_ref = "23"
limit = { assumption = "stacking_limit" }

[rules.allied_supply]
impl = "supply.trace"
rule_ref = "17.12"
side = "Allied"
initial = 3
sources = ["Allied supply"]
report_paths = false

[rules.rough]
impl = "terrain.prohibited"
rule_ref = "16.11"
prohibited = { rough = ["mechanized"] }
except_classes = ["mechanized-infantry"]
through = ["road", "trail"]
"""

ARTILLERY = r"""[[pattern]]
name = "artillery"
regex = '(?P<barrage>\d+)-(?P<fpf>\d+)-(?P<range>\d+)/(?P<defense>\d+)-(?P<movement>\d+)\s*\((?P<designation>[^)]*)\)'
kind = "artillery"
"""

UNITS = r"""ignore = ['Game Turn', '.* Withdrawal']
{artillery}
[[pattern]]
name = "combat"
regex = '(?P<attack>\d+)-(?P<defense>\d+)-(?P<movement>\d+)\s*\((?P<designation>[^)]*)\)'
kind = "infantry"

[properties]
side = "Side"

[[group]]
match = {{ pattern = "combat", movement = 12 }}
kind = "armor"
[[group]]
match = {{ pattern = "combat", movement = 14 }}
kind = "armor"
[[group]]
match = {{ pattern = "combat", movement = 11 }}
kind = "mechanized-infantry"
"""

# 0914 holds the armored 2-1-14 (1/1), far from every road; 3911 holds the 3-2-12 (3/13) on
# the column 39 road, which 16.12 lets it use; 1703 holds infantry, which rough never bars.
TERRAIN = """path,0306-3906,road
path,2706-2726,road
path,3901-3926,road
place,Allied supply,supply-source,3901-3926
hex,0914,rough
hex,1703,rough
hex,3911,rough
"""


def make_pack(tmp_path: Path, *, rules: str = RULES, artillery: bool = True, terrain: str = TERRAIN) -> Path:
    pack = tmp_path / "pack"
    shutil.copytree(ROOT / "modules" / "_template", pack)
    text = (pack / "pack.toml").read_text(encoding="utf-8")
    text = (
        text.replace('id = "template"', 'id = "testgame"')
        .replace('aliases = ["Copy-me template"]', "aliases = []")
        .replace('name = "Template Game.*"', 'name = "Kasserine.*"')
    )
    (pack / "pack.toml").write_text(text + rules, encoding="utf-8")
    (pack / "units.toml").write_text(UNITS.format(artillery=ARTILLERY if artillery else ""), encoding="utf-8")
    (pack / "terrain.csv").write_text(terrain, encoding="utf-8")
    return pack


def run(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(main, [*map(str, args)])
    return result.exit_code, result.output


def check(pack: Path, save: Path = SAVE, *extra: str) -> tuple[int, str]:
    return run("check", save, "--module", MODULE, "--pack", pack, *extra)


def check_json(pack: Path, save: Path = SAVE, *extra: str) -> tuple[int, dict]:
    code, out = check(pack, save, "--format", "json", *extra)
    return code, json.loads(out)


def overstacked_save(tmp_path: Path) -> Path:
    """The example set-up with 2-1-14 (1/13) moved from 2714 (1388,808) onto 2613 (1336,778),
    where 2-3-11 (1/6) stands; it leaves its stack, which would keep it at 2714 (spec 6.4)."""
    game = vassal_adj.load_save(SAVE)
    moved = [n for _, _, n in game.nodes() if n.text.startswith("+/") and "2-1-14 (1\\/13)" in n.text]
    assert len(moved) == 1 and "\tMain Map;1388;808;" in moved[0].text
    moved[0].text = moved[0].text.replace("\tMain Map;1388;808;", "\tMain Map;1336;778;")
    pid = moved[0].text[2:].split("/", 1)[0]
    [stack] = [n for _, _, n in game.nodes() if n.text.startswith("+/") and "/stack/Main Map;1388;808;" in n.text]
    stack.text = stack.text.replace(f";{pid};", ";")
    out = tmp_path / "overstack.vsav"
    game.write(out)
    return out


def test_implementations_are_registered_and_conform() -> None:
    reg = load_builtin_rules()
    for name in ("stacking.limit", "supply.trace", "terrain.prohibited"):
        assert name in reg
    assert reg.lookup("supply.trace").required() == ("side", "initial", "sources")
    assert conformance_problems() == []


def test_23_no_stacking_violation_in_the_setup(tmp_path: Path) -> None:
    _code, data = check_json(make_pack(tmp_path))
    assert not [f for f in data["findings"] if f["rule"] == "testgame:23"]
    assert {"rule": "stacking", "cite": "testgame:23", "findings": 0} in data["checked"]


def test_23_overstack_gives_exactly_one_error_citing_the_rule(tmp_path: Path) -> None:
    pack = make_pack(tmp_path)
    code, data = check_json(pack, overstacked_save(tmp_path))
    stacking = [f for f in data["findings"] if f["rule"] == "testgame:23"]
    assert len(stacking) == 1 and len(stacking[0]["units"]) == 2
    assert {k: v for k, v in stacking[0].items() if k != "units"} == {
        "rule": "testgame:23",
        "severity": "error",
        "message": "2 Allied units in 2613 exceed the limit of 1 [23]",
        "unit_names": ["2-1-14 (1/13)", "2-3-11 (1/6)"],
        "hexes": ["2613"],
    }
    assert code == 1


def test_17_12_far_unit_is_out_of_supply_with_its_distance(tmp_path: Path) -> None:
    _code, data = check_json(make_pack(tmp_path, rules=RULES.replace("report_paths = false", "")))
    found = [f for f in data["findings"] if f["rule"] == "testgame:17.12" and f["hexes"]]
    supply = {f["hexes"][0]: f for f in found if f["severity"] == "warning"}
    paths = {f["hexes"][0]: f["message"] for f in found if f["severity"] == "info"}
    assert len(paths) == 17 and not paths.keys() & supply.keys()
    assert paths["2714"].endswith("is in supply: on the road at 2714, then 20 road hexes to the source 3906")
    assert "is in supply: 3 hexes (1703 1704 1705 1706) to the road at 1706, then" in paths["1703"]
    assert supply["0914"]["severity"] == "warning"
    assert supply["0914"]["unit_names"] == ["2-1-14 (1/1)"]
    assert "8 hexes away; rule allows 3 [17.12]" in supply["0914"]["message"]
    assert "4 hexes away" in supply["1602"]["message"]  # one hex too far
    assert "1703" not in supply and "2714" not in supply and "3911" not in supply  # 3 hexes, or on a road
    summary = [f for f in data["findings"] if f["rule"] == "testgame:17.12" and not f["hexes"]]
    assert len(summary) == 1 and summary[0]["message"].startswith("17 of 21 Allied units on the map are in supply")


def test_16_11_armor_in_rough_is_an_error_unless_on_a_road(tmp_path: Path) -> None:
    code, data = check_json(make_pack(tmp_path))
    rough = [f for f in data["findings"] if f["rule"] == "testgame:16.11"]
    assert [(f["hexes"], f["severity"]) for f in rough] == [(["0914"], "error")]
    assert rough[0]["message"] == (
        "Allied 2-1-14 (1/1) (armor) is in rough hex 0914, which is prohibited to mechanized units [16.11]"
    )
    assert code == 1


def test_json_schema_and_determinism(tmp_path: Path) -> None:
    pack = make_pack(tmp_path)
    _code, out = check(pack, SAVE, "--format", "json")
    data = json.loads(out)
    assert data["schema_version"] == 1
    assert set(data) >= {
        "pack",
        "findings",
        "counts",
        "parameters",
        "assumptions",
        "notes",
        "checked",
        "turn",
        "phase",
        "weather",
        "save",
        "module",
    }
    assert data["pack"] == "testgame"
    assert data["counts"] == {"error": 1, "warning": 4, "info": 1}
    assert data["parameters"]["allied_supply"]["params"]["initial"] == 3
    assert data["parameters"]["allied_supply"]["params"]["networks"] == [["road"], ["trail"]]
    assert data["assumptions"]["stacking_limit"]["used_by"] == ["stacking.limit"]
    assert out == json.dumps(data, indent=2, sort_keys=True, ensure_ascii=False) + "\n"
    assert check(pack, SAVE, "--format", "json")[1] == out  # same input, same bytes
    # findings grouped by rule in pack order (stacking has none): supply, then rough
    assert [f["rule"] for f in data["findings"]] == ["testgame:17.12"] * 5 + ["testgame:16.11"]


def test_turn_phase_weather_come_from_the_command_line(tmp_path: Path) -> None:
    _code, data = check_json(
        make_pack(tmp_path), SAVE, "--turn", "3", "--phase", "allied-movement", "--weather", "poor"
    )
    assert (data["turn"], data["phase"], data["weather"]) == (3, "allied-movement", "poor")


def test_exit_0_without_error_findings_and_terrain_override(tmp_path: Path) -> None:
    pack = make_pack(tmp_path)
    flat = tmp_path / "flat.csv"
    flat.write_text(TERRAIN.replace("hex,0914,rough\n", ""), encoding="utf-8")
    code, out = check(pack, SAVE, "--terrain", flat)
    assert code == 0, out
    assert "0 error(s), 4 warning(s), 1 info" in out


def test_text_output_groups_by_rule(tmp_path: Path) -> None:
    code, out = check(make_pack(tmp_path))
    assert code == 1
    assert out.splitlines()[1] == "1 error(s), 4 warning(s), 1 info"
    # errors and warnings first, then information by rule in pack order
    assert out.index("errors and warnings:") < out.index("testgame:17.12 (information):")
    assert "nothing found by: testgame:23 (stacking)" in out
    assert "  error   testgame:16.11: Allied 2-1-14 (1/1) (armor) is in rough hex 0914" in out


def test_markdown_output_shape(tmp_path: Path) -> None:
    code, out = check(make_pack(tmp_path), overstacked_save(tmp_path), "--format", "markdown")
    lines = out.splitlines()
    assert lines[0].startswith("## Referee check: ")
    assert "**2 error(s), 4 warning(s), 1 info**" in lines[2]
    i = lines.index("### Errors and warnings")
    assert lines[i + 2 : i + 4] == ["| Severity | Rule | Hex | Finding |", "|---|---|---|---|"]
    assert (
        r"| error | testgame:23 | 2613 | 2 Allied units in 2613 exceed the limit of 1 \[23\] |" in lines
    )  # [ ] escaped
    assert lines.index("### testgame:17.12 (information)") > i  # the supply summary, after the problems
    assert "### Assumptions" in lines
    assert code == 1


def test_unmapped_pieces_are_findings_of_their_own(tmp_path: Path) -> None:
    _code, data = check_json(make_pack(tmp_path, artillery=False))
    unmapped = [f for f in data["findings"] if f["rule"] == "testgame:units"]
    # Every artillery counter (barrage-FPF-range/defense-movement), on the map or in a box, and nothing else.
    artillery = sorted(p.name for p in game_pieces(vassal_adj.load_save(SAVE).root) if re.search(r"\d/\d+-\d", p.name))
    assert len(artillery) == 29 and "1-2-3/1-7 (7)" in artillery
    assert sorted(n for f in unmapped for n in f["unit_names"]) == artillery
    assert all(f["severity"] == "warning" and "matches no pattern" in f["message"] for f in unmapped)
    assert data["findings"][0]["rule"] == "testgame:units"  # reported first: they limit everything else


def test_bad_input_and_bad_pack_exit_2(tmp_path: Path) -> None:
    assert check(tmp_path / "no-such-pack")[0] == 2
    assert run("check", tmp_path / "missing.vsav", "--module", MODULE, "--pack", make_pack(tmp_path))[0] == 2
    bad = make_pack(tmp_path / "bad", rules=RULES.replace('["Allied supply"]', '["9999"]'))
    code, out = check(bad)
    assert code == 2
    assert "rules.allied_supply: sources '9999'" in out
    missing = make_pack(tmp_path / "missing", rules=RULES.replace("initial = 3\n", ""))
    code, out = check(missing)
    assert code == 2 and "rules.allied_supply.initial: missing required parameter" in out


def test_python_api(tmp_path: Path) -> None:
    lp = load_pack(make_pack(tmp_path))
    mod, game = vassal_adj.load_module(MODULE), vassal_adj.load_save(SAVE)
    state, context, unmapped = vassal_adj.game_state(mod, game, lp, turn=1)
    assert unmapped == [] and state.turn == 1
    on_map = {u.name: uid for uid, u in state.units.items() if state.positions[uid].on_map}
    assert len(state.units) == 96 and len(on_map) == 21  # the Allied set-up; the rest wait in boxes
    assert state.positions[on_map["2-1-14 (1/1)"]].label == "0914"
    assert context.label(state.hex_of(on_map["2-1-14 (1/1)"])) == "0914"
    report = vassal_adj.adjudicate(state, lp, context)
    assert report.has_errors and report.counts()["error"] == 1
    assert all(f.rule.startswith("testgame:") for f in report.findings)
    assert [f.severity for f in report.findings][-1] == Severity.ERROR


@pytest.mark.parametrize("severity", ["error", "info"])
def test_supply_severity_is_a_parameter(tmp_path: Path, severity: str) -> None:
    rules = RULES.replace('sources = ["Allied supply"]', f'sources = ["3901-3926"]\nseverity = "{severity}"')
    _code, data = check_json(make_pack(tmp_path, rules=rules))
    supply = [f for f in data["findings"] if f["rule"] == "testgame:17.12"]
    assert sum(f["severity"] == severity for f in supply) == (5 if severity == "info" else 4)
