"""The public entry points: read a module, read a saved game or log."""

from __future__ import annotations

from vassal_adj.codec.archive import StrPath, read_archive
from vassal_adj.codec.sniff import Kind, build_file_entry, sniff
from vassal_adj.errors import UsageError, Where
from vassal_adj.model.module import Module
from vassal_adj.parse.images import image_size_from_bytes
from vassal_adj.savedgame import SavedGame, saved_game_from_archive


def load_module(path: StrPath) -> Module:
    """Read a module (`.vmod`) or extension (`.vmdx`): maps, boards, grids, pieces, dice.

    What the file is comes from its content, not its name. Board sizes come from the board
    images inside the module.
    """
    # lxml, loaded only when a module is read
    from vassal_adj.parse.buildfile import parse_buildfile

    archive = read_archive(path)
    kind = sniff(archive)
    if kind is Kind.SAVE:
        raise UsageError("this is a saved game or log, not a module", Where(path=archive.path))
    entry = build_file_entry(archive)

    def image_size(name: str) -> tuple[int, int] | None:
        data = archive.entries.get("images/" + name)
        return None if data is None else image_size_from_bytes(data)

    return parse_buildfile(
        archive.entries[entry],
        path=archive.path,
        entry=entry,
        image_size=image_size,
        metadata=archive.entries.get("moduledata"),
    )


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
