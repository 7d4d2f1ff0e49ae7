"""``[scenarios.<id>]`` and ``--scenario`` (rules/packs/pack_scenarios.py, RULES-MAP N2), and verify
picking the movement rule in force in each phase (rules/turn_rules.in_phase, N1). Cases worked
by hand from Kesselring's War (seed 004) 27.1, 27.2 and optional rules 30-37, Tunisia 1943 (seed
001) Campaign I/II, and Kasserine (seed 000) 21.0 "Optional rules (Not currently in use in the
HexWar edition)"."""

from __future__ import annotations

import copy
import shutil
import tomllib
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from conftest import REPO

import vassal_adj
from vassal_adj import cli
from vassal_adj.errors import PackError, UsageError
from vassal_adj.model.geometry.hexes import Hex
from vassal_adj.model.geometry.maps import board_hex_layouts
from vassal_adj.model.state import GameState, Position
from vassal_adj.model.terrain import TerrainMap, TerrainVocabulary
from vassal_adj.model.units import Unit
from vassal_adj.packs import load_pack
from vassal_adj.rules.engine import RuleContext, adjudicate
from vassal_adj.rules.packs.pack import RulePack
from vassal_adj.rules.packs.pack_scenarios import match_scenario
from vassal_adj.rules.registry import REQUIRED, Param, Registry
from vassal_adj.rules.results import Severity
from vassal_adj.rules.turn import check_phase, turn_rules

KASSERINE = REPO / "modules" / "kasserine"
EXAMPLE = KASSERINE / "example"

# Kesselring's War 27.1 "SCENARIO I: Campaign Game ... Game Length: 8 turns ... Initiative: Allies ...
# Starting AP: 8 plus one die roll"; 27.2 "SCENARIO II: Avalanche-Baytown ... Game Length: 6 turns
# (... game begins on GT 3) ... Starting AP: 2". Optional rules 30.0-37.0 are switches.
KESSELRING: dict[str, Any] = {
    "pack": {"id": "kesselring", "name": "Kesselring's War"},
    "units": {"sides": ["Axis", "Allied"], "classes": ["infantry"]},
    "assumptions": {"starting_ap": {"value": 8, "source": "27.1 Starting AP: 8 plus one die roll", "rule": "27.1"}},
    "scenarios": {
        "scenario-1": {
            "name": "Campaign Game",
            "turns": [1, 8],
            "first_player": "Allied",
            "match": {"property": "Scenario", "value": "I"},
        },
        "scenario-2": {
            "name": "Avalanche-Baytown",
            "turns": [3, 8],
            "first_player": "Allied",
            "assumptions": {"starting_ap": 2},
            "optional": {"32-strategic-movement": True},
        },
    },
    "rules": {
        "command": {"impl": "command.points", "rule_ref": "4.1", "starting": {"assumption": "starting_ap"}},
        "strategic_movement": {
            "impl": "command.points",
            "rule_ref": "32.0",
            "starting": 0,
            "tags": ["32-strategic-movement"],
        },
    },
}


@pytest.fixture
def registry() -> Registry:
    r = Registry()

    @r.register("command.points", params={"starting": Param(REQUIRED, "int")})
    def command(state, ctx, p) -> list:
        """Command points (a stand-in implementation: the scenario machinery is what is tested)."""
        return []

    return r


def read(registry: Registry, **changes: Any) -> RulePack:
    data = copy.deepcopy(KESSELRING)
    for key, value in changes.items():
        data["scenarios"]["scenario-2"][key] = value
    return RulePack.from_mapping(data, registry=registry)


def test_27_scenarios_read_with_turns_first_player_and_their_own_assumptions(registry: Registry) -> None:
    """27.2's Starting AP 2 replaces the pack's 8 (27.1) for every rule using the assumption, in
    that scenario only."""
    rp = read(registry)
    one, two = rp.scenarios["scenario-1"], rp.scenarios["scenario-2"]
    assert (one.turns, one.first_player, two.turns) == ((1, 8), "Allied", (3, 8))
    assert rp.rule("command").params["starting"] == 8
    assert next(r for r in two.rule_configs if r.name == "command").params["starting"] == 2
    assert two.describe() == (
        "scenario-2: Avalanche-Baytown; Game-Turns 3-8; Allied first; 32-strategic-movement on; starting_ap = 2"
    )


