"""Damaged corpus files: whatever the damage, only VassalAdjError may come out of the codec."""

from __future__ import annotations

import random
import zlib
from pathlib import Path

import pytest

from conftest import MODULES, SAVES, ids, need_corpus
from vassal_adj.codec.archive import archive_from_bytes, read_archive
from vassal_adj.codec.obfuscation import decode_saved_game
from vassal_adj.codec.sniff import sniff
from vassal_adj.errors import VassalAdjError, Where

FILES = SAVES + MODULES
TRUNCATIONS = 8
FLIPS = 12


def variants(data: bytes, seed: int) -> list[tuple[str, bytes]]:
    """Deterministic damaged copies: truncations and single bit flips.

    Half the flips land in the last 4 KiB, where the central directory and the end record
    are, since damage there reaches the most code; the rest anywhere.
    """
    rng = random.Random(seed)
    n = len(data)
    out: list[tuple[str, bytes]] = []
    cuts = {0, 1, 4, n - 1, n - 22} | {rng.randrange(n) for _ in range(TRUNCATIONS)}
    for cut in sorted(c for c in cuts if 0 <= c < n)[:TRUNCATIONS]:
        out.append((f"truncated at {cut}", data[:cut]))
    tail = max(0, n - 4096)
    for i in range(FLIPS):
        pos = rng.randrange(tail, n) if i % 2 else rng.randrange(n)
        bit = rng.randrange(8)
        flipped = bytearray(data)
        flipped[pos] ^= 1 << bit
        out.append((f"bit {bit} flipped at {pos}", bytes(flipped)))
    return out


def exercise(data: bytes, path: str) -> None:
    archive = archive_from_bytes(data, path)
    sniff(archive)
    if "savedGame" in archive.entries:
        decode_saved_game(archive.entries["savedGame"], Where(path=path, entry="savedGame"))


def test_corpus_present() -> None:
    need_corpus()
    assert FILES


@pytest.mark.parametrize("path", FILES, ids=ids(FILES))
def test_damage_raises_only_vassal_adj_errors(path: Path) -> None:
    original = read_archive(path)  # the undamaged file reads
    data = path.read_bytes()
    assert original.entries
    outcomes = {"ok": 0, "error": 0}
    for label, damaged in variants(data, zlib.crc32(path.name.encode())):
        try:
            exercise(damaged, str(path))
        except VassalAdjError as e:
            assert str(e).startswith(str(path)), f"{label}: {e}"
            outcomes["error"] += 1
        except Exception as e:  # noqa: BLE001 - the point of the test
            pytest.fail(f"{label}: {type(e).__name__} escaped: {e}")
        else:
            outcomes["ok"] += 1
    assert outcomes["error"] >= 1, outcomes


def test_damaged_file_on_disk(tmp_path: Path) -> None:
    need_corpus()
    data = SAVES[0].read_bytes()
    for i, (label, damaged) in enumerate(variants(data, 1)):
        target = tmp_path / f"{i}.vsav"
        target.write_bytes(damaged)
        try:
            sniff(read_archive(target))
        except VassalAdjError as e:
            assert str(target) in str(e), label


@pytest.mark.parametrize("path", SAVES, ids=ids(SAVES))
def test_damaged_saved_game_payload(path: Path) -> None:
    """Damage after decompression reaches the de-obfuscation: bad digits, bad UTF-8, odd size."""
    payload = read_archive(path).entries["savedGame"]
    rng = random.Random(zlib.crc32(path.name.encode()))
    damaged = [payload[: rng.randrange(8, len(payload))] for _ in range(3)]
    for _ in range(7):
        flipped = bytearray(payload)
        flipped[rng.randrange(len(payload))] ^= 1 << rng.randrange(8)
        damaged.append(bytes(flipped))
    where = Where(path=str(path), entry="savedGame")
    for data in damaged:
        try:
            decode_saved_game(data, where)
        except VassalAdjError as e:
            assert str(e).startswith(f"{path}!savedGame: offset "), str(e)
