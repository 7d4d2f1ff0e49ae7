"""`Place`: a directory searched for rule packs, and why (pack_paths.py gives the search path).

Its own module so that `vassal-adj --help`, which reads pack_paths.py for the text of
``--packs-dir``, does not import dataclasses and make this class (issue 10, startup time).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from pathlib import Path

__all__ = ["Place"]


@dataclass(frozen=True)
class Place:
    """A directory searched for packs, and why it is searched (shown when no pack is found)."""

    path: Path
    origin: str

    def __str__(self) -> str:
        return f"{self.path} ({self.origin})"
