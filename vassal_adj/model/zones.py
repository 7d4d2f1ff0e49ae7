"""Zones of a ZonedGrid (VASSAL-FORMATS.md section 9): java.awt.Polygon containment and lookup.

Containment is reproduced exactly (even-odd rule, half-open bounding box, double
arithmetic in Java's order) rather than through shapely, because points on a zone's
border must go to the same zone VASSAL picks.
"""

from __future__ import annotations

import re
from typing import Callable, Sequence

from .module import ZoneDef, ZonedGridDef
from .numbering import expand_format, format_pattern

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


def polygon_contains(path: Sequence[tuple[int, int]], x: float, y: float) -> bool:
    """java.awt.Polygon.contains(double x, double y), exactly."""
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
    _, _, w, h = polygon_bounds(zone.path)
    return w, h


def find_zone(zoned: ZonedGridDef, x: float, y: float) -> ZoneDef | None:
    """The first zone in document order whose polygon contains the board-local point."""
    for zone in zoned.zones:
        if polygon_contains(zone.path, x, y):
            return zone
    return None


def zone_location_name(zone: ZoneDef, grid_location: str | None) -> str:
    """The zone's locationFormat with `name` and `gridLocation` (the name its grid gives
    the point, "" without one); unknown properties become their bare name."""
    return expand_format(
        zone.location_format,
        {"name": zone.name, "gridLocation": grid_location or ""},
        unknown_as_name=True,
    )


def zone_center(
    zone: ZoneDef, label: str, resolve: Callable[[str], tuple[int, int] | None] | None
) -> tuple[int, int] | None:
    """VASSAL's Zone.getLocation: the label parsed back with the zone's format.

    `$name$` must match the zone name and `$gridLocation$` (only when the zone has a grid:
    `resolve` maps that part to a board point) matches anything; the point must lie in the
    zone. With no grid part: the centre of the zone's bounding box. None when it does not fit.
    """
    groups = {"gridLocation": "(.*)"} if resolve is not None else {}
    built = format_pattern(zone.location_format, groups, {"name": zone.name})
    if built is None:
        return None
    regex, names = built
    m = re.fullmatch(regex, label)
    if m is None:
        return None
    if names:
        assert resolve is not None
        p = resolve(m.group(len(names)))
        if p is None or not polygon_contains(zone.path, *p):
            return None
        return p
    bx, by, bw, bh = polygon_bounds(zone.path)
    return bx + bw // 2, by + bh // 2
