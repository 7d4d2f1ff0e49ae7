"""Rule packs on disk (`modules/<game>/`): discover, find, list, validate.

Reading one pack's directory is pack_files.py; this module finds packs along the search path
(--packs-dir, $VASSAL_ADJ_PACKS, the user's folder, the shipped packs: pack_paths.py), lists
them, and validates one, running its worked examples (``[[examples]]``) on its terrain. The
command line (`vassal-adj packs list`, `packs validate DIR`) prints what these return.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from vassal_adj.errors import PackError, UsageError, VassalAdjError, Where
from vassal_adj.model.geometry.layout import HexLayout
from vassal_adj.model.terrain import TerrainMap
from vassal_adj.pack_files import PACK_FILE, LoadedPack, load_pack, read_toml
from vassal_adj.pack_heads import declared_names, may_fit, names_in, pack_table
from vassal_adj.pack_paths import how_to_add, search_path, where_looked
from vassal_adj.pack_place import Place
from vassal_adj.rules.registry import Registry, load_builtin_rules

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


def _places(modules_dir: Path | str | None) -> list[Place]:
    """`modules_dir` alone when given (``packs list --modules-dir``), else the search path (pack_paths)."""
    if modules_dir is None:
        return search_path()
    root = Path(modules_dir)
    if not root.is_dir():
        raise UsageError(f"modules directory {str(root)!r} does not exist")
    return [Place(root, "--modules-dir")]


def _pack_dirs(root: Path, include_template: bool) -> list[Path]:
    return sorted(
        d
        for d in root.iterdir()
        if d.is_dir() and (d / PACK_FILE).is_file() and (include_template or not d.name.startswith("_"))
    )


def discover(modules_dir: Path | str | None = None, *, include_template: bool = False) -> list[Path]:
    """The pack directories (those holding a pack.toml) under `modules_dir`, or else in every
    place of the search path in its order; by name within a place.

    Directories whose name starts with ``_`` (the template) are left out unless asked for.
    """
    return [d for place in _places(modules_dir) for d in _pack_dirs(place.path, include_template)]


def load_all(
    modules_dir: Path | str | None = None,
    *,
    registry: Registry | None = None,
    wanted: Callable[[dict[str, Any] | None], bool] | None = None,
) -> list[LoadedPack]:
    """Every pack under `modules_dir`, or else along the search path; with `wanted`, only the
    packs whose ``[pack]`` table it accepts (pack_heads.pack_table, None when unreadable): the
    others are not loaded (issue 10, startup time).

    PackError when two packs of one directory share an id or alias (any case). Across places
    the pack found first wins: a later one sharing a name with it is left out, not even loaded
    (its hooks.py would register implementations a second time); a pack `wanted` leaves out
    still hides the later ones, as it would loaded.
    """
    out: list[LoadedPack] = []
    taken: set[str] = set()
    for place in _places(modules_dir):
        heads = {d: pack_table(d) for d in _pack_dirs(place.path, False)}
        dirs = {d: names for d, names in ((d, names_in(t)) for d, t in heads.items()) if not names & taken}
        here = [load_pack(d, registry=registry) for d in dirs if wanted is None or wanted(heads[d])]
        _check_unique(here)
        taken |= {n.casefold() for lp in here for n in lp.pack.names}
        taken |= {n for names in dirs.values() for n in names}
        out += here
    return out


def _check_unique(packs: list[LoadedPack]) -> None:
    owner: dict[str, LoadedPack] = {}
    for lp in packs:
        for name in lp.pack.names:
            other = owner.get(name.casefold())
            if other is not None and other is not lp:
                raise PackError(
                    f"pack name {name!r} is used by two packs: {other.id!r} ({other.directory}) "
                    f"and {lp.id!r} ({lp.directory}); ids and aliases must be unique, ignoring case",
                    Where(path=str(lp.directory / PACK_FILE)),
                )
            owner[name.casefold()] = lp


def find_pack(name: str, modules_dir: Path | str | None = None, *, registry: Registry | None = None) -> LoadedPack:
    """The pack whose id or alias is `name` (ignoring case), or a directory holding a pack.toml.

    UsageError naming the known packs when none fits.
    """
    as_dir = Path(name)
    if (as_dir / PACK_FILE).is_file():
        return load_pack(as_dir, registry=registry)
    # the packs that declare the name (or whose names cannot be read) are loaded first; the
    # others only when none is it, to list them all in the error
    folded = name.casefold()

    def may_be(table: dict[str, Any] | None) -> bool:
        names = names_in(table)
        return not names or folded in names

    for wanted in (may_be, None):
        packs = load_all(modules_dir, registry=registry, wanted=wanted)
        for lp in packs:
            if folded in (n.casefold() for n in lp.pack.names):
                return lp
    known = "; ".join(f"{lp.id} ({', '.join(lp.pack.aliases)})" if lp.pack.aliases else lp.id for lp in packs)
    raise UsageError(
        f"unknown pack {name!r} (known: {known or 'none'}); looked in {_looked(modules_dir)}; {how_to_add()}"
    )


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
            raise UsageError(
                f"pack {lp.id!r} does not fit the module: its [pack.module] ({lp.pack.source}) is name "
                f"{lp.pack.module_name!r} version {lp.pack.module_version!r} (patterns), the module is "
                f"{module_name!r} version {module_version!r}; choose a pack written for this module "
                f"(`vassal-adj packs list`), or widen [pack.module] in a copy of the pack and give its "
                f"directory to --pack"
            )
        return lp
    found = find_pack_for_module(module_name, module_version)
    if found is None:
        known = ", ".join(f"{lp.id} (modules {lp.pack.module_name!r})" for lp in load_all()) or "none"
        raise UsageError(
            f"no rule pack fits module {module_name!r} version {module_version!r}: name one with "
            f"--pack (packs found: {known}; looked in {where_looked()}); {how_to_add()}"
        )
    return found


def find_pack_for_module(
    module_name: str,
    module_version: str = "",
    modules_dir: Path | str | None = None,
    *,
    registry: Registry | None = None,
) -> LoadedPack | None:
    """The one pack that fits a module's name and version; None when none does.

    UsageError when several fit: the user must choose with ``--pack``.
    """
    # a pack whose [pack.module] plainly does not fit is not read (issue 10, startup time)
    packs = load_all(modules_dir, registry=registry, wanted=lambda t: may_fit(t, module_name, module_version))
    fitting = [lp for lp in packs if lp.pack.fits(module_name, module_version)]
    if len(fitting) > 1:
        raise UsageError(
            f"module {module_name!r} version {module_version!r} fits several packs "
            f"({', '.join(lp.id for lp in fitting)}): choose one with --pack"
        )
    return fitting[0] if fitting else None


@dataclass(frozen=True)
class Problem:
    """One thing `packs validate` found: where (file, line) and what; `level` error or note."""

    where: str
    message: str
    level: str = "error"

    def __str__(self) -> str:
        return f"{self.where}: {self.level}: {self.message}"


def validate(
    directory: Path | str,
    *,
    layout: HexLayout | None = None,
    terrain: Path | str | None = None,
    registry: Registry | None = None,
) -> list[Problem]:
    """Everything wrong with the pack in `directory` (empty when it is valid), and its worked examples run.

    Reading stops at the first error of a file (the validators raise), so a problem list
    holds at most one error per file. With `layout` the terrain file (`terrain`, else the
    pack's) is read on that board and the examples are run on it: one note per example that
    gives the rulebook's verdict, one error per example that does not; without one neither
    can be checked (labels need a grid) and a note says so. A malformed example, or one this
    board cannot hold, raises PackError (naming its key path): it is the pack that is wrong.
    """
    # here: only `packs validate` runs worked examples (startup time of check, issue 10)
    from vassal_adj.rules.packs.example_runs import run_examples
    from vassal_adj.rules.packs.examples import read_examples

    directory = Path(directory)
    try:
        lp = load_pack(directory, registry=registry)
    except VassalAdjError as e:
        return [Problem(str(e.where) if e.where else str(directory), e.message)]
    examples = read_examples(lp.examples, lp.pack)
    problems = []
    if lp.unitmap is None:
        problems.append(
            Problem(str(directory / lp.pack.units_file), "no units file: no piece can become a unit", "note")
        )
    file = Path(terrain) if terrain is not None else lp.terrain_path
    tmap: TerrainMap | None = None
    if file is None:
        problems.append(Problem(str(directory / lp.pack.terrain_file), "no terrain file", "note"))
    elif layout is None:
        problems.append(Problem(str(file), "not checked: reading hex labels needs a board (give the module)", "note"))
    else:
        try:
            tmap = lp.terrain(layout, path=file)
        except VassalAdjError as e:
            problems.append(Problem(str(e.where) if e.where else str(file), e.message))
    problems += [Problem(lp.pack.source, f"scenario {s.describe()}", "note") for s in lp.pack.scenarios.values()]
    problems += [Problem(lp.pack.source, f"optional rule {o.describe()}", "note") for o in lp.pack.options.values()]
    runnable = tuple(e for e in examples if not e.on_board or tmap is not None)
    problems += [
        Problem(lp.pack.source, str(r), "note" if r.ok else "error")
        for r in run_examples(runnable, lp.pack, lp.unitmap, tmap, layout)
    ]
    if left := len(examples) - len(runnable):
        problems.append(
            Problem(
                lp.pack.source,
                f"{left} worked example(s) not run: they stand on the board, so they "
                "need the module and a terrain file that reads on it",
                "note",
            )
        )
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
    options: tuple[str, ...] = ()  # Option.describe() of each [options.<id>]


def list_packs(
    modules_dir: Path | str | None = None, *, include_template: bool = False, registry: Registry | None = None
) -> list[PackSummary]:
    """A summary of every pack under `modules_dir` (else along the search path), in search order.

    A broken pack is listed with its error; a pack left out because one found earlier has
    one of its names (load_all) is listed, unread, with that pack (`shadowed_by`).
    """
    out = []
    owner: dict[str, PackSummary] = {}  # casefolded name -> the pack listed first with it
    for place in _places(modules_dir):
        before = dict(owner)  # the names taken in earlier places
        for d in _pack_dirs(place.path, include_template):
            earlier = [(n, before[n]) for n in sorted(declared_names(d)) if n in before]
            if earlier:
                n, first = earlier[0]
                out.append(
                    PackSummary(
                        d,
                        None,
                        origin=place.origin,
                        shadowed_by=f"pack {first.id!r} in {first.directory} ({first.origin}), found "
                        f"first, has the name {n!r}",
                    )
                )
                continue
            try:
                p = load_pack(d, registry=registry).pack
            except VassalAdjError as e:
                out.append(PackSummary(d, None, error=str(e), origin=place.origin))
                continue
            module = p.module_name + ("" if p.module_version == ".*" else f" {p.module_version}")
            clash = [
                f"name {n!r} is also used by pack {owner[n.casefold()].id!r}" for n in p.names if n.casefold() in owner
            ]
            row = PackSummary(
                d,
                p.id,
                p.name,
                p.aliases,
                module,
                p.rulebook,
                tuple(
                    f"{r.name} ({r.impl}) [{r.rule_ref}]" + (f" when {r.when.describe()}" if r.when else "")
                    for r in p.rules
                ),
                "; ".join(clash) or None,
                place.origin,
                scenarios=tuple(s.describe() for s in p.scenarios.values()),
                options=tuple(o.describe() for o in p.options.values()),
            )
            owner.update({n.casefold(): row for n in p.names if n.casefold() not in owner})
            out.append(row)
    return out


def implementations(registry: Registry | None = None) -> list[dict[str, object]]:
    """Every rule implementation a pack can name, with its parameters, types and defaults."""
    reg = registry or load_builtin_rules()
    return [impl.describe() for impl in reg.catalog()]
