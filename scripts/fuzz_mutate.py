"""Mutations of real files for fuzzing (issue 17): raw bytes, text, zip structure, XML, TOML.

Every mutator takes a `random.Random` and returns a new value, never changing its input; the
same mutators serve the in-suite tests (tests/test_fuzz_*.py, where hypothesis supplies the
Random) and the long campaign (scripts/fuzz.py). The values injected are those that broke the
readers before: numbers past Java's int range or of thousands of digits, zero, NaN, long runs
of backslashes before an ESC, separators, and sizes and offsets at their extremes.
"""

from __future__ import annotations

import io
import random
import re
import struct
import warnings
import zipfile

ESC = "\x1b"

NUMBERS = (
    "0", "-0", "-1", "1", "2147483647", "2147483648", "-2147483649", "9223372036854775808",
    "9" * 25, "9" * 5000, "1e308", "1e-300", "NaN", "Infinity", "-Infinity", "0.0001", "²", "0x10",
    " 7", "1_000", "",
)  # fmt: skip
TOKENS = (
    ESC, "\\" * 3 + ESC, "\\" * 250 + ESC, "\\", "\t", ";", "/", ",", "+/", "D/", "M/", "LOG\t",
    "begin_save", "end_save", "\n", "\r", "\x00", "\ufeff", "é", "\u202e", "'", '"', "<", "&amp;",
    "#", "=", "[", "]", "{", "}",
)  # fmt: skip
_DIGITS = re.compile(r"-?\d+(?:\.\d+)?")


def _interesting(rng: random.Random) -> str:
    return rng.choice(NUMBERS) if rng.random() < 0.6 else rng.choice(TOKENS)


def mutate_bytes(rng: random.Random, data: bytes, rounds: int = 0) -> bytes:
    """1-4 raw edits: bit flips, interesting bytes, cut, copied or inserted runs, truncation."""
    out = bytearray(data)
    for _ in range(rounds or rng.randint(1, 4)):
        if not out:
            out += rng.choice(TOKENS).encode()
            continue
        at = rng.randrange(len(out))
        op = rng.randrange(6)
        if op == 0:
            out[at] ^= 1 << rng.randrange(8)
        elif op == 1:
            out[at] = rng.choice((0, 0xFF, 0x7F, 0x80, 0x1B, 0x5C, 0x0A, 0x3B, 0x2F, 0x09))
        elif op == 2:
            del out[at : at + rng.randint(1, 64)]
        elif op == 3:
            run = out[at : at + rng.randint(1, 256)]
            where = rng.randrange(len(out))
            out[where:where] = run * rng.choice((1, 2, 16))
        elif op == 4:
            out[at:at] = _interesting(rng).encode("utf-8")
        else:
            del out[at:]
    return bytes(out)


def mutate_text(rng: random.Random, text: str, rounds: int = 0) -> str:
    """1-4 edits aimed at text formats: a number replaced, a token inserted, a span cut or copied."""
    for _ in range(rounds or rng.randint(1, 4)):
        if not text:
            text = _interesting(rng)
            continue
        op = rng.randrange(5)
        at = rng.randrange(len(text))
        if op <= 1:
            numbers = list(_DIGITS.finditer(text, max(0, at - 2000), at + 2000)) or list(_DIGITS.finditer(text))
            if numbers:
                m = rng.choice(numbers)
                text = text[: m.start()] + rng.choice(NUMBERS) + text[m.end() :]
                continue
        if op == 2:
            text = text[:at] + _interesting(rng) + text[at:]
        elif op == 3:
            text = text[:at] + text[at + rng.randint(1, 40) :]
        else:
            run = text[at : at + rng.randint(1, 200)]
            where = rng.randrange(len(text))
            text = text[:where] + run * rng.choice((1, 2, 8)) + text[where:]
    return text


def mutate_commands(rng: random.Random, text: str, sep: str = ESC) -> str:
    """Whole parts (commands, traits, lines: split at `sep`) dropped, copied or swapped, or text
    edits in one of them."""
    parts = text.split(sep)
    op = rng.randrange(4)
    i, j = rng.randrange(len(parts)), rng.randrange(len(parts))
    if op == 0 and len(parts) > 2:
        del parts[i]
    elif op == 1:
        parts.insert(j, parts[i])
    elif op == 2:
        parts[i], parts[j] = parts[j], parts[i]
    else:
        parts[i] = mutate_text(rng, parts[i])
    return sep.join(parts)


# -- zip structure -----------------------------------------------------------------------------
# (signature, offsets of the 2- and 4-byte fields worth changing: counts, sizes, offsets, lengths)
_RECORDS = (
    (b"PK\x03\x04", ((6, 2), (8, 2), (14, 4), (18, 4), (22, 4), (26, 2), (28, 2))),
    (b"PK\x01\x02", ((8, 2), (10, 2), (16, 4), (20, 4), (24, 4), (28, 2), (30, 2), (32, 2), (42, 4))),
    (b"PK\x05\x06", ((4, 2), (6, 2), (8, 2), (10, 2), (12, 4), (16, 4), (20, 2))),
)
_FIELD_VALUES = (0, 1, 0xFFFF, 0xFFFFFFFF, 0x7FFFFFFF, 0x80000000, 8, 12, 99)
_NAMES = ("savedGame", "buildFile.xml", "buildFile", "moduledata", "savedata", "../evil", "/abs", "a/", "", "é")


