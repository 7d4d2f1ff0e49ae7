"""Which files make a game, and in what order (issue 16).

A folder holding sub-folders: each sub-folder that holds saves or logs is one game. A folder
holding the files themselves: they are grouped by the name pattern's ``game`` group (by default
the name up to its first ``-``, ``_``, space or dot: ``smith-jones_t3.vlog`` is game ``smith``...
so give ``--group`` for other names). Within a game, files go in the order VASSAL wrote them
(savedata's ``dateSaved``, milliseconds since 1970) and then by name; a file whose date cannot
be read (no savedata, not a zip) goes after the dated ones: its place is a guess, and the
summary says the file is broken or undated.
"""

from __future__ import annotations

import re
import zipfile
from dataclasses import dataclass
from pathlib import Path

from vassal_adj.errors import UsageError, Where

__all__ = ["DEFAULT_GROUP", "Game", "find_games", "saved_date"]

# The files a game may hold: VASSAL's saves and logs (any other file in a game's folder is left alone).
SUFFIXES = (".vsav", ".vlog")
DEFAULT_GROUP = r"(?P<game>[^-_ .]+)"
_DATE = re.compile(rb"<dateSaved>\s*(\d{1,18})\s*</dateSaved>")


@dataclass(frozen=True)
class Game:
    """One game: its name (a folder's, or the pattern's group) and its files in game order."""

    name: str
    files: tuple[str, ...]


def saved_date(path: str) -> int | None:
    """savedata's dateSaved (ms since 1970), None when the file has none or is no zip."""
    try:
        with zipfile.ZipFile(path) as zf:
            info = zf.getinfo("savedata")
            if info.file_size > 1 << 20:  # VASSAL writes a few hundred bytes
                return None
            found = _DATE.search(zf.read(info))
    except (OSError, KeyError, zipfile.BadZipFile, ValueError, RuntimeError, EOFError):
        return None
    return int(found.group(1)) if found else None


def _ordered(files: list[Path]) -> tuple[str, ...]:
    dated = [(saved_date(str(f)), f.name, str(f)) for f in files]
    return tuple(p for _, _, p in sorted(dated, key=lambda d: (d[0] is None, d[0] or 0, d[1])))


def _games_files(folder: Path) -> list[Path]:
    return sorted(p for p in folder.iterdir() if p.is_file() and p.suffix.lower() in SUFFIXES)


def find_games(folder: str, group: str | None = None) -> list[Game]:
    """The games under `folder`, by name; UsageError when it holds none or the pattern is bad."""
    root = Path(folder)
    if not root.is_dir():
        raise UsageError("not a folder of games", Where(path=folder))
    try:
        pattern = re.compile(group or DEFAULT_GROUP)
    except re.error as e:
        raise UsageError(f"--group {group!r} is not a regular expression: {e}") from None
    if "game" not in pattern.groupindex:
        raise UsageError(f"--group {group!r} has no (?P<game>...) group naming the game")
    games = [Game(d.name, _ordered(fs)) for d in sorted(root.iterdir()) if d.is_dir() and (fs := _games_files(d))]
    loose: dict[str, list[Path]] = {}
    for f in _games_files(root):
        m = pattern.match(f.name)
        loose.setdefault(m.group("game") if m and m.group("game") else f.stem, []).append(f)
    taken = {g.name for g in games}
    for name, fs in sorted(loose.items()):
        games.append(Game(name if name not in taken else f"{name} (loose files)", _ordered(fs)))
    if not games:
        raise UsageError(f"no saves or logs ({', '.join(SUFFIXES)}) in it or its sub-folders", Where(path=folder))
    return games
