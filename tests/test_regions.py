"""model.regions: the shapely zone and board indexes answer exactly like zones.find_zone / grid.find_board."""

from __future__ import annotations

import json
import math
from functools import cache

import numpy as np
import pytest
from conftest import CORPUS, SPEC

import vassal_adj
from vassal_adj.model.geometry.grid import PlacedBoard, find_board
from vassal_adj.model.geometry.regions import TREE_THRESHOLD, BoardIndex, ZoneIndex, contains_many, zone_index
from vassal_adj.model.geometry.zones import find_zone, java_polygon, polygon_contains, zone_size
from vassal_adj.model.module import (
    BoardDef,
    SquareGridDef,
    ZoneDef,
    ZonedGridDef,
)

ZONED_MODULES = (
    "CommandsAndColorsNapoleonics",
    "Ragnarok",
    "ViveLEmpereur",
    "FieldsOfFire2",
    "Nevsky",
    "PathsOfGlory",
    "FlashpointSouthChinaSea",
    "HexNCountersTemplate",
)


@cache
def _module(name: str) -> vassal_adj.model.module.Module:
    found = sorted((CORPUS / name).glob("*.vmod"))
    if not found:
        pytest.skip(f"corpus module {name} not found")
    return vassal_adj.load_module(found[0])


def _zoned_grids() -> list[tuple[str, tuple[str, str]]]:
    """(module, (map, board)) of every corpus board with a ZonedGrid."""
    out = []
    for name in ZONED_MODULES:
        if not (CORPUS / name).is_dir():
            continue
        for m in _module(name).maps.values():
            for b in m.boards.values():
                if isinstance(b.grid, ZonedGridDef):
                    out.append((name, (m.name, b.name)))
    return out


ZONED = _zoned_grids()


def _grid(module: str, where: tuple[str, str]) -> ZonedGridDef:
    map_name, board_name = where
    grid = _module(module).maps[map_name].boards[board_name].grid
    assert isinstance(grid, ZonedGridDef)
    return grid


def _probe_points(zoned: ZonedGridDef, seed: int = 3) -> tuple[np.ndarray, np.ndarray]:
    """Random points over the zones (and around them), random integer points, every vertex,
    points a hair and a pixel off each vertex, and points along every edge."""
    rng = np.random.default_rng(seed)
    verts = np.array([p for z in zoned.zones for p in z.path] or [(0, 0)], dtype=np.float64)
    lo, hi = verts.min(axis=0) - 25, verts.max(axis=0) + 25
    parts = [rng.uniform(lo, hi, (20000, 2)), np.round(rng.uniform(lo, hi, (10000, 2))), verts]
    for d in (1e-9, 0.5, 1.0):
        for sx, sy in ((1, 0), (-1, 0), (0, 1), (0, -1), (1, 1), (-1, -1)):
            parts.append(verts + (sx * d, sy * d))
    for z in zoned.zones:
        path = np.array(z.path, dtype=np.float64).reshape(-1, 2)
        if len(path) < 2:
            continue
        a, b = path, np.roll(path, -1, axis=0)
        for t in (0.125, 0.25, 0.5, 0.75, 1 / 3):
            parts.append(a + t * (b - a))
    pts = np.concatenate(parts)
    return pts[:, 0], pts[:, 1]


def test_corpus_zoned_grids_present() -> None:
    if not CORPUS.is_dir():
        pytest.skip("no corpus")
    fof = [w for m, w in ZONED if m == "FieldsOfFire2"]
    assert len(fof) == 25
    assert sum(len(_grid("FieldsOfFire2", w).zones) for w in fof) == 293
    ccn = [w for m, w in ZONED if m == "CommandsAndColorsNapoleonics"]
    assert sum(len(_grid("CommandsAndColorsNapoleonics", w).zones) for w in ccn) == 22