def mutate_zip(rng: random.Random, data: bytes) -> bytes:
    """A change to the zip's structure: a header field, or entries dropped, copied or renamed."""
    if rng.random() < 0.5:
        spots = [(m.start(), fields) for sig, fields in _RECORDS for m in re.finditer(re.escape(sig), data)]
        if spots:
            start, fields = rng.choice(spots)
            offset, width = rng.choice(fields)
            value = rng.choice(_FIELD_VALUES) & (0xFFFF if width == 2 else 0xFFFFFFFF)
            if rng.random() < 0.3:
                value = rng.getrandbits(8 * width)
            packed = struct.pack("<H" if width == 2 else "<I", value)
            out = bytearray(data)
            out[start + offset : start + offset + width] = packed
            return bytes(out)
    try:
        with zipfile.ZipFile(io.BytesIO(data)) as z:
            entries = [(i.filename, z.read(i), i.compress_type) for i in z.infolist()]
    except Exception:  # noqa: BLE001 - a seed already broken: fall back to raw edits
        return mutate_bytes(rng, data)
    op = rng.randrange(4)
    if entries and op == 0:
        del entries[rng.randrange(len(entries))]
    elif entries and op == 1:
        entries.insert(rng.randrange(len(entries) + 1), rng.choice(entries))
    elif entries and op == 2:
        k = rng.randrange(len(entries))
        entries[k] = (rng.choice(_NAMES), *entries[k][1:])
    elif entries:
        k = rng.randrange(len(entries))
        entries[k] = (entries[k][0], mutate_bytes(rng, entries[k][1]), entries[k][2])
    buf = io.BytesIO()
    with warnings.catch_warnings(), zipfile.ZipFile(buf, "w") as z:
        warnings.simplefilter("ignore")  # a copied entry: "Duplicate name", the point of the copy
        for name, body, method in entries:
            info = zipfile.ZipInfo(name or "x")
            info.filename = name  # an empty name too: zipfile refuses it only in the constructor
            info.compress_type = method if method in (zipfile.ZIP_STORED, zipfile.ZIP_DEFLATED) else 8
            z.writestr(info, body)
    return buf.getvalue()


# -- XML ---------------------------------------------------------------------------------------
_ATTR = re.compile(rb'(\s[\w:.-]+)="([^"]*)"')
_ELEMENT = re.compile(rb"<([\w.]+)[^<>]*/>")


def mutate_xml(rng: random.Random, data: bytes) -> bytes:
    """An attribute's value replaced (by an interesting value or another attribute's), an empty
    element dropped or repeated, or raw edits."""
    op = rng.randrange(4)
    if op <= 1:
        attrs = list(_ATTR.finditer(data))
        if attrs:
            m = rng.choice(attrs)
            new = rng.choice(NUMBERS).encode() if op == 0 else rng.choice(attrs).group(2)
            new = new.replace(b'"', b"&quot;").replace(b"<", b"&lt;")
            return data[: m.start(2)] + new + data[m.end(2) :]
    if op == 2:
        elements = list(_ELEMENT.finditer(data))
        if elements:
            m = rng.choice(elements)
            copies = rng.choice((0, 2, 50))
            return data[: m.start()] + m.group(0) * copies + data[m.end() :]
    return mutate_bytes(rng, data, rounds=1)


# -- TOML data ---------------------------------------------------------------------------------
_VALUES = (0, -1, 2**31, 10**30, 1.5, float("nan"), float("inf"), "", "x", "0101", True, [], [1, "a"], {}, {"a": 1})


def mutate_mapping(rng: random.Random, data: object) -> object:
    """A deep copy of parsed TOML with one value replaced, one key dropped or one key added."""
    import copy

    data = copy.deepcopy(data)
    holders: list[dict | list] = []

    def walk(node: object) -> None:
        if isinstance(node, dict):
            holders.append(node)
            for v in node.values():
                walk(v)
        elif isinstance(node, list):
            holders.append(node)
            for v in node:
                walk(v)

    walk(data)
    if not holders:
        return data
    node = rng.choice(holders)
    keys = list(node.keys()) if isinstance(node, dict) else list(range(len(node)))
    op = rng.randrange(3)
    if keys and op == 0:
        node[rng.choice(keys)] = copy.deepcopy(rng.choice(_VALUES))  # type: ignore[index]
    elif keys and op == 1:
        del node[rng.choice(keys)]  # type: ignore[arg-type]
    elif isinstance(node, dict):
        node[rng.choice(("zz", "impl", "file", "side", "hexes", *map(str, keys)))] = rng.choice(_VALUES)
    else:
        node.append(copy.deepcopy(rng.choice(_VALUES)))
    return data
