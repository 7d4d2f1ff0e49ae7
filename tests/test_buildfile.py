"""buildFile/moduledata parsing: corpus facts from MANIFEST.md, VASSAL defaults, safe XML."""

from __future__ import annotations

import contextlib
import io
import json
import math
import zipfile
from functools import cache
from pathlib import Path

import pytest
from conftest import CORPUS, MODULES, SPEC, ids, need_corpus
from hypothesis import given
from hypothesis import strategies as st
from lxml import etree
from PIL import Image

from vassal_adj.errors import FormatError
from vassal_adj.model.module import HexGridDef, Module, RegionGridDef, SquareGridDef, ZonedGridDef
from vassal_adj.parse.buildfile import make_safe_parser, parse_buildfile, parse_metadata
from vassal_adj.parse.buildfile_grids import (
    DEFAULT_HEX_DX,
    java_bool,
    java_double,
    java_int,
    java_trim,
    parse_zone_path,
)
from vassal_adj.parse.images import image_size_from_bytes
from vassal_adj.parse.tokens import split

B = "VASSAL.build.module.map.boardPicker.board."
G = "VASSAL.build.GameModule"


# -- helpers ------------------------------------------------------------------------------


def read_entries(path: Path) -> dict[str, bytes]:
    try:
        from vassal_adj.codec.archive import read_archive
    except ImportError:  # pragma: no cover - the codec is optional for this test
        with zipfile.ZipFile(path) as zf:
            return {n: zf.read(n) for n in zf.namelist() if not n.endswith("/")}
    return dict(read_archive(path).entries)


@cache
def load(path: Path) -> Module:
    entries = read_entries(path)
    entry = "buildFile.xml" if "buildFile.xml" in entries else "buildFile"

    def image_size(name: str) -> tuple[int, int] | None:
        data = entries.get("images/" + name)
        return None if data is None else image_size_from_bytes(data)

    return parse_buildfile(
        entries[entry], path=str(path), entry=entry, image_size=image_size, metadata=entries.get("moduledata")
    )


def corpus_module(case: str) -> Module:
    need_corpus()
    found = sorted((CORPUS / case).glob("*.vmod"))
    if not found:
        pytest.skip(f"{case} not in corpus")
    return load(found[0])


def all_grids(mod: Module) -> list[object]:
    """Every grid of every board: board grids, zone grids and ZonedGrid backgrounds."""
    out: list[object] = []

    def add(grid: object) -> None:
        if grid is None:
            return
        out.append(grid)
        if isinstance(grid, ZonedGridDef):
            add(grid.background)
            for zone in grid.zones:
                add(zone.grid)

    for m in (*mod.maps.values(), *mod.shadowed_maps):
        for board in m.boards.values():
            add(board.grid)
    return out


def count(mod: Module, kind: type) -> int:
    return sum(isinstance(g, kind) for g in all_grids(mod))


def module_xml(body: str, root: str = G, attrs: str = 'name="T" version="1"') -> bytes:
    return f'<?xml version="1.0" encoding="UTF-8"?>\n<{root} {attrs}>\n{body}\n</{root}>\n'.encode()


def one_board(grid: str, board_attrs: str = 'name="B"') -> bytes:
    return module_xml(
        '<VASSAL.build.module.Map mapName="M">\n'
        "<VASSAL.build.module.map.BoardPicker>\n"
        f"<VASSAL.build.module.map.boardPicker.Board {board_attrs}>\n{grid}\n"
        "</VASSAL.build.module.map.boardPicker.Board>\n"
        "</VASSAL.build.module.map.BoardPicker>\n"
        "</VASSAL.build.module.Map>"
    )


def grid_of(grid_xml: str) -> object:
    return parse_buildfile(one_board(grid_xml)).maps["M"].boards["B"].grid


# -- the corpus ---------------------------------------------------------------------------

# MANIFEST.md figures: PieceSlots, CardSlots, prototypes, decks, SetupStacks, maps (None: not given).
MANIFEST = {
    "Kassala": (36, 0, 1, None, 21, None),
    "Ragnarok": (34, 0, 17, None, None, None),
    "HexNCountersTemplate": (10, 3, 17, None, None, None),
    "CommandsAndColorsNapoleonics": (447, 301, 338, 14, None, None),
    "ViveLEmpereur": (129, 0, 29, None, None, None),
    "Dreadball": (65, 79, None, 4, None, None),
    "Nevsky": (231, 84, 453, 34, 171, 17),
    "PathsOfGlory": (782, 145, 245, 13, 670, None),
    "FlashpointSouthChinaSea": (70, 48, 309, None, 58, None),
    "CaptureOfTheTerritory": (7, 0, 4, None, None, None),
    "VassalTestPredefinedSetups": (0, 0, 0, None, None, 1),
    "WarhammerUnderworlds": (1384, 841, None, 52, None, None),
    "FieldsOfFire2": (3067, 1150, 660, 67, 281, 33),
}


@pytest.mark.parametrize("path", MODULES, ids=ids(MODULES))
def test_every_corpus_module_parses(path: Path) -> None:
    mod = load(path)
    assert mod.name and mod.version and mod.vassal_version
    assert mod.maps
    for m in mod.maps.values():
        assert m.id.startswith("Map") and m.name
    # Map ids are Map0..MapN-1, counted over Map, PrivateMap and PlayerHand together.
    every = sorted((*mod.maps.values(), *mod.shadowed_maps), key=lambda m: int(m.id[3:]))
    assert [m.id for m in every] == [f"Map{i}" for i in range(len(every))]
    assert all(e.tag not in ("VASSAL.build.module.Map", "VASSAL.build.widget.PieceSlot") for e in mod.other_elements)


