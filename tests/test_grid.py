"""Grid geometry against spec vectors (vectors.json) and the real VASSAL engine (oracle-labels.json)."""

from __future__ import annotations

import json
import zipfile
from functools import cache
from pathlib import Path

import pytest
from conftest import CORPUS, SPEC, need_corpus
from hypothesis import assume, given
from hypothesis import strategies as st

from vassal_adj.model.geometry.grid import (
    PlacedBoard,
    board_hex_center,
    board_location_name,
    board_snap,
    center_of,
    center_of_column_row,
    column_row,
    hex_center,
    hex_location_name,
    map_hex_center,
    map_location_name,
    map_snap,
    place_boards,
    raw_column_row,
    snap,
)
from vassal_adj.model.geometry.numbering import coordinate_name, expand_format, parse_coordinate
from vassal_adj.model.geometry.zones import find_zone, polygon_contains
from vassal_adj.model.module import (
    BoardDef,
    HexGridDef,
    HexNumbering,
    MapDef,
    Region,
    RegionGridDef,
    SquareGridDef,
    ZoneDef,
    ZonedGridDef,
)

VECTORS_PATH = SPEC / "vectors.json"
ORACLE_PATH = SPEC / "oracle-labels.json"


def _load(path: Path) -> dict:
    if not path.is_file():
        pytest.skip(f"{path} not found")
    return json.loads(path.read_text(encoding="utf-8"))


@cache
def vectors() -> dict:
    return _load(VECTORS_PATH)


@cache
def oracle() -> dict:
    return _load(ORACLE_PATH)


def _vectors_or_empty(key: str) -> object:
    try:
        return json.loads(VECTORS_PATH.read_text(encoding="utf-8"))[key]
    except (OSError, KeyError):
        return []


def _oracle_ids() -> list[str]:
    try:
        return [g["id"] for g in json.loads(ORACLE_PATH.read_text(encoding="utf-8"))["grids"]]
    except (OSError, KeyError):
        return []


# =======================================================================================
# vectors.json "hex_grid"


def _numbering(n: dict, oblique: bool = False) -> HexNumbering:
    return HexNumbering(
        first=n["first"],
        sep=n["sep"],
        h_type=n["hType"],
        v_type=n["vType"],
        h_leading=n["hLeading"],
        v_leading=n["vLeading"],
        h_off=n["hOff"],
        v_off=n["vOff"],
        h_descend=n["hDescend"],
        v_descend=n["vDescend"],
        stagger=n.get("stagger", True),
        oblique=oblique,
    )


def _hex_config(cfg: dict) -> HexGridDef:
    h = cfg["hexgrid"]
    return HexGridDef(
        dx=h["dx"],
        dy=h["dy"],
        x0=h["x0"],
        y0=h["y0"],
        sideways=h["sideways"],
        snapscale=h["snapscale"],
        numbering=_numbering(cfg["numbering"], cfg["numbering_class"] == "ObliqueHexGridNumbering"),
    )


def _hex_cases() -> list[tuple[str, dict, dict]]:
    hexes = _vectors_or_empty("hex_grid")
    if not hexes:
        return []
    return [
        (f"{cfg['id']}@{case['board_point'][0]},{case['board_point'][1]}", cfg, case)
        for cfg in hexes["configs"]
        for case in cfg["cases"]
    ]


HEX_CASES = _hex_cases()


@pytest.mark.parametrize("cfg,case", [c[1:] for c in HEX_CASES], ids=[c[0] for c in HEX_CASES])
def test_hex_grid_vector(cfg: dict, case: dict) -> None:
    grid = _hex_config(cfg)
    w, h = cfg["board_size"]
    x, y = case["board_point"]
    assert raw_column_row(grid, x, y) == (case["raw_column"], case["raw_row"])
    assert column_row(grid, w, h, x, y) == (case["column"], case["row"])
    assert hex_location_name(grid, w, h, x, y) == case["location_name"]
    assert snap(grid, x, y) == tuple(case["snapped_center"])
    if "center_of_column_row" in case:
        assert center_of_column_row(grid, w, h, case["column"], case["row"]) == tuple(case["center_of_column_row"])
        # ... and the label parses back to the same centre
        assert hex_center(grid, w, h, case["location_name"]) == tuple(case["center_of_column_row"])


