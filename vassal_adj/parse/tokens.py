"""VASSAL's SequenceEncoder: the one-character-delimiter field encoding used everywhere.

`split` decodes exactly like ``SequenceEncoder.Decoder`` (all VASSAL versions), `join`
encodes exactly like the VASSAL >= 3.4 ``SequenceEncoder`` (spec section 4). `Fields` and
the ``*_or`` helpers are the typed readers (``nextInt``, ``nextBoolean`` ...) with VASSAL's
lenient defaults.
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence

__all__ = [
    "split",
    "join",
    "unquote",
    "Fields",
    "int_or",
    "parse_int",
    "is_integer",
    "whole_number",
    "long_or",
    "float_or",
    "bool_of",
    "char_or",
    "java_trim",
]

_INT_MIN, _INT_MAX = -(2**31), 2**31 - 1
_LONG_MIN, _LONG_MAX = -(2**63), 2**63 - 1
# Java's Integer.parseInt: optional sign, then digits (Character.digit accepts any Unicode
# decimal digit, as does Python's \d on str); no spaces, no underscores.
_INT_RE = re.compile(r"[+-]?\d+")
# Double.valueOf trims Java whitespace and accepts an optional d/D/f/F suffix.
_FLOAT_RE = re.compile(r"[+-]?(NaN|Infinity|((\d+\.?\d*|\.\d+)([eE][+-]?\d+)?))[dDfF]?", re.ASCII)
_JAVA_SPACE = "".join(map(chr, range(33)))


def unquote(text: str) -> str:
    """Drop one pair of wrapping single quotes, as the decoder does for every field."""
    if len(text) > 1 and text[0] == "'" and text[-1] == "'":
        return text[1:-1]
    return text


def split(s: str | None, delim: str) -> list[str]:
    """Decode a SequenceEncoder string into its fields (spec 4.2, every quirk included).

    ``None`` gives no fields, ``""`` one empty field. A backslash directly before a
    delimiter escapes it (the backslash is dropped); other backslashes are kept; a field
    wrapped in single quotes loses them.

    >>> split(r"a\\,b,'c',", ",")
    ['a,b', 'c', '']
    """
    if s is None:
        return []
    if len(delim) != 1:
        raise ValueError(f"delimiter must be one character, got {delim!r}")
    escaped = "\\" + delim
    fields = s.split(delim)
    if escaped in s:
        fields = _merge_escaped(fields, delim)
    if "'" in s:
        return [unquote(f) for f in fields]
    return fields


def _merge_escaped(parts: list[str], delim: str) -> list[str]:
    # A delimiter preceded by a backslash is escaped (even when that backslash ends the
    # previous field): the decoder drops the backslash and keeps the delimiter as text.
    # After a plain split, that is a part ending in a backslash that is not the last part.
    fields: list[str] = []
    pending: list[str] = []
    for part in parts:
        if part.endswith("\\"):
            pending.append(part[:-1])
        elif pending:
            pending.append(part)
            fields.append(delim.join(pending))
            pending = []
        else:
            fields.append(part)
    if pending:  # the last part ends in a backslash that escapes nothing: keep it
        fields.append(delim.join(pending) + "\\")
    return fields


def _needs_quotes(field: str, safe: bool) -> bool:
    if field[0] == "\\" or (field[0] == "'" and field[-1] == "'"):
        return True
    return safe and field[-1] == "\\"


def join(fields: Sequence[str | None], delim: str, *, safe: bool = False) -> str:
    """Encode fields with delimiter `delim` exactly as VASSAL >= 3.4 does (spec 4.1).

    ``None`` and ``""`` both encode as an empty field. With ``safe=True`` a field ending
    in a backslash is quoted too, which avoids VASSAL's round-trip bug (spec 4.3) while
    staying readable by every VASSAL version; the default reproduces VASSAL's bytes.

    >>> join(["a,b", "\\\\srv", None], ",")
    "a\\\\,b,'\\\\srv',"
    """
    if len(delim) != 1:
        raise ValueError(f"delimiter must be one character, got {delim!r}")
    if not fields:
        raise ValueError("an empty list has no encoding")
    escaped = "\\" + delim
    out = []
    for field in fields:
        if not field:
            out.append("")
            continue
        text = field.replace(delim, escaped) if delim in field else field
        if _needs_quotes(field, safe):
            text = "'" + text + "'"
        out.append(text)
    return delim.join(out)


def _java_integer(text: str, low: int, high: int) -> int | None:
    # Leading zeros are legal in Java; past them a 64-bit value has at most 19 digits, so a
    # longer run is out of range before int() is asked (it refuses over 4,300 digits).
    if not _INT_RE.fullmatch(text):
        return None
    digits = text.lstrip("+-").lstrip("0")
    if len(digits) > 19:
        return None
    value = int(digits or "0") * (-1 if text[0] == "-" else 1)
    return value if low <= value <= high else None


def is_integer(text: str) -> bool:
    """Whether `text` has the form of a Java integer (sign and digits), in range or not."""
    return _INT_RE.fullmatch(text) is not None


def whole_number(text: str) -> int | None:
    """A count or strength written in digits alone (no sign), within Java's int range, else None.

    Not ``int(text) if text.isdigit()``: isdigit accepts "²", which int() refuses, and int()
    refuses over 4,300 digits; both were a crash on a crafted save.
    """
    return parse_int(text) if text.isdigit() else None


def parse_int(text: str) -> int | None:
    """The value of `text` under Java's ``Integer.parseInt``, or None when that would throw."""
    return _java_integer(text, _INT_MIN, _INT_MAX)


