"""A pack's worked examples ([[examples]]): `packs validate` runs them on the pack's terrain (or
--terrain T) through the rule code `check` uses, names the rule and the hexes of one that
fails (exit 1), and refuses a malformed one with its key path (exit 2).

The cases are worked by hand from the rulebooks' words, on the example module's board (its
hex numbers; tests/example_board.py) with a terrain file written here:

- Kasserine (seed 000) 20.3: "Thus, a 2-3-11 during a Poor Weather Game-Turn becomes a
  2-3-6; a 1-2-3/1-7 becomes a 1-2-3/1 -5" (the Kasserine pack's own examples).
- Kasserine 16.11: "No mechanized units, except Mechanized Infantry, may ever enter Rough
  terrain hexes"; 16.12: "All units may enter and exit Rough hexes through Road and Trail
  hexsides".
- Kasserine 17.11: "An Axis unit is in supply if an unobstructed initial path of four or fewer
  hexes can be traced from the unit in question to a Trail or Road hex, which is connected by
  a contiguous, connected line of unobstructed Trail or Road hexes to any Axis Supply Source".
- Kasserine 20.2: "Zones of Control do not extend across unbridged Stream hexsides during any
  Phase of Poor Weather Game-Turns"; 16.13: "Zones of Control of all unit types extend into
  Rough terrain".
- Kesselring's War (seed 004) 13.5: "A mobile ground unit pays one half (0.5) MP per connected
  road hexes, regardless of other terrain."
- Kesselring's War 10.1: "Three mobile ground units of any size, plus one Garrison unit, may
  stack in a hex. Example: Two divisions, one regiment and one garrison could stack in a hex."
"""

from __future__ import annotations

import shutil
import tomllib
from pathlib import Path

import pytest
from click.testing import CliRunner
from conftest import REPO
from example_board import MODULE, layout

from vassal_adj import packs
from vassal_adj.cli import main
from vassal_adj.errors import PackError
from vassal_adj.rules.packs.examples import read_examples

KASSERINE = REPO / "modules" / "kasserine"

# A road down column 10 from the source 1010 to 1014; 1013 (on the road) and 1113 (off it) rough.
TERRAIN = """\
hex,1013 1113,rough
path,1010 1011 1012 1013 1014,road
place,Source,supply-source,1010
hexside,1516/1517,stream
"""

PACK = """\
[pack]
format = 1
id = "exampletest"
name = "Examples test"

[terrain]
types = ["clear", "rough"]
features = ["road", "stream"]
place_kinds = ["supply-source"]

[units]
sides = ["Axis", "Allied"]
[units.classes.armor]
mechanized = true
[units.classes.infantry]
[units.classes.division]
[units.classes.regiment]
[units.classes.garrison]

[state]
weather_by_turn = ["good", "poor"]

[rules.movement]
impl = "movement.allowance"
rule_ref = "16.11"
terrain_costs = { clear = 1, rough = 2 }
road_rates = { road = 0.5 }
prohibited = { rough = ["mechanized"] }
through = ["road"]
prohibited_rule = "16.11"
through_rule = "16.12"
weather_allowance = { poor = [[8, -5], [0, -2]] }
weather_rule = "20.3"
zoc_blocked_in_weather = { poor = ["stream"] }

[rules.axis_supply]
impl = "supply.trace"
rule_ref = "17.11"
side = "Axis"
initial = 4
sources = ["1010"]
networks = [["road"]]

[rules.stacking]
impl = "stacking.pools"
rule_ref = "10.1"
pools = [
  { name = "mobile ground units", units = { kinds = ["division", "regiment", "armor", "infantry"] }, limit = 3 },
  { name = "garrison", units = { kinds = ["garrison"] }, limit = 1 },
]
"""


def armor(at: str | None = None, name: str = "Panzer") -> str:
    where = f', at = "{at}"' if at else ""
    return f'{{ name = "{name}", side = "Axis", kind = "armor", movement = 11{where} }}'


def make_pack(tmp_path: Path, examples: str, terrain: str = TERRAIN) -> Path:
    d = tmp_path / "pack"
    d.mkdir(parents=True)
    (d / "pack.toml").write_text(PACK + examples, encoding="utf-8")
    (d / "terrain.csv").write_text(terrain, encoding="utf-8")
    return d


