"""VASSAL grid numbering: location formats, coordinate names and their inverse.

Exactly as VASSAL's `RegularGridNumbering` / `HexGridNumbering` / `SquareGridNumbering`
(VASSAL-FORMATS.md sections 8.3 and 8.5): names are built from rounding formulas in the
grid frame, never from the hexagon shapes. Pure code; `model.grid` does the geometry.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Mapping
from functools import lru_cache
from typing import Any

from vassal_adj.model.geometry.square_numbering import square_center_of_column_row, square_column_row
from vassal_adj.model.module import HexGridDef, HexNumbering, SquareGridDef

# The SequenceEncoder is pure text handling shared by all layers (see test_layering).
from vassal_adj.parse.tokens import split

__all__ = [
    "center_of",
    "center_of_column_row",
    "column_row",
    "coordinate_name",
    "expand_format",
    "format_pattern",
    "grid_location",
    "hex_center_of_column_row",
    "hex_column_row",
    "hex_max_rows_columns",
    "hex_plan",
    "java_round",
    "numbering_location_name",
    "parse_coordinate",
    "parse_grid_location",
    "raw_column_row",
    "square_center_of_column_row",
    "square_column_row",
]

_JAVA_WS = "".join(map(chr, range(33)))


def java_round(v: float) -> int:
    """Java ``Math.round(double)``: nearest integer, ties toward positive infinity, exactly."""
    f = math.floor(v)
    return int(f) + (1 if v - f >= 0.5 else 0)


# Caches keyed by identity: hashing a frozen record walks all its fields, costing more than
# the lookup saves. An entry holds its key object, so the id is not reused while it lives.
_IdentityCache = dict[int, tuple[object, Any]]


def _identity_cached(cache: _IdentityCache, obj: object, build: Callable[[], Any]) -> Any:
    entry = cache.get(id(obj))
    if entry is None or entry[0] is not obj:
        if len(cache) > 1024:
            cache.clear()
        entry = cache[id(obj)] = (obj, build())
    return entry[1]


_NAME_MEMOS: _IdentityCache = {}  # HexNumbering -> {(column, row): name}
_LABEL_PARSERS: _IdentityCache = {}  # HexNumbering -> (compiled pattern, column group, row group) or None
_HEX_PLANS: _IdentityCache = {}  # HexGridDef -> {(width, height): plan}


# ---------------------------------------------------------------------------------------
# Format strings ($prop$)


@lru_cache(maxsize=4096)  # formats are few and reused: parse each once
def _format_tokens(fmt: str) -> tuple[tuple[str, bool], ...]:
    """(token, is_property) pairs of a `$` format; a last property-position token is literal."""
    tokens = split(fmt, "$")
    out: list[tuple[str, bool]] = []
    for k, tok in enumerate(tokens):
        if not tok:
            continue
        is_prop = k % 2 == 1 and k < len(tokens) - 1
        out.append((tok, is_prop))
    return tuple(out)


_BSH_TERM = re.compile(r'\s*(?:"((?:[^"\\]|\\.)*)"|([A-Za-z_][A-Za-z0-9_]*)|(-?[0-9]+))\s*')


def _beanshell(body: str, lookup: Callable[[str], str]) -> str | None:
    """A tiny subset of BeanShell: terms (strings, property names, integers) joined by `+`."""
    out, pos = [], 0
    while True:
        m = _BSH_TERM.match(body, pos)
        if m is None:
            return None
        if m.group(1) is not None:
            out.append(re.sub(r"\\(.)", r"\1", m.group(1)))
        elif m.group(2) is not None:
            out.append(lookup(m.group(2)))
        else:
            out.append(m.group(3))
        pos = m.end()
        if pos == len(body):
            return "".join(out)
        if body[pos] != "+":
            return None
        pos += 1


def expand_format(fmt: str, props: Mapping[str, str | None], unknown_as_name: bool = False) -> str:
    """Expand a VASSAL format string with `props`.

    Unknown properties (and properties whose value is None) give nothing, or their bare
    name when `unknown_as_name` (zone formats). A blank format gives "", a plain integer
    its value; a `{...}` BeanShell expression is evaluated when it is only string literals
    and property names joined with `+`, else the format text is returned unchanged.
    """

    def lookup(name: str) -> str:
        value = props.get(name)
        if value is None:
            return name if unknown_as_name else ""
        return value

    stripped = fmt.strip(_JAVA_WS)
    if not stripped:
        return ""
    if re.fullmatch(r"-?[0-9]+", stripped) and len(stripped) < 11:
        return str(int(stripped))
    if stripped.startswith("{") and stripped.endswith("}"):
        result = _beanshell(stripped[1:-1], lookup)
        return stripped if result is None else result
    return "".join(lookup(tok) if is_prop else tok for tok, is_prop in _format_tokens(fmt))


def format_pattern(
    fmt: str, groups: Mapping[str, str], literals: Mapping[str, str] | None = None
) -> tuple[str, list[str]] | None:
    """The regular expression VASSAL builds from a format to parse a location back.

    `groups` maps property names to regex fragments (each may hold several groups, named
    in the returned list by the property name repeated); `literals` maps property names to
    literal text. Other properties add nothing. None when the pattern would be empty.
    """
    literals = literals or {}
    regex, names = [], []
    for tok, is_prop in _format_tokens(fmt):
        if not is_prop:
            regex.append(re.escape(tok))
        elif tok in literals:
            regex.append(re.escape(literals[tok]))
        elif tok in groups:
            frag = groups[tok]
            regex.append(frag)
            names.extend([tok] * re.compile(frag).groups)
    if not regex:
        return None
    return "".join(regex), names


# ---------------------------------------------------------------------------------------
# One coordinate


def coordinate_name(value: int, kind: str, leading: int) -> str:
    """The text of one coordinate (value already includes the offset)."""
    sign = "-" if value < 0 else ""
    v = abs(value)
    if kind == "A":
        return sign + "ABCDEFGHIJKLMNOPQRSTUVWXYZ"[v % 26] * (v // 26 + 1)
    zeros = ""
    for lead in range(leading, 0, -1):
        if v < 10**lead:
            zeros += "0"
        else:
            break
    return sign + zeros + str(v)


def _coordinate_regex(kind: str, leading: int) -> str:
    if kind == "A":
        return "(-?(?:" + "|".join(f"{c}+" for c in "ABCDEFGHIJKLMNOPQRSTUVWXYZ") + "))"
    return f"(-?[0-9]{{{max(leading, 0) + 1},}})"


def parse_coordinate(text: str, kind: str) -> int:
    """Inverse of `coordinate_name` (the offset is still included)."""
    sign = -1 if text.startswith("-") else 1
    body = text.lstrip("-")
    if kind == "A":
        return sign * ((len(body) - 1) * 26 + ord(body[0]) - ord("A"))
    return sign * int(body)


def grid_location(num: HexNumbering, column: int, row: int) -> str:
    """gridLocation of a numbered (column, row) (offsets not yet added)."""
    col_name = coordinate_name(column + num.h_off, num.h_type, num.h_leading)
    row_name = coordinate_name(row + num.v_off, num.v_type, num.v_leading)
    return col_name + num.sep + row_name if num.first == "H" else row_name + num.sep + col_name


def numbering_location_name(num: HexNumbering, column: int, row: int) -> str:
    """The grid's locationFormat expanded for a numbered (column, row)."""
    memo = _identity_cached(_NAME_MEMOS, num, dict)
    name = memo.get((column, row))
    if name is None:
        props = {
            "gridLocation": grid_location(num, column, row),
            "row": coordinate_name(row + num.v_off, num.v_type, num.v_leading),
            "column": coordinate_name(column + num.h_off, num.h_type, num.h_leading),
        }
        name = expand_format(num.location_format, props)
        if len(memo) < 65536:  # a board has a few thousand names; stray points stay unmemoised
            memo[(column, row)] = name
    return name