def test_hex_vectors_present() -> None:
    assert len(HEX_CASES) == sum(len(c["cases"]) for c in vectors()["hex_grid"]["configs"]) > 30


# Hand-worked cases of VASSAL-FORMATS.md 8.4 (grid H1: dx = 64*sqrt(3)/2 = 55.4256, dy 64, x0 0, y0 32).
H1 = HexGridDef(dx=55.42562584220407, dy=64.0, x0=0, y0=32, numbering=HexNumbering())


def test_stagger_worked_example() -> None:
    # (150, 150): (150-0)/55.4256 = 2.7063 -> rawCol = floor(2.7063 + 0.5) = 3, odd ->
    # rawRow = round((150 - 32 - 32)/64) = round(1.34375) = 1; stagger and rawCol odd -> row 2.
    # column 3 + hOff 1 = 4 -> "04", row 2 + 1 = 3 -> "03": "0403".
    assert raw_column_row(H1, 150, 150) == (3, 1)
    assert column_row(H1, 1000, 800, 150, 150) == (3, 2)
    assert hex_location_name(H1, 1000, 800, 150, 150) == "0403"
    # Snap: i = floor((150 + 27.71)/55.43) = 3 (odd), j = floor((150 - 32)/64) = 1,
    # centre (int(3*55.43), int(64 + 32 + 32)) = (166, 128).
    assert snap(H1, 150, 150) == (166, 128)
    assert center_of(H1, 3, 1) == (166, 128)
    # (56, 5): rawCol 1, rawRow round((5 - 64)/64 = -0.92) = -1, stagger -> row 0: "0201".
    assert hex_location_name(H1, 1000, 800, 56, 5) == "0201"
    assert snap(H1, 56, 5) == (55, 0)


def test_descending_worked_example() -> None:
    # vDescend on an 800-px-high board: maxRows = floor(800/55.4256 + 0.5) = floor(14.93) = 14
    # (H / dx, not H / dy: VASSAL's asymmetry). (110, 740): rawCol floor(1.985 + 0.5) = 2,
    # even -> rawRow round((740 - 32)/64 = 11.06) = 11 -> row 14 - 11 = 3; no stagger
    # (even column) -> column "03", row 3 + 1 = "04": "0304".
    grid = HexGridDef(dx=55.42562584220407, dy=64.0, x0=0, y0=32, numbering=HexNumbering(v_descend=True))
    assert column_row(grid, 1000, 800, 110, 740) == (2, 3)
    assert hex_location_name(grid, 1000, 800, 110, 740) == "0304"
    assert hex_center(grid, 1000, 800, "0304") == center_of(grid, 2, 11) == (110, 736)
    # Descending in an odd column: (166, 128) has raw (3, 1); row 14 - 1 = 13, stagger
    # with vDescend -> 13 - 1 = 12: "0413"; the inverse adds the 1 back.
    assert hex_location_name(grid, 1000, 800, 166, 128) == "0413"
    assert hex_center(grid, 1000, 800, "0413") == (166, 128)


def test_sideways_and_alpha_worked_examples() -> None:
    side = HexGridDef(dx=55.42562584220407, dy=64.0, x0=0, y0=32, sideways=True, numbering=HexNumbering())
    # (300, 200) -> swapped (200, 300): rawCol floor(3.608 + 0.5) = 4, rawRow round(268/64) = 4.
    assert hex_location_name(side, 1000, 800, 300, 200) == "0505"
    assert snap(side, 300, 200) == (288, 221)
    alpha = HexGridDef(
        dx=55.42562584220407,
        dy=64.0,
        x0=0,
        y0=32,
        numbering=HexNumbering(h_type="A", h_off=0, v_leading=0),
    )
    # (1500, 300): rawCol 27 -> 27 mod 26 = 1 -> "B", 27 div 26 + 1 = 2 copies -> "BB";
    # rawRow round((300 - 64)/64 = 3.69) = 4, stagger -> 5, +1 -> "6": "BB6".
    assert hex_location_name(alpha, 2000, 800, 1500, 300) == "BB6"
    assert hex_center(alpha, 2000, 800, "BB6") == center_of(alpha, 27, 4)


