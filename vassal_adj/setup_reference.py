"""The module's predefined set-ups the pack's rules compare games with (``setup.reference``,
rules/mechanisms/setup_reference.py), read from the module and made states for the rules.

A PredefinedSetup of the buildFile names a save inside the module archive (load_module keeps
its bytes, undecoded, in `Module.setup_files`); here it is decoded, resolved for the pack as a
game's own save is (position.py) and made a `GameState`. A set-up the pack names that the module
lacks, that opens no file or whose file the archive does not hold is a `SetupReference` with the
reason, which the rule reports as "not judged"; a file that is there but unreadable is bad input
(a VassalAdjError naming the module's entry), as a bad save is.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from typing import Any

from vassal_adj.codec.archive import archive_from_bytes
from vassal_adj.model.module import Module, PredefinedSetupDef
from vassal_adj.model.setups import SetupReference
from vassal_adj.packs import LoadedPack
from vassal_adj.position import resolve
from vassal_adj.rules.packs.pack import RulePack
from vassal_adj.savedgame import saved_game_from_archive

__all__ = ["REFERENCE_IMPL", "setup_references", "wanted_setups"]

REFERENCE_IMPL = "setup.reference"


def _names(value: Any) -> Iterator[str]:
    if isinstance(value, str):
        yield value
    elif isinstance(value, Mapping):  # { scenario id -> set-up name }
        yield from (v for v in value.values() if isinstance(v, str))


def wanted_setups(pack: RulePack) -> tuple[str, ...]:
    """The set-ups the pack's enabled ``setup.reference`` rules name, in pack order."""
    out: dict[str, None] = {}
    for rule in pack.rules_using(REFERENCE_IMPL):
        out.update(dict.fromkeys(_names(rule.params.get("setup"))))
    return tuple(out)


def _find(module: Module, name: str) -> PredefinedSetupDef | None:
    # A set-up is named as the menu shows it, or by its file; menus themselves open nothing.
    found = [s for s in module.predefined_setups if not s.is_menu and name in (s.name, s.file)]
    return found[0] if found else None


def setup_references(module: Module, lp: LoadedPack, names: Iterable[str]) -> dict[str, SetupReference]:
    """Each of `names` (a set-up's name or file) as the module defines it, its save made a state
    for `lp` (the position only: pieces, units and boxes). VassalAdjError when a file the module
    holds cannot be read as a save."""
    out: dict[str, SetupReference] = {}
    for name in names:
        found = _find(module, name)
        if found is None:
            out[name] = SetupReference(name, why=f"the module has no predefined set-up named {name!r}")
        elif not found.use_file or not found.file:
            out[name] = SetupReference(
                name, why=f"the module's predefined set-up {name!r} opens no save (a blank start)"
            )
        elif found.file not in module.setup_files:
            out[name] = SetupReference(
                name,
                found.file,
                why=f"the module's predefined set-up {name!r} names the save {found.file!r}, "
                "which the module does not hold",
            )
        else:
            where = f"{module.source or module.name or 'module'}!{found.file}"
            game = saved_game_from_archive(archive_from_bytes(module.setup_files[found.file], where))
            pos = resolve(module, game, lp)
            state, _ = pos.state(pos.pieces, None, None, None)
            out[name] = SetupReference(name, found.file, state)
    return out
