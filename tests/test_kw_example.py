"""The Kesselring's War example (modules/kesselrings-war/example/) is what scripts/make_kw_example.py
writes, and it is what it claims: the module's board, displays (pack.toml [boxes]), counters with
their Reduced layer, markers, tracker, die and global property; each scenario's set-up (seed 004,
27.1, 27.2); one deliberate fault a file (scripts/kw_faults.FAULTS) and a clean log. `check`, `vp`
and `verify` run on every file; faults (a)-(g) are reported under their rules, the logs' faults
where FAULTS says; VASSAL (the oracle) opens every file; golden reports of `check` on the saves
(regenerate with `UPDATE_GOLDEN=1 python -m pytest tests/test_kw_example.py`, then read the diff).
"""

from __future__ import annotations

import importlib
import re
import sys
import zipfile
from pathlib import Path

import pytest
from conftest import REPO
from example_suite import Example, assert_same_bytes, assert_zips_match, run_cli

import vassal_adj
from vassal_adj import packs as packs_io
from vassal_adj.lint import lint, read_lint_input
from vassal_adj.parse.global_props import global_values
from vassal_adj.parse.turns import tracker_reading
from vassal_adj.pbem.replay import replay

EX = Example("kesselrings-war", "KesselringsWar.vmod")
PACK, EXAMPLE, MODULE = EX.pack, EX.dir, EX.module
GOLDEN = Path(__file__).resolve().parent / "golden" / "kesselrings-war"
sys.path.insert(0, str(REPO / "scripts"))
km = importlib.import_module("kw_module")
kf = importlib.import_module("kw_faults")
FILES = ("KesselringsWar.vmod", *kf.GAMES)
SAVES = tuple(f for f in kf.GAMES if f.endswith(".vsav"))
LOGS = tuple(f for f in kf.GAMES if f.endswith(".vlog"))
FAULTS = {f["fault"]: f for f in kf.FAULTS}