def test_coordinate_names() -> None:
    assert [coordinate_name(v, "A", 1) for v in (0, 25, 26, 27, 52, -1)] == ["A", "Z", "AA", "BB", "AAA", "-B"]
    assert coordinate_name(5, "N", 1) == "05"
    assert coordinate_name(0, "N", 1) == "00"
    assert coordinate_name(5, "N", 2) == "005"
    assert coordinate_name(50, "N", 2) == "050"
    assert coordinate_name(-3, "N", 1) == "-03"
    assert coordinate_name(123, "N", 0) == "123"
    for v in range(-60, 60):
        assert parse_coordinate(coordinate_name(v, "A", 1), "A") == v
        assert parse_coordinate(coordinate_name(v, "N", 2), "N") == v


def test_location_formats() -> None:
    props = {"gridLocation": "0403", "row": "03", "column": "04"}
    assert expand_format("$gridLocation$", props) == "0403"
    assert expand_format("Hex $column$/$row$", props) == "Hex 04/03"
    assert expand_format("$gridLocation$ $Weather$", props) == "0403 "
    assert expand_format("$gridLocation$ $Weather$", props, unknown_as_name=True) == "0403 Weather"
    assert expand_format("Hex $gridLocation", props) == "Hex gridLocation"  # unclosed: literal
    assert expand_format("cost \\$5 $row$", props) == "cost $5 03"
    assert expand_format("", props) == ""
    assert expand_format('{"Hex " + gridLocation}', props) == "Hex 0403"
    grid = HexGridDef(
        dx=55.42562584220407,
        dy=64.0,
        x0=0,
        y0=32,
        numbering=HexNumbering(location_format="C$column$ R$row$", sep="-"),
    )
    assert hex_location_name(grid, 1000, 800, 150, 150) == "C04 R03"
    assert hex_center(grid, 1000, 800, "C04 R03") == (166, 128)
    assert hex_center(grid, 1000, 800, "0403") is None
    grid_v = HexGridDef(dx=55.42562584220407, dy=64.0, numbering=HexNumbering(first="V", sep="."))
    assert hex_location_name(grid_v, 1000, 800, 150, 150) == "03.04"
    assert hex_center(grid_v, 1000, 800, "03.04") == (166, 128)
    assert hex_location_name(HexGridDef(dx=50.0, dy=58.0), 100, 100, 5, 5) is None
    assert hex_center(HexGridDef(dx=50.0, dy=58.0), 100, 100, "0101") is None


@given(st.integers(-300, 3000), st.integers(-300, 3000), st.booleans(), st.booleans(), st.booleans())
def test_hex_round_trip_property(x: int, y: int, sideways: bool, hdesc: bool, vdesc: bool) -> None:
    """label -> centre -> label is the identity, whatever the orientation and descend flags."""
    grid = HexGridDef(
        dx=80.88337155288302,
        dy=93.9,
        x0=22,
        y0=-4,
        sideways=sideways,
        numbering=HexNumbering(h_descend=hdesc, v_descend=vdesc, h_off=0, v_off=0),
    )
    # VASSAL's inverse tests stagger parity on the numbered column, the forward direction on
    # the raw one: when descending columns flips parity (odd maximum) the round trip is off
    # by one row in odd columns, in VASSAL too. Here maxRows = floor(750/80.88 + 0.5) = 9
    # and maxColumns = floor(750/93.9 + 0.5) = 8.
    assume(not (vdesc and sideways))
    label = hex_location_name(grid, 750, 750, x, y)
    assert label is not None
    centre = hex_center(grid, 750, 750, label)
    assert centre is not None
    assert hex_location_name(grid, 750, 750, *centre) == label


