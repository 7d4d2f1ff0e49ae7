"""Names of many points at once, with numpy: the same answers as `grid.board_location_name`.

Hex and square grids run VASSAL's rounding formulas on whole arrays, in float64 and in the
order `model.numbering` writes them (numpy does plain IEEE double operations, as Java does),
so floors, Java's round-half-up and truncation toward zero give the same integers. Names are
then made once per distinct (column, row) by `numbering_location_name` itself. Zoned grids
look their zones up with `regions.ZoneIndex` and name each zone's points with its grid;
region grids pick the nearest origin, first on a tie, as `snapping.nearest_region` does.

Internally a batch of names is (codes, table): the name of point i is table[codes[i]]; zone
formats then apply to the few table entries instead of to every point.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

import numpy as np

from vassal_adj.model.geometry.grid import PlacedBoard, board_hex_center, hex_location_name, region_name
from vassal_adj.model.geometry.numbering import hex_plan, numbering_location_name
from vassal_adj.model.geometry.regions import BoardIndex, zone_index
from vassal_adj.model.geometry.snapping import Point
from vassal_adj.model.geometry.zones import zone_location_name
from vassal_adj.model.module import (
    BoardDef,
    GridDef,
    HexGridDef,
    HexNumbering,
    RegionGridDef,
    SquareGridDef,
    ZonedGridDef,
)

__all__ = ["location_names", "grid_location_names", "hex_centers", "map_location_names"]

Names = tuple[np.ndarray, list]  # (codes, table of str | None)

# Beyond this the int64 conversions of the formulas could overflow (Python ints cannot):
# such points are named one by one.
_HUGE = 2.0**50


def location_names(board: BoardDef, xs: Iterable[float], ys: Iterable[float]) -> list[str | None]:
    """The names `grid.board_location_name` gives the board-local points (xs[i], ys[i]).

    >>> from vassal_adj.model.module import BoardDef, HexGridDef, HexNumbering
    >>> b = BoardDef("B", None, 1000, 800, grid=HexGridDef(55.42562584220407, 64, numbering=HexNumbering()))
    >>> location_names(b, [150, 56, 28], [150, 5, 32])
    ['0403', '0201', '0202']
    """
    return grid_location_names(board.grid, board.width, board.height, xs, ys)


def grid_location_names(
    grid: GridDef | None, width: int, height: int, xs: Iterable[float], ys: Iterable[float]
) -> list[str | None]:
    """`grid.hex_location_name` for arrays of points (any grid kind; width/height as there)."""
    x, y = _arrays(xs, ys)
    codes, table = _names(grid, width, height, x, y)
    return np.asarray(table, dtype=object)[codes].tolist()  # type: ignore[no-any-return]


def hex_centers(board: BoardDef, labels: Iterable[str]) -> list[Point | None]:
    """`grid.board_hex_center` for many labels (each distinct label is resolved once)."""
    seen: dict[str, Point | None] = {}
    out = []
    for label in labels:
        if label not in seen:
            seen[label] = board_hex_center(board, label)
        out.append(seen[label])
    return out


def map_location_names(placed: Sequence[PlacedBoard], xs: Iterable[float], ys: Iterable[float]) -> list[str | None]:
    """`grid.map_location_name` for arrays of map points (None off every board)."""
    x, y = _arrays(xs, ys)
    index = BoardIndex(placed)
    which = index.board_indices(x, y)
    out: list[str | None] = [None] * len(x)
    for k, pb in enumerate(index.placed):
        sel = np.flatnonzero(which == k)
        if not len(sel):
            continue
        lx, ly = x[sel] - pb.x, y[sel] - pb.y  # PlacedBoard.to_local, in its order
        if pb.reversed:
            lx, ly = pb.board.width - lx, pb.board.height - ly
        for i, name in zip(sel.tolist(), location_names(pb.board, lx, ly), strict=True):
            out[i] = name
    return out


# =======================================================================================


def _arrays(xs: Iterable[float], ys: Iterable[float]) -> tuple[np.ndarray, np.ndarray]:
    x = np.asarray(list(xs) if not hasattr(xs, "__len__") else xs, dtype=np.float64).ravel()
    y = np.asarray(list(ys) if not hasattr(ys, "__len__") else ys, dtype=np.float64).ravel()
    if x.shape != y.shape:
        raise ValueError(f"xs and ys differ in length: {len(x)} != {len(y)}")
    if not (np.isfinite(x).all() and np.isfinite(y).all()):
        raise ValueError("points must be finite numbers (VASSAL has no name for nan or inf)")
    return x, y


def _none(n: int) -> Names:
    return np.zeros(n, dtype=np.int64), [None]


def _names(grid: GridDef | None, width: int, height: int, x: np.ndarray, y: np.ndarray) -> Names:
    if isinstance(grid, (HexGridDef, SquareGridDef)):
        if grid.numbering is None:
            return _none(len(x))
        huge = (np.abs(x) > _HUGE) | (np.abs(y) > _HUGE)
        if huge.any():
            return _one_by_one(grid, width, height, x, y)
        if isinstance(grid, HexGridDef):
            col, row = _hex_column_row(grid, width, height, x, y)
        else:
            col, row = _square_column_row(grid, width, height, x, y)
        return _label_table(grid.numbering, col, row)
    if isinstance(grid, RegionGridDef):
        return _region_names(grid, x, y)
    if isinstance(grid, ZonedGridDef):
        return _zoned_names(grid, width, height, x, y)
    return _none(len(x))


def _one_by_one(grid: GridDef, width: int, height: int, x: np.ndarray, y: np.ndarray) -> Names:
    names = [hex_location_name(grid, width, height, a, b) for a, b in zip(x.tolist(), y.tolist(), strict=True)]
    table = list(dict.fromkeys(names))
    where = {name: k for k, name in enumerate(table)}
    return np.fromiter((where[n] for n in names), dtype=np.int64, count=len(names)), table


def _java_round(v: np.ndarray) -> np.ndarray:
    f = np.floor(v)
    return f + (v - f >= 0.5)  # numbering.java_round: ties toward positive infinity


def _hex_column_row(
    grid: HexGridDef, width: int, height: int, x: np.ndarray, y: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """numbering.column_row of a hex grid, on arrays (same plan, same expressions)."""
    sideways, x0, dx, y0, dy, half_dy, flip_col, flip_row, shift, slant = hex_plan(grid, width, height)
    u, v = (y, x) if sideways else (x, y)
    a = (u - x0) / dx
    raw_col = np.floor(a + 0.5).astype(np.int64)
    odd = _java_round(a) % 2 != 0
    raw_row = np.where(odd, _java_round(((v - y0) - half_dy) / dy), _java_round((v - y0) / dy))
    row = raw_row.astype(np.int64)
    column = raw_col if flip_col is None else flip_col - raw_col
    if flip_row is not None:
        row = flip_row - row
    if shift:
        row = row + shift * (raw_col % 2 != 0)
    if slant:
        half = np.trunc(column / 2).astype(np.int64)  # Java division truncates toward zero
        row = half + row if slant > 0 else row - half + 1
    return column, row


def _square_column_row(
    grid: SquareGridDef, width: int, height: int, x: np.ndarray, y: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """numbering.square_column_row on arrays: column by floor, row truncated toward zero."""
    num = grid.numbering or HexNumbering(stagger=False)
    column = np.floor((x - grid.x0) / grid.dx + 0.5).astype(np.int64)
    row = np.trunc((y - grid.y0) / grid.dy + 0.5).astype(np.int64)
    if num.h_descend:
        column = int(width / grid.dx + 0.5) - column
    if num.v_descend:
        row = int(height / grid.dy + 0.5) - row
    return column, row


def _label_table(num: HexNumbering, col: np.ndarray, row: np.ndarray) -> Names:
    """Name each distinct (column, row) once, with the per-point function itself."""
    if not len(col):
        return _none(0)
    cmin, rmin = int(col.min()), int(row.min())
    rspan = int(row.max()) - rmin + 1
    span = (int(col.max()) - cmin + 1) * rspan
    if span <= max(len(col), 1 << 16):  # a dense table over the range: no sorting
        key = (col - cmin) * rspan + (row - rmin)
        present = np.zeros(span, dtype=bool)
        present[key] = True
        keys = np.flatnonzero(present)
        slot = np.zeros(span, dtype=np.int64)
        slot[keys] = np.arange(len(keys))
        codes = slot[key]
    else:  # scattered points: sort out the distinct pairs instead
        pairs, codes = np.unique(np.stack([col - cmin, row - rmin], axis=1), axis=0, return_inverse=True)
        keys = pairs[:, 0] * rspan + pairs[:, 1]
    table = [numbering_location_name(num, cmin + k // rspan, rmin + k % rspan) for k in keys.tolist()]
    return codes.ravel(), table


def _region_names(grid: RegionGridDef, x: np.ndarray, y: np.ndarray) -> Names:
    """snapping.nearest_region on arrays: smallest squared distance, the first on a tie.

    Python's `d ** 2` goes through libm pow, which misrounds about one square in a thousand
    (by under one unit in the last place) where numpy's d * d does not; so wherever the two
    nearest regions are that close, the point is named one by one.
    """
    if not grid.regions:
        return _none(len(x))
    best = np.zeros(len(x), dtype=np.int64)
    best_d = np.full(len(x), np.inf)
    second_d = np.full(len(x), np.inf)
    for k, region in enumerate(grid.regions):
        ddx, ddy = region.x - x, region.y - y
        d = ddx * ddx + ddy * ddy
        closer = d < best_d
        second_d = np.where(closer, best_d, np.minimum(second_d, d))
        best[closer], best_d[closer] = k, d[closer]
    names = [r.name for r in grid.regions]
    close = np.flatnonzero(second_d - best_d <= 1e-12 * np.maximum(best_d, 1.0))
    for i in close.tolist():
        best[i] = names.index(region_name(grid, float(x[i]), float(y[i])))  # type: ignore[arg-type]
    return best, names  # type: ignore[return-value]


def _zoned_names(grid: ZonedGridDef, width: int, height: int, x: np.ndarray, y: np.ndarray) -> Names:
    """grid._zoned_location_name on arrays: zone by zone, each zone's names through its format."""
    index = zone_index(grid)
    which = index.zone_indices(x, y)
    codes = np.zeros(len(x), dtype=np.int64)
    table: list[str | None] = [None]
    order = np.argsort(which, kind="stable")
    bounds = np.searchsorted(which[order], np.arange(-1, len(index.zones) + 1))
    for k in range(-1, len(index.zones)):
        sel = order[bounds[k + 1] : bounds[k + 2]]
        if not len(sel):
            continue
        if k < 0:
            sub_codes, sub_table = _names(grid.background, width, height, x[sel], y[sel])
        else:
            zone = index.zones[k]
            zgrid, w, h = index.zone_grid(zone, width, height)
            sub_codes, inner = _names(zgrid, w, h, x[sel], y[sel]) if zgrid is not None else _none(len(sel))
            sub_table = [zone_location_name(zone, name) for name in inner]
        codes[sel] = sub_codes + len(table)
        table.extend(sub_table)
    return codes, table