def example(rule: str, kind: str, units: str, expect: str, extra: str = "") -> str:
    return f'\n[[examples]]\nrule = "{rule}"\nkind = "{kind}"\nunits = [{units}]\nexpect = {expect}\n{extra}'


def run(d: Path, terrain: Path | None = None) -> list[packs.Problem]:
    return [p for p in packs.validate(d, layout=layout(), terrain=terrain) if "example" in p.message]


def test_20_3_kasserine_pack_examples_hold_without_a_board() -> None:
    """20.3: "a 2-3-11 during a Poor Weather Game-Turn becomes a 2-3-6; a 1-2-3/1-7 becomes a
    1-2-3/1 -5": allowances need no map, so they run without --module."""
    found = [p for p in packs.validate(KASSERINE) if "examples[" in p.message]
    assert [(p.level, p.message) for p in found] == [
        ("note", "examples[0] (20.3, allowance): 2-3-11 (1/6) in poor weather: allowance 6, as the rulebook says"),
        ("note", "examples[1] (20.3, allowance): 1-2-3/1-7 (7) in poor weather: allowance 5, as the rulebook says"),
    ]


def test_20_3_a_wrong_weather_bracket_fails_the_rulebook_example(tmp_path: Path) -> None:
    """A pack whose poor-weather bracket takes 4 from an allowance of eight or more, not 20.3's
    five, gives the 2-3-11 an allowance of 7: the example names the rule and both numbers."""
    d = tmp_path / "kasserine"
    shutil.copytree(KASSERINE, d, ignore=shutil.ignore_patterns("example"))
    text = (d / "pack.toml").read_text(encoding="utf-8")
    (d / "pack.toml").write_text(
        text.replace("poor = [[8, -5], [0, -2]]", "poor = [[8, -4], [0, -2]]"), encoding="utf-8"
    )
    errors = [p.message for p in packs.validate(d) if p.level == "error"]
    assert errors == [
        "examples[0] (20.3, allowance): 2-3-11 (1/6) in poor weather: the rulebook says allowance 6; "
        "the rules on this terrain say allowance 7"
    ]


def test_16_11_and_16_12_moves_on_the_terrain(tmp_path: Path) -> None:
    """16.11: an armour unit may not enter rough 1113 from 1112 (no road); 16.12: it may enter
    rough 1013 from 1012 along the road, at the road's 1/2 MP."""
    d = make_pack(
        tmp_path,
        example("16.11", "movement", armor(), '{ legal = false, cites = "16.11" }', 'move = ["1112", "1113"]')
        + example("16.12", "movement", armor(), "{ legal = true, cost = 0.5 }", 'move = ["1012", "1013"]'),
    )
    assert [(p.level, p.message) for p in run(d)] == [
        ("note", "examples[0] (16.11, movement): Panzer at 1112 1113: not legal, citing 16.11, as the rulebook says"),
        ("note", "examples[1] (16.12, movement): Panzer at 1012 1013: legal, cost 1/2 MP, as the rulebook says"),
    ]


def test_16_12_fails_on_a_terrain_that_leaves_out_the_road(tmp_path: Path) -> None:
    """The same 16.12 example run with --terrain on a file without the road: the armour unit
    may no longer enter rough 1013, and the failure names the rule, the hexes and the reason."""
    d = make_pack(tmp_path, example("16.12", "movement", armor(), "{ legal = true }", 'move = ["1012", "1013"]'))
    other = tmp_path / "real-map.csv"
    other.write_text("hex,1013 1113,rough\n", encoding="utf-8")
    [problem] = run(d, other)
    assert problem.level == "error"
    assert problem.message.startswith(
        "examples[0] (16.12, movement): Panzer at 1012 1013: the rulebook says legal; "
        "the rules on this terrain say not legal ("
    )
    assert "1013" in problem.message and "16.11" in problem.message