@pytest.mark.parametrize("case", sorted(MANIFEST))
def test_manifest_counts(case: str) -> None:
    mod = corpus_module(case)
    slots, cards, protos, decks, stacks, maps = MANIFEST[case]
    assert sum(not s.card for s in mod.piece_slots) == slots
    assert sum(s.card for s in mod.piece_slots) == cards
    every_map = (*mod.maps.values(), *mod.shadowed_maps)
    if protos is not None:
        assert len(mod.prototypes) == protos
        assert mod.duplicate_prototypes == ()
    if decks is not None:
        assert sum(len(m.decks) for m in every_map) == decks
    if stacks is not None:
        assert sum(len(m.setup_stacks) for m in every_map) == stacks
    if maps is not None:
        assert len(every_map) == maps
    # slots in at-start stacks and decks are also in the module-wide list, once
    nested = [s for m in every_map for holder in (*m.setup_stacks, *m.decks) for s in holder.piece_slots]
    assert len({id(s) for s in nested}) == len(nested) <= len(mod.piece_slots)


def test_kassala_plain_hex_grid() -> None:
    mod = corpus_module("Kassala")
    board = mod.maps["Main Map"].boards["Kassala"]
    grid = board.grid
    assert isinstance(grid, HexGridDef)
    assert (grid.dx, grid.dy, grid.x0, grid.y0) == (227.90000000000052, 265.8999999999995, 51, 55)
    assert not grid.sideways and grid.snap_to and not grid.edges_legal and not grid.corners_legal
    assert grid.numbering is None
    assert board.image == "Mapboard.png" and board.size_known and board.width > 0
    assert mod.sides == ("Moslem", "Christian")
    assert sum(len(s.piece_slots) for s in mod.maps["Main Map"].setup_stacks) > 0
    assert mod.metadata["version"] == "0.2.0" and mod.metadata["name"] == "Kassala"
    assert mod.root_attributes["nextPieceSlotId"] == "66"
    [tracker] = mod.turn_trackers
    assert tracker.id == "TurnTracker0" and tracker.levels[0].loop_limit == 10


def test_ragnarok_hex_grid_inside_zone() -> None:
    mod = corpus_module("Ragnarok")
    grid = mod.maps["Main Map"].boards["Map"].grid
    assert isinstance(grid, ZonedGridDef)
    zone = next(z for z in grid.zones if z.name == "map")
    hexes = zone.grid
    assert isinstance(hexes, HexGridDef)
    assert (hexes.dx, hexes.dy, hexes.x0, hexes.y0) == (97.71978541535786, 112.39999999999895, 21, 24)
    assert hexes.sideways and hexes.snap_to
    num = hexes.numbering
    assert num is not None
    assert (num.first, num.h_type, num.v_type, num.h_off, num.v_off, num.sep) == ("H", "N", "N", 0, 0, "")
    assert num.stagger and num.v_descend and not num.h_descend
    assert zone.path == ((12, 34), (3081, 34), (3074, 1760), (17, 1757))
    endurance = next(z for z in grid.zones if z.name == "endurance")
    assert isinstance(endurance.grid, SquareGridDef)
    assert endurance.location_format == "Endurance $gridLocation$"


def test_ccn_hex_grid_inside_battlefield_zone() -> None:
    mod = corpus_module("CommandsAndColorsNapoleonics")
    grid = mod.maps["Main Map"].boards["Inland"].grid
    assert isinstance(grid, ZonedGridDef)
    hexes = next(z for z in grid.zones if z.name == "Battlefield").grid
    assert isinstance(hexes, HexGridDef)
    assert (hexes.dx, hexes.dy, hexes.x0, hexes.y0) == (75.32562584220355, 86.99999999999869, -17, 75)
    assert hexes.sideways and hexes.numbering is not None
    num = hexes.numbering
    assert (num.first, num.h_type, num.v_type, num.h_off, num.v_off) == ("H", "A", "N", 1, 1)
    assert num.v_descend and not num.stagger
    zoned = [g for g in all_grids(mod) if isinstance(g, ZonedGridDef)]
    assert sum(len(z.zones) for z in zoned) == 22
    regions = [g for g in all_grids(mod) if isinstance(g, RegionGridDef)]
    assert (len(regions), sum(len(r.regions) for r in regions)) == (16, 91)
    assert count(mod, SquareGridDef) >= 4
    assert {m.kind for m in mod.maps.values()} >= {"Map", "PlayerHand", "PrivateMap"}


def test_vive_background_hex_grid() -> None:
    mod = corpus_module("ViveLEmpereur")
    board = mod.maps["Main Map"].boards["Map"]
    grid = board.grid
    assert isinstance(grid, ZonedGridDef) and isinstance(grid.background, HexGridDef)
    bg = grid.background
    assert (bg.dx, bg.dy, bg.x0, bg.y0, bg.sideways) == (109.1999999999984, 125.29999999999856, -2, -14, False)
    assert bg.numbering is not None and not bg.numbering.stagger
    assert (bg.numbering.h_off, bg.numbering.v_off) == (0, 0)
    assert sum(len(g.zones) for g in all_grids(mod) if isinstance(g, ZonedGridDef)) == 23
    # the board image is named but not in the corpus zip
    assert (board.width, board.height, board.size_known) == (0, 0, False)
    assert mod.metadata == {}


def test_dreadball_six_sideways_boards() -> None:
    mod = corpus_module("Dreadball")
    assert mod.root_tag == "VASSAL.launch.BasicModule" and mod.build_entry == "buildFile"
    boards = mod.maps["Main Map"].boards
    assert len(boards) == 6
    for board in boards.values():
        assert isinstance(board.grid, HexGridDef) and board.grid.sideways and board.grid.numbering is None
    gamma = boards["The Gamma Dome"]
    assert gamma.size_known and gamma.width > 0
    coliseum = boards["The Coliseum"].grid
    assert (coliseum.dx, coliseum.dy, coliseum.x0, coliseum.y0) == (124.0, 140.0, 101, 15)
    metal = boards["Metal Pitch"].grid
    assert (metal.dx, metal.dy, metal.x0, metal.y0) == (126.0, 144.0, 77, 109)
    assert not boards["Metal Pitch"].size_known


