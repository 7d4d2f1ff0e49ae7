"""The Tunisia 1943 example (modules/tunisia-1943/example/) is what scripts/make_tunisia_example.py
writes, and it is what it claims: the module's board, boxes, counters with their layers, tracker and
global property; each campaign's set-up (seed 001, Campaign I and II: the Tigers, Campaign I's
Allied stacking); one deliberate fault a file (scripts/tunisia_faults.FAULTS). `check`, `vp` and
`verify` run on every file; faults (b) 5.1/12 and (f) Campaign II are reported under their rules;
VASSAL (the oracle) opens every file; golden reports of `check` on the saves (regenerate with
`UPDATE_GOLDEN=1 python -m pytest tests/test_tunisia_example.py`, then read the diff).
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
from vassal_adj.parse.global_props import global_values
from vassal_adj.parse.turns import tracker_reading

EX = Example("tunisia-1943", "Tunisia1943.vmod")
PACK, EXAMPLE, MODULE = EX.pack, EX.dir, EX.module
GOLDEN = Path(__file__).resolve().parent / "golden" / "tunisia"
sys.path.insert(0, str(REPO / "scripts"))
tm = importlib.import_module("tunisia_module")
tf = importlib.import_module("tunisia_faults")
FILES = ("Tunisia1943.vmod", *tf.GAMES)
SAVES = tuple(f for f in tf.GAMES if f.endswith(".vsav"))
LOGS = tuple(f for f in tf.GAMES if f.endswith(".vlog"))
FAULTS = {f["fault"]: f for f in tf.FAULTS}


@pytest.fixture(scope="module")
def fresh(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("tunisia-example")
    importlib.import_module("make_tunisia_example").main(out)
    return out


def test_committed_example_is_what_the_script_writes(fresh: Path) -> None:
    assert sorted(p.name for p in EXAMPLE.iterdir()) == sorted(FILES)
    assert_zips_match(EXAMPLE, fresh, FILES, "make_tunisia_example.py")


def test_generation_is_deterministic(fresh: Path, tmp_path: Path) -> None:
    importlib.import_module("make_tunisia_example").main(tmp_path)
    assert_same_bytes(tmp_path, fresh, FILES)


def test_the_module_fits_the_pack_and_has_every_counter_with_its_layers() -> None:
    pack = EX.pack_toml()
    module = vassal_adj.load_module(MODULE)
    assert re.fullmatch(pack["pack"]["module"]["name"], module.name)
    assert [m for m in module.maps] == ["Main Map", "Holding Boxes"]
    rows = [c for c in tm.counters() if not c.marker]
    lines = (PACK / "order-of-battle.csv").read_text(encoding="utf-8").splitlines()
    printed = [x.split(",")[0] for x in lines if x and not x.startswith("#")][1:]
    assert [c.name for c in rows] == printed and len(printed) == 100  # every counter of order-of-battle.csv
    by_list = {s: sorted(x.entry_name for x in module.piece_slots if x.folder[-1] == s) for s in ("Axis", "Allied")}
    assert by_list == {s: sorted(c.name for c in rows if c.side == s) for s in ("Axis", "Allied")}
    slots = {s.entry_name: s.text for s in module.piece_slots}
    for c in rows:  # units.toml reads "<layer>_Active" of these layers (9.2, 7.4, 0.1, 10)
        layers = ("OutOfSupply", "Flipped", "Sustained") if c.em else ("OutOfSupply", "LossOfZoC")
        assert re.findall(r"emb2;[^;]*;130;\w;;128;;;128;;;;1;false;0;0;[^;]*;;true;(\w+);", slots[c.name]) == list(
            layers
        ), c.name
    assert {p.name: p.initial_value for p in module.global_properties} == {"Campaign": "I"}
    (tracker,) = module.turn_trackers
    assert tracker.name == pack["state"]["tracker"]
    (turn,) = tracker.levels
    (phase,) = turn.levels
    assert (turn.name, phase.name) == (pack["state"]["turn_level"], pack["state"]["phase_level"])
    assert list(phase.items) == list(pack["state"]["phases"])  # the ten phases of 1, exploitation included


def test_the_boxes_are_the_pack_s() -> None:
    # pack.toml [boxes]: the turn track's "Turn N" (6.3, 11), Eliminated, Exited (Campaign I's exit).
    build = zipfile.ZipFile(MODULE).read("buildFile.xml").decode()
    zones = re.findall(r'mapgrid\.Zone highlightProperty="" locationFormat="\$name\$" name="([^"]+)"', build)
    assert zones == [f"Turn {n}" for n in range(1, 9)] + ["Eliminated", "Exited"]
    pack = EX.pack_toml()
    assert all(re.fullmatch(pack["boxes"][k]["regex"], z) for k, z in (("turn", "Turn 8"), ("eliminated", zones[8])))


@pytest.mark.parametrize("name", tf.GAMES)
def test_each_file_shows_its_campaign_turn_and_phase(name: str) -> None:
    campaign, turn, phase, *_ = tf.GAMES[name]
    module = vassal_adj.load_module(MODULE)
    game = vassal_adj.load_save(EXAMPLE / name)
    reading = tracker_reading(module, game.root, "Game Turn")
    assert reading is not None and (reading.value("Turn"), reading.value("Phase")) == (turn, phase)
    assert global_values(module, game.root)["Campaign"] == campaign
    assert EX.pieces(name)["Game Turn"] == ("Holding Boxes", f"Turn {turn}")


@pytest.mark.parametrize(("name", "campaign"), [("campaign-1.vsav", "I"), ("campaign-2.vsav", "II")])
def test_the_set_up_of_each_campaign(name: str, campaign: str) -> None:
    got = EX.pieces(name)
    serving = [c for c in tm.counters() if not c.marker and c.serves(campaign)]
    # 0.1: the second counter of a 4-step unit is "used alternately (and not simultaneously)".
    assert set(got) - {"Game Turn"} == {c.name for c in serving if "(2-1)" not in c.name}
    on_map = [(n, h) for n, (m, h) in got.items() if m == "Main Map"]
    combat = [(n, h) for n, h in on_map if not n.startswith("EM ") and "sPzAbt" not in n]
    assert len({h for _, h in combat}) == len(combat)  # one combat unit a hex (5.1; Campaign I Allies)
    tigers = [got["8-7-7-* sPzAbt 501/1"][1], got["8-7-7-* sPzAbt 501/2"][1]]
    assert tigers[0] == got["9-6-8-9 Pz.Rgt 7 (4-3) (10.Pz)"][1]  # "with a unit of the 10. Panzer"
    assert 6 <= int(tigers[1][:2]) <= 12  # "on the West front" (assumption west_front: columns 06-12)
    boxes = {h for m, h in got.values() if m == "Holding Boxes"} - {"Turn 1"}
    assert boxes == ({"Turn 5", "Turn 6"} if campaign == "I" else {"Turn 7"})


@pytest.mark.parametrize("command", ["check", "vp"])
@pytest.mark.parametrize("name", tf.GAMES)
def test_check_and_vp_judge_every_file(command: str, name: str) -> None:
    code, out = EX.on(command, name)
    assert code in (0, 1), out
    if command == "vp":
        assert "if the game ended with this state:" in out  # victory.conditions of the campaign


# verify takes a log, or saves in game order (a save alone holds no moves).
VERIFY_RUNS = [
    ("campaign-1.vsav", "c1-turn2-two-tigers.vsav"),
    ("campaign-1.vsav", "c1-turn3-em-destroyed.vsav"),
    ("campaign-2.vsav", "c2-turn6-fuel-shortage.vlog"),
    *((log,) for log in LOGS),
]


@pytest.mark.parametrize("files", VERIFY_RUNS, ids="+".join)
def test_verify_replays_every_file(files: tuple[str, ...]) -> None:
    code, out = EX.on("verify", *files)
    assert code in (0, 1), out


def test_the_set_ups_break_no_rule() -> None:
    for name in ("campaign-1.vsav", "campaign-2.vsav"):
        assert EX.errors("check", name) == [], name


def test_fault_b_two_tigers_in_one_hex_5_1_12() -> None:
    # 5.1 "Two combat units maximum ... the Tiger units" do not count; 12 "A Tiger counter (and one
    # only) can stack in addition": 1105 holds Jg HG, its EM and both Tigers.
    fault = FAULTS["b"]
    got = EX.pieces(fault["file"])
    assert [n for n, (m, h) in got.items() if h == "1105"] == [
        "EM 2-6 (HG)",
        "5-6-6-8 Jg HG (HG)",
        "8-7-7-* sPzAbt 501/1",
        "8-7-7-* sPzAbt 501/2",
    ]
    (error,) = EX.errors("check", fault["file"])
    assert error["rule"] == fault["rule"] == "tunisia-1943:5.1"
    assert error["hexes"] == ["1105"] and "pool 'Tiger' in 1105 exceed its limit of 1" in error["message"]
    assert sorted(error["unit_names"]) == sorted(fault["units"])


def test_fault_a_units_of_a_destroyed_em_out_of_supply_6_3() -> None:
    # 6.3 "The units of a destroyed EM are automatically and immediately not in supply ... until the
    # return of the EM": the 334. ID's EM waits in the Turn 4 box at the Axis supply check; its three
    # regiments are out of supply (6.3) and carry no out-of-supply marker (9.2 "One places an out of
    # supply marker on the unit").
    fault = FAULTS["a"]
    found = EX.errors("check", fault["file"])
    out = [f for f in found if f["rule"] == fault["rule"] == "tunisia-1943:6.3"]
    assert sorted(f["unit_names"][0] for f in out) == sorted(fault["units"])
    assert all("it is not on the map but in Turn 4 [6.3]" in f["message"] and f["severity"] == "warning" for f in out)
    assert {f["hexes"][0] for f in out} == set(fault["hexes"])
    marker = [f for f in found if f["rule"] == "tunisia-1943:9.2"]
    assert sorted(f["unit_names"][0] for f in marker) == sorted(fault["units"])
    assert len(found) == len(out) + len(marker)  # nothing else is wrong in the file


def test_fault_f_campaign_ii_axis_unit_moves_four_mp_on_turn_6() -> None:
    # Campaign II: "To the turns 6 and 7, all the units of player Italio-German are reduced to 3
    # movement points": PzJg 90 (6 MP printed) goes 2106 -> 2506, four clear hexes (4 MP).
    fault = FAULTS["f"]
    (error,) = EX.errors("verify", fault["file"])
    assert error["rule"] == fault["rule"] == "tunisia-1943:Campaign II"
    assert error["hexes"][0] == "2106" and error["hexes"][-1] == "2506"
    assert "PzJg 90 moved 2106 -> 2506" in error["message"]
    assert "needs 4 MP, allowance 3 (printed 6) [Campaign II]" in error["message"]


def test_the_positions_of_the_faults() -> None:
    # The files show what FAULTS says (the tests below assert what the rules make of them).
    a = EX.pieces(FAULTS["a"]["file"])
    assert a["EM 2-5 (334.ID)"] == ("Holding Boxes", "Turn 4")
    assert [a[u] for u in FAULTS["a"]["units"]] == [("Main Map", h) for h in FAULTS["a"]["hexes"]]
    module = vassal_adj.load_module(MODULE)
    state, _, _ = vassal_adj.game_state(module, vassal_adj.load_save(EXAMPLE / FAULTS["a"]["file"]), "tunisia-1943")
    assert not any(u.has("out-of-supply") for u in state.units.values())  # no OutOfSupply layer shown
    for key in "cde":
        fault = FAULTS[key]
        _, _, phase, _, layers, steps, _ = tf.GAMES[fault["file"]]
        assert phase == fault["phase"]
        moved = [s[2] for s in steps]
        assert set(moved) == set(fault["units"])
        assert [s[3] for s in steps][-1] == fault["hexes"][-1]
    opening = EX.pieces(FAULTS["e"]["file"])
    assert opening["6-4-9-7 CC B (1 Armd)"] == ("Main Map", "1413")
    game = vassal_adj.load_save(EXAMPLE / FAULTS["c"]["file"])
    state, _, _ = vassal_adj.game_state(module, game, "tunisia-1943")
    sustained = sorted(u.name for u in state.units.values() if u.has("sustained"))
    assert sustained == ["EM 2-6 (HG)", "EM 2-7 (Centauro)"]  # not the 334. ID's (10)


def test_fault_c_an_unsustained_division_exploits_10() -> None:
    # 10 "These EM and all their units can then, during the exploitation phase, move all over again":
    # the 334. ID's EM is not sustained and it is no Panzerdivision; its Gren 754 moves 1403 -> 1405.
    fault = FAULTS["c"]
    (error,) = EX.errors("verify", fault["file"])
    assert error["rule"] == fault["rule"] == "tunisia-1943:10" and error["severity"] == "error"
    assert error["message"].startswith("Turn 3 axis-exploitation: Axis 4-5-5-7 Gren 754 (334.ID) moved in the phase")


def test_fault_d_a_move_into_an_enemy_zone_in_exploitation_10() -> None:
    # 10 "No unit can enter the ZoC of an enemy unit during this phase": PzGr 69 (10. Panzer, always
    # sustained) may exploit, and its first leg 1712 -> 1613 is legal; its second enters 1514, in the
    # zone of CC B in 1413.
    fault = FAULTS["d"]
    (error,) = EX.errors("verify", fault["file"])
    assert error["rule"] == fault["rule"] == "tunisia-1943:10" and error["severity"] == "error"
    assert "leg 2, 1613 -> 1514: no legal path: may not enter enemy zone of control at 1514" in error["message"]
    assert "6-4-9-7 CC B (1 Armd) in 1413" in error["message"]


def test_fault_e_a_breakthrough_with_no_roll_4_3() -> None:
    # 3 "Armored breakthrough ... is allowed only to units endowed with armor capacity"; 4.3 "the
    # inactive player makes a cohesion test ... He throws the dice once": Pz.Rgt 5 goes on from 1412,
    # in CC B's zone, to 1312, and no die is rolled. The inactive player may "voluntarily let pass"
    # the unit (4.3), so it is a warning, not an error: legal only if he did.
    fault = FAULTS["e"]
    (warning,) = EX.errors("verify", fault["file"])
    assert warning["rule"] == fault["rule"] == "tunisia-1943:4.3" and warning["severity"] == "warning"
    assert "legal only if its breakthrough succeeded (no die was rolled during its move" in warning["message"]
    assert warning["hexes"][0] == "1512" and warning["hexes"][-1] == "1312"


def test_packs_validate_runs_the_worked_examples_on_the_example_module() -> None:
    code, out = run_cli(["packs", "validate", "modules/tunisia-1943", "--module", EX.rel("Tunisia1943.vmod")])
    assert code == 0, out
    assert out.count("as the rulebook says") == 14


@pytest.mark.parametrize("fmt", ["text", "json"])
@pytest.mark.parametrize("save", SAVES)
def test_check_report_matches_golden(save: str, fmt: str) -> None:
    code = EX.check_matches_golden(save, fmt, GOLDEN)
    assert code == (1 if save == FAULTS["b"]["file"] else 0)


@pytest.mark.parametrize("name", tf.GAMES)
def test_vassal_opens_every_example_file_with_every_piece_at_its_place(name: str) -> None:
    assert EX.vassal_agrees(name) in (82, 97)  # Campaign I and II counters in play, the turn marker


def test_the_readme_s_example_commands_run() -> None:
    codes = EX.readme_codes("## Fitting a real module")
    assert codes == [1, 1, 0, 0]  # the Tiger overstack (5.1), the Campaign II cap; vp and validate


def test_the_module_carries_each_campaign_s_set_up_and_an_opening_off_it_is_reported(tmp_path: Path) -> None:
    # The seed prints no set-up ("see setup"): the module's predefined set-ups are the reference
    # (assumption setup_saves). The example module carries both campaigns' saves; an opening of
    # Campaign I with Gren 754 one hex off its set-up hex 1403 is an error citing Campaign I, and the
    # set-up itself is not.
    module = vassal_adj.load_module(MODULE)
    assert {s.name: s.file for s in module.predefined_setups} == {
        "Campaign I": "campaign-1.vsav",
        "Campaign II": "campaign-2.vsav",
    }
    mte = importlib.import_module("make_tunisia_example")
    moved = ("I", 1, "Axis Sustain", {tf.GREN_754: "1503"}, {}, [], "Campaign I, Gren 754 off its set-up hex")
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(mte, "GAMES", {name: tf.GAMES[name] for name in mte.SETUPS.values()} | {"moved.vsav": moved})
        mte.main(tmp_path)
    code, out = run_cli(["check", str(tmp_path / "moved.vsav"), "--module", str(tmp_path / "Tunisia1943.vmod")])
    assert code == 1
    errors = [line for line in out.splitlines() if line.lstrip().startswith("error ")]
    assert len(errors) == 1 and errors[0].split()[:2] == ["error", "tunisia-1943:Campaign"]
    assert "Gren 754 (334.ID) is in 1503, but set-up 'Campaign I' puts it in 1403" in errors[0]
    assert EX.errors("check", "campaign-1.vsav") == []
