"""Boards and zones as shapely polygons, indexed for point lookups (DESIGN.md `model/geometry/regions.py`).

shapely only shortlists: once per ZonedGrid it cuts the zones' extent into cells, finds which
zones each cell can meet (an STRtree when there are many zones) and which zones cover a whole
cell (prepared polygons). A lookup then costs a cell index and, near a zone border, the exact
java.awt.Polygon rule of `model.zones`, which stays the judge so that points on a border go
to the zone VASSAL picks. No shapely call happens per point (STYLE.md section 6 item 13).
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np
import shapely
from shapely import Polygon, STRtree

from vassal_adj.model.geometry.grid import PlacedBoard
from vassal_adj.model.geometry.zones import JavaPolygon, java_polygon, zone_size
from vassal_adj.model.module import GridDef, ZoneDef, ZonedGridDef

__all__ = ["TREE_THRESHOLD", "ZoneIndex", "zone_index", "BoardIndex", "contains_many"]

TREE_THRESHOLD = 8  # above this many zones (or boards) the shortlist comes from an STRtree
_CELLS = 64  # cells per side of a zone table at most
# Cells are widened by half a pixel before shortlisting and before proving cover, so that the
# rounding of a point's cell index and of Java's double arithmetic can never matter.
_MARGIN = 0.5


def contains_many(jp: JavaPolygon, xs: np.ndarray, ys: np.ndarray) -> np.ndarray:
    """java.awt.Polygon.contains for arrays of points: the same comparisons, edge by edge,
    in float64 (numpy does IEEE double arithmetic in the written order, as Java does)."""
    x0, y0, x1, y1 = jp.box
    inside = (xs >= x0) & (ys >= y0) & (xs < x1) & (ys < y1)
    if not inside.any():
        return inside
    hits = np.zeros(len(xs), dtype=np.int32)
    for ylo, yhi, xmax, leftx, low_x, low_y, dy, dx in jp.edges:
        spans = (ys >= ylo) & (ys < yhi) & (xs < xmax)
        hits += spans & ((xs < leftx) | ((xs - low_x) < (ys - low_y) / dy * dx))
    return inside & (hits % 2 == 1)


class ZoneIndex:
    """The zones of one ZonedGrid, indexed; answers exactly like `zones.find_zone`.

    `polygons[k]` is zone k's shapely polygon (prepared when valid), None when the zone can
    hold no point (fewer than 3 vertices or an empty bounding box). `tree` is the STRtree
    used to shortlist when there are more than TREE_THRESHOLD zones, else None.
    """

    def __init__(self, zoned: ZonedGridDef) -> None:
        self.zoned = zoned
        self.zones: tuple[ZoneDef, ...] = zoned.zones
        self.java = tuple(java_polygon(z.path) for z in self.zones)
        live = [k for k, jp in enumerate(self.java) if jp.box[0] < jp.box[2] and jp.box[1] < jp.box[3]]
        polys: list[Polygon | None] = [None] * len(self.zones)
        valid = [False] * len(self.zones)
        for k in live:
            polys[k] = poly = Polygon(self.zones[k].path)
            valid[k] = bool(poly.is_valid)  # a simple ring: even-odd is then shapely's interior
            if valid[k]:
                shapely.prepare(poly)
        self.polygons = tuple(polys)
        # A self-crossing ring is shortlisted by its bounding box (its even-odd area lies inside).
        shortlist = [polys[k] if valid[k] else shapely.box(*self.java[k].box) for k in live]
        self.tree = STRtree(shortlist) if len(live) > TREE_THRESHOLD else None
        self._build_cells(live, valid, shortlist)

    def _build_cells(self, live: list[int], valid: list[bool], shortlist: list[object]) -> None:
        if not live:
            self.extent = (0, 0, 0, 0)
            self._cw = self._ch = 1
            self._nx = self._ny = 0
            self._cells: list[tuple[tuple[int, JavaPolygon, bool], ...]] = []
            self.listed = self.covered = np.zeros((0, 0), dtype=bool)
            return
        boxes = [self.java[k].box for k in live]
        x0, y0 = min(b[0] for b in boxes), min(b[1] for b in boxes)
        x1, y1 = max(b[2] for b in boxes), max(b[3] for b in boxes)
        self.extent = (x0, y0, x1, y1)  # half-open: no zone holds a point outside it
        self._cw, self._ch = math.ceil((x1 - x0) / _CELLS), math.ceil((y1 - y0) / _CELLS)
        self._nx, self._ny = math.ceil((x1 - x0) / self._cw), math.ceil((y1 - y0) / self._ch)
        i, j = np.divmod(np.arange(self._nx * self._ny), self._ny)
        cells = shapely.box(
            x0 + i * self._cw - _MARGIN,
            y0 + j * self._ch - _MARGIN,
            x0 + (i + 1) * self._cw + _MARGIN,
            y0 + (j + 1) * self._ch + _MARGIN,
        )
        n = len(self.zones)
        listed = np.zeros((n, len(cells)), dtype=bool)  # zone k may hold points of the cell
        covered = np.zeros((n, len(cells)), dtype=bool)  # zone k holds every point of the cell
        if self.tree is not None:
            cell_ix, tree_ix = self.tree.query(cells, predicate="intersects")
            listed[np.asarray(live)[tree_ix], cell_ix] = True
        else:
            for k, geom in zip(live, shortlist, strict=False):
                listed[k] = shapely.intersects(geom, cells)
        for k in live:
            if valid[k]:
                where = np.flatnonzero(listed[k])
                covered[k, where] = shapely.contains_properly(self.polygons[k], cells[where])
        # zones after the first one covering a cell can never be the first to hold its points
        first_cover = np.where(covered.any(axis=0), covered.argmax(axis=0), n)
        listed &= np.arange(n)[:, None] <= first_cover[None, :]
        self.listed, self.covered = listed, covered
        self._cells = [
            tuple((k, self.java[k], bool(covered[k, c])) for k in np.flatnonzero(listed[:, c]))
            for c in range(len(cells))
        ]

    def _cell(self, x: float, y: float) -> int:
        """The table cell of a point inside the extent (clamped against rounding)."""
        i = min(int((x - self.extent[0]) // self._cw), self._nx - 1)
        j = min(int((y - self.extent[1]) // self._ch), self._ny - 1)
        return max(i, 0) * self._ny + max(j, 0)

    def _candidates(self, x: float, y: float) -> tuple[tuple[int, JavaPolygon, bool], ...]:
        x0, y0, x1, y1 = self.extent
        if not (x >= x0 and y >= y0 and x < x1 and y < y1):
            return ()
        return self._cells[self._cell(x, y)]

    def zone_at(self, x: float, y: float) -> ZoneDef | None:
        """The first zone in document order that holds the board-local point (= find_zone)."""
        for k, jp, cover in self._candidates(x, y):
            if cover or jp.contains(x, y):
                return self.zones[k]
        return None

    def zones_at(self, x: float, y: float) -> tuple[ZoneDef, ...]:
        """Every zone that holds the point, in document order."""
        x0, y0, x1, y1 = self.extent
        if not (x >= x0 and y >= y0 and x < x1 and y < y1):
            return ()
        return tuple(z for z, jp in zip(self.zones, self.java, strict=True) if jp.contains(x, y))

    def zone_indices(self, xs: np.ndarray, ys: np.ndarray) -> np.ndarray:
        """For arrays of board-local points: the index of the zone `zone_at` gives, or -1."""
        xs, ys = np.asarray(xs, dtype=np.float64), np.asarray(ys, dtype=np.float64)
        out = np.full(len(xs), -1, dtype=np.int64)
        x0, y0, x1, y1 = self.extent
        pending = np.flatnonzero((xs >= x0) & (ys >= y0) & (xs < x1) & (ys < y1))
        if not len(pending):
            return out
        i = np.minimum((xs[pending] - x0) // self._cw, self._nx - 1).astype(np.int64)
        j = np.minimum((ys[pending] - y0) // self._ch, self._ny - 1).astype(np.int64)
        cell = np.maximum(i, 0) * self._ny + np.maximum(j, 0)
        last = np.where(self.listed.any(axis=0), len(self.zones) - 1 - self.listed[::-1].argmax(axis=0), -1)
        for k, jp in enumerate(self.java):
            keep = last[cell] >= k  # points whose cell still lists a zone
            pending, cell = pending[keep], cell[keep]
            if not len(pending):
                break
            here = self.listed[k, cell]
            sel, sel_cell = pending[here], cell[here]
            inside = self.covered[k, sel_cell]
            test = ~inside
            inside[test] = contains_many(jp, xs[sel[test]], ys[sel[test]])
            out[sel[inside]] = k
            done = np.zeros(len(pending), dtype=bool)
            done[np.flatnonzero(here)[inside]] = True
            pending, cell = pending[~done], cell[~done]
        return out

    def zone_grid(self, zone: ZoneDef, width: int, height: int) -> tuple[GridDef | None, int, int]:
        """(grid, container width, height) that names points in the zone: the background grid
        and the board size with useParentGrid, else its own grid and its bounding-box size."""
        if zone.use_parent_grid:
            return self.zoned.background, width, height
        return (zone.grid, *zone_size(zone))


_INDEXES: dict[int, tuple[object, ZoneIndex]] = {}


def zone_index(zoned: ZonedGridDef) -> ZoneIndex:
    """The ZoneIndex of a ZonedGrid, built once (cached by identity: the records are frozen)."""
    entry = _INDEXES.get(id(zoned))
    if entry is None or entry[0] is not zoned:
        if len(_INDEXES) > 256:
            _INDEXES.clear()
        entry = _INDEXES[id(zoned)] = (zoned, ZoneIndex(zoned))
    return entry[1]


class BoardIndex:
    """The boards of a map as placed (`grid.place_boards`), as shapely rectangles.

    `board_at` answers like `grid.find_board`: the first board in selection order whose
    half-open rectangle holds the map point. More than TREE_THRESHOLD boards: STRtree shortlist.
    """

    def __init__(self, placed: Sequence[PlacedBoard]) -> None:
        self.placed = tuple(placed)
        self.rectangles = tuple(shapely.box(pb.x, pb.y, pb.x + pb.width, pb.y + pb.height) for pb in self.placed)
        self.tree = STRtree(self.rectangles) if len(self.placed) > TREE_THRESHOLD else None

    def board_at(self, x: float, y: float) -> PlacedBoard | None:
        if self.tree is None:
            candidates: Sequence[int] = range(len(self.placed))
        else:
            candidates = sorted(self.tree.query(shapely.Point(x, y), predicate="intersects"))
        for k in candidates:
            if self.placed[k].contains(x, y):
                return self.placed[k]
        return None

    def board_indices(self, xs: np.ndarray, ys: np.ndarray) -> np.ndarray:
        """For arrays of map points: the index in `placed` of `board_at`'s board, or -1."""
        xs, ys = np.asarray(xs, dtype=np.float64), np.asarray(ys, dtype=np.float64)
        out = np.full(len(xs), -1, dtype=np.int64)
        for k in reversed(range(len(self.placed))):  # the earliest board wins: write it last
            pb = self.placed[k]
            out[(xs >= pb.x) & (xs < pb.x + pb.width) & (ys >= pb.y) & (ys < pb.y + pb.height)] = k
        return out
