"""The Terrain extension's `terrainMaps/<board>.txt` entries (VASSAL-FORMATS.md 11.2), as records.

One record a line, a SequenceEncoder list with delimiter `,` (a comma in a name is `\\,`);
line ends CRLF or LF. Every record keeps its line, so whatever the import cannot use is
reported with its place. A line that is not a record at all (an unknown first field, too
few fields, an index that is not an integer) is a FormatError naming the entry and the line.
"""

from __future__ import annotations

from vassal_adj.errors import FormatError, Where
from vassal_adj.model.terrain_ext import TerrainRecord
from vassal_adj.parse.tokens import parse_int, split

__all__ = ["ENTRY_DIR", "board_of_entry", "entry_of_board", "parse_terrain_map"]

ENTRY_DIR = "terrainMaps/"
# Record letter -> its fields after the letter (the usage shown in messages).
_FIELDS = {
    "h": ("column", "row", "terrain"),
    "e": ("column1", "row1", "column2", "row2", "terrain"),
    "l": ("column1", "row1", "column2", "row2", "terrain"),
    "a": ("column", "row", "terrain", "value"),
}


def entry_of_board(board: str) -> str:
    """The archive entry that holds a board's terrain: `terrainMaps/<board name>.txt`."""
    return f"{ENTRY_DIR}{board}.txt"


def board_of_entry(entry: str) -> str | None:
    """The board name of a terrainMaps entry, None for any other entry."""
    if entry.startswith(ENTRY_DIR) and entry.endswith(".txt") and "/" not in entry[len(ENTRY_DIR) :]:
        return entry[len(ENTRY_DIR) : -len(".txt")]
    return None


def _record(fields: list[str], where: Where) -> TerrainRecord:
    kind = fields[0]
    usage = _FIELDS.get(kind)
    if usage is None:
        raise FormatError(f"unknown record {kind!r}: a terrain map record starts with h, e, l or a", where)
    given = fields[1:]
    numbers = sum(1 for name in usage if name.startswith(("column", "row")))
    if len(given) < numbers:
        raise FormatError(f"record {kind!r} needs {','.join((kind, *usage))}, got {','.join(fields)!r}", where)
    ints = []
    for name, text in zip(usage[:numbers], given[:numbers], strict=True):
        value = parse_int(text)
        if value is None:
            raise FormatError(f"record {kind!r}: {name} is not an integer: {text!r}", where)
        ints.append(value)
    # Missing trailing fields take the empty default, as VASSAL's typed readers do.
    name, value = (given[numbers:] + ["", ""])[:2]
    b = (ints[2], ints[3]) if numbers == 4 else None
    return TerrainRecord(
        line=where.line or 0, kind=kind, a=(ints[0], ints[1]), name=name, b=b, value=value if kind == "a" else ""
    )


def parse_terrain_map(data: bytes, where: Where) -> tuple[list[TerrainRecord], list[tuple[int, str]]]:
    """The records of one terrainMaps entry, and (line, text) of fields past a record's end.

    `where` names the module and the entry; errors add the line. Blank lines are skipped.
    """
    try:
        text = data.decode("utf-8").removeprefix("\ufeff")
    except UnicodeDecodeError as e:
        raise FormatError(f"not UTF-8 text: {e.reason} at byte {e.start}", where) from None
    records: list[TerrainRecord] = []
    extra: list[tuple[int, str]] = []
    for n, raw in enumerate(text.split("\n"), 1):
        line = raw.removesuffix("\r")
        if not line.strip():
            continue
        fields = split(line, ",")
        rec = _record(fields, where.but(line=n))
        records.append(rec)
        if len(fields) > 1 + len(_FIELDS[rec.kind]):
            extra.append((n, ",".join(fields[1 + len(_FIELDS[rec.kind]) :])))
    return records, extra
