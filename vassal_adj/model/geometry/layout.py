"""One hex grid as placed on a board: label <-> `Hex` <-> centre pixel, hexsides and ranges.

A `HexLayout` joins the pure cube arithmetic of `model.hexes` to VASSAL's exact naming in
`model.grid`: a hex is VASSAL's raw (column, row) index in the grid frame (`Hex.from_raw`),
its centre is the pixel VASSAL's getLocation gives its label, and its label is the name
VASSAL shows at that centre. A label whose centre VASSAL names differently (an inverse
quirk of the numbering) is not a hex of the layout; oblique numbering has none, its slant being
undone from label to centre (docs/grids.md). A hex is on the map when its
centre lies on the board, or inside the zone polygon for a grid inside a zone; nothing off
the map is given a position unless asked for explicitly.

Screen directions come from the centre pixels, so descending numbering, sideways grids
and reversed boards need no special case.

>>> from vassal_adj.model.module import BoardDef, HexGridDef, HexNumbering
>>> grid = HexGridDef(dx=52.0, dy=60.0, x0=36, y0=36, numbering=HexNumbering(stagger=False))
>>> layout = HexLayout(grid, BoardDef("B", None, 400, 300))
>>> layout.center(layout.hex_of("0302"))
(140, 96)
>>> layout.neighbors("0302")
['0301', '0401', '0402', '0303', '0202', '0201']
>>> layout.expand_range("0102-0402")
['0102', '0202', '0302', '0402']
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import cached_property

from vassal_adj.errors import UsageError
from vassal_adj.model.geometry import hexes as hx
from vassal_adj.model.geometry.grid import PlacedBoard, hex_center, hex_location_name
from vassal_adj.model.geometry.hex_index import HexIndex, IndexRow, candidates, index_hexes
from vassal_adj.model.geometry.hexes import Hex, HexSide
from vassal_adj.model.geometry.numbering import (
    column_row,
    coordinate_name,
    format_pattern,
    numbering_location_name,
    raw_column_row,
)
from vassal_adj.model.geometry.snapping import Point
from vassal_adj.model.geometry.zones import polygon_bounds, polygon_contains, zone_location_name, zone_size
from vassal_adj.model.module import BoardDef, HexGridDef, ZoneDef

__all__ = ["FLAT_DIRECTIONS", "SIDEWAYS_DIRECTIONS", "HexLayout", "hex_radii"]

# Clockwise from the top. Flat-topped hexes (VASSAL's default) have a neighbour straight
# above; a sideways grid has pointy-topped hexes with neighbours straight left and right.
FLAT_DIRECTIONS = ("N", "NE", "SE", "S", "SW", "NW")
SIDEWAYS_DIRECTIONS = ("NE", "E", "SE", "SW", "W", "NW")


@dataclass(frozen=True)
class HexLayout:
    """A hex grid on a board (its own grid, a zoned grid's background, or a zone's grid).

    Coordinates are board-local, or map pixels when `placed` puts the board on a map.
    """

    grid: HexGridDef
    board: BoardDef
    zone: ZoneDef | None = None  # the zone whose own grid this is
    background: bool = False  # the background grid of a ZonedGrid
    placed: PlacedBoard | None = field(default=None, compare=False)
    index: HexIndex | None = field(default=None, compare=False, repr=False)  # `hex_index()` known already

    def __repr__(self) -> str:
        at = "" if self.placed is None else f" at ({self.placed.x},{self.placed.y})"
        return f"HexLayout({self.where}{at})"

    # -----------------------------------------------------------------------------------
    # Where the grid is

    @property
    def numbered(self) -> bool:
        """Whether VASSAL gives this grid's hexes labels (a HexGridNumbering is defined)."""
        return self.grid.numbering is not None

    @property
    def where(self) -> str:
        """In words: "board 'Inland', zone 'Battlefield'"."""
        text = f"board {self.board.name!r}"
        if self.zone is not None:
            return f"{text}, zone {self.zone.name!r}"
        return text + (" (background grid)" if self.background else "")

    @property
    def directions(self) -> tuple[str, ...]:
        """The six screen directions of this grid, clockwise from the top."""
        return SIDEWAYS_DIRECTIONS if self.grid.sideways else FLAT_DIRECTIONS

    @property
    def _size(self) -> tuple[int, int]:
        """The numbering's container: the zone's bounding box for a zone grid, else the board."""
        return zone_size(self.zone) if self.zone is not None else (self.board.width, self.board.height)

    def _in_region(self, x: float, y: float) -> bool:
        if self.zone is not None:
            return polygon_contains(self.zone.path, x, y)
        return 0 <= x < self.board.width and 0 <= y < self.board.height

    def _to_local(self, x: float, y: float) -> tuple[float, float] | None:
        if self.placed is None:
            return x, y
        return self.placed.to_local(x, y) if self.placed.contains(x, y) else None

    def _out(self, p: Point) -> Point:
        return p if self.placed is None else self.placed.to_map(*p)

    # -----------------------------------------------------------------------------------
    # Hex <-> pixel <-> label

    def _local_center(self, h: Hex) -> Point:
        """VASSAL's getLocation centre of raw index h.raw(): it depends on the raw index only."""
        g = self.grid
        i, j = h.raw()
        u = int(i * g.dx) + g.x0
        v = int(j * g.dy) + g.y0 if i % 2 == 0 else int(j * g.dy + g.dy / 2) + g.y0
        return (v, u) if g.sideways else (u, v)

    def _local_name(self, x: float, y: float) -> str | None:
        w, h = self._size
        name = hex_location_name(self.grid, w, h, x, y)
        return zone_location_name(self.zone, name) if self.zone is not None and name is not None else name

    def _grid_label(self, label: str) -> str | None:
        """The grid's own part of a label (a zone's locationFormat may wrap it)."""
        if self.zone is None or self.zone.location_format == "$gridLocation$":
            return label
        built = format_pattern(self.zone.location_format, {"gridLocation": "(.*)"}, {"name": self.zone.name})
        if built is None or "gridLocation" not in built[1]:
            return None
        m = re.fullmatch(built[0], label)
        return None if m is None else m.group(len(built[1]))

    def _label_center(self, label: str) -> Point | None:
        """The centre VASSAL's getLocation gives `label` (None when it cannot parse it)."""
        inner = self._grid_label(label)
        return None if inner is None else hex_center(self.grid, *self._size, inner)

    def hex_of(self, label: str) -> Hex | None:
        """The hex VASSAL gives `label` (on the map or not); None for no such hex."""
        if not self.numbered:
            return None
        p = self._label_center(label)
        if p is None or self._local_name(*p) != label:
            return None
        # The raw index comes from the naming formulas at the centre; the centre of that
        # index must be the same pixel, or the label is one of VASSAL's inverse quirks.
        found = Hex.from_raw(*raw_column_row(self.grid, *p))
        return found if self._local_center(found) == p else None

    def label_of(self, h: Hex) -> str | None:
        """The label VASSAL shows for hex `h`; None without numbering or for a quirk."""
        if not self.numbered:
            return None
        known = self._index.label.get(h)
        if known is not None:
            return known
        name = self._local_name(*self._local_center(h))
        return name if name is not None and self.hex_of(name) == h else None

    def on_map(self, h: Hex) -> bool:
        """Whether the centre of `h` lies on the board (inside the zone for a zone grid)."""
        return self._in_region(*self._local_center(h))

    def center(self, h: Hex | str, *, off_map: bool = False) -> Point:
        """The centre pixel of a hex (or label); UsageError when off the map unless `off_map`."""
        hh = self._hex(h, on_map=not off_map)
        return self._out(self._local_center(hh))

    def hex_at(self, x: float, y: float) -> Hex | None:
        """The hex VASSAL names at this pixel; None off the board (or outside the zone).

        Without numbering: the hex of the same naming cell. Near the region's edge the
        hex may itself be off the map (see `on_map`).
        """
        local = self._to_local(x, y)
        if local is None or not self._in_region(*local):
            return None
        return Hex.from_raw(*raw_column_row(self.grid, *local))

    def label_at(self, x: float, y: float) -> str | None:
        """The label of the hex at this pixel (None off the map or without numbering)."""
        return None if (h := self.hex_at(x, y)) is None else self.label_of(h)

    # -----------------------------------------------------------------------------------
    # Every hex

    @cached_property
    def _index(self) -> HexIndex:
        return self.index or self.hex_index()

    def hex_index(self, rows: tuple[IndexRow, ...] | None = None) -> HexIndex:
        """The hexes on the map, indexed; `rows`: the `HexIndex.rows` of a layout of the same grid,
        board and zone, which stand for the numbering's answers (no hex is asked)."""
        box = polygon_bounds(self.zone.path) if self.zone is not None else (0, 0, self.board.width, self.board.height)
        on_map = () if rows is not None else (h for h in candidates(self.grid, box) if self.on_map(h))
        rows_first = self.grid.numbering is not None and self.grid.numbering.first == "V"
        return index_hexes(on_map, self._numbered if self.numbered else None, rows_first, known=rows)

    def _numbered(self, h: Hex) -> tuple[tuple[int, int], str | None]:
        """The numbered (column, row) of a hex and its label: VASSAL's name at its centre, if
        `hex_of` gives the hex back for that name (the same test, the name being known)."""
        c = self._local_center(h)
        name = self._local_name(*c)
        if name is not None and (self._label_center(name) != c or Hex.from_raw(*raw_column_row(self.grid, *c)) != h):
            name = None
        return column_row(self.grid, *self._size, *c), name

    def hexes(self) -> tuple[Hex, ...]:
        """Every hex whose centre is on the map, in label order (raw order without numbering)."""
        return self._index.hexes

    def labels(self) -> list[str]:
        """The labels of every hex on the map, in label order."""
        return [self._index.label[h] for h in self._index.hexes if h in self._index.label]

    def colrow(self, h: Hex | str) -> tuple[int, int]:
        """The numbered (column, row) of an on-map hex, offsets not included."""
        return self._index.colrow[self._hex(h)]

    def column_name(self, column: int) -> str:
        n = self.grid.numbering
        assert n is not None
        return coordinate_name(column + n.h_off, n.h_type, n.h_leading)

    def row_name(self, row: int) -> str:
        n = self.grid.numbering
        assert n is not None
        return coordinate_name(row + n.v_off, n.v_type, n.v_leading)

    # -----------------------------------------------------------------------------------
    # Labels as users write them

    def _hex(self, ref: Hex | str, on_map: bool = True) -> Hex:
        """A hex from a Hex or a label; UsageError for an unknown or off-map label."""
        if isinstance(ref, Hex):
            h = ref
        else:
            self._need_numbering(ref)
            indexed = self._index.by_label.get(ref)
            if indexed is not None:  # the index holds on-map hexes only
                return indexed
            h = self.hex_of(ref)  # type: ignore[assignment]
            if h is None:
                raise UsageError(f"{ref!r} is not a hex label of the grid on {self.where}{self._span()}")
        if on_map and not self.on_map(h):
            name = ref if isinstance(ref, str) else (self.label_of(h) or str(h))
            raise UsageError(f"hex {name!r} is off the map on {self.where}{self._span()}")
        return h

    def _need_numbering(self, text: str) -> None:
        if not self.numbered:
            raise UsageError(
                f"the hex grid on {self.where} has no numbering: VASSAL gives its "
                f"hexes no labels, so {text!r} names nothing"
            )

    def _span(self) -> str:
        labels = self.labels()
        return f" (hexes {labels[0]} to {labels[-1]})" if labels else ""

    def require(self, label: str) -> Hex:
        """The on-map hex of `label`, or a UsageError quoting it."""
        return self._hex(label)

    def direction_name(self, a: Hex | str, b: Hex | str) -> str:
        """The screen direction from hex `a` to its neighbour `b` ("N", "NE", ... or "E")."""
        ha, hb = self._hex(a, on_map=False), self._hex(b, on_map=False)
        if hx.distance(ha, hb) != 1:
            raise UsageError(f"hexes {self._show(a)!r} and {self._show(b)!r} are not adjacent")
        (ax, ay), (bx, by) = self._out(self._local_center(ha)), self._out(self._local_center(hb))
        ns = "N" if by < ay else "S"
        ew = "E" if bx > ax else "W"
        if self.grid.sideways:
            return ew if by == ay else ns + ew
        return ns if bx == ax else ns + ew

    def _show(self, ref: Hex | str) -> str:
        return ref if isinstance(ref, str) else (self.label_of(ref) or str(ref))

    def neighbor(self, ref: Hex | str, direction: str) -> Hex:
        """The hex next to `ref` in a screen direction (it may be off the map)."""
        h = self._hex(ref)
        want = direction.strip().upper()
        if want not in self.directions:
            kind = "sideways (pointy-topped)" if self.grid.sideways else "flat-topped"
            raise UsageError(
                f"direction {direction!r} does not exist on the {kind} grid on "
                f"{self.where}; use one of {', '.join(self.directions)}"
            )
        return next(n for n in hx.neighbors(h) if self.direction_name(h, n) == want)

    def neighbors(self, ref: Hex | str) -> list[str]:
        """Labels of the on-map neighbours of a hex, clockwise from the top."""
        h = self._hex(ref)
        found = [n for n in hx.neighbors(h) if self.on_map(n) and self.label_of(n) is not None]
        found.sort(key=lambda n: self.directions.index(self.direction_name(h, n)))
        return [self.label_of(n) or "" for n in found]

    def _splits(self, spec: str, sep: str) -> list[tuple[str, str]]:
        """Ways to cut `spec` at one `sep` into two on-map labels (labels may hold `sep`)."""
        out = []
        for k, ch in enumerate(spec):
            if ch == sep:
                left, right = spec[:k].strip(), spec[k + 1 :].strip()
                if left in self._index.by_label and (right in self._index.by_label or sep == "/"):
                    out.append((left, right))
        return out

    def hexside(self, spec: str | tuple[Hex | str, Hex | str]) -> HexSide:
        """A hexside from "0312/0413" (two adjacent labels), "0312/NE" or a pair of hexes."""
        if not isinstance(spec, str):
            a, b = self._hex(spec[0]), self._hex(spec[1])
            return self._side(a, b, f"{self._show(spec[0])}/{self._show(spec[1])}")
        self._need_numbering(spec)
        for left, right in self._splits(spec, "/"):
            a = self._index.by_label[left]
            if right.upper() in FLAT_DIRECTIONS + SIDEWAYS_DIRECTIONS:
                return hx.hexside(a, self.neighbor(a, right))
            if right in self._index.by_label:
                return self._side(a, self._index.by_label[right], spec)
            raise UsageError(
                f"hexside {spec!r}: {right!r} is neither a hex on {self.where} "
                f"nor a direction ({', '.join(self.directions)})"
            )
        raise UsageError(
            f"hexside {spec!r} must be two adjacent labels like '0312/0413' or a "
            f"label and a direction like '0312/{self.directions[0]}', with labels "
            f"on {self.where}{self._span()}"
        )

    def _side(self, a: Hex, b: Hex, spec: str) -> HexSide:
        if hx.distance(a, b) != 1:
            raise UsageError(f"hexside {spec!r}: the two hexes are not adjacent")
        return hx.hexside(a, b)

    def hexside_name(self, side: HexSide) -> str:
        """ "0312/0413": the labels of a hexside's two hexes, in label order."""
        return "/".join(self.label_of(h) or str(h) for h in side.hexes())

    def expand_range(self, spec: str) -> list[str]:
        """Labels of a rulebook range: "0623-1423" (along a row or a column, inclusive, in
        order), a single label, or a comma list of both."""
        self._need_numbering(spec)
        out: list[str] = []
        for part in spec.split(","):
            part = part.strip()
            if not part:
                raise UsageError(f"empty item in hex list {spec!r}")
            if part in self._index.by_label:
                out.append(part)
                continue
            cuts = self._splits(part, "-")
            if not cuts:
                raise UsageError(
                    f"{part!r} is neither a hex on {self.where} nor a range like 'A-B' of two such hexes{self._span()}"
                )
            if len(cuts) > 1:
                raise UsageError(
                    f"range {part!r} is ambiguous: it can be cut as " + " or ".join(f"{a!r}-{b!r}" for a, b in cuts)
                )
            out.extend(self._range(part, *cuts[0]))
        return out

    def _range(self, part: str, a: str, b: str) -> list[str]:
        (ca, ra), (cb, rb) = self.colrow(a), self.colrow(b)
        if ra == rb:
            steps = [(c, ra) for c in _between(ca, cb)]
        elif ca == cb:
            steps = [(ca, r) for r in _between(ra, rb)]
        else:
            raise UsageError(
                f"range {part!r} runs neither along a row nor along a column: {a!r} is column "
                f"{self.column_name(ca)} row {self.row_name(ra)}, {b!r} is column "
                f"{self.column_name(cb)} row {self.row_name(rb)}"
            )
        labels = []
        for cr in steps:
            h = self._index.at_colrow.get(cr)
            if h is None:
                n = self.grid.numbering
                assert n is not None
                missing = numbering_location_name(n, *cr)
                raise UsageError(f"range {part!r} passes {missing!r}, which is not on {self.where}")
            labels.append(self._index.label[h])
        return labels


def hex_radii(layout: HexLayout) -> tuple[float, float]:
    """(centre to side, centre to corner) in pixels: VASSAL's dy is two apothems, dx 1.5 radii."""
    return layout.grid.dy / 2.0, layout.grid.dx * 2.0 / 3.0


def _between(a: int, b: int) -> range:
    return range(a, b + 1) if a <= b else range(a, b - 1, -1)
