"""VASSAL's snapping of a board point to its grid (VASSAL-FORMATS.md section 8.2).

Hex grids follow VASSAL >= 3.7.0 (the float32 hexagon around the point) unless `legacy`
asks for the older rectangular-cell rule, which the 3.6 engine used.
"""

from __future__ import annotations

import math
import struct

from vassal_adj.model.geometry.numbering import java_round
from vassal_adj.model.geometry.zones import find_zone
from vassal_adj.model.module import GridDef, HexGridDef, Region, RegionGridDef, SquareGridDef, ZonedGridDef

Point = tuple[int, int]


def nearest_region(grid: RegionGridDef, x: float, y: float) -> Region | None:
    best, best_d = None, -1.0
    for region in grid.regions:
        d = (region.x - x) ** 2 + (region.y - y) ** 2
        if best is None or d < best_d:
            best, best_d = region, d
    return best


def _f32(v: float) -> float:
    return struct.unpack("f", struct.pack("f", v))[0]


def _test_hexagon(dx: float, dy: float, cx: int, cy: int) -> list[Point]:
    """The 3.7 test hexagon around a centre (grid frame), in float32 as VASSAL does."""
    fdx, fdy = _f32(dx), _f32(dy)
    r = _f32(_f32(2.0 * fdx) / 3.0)
    hr = _f32(0.5 * r)
    h = _f32(0.5 * fdy)
    fx, fy = _f32(cx), _f32(cy)

    def rnd(v: float) -> int:
        return math.floor(v + 0.5)  # exact for float32 values (Java Math.round(float))

    return [
        (rnd(_f32(fx - r)), rnd(fy)),
        (rnd(_f32(fx - hr)), rnd(_f32(fy - h))),
        (rnd(_f32(fx + hr)) + 1, rnd(_f32(fy - h))),
        (rnd(_f32(fx + r)) + 1, rnd(fy)),
        (rnd(_f32(fx + hr)) + 1, rnd(_f32(fy + h)) + 1),
        (rnd(_f32(fx - hr)), rnd(_f32(fy + h)) + 1),
    ]


def _area_contains(poly: list[Point], px: float, py: float) -> bool:
    """Java Area.contains for a simple polygon (half-open box, crossing rule)."""
    xs = [p[0] for p in poly]
    ys = [p[1] for p in poly]
    if not (min(xs) <= px < max(xs) and min(ys) <= py < max(ys)):
        return False
    count = 0
    n = len(poly)
    for k in range(n):
        a, b = poly[k], poly[(k + 1) % n]
        if a[1] == b[1]:
            continue
        if a[1] > b[1]:
            a, b = b, a
        ax, ay = a
        bx, by = b
        if ay <= py < by and px < max(ax, bx) and (px < min(ax, bx) or px < ax + (py - ay) * (bx - ax) / (by - ay)):
            count += 1
    return count % 2 == 1


def _raw_centre(grid: HexGridDef, i: int, j: int) -> Point:
    """Raw centre in the grid frame (no swap)."""
    cx = int(grid.dx * i + grid.x0)
    if i % 2 == 0:
        cy = int(grid.dy * j + grid.y0)
    else:
        cy = int(grid.dy * j + int(grid.dy / 2) + grid.y0)
    return cx, cy


def _hex_centre_frame(grid: HexGridDef, x: float, y: float, legacy: bool) -> Point:
    dx, dy, x0, y0 = grid.dx, grid.dy, grid.x0, grid.y0
    i = math.floor(((x - x0) + dx / 2) / dx)
    if i % 2 == 0:
        j = math.floor(((y - y0) + dy / 2) / dy)
    else:
        j = math.floor((y - y0) / dy)
    centre = _raw_centre(grid, i, j)
    if not legacy and not _area_contains(_test_hexagon(dx, dy, *centre), x, y):
        if i % 2 == 0:
            neighbours = ((i - 1, j - 1), (i - 1, j), (i + 1, j - 1), (i + 1, j))
        else:
            neighbours = ((i - 1, j), (i - 1, j + 1), (i + 1, j), (i + 1, j + 1))
        for ni, nj in neighbours:
            c = _raw_centre(grid, ni, nj)
            if _area_contains(_test_hexagon(dx, dy, *c), x, y):
                centre = c
                break
    s = grid.snapscale
    if s > 0:
        cx, cy = centre

        def shift(delta: float, step: float) -> int:
            k = max(1 - s, min(s - 1, java_round(delta / (step / (2 * s)))))
            return java_round(k * step / (2 * s))

        centre = (cx + shift(x - cx, dx), cy + shift(y - cy, dy))
    return centre


