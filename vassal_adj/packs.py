"""Rule packs on disk (`modules/<game>/`): discover, read, find, validate.

The I/O side of packs: this module reads `pack.toml` and `units.toml` (tomllib), imports an
optional `hooks.py`, reads the terrain file when the caller gives the board's hex layout, and
hands the parsed data to the pure validators (`rules.pack.RulePack`, `rules.unitmap.UnitMap`).
The command line (`vassal-adj packs list`, `packs validate DIR`) prints what these return.
Where packs are looked for (--packs-dir, $VASSAL_ADJ_PACKS, the user's folder, the shipped
packs) is pack_paths.py.
"""

from __future__ import annotations

import importlib.util
import re
import sys
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from vassal_adj.errors import PackError, UsageError, VassalAdjError, Where
from vassal_adj.model.geometry.layout import HexLayout
from vassal_adj.model.terrain import TerrainMap
from vassal_adj.pack_paths import Place, how_to_add, search_path, where_looked
from vassal_adj.rules.packs.pack import RulePack
from vassal_adj.rules.packs.unitmap import UnitMap
from vassal_adj.rules.registry import REGISTRY, Registry, load_builtin_rules

__all__ = [
    "LoadedPack",
    "PackSummary",
    "Problem",
    "discover",
    "find_pack",
    "find_pack_for_module",
    "implementations",
    "list_packs",
    "load_all",
    "load_pack",
    "pack_for",
    "read_toml",
    "validate",
]

PACK_FILE = "pack.toml"
_TOML_AT = re.compile(r"\s*\(at line (\d+), column (\d+)\)\s*$")


def read_toml(path: Path) -> dict[str, Any]:
    """A TOML file as a dict; PackError naming the file and line on a syntax error."""
    try:
        text = path.read_bytes().decode("utf-8")
    except OSError as e:
        raise PackError(f"cannot read: {e.strerror or e}", Where(path=str(path))) from None
    except UnicodeDecodeError as e:
        raise PackError(f"not UTF-8 text: {e.reason} at byte {e.start}", Where(path=str(path))) from None
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as e:
        msg = str(e)
        m = _TOML_AT.search(msg)  # tomllib puts "(at line L, column C)" in the message only
        if m:
            where = Where(path=str(path), line=int(m.group(1)))
            head = msg[:m.start()]
            raise PackError(f"invalid TOML: {head[:1].lower()}{head[1:]} (column {m.group(2)})", where) from None
        if msg.endswith("(at end of document)"):  # the last line that holds anything
            last = len(text.rstrip().splitlines()) or 1
            head = msg.removesuffix("(at end of document)").rstrip()
            raise PackError(f"invalid TOML: {head[:1].lower()}{head[1:]} (at the end of the file)",
                            Where(path=str(path), line=last)) from None
        raise PackError(f"invalid TOML: {msg}", Where(path=str(path))) from None


@dataclass(frozen=True)
class LoadedPack:
    """A pack read from its directory: the validated pack, its unit map, where its files are."""

    directory: Path
    pack: RulePack
    unitmap: UnitMap | None  # None when the pack has no units file yet
    terrain_path: Path | None  # None when the pack has no terrain file yet

    @property
    def id(self) -> str:
        return self.pack.id

    def terrain(self, layout: HexLayout, *, path: Path | None = None) -> TerrainMap:
        """The terrain map on a board's hex layout (`path` replaces the pack's file: ``--terrain``).

        The map knows the board's hexes (`TerrainMap.board`): no search leaves the board."""
        from vassal_adj.parse.terrain_file import read_terrain_on

        file = path or self.terrain_path
        if file is None:
            raise PackError(f"pack {self.id!r} has no terrain file ({self.pack.terrain_file})",
                            Where(path=str(self.directory)))
        try:
            text = file.read_text(encoding="utf-8")
        except OSError as e:
            raise PackError(f"cannot read: {e.strerror or e}", Where(path=str(file))) from None
        return read_terrain_on(layout, text, path=str(file), vocabulary=self.pack.vocabulary).with_board(layout.hexes())


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
        raise PackError(f"pack.hooks: importing {name!r} failed: {type(e).__name__}: {e}",
                        Where(path=str(file))) from e


