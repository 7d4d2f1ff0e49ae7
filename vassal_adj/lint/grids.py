"""Grids and zones: numbering that gives two hexes one label (``grids.duplicate_label``), zones
reaching outside their board (``zones.outside_board``), at-start stacks placed at a label their
board's grid never produces (``refs.setup_location``). Labels a rule pack refers to are pack.py's.

Labels are the names VASSAL shows at each hex centre (the board's grid, its zones, their formats),
computed as VASSAL computes them (model/geometry); a label two hexes share cannot be typed to
reach either of them, and a pack or a log that names it is ambiguous.
"""

from __future__ import annotations

from collections.abc import Iterable

from vassal_adj.lint.findings import LintFinding, Severity
from vassal_adj.lint.inputs import LintInput
from vassal_adj.model.geometry.batch import location_names
from vassal_adj.model.geometry.maps import board_hex_layouts, on_board_center
from vassal_adj.model.module import ZonedGridDef

__all__ = ["check_grids"]

_SHOWN = 5
_SLACK = 16  # pixels past a board's edge that are only a drawing's slack, not a misplaced zone


def _duplicates(li: LintInput) -> Iterable[LintFinding]:
    m = li.module
    for mdef in m.maps.values():
        for board in mdef.boards.values():
            if not board.size_known:
                continue  # no image, no size: the hexes on the board are unknown (images.missing)
            for lay in board_hex_layouts(board):
                if not lay.numbered:
                    continue
                centres = [lay.center(h) for h in lay.hexes()]
                names = location_names(board, [c[0] for c in centres], [c[1] for c in centres])
                count: dict[str, int] = {}
                for n in names:
                    if n:
                        count[n] = count.get(n, 0) + 1
                twice = sorted(n for n, k in count.items() if k > 1)
                if not twice:
                    continue
                shown = ", ".join(f"{n!r} ({count[n]} hexes)" for n in twice[:_SHOWN])
                more = f" and {len(twice) - _SHOWN} more" if len(twice) > _SHOWN else ""
                line = f" line {board.line}" if board.line else ""
                yield LintFinding(
                    "grids.duplicate_label",
                    Severity.WARNING,
                    f"{m.build_entry}{line}: board {board.name!r} of map {mdef.name!r}, {lay.where}",
                    f"{len(twice)} label(s) name more than one hex: {shown}{more}; a label shared by hexes "
                    "cannot be typed to reach one of them, and reports naming it are ambiguous",
                    "check the numbering's offsets, stagger and separator, and zone location formats "
                    "(a zone's format without $gridLocation$ gives all its hexes the zone's name)",
                )


def _zones(li: LintInput) -> Iterable[LintFinding]:
    m = li.module
    for mdef in m.maps.values():
        for board in mdef.boards.values():
            if not isinstance(board.grid, ZonedGridDef) or not board.size_known:
                continue
            for zone in board.grid.zones:
                out = [(x, y) for x, y in zone.path if not (0 <= x <= board.width and 0 <= y <= board.height)]
                over = max((max(-x, x - board.width, -y, y - board.height) for x, y in out), default=0)
                if out:
                    line = f" line {board.line}" if board.line else ""
                    yield LintFinding(
                        "zones.outside_board",
                        # a zone drawn a few pixels past the edge loses nothing a piece could stand on
                        Severity.WARNING if over > _SLACK else Severity.INFO,
                        f"{m.build_entry}{line}: zone {zone.name!r} of board {board.name!r}, map {mdef.name!r}",
                        f"{len(out)} of the zone's {len(zone.path)} corner(s) lie outside the board "
                        f"({board.width}x{board.height} pixels), up to {over} pixels out, e.g. {out[0]}: "
                        "that part of the zone is on no board",
                        "redraw the zone inside its board (or correct the board's image)",
                    )


def _setup_locations(li: LintInput) -> Iterable[LintFinding]:
    m = li.module
    for mdef in m.maps.values():
        for stack in mdef.setup_stacks:
            board = mdef.boards.get(stack.owning_board or "")
            if (
                not stack.use_grid_location
                or board is None
                or not any(lay.numbered for lay in board_hex_layouts(board))
            ):
                continue
            if on_board_center(board, stack.location) is None:
                line = f" line {stack.line}" if stack.line else ""
                yield LintFinding(
                    "refs.setup_location",
                    Severity.WARNING,
                    f"{m.build_entry}{line}: SetupStack {stack.name!r} of map {mdef.name!r}",
                    f"location {stack.location!r} is not a label of board {board.name!r}'s grid: "
                    f"VASSAL reports bad data and puts the stack at its pixel ({stack.x}, {stack.y}) instead",
                    "type the label as the board shows it (vassal-adj grid MODULE describes the labels)",
                )


def check_grids(li: LintInput) -> list[LintFinding]:
    return [*_duplicates(li), *_zones(li), *_setup_locations(li)]
