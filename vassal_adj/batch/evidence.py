"""What a referee can cite (issue 16): each file's fingerprint, the chain of a game's, and
the time between files.

A fingerprint is the SHA-256 of the file's decoded ``savedGame`` text (the game itself: the
same game re-zipped, or obfuscated with another key, keeps it); of a file that has no readable
``savedGame`` (broken, foreign), of its bytes, marked so. The chain link of file i is the
SHA-256 of link i-1 and fingerprint i (link 0: of fingerprint 0 alone), so the last link of a
game stands for its files in their order: a file left out, added or swapped changes it.
The short form is the first 12 hex digits, as git shows a commit.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from dataclasses import dataclass

from vassal_adj.codec.archive import read_archive
from vassal_adj.codec.obfuscation import decode_saved_game
from vassal_adj.errors import VassalAdjError, Where

__all__ = ["SHORT", "Fingerprint", "chain", "fingerprint", "gaps"]

SHORT = 12


@dataclass(frozen=True)
class Fingerprint:
    """A file's SHA-256 (hex) and what was hashed: "savedGame" text, or the file's "bytes"."""

    path: str
    sha256: str
    of: str

    @property
    def short(self) -> str:
        return self.sha256[:SHORT]


def fingerprint(path: str) -> Fingerprint:
    try:
        archive = read_archive(path)
        payload = archive.entries.get("savedGame")
        if payload is not None:
            text, _ = decode_saved_game(payload, Where(path=path, entry="savedGame"))
            return Fingerprint(path, hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest(), "savedGame")
    except (VassalAdjError, OSError, ValueError):
        pass  # hashed as bytes below: a broken file is still evidence of what was sent
    try:
        with open(path, "rb") as f:
            digest = hashlib.file_digest(f, "sha256").hexdigest()
    except OSError:
        digest = ""
    return Fingerprint(path, digest, "bytes")


def chain(prints: Sequence[Fingerprint]) -> list[str]:
    """The chain links, one per file in game order."""
    links: list[str] = []
    for p in prints:
        links.append(hashlib.sha256(((links[-1] + "\n") if links else "").encode() + p.sha256.encode()).hexdigest())
    return links


def gaps(dates: Sequence[int | None], players: Sequence[str | None]) -> dict[str, list[float]]:
    """Per player, the hours between the previous file's date and each file they sent (the
    player a file is credited to: who rolled in it, see worker.py); "unknown" when nobody rolled.
    A file without a date, or the first, gives no gap."""
    out: dict[str, list[float]] = {}
    for i in range(1, len(dates)):
        before, now = dates[i - 1], dates[i]
        if before is None or now is None:
            continue
        out.setdefault(players[i] or "unknown", []).append(round((now - before) / 3_600_000, 2))
    return out
