"""`vassal-adj terrain import`: the Terrain extension's map of a board -> the pack's terrain file.

Reads the module's `terrainMaps/<board>.txt` (`parse.terrain_maps`) and the buildFile's
terrain definitions (`parse.terrain_defs`), turns raw grid indices into VASSAL's labels
through the board's hex layout (`model.terrain_import`), maps the module's names to the
pack's with the `--map-names` table (`parse.terrain_names`), and writes the file with
`write_terrain`, every warning and unmapped name in its header comment. The output is
written atomically, never onto an input.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from vassal_adj.codec.archive import read_archive
from vassal_adj.codec.atomic import write_bytes_atomic
from vassal_adj.errors import FormatError, UsageError, Where
from vassal_adj.load import load_module
from vassal_adj.model.geometry.layout import HexLayout
from vassal_adj.model.geometry.maps import board_hex_layouts
from vassal_adj.model.module import BoardDef, Module
from vassal_adj.model.terrain_ext import NameMap
from vassal_adj.model.terrain_import import Imported, import_terrain
from vassal_adj.parse.terrain_defs import parse_terrain_definitions
from vassal_adj.parse.terrain_file import write_terrain
from vassal_adj.parse.terrain_maps import board_of_entry, entry_of_board, parse_terrain_map
from vassal_adj.parse.terrain_names import parse_name_map

__all__ = ["TerrainImport", "import_module_terrain", "read_name_map", "write_import"]

_LISTED_LINES = 12  # an unmapped name lists this many of its lines


@dataclass(frozen=True)
class TerrainImport:
    """One import: what was read, where it went, and everything the file could not hold."""

    board: str
    entry: str
    layout: HexLayout
    imported: Imported
    warnings: tuple[str, ...]  # "<module>!<entry>: line N: why", in line order
    unmapped: tuple[str, ...]  # "hex terrain 'Swamp': 3 left out (lines 4, 9, 20)"
    text: str  # the terrain file


def read_name_map(path: str) -> NameMap:
    """The `--map-names` table (PackError naming the file and the key)."""
    try:
        text = Path(path).read_text(encoding="utf-8-sig")
    except FileNotFoundError:
        raise UsageError("name table not found", Where(path=path)) from None
    except (OSError, UnicodeDecodeError) as e:
        raise UsageError(f"cannot read the name table: {e}", Where(path=path)) from None
    return parse_name_map(text, path)


def _pick_board(entries: list[str], board: str | None, path: str) -> str:
    boards = sorted(b for e in entries if (b := board_of_entry(e)) is not None)
    if not boards:
        raise UsageError(
            "the module has no terrainMaps/<board>.txt entry: it carries no Terrain extension map", Where(path=path)
        )
    if board is None:
        if len(boards) > 1:
            raise UsageError(
                f"the module has terrain for several boards ({', '.join(map(repr, boards))}): choose one with --board",
                Where(path=path),
            )
        return boards[0]
    if board not in boards:
        raise UsageError(
            f"no terrain for board {board!r} (no entry {entry_of_board(board)!r}); the module has "
            f"terrain for: {', '.join(map(repr, boards))}",
            Where(path=path),
        )
    return board


def _board_layout(module: Module, board: str, path: str) -> HexLayout:
    defs: list[BoardDef] = [b for m in module.maps.values() for b in m.boards.values() if b.name == board]
    if not defs:
        raise UsageError(f"the module has terrain for board {board!r} but no board of that name", Where(path=path))
    if not defs[0].size_known:
        raise UsageError(
            f"board {board!r}: its image {defs[0].image!r} is missing from the module, so its size "
            "and hexes are unknown",
            Where(path=path),
        )
    layouts = [lay for lay in board_hex_layouts(defs[0]) if lay.zone is None and lay.numbered]
    if not layouts:
        raise UsageError(
            f"board {board!r} has no numbered hex grid, so its terrain has no labels",
            Where(path=path, line=defs[0].line),
        )
    return layouts[0]


def _unmapped_text(imported: Imported) -> tuple[str, ...]:
    out = []
    for u in imported.unmapped:
        lines = ", ".join(map(str, u.lines[:_LISTED_LINES])) + (", ..." if len(u.lines) > _LISTED_LINES else "")
        where = f"{'line' if len(u.lines) == 1 else 'lines'} {lines}" if lines else "hexes taking the default"
        out.append(f"{u.what}: {u.count} left out ({where})")
    return tuple(out)


def _header(
    module: str,
    board: str,
    entry: str,
    names: str | None,
    imp: Imported,
    warnings: tuple[str, ...],
    unmapped: tuple[str, ...],
) -> list[str]:
    head = [
        f"# vassal-adj terrain import: {os.path.basename(module)}, board {board!r} ({entry})"
        + (f", names mapped by {os.path.basename(names)}" if names else ", names as the module writes them"),
        f"# {imp.records} records, {imp.used} used; {len(warnings)} warning(s), "
        f"{len(unmapped)} unmapped name(s): their records are not in this file",
    ]
    head += [f"# warning: {w}" for w in warnings]
    head += [f"# unmapped: {u}" for u in unmapped]
    return head


def import_module_terrain(module: str, board: str | None, names_path: str | None) -> TerrainImport:
    """Import the terrain of one board of `module` (see the module docstring); nothing is written."""
    archive = read_archive(module)
    mod = load_module(module)
    name = _pick_board(list(archive.entries), board, archive.path)
    entry = entry_of_board(name)
    layout = _board_layout(mod, name, archive.path)
    defs = parse_terrain_definitions(archive.entries[mod.build_entry], Where(path=archive.path, entry=mod.build_entry))
    if defs is None:
        raise FormatError(
            f"the module has {entry!r} but its buildFile has no TerrainDefinitions: the terrain "
            "names cannot be checked",
            Where(path=archive.path, entry=mod.build_entry),
        )
    where = Where(path=archive.path, entry=entry)
    records, extra = parse_terrain_map(archive.entries[entry], where)
    names = read_name_map(names_path) if names_path is not None else None
    imported = import_terrain(records, defs, layout, names)
    notes = [(n.line, n.message) for n in imported.notes]
    notes += [(line, f"fields after the record's end ignored: {text!r}") for line, text in extra]
    warnings = tuple(f"{where.but(line=line)}: {message}" for line, message in sorted(notes, key=lambda n: n[0]))
    unmapped = _unmapped_text(imported)
    head = _header(module, name, entry, names_path, imported, warnings, unmapped)
    text = "\n".join(head) + "\n" + write_terrain(imported.terrain, layout.label_of)
    return TerrainImport(name, entry, layout, imported, warnings, unmapped, text)


def write_import(run: TerrainImport, output: str, protect: list[str]) -> None:
    """Write the terrain file atomically, refusing to write onto an input."""
    write_bytes_atomic(output, run.text.encode("utf-8"), protect=protect)
