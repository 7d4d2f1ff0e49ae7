"""A map with its boards placed as VASSAL places them: names, centres and hex layouts.

`place_map(map_def)` places a map's default boards; `module_map(module, name, save=game)`
builds a `PlacedMap` with the boards a save selected. Boards alone: `board_location_name`
(model.grid), `on_board_center` and `board_hex_layouts`. Unlike VASSAL's own
getLocation (reproduced in `model.grid`), a label whose centre is off its board gets no
position here: rules must never see a made-up pixel.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from vassal_adj.errors import UsageError
from vassal_adj.model.geometry.grid import PlacedBoard, board_hex_center, find_board, map_location_name, place_boards
from vassal_adj.model.geometry.layout import HexLayout
from vassal_adj.model.geometry.snapping import Point
from vassal_adj.model.geometry.zones import find_zone
from vassal_adj.model.module import BoardDef, HexGridDef, MapDef, Module, ZonedGridDef

__all__ = [
    "BoardSelection",
    "PlacedMap",
    "board_hex_layouts",
    "describe_layout",
    "module_map",
    "on_board_center",
    "place_map",
]


class BoardSelection(Protocol):
    """Anything that knows which boards a game put on a map (e.g. a `SavedGame`)."""

    def board_selection(self, map_name_or_id: str) -> list[tuple[str, bool, int, int]] | None: ...


def board_hex_layouts(board: BoardDef, placed: PlacedBoard | None = None) -> list[HexLayout]:
    """Every hex grid of a board: its own, a zoned grid's background, then zone grids in order."""
    g = board.grid
    if isinstance(g, HexGridDef):
        return [HexLayout(g, board, placed=placed)]
    if not isinstance(g, ZonedGridDef):
        return []
    out = []
    if isinstance(g.background, HexGridDef):
        out.append(HexLayout(g.background, board, background=True, placed=placed))
    for zone in g.zones:
        if isinstance(zone.grid, HexGridDef) and not zone.use_parent_grid:
            out.append(HexLayout(zone.grid, board, zone=zone, placed=placed))
    return out


def on_board_center(board: BoardDef, label: str) -> Point | None:
    """The board pixel VASSAL gives a label, or None when it is not on the board."""
    p = board_hex_center(board, label)
    if p is None or not (0 <= p[0] < board.width and 0 <= p[1] < board.height):
        return None
    return p


@dataclass(frozen=True)
class PlacedMap:
    """A map and the boards on it, in VASSAL's layout (map pixels include the edge buffer)."""

    map: MapDef
    placed: tuple[PlacedBoard, ...]

    def __repr__(self) -> str:
        boards = ", ".join(f"{pb.board.name!r}@({pb.x},{pb.y})" for pb in self.placed)
        return f"PlacedMap({self.map.name!r}, boards=[{boards}])"

    @property
    def name(self) -> str:
        return self.map.name

    @property
    def boards(self) -> Mapping[str, PlacedBoard]:
        """The boards on this map by name, in selection order."""
        return {pb.board.name: pb for pb in self.placed}

    def board(self, name: str) -> PlacedBoard:
        """The placed board called `name`; UsageError listing the boards on the map."""
        found = self.boards.get(name)
        if found is None:
            have = ", ".join(repr(n) for n in self.boards) or "none"
            raise UsageError(f"board {name!r} is not on map {self.name!r} (boards: {have})")
        return found

    def board_at(self, x: float, y: float) -> PlacedBoard | None:
        """The first board whose rectangle holds the map pixel."""
        return find_board(self.placed, x, y)

    def location_name(self, x: float, y: float) -> str | None:
        """The label VASSAL shows for a map pixel; None off every board ("offboard")."""
        return map_location_name(self.placed, x, y)

    def hex_center(self, label: str, board: str | None = None) -> Point | None:
        """The map pixel of a label: on the named board, else the first board where the
        label's centre lies on the board; None when it is on no board."""
        for pb in self.placed:
            if board is not None and pb.board.name != board:
                continue
            local = on_board_center(pb.board, label)
            if local is not None:
                return pb.to_map(*local)
        return None

    def hex_layouts(self) -> list[HexLayout]:
        """Every hex grid of every placed board, in map coordinates, in board order."""
        return [lay for pb in self.placed for lay in board_hex_layouts(pb.board, pb)]

    def layout_at(self, x: float, y: float) -> HexLayout | None:
        """The hex grid that names a map pixel (a zone's grid, else the board's), if any."""
        pb = self.board_at(x, y)
        if pb is None:
            return None
        grid = pb.board.grid
        zone = find_zone(grid, *pb.to_local(x, y)) if isinstance(grid, ZonedGridDef) else None
        for lay in board_hex_layouts(pb.board, pb):
            if zone is not None and (lay.zone == zone or (zone.use_parent_grid and lay.background)):
                return lay
            if zone is None and lay.zone is None:
                return lay
        return None


