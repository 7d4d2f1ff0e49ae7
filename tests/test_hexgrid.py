"""HexLayout: label <-> Hex <-> centre on every corpus hex grid, against the real engine's labels."""

from __future__ import annotations

import dataclasses
import json
import math
from functools import cache

import pytest
from conftest import CORPUS, REPO, SPEC, need_corpus

import vassal_adj
from vassal_adj.errors import UsageError
from vassal_adj.model.geometry import hexes as hx
from vassal_adj.model.geometry.grid import PlacedBoard, board_location_name, place_boards
from vassal_adj.model.geometry.layout import HexLayout
from vassal_adj.model.geometry.maps import board_hex_layouts, on_board_center
from vassal_adj.model.module import BoardDef, HexGridDef, HexNumbering, MapDef

ORACLE_PATH = SPEC / "oracle-labels.json"
KASSERINE = REPO / "modules" / "kasserine" / "example" / "Kasserine.vmod"


def _oracle_grids() -> list[dict]:
    try:
        return json.loads(ORACLE_PATH.read_text(encoding="utf-8"))["grids"]
    except OSError:
        return []


GRIDS = {g["id"]: g for g in _oracle_grids()}


@cache
def _module(name: str) -> vassal_adj.model.module.Module:
    found = sorted((CORPUS / name).glob("*.vmod"))
    if not found:
        pytest.skip(f"corpus module {name} not found")
    return vassal_adj.load_module(found[0])


@cache
def oracle_layout(gid: str) -> HexLayout:
    """The layout of an oracle grid, on its board with the size the oracle used."""
    if gid not in GRIDS:
        need_corpus()  # the oracle file lives in shared/spec beside the corpus
    g = GRIDS[gid]
    board = _module(g["module"]).maps[g["map"]].boards[g["board"]]
    board = dataclasses.replace(board, width=g["board_size_used"][0], height=g["board_size_used"][1])
    where = gid.rsplit("/", 1)[-1]
    for lay in board_hex_layouts(board):
        if where == "background" and lay.background:
            return lay
        if where.startswith("zone:") and lay.zone is not None and lay.zone.name == where[5:]:
            return lay
        if lay.zone is None and not lay.background and where == g["board"]:
            return lay
    raise AssertionError(f"no layout for {gid}")


def rows(gid: str, key: str) -> list[dict]:
    block = GRIDS[gid][key]
    return [dict(zip(block["columns"], r, strict=True)) for r in block["rows"]]


@cache
def kasserine() -> HexLayout:
    if not KASSERINE.is_file():
        pytest.skip("Kasserine example module not built")
    (layout,) = board_hex_layouts(vassal_adj.load_module(KASSERINE).maps["Main Map"].boards["Kasserine"])
    return layout


def _all_layouts() -> list[str]:
    return list(GRIDS) + ["kasserine-example"]


def layout_for(gid: str) -> HexLayout:
    return kasserine() if gid == "kasserine-example" else oracle_layout(gid)


# =======================================================================================
# Against the engine


@pytest.mark.parametrize("gid", list(GRIDS))
def test_every_hex_on_the_board_is_found(gid: str) -> None:
    lay = oracle_layout(gid)
    g = GRIDS[gid]
    assert len(lay.hexes()) == g["counts"]["engine_centres_in_region"]
    want = {r["label"] for r in rows(gid, "name_to_pixel") if r["centre_in_region"]}
    assert set(lay.labels()) == want
    assert len(lay.labels()) == (len(lay.hexes()) if lay.numbered else 0)


@pytest.mark.parametrize("gid", list(GRIDS))
def test_label_to_hex_to_engine_centre(gid: str) -> None:
    lay = oracle_layout(gid)
    for r in rows(gid, "name_to_pixel"):
        h = lay.hex_of(r["label"])
        assert h is not None, r
        assert lay.center(h, off_map=True) == tuple(r["hex_xy"])
        assert lay.on_map(h) == r["centre_in_region"]
        assert lay.label_of(h) == r["label"]
        if not r["centre_in_region"]:  # off the map: no position without asking for one
            with pytest.raises(UsageError, match="off the map"):
                lay.center(h)
    for r in rows(gid, "name_to_pixel_off_board_or_malformed"):
        h = lay.hex_of(r["label"])
        assert (h is None) == (r["hex_xy"] == "EXC:BadCoords"), r
        if h is not None:
            assert not lay.on_map(h)


@pytest.mark.parametrize("gid", list(GRIDS))
def test_pixel_to_label_matches_engine(gid: str) -> None:
    lay = oracle_layout(gid)
    checked = 0
    for r in rows(gid, "pixel_to_name"):
        x, y = r["bx"], r["by"]
        h = lay.hex_at(x, y)
        if not lay._in_region(x, y):
            assert h is None
            continue
        assert h is not None
        assert h.raw() == ((r["raw_column"], r["raw_row"]) if lay.numbered else h.raw())
        assert lay.label_at(x, y) == r["hex_name"], r
        checked += 1
    assert checked > 50


