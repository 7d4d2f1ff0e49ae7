"""The documentation names only implementations that exist, and its examples are valid packs.

A pack author copies what docs/adding-a-rule-pack.md and the template show: an `impl` that is
not registered fails at once, but only after the author wrote the rule around it. Every dotted
name in backticks (`supply.trace`), every ``impl = "..."`` and every ``@register("...")`` of the
pages below must be a registered implementation, unless it is a file name (`pack.toml`) or a
Python object of vassal_adj (`vassal_adj.rules.packs.unitmap.printed_units`).
"""

from __future__ import annotations

import importlib
import re
import tomllib
from pathlib import Path

import pytest
from conftest import REPO

from vassal_adj.rules.packs.pack import RulePack
from vassal_adj.rules.registry import load_builtin_rules

GUIDE = REPO / "docs" / "adding-a-rule-pack.md"
TEMPLATE = REPO / "modules" / "_template" / "pack.toml"
PAGES = sorted({GUIDE, TEMPLATE, REPO / "README.md", *REPO.glob("docs/*.md"), *REPO.glob("modules/*/README.md")})
DOTTED = re.compile(r"`([a-z][a-z0-9_]*(?:\.[a-z][a-z0-9_]*)+)`")
IMPL = re.compile(r"""(?:\bimpl\s*=\s*|@register\(\s*)["']([^"']+)["']""")
FILE_SUFFIXES = {"py", "toml", "csv", "md", "json", "png", "vmod", "vsav", "vlog", "txt", "html"}


def python_object(name: str) -> bool:
    """Whether `name` is a module or an attribute of one, under vassal_adj."""
    if not name.startswith("vassal_adj."):
        return False
    parts = name.split(".")
    for cut in range(len(parts), 0, -1):
        try:
            obj = importlib.import_module(".".join(parts[:cut]))
        except ImportError:
            continue
        try:
            for attr in parts[cut:]:
                obj = getattr(obj, attr)
        except AttributeError:
            return False
        return True
    return False


def implementation_names(text: str) -> set[str]:
    """The implementation names a page mentions: impl = / @register( strings, and dotted
    backticked names that are neither files nor vassal_adj objects."""
    dotted = {n for n in DOTTED.findall(text) if n.rsplit(".", 1)[1] not in FILE_SUFFIXES and not python_object(n)}
    return dotted | set(IMPL.findall(text))


def test_the_pattern_finds_what_a_page_names() -> None:
    text = (
        "Use `supply.trace`, `terrain.csv` and `vassal_adj.rules.packs.unitmap.printed_units`;\n"
        'impl = "stacking.max_units"\n@register("x.y", params={})\n`packs.implementations()`'
    )
    assert implementation_names(text) == {"supply.trace", "stacking.max_units", "x.y"}
    assert implementation_names("`vassal_adj.rules.packs.unitmap.no_such_thing`") == {
        "vassal_adj.rules.packs.unitmap.no_such_thing"
    }


@pytest.mark.parametrize("page", PAGES, ids=lambda p: str(p.relative_to(REPO)))
def test_every_implementation_a_page_names_is_registered(page: Path) -> None:
    registered = {impl.name for impl in load_builtin_rules().catalog()}
    missing = sorted(implementation_names(page.read_text(encoding="utf-8")) - registered)
    assert not missing, (
        f"{page.relative_to(REPO)} names implementations that are not registered: {missing} "
        f"(registered: {', '.join(sorted(registered))})"
    )


def test_the_guide_lists_every_built_in_implementation() -> None:
    text = GUIDE.read_text(encoding="utf-8")
    unlisted = [impl.name for impl in load_builtin_rules().catalog() if f"| `{impl.name}` |" not in text]
    assert not unlisted, f"add a row to the table of built-in implementations in {GUIDE.name}: {unlisted}"


def test_the_guides_pack_toml_is_a_valid_pack() -> None:
    text = GUIDE.read_text(encoding="utf-8")
    block = text[text.index("## pack.toml") :].split("```toml\n", 1)[1].split("```", 1)[0]
    pack = RulePack.from_mapping(tomllib.loads(block), source="adding-a-rule-pack.md")
    assert [r.impl for r in pack.rules] == ["supply.trace", "stacking.limit"]
    assert pack.cite("stacking") == "kasserine:assumption stacking_limit"


def test_the_templates_example_rules_uncommented_are_valid() -> None:
    text = TEMPLATE.read_text(encoding="utf-8")
    example = text[text.index("# For example:") :]
    rules = "\n".join(line[2:] for line in example.splitlines()[1:] if line.startswith("# "))
    pack = RulePack.from_mapping(tomllib.loads(text + "\n" + rules), source=str(TEMPLATE))
    assert [r.impl for r in pack.rules] == ["stacking.limit", "supply.trace"]
