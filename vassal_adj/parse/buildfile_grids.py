"""Boards, grids and zones of a buildFile, and the Java value conversions VASSAL applies.

Helpers for `parse.buildfile`: each function reads one lxml element (VASSAL-FORMATS.md
sections 7.4, 7.5, 8.2 and 9) and returns a record of `model.module`. Attribute values are
converted as VASSAL converts them (`Boolean.valueOf`, `Integer.parseInt`,
`Double.valueOf`), with VASSAL's defaults for absent attributes.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable

from lxml import etree

from vassal_adj import limits
from vassal_adj.errors import FormatError, Where
from vassal_adj.limits import quoted
from vassal_adj.model.module import (
    BoardDef,
    GridDef,
    HexGridDef,
    HexNumbering,
    Region,
    RegionGridDef,
    SquareGridDef,
    ZoneDef,
    ZonedGridDef,
)
from vassal_adj.parse.tokens import is_integer, java_trim, parse_int, split

_BOARD_PKG = "VASSAL.build.module.map.boardPicker.board."
HEX_GRID = _BOARD_PKG + "HexGrid"
SQUARE_GRID = _BOARD_PKG + "SquareGrid"
REGION_GRID = _BOARD_PKG + "RegionGrid"
ZONED_GRID = _BOARD_PKG + "ZonedGrid"
REGION = _BOARD_PKG + "Region"
ZONE = _BOARD_PKG + "mapgrid.Zone"
HEX_NUMBERING = _BOARD_PKG + "mapgrid.HexGridNumbering"
OBLIQUE_NUMBERING = _BOARD_PKG + "mapgrid.ObliqueHexGridNumbering"
SQUARE_NUMBERING = _BOARD_PKG + "mapgrid.SquareGridNumbering"
GRID_TAGS = frozenset({HEX_GRID, SQUARE_GRID, REGION_GRID, ZONED_GRID})
# The Terrain extension's grid: a HexGrid subclass with the same attributes and numbering, in
# the package of the module that copied it (terrain., avl., rsr.; VASSAL-FORMATS.md 11.1).
TERRAIN_HEX_GRID = "TerrainHexGrid"
GRID_PART_TAGS = frozenset({REGION, ZONE, HEX_NUMBERING, OBLIQUE_NUMBERING, SQUARE_NUMBERING})

SQRT3_2 = math.sqrt(3) / 2
DEFAULT_HEX_DY = 64.0
DEFAULT_HEX_DX = SQRT3_2 * DEFAULT_HEX_DY  # 55.42562584220407, Java's 64 * sqrt(3) / 2

_DOUBLE_RE = re.compile(r"[+-]?(?:NaN|Infinity|(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][+-]?[0-9]+)?[fFdD]?)")
_HEX_DOUBLE_RE = re.compile(r"[+-]?0[xX][0-9a-fA-F]*\.?[0-9a-fA-F]*[pP][+-]?[0-9]+[fFdD]?")

ImageSize = Callable[[str], "tuple[int, int] | None"]


def java_bool(value: str | None, default: bool = False) -> bool:
    """Java `Boolean.valueOf`: true only for "true" in any letter case; `default` when absent."""
    if value is None:
        return default
    return len(value) == 4 and value.lower() == "true"


def java_int(value: str | None) -> int | None:
    """Java `Integer.parseInt`, or None where Java throws (blank, decimal, out of range)."""
    return None if value is None else parse_int(value)


def java_double(value: str | None) -> float | None:
    """Java `Double.valueOf` (trimmed, `1.5`, `1e3`, `2d`, `NaN`, `Infinity`), else None."""
    if value is None:
        return None
    text = java_trim(value)
    if _DOUBLE_RE.fullmatch(text):
        text = text.rstrip("fFdD").replace("Infinity", "inf")
        return float(text)
    if _HEX_DOUBLE_RE.fullmatch(text):
        try:
            return float.fromhex(text.rstrip("fFdD"))
        except ValueError:
            return None
    return None


def short(tag: str) -> str:
    """The class name without its package: `VASSAL.build.module.Map` -> `Map`."""
    return tag.rsplit(".", 1)[-1]


class Values:
    """Attribute readers for one buildFile, raising FormatError where VASSAL fails to build."""

    def __init__(self, path: str | None, entry: str | None) -> None:
        self.path = path
        self.entry = entry

    def where(self, el: etree._Element) -> Where:
        return Where(path=self.path, entry=self.entry, line=el.sourceline)

    def attributes(self, el: etree._Element) -> dict[str, str]:
        """The element's attributes, in file order, read in time linear in their number.

        lxml's ``dict(el.attrib)`` looks every name up again from the first: quadratic, and
        minutes for 200,000 attributes; the XPath ``@*`` walks them once. Past the limit on
        attributes (limits.XML_ATTRIBUTES) the element is refused: no module needs a thousand.
        """
        count = len(el.attrib)
        if count < 64:  # the usual case: no XPath call (it costs more than a few lookups)
            return dict(el.attrib)
        limits.XML_ATTRIBUTES.check(count, f"{short(str(el.tag))} has {count:,} attributes", self.where(el))
        return {a.attrname: str(a) for a in el.xpath("@*")}

    def lenient_int(self, el: etree._Element, attr: str, default: int) -> int:
        """An int attribute; `default` when absent or not an integer."""
        number = java_int(el.get(attr))
        return default if number is None else number

    def strict_int(self, el: etree._Element, attr: str, default: int) -> int:
        """An int attribute that VASSAL parses with Integer.parseInt and fails the build on."""
        value = el.get(attr)
        if value is None:
            return default
        number = java_int(value)
        if number is None:
            why = "outside Java's int range" if is_integer(value) else "not an integer"
            raise FormatError(f"attribute {attr} of {short(str(el.tag))} is {why}: {quoted(value)}", self.where(el))
        return number

    def strict_double(self, el: etree._Element, attr: str, default: float) -> float:
        """A double attribute that VASSAL parses with Double.valueOf and fails the build on."""
        value = el.get(attr)
        if value is None:
            return default
        number = java_double(value)
        if number is None:
            raise FormatError(
                f"attribute {attr} of {short(str(el.tag))} is not a number: {quoted(value)}", self.where(el)
            )
        return number


def grid_tag(tag: str) -> str:
    """VASSAL's class of a grid element: the Terrain extension's hex grid reads as a HexGrid."""
    return HEX_GRID if short(tag) == TERRAIN_HEX_GRID else tag


def _children(el: etree._Element, tags: frozenset[str] | set[str]) -> list[etree._Element]:
    return [c for c in el if isinstance(c.tag, str) and grid_tag(c.tag) in tags]


def _first_char(value: str | None, default: str) -> str:
    return value[0] if value else default


def parse_numbering(el: etree._Element, values: Values) -> HexNumbering:
    """A HexGridNumbering, ObliqueHexGridNumbering or SquareGridNumbering element."""
    square = el.tag == SQUARE_NUMBERING
    return HexNumbering(
        first=_first_char(el.get("first"), "H"),
        sep=el.get("sep", ""),
        h_type=_first_char(el.get("hType"), "N"),
        v_type=_first_char(el.get("vType"), "N"),
        h_leading=values.lenient_int(el, "hLeading", 1),
        v_leading=values.lenient_int(el, "vLeading", 1),
        h_off=values.lenient_int(el, "hOff", 1),
        v_off=values.lenient_int(el, "vOff", 1),
        h_descend=java_bool(el.get("hDescend")),
        v_descend=java_bool(el.get("vDescend")),
        stagger=False if square else java_bool(el.get("stagger"), True),
        location_format=el.get("locationFormat", "$gridLocation$"),
        oblique=el.tag == OBLIQUE_NUMBERING,
    )


def _last_numbering(el: etree._Element, tags: set[str], values: Values) -> HexNumbering | None:
    found = _children(el, tags)
    return parse_numbering(found[-1], values) if found else None


def parse_hex_grid(el: etree._Element, values: Values) -> HexGridDef:
    """A HexGrid, applying dx/dy in alphabetical order as VASSAL does (section 8.2)."""
    dx, dy = DEFAULT_HEX_DX, DEFAULT_HEX_DY
    for key in sorted(el.attrib):  # "dx" sorts before "dy"
        if key == "dx":
            dx = values.strict_double(el, "dx", dx)
        elif key == "dy":
            dy = values.strict_double(el, "dy", dy)
            if dx == DEFAULT_HEX_DX:  # dx absent or still the default: it follows dy
                dx = SQRT3_2 * dy
    _check_steps(el, values, dx, dy)
    return HexGridDef(
        dx=dx,
        dy=dy,
        x0=values.strict_int(el, "x0", 0),
        y0=values.strict_int(el, "y0", 32),
        sideways=java_bool(el.get("sideways")),
        snap_to=java_bool(el.get("snapTo"), True),
        edges_legal=java_bool(el.get("edgesLegal")),
        corners_legal=java_bool(el.get("cornersLegal")),
        snapscale=values.lenient_int(el, "snapscale", 0),
        numbering=_last_numbering(el, {HEX_NUMBERING, OBLIQUE_NUMBERING}, values),
    )


def _check_steps(el: etree._Element, values: Values, dx: float, dy: float) -> None:
    # VASSAL divides by dx and dy to name a point: 0, a negative, NaN or infinite step
    # names nothing sensible (and 0 divides by zero), so the grid is refused.
    for attr, step in (("dx", dx), ("dy", dy)):
        if not (math.isfinite(step) and step > 0):
            raise FormatError(
                f"{attr} of {short(str(el.tag))} must be a finite number of pixels above 0, got "
                f"{quoted(el.get(attr, str(step)))}",
                values.where(el),
            )


def _stepped(grid: GridDef | None) -> list[HexGridDef | SquareGridDef]:
    """The grids with cells of a fixed size: the grid, a zoned grid's background and zone grids."""
    if isinstance(grid, HexGridDef | SquareGridDef):
        return [grid]
    if isinstance(grid, ZonedGridDef):
        return [*_stepped(grid.background), *(g for z in grid.zones for g in _stepped(z.grid))]
    return []


