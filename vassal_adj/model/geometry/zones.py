"""Zones of a ZonedGrid (VASSAL-FORMATS.md section 9): java.awt.Polygon containment and lookup.

Containment is reproduced exactly (even-odd rule, half-open bounding box, double
arithmetic in Java's order) rather than through shapely, because points on a zone's
border must go to the same zone VASSAL picks.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Callable, Sequence
from functools import lru_cache
from itertools import pairwise

from vassal_adj.model.geometry.numbering import expand_format, format_pattern
from vassal_adj.model.module import ZoneDef, ZonedGridDef

__all__ = [
    "polygon_bounds",
    "polygon_contains",
    "zone_contains",
    "find_zone",
    "zone_size",
    "zone_location_name",
    "zone_center",
]


def polygon_bounds(path: Sequence[tuple[int, int]]) -> tuple[int, int, int, int]:
    """java.awt.Polygon.getBounds(): (x, y, width, height); (0, 0, 0, 0) when empty."""
    if not path:
        return 0, 0, 0, 0
    xs = [p[0] for p in path]
    ys = [p[1] for p in path]
    return min(xs), min(ys), max(xs) - min(xs), max(ys) - min(ys)


class JavaPolygon:
    """A polygon path prepared for java.awt.Polygon.contains, with the same arithmetic.

    Zone lookups run once per named point, and walking every edge (86 for a zone of one
    corpus module) dominated them. The edges are sorted once into horizontal slabs between
    consecutive vertex y values: an edge can only be crossed by points whose y lies in
    [its low y, its high y), so only the slab's edges are tested, each with Java's own
    comparison and double expression; the others could never count.
    """

    __slots__ = ("bounds", "box", "edges", "_x0", "_y0", "_x1", "_y1", "_ys", "_slabs")

    def __init__(self, path: Sequence[tuple[int, int]]) -> None:
        self.bounds = polygon_bounds(path)
        bx, by, bw, bh = self.bounds
        # fewer than 3 points never contain anything: an empty half-open box says so
        self._x0, self._y0 = bx, by
        self._x1, self._y1 = (bx + bw, by + bh) if len(path) > 2 else (bx, by)
        edges = []
        lastx, lasty = path[-1] if path else (0, 0)
        for curx, cury in path:
            if cury != lasty:
                low_x, low_y = (curx, cury) if cury < lasty else (lastx, lasty)
                # (y range, x right end, x left end, lower endpoint, Java's last - cur deltas)
                edges.append(
                    (
                        min(cury, lasty),
                        max(cury, lasty),
                        max(curx, lastx),
                        min(curx, lastx),
                        low_x,
                        low_y,
                        lasty - cury,
                        lastx - curx,
                    )
                )
            lastx, lasty = curx, cury
        # for vectorised tests (model.regions): the half-open box and the edges as above
        self.box = (self._x0, self._y0, self._x1, self._y1)
        self.edges: tuple[tuple[int, int, int, int, int, int, int, int], ...] = tuple(edges)
        self._ys = sorted({e[0] for e in edges} | {e[1] for e in edges})
        self._slabs = [tuple(e[2:] for e in edges if e[0] <= lo and e[1] >= hi) for lo, hi in pairwise(self._ys)]

    def contains(self, x: float, y: float) -> bool:
        """java.awt.Polygon.contains(double x, double y), exactly."""
        if not (x >= self._x0 and y >= self._y0 and x < self._x1 and y < self._y1):
            return False
        k = bisect_right(self._ys, y) - 1
        if k < 0 or k >= len(self._slabs):
            return False  # no edge spans this y (a degenerate path): no crossing
        hits = 0
        for xmax, leftx, low_x, low_y, dy, dx in self._slabs[k]:
            if x < xmax and (x < leftx or x - low_x < (y - low_y) / dy * dx):
                hits += 1
        return hits % 2 == 1


# Prepared polygons by identity: tuples are immutable, so the entry stays right, and
# holding the key object keeps its id from being reused while cached.
_PREPARED: dict[int, tuple[object, JavaPolygon]] = {}


def java_polygon(path: Sequence[tuple[int, int]]) -> JavaPolygon:
    """The prepared form of a path (cached when the path is a tuple)."""
    entry = _PREPARED.get(id(path))
    if entry is not None and entry[0] is path:
        return entry[1]
    poly = JavaPolygon(path)
    if type(path) is tuple:
        if len(_PREPARED) > 8192:
            _PREPARED.clear()
        _PREPARED[id(path)] = (path, poly)
    return poly


def polygon_contains(path: Sequence[tuple[int, int]], x: float, y: float) -> bool:
    """java.awt.Polygon.contains(double x, double y), exactly."""
    if type(path) is not tuple:
        return _polygon_contains_walk(path, x, y)
    return java_polygon(path).contains(x, y)


def _polygon_contains_walk(path: Sequence[tuple[int, int]], x: float, y: float) -> bool:
    """java.awt.Polygon.contains transcribed edge by edge (the reference for JavaPolygon)."""
    n = len(path)
    if n <= 2:
        return False
    bx, by, bw, bh = polygon_bounds(path)
    if not (x >= bx and y >= by and x < bx + bw and y < by + bh):
        return False
    hits = 0
    lastx, lasty = path[-1]
    for curx, cury in path:
        if cury == lasty:
            lastx, lasty = curx, cury
            continue
        if curx < lastx:
            if x >= lastx:
                lastx, lasty = curx, cury
                continue
            leftx = curx
        else:
            if x >= curx:
                lastx, lasty = curx, cury
                continue
            leftx = lastx
        if cury < lasty:
            if y < cury or y >= lasty:
                lastx, lasty = curx, cury
                continue
            if x < leftx:
                hits += 1
                lastx, lasty = curx, cury
                continue
            test1 = x - curx
            test2 = y - cury
        else:
            if y < lasty or y >= cury:
                lastx, lasty = curx, cury
                continue
            if x < leftx:
                hits += 1
                lastx, lasty = curx, cury
                continue
            test1 = x - lastx
            test2 = y - lasty
        if test1 < (test2 / (lasty - cury) * (lastx - curx)):
            hits += 1
        lastx, lasty = curx, cury
    return hits % 2 == 1


def zone_contains(zone: ZoneDef, x: float, y: float) -> bool:
    return polygon_contains(zone.path, x, y)


def zone_size(zone: ZoneDef) -> tuple[int, int]:
    """The container size of a grid inside the zone: its polygon's bounding-box size."""
    _, _, w, h = java_polygon(zone.path).bounds
    return w, h