@pytest.mark.parametrize("module,where", ZONED, ids=[f"{m}/{w[0]}/{w[1]}" for m, w in ZONED])
def test_zone_index_agrees_with_find_zone(module: str, where: tuple[str, str]) -> None:
    zoned = _grid(module, where)
    index = ZoneIndex(zoned)
    xs, ys = _probe_points(zoned)
    batch = index.zone_indices(xs, ys)
    bad = []
    for x, y, k in zip(xs.tolist(), ys.tolist(), batch.tolist(), strict=True):
        want = find_zone(zoned, x, y)
        got = index.zone_at(x, y)
        every = tuple(z for z in zoned.zones if polygon_contains(z.path, x, y))
        if got is not want or (k < 0 and want is not None) or (k >= 0 and zoned.zones[k] is not want):
            bad.append((x, y, want and want.name, got and got.name, k))
        elif index.zones_at(x, y) != every:
            bad.append((x, y, "zones_at", every))
    assert not bad, f"{len(bad)}/{len(xs)} disagree, first {bad[:5]}"


@pytest.mark.parametrize("module,where", ZONED, ids=[f"{m}/{w[0]}/{w[1]}" for m, w in ZONED])
def test_zone_index_structure(module: str, where: tuple[str, str]) -> None:
    zoned = _grid(module, where)
    index = zone_index(zoned)
    assert zone_index(zoned) is index  # built once per grid
    assert (index.tree is not None) == (sum(p is not None for p in index.polygons) > TREE_THRESHOLD)
    for zone, poly in zip(zoned.zones, index.polygons, strict=True):
        x0, y0, x1, y1 = java_polygon(zone.path).box
        assert (poly is None) == (not (x0 < x1 and y0 < y1))
        if poly is not None and poly.is_valid:
            assert poly.bounds == (x0, y0, x1, y1)
        grid, w, h = index.zone_grid(zone, 1000, 800)
        if zone.use_parent_grid:
            assert (grid, w, h) == (zoned.background, 1000, 800)
        else:
            assert (grid, (w, h)) == (zone.grid, zone_size(zone))


def test_large_grids_use_a_tree() -> None:
    grid = _grid("FieldsOfFire2", ("US Army Command Display - WWII / Korea",) * 2)
    assert len(grid.zones) == 52 and zone_index(grid).tree is not None
    ccn = _grid("CommandsAndColorsNapoleonics", ("Main Map", "Inland"))
    assert zone_index(ccn).tree is None  # 5 zones: a tree would not pay


# =======================================================================================
# Oracle and vectors


def _oracle() -> list[dict]:
    path = SPEC / "oracle-labels.json"
    if not path.is_file():
        return []
    return json.loads(path.read_text(encoding="utf-8"))["grids"]


ORACLE_ZONED = [g for g in _oracle() if "/zone:" in g["id"] or g["id"].endswith("/background")]


@pytest.mark.parametrize("g", ORACLE_ZONED, ids=[g["id"] for g in ORACLE_ZONED])
def test_oracle_zone_lookups(g: dict) -> None:
    zoned = _grid(g["module"], (g["map"], g["board"]))
    index = zone_index(zoned)
    block = g["pixel_to_name"]
    rows = [dict(zip(block["columns"], r, strict=True)) for r in block["rows"]]
    assert rows
    got = [(z.name if (z := index.zone_at(r["bx"], r["by"])) else None) for r in rows]
    assert got == [r["zone"] for r in rows]
    ks = index.zone_indices(np.array([r["bx"] for r in rows]), np.array([r["by"] for r in rows]))
    assert [zoned.zones[k].name if k >= 0 else None for k in ks.tolist()] == got


def _containment() -> list[dict]:
    path = SPEC / "vectors.json"
    return json.loads(path.read_text(encoding="utf-8"))["zones"]["containment"] if path.is_file() else []


def _path(text: str) -> tuple[tuple[int, int], ...]:
    return tuple(tuple(int(v) for v in p.split(",")) for p in text.split(";") if p)  # type: ignore[misc]


@pytest.mark.parametrize("case", _containment())
def test_containment_vectors(case: dict) -> None:
    path = _path(case["path"])
    x, y = case["board_point"]
    assert bool(contains_many(java_polygon(path), np.array([x]), np.array([y]))[0]) is case["contains"]
    zoned = ZonedGridDef(zones=(ZoneDef("Z", path),))
    assert (zone_index(zoned).zone_at(x, y) is not None) is case["contains"]