def check_board_size(el: etree._Element, values: Values, board: BoardDef) -> None:
    """Refuse a board whose picture or grid is too big to draw or index (limits.PIXELS, HEXES).

    The count of cells is known from the size and the steps before any cell is made.
    """
    w, h = max(board.width, 0), max(board.height, 0)
    limits.PIXELS.check(w * h, f"board {board.name!r} is {w:,} x {h:,} pixels", values.where(el))
    for grid in _stepped(board.grid):
        across, down = (h, w) if isinstance(grid, HexGridDef) and grid.sideways else (w, h)
        cells = (across / grid.dx + 2) * (down / grid.dy + 2)  # a float: tiny steps overflow to inf
        if cells > limits.HEXES.value:
            about = f"{cells:,.0f}" if cells < 1e15 else f"{cells:.1e}"
            size = f"{w:,} x {h:,} pixels, dx {grid.dx:g}, dy {grid.dy:g}"
            raise limits.HEXES.error(f"grid of board {board.name!r} ({size}) has about {about} cells", values.where(el))


def parse_square_grid(el: etree._Element, values: Values) -> SquareGridDef:
    """A SquareGrid (defaults dx = dy = 48.0, origin 24,24)."""
    dx, dy = values.strict_double(el, "dx", 48.0), values.strict_double(el, "dy", 48.0)
    _check_steps(el, values, dx, dy)
    return SquareGridDef(
        dx=dx,
        dy=dy,
        x0=values.strict_int(el, "x0", 24),
        y0=values.strict_int(el, "y0", 24),
        snap_to=java_bool(el.get("snapTo"), True),
        edges_legal=java_bool(el.get("edgesLegal")),
        corners_legal=java_bool(el.get("cornersLegal")),
        range=el.get("range", "Metric"),
        numbering=_last_numbering(el, {SQUARE_NUMBERING}, values),
    )


