"""Damaged corpus files: whatever the damage, only VassalAdjError may come out of the codec."""

from __future__ import annotations

import random
import zlib
from pathlib import Path

import pytest
from conftest import MODULES, SAVES, ids, need_corpus

from vassal_adj.codec.archive import Archive, archive_from_bytes, read_archive
from vassal_adj.codec.obfuscation import Codec, decode_saved_game, encode_saved_game
from vassal_adj.codec.sniff import sniff
from vassal_adj.errors import VassalAdjError, Where
from vassal_adj.savedgame import saved_game_from_archive

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


@pytest.mark.parametrize("path", SAVES, ids=ids(SAVES))
def test_3_1_damaged_vobs_payload_is_read_or_refused_by_name(path: Path) -> None:
    """The corpus in VASSAL 3.8's binary form (section 3.1), cut short or with a bit flipped, read as
    a whole saved game: each copy reads, or is refused with an error naming the file and the entry.
    A cut before the key, inside a UTF-8 character or inside ``begin_save`` is always refused."""
    text, codec = decode_saved_game(read_archive(path).entries["savedGame"])
    payload = encode_saved_game(text, Codec(True, codec.key, form="vobs"))
    rng = random.Random(zlib.crc32(path.name.encode()))
    # (what, damaged payload, what the error must say, or None when it may read)
    damaged: list[tuple[str, bytes, str | None]] = [
        ("cut before the key", payload[:4], "no key byte"),
        ("cut after the key", payload[:5], "not 'begin_save'"),
        ("cut inside begin_save", payload[:12], "not 'begin_save'"),
    ]
    damaged += [(f"cut at {n}", payload[:n], None) for n in (rng.randrange(16, len(payload)) for _ in range(2))]
    for _ in range(4):
        flipped = bytearray(payload)
        pos, bit = rng.randrange(len(payload)), rng.randrange(8)
        flipped[pos] ^= 1 << bit
        damaged.append((f"bit {bit} flipped at {pos}", bytes(flipped), None))
    for label, data, refusal in damaged:
        try:
            saved_game_from_archive(Archive(path=str(path), form="zip", entries={"savedGame": data}))
        except VassalAdjError as e:
            assert str(e).startswith(f"{path}!savedGame: "), f"{label}: {e}"
            assert refusal is None or refusal in str(e), f"{label}: {e}"
        except Exception as e:  # noqa: BLE001 - the point of the test
            pytest.fail(f"{label}: {type(e).__name__} escaped: {e}")
        else:
            assert refusal is None, f"{label}: read"
