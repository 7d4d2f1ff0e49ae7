"""The example in modules/kasserine/example/ is what scripts/make_example.py writes, and it is
what it claims: every counter of pack.toml, every piece where the script puts it, the turn
tracker at the stated turn and phase, and turn3-faults.vsav wrong in exactly its FAULTS (the
logs of Game-Turn 4: tests/test_example_logs.py)."""

from __future__ import annotations

import importlib
import sys
import tomllib
from collections import Counter
from pathlib import Path

import pytest
from conftest import REPO
from example_suite import assert_same_bytes, assert_zips_match

import vassal_adj
from vassal_adj.model.geometry.hexes import distance
from vassal_adj.parse.builder import game_pieces
from vassal_adj.parse.turns import tracker_reading

EXAMPLE = REPO / "modules" / "kasserine" / "example"
TERRAIN = REPO / "modules" / "kasserine" / "terrain.csv"
FILES = (
    "Kasserine.vmod",
    "setup.vsav",
    "turn3-faults.vsav",
    "turn4-axis.vlog",
    "turn4-restart.vlog",
    "turn4-wrong-start.vlog",
)
sys.path.insert(0, str(REPO / "scripts"))


def script(name: str):
    return importlib.import_module(name)


def _generate(out: Path) -> None:
    out.mkdir(parents=True, exist_ok=True)
    script("make_example").main(out, out / "terrain.csv")


