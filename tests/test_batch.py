"""model.batch: the names of many points at once equal grid.board_location_name point by point."""

from __future__ import annotations

import json
from dataclasses import replace
from functools import cache

import numpy as np
import pytest
from conftest import CORPUS, MODULES, SPEC

import vassal_adj
from vassal_adj.model.geometry.batch import grid_location_names, hex_centers, location_names, map_location_names
from vassal_adj.model.geometry.grid import board_hex_center, board_location_name, map_location_name, place_boards
from vassal_adj.model.module import (
    BoardDef,
    GridDef,
    HexGridDef,
    HexNumbering,
    MapDef,
    Region,
    RegionGridDef,
    SquareGridDef,
    ZoneDef,
    ZonedGridDef,
)

POINTS = 200_000


@cache
def _module(path: str) -> vassal_adj.model.module.Module:
    return vassal_adj.load_module(path)


def _corpus_boards() -> list[tuple[str, str, str]]:
    """(module path, map, board) of every corpus board with a grid, one per distinct board."""
    out, seen = [], set()
    for path in MODULES:
        for m in _module(str(path)).maps.values():
            for b in m.boards.values():
                key = (b.grid, b.width, b.height)
                if b.grid is not None and key not in seen:
                    seen.add(key)
                    out.append((str(path), m.name, b.name))
    return out


BOARDS = _corpus_boards()


def _grids(grid: GridDef | None) -> list[HexGridDef | SquareGridDef]:
    """The hex and square grids a board names with (its own, its zones', the background)."""
    if isinstance(grid, (HexGridDef, SquareGridDef)):
        return [grid]
    if isinstance(grid, ZonedGridDef):
        return [g for z in grid.zones for g in _grids(z.grid)] + _grids(grid.background)
    return []


def _extent(board: BoardDef) -> tuple[float, float, float, float]:
    xs, ys = [0, board.width], [0, board.height]
    if isinstance(board.grid, ZonedGridDef):
        for z in board.grid.zones:
            xs += [p[0] for p in z.path]
            ys += [p[1] for p in z.path]
    return min(xs) - 30, min(ys) - 30, max(xs) + 30, max(ys) + 30


def _rounding_lines(grid: HexGridDef | SquareGridDef, lo: float, hi: float, vertical: bool) -> np.ndarray:
    """Coordinates where a floor or round of the naming formulas flips, and one ulp either side:
    x0 + (k + 0.5)*dx across columns, y0 + (j + 0.5)*dy (and + dy/2 in odd hex columns)."""
    sideways = isinstance(grid, HexGridDef) and grid.sideways
    along_dx = vertical != sideways  # screen x is the grid's u unless sideways
    step, origin = (grid.dx, grid.x0) if along_dx else (grid.dy, grid.y0)
    k = np.arange(np.floor((lo - origin) / step) - 1, np.ceil((hi - origin) / step) + 2)
    lines = [origin + (k + 0.5) * step]
    if isinstance(grid, HexGridDef) and not along_dx:
        lines.append(origin + step / 2 + (k + 0.5) * step)
    v = np.concatenate(lines)
    return np.concatenate([v, np.nextafter(v, np.inf), np.nextafter(v, -np.inf)])