def int_or(text: str | None, default: int) -> int:
    """``nextInt(default)``: the int in `text`, or `default` if missing or not a Java int."""
    if text is None:
        return default
    value = parse_int(text)
    return default if value is None else value


def long_or(text: str | None, default: int) -> int:
    """``nextLong(default)``: like `int_or` with Java's 64-bit range."""
    value = None if text is None else _java_integer(text, _LONG_MIN, _LONG_MAX)
    return default if value is None else value


def float_or(text: str | None, default: float) -> float:
    """``nextDouble(default)``: Java ``Double.valueOf`` of `text`, or `default`."""
    if text is None:
        return default
    t = text.strip(_JAVA_SPACE)
    if not _FLOAT_RE.fullmatch(t):
        return default
    t = t.rstrip("dDfF")
    if t.lstrip("+-") == "Infinity":
        return -math.inf if t[0] == "-" else math.inf
    return float(t)  # float() reads "NaN"; Java never writes "-NaN" but reads it as NaN


def bool_of(text: str | None, default: bool = False) -> bool:
    """``nextBoolean(default)``: true only for the exact text ``true``; missing -> default."""
    if text is None:
        return default
    return text == "true"


def char_or(text: str | None, default: str) -> str:
    """``nextChar(default)``: the first character of `text`, or `default` if missing/empty."""
    return text[0] if text else default


class Fields:
    """A cursor over decoded fields, mirroring ``SequenceEncoder.Decoder``.

    Missing trailing fields yield the caller's default; `rest` returns the fields not yet
    read so that writers can keep unknown trailing fields.
    """

    __slots__ = ("items", "pos")

    def __init__(self, text: str | None, delim: str) -> None:
        self.items: list[str] = split(text, delim)
        self.pos = 0

    def __len__(self) -> int:
        return len(self.items)

    def has_more(self) -> bool:
        """Whether a field is left (``hasMoreTokens``)."""
        return self.pos < len(self.items)

    def next(self, default: str | None = None) -> str | None:
        """The next field, or `default` when none is left (``nextToken(default)``)."""
        if self.pos >= len(self.items):
            return default
        self.pos += 1
        return self.items[self.pos - 1]

    def next_str(self, default: str = "") -> str:
        """The next field as a string, `default` when none is left."""
        value = self.next()
        return default if value is None else value

    def next_int(self, default: int) -> int:
        """``nextInt(default)``."""
        return int_or(self.next(), default)

    def next_long(self, default: int) -> int:
        """``nextLong(default)``."""
        return long_or(self.next(), default)

    def next_float(self, default: float) -> float:
        """``nextDouble(default)``."""
        return float_or(self.next(), default)

    def next_bool(self, default: bool = False) -> bool:
        """``nextBoolean(default)``: a present field is true only if it is exactly ``true``."""
        return bool_of(self.next(), default)

    def next_char(self, default: str) -> str:
        """``nextChar(default)``."""
        return char_or(self.next(), default)

    def rest(self) -> list[str]:
        """All fields not read yet (and consume them)."""
        out = self.items[self.pos :]
        self.pos = len(self.items)
        return out


# Java String.trim removes exactly the characters U+0000..U+0020 (pitfall 7).
_JAVA_TRIM = "".join(map(chr, range(33)))


def java_trim(text: str | None) -> str:
    """`text` with leading/trailing characters <= U+0020 removed, as Java's String.trim (here,
    not with the buildFile's readers: the metadata of a save need it without lxml)."""
    return (text or "").strip(_JAVA_TRIM)
