"""Keep a board's hex index between runs (issue 10, startup time): user_cache.py.

Indexing a board asks VASSAL's naming formulas about every hex on it, forwards and back
(model/geometry/layout.py): about 25 ms for the example board (modules/), on every command that labels a
piece. The answers depend only on the grid, the board and the zone, and on the code that gives
them: an entry is keyed by the text of all three (their reprs, which show every field) and by the
size and modification time of that code's files, and holds the index's rows (`HexIndex.rows`): a
layout given those rows builds the very index it would have built (hex_index.index_hexes). Within
a process the index itself is kept (held.py) and given to every layout of that grid.
"""

from __future__ import annotations

import marshal
import os
import zlib
from dataclasses import replace

from vassal_adj.held import held
from vassal_adj.model.geometry.hex_index import HexIndex, IndexRow
from vassal_adj.model.geometry.layout import HexLayout
from vassal_adj.user_cache import cache_dir, code_stamp, read_entry, tag, write_entry

__all__ = ["with_cached_index"]

_MODEL = os.path.join(os.path.dirname(os.path.abspath(__file__)), "model")
# The code the index comes from: the geometry, the grid definitions, VASSAL's escapes (numbering).
_CODE = (
    os.path.join(_MODEL, "geometry"),
    os.path.join(_MODEL, "module.py"),
    os.path.join(_MODEL, "..", "parse", "tokens.py"),
)


def _rows(value: object) -> tuple[IndexRow, ...] | None:
    """`value` when it is index rows as written, else None (a corrupt entry)."""
    if not isinstance(value, tuple):
        return None
    for row in value:
        if not (
            isinstance(row, tuple)
            and len(row) == 5
            and all(type(v) is int for v in row[:4])
            and (row[4] is None or type(row[4]) is str)
        ):
            return None
    return value


def with_cached_index(lay: HexLayout) -> HexLayout:
    """`lay` with its index: the one this process made for the same grid, board and zone (held.py),
    else from the cache's rows, else worked out now and its rows written to the cache."""
    if not lay.numbered or lay.index is not None:
        return lay
    grid = f"{lay.grid!r}\n{lay.board!r}\n{lay.zone!r}"
    key = f"{code_stamp(_CODE)}\n{grid}"
    name = f"hex-index-{tag()}-{zlib.crc32(grid.encode()):08x}.marshal"  # new code: the same file, rewritten
    return replace(lay, index=held(name, key, lambda: _index(lay, name, key)))


def _index(lay: HexLayout, name: str, key: str) -> HexIndex:
    if cache_dir() is None:
        return lay.hex_index()
    data = read_entry(name)
    if data is not None:
        try:
            stored, rows = marshal.loads(data)
        except (EOFError, ValueError, TypeError):
            stored, rows = None, None
        if stored == key and (rows := _rows(rows)) is not None:
            return lay.hex_index(rows)
    index = lay.hex_index()
    write_entry(name, marshal.dumps((key, index.rows)))
    return index
