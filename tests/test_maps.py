"""The public map API: MapDef/BoardDef names and centres, Module.map with a save's boards."""

from __future__ import annotations

import json

import pytest
from conftest import CORPUS, REPO, SPEC

import vassal_adj
from vassal_adj.errors import UsageError
from vassal_adj.model.geometry.grid import board_location_name
from vassal_adj.model.geometry.maps import PlacedMap, describe_layout, module_map, on_board_center, place_map
from vassal_adj.model.module import BoardDef, HexGridDef, HexNumbering, MapDef

KASSERINE = REPO / "modules" / "kasserine" / "example" / "Kasserine.vmod"
CCN = CORPUS / "CommandsAndColorsNapoleonics"
H1 = HexGridDef(dx=55.42562584220407, dy=64.0, x0=0, y0=32, numbering=HexNumbering())


def _vectors() -> list[dict]:
    try:
        return json.loads((SPEC / "vectors.json").read_text(encoding="utf-8"))["map_boards"]
    except OSError:
        return []


def _need(path):  # type: ignore[no-untyped-def]
    if not path.exists():
        pytest.skip(f"{path} not found")
    return path


@pytest.mark.parametrize("vec", _vectors(), ids=str)
def test_map_boards_vector_through_placed_map(vec: dict) -> None:
    boards = {
        b["name"]: BoardDef(b["name"], None, *b["size"], reversible=True, grid=H1 if "grid" in b else None)
        for b in vec["boards"]
    }
    mdef = MapDef("M", "Map0", "Map", vec["map"]["edgeWidth"], vec["map"]["edgeHeight"], boards)
    for case in vec["cases"]:
        rev = bool(case.get("reversed"))
        pm = place_map(mdef, [(b["name"], rev and b["name"] == "B", b["column"], b["row"]) for b in vec["boards"]])
        for b in vec["boards"]:
            assert [pm.boards[b["name"]].x, pm.boards[b["name"]].y] == b["origin_in_map"]
        if case["board"] is None:
            assert pm.location_name(*case["map_point"]) is None  # VASSAL: "offboard"
            assert pm.board_at(*case["map_point"]) is None
            continue
        assert pm.location_name(*case["map_point"]) == case["location_name"]
        centre = pm.hex_center(case["location_name"], board=case["board"])
        assert centre is not None and pm.location_name(*centre) == case["location_name"]
        board = boards[case["board"]]
        assert board_location_name(board, *case["board_point"]) == case["location_name"]
    # The default layout comes from the BoardPicker's setup text.
    setup = "M" + "BoardPicker\tA\t0\t0\tB\t1\t0"
    mdef2 = MapDef("M", "Map0", "Map", 100, 50, boards, default_setup=setup)
    default = place_map(mdef2)
    assert default.location_name(1200, 300) == "0304"
    assert default.hex_center("0304", board="B") == pm.hex_center("0304", board="B")
    assert default.location_name(50, 20) is None


def test_kasserine_public_api() -> None:
    mod = vassal_adj.load_module(_need(KASSERINE))
    m = place_map(mod.maps["Main Map"])
    b = mod.maps["Main Map"].boards["Kasserine"]
    assert m.hex_center("0312") == on_board_center(b, "0312") == (140, 688)
    assert m.location_name(140, 688) == board_location_name(b, 140, 688) == "0312"
    assert m.location_name(-1, 5) is None and m.location_name(2048, 5) is None
    assert m.hex_center("4001") is None  # VASSAL would give (2064, 28), off the board
    assert m.hex_center("nonsense") is None
    game = vassal_adj.load_save(_need(KASSERINE.parent / "setup.vsav"))
    pm = module_map(mod, "Main Map", save=game)
    assert isinstance(pm, PlacedMap) and list(pm.boards) == ["Kasserine"]
    assert pm.hex_center("0312") == (140, 688)
    assert module_map(mod, "Map0").name == "Main Map"  # by internal id
    (lay,) = pm.hex_layouts()
    assert lay.label_at(140, 688) == "0312"
    assert pm.layout_at(140, 688) == lay and pm.layout_at(-5, -5) is None


def test_unknown_names_list_the_valid_ones() -> None:
    mod = vassal_adj.load_module(_need(KASSERINE))
    with pytest.raises(UsageError, match=r"no map 'Nope'.*'Main Map'"):
        module_map(mod, "Nope")
    with pytest.raises(UsageError, match=r"no board 'Nope'.*'Kasserine'"):
        mod.maps["Main Map"].board("Nope")
    with pytest.raises(UsageError, match=r"board 'Nope' is not on map.*'Kasserine'"):
        module_map(mod, "Main Map").board("Nope")


def test_commands_and_colors_with_a_save() -> None:
    mod = vassal_adj.load_module(_need(CCN / "CommandsAndColorsNapoleonics.vmod"))
    game = vassal_adj.load_save(_need(CCN / "B00 - Standard Map empty.vsav"))
    assert game.board_selection("Main Map") == [("Inland", False, 0, 0), ("Side Board", False, 1, 0)]
    assert game.board_selection("No Such Map") is None
    m = mod.maps["Main Map"]
    assert place_map(m).location_name(944, 585) is None  # two boards and no default setup: none placed
    pm = module_map(mod, "Main Map", save=game)
    assert [(pb.board.name, pb.x, pb.y) for pb in pm.placed] == [("Inland", 0, 0), ("Side Board", 1200, 0)]
    # Map-only points of the real engine (oracle-labels.json).
    assert pm.location_name(944, 585) == "C11"
    assert pm.location_name(1199, 400) == "Rhex5"
    assert pm.location_name(1250, 100) == "AlliesSq1"
    assert pm.location_name(2103, 400) is None
    assert pm.hex_center("C11") == (944, 585)
    assert pm.hex_center("-B00") is None  # VASSAL: BadCoords (centre outside the zone)
    assert on_board_center(m.boards["Inland"], "C11") == (944, 585)
    (lay,) = pm.hex_layouts()
    assert lay.zone is not None and lay.zone.name == "Battlefield"
    d = describe_layout(lay)
    assert (d["first_label"], d["last_label"], d["hexes"]) == ("A01", "I13", 113)
    assert d["columns"]["runs"] == "bottom to top" and d["descending"]["columns"]
    assert d["rows"]["runs"] == "left to right"


def test_maps_without_grids_or_layout_never_crash() -> None:
    for path in sorted(CORPUS.glob("*/*.vmod")) if CORPUS.is_dir() else []:
        mod = vassal_adj.load_module(path)
        for m in mod.maps.values():
            pm = module_map(mod, m.name)
            assert place_map(m).location_name(10, 10) == pm.location_name(10, 10)
            assert place_map(m).hex_center("0101") == pm.hex_center("0101")
            for lay in pm.hex_layouts():
                describe_layout(lay)
            for b in m.boards.values():
                board_location_name(b, 10, 10)
                on_board_center(b, "0101")
    dreadball = sorted((CORPUS / "Dreadball").glob("*.vmod"))
    if dreadball:
        m = place_map(vassal_adj.load_module(dreadball[0]).maps["Main Map"])
        assert m.placed == ()  # six alternative boards, none chosen
        assert m.location_name(500, 500) is None and m.hex_layouts() == []