@pytest.fixture(scope="module")
def fresh(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("example")
    _generate(out)
    return out


def test_committed_example_is_what_the_script_writes(fresh: Path) -> None:
    assert TERRAIN.read_text(encoding="utf-8") == (fresh / "terrain.csv").read_text(encoding="utf-8"), (
        "terrain.csv differs: run scripts/make_example.py"
    )
    assert_zips_match(EXAMPLE, fresh, FILES, "make_example.py")


def test_generation_is_deterministic(fresh: Path, tmp_path: Path) -> None:
    _generate(tmp_path)
    assert_same_bytes(tmp_path, fresh, (*FILES, "terrain.csv"))


def _pack() -> dict:
    with (REPO / "modules" / "kasserine" / "pack.toml").open("rb") as f:
        return tomllib.load(f)


def test_the_module_has_every_counter_of_the_order_of_battle_and_three_markers() -> None:
    rules = _pack()["rules"]
    axis = [u for e in rules["axis_reinforcements"]["entries"] for u in e["units"]]
    allied = [u for g in rules["allied_setup"]["groups"] for u in g["units"]]
    allied += [u for e in rules["allied_reinforcements"]["entries"] for u in e["units"]]
    assert len(axis) + len(allied) == 96
    module = vassal_adj.load_module(EXAMPLE / "Kasserine.vmod")
    by_list = {
        side: sorted(s.entry_name for s in module.piece_slots if s.folder[-1] == side)
        for side in ("Axis", "Allied", "Markers")
    }
    assert by_list == {
        "Axis": sorted(axis),
        "Allied": sorted(allied),
        "Markers": sorted(["Axis Withdrawal", "Allied Withdrawal", "Game Turn"]),
    }
    assert set(module.prototypes) == {"Axis", "Allied"}
    for side in ("Axis", "Allied"):
        assert f"mark;Side\tpiece;;;;/{side}\t" in module.prototypes[side].text
    assert [m for m in module.maps] == ["Main Map", "Holding Boxes"]


def _places(game: vassal_adj.SavedGame, module) -> dict[str, tuple[str, str]]:
    out = {}
    for p in game_pieces(game.root, module):
        assert p.name not in out, f"two pieces named {p.name!r}"
        out[p.name] = (p.map, p.location)
    return out


@pytest.mark.parametrize("name", ["setup.vsav", "turn3-faults.vsav"])
def test_every_piece_is_where_the_script_put_it(name: str) -> None:
    em, es, et = script("example_module"), script("example_saves"), script("example_terrain")
    pack, lay = em.read_pack(), em.layout()
    module = vassal_adj.load_module(EXAMPLE / "Kasserine.vmod")
    got = _places(vassal_adj.load_save(EXAMPLE / name), module)
    if name == "setup.vsav":
        terrain = et.read(lay, TERRAIN.read_text(encoding="utf-8"))
        rough = {lab for lab in lay.labels() if "rough" in terrain.terrain(lay.require(lab))}
        want = es.setup_places(pack, lay, rough)
    else:
        want = es.turn3_places(pack)
    assert len(got) == len(want) == 99
    for (_side, unit), (kind, where) in want.items():
        assert got[unit] == ("Main Map" if kind == "hex" else "Holding Boxes", where), unit


def test_the_set_up_follows_the_groups_and_puts_reinforcements_in_their_boxes() -> None:
    module = vassal_adj.load_module(EXAMPLE / "Kasserine.vmod")
    got = _places(vassal_adj.load_save(EXAMPLE / "setup.vsav"), module)
    lay = script("example_module").layout()
    rules = _pack()["rules"]
    on_map = [where for m, where in got.values() if m == "Main Map"]
    assert len(on_map) == len(set(on_map)) == 21  # no stacking (rule 23 lists)
    for g in rules["allied_setup"]["groups"]:
        reach = {"exact": 0, "adjacent": 1, "within": g.get("distance", 0)}[g["placement"]]
        for unit in g["units"]:
            assert got[unit][0] == "Main Map"
            assert distance(lay.require(g["at"]), lay.require(got[unit][1])) <= reach, unit
    for key, side in (("axis_reinforcements", "Axis"), ("allied_reinforcements", "Allied")):
        for e in rules[key]["entries"]:
            box = f"Turn {e['turn']}" if "turn" in e else f"{side} Conditional"
            assert all(got[u] == ("Holding Boxes", box) for u in e["units"]), e["units"]
    assert got["5-1-2/1-7 (171)"][1] == "Turn 4"  # the turn-4-or-5 group
    assert got["Axis Withdrawal"] == got["Allied Withdrawal"] == ("Holding Boxes", "Withdrawal Markers")
    assert got["Game Turn"] == ("Holding Boxes", "Turn 1")


def test_turn3_position() -> None:
    module = vassal_adj.load_module(EXAMPLE / "Kasserine.vmod")
    got = _places(vassal_adj.load_save(EXAMPLE / "turn3-faults.vsav"), module)
    rules = _pack()["rules"]
    boxes = Counter(where for m, where in got.values() if m == "Holding Boxes")
    assert boxes["Turn 1"] == boxes["Turn 2"] == boxes["Turn 3"] - 1 == 0  # only the turn marker
    assert got["5-3-12 (2/7)"] == ("Main Map", "2714")  # an Axis unit in Sbeitla
    axis = {u for e in rules["axis_reinforcements"]["entries"] for u in e["units"]}
    eliminated = [u for u, (m, where) in got.items() if where == "Eliminated"]
    assert set(eliminated) & axis and set(eliminated) - axis
    # Axis turn-1 and turn-2 reinforcements are on the map, off their entry hexes.
    for e in rules["axis_reinforcements"]["entries"]:
        if e.get("turn", 99) <= 2:
            for u in e["units"]:
                assert got[u][1] == "Eliminated" or (got[u][0] == "Main Map" and got[u][1] not in e["at"]), u
        elif "turn" in e:
            assert all(got[u] == ("Holding Boxes", "Turn 4") for u in e["units"])  # none early


@pytest.mark.parametrize(
    "name, turn, phase", [("setup.vsav", 1, "Axis Movement"), ("turn3-faults.vsav", 3, "Allied Movement")]
)
def test_the_turn_tracker(name: str, turn: int, phase: str) -> None:
    module = vassal_adj.load_module(EXAMPLE / "Kasserine.vmod")
    reading = tracker_reading(module, vassal_adj.load_save(EXAMPLE / name).root, "Game Turn")
    assert reading is not None
    assert (reading.value("Turn"), reading.value("Phase")) == (turn, phase)


def test_turn3_is_wrong_in_exactly_its_faults_and_the_set_up_in_nothing() -> None:
    em, es, et = script("example_module"), script("example_saves"), script("example_terrain")
    check = script("example_check")
    pack, lay = em.read_pack(), em.layout()
    terrain = et.read(lay, TERRAIN.read_text(encoding="utf-8"))
    rough = {lab for lab in lay.labels() if "rough" in terrain.terrain(lay.require(lab))}
    for places, want in ((es.turn3_places(pack), [f[:3] for f in es.FAULTS]), (es.setup_places(pack, lay, rough), [])):
        units = {key: where for key, (kind, where) in places.items() if kind == "hex"}
        assert check.faults(units, terrain, lay) == want
    assert {f[0] for f in es.FAULTS} == {"overstack", "unsupplied", "mechanized in rough"}
    assert all(f[3].startswith("kasserine:") for f in es.FAULTS)
