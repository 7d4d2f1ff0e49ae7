"""A module's buildFile parsed out of its archive, with board sizes read from the archive's images:
the one path by which `load_module` and lint's input reader turn an archive into a Module."""

from __future__ import annotations

from vassal_adj.codec.archive import Archive
from vassal_adj.codec.sniff import Kind, build_file_entry, sniff
from vassal_adj.errors import UsageError, Where
from vassal_adj.model.module import Module
from vassal_adj.parse.buildfile import parse_buildfile
from vassal_adj.parse.images import image_size_from_bytes

__all__ = ["parse_module_archive"]


def parse_module_archive(archive: Archive) -> Module:
    """The Module of a `.vmod`/`.vmdx` archive; a saved game or log given instead is a UsageError."""
    if sniff(archive) is Kind.SAVE:
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