def test_snap_edges_and_corners() -> None:
    edges = HexGridDef(dx=55.42562584220407, dy=64.0, edges_legal=True)
    # Point near the top side of hex (0, 0) centred at (0, 32): side point (0, 0).
    assert snap(edges, 1, 3) == (0, 0)
    # Near the centre the centre wins (within squared distance 2 of the side? no: centre kept).
    assert snap(edges, 0, 32) == (0, 32)
    corners = HexGridDef(dx=55.42562584220407, dy=64.0, corners_legal=True)
    # Vertex to the right of (0, 32) is at (2dx/3, 32) = (36, 32).
    assert snap(corners, 35, 33) == (36, 32)
    assert snap(HexGridDef(dx=55.42562584220407, dy=64.0, snap_to=False), 35, 33) == (35, 33)


# =======================================================================================
# vectors.json "square_grid", "zones", "map_boards"


SQUARE = _vectors_or_empty("square_grid")


@pytest.mark.parametrize("case", SQUARE["cases"] if SQUARE else [], ids=str)
def test_square_grid_vector(case: dict) -> None:
    g = vectors()["square_grid"]["grid"]
    grid = SquareGridDef(
        dx=g["dx"],
        dy=g["dy"],
        x0=g["x0"],
        y0=g["y0"],
        numbering=HexNumbering(stagger=False, h_descend=case["hDescend"], v_descend=case["vDescend"]),
    )
    w, h = vectors()["square_grid"]["board_size"]
    x, y = case["board_point"]
    assert column_row(grid, w, h, x, y) == (case["column"], case["row"])
    assert hex_location_name(grid, w, h, x, y) == case["location_name_default_numbering"]
    centre = hex_center(grid, w, h, case["location_name_default_numbering"])
    assert centre is not None
    if case["row"] >= 0:  # rows truncate toward zero, so row -1's centre is named row 0 (as in VASSAL)
        assert hex_location_name(grid, w, h, *centre) == case["location_name_default_numbering"]


def test_square_snap() -> None:
    grid = SquareGridDef()
    assert snap(grid, 30, 40) == (24, 24)
    assert snap(grid, 50, 40) == (72, 24)
    both = SquareGridDef(edges_legal=True, corners_legal=True)
    assert snap(both, 2, 3) == (0, 0)
    assert snap(both, 45, 24) == (48, 24)


ZONES = _vectors_or_empty("zones")


def _path(text: str) -> tuple[tuple[int, int], ...]:
    return tuple(tuple(int(c) for c in p.split(",")) for p in text.split(";"))  # type: ignore[misc]


@pytest.mark.parametrize("case", ZONES["containment"] if ZONES else [], ids=str)
def test_zone_containment_vector(case: dict) -> None:
    assert polygon_contains(_path(case["path"]), *case["board_point"]) is case["contains"]


def test_zone_location_name_examples() -> None:
    examples = vectors()["zones"]["location_name_examples"]
    assert len(examples) == 2
    berlin = ZoneDef("Berlin", _path("0,0;200,0;200,100;0,100"), "$name$")
    box = ZoneDef("Box", _path("0,0;1000,0;1000,800;0,800"), "$name$ $gridLocation$", grid=H1)
    zoned = ZonedGridDef(zones=(berlin,))
    board = BoardDef("B", None, 1000, 800, grid=zoned)
    assert board_location_name(board, 10, 10) == examples[0]["result"]
    assert board_location_name(board, 150, 150) is None  # outside every zone, no background
    assert board_hex_center(board, "Berlin") == (100, 50)
    board2 = BoardDef("B", None, 1000, 800, grid=ZonedGridDef(zones=(box,)))
    assert board_location_name(board2, 150, 150) == examples[1]["result"]
    assert board_hex_center(board2, "Box 0403") == (166, 128)