def place_map(
    map_def: MapDef,
    selection: Sequence[tuple[str, bool, int, int]] | None = None,
) -> PlacedMap:
    """The map with the selected boards placed (None: its default layout, the BoardPicker's
    setup or its only board)."""
    return PlacedMap(map_def, place_boards(map_def, selection))


def module_map(module: Module, name: str, save: BoardSelection | None = None) -> PlacedMap:
    """A map of `module` (by name or id) with the boards `save` selected for it, placed as
    VASSAL places them; without a save, or when the save selects none, the default layout.

    `save` is anything with ``board_selection(map_name_or_id)``, e.g. a `SavedGame`.
    """
    found = module.map_by_id(name)
    if found is None:
        have = ", ".join(repr(n) for n in module.maps) or "none"
        raise UsageError(f"module {module.name!r} has no map {name!r} (maps: {have})")
    selection = None
    if save is not None:
        selection = save.board_selection(found.name)
        if selection is None:
            selection = save.board_selection(found.id)
    return place_map(found, selection)


def _runs(delta: int, axis: str) -> str:
    if axis == "x":
        return "left to right" if delta > 0 else "right to left"
    return "top to bottom" if delta > 0 else "bottom to top"


def describe_layout(lay: HexLayout) -> dict[str, Any]:
    """What a user needs to type this grid's labels, as plain data (board coordinates)."""
    g = lay.grid
    out: dict[str, Any] = {
        "board": lay.board.name,
        "zone": None if lay.zone is None else lay.zone.name,
        "background": lay.background,
        "sideways": g.sideways,
        "hex_tops": "pointy" if g.sideways else "flat",
        "directions": list(lay.directions),
        "dx": g.dx,
        "dy": g.dy,
        "x0": g.x0,
        "y0": g.y0,
        "hexes": len(lay.hexes()),
        "numbered": lay.numbered,
    }
    n = g.numbering
    labels = lay.labels()
    if n is None or not labels:
        return out
    hexes = [h for h in lay.hexes() if lay.label_of(h) is not None]
    cr = {h: lay.colrow(h) for h in hexes}
    col_axis, row_axis = ("y", "x") if g.sideways else ("x", "y")
    pick = {"x": 0, "y": 1}

    def part(k: int, kind: str, leading: int, name: Callable[[int], str], axis: str) -> dict[str, Any]:
        lo = min(hexes, key=lambda h: cr[h][k])
        hi = max(hexes, key=lambda h: cr[h][k])
        delta = lay.center(hi)[pick[axis]] - lay.center(lo)[pick[axis]]
        return {
            "type": "letters" if kind == "A" else "numbers",
            "first": name(cr[lo][k]),
            "last": name(cr[hi][k]),
            "count": cr[hi][k] - cr[lo][k] + 1,
            "digits": None if kind == "A" else leading + 1,
            "runs": _runs(delta, axis),
        }

    out.update(
        {
            "first_label": labels[0],
            "last_label": labels[-1],
            "label_order": "column then row" if n.first == "H" else "row then column",
            "separator": n.sep,
            "location_format": n.location_format,
            "zone_format": None if lay.zone is None else lay.zone.location_format,
            "columns": part(0, n.h_type, n.h_leading, lay.column_name, col_axis),
            "rows": part(1, n.v_type, n.v_leading, lay.row_name, row_axis),
            "descending": {
                "columns": n.v_descend if g.sideways else n.h_descend,
                "rows": n.h_descend if g.sideways else n.v_descend,
            },
            "stagger": n.stagger,
            "oblique": n.oblique,
            "shift": None,
        }
    )
    # The half-hex shift between neighbouring columns, as seen on the board.
    at = {cr[h]: h for h in hexes}
    for (c, r), h in sorted(at.items()):
        other = at.get((c + 1, r))
        if other is not None:
            d = lay.center(other)[pick[row_axis]] - lay.center(h)[pick[row_axis]]
            side = (
                ("lower" if d > 0 else "higher") if row_axis == "y" else ("further right" if d > 0 else "further left")
            )
            if n.oblique:  # the slant moves every next column the same way: rows run aslant
                out["shift"] = f"for the same row number, each column sits half a hex {side} than the one before it"
            else:
                out["shift"] = (
                    f"for the same row number, column {lay.column_name(c + 1)} sits "
                    f"half a hex {side} than column {lay.column_name(c)}, and so on alternately"
                )
            break
    return out
