"""VASSAL grid geometry: pixel <-> location label, snapping, boards placed on a map.

Reproduces VASSAL exactly (VASSAL-FORMATS.md sections 8 and 9): `HexGrid`,
`HexGridNumbering` (and the 3.8 oblique variant), `SquareGrid`, `RegionGrid`, `ZonedGrid`
with its zones, and the board layout of a `Map`. Pure functions of the frozen records of
`model.module`; coordinates are board-local unless a function says "map".

Names come from VASSAL's rounding formulas in the grid frame (not from the hexagons), so
near hex borders a point's name and its snapped hex can differ, as in VASSAL.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from vassal_adj.model.geometry.numbering import (
    center_of,
    center_of_column_row,
    column_row,
    numbering_location_name,
    parse_grid_location,
    raw_column_row,
)
from vassal_adj.model.geometry.snapping import Point, nearest_region, snap
from vassal_adj.model.geometry.zones import find_zone, polygon_contains, zone_center, zone_location_name, zone_size
from vassal_adj.model.module import (
    BoardDef,
    GridDef,
    HexGridDef,
    MapDef,
    RegionGridDef,
    SquareGridDef,
    ZoneDef,
    ZonedGridDef,
)
from vassal_adj.parse.tokens import parse_int, split

__all__ = [
    "raw_column_row",
    "center_of",
    "column_row",
    "center_of_column_row",
    "hex_location_name",
    "hex_center",
    "location_name",
    "location_center",
    "snap",
    "region_name",
    "zone_location_name",
    "zone_center",
    "board_location_name",
    "board_hex_center",
    "board_snap",
    "PlacedBoard",
    "parse_board_selection",
    "place_boards",
    "find_board",
    "map_location_name",
    "map_hex_center",
    "map_snap",
]


# =======================================================================================
# Names and their inverse for one grid


def hex_location_name(grid: GridDef | None, width: int, height: int, x: float, y: float) -> str | None:
    """The label VASSAL's grid gives a board-local point; None when it has no name.

    `width`/`height` are the grid container's size (the board, or the zone's bounding box
    for a grid inside a zone); they matter only for descending numbering. Works for every
    grid kind (square, region and zoned grids too).
    """
    if grid is None:
        return None
    if isinstance(grid, (HexGridDef, SquareGridDef)):
        if grid.numbering is None:
            return None
        col, row = column_row(grid, width, height, x, y)
        return numbering_location_name(grid.numbering, col, row)
    if isinstance(grid, RegionGridDef):
        return region_name(grid, x, y)
    if isinstance(grid, ZonedGridDef):
        return _zoned_location_name(grid, width, height, x, y)
    return None


def hex_center(grid: GridDef | None, width: int, height: int, label: str) -> Point | None:
    """The board-local point VASSAL's grid gives a label (getLocation); None if it can't.

    No bounds check, like VASSAL: a well-formed label off the board still has a centre.
    """
    if grid is None:
        return None
    if isinstance(grid, (HexGridDef, SquareGridDef)):
        if grid.numbering is None:
            return None
        parsed = parse_grid_location(grid.numbering, label)
        if parsed is None:
            return None
        return center_of_column_row(grid, width, height, *parsed)
    if isinstance(grid, RegionGridDef):
        for region in grid.regions:
            if region.name == label:
                return region.x, region.y
        return None
    if isinstance(grid, ZonedGridDef):
        return _zoned_center(grid, width, height, label)
    return None


location_name = hex_location_name
location_center = hex_center


def region_name(grid: RegionGridDef, x: float, y: float) -> str | None:
    """The name of the region whose origin is nearest (first one on a tie)."""
    best = nearest_region(grid, x, y)
    return None if best is None else best.name


# =======================================================================================
# Zones


def _zone_grid(zoned: ZonedGridDef, zone: ZoneDef, width: int, height: int) -> tuple[GridDef | None, int, int]:
    """(grid, container width, container height) a zone names and snaps with."""
    if zone.use_parent_grid:
        return zoned.background, width, height
    w, h = zone_size(zone)
    return zone.grid, w, h


def _zoned_location_name(zoned: ZonedGridDef, width: int, height: int, x: float, y: float) -> str | None:
    zone = find_zone(zoned, x, y)
    if zone is not None:
        grid, w, h = _zone_grid(zoned, zone, width, height)
        inner = hex_location_name(grid, w, h, x, y) if grid is not None else None
        return zone_location_name(zone, inner)
    if zoned.background is not None:
        return hex_location_name(zoned.background, width, height, x, y)
    return None


def _zoned_center(zoned: ZonedGridDef, width: int, height: int, label: str) -> Point | None:
    """VASSAL's ZonedGrid.getLocation: each zone in turn (centre inside it), then the background."""
    for zone in zoned.zones:
        grid, w, h = _zone_grid(zoned, zone, width, height)
        resolve = None if grid is None else (lambda s, g=grid, w=w, h=h: hex_center(g, w, h, s))
        p = zone_center(zone, label, resolve)
        if p is not None and polygon_contains(zone.path, *p):
            return p
    if zoned.background is not None:
        return hex_center(zoned.background, width, height, label)
    return None


# =======================================================================================
# Boards


def board_location_name(board: BoardDef, x: float, y: float) -> str | None:
    """The name VASSAL's Board gives a board-local point (through its grid and zones)."""
    return hex_location_name(board.grid, board.width, board.height, x, y)