def test_optional_rule_switched_on_in_one_scenario_and_not_listed_in_the_other(registry: Registry) -> None:
    """30-37 are optional: scenario-2 switches 32.0 on; scenario-1 lists only 4.1 in its rules, so
    32.0 is not in force there."""
    data = copy.deepcopy(KESSELRING)
    data["scenarios"]["scenario-1"]["rules"] = ["command"]
    rp = RulePack.from_mapping(data, registry=registry)
    ctx = RuleContext(TerrainMap(TerrainVocabulary(frozenset(), frozenset())), None, "kesselring")
    state = GameState({}, {}, 3, "allied-movement")
    rep = adjudicate(
        state, rp, RuleContext(ctx.terrain, None, "kesselring", scenario=rp.scenarios["scenario-1"]), registry=registry
    )
    assert [(f.rule, f.severity, f.message) for f in rep.findings] == [
        (
            "kesselring:32.0",
            Severity.INFO,
            (
                "rule strategic_movement (32.0) is not in force: it is not among the "
                "rules of scenario scenario-1 (Campaign Game)"
            ),
        )
    ]
    rep = adjudicate(
        state, rp, RuleContext(ctx.terrain, None, "kesselring", scenario=rp.scenarios["scenario-2"]), registry=registry
    )
    assert rep.findings == () and [c[0] for c in rep.checked] == ["command", "strategic_movement"]
    # the report shows the values the rules ran with: 27.2's Starting AP 2
    assert rep.parameters["command"]["params"]["starting"] == 2 and rep.assumptions["starting_ap"]["value"] == 2


def test_21_kasserine_optional_rules_not_in_use() -> None:
    """Kasserine 21.0 "OPTIONAL RULES (Not currently in use in the HexWar edition)": a rule tagged
    optional-21 and switched off in the HexWar scenario gives one INFO and does not run."""
    data = tomllib.loads((KASSERINE / "pack.toml").read_text(encoding="utf-8"))
    data["rules"] = {
        "allied_stacking_21": {"impl": "stacking.limit", "rule_ref": "21.0", "limit": 1, "tags": ["optional-21"]}
    }
    data["scenarios"] = {"hexwar": {"name": "HexWar edition", "optional": {"optional-21": False}}}
    rp = RulePack.from_mapping(data)
    units = {i: Unit(i, f"inf {i}", "Allied", "infantry", 7) for i in "ab"}
    state = GameState(units, {i: Position(Hex.from_raw(3, 3)) for i in units}, 3, "allied-movement")
    ctx = RuleContext(TerrainMap(rp.vocabulary), None, "kasserine", scenario=rp.scenarios["hexwar"])
    found = [(f.severity, f.message) for f in adjudicate(state, rp, ctx).findings if f.rule == "kasserine:21.0"]
    assert found == [
        (
            Severity.INFO,
            (
                "rule allied_stacking_21 (21.0) is not in force: scenario hexwar (HexWar "
                "edition) does not use this optional rule"
            ),
        )
    ]


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        (
            {"rules": ["command", "achse"]},
            (
                "scenarios.scenario-2.rules: 'achse' is neither a rule nor a tag of one "
                "(known: 32-strategic-movement, command, strategic_movement)"
            ),
        ),
        (
            {"optional": {"32-strategic-movement": "yes"}},
            ("scenarios.scenario-2.optional.\"32-strategic-movement\": expected true or false (the switch), got 'yes'"),
        ),
        (
            {"assumptions": {"initial_ap": 2}},
            ("scenarios.scenario-2.assumptions.initial_ap: unknown assumption 'initial_ap' (known: starting_ap)"),
        ),
        (
            {"assumptions": {"starting_ap": "two"}},
            (
                "scenarios.scenario-2.assumptions: with this scenario's values, "
                "rules.command.starting: expected int, got 'two' (str) "
                "(from assumptions.starting_ap)"
            ),
        ),
        (
            {"first_player": "Italy"},
            "scenarios.scenario-2.first_player: unknown side 'Italy' (the pack's: Axis, Allied)",
        ),
        (
            {"turns": [8, 3]},
            ("scenarios.scenario-2.turns: expected [first, last] Game-Turns, 1 <= first <= last, got [8, 3]"),
        ),
        (
            {"length": 6},
            (
                "scenarios.scenario-2.length: unknown key (known here: assumptions, first_player, match, name, "
                "note, optional, rules, turns)"
            ),
        ),
    ],
)
def test_bad_scenario_names_the_key_path(registry: Registry, changes: dict[str, Any], message: str) -> None:
    with pytest.raises(PackError) as e:
        read(registry, **changes)
    assert e.value.message == message