def load_pack(directory: Path | str, *, registry: Registry | None = None) -> LoadedPack:
    """Read and validate the pack in `directory` (pack.toml, hooks.py, units.toml).

    The terrain file is only located here: reading it needs the board's layout
    (`LoadedPack.terrain`). Raises PackError naming the file and key path or line.
    """
    directory = Path(directory)
    pack_file = directory / PACK_FILE
    if not pack_file.is_file():
        raise PackError(f"no {PACK_FILE} in the pack directory", Where(path=str(directory)))
    data = read_toml(pack_file)
    if registry is None:
        registry = load_builtin_rules()
    if registry is REGISTRY:  # hooks register into the package registry only
        _hooks(directory, data, str(pack_file))
    pack = RulePack.from_mapping(data, source=str(pack_file), registry=registry)
    unitmap = None
    units_file = directory / pack.units_file
    if units_file.is_file():
        unitmap = UnitMap.from_mapping(read_toml(units_file), source=str(units_file),
                                       classes=pack.unit_classes, sides=pack.sides)
    elif _names_file(data, "units"):  # named explicitly, so its absence is a mistake
        raise PackError(f"units.file: no file {pack.units_file!r} in the pack directory", Where(path=str(pack_file)))
    terrain_file = directory / pack.terrain_file
    if not terrain_file.is_file() and _names_file(data, "terrain"):
        raise PackError(f"terrain.file: no file {pack.terrain_file!r} in the pack directory",
                        Where(path=str(pack_file)))
    return LoadedPack(directory, pack, unitmap, terrain_file if terrain_file.is_file() else None)


def _names_file(data: dict[str, Any], section: str) -> bool:
    table = data.get(section)
    return isinstance(table, dict) and "file" in table


def _places(modules_dir: Path | str | None) -> list[Place]:
    """`modules_dir` alone when given (``packs list --modules-dir``), else the search path (pack_paths)."""
    if modules_dir is None:
        return search_path()
    root = Path(modules_dir)
    if not root.is_dir():
        raise UsageError(f"modules directory {str(root)!r} does not exist")
    return [Place(root, "--modules-dir")]


def _pack_dirs(root: Path, include_template: bool) -> list[Path]:
    return sorted(d for d in root.iterdir()
                  if d.is_dir() and (d / PACK_FILE).is_file() and (include_template or not d.name.startswith("_")))


def discover(modules_dir: Path | str | None = None, *, include_template: bool = False) -> list[Path]:
    """The pack directories (those holding a pack.toml) under `modules_dir`, or else in every
    place of the search path in its order; by name within a place.

    Directories whose name starts with ``_`` (the template) are left out unless asked for.
    """
    return [d for place in _places(modules_dir) for d in _pack_dirs(place.path, include_template)]


def _declared_names(directory: Path) -> set[str]:
    """The id and aliases (casefolded) a pack.toml declares, read without loading the pack; empty
    when they cannot be read (loading the pack then says why)."""
    try:
        table = read_toml(directory / PACK_FILE).get("pack")
    except PackError:
        return set()
    if not isinstance(table, dict):
        return set()
    aliases = table.get("aliases")
    aliases = [aliases] if isinstance(aliases, str) else aliases if isinstance(aliases, list) else []
    names = [table.get("id"), *aliases]
    return {n.casefold() for n in names if isinstance(n, str)}


def load_all(modules_dir: Path | str | None = None, *, registry: Registry | None = None) -> list[LoadedPack]:
    """Every pack under `modules_dir`, or else along the search path.

    PackError when two packs of one directory share an id or alias (any case). Across places
    the pack found first wins: a later one sharing a name with it is left out, not even loaded
    (its hooks.py would register implementations a second time).
    """
    out: list[LoadedPack] = []
    taken: set[str] = set()
    for place in _places(modules_dir):
        here = [load_pack(d, registry=registry) for d in _pack_dirs(place.path, False)
                if not _declared_names(d) & taken]
        _check_unique(here)
        taken |= {n.casefold() for lp in here for n in lp.pack.names}
        out += here
    return out