def parse_grid_location(num: HexNumbering, label: str) -> tuple[int, int] | None:
    """Numbered (column, row) of a label formatted with `num`, or None if it does not parse."""
    parser = _identity_cached(_LABEL_PARSERS, num, lambda: _label_parser(num))
    m = parser and parser[0].fullmatch(label)
    if not m:
        return None
    return (
        parse_coordinate(m.group(parser[1]), num.h_type) - num.h_off,
        parse_coordinate(m.group(parser[2]), num.v_type) - num.v_off,
    )


def _label_parser(num: HexNumbering) -> tuple[re.Pattern[str], int, int] | None:
    """VASSAL's pattern for the location format and its first column and row groups (or None)."""
    col_re = _coordinate_regex(num.h_type, num.h_leading)
    row_re = _coordinate_regex(num.v_type, num.v_leading)
    sep = re.escape(num.sep)
    grid_re = col_re + sep + row_re if num.first == "H" else row_re + sep + col_re
    order = ("column", "row") if num.first == "H" else ("row", "column")
    built = format_pattern(num.location_format, {"gridLocation": grid_re, "row": row_re, "column": col_re})
    if built is None:
        return None
    regex, names = built
    groups: dict[str, int] = {}
    grid_index = 0
    for k, name in enumerate(names):
        if name == "gridLocation":
            name = order[grid_index % 2]
            grid_index += 1
        groups.setdefault(name, k + 1)
    if "column" not in groups or "row" not in groups:
        return None
    return re.compile(regex), groups["column"], groups["row"]