def _points(board: BoardDef, n: int, seed: int) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    x0, y0, x1, y1 = _extent(board)
    xs = [rng.uniform(x0, x1, n // 2), np.round(rng.uniform(x0, x1, n // 5))]
    ys = [rng.uniform(y0, y1, n // 2), np.round(rng.uniform(y0, y1, n // 5))]
    if isinstance(board.grid, ZonedGridDef):
        verts = np.array([p for z in board.grid.zones for p in z.path] or [(0, 0)], dtype=np.float64)
        xs.append(verts[:, 0])
        ys.append(verts[:, 1])
    grids = _grids(board.grid)
    rest = n - sum(map(len, xs))
    for grid in grids:
        m = rest // len(grids) // 3
        vx, vy = _rounding_lines(grid, x0, x1, True), _rounding_lines(grid, y0, y1, False)
        xs += [rng.choice(vx, m), rng.uniform(x0, x1, m), rng.choice(vx, m)]
        ys += [rng.uniform(y0, y1, m), rng.choice(vy, m), rng.choice(vy, m)]
    fill = n - sum(map(len, xs))
    xs.append(rng.uniform(x0, x1, fill))
    ys.append(rng.uniform(y0, y1, fill))
    return np.concatenate(xs), np.concatenate(ys)


def _disagreements(board: BoardDef, xs: np.ndarray, ys: np.ndarray) -> list[tuple]:
    got = location_names(board, xs, ys)
    px, py = xs.tolist(), ys.tolist()
    want = [board_location_name(board, x, y) for x, y in zip(px, py, strict=True)]
    return [(px[i], py[i], want[i], got[i]) for i in range(len(px)) if got[i] != want[i]]


@pytest.mark.parametrize("path,map_name,board_name", BOARDS, ids=[f"{p.split('/')[-2]}/{m}/{b}" for p, m, b in BOARDS])
def test_batch_equals_single_calls(path: str, map_name: str, board_name: str) -> None:
    board = _module(path).maps[map_name].boards[board_name]
    xs, ys = _points(board, POINTS, seed=len(board_name) * 7919 + len(map_name))
    assert len(xs) == POINTS
    bad = _disagreements(board, xs, ys)
    assert not bad, f"{len(bad)}/{POINTS} differ (x, y, single, batch): {bad[:5]}"


def test_corpus_boards_present() -> None:
    if not MODULES:
        pytest.skip("no corpus")
    kinds = {_module(p).maps[m].boards[b].grid.kind for p, m, b in BOARDS}  # type: ignore[union-attr]
    assert kinds == {"hex", "square", "region", "zoned"}


# =======================================================================================
# Hand-made grids: every numbering variant, and the edges of the API


H1 = HexGridDef(dx=55.42562584220407, dy=64.0)


@pytest.mark.parametrize("sideways", [False, True])
@pytest.mark.parametrize("hd,vd", [(False, False), (True, False), (False, True), (True, True)])
@pytest.mark.parametrize("stagger,oblique", [(True, False), (False, False), (True, True), (False, True)])
def test_hex_numbering_variants(sideways: bool, hd: bool, vd: bool, stagger: bool, oblique: bool) -> None:
    num = HexNumbering(
        h_type="A",
        h_off=0,
        h_descend=hd,
        v_descend=vd,
        stagger=stagger,
        oblique=oblique,
        sep="-",
        location_format="[$column$/$row$] $gridLocation$",
    )
    board = BoardDef("B", None, 1013, 771, grid=replace(H1, x0=-17, y0=75, sideways=sideways, numbering=num))
    xs, ys = _points(board, 20_000, seed=5)
    assert not _disagreements(board, xs, ys)


@pytest.mark.parametrize("hd,vd", [(False, False), (True, True)])
def test_square_numbering_variants(hd: bool, vd: bool) -> None:
    num = HexNumbering(h_descend=hd, v_descend=vd, stagger=False, first="V", v_type="A", v_off=0)
    board = BoardDef("B", None, 500, 410, grid=SquareGridDef(dx=37.5, dy=41.25, x0=10, y0=-5, numbering=num))
    xs, ys = _points(board, 20_000, seed=6)
    assert not _disagreements(board, xs, ys)


def test_region_ties_and_formats() -> None:
    """Equidistant region origins (the first wins) and zone formats around grids of each kind."""
    regions = RegionGridDef(regions=(Region("a", 0, 0), Region("b", 10, 0), Region("c", 5, 5), Region("a2", 0, 0)))
    zones = (
        ZoneDef("R", ((0, 0), (100, 0), (100, 100), (0, 100)), "$name$:$gridLocation$", grid=regions),
        ZoneDef("Hex", ((100, 0), (400, 0), (300, 300), (100, 300)), "$name$ $gridLocation$ $Foo$", grid=H1),
        ZoneDef("Parent", ((0, 100), (100, 100), (100, 400), (0, 400)), use_parent_grid=True),
        ZoneDef("Bare", ((400, 0), (500, 0), (500, 100)), '{"Bare " + name}'),
    )
    board = BoardDef("B", None, 600, 500, grid=ZonedGridDef(zones, background=SquareGridDef()))
    xs, ys = _points(board, 30_000, seed=7)
    ix, iy = np.meshgrid(np.arange(-5, 16, 0.5), np.arange(-5, 16, 0.5))
    assert not _disagreements(board, np.concatenate([xs, ix.ravel()]), np.concatenate([ys, iy.ravel()]))


def test_api_edges() -> None:
    board = BoardDef("B", None, 1000, 800, grid=replace(H1, numbering=HexNumbering()))
    assert location_names(board, [], []) == []
    assert location_names(board, (p for p in [150.0]), iter([150])) == ["0403"]
    assert location_names(board, [3e17, 150], [5, 150]) == [board_location_name(board, 3e17, 5), "0403"]
    assert location_names(BoardDef("N", None, 10, 10), [1, 2], [3, 4]) == [None, None]
    assert grid_location_names(H1, 1000, 800, [150], [150]) == [None]  # no numbering, no name
    with pytest.raises(ValueError):
        location_names(board, [1, 2], [3])
    with pytest.raises(ValueError):
        location_names(board, [float("nan")], [3])


def test_hex_centers_and_map_names() -> None:
    a = BoardDef("A", None, 1000, 800, reversible=True, grid=replace(H1, numbering=HexNumbering()))
    b = BoardDef("B", None, 1200, 800, reversible=True, grid=replace(H1, numbering=HexNumbering(sep=".")))
    labels = ["0403", "0101", "nonsense", "0403", "9999"]
    assert hex_centers(a, labels) == [board_hex_center(a, s) for s in labels]
    mdef = MapDef("M", "Map0", "Map", 100, 50, boards={"A": a, "B": b})
    placed = place_boards(mdef, [("A", False, 0, 0), ("B", True, 1, 0)])
    rng = np.random.default_rng(9)
    xs, ys = rng.uniform(-10, 2450, 20_000), rng.uniform(-10, 920, 20_000)
    xs[:200] = np.round(xs[:200])
    want = [map_location_name(placed, x, y) for x, y in zip(xs.tolist(), ys.tolist(), strict=True)]
    assert map_location_names(placed, xs, ys) == want


# =======================================================================================
# The real engine's labels (oracle-labels.json) through the batch API


def _oracle() -> list[dict]:
    path = SPEC / "oracle-labels.json"
    return json.loads(path.read_text(encoding="utf-8"))["grids"] if path.is_file() else []


ORACLE = _oracle()


@pytest.mark.parametrize("g", ORACLE, ids=[g["id"] for g in ORACLE])
def test_oracle_board_names(g: dict) -> None:
    found = sorted((CORPUS / g["module"]).glob("*.vmod"))
    if not found:
        pytest.skip("module not in the corpus")
    board = _module(str(found[0])).maps[g["map"]].boards[g["board"]]
    size = next(b["bounds_in_map"][2:] for b in g["map_layout"]["boards"] if b["board"] == g["board"])
    board = replace(board, width=size[0], height=size[1])  # the image sizes the engine saw
    block = g["pixel_to_name"]
    rows = [dict(zip(block["columns"], r, strict=True)) for r in block["rows"]]
    got = location_names(board, [r["bx"] for r in rows], [r["by"] for r in rows])
    assert got == [r["board_name"] for r in rows]