def test_13_5_road_cost_over_named_hexes(tmp_path: Path) -> None:
    """Seed 004 13.5: 0.5 MP per connected road hex "regardless of other terrain": 1010 to 1014
    along the road is four road hexes, 2 MP, rough 1013 included. A path naming only the two
    ends costs the same (the road is the cheapest way)."""
    infantry = '{ name = "Division", side = "Allied", kind = "infantry", movement = 4 }'
    road = '["1010", "1011", "1012", "1013", "1014"]'
    d = make_pack(
        tmp_path,
        example("13.5", "movement", infantry, "{ legal = true, cost = 2 }", f"move = {road}")
        + example("13.5", "movement", infantry, "{ cost = 2.5 }", f"move = {road}"),
    )
    found = run(d)
    assert found[0].level == "note" and "cost 2 MP, as the rulebook says" in found[0].message
    assert found[1].level == "error"
    assert found[1].message.endswith("the rulebook says cost 5/2 MP; the rules on this terrain say cost 2 MP")


def test_17_11_supply_four_hexes_yes_five_no(tmp_path: Path) -> None:
    """17.11: 1018 is four hexes from road hex 1014, joined by road to the source 1010: in
    supply; 1019 is five hexes away: out of supply (no other road or source within four)."""
    d = make_pack(
        tmp_path,
        example("17.11", "supply", armor("1018"), "{ supplied = true }")
        + example("17.11", "supply", armor("1019"), "{ supplied = true }"),
    )
    ok, bad = run(d)
    assert ok.level == "note" and ok.message.startswith("examples[0] (17.11, supply): Panzer at 1018: in supply, as")
    assert bad.level == "error"
    assert bad.message.startswith(
        "examples[1] (17.11, supply): Panzer at 1019: the rulebook says in supply; the rules "
        "on this terrain say out of supply ("
    )


def test_10_1_two_divisions_a_regiment_and_a_garrison_may_stack(tmp_path: Path) -> None:
    """Seed 004 10.1's example: two divisions, one regiment and one garrison in a hex: legal;
    a third division (four mobile units) is not."""
    unit = '{{ name = "{n}", side = "Allied", kind = "{k}", movement = 4, at = "1520" }}'
    four = [
        unit.format(n=n, k=k)
        for n, k in (("1st", "division"), ("2nd", "division"), ("3rd", "regiment"), ("Garrison", "garrison"))
    ]
    fifth = unit.format(n="4th", k="division")
    d = make_pack(
        tmp_path,
        example("10.1", "stacking", ", ".join(four), "{ legal = true }")
        + example("10.1", "stacking", ", ".join([*four, fifth]), "{ legal = false }"),
    )
    assert [p.level for p in run(d)] == ["note", "note"]


def test_20_2_and_16_13_zones_of_control(tmp_path: Path) -> None:
    """20.2: an Allied unit in 1516 puts 1517, across the stream hexside, in its zone of control in
    good weather, not in poor; 16.13: an Allied unit in 1112 puts rough 1113 in its zone."""
    allied = '{{ name = "Infantry", side = "Allied", kind = "infantry", movement = 4, at = "{}" }}'
    d = make_pack(
        tmp_path,
        example("20.2", "zoc", f"{armor('1517')}, {allied.format('1516')}", "{ controlled = true }", 'weather = "good"')
        + example(
            "20.2", "zoc", f"{armor('1517')}, {allied.format('1516')}", "{ controlled = false }", 'weather = "poor"'
        )
        + example("16.13", "zoc", f"{armor('1113')}, {allied.format('1112')}", "{ controlled = true }")
        + example(
            "20.2", "zoc", f"{armor('1517')}, {allied.format('1516')}", "{ controlled = true }", 'weather = "poor"'
        ),
    )
    found = run(d)
    assert [p.level for p in found] == ["note", "note", "note", "error"]
    assert found[1].message == (
        "examples[1] (20.2, zoc): Panzer at 1517 in poor weather: in no enemy zone of control, as the rulebook says"
    )
    assert found[3].message == (
        "examples[3] (20.2, zoc): Panzer at 1517 in poor weather: the rulebook says in an "
        "enemy zone of control; the rules on this terrain say in no enemy zone of control"
    )