@pytest.mark.parametrize("gid", _all_layouts())
def test_round_trips_on_every_hex(gid: str) -> None:
    lay = layout_for(gid)
    for h in lay.hexes():
        c = lay.center(h)
        assert lay.hex_at(*c) == h
        label = lay.label_of(h)
        if lay.numbered:
            assert label is not None and lay.hex_of(label) == h
            assert lay.label_at(*c) == label
            if not lay.background:  # zones may cover the background grid at board level
                assert board_location_name(lay.board, *c) == label
        else:
            assert label is None


@pytest.mark.parametrize("gid", _all_layouts())
def test_neighbours_agree_with_the_geometry(gid: str) -> None:
    """The Hex neighbours of each hex are exactly the nearest on-map centres."""
    np = pytest.importorskip("numpy")
    lay = layout_for(gid)
    hs = lay.hexes()
    if not hs:
        pytest.skip("no hex on this board")
    g = lay.grid
    near, far = sorted((g.dy, math.hypot(g.dx, g.dy / 2)))
    pts = np.array([lay.center(h) for h in hs], dtype=float)
    index = {h: k for k, h in enumerate(hs)}
    for k, h in enumerate(hs):
        d = np.hypot(*(pts - pts[k]).T)
        close = {hs[j] for j in np.nonzero((d > 0) & (d <= far + 2))[0]}
        expected = {n for n in hx.neighbors(h) if n in index}
        assert close == expected, lay.label_of(h) or h
        for n in expected:
            assert near - 2 <= d[index[n]] <= far + 2
        if expected:
            assert d[(d > 0)].min() >= near - 2


# =======================================================================================
# Hand-worked cases


def test_kasserine_stagger_by_hand() -> None:
    lay = kasserine()
    x01, y01 = lay.center("0112")
    x02, y02 = lay.center("0212")
    x03, y03 = lay.center("0312")
    # Columns run west to east 52 px apart; even-numbered columns sit half a hex lower.
    assert (x02 - x01, y02 - y01) == (52, 30)
    assert (x03 - x01, y03 - y01) == (104, 0)
    assert lay.center("0313")[1] - y03 == 60  # rows run north to south
    assert sorted(lay.neighbors("0312")) == ["0211", "0212", "0311", "0313", "0411", "0412"]
    assert lay.neighbors("0312") == ["0311", "0411", "0412", "0313", "0212", "0211"]
    assert lay.direction_name("0312", "0411") == "NE"
    assert lay.direction_name("0312", "0212") == "SW"
    assert lay.directions == ("N", "NE", "SE", "S", "SW", "NW")
    assert lay.label_of(lay.neighbor("0312", "nw")) == "0211"
    # Corner hex 0101: its north-east neighbour 0200 would be centred at (88, -2), above
    # the board (the example board holds exactly 0101-3926), and north (0100) too.
    assert sorted(lay.neighbors("0101")) == ["0102", "0201"]
    assert not lay.on_map(lay.hex_of("0200"))
    assert not lay.on_map(lay.hex_of("0100"))


def test_stagger_numbering_by_hand() -> None:
    """HexNCounters: stagger=true, offsets 0: odd columns count rows from half a hex higher."""
    lay = oracle_layout("HexNCountersTemplate/Main Map/Map")
    assert lay.center("0001") == (22, 89)  # x0 22, y0 -4, dy 93.9
    assert lay.center("0101") == (102, 42)  # half a hex *higher* than 0001: the stagger
    assert lay.direction_name("0001", "0101") == "NE"
    assert lay.direction_name("0001", "0102") == "SE"


def test_descending_sideways_letters_by_hand() -> None:
    """C&C: sideways, letter columns counted from the bottom (vDescend), numbers left to right."""
    lay = oracle_layout("CommandsAndColorsNapoleonics/Main Map/Inland/zone:Battlefield")
    assert lay.center("C11") == (944, 585) and lay.center("E11") == (944, 434)  # engine values
    assert lay.center("D09") == (814, 510)  # getLocation; the engine snaps it to (813, 510)
    assert lay.directions == ("NE", "E", "SE", "SW", "W", "NW")
    # Engine centres: C11 (944, 585); D11 (988, 510) and D10 (901, 510) above it; B11 (988,
    # 660) and B10 (901, 660) below; C10 (857, 585) and C12 (1031, 585) beside it.
    assert lay.direction_name("C11", "C12") == "E"
    assert lay.direction_name("C11", "C10") == "W"
    assert lay.direction_name("C11", "D11") == "NE"
    assert lay.direction_name("C11", "D10") == "NW"
    assert lay.direction_name("C11", "B11") == "SE"
    assert lay.neighbors("C11") == ["D11", "C12", "B11", "B10", "C10", "D10"]
    assert lay.label_of(lay.neighbor("C11", "NE")) == "D11"
    assert lay.labels()[0] == "A01" and lay.labels()[-1] == "I13"
    assert lay.expand_range("A01-A03") == ["A01", "A02", "A03"]
    assert lay.expand_range("C05-A05") == ["C05", "B05", "A05"]