def _hex_side_frame(grid: HexGridDef, x: float, y: float) -> Point:
    dx, dy, x0, y0 = grid.dx, grid.dy, grid.x0, grid.y0
    k = math.floor(((x - x0) + dx / 4) * 2 / dx)
    sx = int(dx / 2 * k + x0)
    if k % 2 == 0:
        sy = int(dy / 2 * math.floor(((y - y0) + dy / 4) * 2 / dy) + y0)
    else:
        sy = int(dy / 2 * math.floor((y - y0) * 2 / dy) + int(dy / 4) + y0)
    return sx, sy


def _hex_vertex_frame(grid: HexGridDef, x: float, y: float) -> Point:
    dx, dy, x0, y0 = grid.dx, grid.dy, grid.x0, grid.y0
    m = math.floor(((y - y0) + dy / 4) * 2 / dy)
    vy = int(dy / 2 * m + y0)
    if m % 2 == 0:
        vx = int(2 * dx / 3 * int(math.floor((x - x0) + dx / 3) * 3 / (2 * dx)) + x0)
    else:
        vx = int(2 * dx / 3 * int(math.floor(((x - x0) + dx / 3) + dx / 3) * 3 / (2 * dx)) - int(dx / 3) + x0)
    return vx, vy


def _hex_snap(grid: HexGridDef, x: float, y: float, legacy: bool) -> Point:
    u, v = (y, x) if grid.sideways else (x, y)
    centre = _hex_centre_frame(grid, u, v, legacy)
    chosen = centre
    if grid.edges_legal or grid.corners_legal:
        cands = []
        if grid.edges_legal:
            cands.append(_hex_side_frame(grid, u, v))
        if grid.corners_legal:
            cands.append(_hex_vertex_frame(grid, u, v))
        if grid.snapscale > 0:
            cdist = abs(centre[0] - u) + abs(centre[1] - v)
            cands = [centre if cdist <= abs(p[0] - u) + abs(p[1] - v) else p for p in cands]
        if len(cands) == 2:
            side, vertex = cands

            def d2(p: Point) -> float:
                return (p[0] - u) ** 2 + (p[1] - v) ** 2

            chosen = side if d2(side) < d2(vertex) else vertex
        else:
            chosen = cands[0]
        if (chosen[0] - centre[0]) ** 2 + (chosen[1] - centre[1]) ** 2 <= 2:
            chosen = centre
    return (chosen[1], chosen[0]) if grid.sideways else chosen


def _square_snap(grid: SquareGridDef, x: float, y: float) -> Point:
    nx = java_round((x - grid.x0) / grid.dx)
    ny = java_round((y - grid.y0) / grid.dy)
    if not (grid.edges_legal or grid.corners_legal):
        return int(nx * grid.dx) + grid.x0, int(ny * grid.dy) + grid.y0
    # Half-step lattice: (even, even) centres, one odd = edges, both odd = corners.
    hx = java_round((x - grid.x0) / (grid.dx / 2))
    hy = java_round((y - grid.y0) / (grid.dy / 2))
    best: tuple[float, int, int] | None = None
    for ax in (hx - 1, hx, hx + 1):
        for ay in (hy - 1, hy, hy + 1):
            odd = (ax % 2) + (ay % 2)
            if odd == 1 and not grid.edges_legal or odd == 2 and not grid.corners_legal:
                continue
            px = int(ax * grid.dx / 2) + grid.x0
            py = int(ay * grid.dy / 2) + grid.y0
            d = (px - x) ** 2 + (py - y) ** 2
            if best is None or d < best[0]:
                best = (d, px, py)
    assert best is not None
    return best[1], best[2]


def snap(grid: GridDef | None, x: float, y: float, *, legacy: bool = False) -> Point:
    """Where VASSAL snaps a board-local point (unchanged if the grid does not snap).

    Hex grids follow VASSAL >= 3.7.0 (the hexagon containing the point); `legacy=True`
    gives the pre-3.7 rule (the rectangular cell of the numbering).
    """
    px, py = int(x), int(y)
    if grid is None:
        return px, py
    if isinstance(grid, HexGridDef):
        return _hex_snap(grid, x, y, legacy) if grid.snap_to else (px, py)
    if isinstance(grid, SquareGridDef):
        return _square_snap(grid, x, y) if grid.snap_to else (px, py)
    if isinstance(grid, RegionGridDef):
        region = nearest_region(grid, x, y) if grid.snap_to else None
        return (px, py) if region is None else (region.x, region.y)
    if isinstance(grid, ZonedGridDef):
        zone = find_zone(grid, x, y)
        if zone is not None:
            inner = grid.background if zone.use_parent_grid else zone.grid
            return snap(inner, x, y, legacy=legacy)
        return snap(grid.background, x, y, legacy=legacy)
    return px, py
