"""One rule pack's files on disk (`modules/<game>/`): read pack.toml, hooks.py and units.toml.

The I/O of a single pack directory (packs.py finds, lists and validates packs with it): this
module reads `pack.toml` and `units.toml` (tomllib), imports an optional `hooks.py`, reads the
terrain file when the caller gives the board's hex layout, and hands the parsed data to the
pure validators (`rules.packs.pack.RulePack`, `rules.packs.unitmap.UnitMap`).
"""

from __future__ import annotations

import importlib.util
import os
import re
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from vassal_adj.errors import PackError, VassalAdjError, Where
from vassal_adj.held import held
from vassal_adj.model.geometry.layout import HexLayout
from vassal_adj.model.terrain import TerrainMap
from vassal_adj.pickle_cache import PACKAGE_DIR, cached_object
from vassal_adj.rules.packs.pack import RulePack
from vassal_adj.rules.packs.unitmap import UnitMap
from vassal_adj.rules.registry import REGISTRY, Registry
from vassal_adj.user_cache import code_stamp, parsed

__all__ = ["PACK_FILE", "LoadedPack", "load_pack", "read_toml"]

PACK_FILE = "pack.toml"
# The code a terrain map comes from: the terrain file reader, the model (its classes are pickled by name).
_TERRAIN_CODE = tuple(os.path.join(PACKAGE_DIR, *p) for p in (("parse",), ("model",), ("model", "geometry")))
_TOML_AT = re.compile(r"\s*\(at line (\d+), column (\d+)\)\s*$")


class _BadToml(Exception):
    """tomllib's TOMLDecodeError, its message kept: tomllib is imported only to parse a text the
    cache does not hold (2 ms of `check`, issue 10)."""


def _toml(text: str) -> dict[str, Any]:
    import tomllib

    from vassal_adj.parse import toml_text  # every failure a TOMLDecodeError (a number of 5,000 digits)

    try:
        return toml_text.loads(text)
    except tomllib.TOMLDecodeError as e:
        raise _BadToml(str(e)) from None


def read_toml(path: Path) -> dict[str, Any]:
    """A TOML file as a dict; PackError naming the file and line on a syntax error."""
    try:
        text = path.read_bytes().decode("utf-8")
    except OSError as e:
        raise PackError(f"cannot read: {e.strerror or e}", Where(path=str(path))) from None
    except UnicodeDecodeError as e:
        raise PackError(f"not UTF-8 text: {e.reason} at byte {e.start}", Where(path=str(path))) from None
    try:
        return parsed("toml", str(path), text, _toml)  # kept between runs (issue 10, startup time)
    except _BadToml as e:
        msg = str(e)
        m = _TOML_AT.search(msg)  # tomllib puts "(at line L, column C)" in the message only
        if m:
            where = Where(path=str(path), line=int(m.group(1)))
            head = msg[: m.start()]
            raise PackError(f"invalid TOML: {head[:1].lower()}{head[1:]} (column {m.group(2)})", where) from None
        if msg.endswith("(at end of document)"):  # the last line that holds anything
            last = len(text.rstrip().splitlines()) or 1
            head = msg.removesuffix("(at end of document)").rstrip()
            raise PackError(
                f"invalid TOML: {head[:1].lower()}{head[1:]} (at the end of the file)", Where(path=str(path), line=last)
            ) from None
        raise PackError(f"invalid TOML: {msg}", Where(path=str(path))) from None


@dataclass(frozen=True)
class LoadedPack:
    """A pack read from its directory: the validated pack, its unit map, where its files are."""

    directory: Path
    pack: RulePack
    unitmap: UnitMap | None  # None when the pack has no units file yet
    terrain_path: Path | None  # None when the pack has no terrain file yet
    # The [[examples]] tables as written: `packs validate` reads and runs them (rules/packs/examples.py);
    # `check` does not need them.
    examples: object = None
    # The optional rules ([options.<id>]) the user named for the game (--option), checked by state_of.
    options_given: tuple[str, ...] = ()

    @property
    def id(self) -> str:
        return self.pack.id

    def terrain(self, layout: HexLayout, *, path: Path | None = None) -> TerrainMap:
        """The terrain map on a board's hex layout (`path` replaces the pack's file: ``--terrain``).

        The map knows the board's hexes (`TerrainMap.board`): no search leaves the board."""
        file = path or self.terrain_path
        if file is None:
            raise PackError(
                f"pack {self.id!r} has no terrain file ({self.pack.terrain_file})", Where(path=str(self.directory))
            )
        try:
            text = file.read_text(encoding="utf-8")
        except OSError as e:
            raise PackError(f"cannot read: {e.strerror or e}", Where(path=str(file))) from None
        voc = self.pack.vocabulary

        def build() -> TerrainMap:
            from vassal_adj.parse.terrain_file import read_terrain_on  # only when the cache has not the map

            return read_terrain_on(layout, text, path=str(file), vocabulary=voc)

        # Kept between runs (issue 10, startup time): the map depends on the text, the board's grid
        # and the vocabulary (its sets sorted: a set's order changes from run to run), and the code.
        names = [sorted(voc.terrain), sorted(voc.features), sorted(voc.place_kinds)]
        grid = f"{layout.grid!r}\n{layout.board!r}\n{layout.zone!r}"
        key = f"{text}\n{file}\n{grid}\n{names!r}\n{code_stamp(_TERRAIN_CODE)}"
        # the board's set made here, not kept between runs: made again from the hexes in their order,
        # it gives them in the order it always does (pickle_cache.py); within the process it is (held.py)
        return held(
            f"terrain-on-board {file}",
            key,
            lambda: cached_object("terrain", str(file), key, build, TerrainMap).with_board(layout.hexes()),
        )


