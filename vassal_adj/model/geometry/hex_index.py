"""Every hex of a hex layout, indexed: label order, labels both ways, numbered (column, row).

`layout` knows the geometry (which hex is on the map, what VASSAL names it); this
module only finds the hexes to ask about and files the answers. Each hex is asked once, so
reading a terrain file that names every hex of the board costs one naming per hex.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass

from vassal_adj.model.geometry.hexes import Hex
from vassal_adj.model.module import HexGridDef

__all__ = ["HexIndex", "IndexRow", "candidates", "index_hexes"]

ColRow = tuple[int, int]
# A numbered hex's (column, row) and its label (None when VASSAL's name at its centre
# belongs to another hex: an inverse quirk of the numbering).
Numbered = Callable[[Hex], tuple[ColRow, str | None]]
# What `numbered` answered for one hex, as plain values: raw column and row, numbered column and
# row, label. A cache outside model/ keeps them between runs (layout_cache.py).
IndexRow = tuple[int, int, int, int, str | None]


@dataclass(frozen=True, eq=False)
class HexIndex:
    """The hexes of a layout on its map, with their labels both ways and numbered (column, row)."""

    hexes: tuple[Hex, ...]  # on the map, in label order
    by_label: dict[str, Hex]
    label: dict[Hex, str]
    colrow: dict[Hex, ColRow]  # numbered (column, row), offsets not included
    at_colrow: dict[ColRow, Hex]  # the labelled hexes only
    rows: tuple[IndexRow, ...] = ()  # the hexes in the order found, with what `numbered` answered


def candidates(grid: HexGridDef, box: tuple[float, float, float, float]) -> Iterator[Hex]:
    """Every hex whose centre may lie in the box (x, y, width, height), with a margin of a
    column and two rows: the caller keeps those it finds on the map."""
    bx, by, bw, bh = box
    umin, umax, vmin, vmax = (by, by + bh, bx, bx + bw) if grid.sideways else (bx, bx + bw, by, by + bh)
    for i in range(math.floor((umin - grid.x0) / grid.dx) - 1, math.ceil((umax - grid.x0) / grid.dx) + 2):
        for j in range(math.floor((vmin - grid.y0) / grid.dy) - 2, math.ceil((vmax - grid.y0) / grid.dy) + 2):
            yield Hex.from_raw(i, j)


def index_hexes(
    on_map: Iterable[Hex], numbered: Numbered | None, rows_first: bool, known: tuple[IndexRow, ...] | None = None
) -> HexIndex:
    """The index of the hexes on the map; `numbered` is None for a grid without numbering
    (raw order, no labels). `rows_first`: the numbering writes the row first ("V").

    `known`: the `rows` of an index made before of the same grid; they stand for `on_map` and
    `numbered`, which are not asked, and give the same index."""
    if numbered is None:
        return HexIndex(tuple(sorted(on_map, key=Hex.raw)), {}, {}, {}, {})
    # A `Hex` hashes in Python code, so each hex is hashed only where it is filed (once a dictionary),
    # never looked up again: a board has about 1,000 hexes, and a cached index is built every run.
    answers = (
        {Hex.from_raw(i, j): ((column, row), name) for i, j, column, row, name in known}
        if known is not None
        else {h: numbered(h) for h in on_map}
    )
    colrow = {h: cr for h, (cr, _) in answers.items()}
    label = {h: name for h, (_, name) in answers.items() if name is not None}
    if known is not None and len(known) == len(answers):
        rows = known
    else:
        rows = tuple((*h.raw(), *cr, name) for h, (cr, name) in answers.items())
    order = sorted(answers.items(), key=(lambda a: a[1][0][::-1]) if rows_first else (lambda a: a[1][0]))
    return HexIndex(
        tuple(h for h, _ in order),
        {v: k for k, v in label.items()},
        label,
        colrow,
        {cr: h for h, (cr, name) in order if name is not None},
        rows,
    )
