"""VASSAL's SquareGridNumbering: a point's numbered (column, row) and its inverse (VASSAL-FORMATS.md 8.5).

Names and formats are shared with hex numbering (`model.numbering`); only the rounding differs: the
row truncates toward zero, and descending uses int(W/dx + 0.5) and int(H/dy + 0.5).
"""

from __future__ import annotations

import math

from vassal_adj.model.module import HexNumbering, SquareGridDef

__all__ = ["square_center_of_column_row", "square_column_row"]


def _square_max(grid: SquareGridDef, width: int, height: int) -> tuple[int, int]:
    return int(height / grid.dy + 0.5), int(width / grid.dx + 0.5)


def square_column_row(grid: SquareGridDef, width: int, height: int, x: float, y: float) -> tuple[int, int]:
    """SquareGridNumbering column (floor) and row (truncation toward zero), descended."""
    num = grid.numbering or HexNumbering(stagger=False)
    column = math.floor((x - grid.x0) / grid.dx + 0.5)
    row = int((y - grid.y0) / grid.dy + 0.5)
    max_rows, max_cols = _square_max(grid, width, height)
    if num.h_descend:
        column = max_cols - column
    if num.v_descend:
        row = max_rows - row
    return column, row


def square_center_of_column_row(grid: SquareGridDef, width: int, height: int, column: int, row: int) -> tuple[int, int]:
    """SquareGridNumbering.getCenterPoint for a numbered (column, row)."""
    num = grid.numbering or HexNumbering(stagger=False)
    max_rows, max_cols = _square_max(grid, width, height)
    if num.v_descend:
        row = max_rows - row
    if num.h_descend:
        column = max_cols - column
    return int(column * grid.dx + grid.x0), int(row * grid.dy + grid.y0)