def _hooks(directory: Path, data: dict[str, Any], source: str) -> None:
    """Import the pack's hooks.py, which registers more implementations (STYLE.md 6.11)."""
    name = data.get("pack", {}).get("hooks") if isinstance(data.get("pack"), dict) else None
    if not isinstance(name, str):
        return  # absent, or a wrong type the validator reports with its key path
    file = (directory / name).resolve()
    if directory.resolve() not in file.parents or not file.is_file():
        raise PackError(f"pack.hooks: no file {name!r} in the pack directory", Where(path=source))
    modname = f"vassal_adj_pack_hooks.{directory.name}.{file.stem}"
    spec = importlib.util.spec_from_file_location(modname, file)
    if spec is None or spec.loader is None:
        raise PackError(f"pack.hooks: cannot import {name!r}", Where(path=source))
    module = importlib.util.module_from_spec(spec)
    sys.modules[modname] = module
    try:
        spec.loader.exec_module(module)
    except VassalAdjError:
        raise
    except Exception as e:  # a pack's own code: report it as a bad pack, with the cause kept
        del sys.modules[modname]
        raise PackError(f"pack.hooks: importing {name!r} failed: {type(e).__name__}: {e}", Where(path=str(file))) from e


def load_pack(directory: Path | str, *, registry: Registry | None = None) -> LoadedPack:
    """Read and validate the pack in `directory` (pack.toml, hooks.py, units.toml).

    The terrain file is only located here: reading it needs the board's layout
    (`LoadedPack.terrain`). Raises PackError naming the file and key path or line.
    A pack of the package registry is read once per process while its files stay as they were
    (held.py): a batch's games, and the packs `find_pack` reads to find one, share it.
    """
    directory = Path(directory)
    if registry is None or registry is REGISTRY:
        # it imports the rule modules the pack names (builtin_impls.py)
        name = f"pack {directory}\n{directory.resolve()}"  # as given: the LoadedPack keeps that form
        return held(name, _stamp(directory), lambda: _load_pack(directory, REGISTRY))
    return _load_pack(directory, registry)


def _stamp(directory: Path) -> str:
    """The size and modification time of every file `_load_pack` may read: the TOML files and the
    Python files (hooks) in the pack's folder. (The terrain file is keyed by its text: `terrain`.)"""
    stamps = []
    for top, dirs, files in os.walk(directory):
        dirs[:] = sorted(d for d in dirs if d != "__pycache__")
        for name in sorted(n for n in files if n.endswith((".toml", ".py"))):
            try:
                st = os.stat(os.path.join(top, name))
            except OSError:
                continue
            stamps.append(f"{os.path.join(top, name)}:{st.st_size}:{st.st_mtime_ns}")
    return "\n".join(stamps)


def _load_pack(directory: Path, registry: Registry) -> LoadedPack:
    pack_file = directory / PACK_FILE
    if not pack_file.is_file():
        raise PackError(f"no {PACK_FILE} in the pack directory", Where(path=str(directory)))
    data = read_toml(pack_file)
    if registry is REGISTRY:  # hooks register into the package registry only
        _hooks(directory, data, str(pack_file))
    pack = RulePack.from_mapping(data, source=str(pack_file), registry=registry)
    unitmap = None
    units_file = directory / pack.units_file
    if units_file.is_file():
        unitmap = UnitMap.from_mapping(
            read_toml(units_file), source=str(units_file), classes=pack.unit_classes, sides=pack.sides
        )
    elif _names_file(data, "units"):  # named explicitly, so its absence is a mistake
        raise PackError(f"units.file: no file {pack.units_file!r} in the pack directory", Where(path=str(pack_file)))
    terrain_file = directory / pack.terrain_file
    if not terrain_file.is_file() and _names_file(data, "terrain"):
        raise PackError(
            f"terrain.file: no file {pack.terrain_file!r} in the pack directory", Where(path=str(pack_file))
        )
    return LoadedPack(directory, pack, unitmap, terrain_file if terrain_file.is_file() else None, data.get("examples"))


def _names_file(data: dict[str, Any], section: str) -> bool:
    table = data.get(section)
    return isinstance(table, dict) and "file" in table