def test_zone_rules() -> None:
    sq = SquareGridDef(dx=50.0, dy=50.0, x0=125, y0=25, numbering=HexNumbering(stagger=False, v_descend=True))
    track = ZoneDef("track", _path("100,0;300,0;300,200;100,200"), "Track $gridLocation$ $Foo$", grid=sq)
    first = ZoneDef("first", _path("0,0;120,0;120,120;0,120"), "$name$")
    parent = ZoneDef("inner", _path("500,500;600,500;600,600;500,600"), "In $gridLocation$", use_parent_grid=True)
    zoned = ZonedGridDef(zones=(first, track, parent), background=H1)
    board = BoardDef("B", None, 1000, 800, grid=zoned)
    # (110, 10) lies in both "first" and "track": the first in document order wins.
    assert find_zone(zoned, 110, 10) is first
    assert board_location_name(board, 110, 10) == "first"
    # Track grid: container = zone bounding box 200x200 -> maxRows int(200/50 + 0.5) = 4;
    # (175, 75): column floor(50/50 + 0.5) = 1, row int(50/50 + 0.5) = 1 -> 4 - 1 = 3 -> "0204".
    # Unknown $Foo$ in a zone format becomes the bare name.
    assert board_location_name(board, 175, 75) == "Track 0204 Foo"
    # The inverse ignores unknown properties (VASSAL's regex gets nothing for them), so
    # this label does not parse back, as in VASSAL; "Track 0204 " does.
    assert board_hex_center(board, "Track 0204 Foo") is None
    assert board_hex_center(board, "Track 0204 ") == (175, 75)
    assert board_snap(board, 180, 80) == (175, 75)
    # useParentGrid: the background grid, with the board as container.
    assert board_location_name(board, 550, 550) == "In " + hex_location_name(H1, 1000, 800, 550, 550)
    # Outside every zone: the background grid.
    assert board_location_name(board, 150, 300) == hex_location_name(H1, 1000, 800, 150, 300)
    assert board_snap(board, 150, 300) == snap(H1, 150, 300) == (166, 320)
    assert board_hex_center(board, "0406") == (166, 320)
    # "0403" is centred at (166, 128), inside the track zone: the background still answers it.
    assert board_hex_center(board, "0403") == (166, 128)


def test_region_grid() -> None:
    grid = RegionGridDef(regions=(Region("A", 10, 10), Region("B", 100, 10), Region("C", 55, 10)))
    board = BoardDef("R", None, 200, 200, grid=grid)
    assert board_location_name(board, 0, 0) == "A"
    assert board_location_name(board, 90, 50) == "B"
    assert board_location_name(board, 32, 10) == "A"  # 22 px from A, 23 px from C
    assert board_location_name(board, 33, 10) == "C"  # 23 px from A, 22 px from C
    assert board_location_name(board, 32.5, 10) == "A"  # a tie: the first region wins
    assert board_hex_center(board, "C") == (55, 10)
    assert board_hex_center(board, "D") is None
    assert board_snap(board, 90, 50) == (100, 10)


MAP_BOARDS = _vectors_or_empty("map_boards")