# ---------------------------------------------------------------------------------------
# Hex numbering


def hex_max_rows_columns(grid: HexGridDef, width: int, height: int) -> tuple[int, int]:
    """VASSAL's getMaxRows/getMaxColumns: floor(H/dx + 0.5), floor(W/dy + 0.5) (sic)."""
    return math.floor(height / grid.dx + 0.5), math.floor(width / grid.dy + 0.5)


HexPlan = tuple[bool, int, float, int, float, float, int | None, int | None, int, int]


def hex_plan(grid: HexGridDef, width: int, height: int) -> HexPlan:
    """What naming on a hex grid needs, once per grid and container size (cached): (sideways,
    x0, dx, y0, dy, dy/2, column flipped from (None: kept), row flipped from, stagger shift
    of odd raw columns (0: none), oblique slant (1 stagger, -1 not, 0 none))."""
    plans = _identity_cached(_HEX_PLANS, grid, dict)
    plan: HexPlan | None = plans.get((width, height))
    if plan is not None:
        return plan
    num = grid.numbering or HexNumbering()
    max_rows, max_cols = hex_max_rows_columns(grid, width, height)
    rows_first = num.v_descend if grid.sideways else num.h_descend  # flips the column
    cols_second = num.h_descend if grid.sideways else num.v_descend  # flips the row
    flip_col = (max_rows if grid.sideways else max_cols) if rows_first else None
    flip_row = (max_cols if grid.sideways else max_rows) if cols_second else None
    shift = (-1 if cols_second else 1) if num.stagger else 0  # odd columns: row -1 if descending
    slant = (1 if num.stagger else -1) if num.oblique else 0
    plan = plans[(width, height)] = (
        grid.sideways,
        grid.x0,
        grid.dx,
        grid.y0,
        grid.dy,
        grid.dy / 2,
        flip_col,
        flip_row,
        shift,
        slant,
    )
    return plan


def _hex_raw(plan: HexPlan, x: float, y: float) -> tuple[int, int]:
    sideways, x0, dx, y0, dy, half_dy = plan[:6]
    u, v = (y, x) if sideways else (x, y)
    a = (u - x0) / dx
    raw_col = math.floor(a + 0.5)
    if java_round(a) % 2 == 0:  # normally raw_col, but VASSAL rounds separately
        return raw_col, java_round((v - y0) / dy)
    return raw_col, java_round(((v - y0) - half_dy) / dy)