_ZONE_LISTS: dict[int, tuple[object, tuple[tuple[ZoneDef, JavaPolygon], ...]]] = {}


def _prepared_zones(zoned: ZonedGridDef) -> tuple[tuple[ZoneDef, JavaPolygon], ...]:
    """The zones of a (frozen) ZonedGrid with their prepared polygons, cached by identity."""
    entry = _ZONE_LISTS.get(id(zoned))
    if entry is not None and entry[0] is zoned:
        return entry[1]
    prepared = tuple((z, java_polygon(z.path)) for z in zoned.zones)
    if len(_ZONE_LISTS) > 1024:
        _ZONE_LISTS.clear()
    _ZONE_LISTS[id(zoned)] = (zoned, prepared)
    return prepared


def find_zone(zoned: ZonedGridDef, x: float, y: float) -> ZoneDef | None:
    """The first zone in document order whose polygon contains the board-local point."""
    for zone, poly in _prepared_zones(zoned):
        if poly.contains(x, y):
            return zone
    return None


def zone_location_name(zone: ZoneDef, grid_location: str | None) -> str:
    """The zone's locationFormat with `name` and `gridLocation` (the name its grid gives
    the point, "" without one); unknown properties become their bare name."""
    key = (zone.location_format, zone.name, grid_location or "")
    name = _ZONE_NAMES.get(key)
    if name is None:
        name = expand_format(key[0], {"name": key[1], "gridLocation": key[2]}, unknown_as_name=True)
        if len(_ZONE_NAMES) > 65536:
            _ZONE_NAMES.clear()
        _ZONE_NAMES[key] = name
    return name


# A zone name depends only on these three strings; a board has a few thousand of them.
_ZONE_NAMES: dict[tuple[str, str, str], str] = {}


def zone_center(
    zone: ZoneDef, label: str, resolve: Callable[[str], tuple[int, int] | None] | None
) -> tuple[int, int] | None:
    """VASSAL's Zone.getLocation: the label parsed back with the zone's format.

    `$name$` must match the zone name and `$gridLocation$` (only when the zone has a grid:
    `resolve` maps that part to a board point) matches anything; the point must lie in the
    zone. With no grid part: the centre of the zone's bounding box. None when it does not fit.
    """
    parser = _zone_parser(zone.location_format, zone.name, resolve is not None)
    m = parser and parser[0].fullmatch(label)
    if not m:
        return None
    names = parser[1]  # type: ignore[index]
    if names:
        assert resolve is not None
        p = resolve(m.group(names))
        if p is None or not polygon_contains(zone.path, *p):
            return None
        return p
    bx, by, bw, bh = java_polygon(zone.path).bounds
    return bx + bw // 2, by + bh // 2


@lru_cache(maxsize=4096)  # every label lookup tries each zone's format: build each pattern once
def _zone_parser(fmt: str, name: str, with_grid: bool) -> tuple[re.Pattern[str], int] | None:
    """The compiled pattern of a zone format and its number of groups (the last is the grid's)."""
    groups = {"gridLocation": "(.*)"} if with_grid else {}
    built = format_pattern(fmt, groups, {"name": name})
    if built is None:
        return None
    return re.compile(built[0]), len(built[1])