@pytest.mark.parametrize("vec", MAP_BOARDS or [], ids=str)
def test_map_boards_vector(vec: dict) -> None:
    defs = {}
    for b in vec["boards"]:
        grid = H1 if b.get("grid", "").startswith("same as hex config H1") else None
        defs[b["name"]] = BoardDef(b["name"], None, *b["size"], reversible=True, grid=grid)
    mdef = MapDef("M", "Map0", "Map", vec["map"]["edgeWidth"], vec["map"]["edgeHeight"], defs)
    for case in vec["cases"]:
        for rev in (False, True):
            sel = [(b["name"], rev and b["name"] == "B", b["column"], b["row"]) for b in vec["boards"]]
            placed = place_boards(mdef, sel)
            for pb, b in zip(placed, vec["boards"], strict=True):
                assert (pb.x, pb.y) == tuple(b["origin_in_map"])
            if case["board"] is None:
                assert map_location_name(placed, *case["map_point"]) is None  # "offboard"
                continue
            if case["reversed"] != rev:
                continue
            pb = next(p for p in placed if p.board.name == case["board"])
            assert pb.to_local(*case["map_point"]) == tuple(case["board_point"])
            assert map_location_name(placed, *case["map_point"]) == case["location_name"]
            centre = map_hex_center(placed, case["location_name"], board=case["board"])
            assert centre is not None
            assert map_location_name(placed, *centre) == case["location_name"]
    # The 2x2 layout.
    layout = vec["two_by_two_layout"]
    defs2 = {}
    sel2 = []
    for key, size in layout["boards"].items():
        c, r = (int(v) for v in key.strip("()").split(","))
        defs2[key] = BoardDef(key, None, *size)
        sel2.append((key, False, c, r))
    placed2 = place_boards(MapDef("M", "Map0", "Map", 100, 50, defs2), sel2)
    for pb in placed2:
        assert [pb.x, pb.y] == layout["origins_with_edge_100_50"][pb.board.name]


def test_place_boards_defaults() -> None:
    a = BoardDef("A", None, 300, 200, grid=H1)
    b = BoardDef("B", None, 400, 200, reversible=False)
    one = MapDef("M", "Map0", "Map", 10, 20, {"A": a})
    assert place_boards(one, None) == (PlacedBoard(a, 0, 0, False, 10, 20),)
    two = MapDef("M", "Map0", "Map", 0, 0, {"A": a, "B": b}, default_setup="MBoardPicker\tB/rev\t0\t0\tA\t1\t0")
    placed = place_boards(two, None)
    assert placed == (PlacedBoard(b, 0, 0, False, 0, 0), PlacedBoard(a, 1, 0, False, 400, 0))
    assert place_boards(MapDef("M", "Map0", "Map", 0, 0, {"A": a, "B": b}), None) == ()
    # map snapping keeps a point on its board
    assert map_snap(placed, 410, 5) == (400, 32)  # A-local (10, 5) -> H1 centre (0, 32)


# =======================================================================================
# oracle-labels.json: the real VASSAL engine on the corpus grids


def _module_file(name: str) -> Path:
    found = sorted((CORPUS / name).glob("*.vmod"))
    if not found:
        pytest.skip(f"corpus module {name} not found")
    return found[0]


@cache
def _buildfile_root(module: str):  # -> lxml root element
    from lxml import etree

    with zipfile.ZipFile(_module_file(module)) as zf:
        names = zf.namelist()
        entry = "buildFile.xml" if "buildFile.xml" in names else "buildFile"
        data = zf.read(entry)
    return etree.fromstring(data, etree.XMLParser(huge_tree=True))


def _corpus_board(module: str, map_name: str, board_name: str, size: tuple[int, int]) -> BoardDef:
    """The board as the project's buildFile reader builds it, with the oracle's board size."""
    grids = pytest.importorskip("vassal_adj.parse.buildfile_grids")
    root = _buildfile_root(module)
    for m in root.iter():
        if not isinstance(m.tag, str) or not m.tag.endswith((".Map", ".PrivateMap", ".PlayerHand")):
            continue
        if m.get("mapName") != map_name:
            continue
        for el in m.iter("VASSAL.build.module.map.boardPicker.Board"):
            if el.get("name") == board_name:
                return grids.parse_board(el, grids.Values(None, None), lambda _img: size)
    raise AssertionError(f"board {board_name!r} not found in {module}")