@pytest.mark.parametrize(
    "case, region_grids, regions, zoned, zones",
    [
        ("Nevsky", 29, 154, 7, 66),
        ("PathsOfGlory", 44, 996, 6, 45),
        ("FlashpointSouthChinaSea", 25, 107, 1, 34),
    ],
)
def test_region_grids(case: str, region_grids: int, regions: int, zoned: int, zones: int) -> None:
    mod = corpus_module(case)
    grids = all_grids(mod)
    found = [g for g in grids if isinstance(g, RegionGridDef)]
    assert (len(found), sum(len(g.regions) for g in found)) == (region_grids, regions)
    zgs = [g for g in grids if isinstance(g, ZonedGridDef)]
    assert (len(zgs), sum(len(g.zones) for g in zgs)) == (zoned, zones)
    assert count(mod, HexGridDef) == 0


def test_fields_of_fire_grids() -> None:
    mod = corpus_module("FieldsOfFire2")
    grids = all_grids(mod)
    zgs = [g for g in grids if isinstance(g, ZonedGridDef)]
    assert count(mod, SquareGridDef) == 16 and count(mod, HexGridDef) == 0
    assert (len(zgs), sum(len(g.zones) for g in zgs)) == (25, 293)
    assert mod.vassal_version == "3.7.22"


def test_capture_square_grid_imageless_board() -> None:
    mod = corpus_module("CaptureOfTheTerritory")
    board = mod.maps["Main Map"].boards["5x5"]
    assert board.image is None and (board.width, board.height) == (275, 275) and board.size_known
    grid = board.grid
    assert isinstance(grid, SquareGridDef)
    assert (grid.dx, grid.dy, grid.x0, grid.y0) == (50.0, 50.0, 36, 36)
    assert grid.numbering is not None and not grid.numbering.stagger
    assert mod.root_tag == "VASSAL.launch.BasicModule" and mod.build_entry == "buildFile"


def test_hex_n_counters_template() -> None:
    mod = corpus_module("HexNCountersTemplate")
    grid = mod.maps["Main Map"].boards["Map"].grid
    assert isinstance(grid, HexGridDef)
    assert (grid.dx, grid.dy, grid.x0, grid.y0) == (80.88337155288302, 93.90000000000086, 22, -4)
    assert grid.numbering is not None and grid.numbering.stagger
    track = mod.maps["TurnTrack"].boards["Turn"].grid
    assert isinstance(track, ZonedGridDef)
    square = track.zones[0].grid
    assert isinstance(square, SquareGridDef) and (square.dx, square.dy) == (75.0, 75.0)


def test_predefined_setups_module() -> None:
    mod = corpus_module("VassalTestPredefinedSetups")
    assert list(mod.maps) == ["Main Map"]
    main = mod.maps["Main Map"]
    assert main.id == "Map0" and dict(main.boards) == {} and main.default_setup is None
    assert mod.vassal_version == "3.5.0-SNAPSHOT-bugfix-554-a8f2c3033"
    assert mod.metadata["VassalVersion"] == "3.5.0-SNAPSHOT-bugfix-554-a8f2c3033"
    assert mod.metadata["name"] == "Test Predefined Setups Module"
    assert "extra1" not in mod.metadata
    assert mod.piece_slots == () and mod.prototypes == {} and all_grids(mod) == []
    tags = {e.tag for e in mod.other_elements}
    assert "VASSAL.build.module.PredefinedSetup" in tags and "VASSAL.build.widget.PanelWidget" in tags


def test_piece_slot_folders_in_corpus() -> None:
    mod = corpus_module("Kassala")
    stack_slots = [s for st_ in mod.maps["Main Map"].setup_stacks for s in st_.piece_slots]
    assert all(s.folder[0] == "Main Map" for s in stack_slots)
    palette = [s for s in mod.piece_slots if s.folder and s.folder[0] == "Pieces"]
    assert palette and all(s.text.startswith("+/null/") for s in palette)


# -- hand-written buildFiles: grid defaults ----------------------------------------------------


def test_hex_grid_defaults() -> None:
    grid = grid_of(f"<{B}HexGrid/>")
    assert isinstance(grid, HexGridDef)
    assert (grid.dx, grid.dy, grid.x0, grid.y0) == (DEFAULT_HEX_DX, 64.0, 0, 32)
    assert DEFAULT_HEX_DX == 55.42562584220407
    assert not grid.sideways and grid.snap_to and not grid.edges_legal and not grid.corners_legal
    assert grid.snapscale == 0 and grid.numbering is None


@pytest.mark.parametrize(
    "attrs, dx, dy",
    [
        ('dy="100"', math.sqrt(3) / 2 * 100, 100.0),  # dx absent: follows dy
        ('dy="100" dx="50"', 50.0, 100.0),  # applied alphabetically: dx first
        ('dx="50" dy="100"', 50.0, 100.0),
        ('dx="55.42562584220407" dy="100"', math.sqrt(3) / 2 * 100, 100.0),  # dx equal to default
        ('dx="55.4256258422" dy="100"', 55.4256258422, 100.0),  # close is not equal
        ('dx="70"', 70.0, 64.0),
        ('dx="1e2" dy="2.5d"', 100.0, 2.5),
    ],
)
def test_hex_dx_follows_dy_only_from_default(attrs: str, dx: float, dy: float) -> None:
    grid = grid_of(f"<{B}HexGrid {attrs}/>")
    assert isinstance(grid, HexGridDef)
    assert (grid.dx, grid.dy) == (dx, dy)


