"""The layers import one way (DESIGN.md), and files stay small."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[1] / "vassal_adj"
# model/ and rules/ are pure: no files, no XML, no command line, and no upper layer.
PURE_LAYERS = ("model", "rules")
FORBIDDEN_MODULES = {"lxml", "click", "zipfile", "os", "io", "shutil", "tempfile", "pathlib", "PIL"}
FORBIDDEN_PACKAGES = ("vassal_adj.codec", "vassal_adj.parse", "vassal_adj.report", "vassal_adj.cli",
                      "vassal_adj.load", "vassal_adj.savedgame", "vassal_adj.packs")
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


PURE_FILES = sorted(p for layer in PURE_LAYERS for p in (PACKAGE / layer).glob("*.py"))


@pytest.mark.parametrize("path", PURE_FILES, ids=lambda p: f"{p.parent.name}/{p.name}")
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
    big = {str(p.relative_to(PACKAGE)): n for p in PACKAGE.rglob("*.py")
           if (n := len(p.read_text(encoding="utf-8").splitlines())) > MAX_LINES}
    assert not big, f"files over {MAX_LINES} lines (split them by what they hold): {big}"
