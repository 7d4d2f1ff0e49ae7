"""What a pack.toml says of itself in its ``[pack]`` table, read without loading the pack.

Loading a pack validates every rule and imports its hooks.py; finding the pack for a command
needs only its names and the module it is written for. packs.py reads these first so that
`check` loads the one pack it uses, not every pack on the search path (issue 10, startup time).
Whatever cannot be read here is left to loading the pack, which says what is wrong.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from vassal_adj.errors import PackError
from vassal_adj.pack_files import PACK_FILE, read_toml

__all__ = ["declared_names", "may_fit", "names_in", "pack_table"]


def pack_table(directory: Path) -> dict[str, Any] | None:
    """The ``[pack]`` table of the directory's pack.toml; None when it cannot be read as one."""
    try:
        table = read_toml(directory / PACK_FILE).get("pack")
    except PackError:
        return None
    return table if isinstance(table, dict) else None


def declared_names(directory: Path) -> set[str]:
    """The id and aliases (casefolded) a pack.toml declares; empty when they cannot be read
    (loading the pack then says why)."""
    return names_in(pack_table(directory))


def names_in(table: dict[str, Any] | None) -> set[str]:
    """`declared_names` of a ``[pack]`` table read already (`pack_table`)."""
    if table is None:
        return set()
    aliases = table.get("aliases")
    aliases = [aliases] if isinstance(aliases, str) else aliases if isinstance(aliases, list) else []
    names = [table.get("id"), *aliases]
    return {n.casefold() for n in names if isinstance(n, str)}


def may_fit(table: dict[str, Any] | None, module_name: str, module_version: str) -> bool:
    """False only when the ``[pack.module]`` patterns of a ``[pack]`` table (`pack_table`) are
    readable and do not match the module as `RulePack.fits` matches them (no table: any module,
    as the validator reads it)."""
    module = table.get("module", {"name": ".*"}) if table is not None else None
    if not isinstance(module, dict):
        return True
    name, version = module.get("name"), module.get("version", ".*")
    if not isinstance(name, str) or not isinstance(version, str):
        return True
    try:
        return re.fullmatch(name, module_name) is not None and re.fullmatch(version, module_version) is not None
    except re.error:
        return True