def parse_region_grid(el: etree._Element, values: Values) -> RegionGridDef:
    """A RegionGrid with its Regions in file order (attribute `snapto`, lower case)."""
    regions = tuple(
        Region(
            name=r.get("name", ""),
            x=values.strict_int(r, "originx", 0),
            y=values.strict_int(r, "originy", 0),
        )
        for r in _children(el, {REGION})
    )
    return RegionGridDef(regions=regions, snap_to=java_bool(el.get("snapto"), True))


def parse_zone_path(text: str | None) -> tuple[tuple[int, int], ...]:
    """A Zone `path` (section 9): `x,y;x,y`, tokens trimmed, malformed points skipped.

    >>> parse_zone_path("0,0; 200,0;bad;200 ,100;7")
    ((0, 0), (200, 0), (200, 100))
    """
    points: list[tuple[int, int]] = []
    if not text:
        return ()
    for token in split(text, ";"):
        parts = split(java_trim(token), ",")
        if len(parts) < 2:
            continue
        x, y = java_int(java_trim(parts[0])), java_int(java_trim(parts[1]))
        if x is not None and y is not None:
            points.append((x, y))
    return tuple(points)


def parse_zone(el: etree._Element, values: Values) -> ZoneDef:
    """A Zone: polygon, location format, its own grid (the last one if several)."""
    return ZoneDef(
        name=el.get("name", ""),
        path=parse_zone_path(el.get("path")),
        location_format=el.get("locationFormat", "$name$"),
        use_parent_grid=java_bool(el.get("useParentGrid")),
        grid=parse_child_grid(el, values, allow_zoned=False),
        use_highlight=java_bool(el.get("useHighlight")),
        highlight_property=el.get("highlightProperty", ""),
    )