def test_a_save_is_matched_by_global_property_then_by_opening_turn(registry: Registry) -> None:
    """27.2 "game begins on GT 3": a save on GT 2 can only be Scenario I; on GT 5 it could be either,
    and the file does not say which unless its global property does."""
    scenarios = read(registry).scenarios
    notes: list[str] = []
    assert match_scenario(scenarios, None, {"Scenario": "I"}, 5, notes).id == "scenario-1"
    assert notes[-1] == "scenario scenario-1 (Campaign Game): the save's global property Scenario is 'I'"
    assert match_scenario(scenarios, None, {}, 2, notes).id == "scenario-1"
    assert notes[-1] == "scenario scenario-1 (Campaign Game): Game-Turn 2 lies only in its turns 1-8"
    assert match_scenario(scenarios, None, {}, 5, notes) is None
    assert notes[-1] == "no scenario: the save could be scenario-1 or scenario-2 (give --scenario)"
    assert match_scenario(scenarios, "scenario-2", {"Scenario": "I"}, 2, notes).id == "scenario-2"  # the user's word
    with pytest.raises(UsageError) as e:
        match_scenario(scenarios, "3", {}, 2, notes)
    assert e.value.message == "--scenario '3': unknown scenario (known: scenario-1, scenario-2)"


def test_check_with_an_unknown_scenario_is_a_usage_error() -> None:
    result = CliRunner().invoke(
        cli.main,
        ["check", str(EXAMPLE / "setup.vsav"), "--module", str(EXAMPLE / "Kasserine.vmod"), "--scenario", "campaign-2"],
    )
    assert result.exit_code == 2 and "--scenario 'campaign-2': unknown scenario (known: none)" in result.stderr


def with_scenario(tmp_path: Path) -> Path:
    """A copy of the Kasserine pack with one scenario, the whole game (20.4: 12 Game-Turns)."""
    pack = tmp_path / "kasserine2"
    shutil.copytree(KASSERINE, pack, ignore=shutil.ignore_patterns("example", "*.md"))
    text = (pack / "pack.toml").read_text(encoding="utf-8").replace('id = "kasserine"', 'id = "kasserine2"')
    text += '\n[scenarios.hexwar]\nname = "HexWar edition"\nturns = [1, 12]\nfirst_player = "Axis"\n'
    (pack / "pack.toml").write_text(text, encoding="utf-8")
    return pack


def test_check_and_verify_say_which_scenario(tmp_path: Path) -> None:
    """The scenario given reaches the rules and the report's notes, for a save and for a log."""
    pack = str(with_scenario(tmp_path))
    module = str(EXAMPLE / "Kasserine.vmod")
    result = CliRunner().invoke(
        cli.main, ["check", str(EXAMPLE / "setup.vsav"), "--module", module, "--pack", pack, "--scenario", "hexwar"]
    )
    assert "note: scenario hexwar (HexWar edition): given by --scenario" in result.stdout, result.output
    # without --scenario: the only scenario whose turns hold the save's turn
    result = CliRunner().invoke(
        cli.main, ["check", str(EXAMPLE / "turn3-faults.vsav"), "--module", module, "--pack", pack]
    )
    assert "scenario hexwar (HexWar edition): Game-Turn 3 lies only in its turns 1-12" in result.stdout, result.output
    result = CliRunner().invoke(
        cli.main, ["verify", str(EXAMPLE / "turn4-axis.vlog"), "--module", module, "--pack", pack, "--scenario", "nope"]
    )
    assert result.exit_code == 2 and "unknown scenario (known: hexwar)" in result.stderr