def board_hex_center(board: BoardDef, label: str) -> Point | None:
    """The board-local point for a label (Board.getGrid().getLocation), or None."""
    return hex_center(board.grid, board.width, board.height, label)


def board_snap(board: BoardDef, x: float, y: float, *, legacy: bool = False) -> Point:
    return snap(board.grid, x, y, legacy=legacy)


# =======================================================================================
# Maps


@dataclass(frozen=True)
class PlacedBoard:
    """A board as placed on a map: (column, row) in the layout, origin (x, y) in map pixels."""

    board: BoardDef
    column: int
    row: int
    reversed: bool
    x: int
    y: int

    @property
    def width(self) -> int:
        return self.board.width

    @property
    def height(self) -> int:
        return self.board.height

    def contains(self, x: float, y: float) -> bool:
        return self.x <= x < self.x + self.board.width and self.y <= y < self.y + self.board.height

    def to_local(self, x: float, y: float) -> tuple[float, float]:
        lx, ly = x - self.x, y - self.y
        if self.reversed:
            lx, ly = self.board.width - lx, self.board.height - ly
        return lx, ly

    def to_map(self, lx: float, ly: float) -> Point:
        if self.reversed:
            lx, ly = self.board.width - lx, self.board.height - ly
        return int(lx) + self.x, int(ly) + self.y


def parse_board_selection(text: str) -> list[tuple[str, bool, int, int]]:
    """The (board, reversed, column, row) triples of a BoardPicker text (section 5.5)."""
    fields = split(text, "\t")[1:]
    out = []
    for k in range(0, len(fields) - 2, 3):
        name_parts = split(fields[k], "/")
        rev = len(name_parts) > 1 and name_parts[1] == "rev"
        col, row = parse_int(fields[k + 1]), parse_int(fields[k + 2])
        if col is not None and row is not None:
            out.append((name_parts[0], rev, col, row))
    return out


def place_boards(
    map_def: MapDef, selection: Sequence[tuple[str, bool, int, int]] | None = None
) -> tuple[PlacedBoard, ...]:
    """Place the selected boards as VASSAL's Map.setBoardBoundaries does (section 8.1).

    `selection` holds (board name, reversed, column, row) as a save's BoardPicker command
    gives them. None -> the map's default setup; without one a single-board map gets its
    board at (0, 0) and a map with several boards gets none (VASSAL would ask the user).
    The reversed flag is honoured only for reversible boards. A board the map lacks is left
    out, as VASSAL's BoardPicker.decode leaves it (an old save made with another version of
    the module): the others are placed without it (`parse.places.missing_boards` says so).
    """
    if selection is None:
        if map_def.default_setup:
            selection = parse_board_selection(map_def.default_setup)
        elif len(map_def.boards) == 1:
            only = next(iter(map_def.boards))
            selection = [(only, False, 0, 0)]
        else:
            selection = []
    chosen = []
    for name, rev, col, row in selection:
        board = map_def.boards.get(name)
        if board is not None:
            chosen.append((board, bool(rev and board.reversible), col, row))
    widths: dict[tuple[int, int], int] = {}
    heights: dict[tuple[int, int], int] = {}
    for board, _, col, row in chosen:
        widths[(col, row)] = board.width
        heights[(col, row)] = board.height
    placed = []
    for board, rev, col, row in chosen:
        # VASSAL adds the width of every column 0..col-1 of the row; only chosen boards have
        # one, so summing over them is the same and costs nothing for a column of 10^9.
        x = map_def.edge_width + sum(w for (c, r), w in widths.items() if r == row and 0 <= c < col)
        y = map_def.edge_height + sum(h for (c, r), h in heights.items() if c == col and 0 <= r < row)
        placed.append(PlacedBoard(board, col, row, rev, x, y))
    return tuple(placed)


def find_board(placed: Sequence[PlacedBoard], x: float, y: float) -> PlacedBoard | None:
    """The first placed board whose rectangle contains the map point."""
    for pb in placed:
        if pb.contains(x, y):
            return pb
    return None


def map_location_name(placed: Sequence[PlacedBoard], x: float, y: float) -> str | None:
    """The name of a map point; None off every board (VASSAL then shows "offboard")."""
    pb = find_board(placed, x, y)
    if pb is None:
        return None
    return board_location_name(pb.board, *pb.to_local(x, y))


def map_hex_center(placed: Sequence[PlacedBoard], label: str, board: str | None = None) -> Point | None:
    """The map point for a label: on the named board, else on the first board that has it."""
    for pb in placed:
        if board is not None and pb.board.name != board:
            continue
        local = board_hex_center(pb.board, label)
        if local is not None:
            return pb.to_map(*local)
    return None


def map_snap(placed: Sequence[PlacedBoard], x: float, y: float, *, legacy: bool = False) -> Point:
    """VASSAL's Map.snapTo: snap on the board under the point, kept on that board."""
    pb = find_board(placed, x, y)
    if pb is None:
        return int(x), int(y)
    sx, sy = pb.to_map(*board_snap(pb.board, *pb.to_local(x, y), legacy=legacy))
    if find_board(placed, sx, sy) is None:
        lx, ly = sx - pb.x, sy - pb.y
        if lx == pb.width:
            lx = pb.width - 1
        elif lx == -1:
            lx = 0
        if ly == pb.height:
            ly = pb.height - 1
        elif ly == -1:
            ly = 0
        sx, sy = lx + pb.x, ly + pb.y
    return sx, sy