def test_hex_numbering_defaults_and_first_characters() -> None:
    grid = grid_of(f'<{B}HexGrid sideways="TRUE"><{B}mapgrid.HexGridNumbering/></{B}HexGrid>')
    assert isinstance(grid, HexGridDef) and grid.sideways  # Boolean.valueOf ignores case
    num = grid.numbering
    assert num is not None
    assert (num.first, num.sep, num.h_type, num.v_type) == ("H", "", "N", "N")
    assert (num.h_leading, num.v_leading, num.h_off, num.v_off) == (1, 1, 1, 1)
    assert num.stagger and not num.h_descend and not num.v_descend and not num.oblique
    assert num.location_format == "$gridLocation$"
    grid = grid_of(
        f'<{B}HexGrid><{B}mapgrid.ObliqueHexGridNumbering first="Vertical" hType="Alpha" '
        f'vType="Numeric" sep="-" hOff="0" vLeading="x" stagger="false" vDescend="yes" '
        f'locationFormat="Hex $gridLocation$"/></{B}HexGrid>'
    )
    num = grid.numbering
    assert num is not None and num.oblique
    assert (num.first, num.h_type, num.v_type, num.sep, num.h_off) == ("V", "A", "N", "-", 0)
    assert num.v_leading == 1  # not an integer: default
    assert not num.stagger and not num.v_descend  # only "true" is true
    assert num.location_format == "Hex $gridLocation$"


def test_square_grid_defaults() -> None:
    grid = grid_of(f'<{B}SquareGrid><{B}mapgrid.SquareGridNumbering stagger="true"/></{B}SquareGrid>')
    assert isinstance(grid, SquareGridDef)
    assert (grid.dx, grid.dy, grid.x0, grid.y0, grid.range) == (48.0, 48.0, 24, 24, "Metric")
    assert grid.snap_to and grid.numbering is not None and not grid.numbering.stagger


def test_region_grid() -> None:
    grid = grid_of(
        f'<{B}RegionGrid snapto="false"><{B}Region name="Rome" originx="10" originy="-20"/>'
        f'<{B}Region name="Paris"/></{B}RegionGrid>'
    )
    assert isinstance(grid, RegionGridDef) and not grid.snap_to
    assert [(r.name, r.x, r.y) for r in grid.regions] == [("Rome", 10, -20), ("Paris", 0, 0)]
    assert isinstance(grid_of(f"<{B}RegionGrid/>"), RegionGridDef)


def test_zoned_grid() -> None:
    grid = grid_of(
        f"<{B}ZonedGrid>"
        f'<{B}mapgrid.Zone name="A" path="0,0;200,0; 200 , 100 ;0,100"/>'
        f'<{B}mapgrid.Zone name="B" locationFormat="$name$ $gridLocation$" path="1,2;x,3;4;5,6,7" '
        f'useParentGrid="true" useHighlight="true" highlightProperty="P">'
        f'<{B}SquareGrid dx="10"/><VASSAL.build.module.properties.ZoneProperty name="zp" initialValue="3"/>'
        f"</{B}mapgrid.Zone>"
        f'<{B}mapgrid.Zone name="C" path=""/>'
        f'<{B}HexGrid dy="50"/>'
        f"<{B}mapgrid.ZonedGridHighlighter/>"
        f"</{B}ZonedGrid>"
    )
    assert isinstance(grid, ZonedGridDef)
    a, b, c = grid.zones
    assert (a.name, a.path, a.location_format, a.use_parent_grid, a.grid) == (
        "A",
        ((0, 0), (200, 0), (200, 100), (0, 100)),
        "$name$",
        False,
        None,
    )
    assert b.path == ((1, 2), (5, 6)) and b.use_parent_grid and b.use_highlight
    assert b.highlight_property == "P" and b.location_format == "$name$ $gridLocation$"
    assert isinstance(b.grid, SquareGridDef) and b.grid.dx == 10.0
    assert c.path == ()
    assert isinstance(grid.background, HexGridDef) and grid.background.dy == 50.0
    mod = parse_buildfile(
        one_board(
            f'<{B}ZonedGrid><{B}mapgrid.Zone name="Z"><VASSAL.build.module.properties.ZoneProperty '
            f'name="zp" initialValue="3"/></{B}mapgrid.Zone></{B}ZonedGrid>'
        )
    )
    assert [(p.name, p.initial_value, p.container) for p in mod.global_properties] == [("zp", "3", "M:Z")]


@pytest.mark.parametrize("attr, value", [("x0", "1.5"), ("y0", "12 "), ("x0", ""), ("y0", "3000000000")])
def test_hex_origin_must_be_integer(attr: str, value: str) -> None:
    xml = one_board(f'<{B}HexGrid {attr}="{value}"/>')
    with pytest.raises(FormatError) as info:
        parse_buildfile(xml, path="m.vmod")
    err = info.value
    assert err.where is not None and err.where.line == 6 and err.where.entry == "buildFile.xml"
    assert attr in err.message and repr(value) in err.message and "HexGrid" in err.message
    assert str(err).startswith("m.vmod!buildFile.xml: line 6: attribute")


@pytest.mark.parametrize(
    "grid",
    [
        f'<{B}HexGrid dx="wide"/>',
        f'<{B}SquareGrid x0="2.0"/>',
        f'<{B}RegionGrid><{B}Region name="r" originx="1.5"/></{B}RegionGrid>',
    ],
)
def test_other_bad_grid_numbers(grid: str) -> None:
    with pytest.raises(FormatError, match="is not"):
        parse_buildfile(one_board(grid))


