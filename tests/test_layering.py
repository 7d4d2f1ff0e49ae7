"""The layers import one way (DESIGN.md), and files stay small."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[1] / "vassal_adj"
# model/ and rules/ are pure: no files, no XML, no command line, and no upper layer.
PURE_LAYERS = ("model", "rules")
FORBIDDEN_MODULES = {"lxml", "click", "zipfile", "os", "io", "shutil", "tempfile", "pathlib", "PIL"}
FORBIDDEN_PACKAGES = (
    "vassal_adj.codec",
    "vassal_adj.parse",
    "vassal_adj.report",
    "vassal_adj.cli",
    "vassal_adj.load",
    "vassal_adj.savedgame",
    "vassal_adj.packs",
)
MAX_LINES = 400
# VASSAL's SequenceEncoder (parse/tokens.py) is pure string handling with no imports of its
# own; grid numbering formats and board selections need it, so model/ may use it.
ALLOWED = {"vassal_adj.parse.tokens"}


def _imports(path: Path) -> list[tuple[str, int]]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    package = "vassal_adj." + ".".join(path.relative_to(PACKAGE).parts[:-1])
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found += [(a.name, node.lineno) for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[: len(package.split(".")) - node.level + 1]
                found.append((".".join(base + ([node.module] if node.module else [])), node.lineno))
            else:
                found.append((node.module or "", node.lineno))
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "open":
            found.append(("builtins.open", node.lineno))
    return found


PURE_FILES = sorted(p for layer in PURE_LAYERS for p in (PACKAGE / layer).rglob("*.py"))


@pytest.mark.parametrize("path", PURE_FILES, ids=lambda p: str(p.relative_to(PACKAGE)))
def test_pure_layers_import_no_io_and_no_upper_layer(path: Path) -> None:
    bad = []
    for name, line in _imports(path):
        top = name.split(".")[0]
        if name in ALLOWED:
            continue
        if top in FORBIDDEN_MODULES or name == "builtins.open" or name.startswith(FORBIDDEN_PACKAGES):
            bad.append(f"line {line}: {name}")
    assert not bad, f"{path.name} reaches outside its layer: {bad}"


def test_the_pure_layers_exist() -> None:
    assert PURE_FILES, "no files found under model/: the layering test would check nothing"


def test_layering_check_catches_a_forbidden_import(tmp_path: Path) -> None:
    fake = PACKAGE / "model" / "_probe_forbidden.py"
    fake.write_text("import zipfile\nfrom ..parse import tokens\nopen('x')\n", encoding="utf-8")
    try:
        names = [n for n, _ in _imports(fake)]
    finally:
        fake.unlink()
    assert names == ["zipfile", "vassal_adj.parse", "builtins.open"]


def test_files_stay_small() -> None:
    big = {
        str(p.relative_to(PACKAGE)): n
        for p in PACKAGE.rglob("*.py")
        if (n := len(p.read_text(encoding="utf-8").splitlines())) > MAX_LINES
    }
    assert not big, f"files over {MAX_LINES} lines (split them by what they hold): {big}"


# -- no import cycles anywhere (DESIGN.md) ------------------------------------------------------
# Static, as a reader sees the code: every import statement counts, including imports inside
# functions and under `if TYPE_CHECKING:`, since a late import that dodges a cycle still ties
# the two modules together.


def _module_sources(package: Path) -> dict[str, str]:
    """Every module of the package by dotted name (a package by its own name), with its source."""
    out = {}
    for path in package.rglob("*.py"):
        parts = (package.name, *path.relative_to(package).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts = parts[:-1]
        out[".".join(parts)] = path.read_text(encoding="utf-8")
    return out


def _import_graph(sources: dict[str, str], packages: set[str]) -> dict[str, set[str]]:
    """Which of the modules each module imports: a name resolves to the longest module it names
    (``from .grid import PlacedBoard`` is model.grid, ``from . import hexes`` is model.hexes)."""

    def known(name: str) -> str | None:
        while name and name not in sources:
            name = name.rpartition(".")[0]
        return name or None

    graph: dict[str, set[str]] = {}
    for name, text in sources.items():
        here = name.split(".") if name in packages else name.split(".")[:-1]
        targets = []
        for node in ast.walk(ast.parse(text)):
            if isinstance(node, ast.Import):
                targets += [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom):
                base = (
                    ".".join([*here[: len(here) - node.level + 1], *([node.module] if node.module else [])])
                    if node.level
                    else node.module or ""
                )
                targets += [base, *(f"{base}.{a.name}" for a in node.names)]
        graph[name] = {t for t in map(known, targets) if t is not None and t != name}
    return graph


def _cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The sets of modules that import each other, directly or through others (strongly connected,
    more than one module); a package and its own submodules (re-exports) are not counted."""

    def reach(start: str) -> set[str]:
        seen, todo = set(), [start]
        while todo:
            for nxt in graph[todo.pop()] - seen:
                seen.add(nxt)
                todo.append(nxt)
        return seen

    reaches = {m: reach(m) for m in graph}
    found = {frozenset({m} | {o for o in reaches[m] if m in reaches[o]}) for m in graph if m in reaches[m]}
    cycles = [sorted(c) for c in found]
    return sorted(c for c in cycles if not all(x == c[0] or x.startswith(c[0] + ".") for x in c))