def test_ragnarok_descending_rows_by_hand() -> None:
    lay = oracle_layout("Ragnarok/Main Map/Map/zone:map")
    a, b = lay.center("0101"), lay.center("0201")
    assert a[1] > b[1]  # vDescend, sideways: column numbers grow from the bottom upwards
    assert lay.direction_name("0101", "0102") == "E"


def test_reversed_board_flips_screen_directions() -> None:
    grid = HexGridDef(dx=52.0, dy=60.0, x0=36, y0=36, numbering=HexNumbering(stagger=False))
    board = BoardDef("B", None, 400, 300, reversible=True, grid=grid)
    mdef = MapDef("M", "Map0", "Map", 10, 20, {"B": board})
    (pb,) = place_boards(mdef, [("B", True, 0, 0)])
    lay = HexLayout(grid, board, placed=pb)
    assert lay.direction_name("0302", "0301") == "S"  # upside down on the map
    assert lay.label_at(*lay.center("0302")) == "0302"
    assert lay.hex_at(0, 0) is None  # in the edge buffer


# =======================================================================================
# Ranges and hexsides as rulebooks write them


def test_expand_range_on_kasserine() -> None:
    lay = kasserine()
    assert lay.expand_range("0623-1423") == [f"{c:02d}23" for c in range(6, 15)]
    assert lay.expand_range("3926-3916") == [f"39{r:02d}" for r in range(26, 15, -1)]
    assert lay.expand_range("0312") == ["0312"]
    assert lay.expand_range("0312, 0101-0103") == ["0312", "0101", "0102", "0103"]
    assert lay.expand_range("1423-1423") == ["1423"]


@pytest.mark.parametrize(
    "spec, message",
    [
        ("0623-1424", "neither along a row nor along a column"),
        ("9999", "'9999' is neither a hex"),
        ("0623-", "'0623-' is neither a hex"),
        ("0312,,0313", "empty item"),
        ("3920-4120", "'3920-4120' is neither a hex"),
    ],
)
def test_expand_range_errors(spec: str, message: str) -> None:
    with pytest.raises(UsageError, match=message):
        kasserine().expand_range(spec)


def test_hexsides_on_kasserine() -> None:
    lay = kasserine()
    side = lay.hexside("0312/0412")
    assert side == lay.hexside("0412/0312") == lay.hexside("0312/SE") == lay.hexside("0412/nw")
    assert side == lay.hexside(("0312", "0412"))
    assert lay.hexside_name(side) == "0312/0412"
    assert lay.hexside("0312/N") == hx.hexside(lay.require("0312"), lay.require("0311"))


@pytest.mark.parametrize(
    "spec, message",
    [
        ("0312/0413", "not adjacent"),
        ("0312/0314", "not adjacent"),
        ("0312/E", "direction 'E' does not exist"),
        ("0312/9999", "'9999' is neither a hex"),
        ("0312", "must be two adjacent labels"),
        ("9999/N", "must be two adjacent labels"),
    ],
)
def test_hexside_errors(spec: str, message: str) -> None:
    with pytest.raises(UsageError, match=message):
        kasserine().hexside(spec)


def test_unknown_and_off_map_labels() -> None:
    lay = kasserine()
    assert lay.hex_of("nonsense") is None
    with pytest.raises(UsageError, match=r"'4001' is off the map.*0101 to 3926"):
        lay.neighbors("4001")
    with pytest.raises(UsageError, match="not a hex label"):
        lay.require("xx")
    with pytest.raises(UsageError, match="not adjacent"):
        lay.direction_name("0312", "0314")


# =======================================================================================
# Grids without numbering, boards without grids


@pytest.mark.parametrize("gid", [g for g in GRIDS if GRIDS[g]["buildfile_numbering_attributes"] is None])
def test_grids_without_numbering_answer_none(gid: str) -> None:
    lay = oracle_layout(gid)
    assert not lay.numbered and lay.labels() == []
    assert lay.hex_of("0101") is None
    assert all(lay.label_of(h) is None for h in lay.hexes()[:20])
    assert lay.label_at(300, 300) is None
    with pytest.raises(UsageError, match="no numbering"):
        lay.expand_range("0101")


def test_board_without_grid_has_no_layout() -> None:
    assert board_hex_layouts(BoardDef("plain", None, 500, 500)) == []
    assert board_location_name(BoardDef("plain", None, 500, 500), 10, 10) is None
    assert on_board_center(BoardDef("plain", None, 500, 500), "0101") is None


def test_layout_at_map_level() -> None:
    grid = HexGridDef(dx=52.0, dy=60.0, x0=36, y0=36, numbering=HexNumbering(stagger=False))
    board = BoardDef("B", None, 400, 300, grid=grid)
    pb = PlacedBoard(board, 0, 0, False, 100, 50)
    lay = HexLayout(grid, board, placed=pb)
    assert lay.center("0101") == (136, 86)
    assert lay.label_at(136, 86) == "0101"
    assert lay.hex_at(99, 86) is None


def test_docstring_examples() -> None:
    import doctest

    from vassal_adj.model.geometry import layout as hexgrid

    assert doctest.testmod(hexgrid).failed == 0