def test_board_sizes() -> None:
    seen: list[str] = []

    def size(name: str) -> tuple[int, int] | None:
        seen.append(name)
        return (640, 480) if name == "here.png" else None

    xml = module_xml(
        '<VASSAL.build.module.Map mapName="M"><VASSAL.build.module.map.BoardPicker>'
        "<setup>\n\tM\tBoardA\t0\t0 \x20</setup>"
        '<VASSAL.build.module.map.boardPicker.Board name="A" image="here.png" width="5" height="5" reversible="true"/>'
        '<VASSAL.build.module.map.boardPicker.Board name="B" image="gone.png"/>'
        '<VASSAL.build.module.map.boardPicker.Board name="C"/>'
        '<VASSAL.build.module.map.boardPicker.Board name="D" image="" width="80" height="x"/>'
        '<VASSAL.build.module.map.boardPicker.Board name="A" width="1" height="1"/>'
        "</VASSAL.build.module.map.BoardPicker></VASSAL.build.module.Map>"
    )
    m = parse_buildfile(xml, image_size=size).maps["M"]
    assert seen == ["here.png", "gone.png"]
    assert list(m.boards) == ["A", "B", "C", "D"]
    a, b, c, d = m.boards.values()
    assert (a.image, a.width, a.height, a.size_known, a.reversible) == ("here.png", 640, 480, True, True)
    assert (b.width, b.height, b.size_known) == (0, 0, False)
    assert (c.image, c.width, c.height, c.size_known, c.grid) == (None, 500, 500, True, None)
    assert (d.image, d.width, d.height) == (None, 80, 500)
    assert m.default_setup == "M\tBoardA\t0\t0"


# -- hand-written buildFiles: everything else ---------------------------------------------------

FULL = f"""<?xml version="1.0" encoding="UTF-8" standalone="no"?>
<{G} ModuleOther1="x" VassalVersion="3.7.0" description="d" name="Full" nextPieceSlotId="9" version="2.0">
    <VASSAL.build.module.PlayerRoster buttonText="Retire">
        <entry> Axis </entry>
        <entry>Allies</entry>
    </VASSAL.build.module.PlayerRoster>
    <VASSAL.build.module.PrototypesContainer>
        <VASSAL.build.module.PrototypeDefinition description="first" name="Unit">piece;;;;/null;0;0;;0</VASSAL.build.module.PrototypeDefinition>
        <VASSAL.build.module.folder.PrototypeFolder name="F">
            <VASSAL.build.module.PrototypeDefinition name="Unit">
                +/null/second
            </VASSAL.build.module.PrototypeDefinition>
            <VASSAL.build.module.PrototypeDefinition name="Other">x</VASSAL.build.module.PrototypeDefinition>
        </VASSAL.build.module.folder.PrototypeFolder>
    </VASSAL.build.module.PrototypesContainer>
    <VASSAL.build.module.Map edge="7,8" edgeWidth="100" mapName="Main">
        <VASSAL.build.module.properties.GlobalProperties>
            <VASSAL.build.module.properties.GlobalProperty initialValue="1" name="Weather"/>
        </VASSAL.build.module.properties.GlobalProperties>
        <VASSAL.build.module.folder.MapSubFolder name="Stacks">
            <VASSAL.build.module.map.SetupStack location="0101" name="S1" owningBoard="B" useGridLocation="true" x="5" y="6">
                <VASSAL.build.widget.PieceSlot entryName="Tank" gpid="3">+/null/tank</VASSAL.build.widget.PieceSlot>
            </VASSAL.build.module.map.SetupStack>
        </VASSAL.build.module.folder.MapSubFolder>
        <VASSAL.build.module.map.DrawPile height="90" name="Deck" owningBoard="" width="60" x="1" y="2">
            <VASSAL.build.widget.CardSlot entryName="Ace" gpid="4">+/null/ace</VASSAL.build.widget.CardSlot>
        </VASSAL.build.module.map.DrawPile>
    </VASSAL.build.module.Map>
    <VASSAL.build.module.folder.ModuleSubFolder name="Hands">
        <VASSAL.build.module.PrivateMap mapName="">
            <VASSAL.build.module.properties.GlobalProperties>
                <VASSAL.build.module.properties.GlobalProperty name="Secret"/>
            </VASSAL.build.module.properties.GlobalProperties>
        </VASSAL.build.module.PrivateMap>
        <VASSAL.build.module.PlayerHand edge="3,4" mapName="Hand"/>
    </VASSAL.build.module.folder.ModuleSubFolder>
    <VASSAL.build.module.Map edge="x,4" mapName="Main"/>
    <VASSAL.build.module.PieceWindow text="Pieces">
        <VASSAL.build.widget.TabWidget entryName="Tabs">
            <VASSAL.build.widget.ListWidget entryName="German">
                <!-- a comment -->
                <VASSAL.build.widget.PieceSlot entryName="Inf" gpid="1" height="60" width="60">\t\r +/null/inf\u00a0 </VASSAL.build.widget.PieceSlot>
            </VASSAL.build.widget.ListWidget>
        </VASSAL.build.widget.TabWidget>
    </VASSAL.build.module.PieceWindow>
    <VASSAL.build.module.DiceButton addToTotal="1" nDice="3" nSides="10" name="3d10" plus="-1" reportTotal="true"/>
    <VASSAL.build.module.DiceButton label="Legacy" nDice="two"/>
    <VASSAL.build.module.SpecialDiceButton format="F" name="Weird">
        <VASSAL.build.module.SpecialDie name="d">
            <VASSAL.build.module.SpecialDieFace text="a" value="1"/>
            <VASSAL.build.module.SpecialDieFace text="b" value="2"/>
        </VASSAL.build.module.SpecialDie>
    </VASSAL.build.module.SpecialDiceButton>
    <VASSAL.build.module.turn.TurnTracker name="Turn">
        <VASSAL.build.module.turn.CounterTurnLevel loop="true" loopLimit="8" name="Turn" property="T" start="0">
            <VASSAL.build.module.turn.ListTurnLevel list="Axis,Allies\\,Soviet,'q'" name="Phase" turnFormat="$value$!">
                <VASSAL.build.module.turn.TurnGlobalHotkey name="k"/>
            </VASSAL.build.module.turn.ListTurnLevel>
        </VASSAL.build.module.turn.CounterTurnLevel>
    </VASSAL.build.module.turn.TurnTracker>
    <VASSAL.build.module.turn.TurnTracker name="Second"/>
    <VASSAL.build.module.properties.GlobalProperties>
        <VASSAL.build.module.folder.GlobalPropertyFolder name="G">
            <VASSAL.build.module.properties.GlobalProperty initialValue="0" isNumeric="true" name="VP"/>
        </VASSAL.build.module.folder.GlobalPropertyFolder>
    </VASSAL.build.module.properties.GlobalProperties>
    <custom.Thing a="1"/>
</{G}>
"""


