"""What an archive is: a module, an extension or a saved game (logs are saves until parsed).

Follows "How VASSAL classifies an archive" in VASSAL-FORMATS.md section 1, in the same order.
"""

from __future__ import annotations

import enum
import itertools

from vassal_adj.codec.archive import Archive
from vassal_adj.errors import FormatError, Where

_BUILD_FILES = ("buildFile.xml", "buildFile")
_MODULE_ROOTS = ("VASSAL.build.GameModule", "VASSAL.launch.BasicModule")
_EXTENSION_ROOT = "VASSAL.build.module.ModuleExtension"
_SNIFF_LINES = 10
_MODULE_ROOTS_B = tuple(r.encode() for r in _MODULE_ROOTS)
_EXTENSION_ROOT_B = _EXTENSION_ROOT.encode()


class Kind(enum.Enum):
    """The kind of a VASSAL archive. A .vlog is a SAVE: logs differ only in their commands."""

    MODULE = "module"
    EXTENSION = "extension"
    SAVE = "save"


def build_file_entry(archive: Archive) -> str:
    """The name of the archive's build file: ``buildFile.xml``, else the pre-3.5 ``buildFile``.

    Raises `FormatError` when there is neither.
    """
    for name in _BUILD_FILES:
        if name in archive.entries:
            return name
    raise FormatError("no buildFile.xml or buildFile entry", Where(path=archive.path))


def sniff(archive: Archive) -> Kind:
    """Classify `archive` as VASSAL does; `FormatError` if it is neither module nor save."""
    entries = archive.entries
    if "savedGame" in entries:
        return Kind.SAVE
    if not any(name in entries for name in _BUILD_FILES):
        raise FormatError(
            "neither a module nor a saved game: no buildFile.xml, buildFile or savedGame entry",
            Where(path=archive.path),
        )
    if "extensiondata" in entries:
        return Kind.EXTENSION
    if "moduledata" in entries:
        return Kind.MODULE
    return _sniff_build_file(archive)


def _sniff_build_file(archive: Archive) -> Kind:
    # VASSAL reads the first lines of the build file and takes the first root element name
    # it meets, module names being tested before the extension name on each line.
    # Bytes, not text: the names are ASCII, and build files run to megabytes.
    name = build_file_entry(archive)
    head = archive.entries[name].split(b"\n", _SNIFF_LINES)[:_SNIFF_LINES]
    # Java's readLine ends a line at LF, CR or CRLF.
    lines = (piece for part in head for piece in part.removesuffix(b"\r").split(b"\r"))
    for line in itertools.islice(lines, _SNIFF_LINES):
        if any(root in line for root in _MODULE_ROOTS_B):
            return Kind.MODULE
        if _EXTENSION_ROOT_B in line:
            return Kind.EXTENSION
    raise FormatError(
        f"neither a module nor an extension: no {_MODULE_ROOTS[0]!r}, {_MODULE_ROOTS[1]!r} or "
        f"{_EXTENSION_ROOT!r} root element in the first {_SNIFF_LINES} lines of the build file",
        Where(path=archive.path, entry=name),
    )