def parse_zoned_grid(el: etree._Element, values: Values) -> ZonedGridDef:
    """A ZonedGrid: its Zones in document order and the optional background grid."""
    zones = tuple(parse_zone(z, values) for z in _children(el, {ZONE}))
    return ZonedGridDef(zones=zones, background=parse_child_grid(el, values, allow_zoned=False))


def parse_grid(el: etree._Element, values: Values) -> GridDef:
    """Any of the four grid elements."""
    if grid_tag(str(el.tag)) == HEX_GRID:
        return parse_hex_grid(el, values)
    if el.tag == SQUARE_GRID:
        return parse_square_grid(el, values)
    if el.tag == REGION_GRID:
        return parse_region_grid(el, values)
    return parse_zoned_grid(el, values)


def parse_child_grid(el: etree._Element, values: Values, *, allow_zoned: bool = True) -> GridDef | None:
    """The grid among the children of `el` (the last one wins, as each replaces the previous)."""
    tags = GRID_TAGS if allow_zoned else GRID_TAGS - {ZONED_GRID}
    found = _children(el, tags)
    return parse_grid(found[-1], values) if found else None


def parse_board(el: etree._Element, values: Values, image_size: ImageSize) -> BoardDef:
    """A Board: its size is the image's when an image is named, else width/height (500x500)."""
    image = el.get("image") or None
    size_known = True
    if image is not None:
        try:
            size = image_size(image)
        except FormatError as e:
            raise FormatError(f"board {el.get('name', '')!r}, image {image!r}: {e.message}", values.where(el)) from None
        if size is None:
            width, height, size_known = 0, 0, False
        else:
            width, height = size
    else:
        width = values.lenient_int(el, "width", 500)
        height = values.lenient_int(el, "height", 500)
    board = BoardDef(
        name=el.get("name", ""),
        image=image,
        width=width,
        height=height,
        reversible=java_bool(el.get("reversible")),
        grid=parse_child_grid(el, values),
        size_known=size_known,
        line=el.sourceline,
    )
    check_board_size(el, values, board)
    return board