@pytest.fixture(scope="module")
def full() -> Module:
    meta = b'<data version="1"><version>2.0</version><description>plain</description></data>'
    return parse_buildfile(FULL.encode("utf-8"), path="full.vmod", metadata=meta)


def test_root_fields(full: Module) -> None:
    assert (full.name, full.version, full.vassal_version, full.description) == ("Full", "2.0", "3.7.0", "d")
    assert full.root_tag == G and full.build_entry == "buildFile.xml"
    assert full.root_attributes["ModuleOther1"] == "x"
    assert full.metadata == {"version": "2.0", "description": "plain"}
    assert full.sides == ("Axis", "Allies")


def test_maps_ids_names_edges(full: Module) -> None:
    assert list(full.maps) == ["Main", "Map1", "Hand"]
    main, private, hand = full.maps.values()
    assert (main.id, main.kind, main.edge_width, main.edge_height) == ("Map0", "Map", 100, 8)
    assert (private.id, private.kind, private.name) == ("Map1", "PrivateMap", "Map1")
    assert (hand.id, hand.kind, hand.edge_width, hand.edge_height) == ("Map2", "PlayerHand", 3, 4)
    [shadow] = full.shadowed_maps
    assert (shadow.id, shadow.name, shadow.edge_width, shadow.edge_height) == ("Map3", "Main", 0, 0)
    assert full.map_by_id("Map3") is shadow and full.map_by_id("Main") is main
    assert main.attributes["edge"] == "7,8"


def test_setup_stacks_and_decks(full: Module) -> None:
    main = full.maps["Main"]
    [stack] = main.setup_stacks
    assert (stack.name, stack.owning_board, stack.x, stack.y, stack.use_grid_location, stack.location) == (
        "S1",
        "B",
        5,
        6,
        True,
        "0101",
    )
    [tank] = stack.piece_slots
    assert (tank.entry_name, tank.gpid, tank.text, tank.folder) == (
        "Tank",
        "3",
        "+/null/tank",
        ("Main", "Stacks", "S1"),
    )
    [deck] = main.decks
    assert (deck.name, deck.owning_board, deck.x, deck.y, deck.width, deck.height) == ("Deck", None, 1, 2, 60, 90)
    [ace] = deck.piece_slots
    assert ace.card and ace.folder == ("Main", "Deck")


def test_piece_slots_everywhere(full: Module) -> None:
    assert [s.entry_name for s in full.piece_slots] == ["Tank", "Ace", "Inf"]
    inf = full.piece_slots[2]
    assert inf.folder == ("Pieces", "Tabs", "German") and not inf.card
    assert inf.text == "+/null/inf\u00a0"  # Java trim: TAB, CR and spaces go, NO-BREAK SPACE stays
    assert inf.line is not None and inf.line > 40


def test_prototypes(full: Module) -> None:
    assert list(full.prototypes) == ["Unit", "Other"]
    unit = full.prototypes["Unit"]
    assert (unit.text, unit.description) == ("+/null/second", "")
    assert full.duplicate_prototypes == ("Unit",)


def test_dice(full: Module) -> None:
    d10, legacy, special = full.dice_buttons
    assert (d10.name, d10.n_dice, d10.n_sides, d10.plus, d10.add_to_total, d10.report_total) == (
        "3d10",
        3,
        10,
        -1,
        1,
        True,
    )
    assert d10.kind == "DiceButton" and d10.attributes["nDice"] == "3"
    assert d10.report_format == "** $name$ = $result$ *** &lt;$PlayerName$&gt;"
    assert (legacy.name, legacy.n_dice, legacy.n_sides) == ("Legacy", 2, 6)
    assert (special.kind, special.name, special.n_dice, special.n_sides) == ("SpecialDiceButton", "Weird", 1, 2)
    assert special.special_faces == (("a", "b"),) and special.report_format == "F"


def test_turn_trackers(full: Module) -> None:
    first, second = full.turn_trackers
    assert (first.id, first.name, second.id, second.levels) == ("TurnTracker0", "Turn", "TurnTracker1", ())
    [turn] = first.levels
    assert (turn.kind, turn.name, turn.property, turn.start, turn.incr, turn.loop, turn.loop_limit) == (
        "counter",
        "Turn",
        "T",
        0,
        1,
        True,
        8,
    )
    [phase] = turn.levels
    assert (phase.kind, phase.items, phase.turn_format) == ("list", ("Axis", "Allies,Soviet", "q"), "$value$!")


def test_global_properties(full: Module) -> None:
    props = [(p.name, p.initial_value, p.container) for p in full.global_properties]
    assert props == [("Weather", "1", "Main"), ("Secret", "", "Map1"), ("VP", "0", "Module")]
    assert full.global_properties[2].attributes["isNumeric"] == "true"