def test_packs_list_and_validate_show_scenarios(tmp_path: Path) -> None:
    pack = with_scenario(tmp_path)
    result = CliRunner().invoke(cli.main, ["packs", "validate", str(pack)])
    assert "note: scenario hexwar: HexWar edition; Game-Turns 1-12; Axis first" in result.stdout, result.output
    result = CliRunner().invoke(cli.main, ["packs", "list", "--modules-dir", str(tmp_path)])
    assert "  scenario hexwar: HexWar edition; Game-Turns 1-12; Axis first" in result.stdout, result.output


# -- verify: the movement rule in force in each phase -------------------------------------------
PANZER = Unit("g1", "5-3-12 (2/7)", "Axis", "armor", 12, attack=5, defense=3, mechanized=True)


@pytest.fixture(scope="module")
def board() -> RuleContext:
    module = vassal_adj.load_module(EXAMPLE / "Kasserine.vmod")
    layout = board_hex_layouts(module.maps["Main Map"].boards["Kasserine"])[0]
    return RuleContext(load_pack(KASSERINE).terrain(layout), layout, "kasserine")


def shortage_pack() -> RulePack:
    """Kasserine's pack with a second movement rule before its own, in force on turns 6-7 in the
    Axis player-turn, that cuts a 12 MP allowance to 3 (Tunisia Campaign II: "To the turns 6 and 7,
    all the units of player Italio-German are reduced to 3 movement points")."""
    data = tomllib.loads((KASSERINE / "pack.toml").read_text(encoding="utf-8"))
    shortage = dict(
        data["rules"]["movement"],
        rule_ref="Campaign II",
        weather_allowance={"good": [[8, -9]]},
        weather_rule="Campaign II",
        when={"turns": [6, 7], "sides": ["Axis"]},
    )
    data["rules"] = {"gas_shortage": shortage, **data["rules"]}
    return RulePack.from_mapping(data)


def move(board: RuleContext, rp: RulePack, turn: int | None):
    """The Panzer moves 0517 -> 0521: four clear hexes, 4 MP, in good weather."""
    st = GameState({"g1": PANZER}, {"g1": Position(board.layout.hex_of("0517"), "0517")}, turn, "axis-movement", "good")
    drags = {"g1": [(Position(board.layout.hex_of("0517"), "0517"), Position(board.layout.hex_of("0521"), "0521"))]}
    return check_phase(st, st.phase, drags, turn_rules(rp, board), board)


def test_verify_judges_each_phase_by_the_movement_rule_in_force(board: RuleContext) -> None:
    rp = shortage_pack()
    ok = move(board, rp, 5)  # turn 5: the pack's own movement rule (20.3), 12 MP
    assert [f.severity for f in ok.findings] == [Severity.INFO] and ok.moves[0].ok and ok.moves[0].allowance == 12
    short = move(board, rp, 6)  # turn 6: 3 MP, so 4 MP is too far
    assert short.moves[0].ok is False and short.moves[0].allowance == 3
    assert [f.rule for f in short.findings if f.severity == Severity.ERROR] == ["kasserine:Campaign II"]


def test_verify_says_when_the_movement_rule_in_force_cannot_be_told(board: RuleContext) -> None:
    """No turn known: the shortage rule may be in force; the move is judged by the pack's own rule
    and a warning says on what the verdict rests."""
    pc = move(board, shortage_pack(), None)
    warnings = [f.message for f in pc.findings if f.severity == Severity.WARNING]
    assert warnings == [
        (
            "phase axis-movement: the moves are judged by rule movement (20.3), but the movement rule in "
            "force may be another: gas_shortage (Campaign II): it is in force on Game-Turns 6-7, and the "
            "files do not tell the turn"
        )
    ]