def _check_unique(packs: list[LoadedPack]) -> None:
    owner: dict[str, LoadedPack] = {}
    for lp in packs:
        for name in lp.pack.names:
            other = owner.get(name.casefold())
            if other is not None and other is not lp:
                raise PackError(f"pack name {name!r} is used by two packs: {other.id!r} ({other.directory}) "
                                f"and {lp.id!r} ({lp.directory}); ids and aliases must be unique, ignoring case",
                                Where(path=str(lp.directory / PACK_FILE)))
            owner[name.casefold()] = lp


def find_pack(name: str, modules_dir: Path | str | None = None, *, registry: Registry | None = None) -> LoadedPack:
    """The pack whose id or alias is `name` (ignoring case), or a directory holding a pack.toml.

    UsageError naming the known packs when none fits.
    """
    as_dir = Path(name)
    if (as_dir / PACK_FILE).is_file():
        return load_pack(as_dir, registry=registry)
    packs = load_all(modules_dir, registry=registry)
    for lp in packs:
        if name.casefold() in (n.casefold() for n in lp.pack.names):
            return lp
    known = "; ".join(f"{lp.id} ({', '.join(lp.pack.aliases)})" if lp.pack.aliases else lp.id for lp in packs)
    raise UsageError(f"unknown pack {name!r} (known: {known or 'none'}); looked in {_looked(modules_dir)}; "
                     f"{how_to_add()}")


def _looked(modules_dir: Path | str | None) -> str:
    return str(modules_dir) if modules_dir is not None else where_looked()


def pack_for(name: str | None, module_name: str, module_version: str = "") -> LoadedPack:
    """The pack `--pack` names, or else the one pack that fits the module; UsageError when none does.

    A pack named that is not written for the module (its ``[pack.module]`` name and version
    patterns do not match) is a UsageError too, before its terrain file is read on a board it
    was not drawn for. There is no option to force it: a referee who knows the pack fits a
    renamed module widens ``[pack.module]`` in a copy of the pack and names that directory.
    """
    if name:
        lp = find_pack(name)
        if not lp.pack.fits(module_name, module_version):
            raise UsageError(f"pack {lp.id!r} does not fit the module: its [pack.module] ({lp.pack.source}) is name "
                             f"{lp.pack.module_name!r} version {lp.pack.module_version!r} (patterns), the module is "
                             f"{module_name!r} version {module_version!r}; choose a pack written for this module "
                             f"(`vassal-adj packs list`), or widen [pack.module] in a copy of the pack and give its "
                             f"directory to --pack")
        return lp
    found = find_pack_for_module(module_name, module_version)
    if found is None:
        known = ", ".join(f"{lp.id} (modules {lp.pack.module_name!r})" for lp in load_all()) or "none"
        raise UsageError(f"no rule pack fits module {module_name!r} version {module_version!r}: name one with "
                         f"--pack (packs found: {known}; looked in {where_looked()}); {how_to_add()}")
    return found


def find_pack_for_module(module_name: str, module_version: str = "", modules_dir: Path | str | None = None, *,
                         registry: Registry | None = None) -> LoadedPack | None:
    """The one pack that fits a module's name and version; None when none does.

    UsageError when several fit: the user must choose with ``--pack``.
    """
    fitting = [lp for lp in load_all(modules_dir, registry=registry) if lp.pack.fits(module_name, module_version)]
    if len(fitting) > 1:
        raise UsageError(f"module {module_name!r} version {module_version!r} fits several packs "
                         f"({', '.join(lp.id for lp in fitting)}): choose one with --pack")
    return fitting[0] if fitting else None


@dataclass(frozen=True)
class Problem:
    """One thing `packs validate` found: where (file, line) and what; `level` error or note."""

    where: str
    message: str
    level: str = "error"

    def __str__(self) -> str:
        return f"{self.where}: {self.level}: {self.message}"


