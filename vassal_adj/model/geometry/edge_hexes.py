"""Part hexes at a board's edge: VASSAL names a point by the hex whose naming cell holds it (spec
8.3: rounding formulas, not the hex polygon), so the strip along a board's (or zone's) edge gets
the labels of hexes whose centres lie off the board. `where` shows them; a `HexLayout` counts
as on the map only the hexes whose centre is on it, so they are found here.
"""

from __future__ import annotations

import math

from vassal_adj.model.geometry.grid import board_location_name
from vassal_adj.model.geometry.hexes import Hex
from vassal_adj.model.geometry.layout import HexLayout

__all__ = ["edge_hex"]


def edge_hex(lay: HexLayout, label: str) -> Hex | None:
    """The hex of `label` when its centre lies off the map but VASSAL names some point of the
    board `label` (a part hex at the edge); None for any other label.

    The naming cell of a hex spans half a column width and half a row height on each side of
    its centre (8.3), so only the board points within that box can bear its name; each is
    named as VASSAL names it (zones in order, 9).
    """
    h = lay.hex_of(label)
    if h is None or lay.on_map(h):
        return None
    g, board = lay.grid, lay.board
    cx, cy = lay.center(h, off_map=True)
    if lay.placed is not None:
        cx, cy = lay.placed.to_local(cx, cy)
    half_x, half_y = (g.dy / 2, g.dx / 2) if g.sideways else (g.dx / 2, g.dy / 2)
    # One pixel more on each side: a centre is truncated to whole pixels.
    xs = range(max(0, math.floor(cx - half_x) - 1), min(board.width, math.ceil(cx + half_x) + 2))
    ys = range(max(0, math.floor(cy - half_y) - 1), min(board.height, math.ceil(cy + half_y) + 2))
    for x in xs:
        for y in ys:
            if board_location_name(board, x, y) == label:
                return h
    return None