def test_examples_on_the_board_wait_for_the_module(tmp_path: Path) -> None:
    d = make_pack(tmp_path, example("17.11", "supply", armor("1018"), "{ supplied = true }"))
    [note] = [p for p in packs.validate(d) if "example" in p.message]
    assert note.level == "note" and note.message.startswith("1 worked example(s) not run")


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (example("16.11", "march", armor(), "{ legal = true }"), "examples[0].kind: unknown kind 'march'"),
        (example("16.11", "movement", armor(), "{ legal = true }"), "examples[0].move: a movement example needs"),
        (
            example("16.11", "movement", armor(), "{ legal = 1 }", 'move = ["1012", "1013"]'),
            "examples[0].expect.legal: expected bool, got 1",
        ),
        (
            example("16.11", "movement", armor(), "{ supplied = true }", 'move = ["1012", "1013"]'),
            "examples[0].expect.supplied: unknown key",
        ),
        (example("17.11", "supply", armor(), "{ supplied = true }"), "examples[0].units[0].at: a supply example needs"),
        (
            example("17.11", "supply", '{ name = "X", side = "Axis" }', "{ supplied = true }"),
            "examples[0].units[0].kind: a unit given by its values needs",
        ),
        (
            example("20.3", "allowance", armor(), "{ allowance = 6 }", 'weather = "snow"'),
            "examples[0].weather: unknown weather 'snow'",
        ),
        (
            example("17.11", "supply", armor("1018"), "{ supplied = true }", 'uses = "movement"'),
            "examples[0].uses: rule 'movement' is 'movement.allowance', not supply.trace",
        ),
        (example("17.11", "supply", armor("9999"), "{ supplied = true }"), "examples[0].units[0].at: no hex '9999'"),
        (
            example("17.11", "supply", '{ name = "5-3-12 (2/7)", at = "1018" }', "{ supplied = true }"),
            "examples[0].units[0].name: the pack has no units file",
        ),
    ],
)
def test_a_bad_example_is_a_pack_error_with_its_key_path(tmp_path: Path, text: str, message: str) -> None:
    d = make_pack(tmp_path, text)
    with pytest.raises(PackError) as e:
        packs.validate(d, layout=layout())
    assert e.value.message.startswith(message)
    assert str(e.value.where) == str(d / "pack.toml")


def test_cli_exit_status_0_1_2(tmp_path: Path) -> None:
    """0 when the examples hold, 1 when one fails (named), 2 when one is malformed."""
    good = example("16.12", "movement", armor(), "{ legal = true }", 'move = ["1012", "1013"]')
    runner = CliRunner()
    for name, text, status in (
        ("good", good, 0),
        ("fails", good.replace("true", "false"), 1),
        ("bad", good.replace('kind = "movement"', 'kind = "march"'), 2),
    ):
        d = make_pack(tmp_path / name, text)
        result = runner.invoke(main, ["packs", "validate", str(d), "--module", str(MODULE)])
        assert result.exit_code == status, result.output
        if status == 1:
            assert "examples[0] (16.12, movement): Panzer at 1012 1013: the rulebook says not legal" in result.output
        if status == 2:
            assert "examples[0].kind: unknown kind 'march'" in result.output


def test_the_templates_commented_examples_are_valid_examples() -> None:
    """The [[examples]] the template shows (commented out), uncommented and read against the
    Kasserine pack (which has the rules and units they use), are well formed."""
    text = (REPO / "modules" / "_template" / "pack.toml").read_text(encoding="utf-8")
    block = text[text.index("# [[examples]]") : text.index("# Rules: one table each.")]
    data = tomllib.loads("\n".join(line[2:] for line in block.splitlines() if line.startswith("# ")))
    examples = read_examples(data["examples"], packs.load_pack(KASSERINE).pack)
    assert [(e.rule, e.kind) for e in examples] == [("20.3", "allowance"), ("16.12", "movement")]


def test_cli_terrain_option_runs_the_examples_on_that_file(tmp_path: Path) -> None:
    """16.12 holds on the pack's terrain (the road enters rough 1013) and fails on a --terrain
    file without the road; the pack's own file is left as it was."""
    d = make_pack(tmp_path, example("16.12", "movement", armor(), "{ legal = true }", 'move = ["1012", "1013"]'))
    other = tmp_path / "real-map.csv"
    other.write_text("hex,1013 1113,rough\n", encoding="utf-8")
    runner = CliRunner()
    assert runner.invoke(main, ["packs", "validate", str(d), "--module", str(MODULE)]).exit_code == 0
    result = runner.invoke(main, ["packs", "validate", str(d), "--module", str(MODULE), "--terrain", str(other)])
    assert result.exit_code == 1
    assert "examples[0] (16.12, movement): Panzer at 1012 1013: the rulebook says legal" in result.output
    assert (d / "terrain.csv").read_text(encoding="utf-8") == TERRAIN