def validate(directory: Path | str, *, layout: HexLayout | None = None,
             registry: Registry | None = None) -> list[Problem]:
    """Everything wrong with the pack in `directory` (empty when it is valid).

    Reading stops at the first error of a file (the validators raise), so a problem list
    holds at most one error per file. With `layout` the terrain file is read on that board;
    without one it cannot be checked (its labels need a grid) and a note says so.
    """
    directory = Path(directory)
    try:
        lp = load_pack(directory, registry=registry)
    except VassalAdjError as e:
        return [Problem(str(e.where) if e.where else str(directory), e.message)]
    problems = []
    if lp.unitmap is None:
        problems.append(Problem(str(directory / lp.pack.units_file), "no units file: no piece can become a unit",
                                "note"))
    if lp.terrain_path is None:
        problems.append(Problem(str(directory / lp.pack.terrain_file), "no terrain file", "note"))
    elif layout is None:
        problems.append(Problem(str(lp.terrain_path), "not checked: reading hex labels needs a board "
                                                      "(give the module)", "note"))
    else:
        try:
            lp.terrain(layout)
        except VassalAdjError as e:
            problems.append(Problem(str(e.where) if e.where else str(lp.terrain_path), e.message))
    problems += [Problem(lp.pack.source, f"scenario {s.describe()}", "note") for s in lp.pack.scenarios.values()]
    return problems


@dataclass(frozen=True)
class PackSummary:
    """One line of `packs list`: the pack, or why it cannot be read or is not used."""

    directory: Path
    id: str | None
    name: str = ""
    aliases: tuple[str, ...] = ()
    module: str = ""
    rulebook: str = ""
    rules: tuple[str, ...] = ()  # "name (impl) [rule_ref]"
    error: str | None = None
    origin: str = ""  # why its directory is searched (pack_paths.Place.origin)
    shadowed_by: str = ""  # set when the pack is not used: the pack found earlier with one of its names
    extra: dict[str, Any] = field(default_factory=dict, compare=False)
    scenarios: tuple[str, ...] = ()  # Scenario.describe() of each [scenarios.<id>]


def list_packs(modules_dir: Path | str | None = None, *, include_template: bool = False,
               registry: Registry | None = None) -> list[PackSummary]:
    """A summary of every pack under `modules_dir` (else along the search path), in search order.

    A broken pack is listed with its error; a pack left out because one found earlier has
    one of its names (load_all) is listed, unread, with that pack (`shadowed_by`).
    """
    out = []
    owner: dict[str, PackSummary] = {}  # casefolded name -> the pack listed first with it
    for place in _places(modules_dir):
        before = dict(owner)  # the names taken in earlier places
        for d in _pack_dirs(place.path, include_template):
            earlier = [(n, before[n]) for n in sorted(_declared_names(d)) if n in before]
            if earlier:
                n, first = earlier[0]
                out.append(PackSummary(d, None, origin=place.origin,
                                       shadowed_by=f"pack {first.id!r} in {first.directory} ({first.origin}), found "
                                                   f"first, has the name {n!r}"))
                continue
            try:
                p = load_pack(d, registry=registry).pack
            except VassalAdjError as e:
                out.append(PackSummary(d, None, error=str(e), origin=place.origin))
                continue
            module = p.module_name + ("" if p.module_version == ".*" else f" {p.module_version}")
            clash = [f"name {n!r} is also used by pack {owner[n.casefold()].id!r}" for n in p.names
                     if n.casefold() in owner]
            row = PackSummary(d, p.id, p.name, p.aliases, module, p.rulebook,
                              tuple(f"{r.name} ({r.impl}) [{r.rule_ref}]" + (f" when {r.when.describe()}" if r.when else "")
                                    for r in p.rules), "; ".join(clash) or None,
                              place.origin, scenarios=tuple(s.describe() for s in p.scenarios.values()))
            owner.update({n.casefold(): row for n in p.names if n.casefold() not in owner})
            out.append(row)
    return out


def implementations(registry: Registry | None = None) -> list[dict[str, object]]:
    """Every rule implementation a pack can name, with its parameters, types and defaults."""
    reg = registry or load_builtin_rules()
    return [impl.describe() for impl in reg.catalog()]