def _package_graph() -> dict[str, set[str]]:
    sources = _module_sources(PACKAGE)
    packages = {".".join((PACKAGE.name, *p.parent.relative_to(PACKAGE).parts)) for p in PACKAGE.rglob("__init__.py")}
    return _import_graph(sources, packages)


def test_no_import_cycles_anywhere() -> None:
    cycles = _cycles(_package_graph())
    assert not cycles, "import cycles (move what both sides need into a module both import): " + "; ".join(
        " <-> ".join(c) for c in cycles
    )


def test_the_cycle_check_sees_late_and_type_checking_imports() -> None:
    sources = {
        "pkg": "",
        "pkg.low": "",
        "pkg.a": "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from .b import B\nfrom . import low\n",
        "pkg.b": "def f():\n    from pkg.c import g\n",
        "pkg.c": "from .a import A\n",
        "pkg.d": "from . import c\n",
    }
    graph = _import_graph(sources, {"pkg"})
    # `from . import low` runs the package's __init__ too, so it imports both
    assert graph["pkg.a"] == {"pkg", "pkg.b", "pkg.low"} and graph["pkg.d"] == {"pkg", "pkg.c"}
    assert _cycles(graph) == [["pkg.a", "pkg.b", "pkg.c"]]  # pkg.d imports the cycle but is not in it
    del sources["pkg.c"]
    assert _cycles(_import_graph(sources, {"pkg"})) == []


def test_the_cycle_check_reads_the_whole_package() -> None:
    graph = _package_graph()
    # one edge of each kind the check must see: a module import, a name from a module, a package member
    assert "vassal_adj.model.module" in graph["vassal_adj.model.geometry.grid"]
    assert "vassal_adj.pbem.rolls" in graph["vassal_adj.pbem.audit"]
    assert "vassal_adj.model.geometry.hexes" in graph["vassal_adj.model.geometry.layout"]
    assert len(graph) > 100


# -- the layers, one way (DESIGN.md: codec -> parse -> model <- rules <- pbem <- report <- cli) --
# A module may import its own layer and the layers ranked below it, never one above. model/ and
# codec/ are the ground; the package-root modules (load, savedgame, packs, state_builder, ...)
# join files to rules and sit between rules/ and pbem/; errors.py and limits.py (the bounds on
# every input, docs/reliability.md) are imported by every layer. batch/ runs the commands of
# cli/ over many games in worker processes (issue 16): it is of the command line's layer.
LAYER_RANK = {"model": 0, "codec": 0, "parse": 1, "rules": 2, "pbem": 4, "report": 5, "cli": 6, "batch": 6}
ROOT_RANK, ERRORS = 3, "vassal_adj.errors"
GROUND = (ERRORS, "vassal_adj.limits", "vassal_adj")


def _rank(module: str) -> int | None:
    parts = module.split(".")
    if module in GROUND:  # the package itself only names the public entry points
        return None
    if module == "vassal_adj.__main__":  # `python -m vassal_adj` is the command line
        return LAYER_RANK["cli"]
    return LAYER_RANK.get(parts[1], ROOT_RANK)


def _upward(graph: dict[str, set[str]]) -> list[str]:
    return sorted(
        f"{m} -> {t}"
        for m, targets in graph.items()
        for t in targets
        if m != "vassal_adj"
        and (rt := _rank(t)) is not None
        and (rm := _rank(m)) is not None
        and rt > rm
        and t not in ALLOWED
    )


def test_layers_import_one_way() -> None:
    bad = _upward(_package_graph())
    assert not bad, "a layer imports one above it (DESIGN.md's flow): " + "; ".join(bad)


def test_the_layer_check_sees_an_upward_import() -> None:
    graph = {
        "vassal_adj.rules.engine": {"vassal_adj.pbem.verify"},
        "vassal_adj.pbem.verify": {"vassal_adj.rules.engine"},
        "vassal_adj.model.pieces": {"vassal_adj.parse.tokens", "vassal_adj.errors"},
    }
    assert _upward(graph) == ["vassal_adj.rules.engine -> vassal_adj.pbem.verify"]


# The hex geometry imports one way (DESIGN.md model/geometry/): each module only the ones before it.
GEOMETRY_ORDER = (
    "hexes",
    "square_numbering",
    "numbering",
    "zones",
    "snapping",
    "grid",
    "hex_index",
    "layout",
    "edge_hexes",
    "maps",
    "regions",
    "batch",
)


def test_geometry_imports_one_way() -> None:
    graph, prefix = _package_graph(), "vassal_adj.model.geometry"
    present = {m.removeprefix(prefix + ".") for m in graph if m.startswith(prefix + ".")}
    assert present == set(GEOMETRY_ORDER), f"geometry modules not in GEOMETRY_ORDER: {present ^ set(GEOMETRY_ORDER)}"
    bad = [
        f"{name} -> {t}"
        for i, name in enumerate(GEOMETRY_ORDER)
        for t in graph[f"{prefix}.{name}"]
        if t.startswith(prefix + ".") and GEOMETRY_ORDER.index(t.removeprefix(prefix + ".")) >= i
    ]
    assert not bad, f"geometry imports against its order: {bad}"