def test_other_elements(full: Module) -> None:
    by_tag = {e.tag: e for e in full.other_elements}
    assert by_tag["custom.Thing"].attributes == {"a": "1"} and by_tag["custom.Thing"].line is not None
    assert "VASSAL.build.widget.ListWidget" in by_tag and "VASSAL.build.module.turn.TurnGlobalHotkey" in by_tag
    assert "entry" not in by_tag and "setup" not in by_tag
    assert "VASSAL.build.module.DiceButton" not in by_tag


def test_crlf_buildfile_same_records(full: Module) -> None:
    crlf = parse_buildfile(FULL.replace("\n", "\r\n").encode("utf-8"), path="full.vmod")
    assert crlf.piece_slots == full.piece_slots and crlf.prototypes == full.prototypes
    assert [s.line for s in crlf.piece_slots] == [s.line for s in full.piece_slots]


@pytest.mark.parametrize("root", ["VASSAL.launch.BasicModule", "VASSAL.build.module.ModuleExtension"])
def test_other_roots(root: str) -> None:
    mod = parse_buildfile(module_xml("", root=root, attrs='module="Base" version="1"'))
    assert mod.root_tag == root and mod.name == "" and mod.root_attributes["module"] == "Base"


def test_unknown_root() -> None:
    with pytest.raises(FormatError, match='"data"') as info:
        parse_buildfile(b'<?xml version="1.0"?>\n\n<data/>', path="x.vmod")
    assert info.value.where is not None and info.value.where.line == 3


# -- XML safety ----------------------------------------------------------------------------

BILLION_LAUGHS = b"""<?xml version="1.0"?>
<!DOCTYPE lolz [
 <!ENTITY lol "lol">
 <!ENTITY lol1 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">
 <!ENTITY lol2 "&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;">
 <!ENTITY lol3 "&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;">
 <!ENTITY lol4 "&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;">
 <!ENTITY lol5 "&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;">
 <!ENTITY lol6 "&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;">
 <!ENTITY lol7 "&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;">
 <!ENTITY lol8 "&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;">
 <!ENTITY lol9 "&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;">
]>
<VASSAL.build.GameModule name="&lol9;" version="1">&lol9;</VASSAL.build.GameModule>
"""

XXE = b"""<?xml version="1.0"?>
<!DOCTYPE m [ <!ENTITY xxe SYSTEM "file:///etc/passwd"> ]>
<VASSAL.build.GameModule name="x" version="1">
<VASSAL.build.widget.PieceSlot entryName="a" gpid="1">&xxe;</VASSAL.build.widget.PieceSlot>
</VASSAL.build.GameModule>
"""


@pytest.mark.parametrize("doc", [BILLION_LAUGHS, XXE, XXE.decode().encode("utf-16")], ids=["bomb", "xxe", "xxe16"])
def test_entity_declarations_refused(doc: bytes) -> None:
    with pytest.raises(FormatError, match="entit") as info:
        parse_buildfile(doc, path="evil.vmod")
    assert info.value.where is not None and info.value.where.line in (2, 3)
    assert "root:" not in str(info.value)
    with pytest.raises(FormatError, match="entit"):
        parse_metadata(doc)


class RecordingResolver(etree.Resolver):
    def __init__(self) -> None:
        super().__init__()
        self.calls: list[str] = []

    def resolve(self, system_url, public_id, context):  # type: ignore[no-untyped-def]
        self.calls.append(system_url)
        return None


def test_parser_never_loads_external_entities(tmp_path: Path) -> None:
    secret = tmp_path / "secret.txt"
    secret.write_text("TOP-SECRET")
    dtd = tmp_path / "evil.dtd"
    dtd.write_text('<!ENTITY leak "LEAKED">')
    parser = make_safe_parser()
    resolver = RecordingResolver()
    parser.resolvers.add(resolver)
    for doc in (
        XXE.replace(b"file:///etc/passwd", secret.as_uri().encode()),
        f'<!DOCTYPE a [<!ENTITY % p SYSTEM "{dtd.as_uri()}"> %p;]><a>&leak;</a>'.encode(),
        f'<!DOCTYPE a SYSTEM "{dtd.as_uri()}"><a>&leak;</a>'.encode(),
    ):
        root = etree.fromstring(doc, parser)
        text = etree.tostring(root)
        assert b"TOP-SECRET" not in text and b"LEAKED" not in text
    assert resolver.calls == []


def test_undeclared_entity_with_external_dtd_refused() -> None:
    doc = b'<!DOCTYPE m SYSTEM "file:///etc/passwd">\n<VASSAL.build.GameModule name="a">&x;</VASSAL.build.GameModule>'
    with pytest.raises(FormatError, match='"&x;"') as info:
        parse_buildfile(doc)
    assert info.value.where is not None and info.value.where.line == 2


def test_doctype_without_entities_accepted() -> None:
    doc = b'<!DOCTYPE m SYSTEM "http://example.invalid/m.dtd">\n<VASSAL.build.GameModule name="a" version="1"/>'
    assert parse_buildfile(doc).name == "a"


@pytest.mark.parametrize(
    "doc, line",
    [
        (b'<?xml version="1.0"?>\n<VASSAL.build.GameModule>\n<a>\n</b>\n</VASSAL.build.GameModule>', 4),
        (b"", None),
        (b'<VASSAL.build.GameModule name="a" name="b"/>', 1),
        (b'<?xml version="1.0"?>\n<VASSAL.build.GameModule>\n\n', 4),
    ],
)
def test_malformed_xml(doc: bytes, line: int | None) -> None:
    with pytest.raises(FormatError, match="malformed xml") as info:
        parse_buildfile(doc, path="bad.vmod", entry="buildFile")
    where = info.value.where
    assert where is not None and where.path == "bad.vmod" and where.entry == "buildFile"
    if line is not None:
        assert where.line == line