def _hex_numbered(plan: HexPlan, raw_col: int, raw_row: int) -> tuple[int, int]:
    _, _, _, _, _, _, flip_col, flip_row, shift, slant = plan
    column = raw_col if flip_col is None else flip_col - raw_col
    row = raw_row if flip_row is None else flip_row - raw_row
    if shift and raw_col % 2 != 0:
        row += shift
    if slant:
        half = int(column / 2)  # Java division truncates toward zero
        row = half + row if slant > 0 else row - half + 1
    return column, row


def hex_column_row(grid: HexGridDef, width: int, height: int, raw_col: int, raw_row: int) -> tuple[int, int]:
    """Numbered (column, row) from the raw indices: descend, stagger, then oblique slant."""
    return _hex_numbered(hex_plan(grid, width, height), raw_col, raw_row)


def hex_center_of_column_row(grid: HexGridDef, width: int, height: int, column: int, row: int) -> tuple[int, int]:
    """VASSAL's HexGridNumbering.getCenterPoint for a numbered (column, row), slant undone.

    The oblique slant is undone first, as the naming adds it last: the centre is that of the hex
    VASSAL names (column, row), as on the printed map. VASSAL 3.8's own getCenterPoint does not
    undo it (spec 8.3), so a name would lead to another hex (docs/grids.md).
    """
    sideways, x0, dx, y0, dy, half_dy, flip_col, flip_row, shift, slant = hex_plan(grid, width, height)
    if slant:
        half = int(column / 2)  # as in the naming: Java division truncates toward zero
        row = row - half if slant > 0 else row + half - 1
    if shift and column % 2 != 0:
        row -= shift  # undo the stagger: row + 1 when descending, else row - 1
    col = column if flip_col is None else flip_col - column
    if flip_row is not None:
        row = flip_row - row
    px = int(col * dx) + x0
    py = int(row * dy) + y0 if col % 2 == 0 else int(row * dy + half_dy) + y0
    return (py, px) if sideways else (px, py)


# =======================================================================================
# Raw indices and centres


def raw_column_row(grid: HexGridDef | SquareGridDef, x: float, y: float) -> tuple[int, int]:
    """The numbering's raw (column, row) of a point, before descend and stagger.

    Hex: in the grid frame (x and y swapped when sideways), rawCol = floor(u/dx + 0.5) and
    rawRow = round(v/dy), or round((v - dy/2)/dy) in odd columns. Square: column by floor,
    row by truncation toward zero.
    """
    if isinstance(grid, SquareGridDef):
        column = math.floor((x - grid.x0) / grid.dx + 0.5)
        return column, int((y - grid.y0) / grid.dy + 0.5)
    return _hex_raw(hex_plan(grid, 0, 0), x, y)  # the size plays no part in raw indices


def center_of(grid: HexGridDef | SquareGridDef, col: int, row: int) -> tuple[int, int]:
    """The centre VASSAL's snapping uses for raw index (col, row), board-local."""
    if isinstance(grid, SquareGridDef):
        return int(col * grid.dx) + grid.x0, int(row * grid.dy) + grid.y0
    cx = int(grid.dx * col + grid.x0)
    if col % 2 == 0:
        cy = int(grid.dy * row + grid.y0)
    else:
        cy = int(grid.dy * row + int(grid.dy / 2) + grid.y0)
    return (cy, cx) if grid.sideways else (cx, cy)


def column_row(grid: HexGridDef | SquareGridDef, width: int, height: int, x: float, y: float) -> tuple[int, int]:
    """The numbered (column, row) of a point (after descend, stagger and oblique slant)."""
    if isinstance(grid, SquareGridDef):
        return square_column_row(grid, width, height, x, y)
    plan = hex_plan(grid, width, height)
    return _hex_numbered(plan, *_hex_raw(plan, x, y))


def center_of_column_row(
    grid: HexGridDef | SquareGridDef, width: int, height: int, col: int, row: int
) -> tuple[int, int]:
    """VASSAL's inverse: the centre for a numbered (column, row) (offsets not included); for
    oblique hex numbering the centre of the hex so named (`hex_center_of_column_row`)."""
    if isinstance(grid, SquareGridDef):
        return square_center_of_column_row(grid, width, height, col, row)
    return hex_center_of_column_row(grid, width, height, col, row)