@pytest.fixture(scope="module")
def fresh(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("kw-example")
    importlib.import_module("make_kw_example").main(out)
    return out


def test_committed_example_is_what_the_script_writes(fresh: Path) -> None:
    assert sorted(p.name for p in EXAMPLE.iterdir()) == sorted(FILES)
    assert_zips_match(EXAMPLE, fresh, FILES, "make_kw_example.py")


def test_generation_is_deterministic(fresh: Path, tmp_path: Path) -> None:
    importlib.import_module("make_kw_example").main(tmp_path)
    assert_same_bytes(tmp_path, fresh, FILES)


def test_the_module_fits_the_pack_and_has_every_counter_and_marker() -> None:
    pack = EX.pack_toml()
    module = vassal_adj.load_module(MODULE)
    assert re.fullmatch(pack["pack"]["module"]["name"], module.name)
    assert list(module.maps) == ["Main Map", "Displays"]
    lines = (PACK / "order-of-battle.csv").read_text(encoding="utf-8").splitlines()
    printed = [x.split(",")[1] for x in lines if x and not x.startswith("#")][1:]
    rows = [c for c in km.counters() if not c.marker]
    assert [c.name for c in rows] == printed and len(printed) == 114  # every counter of order-of-battle.csv
    by_list = {s: sorted(x.entry_name for x in module.piece_slots if x.folder[-1] == s) for s in ("Axis", "Allied")}
    assert by_list == {s: sorted(c.name for c in rows if c.side == s) for s in ("Axis", "Allied")}
    markers = sorted(x.entry_name for x in module.piece_slots if x.folder[-1] == "Markers")
    # pack.toml [state] tracks' markers, the surrender marker (assumption surrender_marker), 27.1's fortification
    assert markers == ["Allied Action Points", "Axis Action Points", "Fortification", "Italian Surrender"]
    slots = {s.entry_name: s.text for s in module.piece_slots}
    for c in rows:  # units.toml reads "Reduced_Active" (the counter's back): ground units only
        layers = re.findall(r"emb2;[^;]*;130;\w;;128;;;128;;;;1;false;0;0;[^;]*;;true;(\w+);", slots[c.name])
        assert layers == (["Reduced"] if c.cls in km.GROUND else []), c.name
    assert {p.name: p.initial_value for p in module.global_properties} == {"Scenario": "I"}
    (die,) = module.dice_buttons
    assert (die.name, die.n_dice, die.n_sides) == ("1d6", 1, 6)  # 2.0 "a six-sided die (1d6)"
    (tracker,) = module.turn_trackers
    assert tracker.name == pack["state"]["tracker"]
    (turn,) = tracker.levels
    (phase,) = turn.levels
    assert (turn.name, phase.name) == (pack["state"]["turn_level"], pack["state"]["phase_level"])
    assert list(phase.items) == list(pack["state"]["phases"])  # 4.1's segments and phases


def test_units_toml_reads_every_counter_of_a_set_up_and_the_module_carries_both() -> None:
    # Every counter in play is a unit of its order-of-battle side and class (units.toml); of the markers
    # only the Fortification is (units.toml pattern marker, its side the property Side). The set-ups are
    # the module's predefined set-ups.
    module = vassal_adj.load_module(MODULE)
    assert {s.name: s.file for s in module.predefined_setups} == {
        "Scenario I": "scenario-1.vsav",
        "Scenario II": "scenario-2.vsav",
    }
    by_name = {c.name: c for c in km.counters()}
    for name in ("scenario-1.vsav", "scenario-2.vsav"):
        state, _, _ = vassal_adj.game_state(module, vassal_adj.load_save(EXAMPLE / name), "kesselrings-war")
        placed = [n for n in EX.pieces(name) if not by_name[n].marker or n in km.MARKER_SIDES]
        assert sorted(u.name for u in state.units.values()) == sorted(placed)
        for u in state.units.values():
            c = by_name[u.name]
            want = (km.MARKER_SIDES[u.name], "fortification") if c.marker else (c.side, c.cls)
            assert (u.side, u.kind) == want, u.name  # 25.4: the Fortification marker is the Axis's


def test_the_displays_are_the_pack_s_boxes() -> None:
    # 2.9: each side's TRT, AP track, Reinforcement Display, Withdrawn, Permanently Eliminated and
    # Staging Area; every zone is exactly one [boxes] entry's, and every entry has its zones.
    build = zipfile.ZipFile(MODULE).read("buildFile.xml").decode()
    zones = re.findall(r'mapgrid\.Zone highlightProperty="" locationFormat="\$name\$" name="([^"]+)"', build)
    boxes = EX.pack_toml()["boxes"]
    owners = {z: [k for k, b in boxes.items() if re.fullmatch(b["regex"], z)] for z in zones}
    assert all(len(k) == 1 for k in owners.values()), owners
    assert {k[0] for k in owners.values()} == set(boxes)
    for side in ("Axis", "Allied"):
        assert [z for z in zones if z.startswith(f"{side} TRT ")] == [f"{side} TRT {n}" for n in range(1, 9)]
        assert [z for z in zones if z.startswith(f"{side} AP ")] == [f"{side} AP {n}" for n in range(31)]


@pytest.mark.parametrize("name", kf.GAMES)
def test_each_file_shows_its_scenario_turn_and_phase(name: str) -> None:
    scenario, turn, phase, _, steps, _ = kf.GAMES[name]
    phase = next((s[2] for s in reversed(steps) if s[0] == "turn"), phase)  # where a log ends
    module = vassal_adj.load_module(MODULE)
    game = vassal_adj.load_save(EXAMPLE / name)
    reading = tracker_reading(module, game.root, "Game Turn")
    assert reading is not None and (reading.value("Turn"), reading.value("Phase")) == (turn, phase)
    assert global_values(module, game.root)["Scenario"] == scenario


def test_27_1_scenario_1_set_up_breaks_no_rule() -> None:
    # 12.3: its 16 Garrisons (27.1) are in supply though the map has 12 Axis sources (assumption loc_readings)
    assert EX.errors("check", "scenario-1.vsav") == []
    got = EX.pieces("scenario-1.vsav")
    assert got["Fortification"] == ("Main Map", "2027")  # 27.1 "Fortifications: Messina (hex 2027)"
    assert got["Axis Action Points"] == ("Displays", "Axis AP 12")  # 27.1 "8 plus one die roll" (a 4)
    assert got["Allied Action Points"] == ("Displays", "Allied AP 17")  # "14 plus one die roll" (a 3)
    assert "Italian Surrender" not in got


def test_27_2_scenario_2_set_up_breaks_no_rule() -> None:
    # 27.2 Special Rule 4 "Allies start with GT 3 reinforcements already in play" and KG 100 (GT 3)
    # among the Axis SSU set up: no reinforcement in play too early ([rules.*_reinforcements] at_start)
    assert EX.errors("check", "scenario-2.vsav") == []
    got = EX.pieces("scenario-2.vsav")
    assert got["Fortification"] == ("Main Map", "2028")  # 27.2 "Fortifications: Reggio (hex 2028)"
    assert got["Italian Surrender"] == ("Displays", "Axis TRT 3")  # "Italian Surrender has occurred"
    assert (got["Axis Action Points"], got["Allied Action Points"]) == (
        ("Displays", "Axis AP 2"),
        ("Displays", "Allied AP 6"),
    )


@pytest.mark.parametrize("command", ["check", "vp"])
@pytest.mark.parametrize("name", kf.GAMES)
def test_check_and_vp_judge_every_file(command: str, name: str) -> None:
    code, out = EX.on(command, name)
    assert code in (0, 1), out
    if command == "vp":
        assert "victory conditions at the last position" in out and "kesselrings-war:3.1" in out  # 3.1


# verify takes a log, or saves in game order (a save alone holds no moves).
VERIFY_RUNS = [
    ("scenario-1.vsav", "sc1-gt1-air-overstack.vsav"),
    ("scenario-1.vsav", "sc1-gt1-early-reinforcement.vsav"),
    ("scenario-2.vsav", "sc2-gt4-withdrawal-missed.vsav"),
    ("scenario-2.vsav", "sc2-gt4-port-lost-garrison.vsav"),
    *((log,) for log in LOGS),
]


@pytest.mark.parametrize("files", VERIFY_RUNS, ids="+".join)
def test_verify_replays_every_file(files: tuple[str, ...]) -> None:
    code, out = EX.on("verify", *files)
    assert code in (0, 1), out


def test_fault_a_three_air_units_at_a_functional_airfield_10_1_20_2_2() -> None:
    # 10.1 "Two air units of any type may stack in a hex ... when based at a functional airfield";
    # 20.2.2 "Airfield with a full-strength garrison: two air units": Palermo holds Axis Garrison 1.
    fault = FAULTS["a"]
    got = EX.pieces(fault["file"])
    assert [got[u] for u in fault["units"]] == [("Main Map", "1326")] * 3
    assert got["Garrison 1 [AX garrison] 0-2 *"] == ("Main Map", "1326")
    found = EX.errors("check", fault["file"])
    (error,) = [f for f in found if f["severity"] == "error"]
    assert error["rule"] == fault["rule"] == "kesselrings-war:10.1"
    assert error["hexes"] == ["1326"] and "3 Axis units of pool 'air' in 1326 exceed its limit of 2" in error["message"]
    assert sorted(error["unit_names"]) == sorted(fault["units"])
    assert len(found) == 1  # nothing else


def test_fault_b_a_unit_out_of_supply_when_its_port_lost_its_garrison_12_4() -> None:
    # 12.4 "Allies: A Garrison unit in any port hex"; 12.1 "A port or airfield is only considered to be
    # functional if it contains a Garrison": GTM at 1508, Cagliari's Garrison A6 gone.
    fault = FAULTS["b"]
    got = EX.pieces(fault["file"])
    assert got["GTM [FR mountain X] 2-3-4 *"] == ("Main Map", "1508")
    assert got["Garrison A6 [AL garrison] 0-2 *"] == ("Displays", "Allied Reinforcement Display")
    found = EX.errors("check", fault["file"])
    allied = [f for f in found if f["unit_names"][0].split(" [")[1].split()[0] not in ("GE", "IT", "AX")]
    (warning,) = allied
    assert warning["rule"] == fault["rule"] == "kesselrings-war:12.2" and warning["hexes"] == ["1508"]
    assert warning["unit_names"] == list(fault["units"]) and "is out of supply" in warning["message"]
    # with its Garrison, Cagliari supplies a unit in the hex next to it (the Scenario II set-up)
    assert not any("GTM" in f["unit_names"][0] for f in EX.errors("check", "sc2-gt4-withdrawal-missed.vsav"))


def test_fault_c_a_withdrawal_missed_9_1_29_0() -> None:
    # 29.0 (assumption withdrawals_chart) withdraws the US 9th Infantry Division on GT 4; 9.1 "During the
    # Withdrawal Segment, units to be withdrawn are removed": it is still at Palermo in the Action phase.
    fault = FAULTS["c"]
    found = EX.errors("check", fault["file"])
    (error,) = [f for f in found if f["severity"] == "error"]
    assert error["rule"] == fault["rule"] == "kesselrings-war:29.0"
    assert error["hexes"] == ["1326"] and "still in play: 9 [US infantry XX] 6-5-4 * at 1326" in error["message"]


def test_fault_d_a_reinforcement_before_its_turn_7_1() -> None:
    # 7.1 "Reinforcement units have either a GT number ... printed on the counter": 8 Ind "GT2" in the
    # Allied Staging Area on GT 1.
    fault = FAULTS["d"]
    found = EX.errors("check", fault["file"])
    (error,) = [f for f in found if f["severity"] == "error"]
    assert error["rule"] == fault["rule"] == "kesselrings-war:7.1"
    assert error["unit_names"] == list(fault["units"])
    assert "is in play on Game-Turn 1: it arrived early; it enters on Game-Turn 2" in error["message"]


def test_fault_e_an_invasion_with_one_ap_on_the_track_6_1_18_3() -> None:
    # 18.3 "The Allies conduct an Invasion by declaring an Amphibious Invasion, expending two AP"; 5.2 "may
    # never have less than zero": the Allied marker goes from 1 to 0 and Amphib 3 with three US units
    # invade 1731 from the Allied Staging Area.
    fault = FAULTS["e"]
    errors = [f for f in EX.findings("verify", fault["file"]) if f["severity"] == "error"]
    (error,) = errors
    assert error["rule"] == "kesselrings-war:6.1"
    assert "the Allied track held 1, the invasion costs 2" in error["message"]


def test_fault_g_a_transfer_to_a_port_with_no_garrison_is_no_legal_transport_14_1_2() -> None:
    # 14.1.2 "Allies: Staging Area and all friendly functional ports"; 12.1 "A port or airfield is only
    # considered to be functional if it contains a Garrison": Olbia (1502) holds none. No Amphib moved,
    # so it is no invasion (18.2) either: the port's missing Garrison is the fault.
    fault = FAULTS["g"]
    errors = [f for f in EX.findings("verify", fault["file"]) if f["severity"] == "error"]
    (error,) = errors
    assert error["rule"] == fault["rule"] == "kesselrings-war:14.1.2"
    assert "Olbia (1502) holds no friendly garrison units" in error["message"]


def test_fault_f_a_unit_moves_again_after_another_unit_in_one_action_13_2() -> None:
    # 13.2 "A unit may move more than once in an Action Phase, if each move is made in different Action
    # Segments": in one move action (AP 13 -> 12) 5th UK moves, 78th UK moves, 5th UK moves again.
    fault = FAULTS["f"]
    errors = [f for f in EX.findings("verify", fault["file"]) if f["severity"] == "error"]
    (error,) = errors
    assert error["rule"] == fault["rule"] == "kesselrings-war:13.2"
    assert "Allied 5 [UK infantry XX] 5-5-4 * moved again" in error["message"] and "after 78 [UK" in error["message"]


@pytest.mark.parametrize("key", ["e", "f", "g"])
def test_the_logs_show_their_faults_where_faults_says(key: str) -> None:
    # The logs hold what FAULTS says, step by step.
    fault = FAULTS[key]
    module = vassal_adj.load_module(MODULE)
    game = vassal_adj.load_save(EXAMPLE / fault["file"])
    steps = kf.GAMES[fault["file"]][4]
    assert steps[0][0] == "move" and steps[0][2] == kf.ALLIED_AP  # the action opens on the AP marker (6.1)
    moved = [steps[n - 1][2] for n in fault["steps"] if steps[n - 1][2] != kf.ALLIED_AP]
    assert set(moved) == set(fault["units"])
    assert {steps[n - 1][3] for n in fault["steps"]} <= set(fault["hexes"]) | {"Allied AP 0"}
    assert len(replay(game.root, module).steps) == len(steps)
    opening = EX.pieces(fault["file"])
    if key == "e":
        assert opening[kf.ALLIED_AP] == ("Displays", "Allied AP 1")  # 18.3 "expending two AP"
    if key == "g":
        assert "1502" not in {h for n, (m, h) in opening.items() if "garrison" in n}  # no Garrison at Olbia


def test_the_clean_log_plays_a_whole_command_phase_four_actions_and_both_passes_5_1_5_2_1_6_1() -> None:
    # 5.1 events, 5.2.1 AP (die + Staging Area + garrisoned Objectives), 9.1/29.0 withdrawals, 7.2, then
    # actions that each open on the AP marker (6.1) until both sides pass: no error, no warning (13.2's
    # one contingent is read in Actions only; the naval transfer is the transport rule's, not 7.1's).
    assert EX.errors("verify", "sc2-gt4-clean.vlog") == []
    rolls = [s for s in kf.CLEAN if s[0] == "roll"]
    assert [(s[1], s[2]) for s in rolls] == [
        ("Allied", "5"),
        ("Axis", "6"),
        ("Allied", "4"),
        ("Axis", "2"),
        ("Axis", "2"),
    ]
    passes = [s[2] for s in kf.CLEAN if s[0] == "chat"]
    assert passes == ["Allied passes", "Axis passes"]


def test_packs_validate_runs_on_the_example_module() -> None:
    code, out = run_cli(["packs", "validate", "modules/kesselrings-war", "--module", EX.rel("KesselringsWar.vmod")])
    assert code == 0, out


@pytest.mark.parametrize("fmt", ["text", "json"])
@pytest.mark.parametrize("save", SAVES)
def test_check_report_matches_golden(save: str, fmt: str) -> None:
    EX.check_matches_golden(save, fmt, GOLDEN)


@pytest.mark.parametrize("name", kf.GAMES)
def test_vassal_opens_every_example_file_with_every_piece_at_its_place(name: str) -> None:
    assert EX.vassal_agrees(name) in (117, 118)  # Scenario I and II counters in play, the markers


def test_the_readme_s_example_commands_run() -> None:
    codes = EX.readme_codes("## Every adjudicable rule")
    assert len(codes) == 4
    assert (codes[0], codes[1], codes[3]) == (1, 0, 0)  # the air overstack (10.1), vp, validate
    assert codes[2] in (0, 1)  # the clean log: sequence-of-play errors until the action segments judge it


def test_lint_finds_nothing_in_the_module_its_set_ups_and_the_pack_s_set_up_rules() -> None:
    # Slots with '/' in their names ("A/5 Flak", "I/DAF") escaped as VASSAL reads them, the set-ups
    # with no player's seat or password and each piece with its own slot's id (issue 16's lint).
    report = lint(read_lint_input(str(MODULE), []), packs_io.find_pack(str(PACK)))
    assert [(f.check, f.message) for f in report.findings] == []