# -- metadata -----------------------------------------------------------------------------


def test_parse_metadata() -> None:
    xml = b"""<?xml version="1.0" encoding="UTF-8" standalone="no"?>
<data version="1">
  <version> 2.1 </version>
  <extra1/>
  <extra2/>
  <VassalVersion>3.7.26</VassalVersion>
  <dateSaved>1700000000000</dateSaved>
  <description lang="fr">Un module</description>
  <description>A test module</description>
  <description lang="de">Ein Testmodul</description>
  <name>Test Module</name>
</data>"""
    assert parse_metadata(xml) == {
        "version": "2.1",
        "extra1": "",
        "extra2": "",
        "VassalVersion": "3.7.26",
        "dateSaved": "1700000000000",
        "description": "A test module",
        "name": "Test Module",
    }
    with pytest.raises(FormatError, match='"VASSAL.build.GameModule"') as info:
        parse_metadata(module_xml(""), path="p.vsav", entry="savedata")
    assert info.value.where is not None and info.value.where.entry == "savedata"


@pytest.mark.parametrize("path", MODULES, ids=ids(MODULES))
def test_corpus_metadata(path: Path) -> None:
    entries = read_entries(path)
    if "moduledata" not in entries:
        pytest.skip("no moduledata")
    meta = parse_metadata(entries["moduledata"])
    assert meta["VassalVersion"] and meta["name"] and "version" in meta


# -- values and helpers -----------------------------------------------------------------------


def test_java_values() -> None:
    assert java_trim("\x00\t\x1b a b \r\n") == "a b" and java_trim("\u00a0x\u2003") == "\u00a0x\u2003"
    assert java_bool("true") and java_bool("True") and not java_bool("yes") and not java_bool(" true")
    assert java_bool(None, True) and not java_bool("", True)
    assert [java_int(v) for v in ("12", "-3", "+4", "1.0", " 1", "", "2147483648", "-2147483648")] == [
        12,
        -3,
        4,
        None,
        None,
        None,
        None,
        -2147483648,
    ]
    assert [java_double(v) for v in ("1.5", " 2 ", "1e3", "3f", ".5", "5.", "x", "", "0x1p4")] == [
        1.5,
        2.0,
        1000.0,
        3.0,
        0.5,
        5.0,
        None,
        None,
        16.0,
    ]
    assert java_double("-Infinity") == -math.inf and math.isnan(java_double("NaN") or 0.0)
    assert java_double("inf") is None and java_double("1_000") is None


def test_se_decode_vectors() -> None:
    vectors = json.loads((SPEC / "vectors.json").read_text()) if (SPEC / "vectors.json").exists() else None
    if vectors is None:
        pytest.skip("spec vectors not found")
    cases = vectors["sequence_encoder"]["decode"]
    assert cases
    for case in cases:
        delim = chr(int(case["delimiter"][2:], 16))
        assert split(case["input"], delim) == case["tokens"], case


def test_zone_path_vectors() -> None:
    if not (SPEC / "vectors.json").exists():
        pytest.skip("spec vectors not found")
    for case in json.loads((SPEC / "vectors.json").read_text())["zones"]["containment"]:
        points = parse_zone_path(case["path"])
        assert ";".join(f"{x},{y}" for x, y in points) == case["path"].replace(" ", "")


@given(
    st.lists(st.tuples(st.integers(-(2**31), 2**31 - 1), st.integers(-(2**31), 2**31 - 1)), max_size=20),
    st.sampled_from(["", " ", "\t"]),
)
def test_zone_path_round_trip(points: list[tuple[int, int]], pad: str) -> None:
    text = ";".join(f"{pad}{x}{pad},{pad}{y}{pad}" for x, y in points)
    assert parse_zone_path(text) == tuple(points)


@given(st.text())
def test_java_trim_property(text: str) -> None:
    trimmed = java_trim(text)
    assert trimmed == "" or (trimmed[0] > " " and trimmed[-1] > " ")
    assert trimmed in text


def test_image_size_from_bytes() -> None:
    buf = io.BytesIO()
    Image.new("RGB", (37, 21)).save(buf, "PNG")
    assert image_size_from_bytes(buf.getvalue()) == (37, 21)
    buf = io.BytesIO()
    Image.new("L", (5, 9)).save(buf, "JPEG")
    assert image_size_from_bytes(buf.getvalue()) == (5, 9)
    assert image_size_from_bytes(b"") is None
    assert image_size_from_bytes(b"<svg xmlns='http://www.w3.org/2000/svg'/>") is None
    assert image_size_from_bytes(buf.getvalue()[:10]) is None


def test_corrupted_buildfiles_raise_only_format_errors() -> None:
    """Truncated, bit-flipped and spliced buildFiles: a Module or a VassalAdjError, nothing else."""
    import random

    from vassal_adj.errors import VassalAdjError

    rnd = random.Random(20240601)
    source = bytearray(FULL.encode("utf-8"))
    for _ in range(400):
        data = bytearray(source)
        how = rnd.randrange(3)
        if how == 0:
            data = data[: rnd.randrange(len(data))]
        elif how == 1:
            for _ in range(rnd.randrange(1, 4)):
                data[rnd.randrange(len(data))] ^= 1 << rnd.randrange(8)
        else:
            at, src = rnd.randrange(len(data)), rnd.randrange(len(data))
            data[at : at + rnd.randrange(40)] = data[src : src + rnd.randrange(40)]
        with contextlib.suppress(VassalAdjError):
            parse_buildfile(bytes(data), image_size=lambda name: (10, 10))