class OracleGrid:
    def __init__(self, g: dict) -> None:
        self.g = g
        layout = g["map_layout"]
        self.boards = {}
        for b in layout["boards"]:
            x, y, w, h = b["bounds_in_map"]
            self.boards[b["board"]] = _corpus_board(g["module"], g["map"], b["board"], (w, h))
        self.board = self.boards[g["board"]]
        mdef = MapDef(
            g["map"],
            "Map0",
            "Map",
            *layout["edge_buffer"],
            boards=self.boards,  # type: ignore[arg-type]
        )
        sel = [(b["board"], False, *b["relative_position"]) for b in layout["boards"]]
        self.placed = place_boards(mdef, sel)
        for pb, b in zip(self.placed, layout["boards"], strict=True):
            assert [pb.x, pb.y, pb.width, pb.height] == b["bounds_in_map"]
        where = g["id"].rsplit("/", 1)[-1]
        bg = self.board.grid
        if where.startswith("zone:"):
            assert isinstance(bg, ZonedGridDef)
            zone = next(z for z in bg.zones if z.name == where[5:])
            self.grid = zone.grid
        elif where == "background":
            assert isinstance(bg, ZonedGridDef)
            self.grid = bg.background
        else:
            self.grid = bg
        assert isinstance(self.grid, HexGridDef)
        self.size = tuple(g["grid_container_size"])
        ev = g["engine_values"]
        assert (self.grid.dx, self.grid.dy) == (ev["dx"], ev["dy"])
        assert [self.grid.x0, self.grid.y0] == ev["origin"]
        assert self.grid.sideways == ev["sideways"]

    def rows(self, key: str) -> list[dict]:
        block = self.g[key]
        return [dict(zip(block["columns"], r, strict=True)) for r in block["rows"]]


@cache
def oracle_grid(gid: str) -> OracleGrid:
    g = next(g for g in oracle()["grids"] if g["id"] == gid)
    return OracleGrid(g)


ORACLE_IDS = _oracle_ids()


def _xy(v: object) -> object:
    """Oracle point -> tuple; exceptions and nulls -> None."""
    return tuple(v) if isinstance(v, list) else None


def _check(mismatches: list, total: int) -> None:
    assert total > 0 or not mismatches
    assert not mismatches, f"{len(mismatches)}/{total} mismatches, first: {mismatches[:5]}"


@pytest.mark.parametrize("gid", ORACLE_IDS)
def test_oracle_pixel_to_name(gid: str) -> None:
    og = oracle_grid(gid)
    w, h = og.size
    bad = []
    rows = og.rows("pixel_to_name")
    for r in rows:
        x, y = r["bx"], r["by"]
        got = {
            "hex_name": hex_location_name(og.grid, w, h, x, y),
            "board_name": board_location_name(og.board, x, y),
            "map_name": map_location_name(og.placed, r["mx"], r["my"]) or "offboard",
        }
        if og.grid.numbering is not None:
            got["raw_column"], got["raw_row"] = raw_column_row(og.grid, x, y)
            got["column"], got["row"] = column_row(og.grid, w, h, x, y)
        zoned = og.board.grid
        if isinstance(zoned, ZonedGridDef):
            z = find_zone(zoned, x, y)
            got["zone"] = z.name if z else None
        want = {k: r[k] for k in got}
        if got != want:
            bad.append((r, got))
    _check(bad, len(rows))


@pytest.mark.parametrize("gid", ORACLE_IDS)
def test_oracle_name_to_pixel(gid: str) -> None:
    og = oracle_grid(gid)
    w, h = og.size
    bad = []
    rows = og.rows("name_to_pixel") + og.rows("name_to_pixel_off_board_or_malformed")
    for r in rows:
        label = r["label"]
        got = {
            "hex_xy": hex_center(og.grid, w, h, label),
            "board_xy": board_hex_center(og.board, label),
        }
        want = {"hex_xy": _xy(r["hex_xy"]), "board_xy": _xy(r["board_xy"])}
        if got["hex_xy"] is not None and r.get("name_at_hex_xy") is not None:
            # round trip label -> centre -> label
            got["name_at_hex_xy"] = hex_location_name(og.grid, w, h, *got["hex_xy"])
            want["name_at_hex_xy"] = r["name_at_hex_xy"]
            assert r["name_at_hex_xy"] == label
        if "map_xy" in r:
            got["map_xy"] = map_hex_center(og.placed, label, board=og.board.name)
            want["map_xy"] = _xy(r["map_xy"])
        if "snap_of_hex_xy" in r and got["hex_xy"] is not None:
            got["snap_of_hex_xy"] = snap(og.grid, *got["hex_xy"], legacy=True)
            want["snap_of_hex_xy"] = _xy(r["snap_of_hex_xy"])
        if got != want:
            bad.append((r, got))
    _check(bad, len(rows))


