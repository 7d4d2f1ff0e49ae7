"""The public entry points: read a module, read a saved game or log."""

from __future__ import annotations

import os
import re
from dataclasses import replace

from vassal_adj.codec.archive import Archive, StrPath, read_archive
from vassal_adj.codec.sniff import Kind, sniff
from vassal_adj.errors import UsageError, Where
from vassal_adj.model.module import Module
from vassal_adj.module_cache import cached_module
from vassal_adj.savedgame import SavedGame, saved_game_from_archive


def load_module(path: StrPath) -> Module:
    """Read a module (`.vmod`) or extension (`.vmdx`): maps, boards, grids, pieces, dice.

    What the file is comes from its content, not its name. Board sizes come from the board
    images inside the module.
    """
    return cached_module(os.fspath(path), lambda: _read_module(path))


def _read_module(path: StrPath) -> Module:
    return module_from_archive(read_archive(path))


def module_from_archive(archive: Archive) -> Module:
    """Like `load_module` for an archive already read (never cached)."""
    # lxml, loaded only when a module is read (not when the user cache has it: module_cache.py)
    from vassal_adj.parse.module_archive import parse_module_archive

    module = parse_module_archive(archive)
    # The scenario saves stay undecoded until a rule asks for one (setup_reference.py).
    files = {s.file: archive.entries[s.file] for s in module.predefined_setups if s.file in archive.entries}
    return replace(module, setup_files=files, source=archive.path) if files else module


def load_image(path: StrPath, name: str, *, board: str | None = None) -> bytes:
    """The bytes of image `name` (the `images/<name>` entry) of a module.

    A missing image is a UsageError naming the board that needs it, when given: VASSAL
    itself draws such a board blank, but nothing can be read from a picture that is absent.
    """
    archive = read_archive(path)
    data = archive.entries.get("images/" + name)
    if data is None:
        whose = f"board {board!r} uses image {name!r}" if board else f"image {name!r}"
        raise UsageError(f"{whose}, but the module has no entry 'images/{name}'", Where(path=archive.path))
    return data


def load_save(path: StrPath) -> SavedGame:
    """Read a saved game (`.vsav`), a log (`.vlog`) or an old unzipped save, by content."""
    archive = read_archive(path)
    if sniff(archive) is not Kind.SAVE:
        raise UsageError("this is a module, not a saved game or log", Where(path=archive.path))
    return saved_game_from_archive(archive)


# A version number at the end of a module name ("V4.2", "2.1.1", "(v3.7.9)"): at least one dot, so a
# year or a number that is part of the name ("1981", "Panzer 2") stays.
_NAME_VERSION = r"[\s(]*v?\d+(?:\.\d+)+[a-z0-9.-]*\)?$"


def _bare_name(name: str) -> str:
    """A module name without the version numbers ending it, in any case."""
    while (bare := re.sub(_NAME_VERSION, "", name.strip(), flags=re.IGNORECASE)) != name.strip():
        name = bare
    return name.strip().casefold()


def same_module(game: SavedGame, module: Module, module_path: StrPath) -> list[str]:
    """Check that `game` was saved with `module`, as its `moduledata` entry (a copy of the
    module's, written by VASSAL into every save and log) names it.

    Another module name is a UsageError naming both files, names and versions: read on another
    module's maps and pieces, every place and unit would be wrong. A version number ending a
    name is the version, not the name (real modules put it there: a corpus log of module 'Game'
    4.1.2 played on 'Game V4.2'). Another version is a note (VASSAL itself loads such a save,
    and a new version often changes nothing a rule reads).
    A save with no `moduledata` (scenario files often have none), or no name in it, names no
    module: a note says it was not checked, and the save is read on the module given.
    """
    saved = game.module_metadata
    if not saved.get("name"):
        return [
            (
                f"{game.path} names no module (no name in a moduledata entry): not checked that it was saved "
                f"with {module_path} (module {module.name!r})"
            )
        ]
    name, version = saved.get("name", ""), saved.get("version", "")
    # the name itself first: the same name is the same bare name, without compiling the pattern
    same_name = name == module.name or _bare_name(name) in {
        _bare_name(module.name),
        _bare_name(module.metadata.get("name", module.name)),
    }
    if not same_name:
        raise UsageError(
            f"the game was saved with module {name!r} version {version!r}, but --module {module_path} "
            f"is module {module.name!r} version {module.version!r}: give the module the game is "
            f"played with",
            Where(path=game.path),
        )
    if version != module.version:
        return [
            (
                f"{game.path} was saved with version {version!r} of module {name!r}; {module_path} is version "
                f"{module.version!r}: pieces or maps that changed between them may be read wrongly"
            )
        ]
    return []