def test_odd_zones() -> None:
    """A self-crossing bow tie, a line, two points, an empty path and overlapping zones."""
    zones = (
        ZoneDef("bowtie", ((0, 0), (100, 100), (100, 0), (0, 100))),
        ZoneDef("line", ((0, 0), (50, 50), (100, 100))),
        ZoneDef("two", ((0, 0), (10, 10))),
        ZoneDef("empty", ()),
        ZoneDef("big", ((-10, -10), (200, -10), (200, 200), (-10, 200))),
        ZoneDef("inner", ((20, 20), (40, 20), (40, 40), (20, 40))),
    )
    zoned = ZonedGridDef(zones=zones)
    index = ZoneIndex(zoned)
    assert index.polygons[2] is None and index.polygons[3] is None  # can hold no point
    # shortlisted by their boxes, decided by the Java rule
    assert not index.polygons[0].is_valid and not index.polygons[1].is_valid
    xs, ys = _probe_points(zoned)
    batch = index.zone_indices(xs, ys)
    for x, y, k in zip(xs.tolist(), ys.tolist(), batch.tolist(), strict=True):
        want = find_zone(zoned, x, y)
        assert index.zone_at(x, y) is want
        assert (zones[k] if k >= 0 else None) is want
    assert index.zone_at(30, 30) is zones[4]  # first in document order, not the innermost
    assert index.zones_at(30, 30) == (zones[4], zones[5])
    assert ZoneIndex(ZonedGridDef()).zone_at(0, 0) is None


# =======================================================================================
# Boards


def _placed(n: int) -> tuple[PlacedBoard, ...]:
    out = []
    for k in range(n):
        board = BoardDef(f"B{k}", None, 300 + 10 * k, 200, reversible=True, grid=SquareGridDef())
        out.append(PlacedBoard(board, k % 4, k // 4, k % 3 == 0, 100 + 300 * (k % 4), 50 + 200 * (k // 4)))
    out.append(PlacedBoard(BoardDef("overlap", None, 500, 500), 0, 0, False, 0, 0))  # later: loses
    return tuple(out)


@pytest.mark.parametrize("n", [1, 3, TREE_THRESHOLD + 4])
def test_board_index(n: int) -> None:
    placed = _placed(n)
    index = BoardIndex(placed)
    assert (index.tree is not None) == (len(placed) > TREE_THRESHOLD)
    rng = np.random.default_rng(n)
    xs = np.concatenate([rng.uniform(-50, 1500, 4000), [pb.x for pb in placed], [pb.x + pb.width for pb in placed]])
    ys = np.concatenate(
        [rng.uniform(-50, 900, 4000), [pb.y for pb in placed], [pb.y + pb.height - 1e-9 for pb in placed]]
    )
    ks = index.board_indices(xs, ys)
    for x, y, k in zip(xs.tolist(), ys.tolist(), ks.tolist(), strict=True):
        want = find_board(placed, x, y)
        assert index.board_at(x, y) is want
        assert (placed[k] if k >= 0 else None) is want
    assert math.isclose(index.rectangles[0].area, placed[0].width * placed[0].height)


@pytest.mark.parametrize("module,where", ZONED, ids=[f"{m}/{w[0]}/{w[1]}" for m, w in ZONED])
def test_prepared_java_polygon_matches_the_edge_walk(module: str, where: tuple[str, str]) -> None:
    """zones.JavaPolygon (edges sorted into slabs) against java.awt.Polygon transcribed as is."""
    from vassal_adj.model.geometry.zones import _polygon_contains_walk

    zoned = _grid(module, where)
    xs, ys = _probe_points(zoned, seed=11)
    for zone in zoned.zones:
        jp = java_polygon(zone.path)
        x0, y0, x1, y1 = jp.box
        near = np.flatnonzero((xs > x0 - 2) & (xs < x1 + 2) & (ys > y0 - 2) & (ys < y1 + 2))
        pick = np.concatenate([near[:: max(1, len(near) // 3000)], np.arange(0, len(xs), 500)])
        px, py = xs[pick], ys[pick]
        many = contains_many(jp, px, py).tolist()
        for x, y, m in zip(px.tolist(), py.tolist(), many, strict=True):
            want = _polygon_contains_walk(zone.path, x, y)
            assert jp.contains(x, y) is want and m is want, (zone.name, x, y)