@pytest.mark.parametrize("gid", ORACLE_IDS)
def test_oracle_zone_names(gid: str) -> None:
    og = oracle_grid(gid)
    bad = []
    rows = og.rows("zone_name_to_pixel")
    for r in rows:
        got = board_hex_center(og.board, r["zone_name"])
        got_name = board_location_name(og.board, *got) if got else None
        got_map = map_hex_center(og.placed, r["zone_name"], board=og.board.name)
        if (got, got_name, got_map) != (_xy(r["board_xy"]), r["board_name_at_xy"], _xy(r["map_xy"])):
            bad.append((r, got, got_name, got_map))
    _check(bad, len(rows))


@pytest.mark.parametrize("gid", ORACLE_IDS)
def test_oracle_map_only_points(gid: str) -> None:
    og = oracle_grid(gid)
    bad = []
    rows = og.rows("map_only_points")
    for r in rows:
        got = (
            map_location_name(og.placed, r["mx"], r["my"]) or "offboard",
            map_snap(og.placed, r["mx"], r["my"], legacy=True),
        )
        if got != (r["map_name"], tuple(r["map_snap"])):
            bad.append((r, got))
    _check(bad, len(rows))


SNAP_AGREEMENT: dict[str, tuple[int, int, int]] = {}


@pytest.mark.parametrize("gid", ORACLE_IDS)
def test_oracle_snap(gid: str) -> None:
    """The oracle is VASSAL 3.6: legacy snapping must match exactly; 3.7 agreement is counted."""
    og = oracle_grid(gid)
    bad = []
    agree37 = inside_agree = inside_total = 0
    rows = og.rows("snap")
    for r in rows:
        x, y = r["bx"], r["by"]
        got = (
            snap(og.grid, x, y, legacy=True),
            board_snap(og.board, x, y, legacy=True),
            map_snap(og.placed, r["mx"], r["my"], legacy=True),
        )
        want = (tuple(r["hex_snap"]), tuple(r["board_snap"]), tuple(r["map_snap"]))
        if got != want:
            bad.append((r, got))
        new = snap(og.grid, x, y)
        agree37 += new == want[0]
        if r["point_inside_hexagon_of_hex_snap"]:
            inside_total += 1
            inside_agree += new == want[0]
    SNAP_AGREEMENT[gid] = (agree37, inside_agree, inside_total)
    # Where the point lies inside the engine's hexagon around the 3.6 snap, 3.7 should agree
    # (except within a pixel of an edge): allow a small slack.
    assert inside_agree >= inside_total - max(2, inside_total // 50), (gid, inside_agree, inside_total)
    _check(bad, len(rows))


def test_oracle_snap_summary(capsys: pytest.CaptureFixture[str]) -> None:
    need_corpus()
    total = [0, 0, 0, 0]
    for gid in ORACLE_IDS:
        og = oracle_grid(gid)
        rows = og.rows("snap")
        a = sum(snap(og.grid, r["bx"], r["by"]) == tuple(r["hex_snap"]) for r in rows)
        ins = [r for r in rows if r["point_inside_hexagon_of_hex_snap"]]
        ai = sum(snap(og.grid, r["bx"], r["by"]) == tuple(r["hex_snap"]) for r in ins)
        total[0] += a
        total[1] += len(rows)
        total[2] += ai
        total[3] += len(ins)
    with capsys.disabled():
        print(
            f"\n3.7 snapping vs 3.6 oracle: {total[0]}/{total[1]} agree; "
            f"{total[2]}/{total[3]} where the point is inside the 3.6 snap's hexagon"
        )
    assert total[1] > 0
