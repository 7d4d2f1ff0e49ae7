"""What lint reads: the module archive's entries, its buildFile as records, and the set-up saves
(the module's own predefined set-ups and the ``--setup`` files), each decoded once.

A module that cannot be read at all is bad input (a VassalAdjError, exit status 2); a set-up save
shipped inside the module that cannot be read is a finding about the module instead, since it is
the module that ships it broken.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import cached_property

from vassal_adj.codec.archive import archive_from_bytes, read_archive
from vassal_adj.codec.sniff import Kind, sniff
from vassal_adj.errors import UsageError, VassalAdjError, Where
from vassal_adj.lint.pieces import Definition, definitions
from vassal_adj.model.module import Module
from vassal_adj.parse.module_archive import parse_module_archive
from vassal_adj.parse.traits import PieceDef, expand_prototypes
from vassal_adj.savedgame import SavedGame, saved_game_from_archive

__all__ = ["LintInput", "SetupFile", "read_lint_input"]


@dataclass(frozen=True)
class SetupFile:
    """A set-up save: `where` its archive entry ("module.vmod!setup.vsav") or path, `menu` the
    PredefinedSetup's name (empty for a ``--setup`` file); `game` None when unreadable (`error`)."""

    where: str
    menu: str
    game: SavedGame | None
    error: str = ""


@dataclass(frozen=True)
class LintInput:
    path: str
    module: Module
    entries: Mapping[str, bytes] = field(repr=False)
    setups: tuple[SetupFile, ...] = ()

    @cached_property
    def definitions(self) -> tuple[Definition, ...]:
        """The buildFile's piece slots and prototypes, parsed once for every check."""
        return definitions(self.module)

    @cached_property
    def expanded(self) -> tuple[PieceDef | None, ...]:
        """Each definition's piece with its prototypes expanded as VASSAL expands them when it
        makes the piece (None: unreadable, or a prototype that includes itself)."""
        texts = {name: p.text for name, p in self.module.prototypes.items()}
        out: list[PieceDef | None] = []
        for d in self.definitions:
            try:
                out.append(None if d.piece is None else expand_prototypes(d.piece, texts))
            except VassalAdjError:
                out.append(None)  # prototypes.cycle reports it
        return tuple(out)


def _module(path: str) -> tuple[Module, Mapping[str, bytes]]:
    archive = read_archive(path)
    module = parse_module_archive(archive)
    return module, archive.entries


def _shipped(path: str, module: Module, entries: Mapping[str, bytes]) -> list[SetupFile]:
    out = []
    for s in module.predefined_setups:
        if s.is_menu or not s.use_file or not s.file or s.file not in entries:
            continue  # a missing file is a structure finding (setups.missing_file)
        where = f"{path}!{s.file}"
        try:
            game = saved_game_from_archive(archive_from_bytes(entries[s.file], where))
        except VassalAdjError as e:
            out.append(SetupFile(where, s.name, None, e.message))
            continue
        out.append(SetupFile(where, s.name, game))
    return out


def read_lint_input(path: str, setup_paths: Sequence[str] = ()) -> LintInput:
    """The module at `path` and its set-ups; VassalAdjError for a module or ``--setup`` file that
    cannot be read (bad input, exit status 2)."""
    module, entries = _module(path)
    setups = _shipped(path, module, entries)
    for p in setup_paths:
        archive = read_archive(p)
        if sniff(archive) is not Kind.SAVE:
            raise UsageError("--setup: this is a module, not a saved game", Where(path=archive.path))
        setups.append(SetupFile(p, "", saved_game_from_archive(archive)))
    return LintInput(path, module, entries, tuple(setups))
