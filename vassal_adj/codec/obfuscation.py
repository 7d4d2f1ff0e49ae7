"""The `savedGame` obfuscation, in its two forms: the UTF-8 bytes of the command text XOR a key.

* ``!VCSK`` + the key as 2 hex digits + the hex pairs of the XORed bytes: VASSAL 3.0 to 3.7
  (VASSAL-FORMATS.md section 3), called the "vcsk" form here;
* ``VOBS`` + the key as one raw byte + the XORed bytes themselves: VASSAL 3.8 on (section 3.1),
  the "vobs" form.

Data with neither header is plain UTF-8 text. Saves reach tens of megabytes, so every step
here runs in C (``bytes.translate``, ``binascii``); a Python loop over the bytes would cost seconds.
"""

from __future__ import annotations

import binascii
import re
from dataclasses import dataclass
from functools import lru_cache

from vassal_adj.errors import FormatError, UsageError, Where

HEADER = b"!VCSK"
VOBS_HEADER = b"VOBS"
_KEY_AT = len(HEADER)
_BODY_AT = _KEY_AT + 2
_VOBS_BODY_AT = len(VOBS_HEADER) + 1
VCSK = "vcsk"
VOBS = "vobs"
FORMS = (VCSK, VOBS)
# The key of a file converted to an obfuscated form from one that has no usable key (plain text,
# or key 0, which VASSAL 3.8 never writes in the vobs form): fixed, so that conversions are
# reproducible; VASSAL itself picks one at random for every save.
CONVERSION_KEY = 0x5A
_LOWER_HEX = b"0123456789abcdef"
_UPPER_HEX = b"0123456789ABCDEF"
_LETTERS_UPPER = b"ABCDEF"
_NOT_HEX = re.compile(rb"[^0-9A-Fa-f]")
_TO_UPPER = bytes.maketrans(b"abcdef", b"ABCDEF")


@dataclass(frozen=True)
class Codec:
    """How a `savedGame` entry was stored, so that it can be written back the same way.

    ``obfuscated`` False means plain UTF-8 text (``key``, ``upper`` and ``form`` are then
    unused); ``form`` is the obfuscated form, `VCSK` (hex, VASSAL 3.0-3.7) or `VOBS` (binary,
    VASSAL 3.8); ``upper`` means the hex digits of the vcsk form were written in upper case
    (VASSAL itself writes lower case).
    """

    obfuscated: bool
    key: int = 0
    upper: bool = False
    form: str = VCSK

    def __post_init__(self) -> None:
        if self.form not in FORMS:
            raise UsageError(f"unknown savedGame form {self.form!r}: one of {', '.join(FORMS)}")
        if self.upper and self.form != VCSK:
            raise UsageError(f"the {self.form} form has no hex digits to write in upper case")

    def converted(self, form: str) -> Codec:
        """This codec for writing in obfuscated `form`: itself when it already writes that form.

        Otherwise the key is kept when the new form can carry it, so that converting back
        gives the original bytes; plain text and key 0 (never written in the vobs form, section
        3.1) get `CONVERSION_KEY`. Hex digits are written in lower case, as VASSAL does.
        """
        if form not in FORMS:
            raise UsageError(f"unknown savedGame form {form!r}: one of {', '.join(FORMS)}")
        if self.obfuscated and self.form == form:
            return self
        usable = self.obfuscated and (self.key != 0 or form == VCSK)
        return Codec(obfuscated=True, key=self.key if usable else CONVERSION_KEY, form=form)


PLAIN = Codec(obfuscated=False)


@lru_cache(maxsize=256)
def _xor_table(key: int) -> bytes:
    return bytes(b ^ key for b in range(256))


def _at(where: Where | None, offset: int) -> Where:
    return (where or Where()).but(offset=offset)


def _hex_case(hexpart: bytes, where: Where | None) -> bool:
    """Whether `hexpart` is upper case; raises on the first non-hex byte (error path only).

    Two or three ``translate`` passes instead of a regex: deleting the lower-case digits of a
    VASSAL-written (lower-case) stream leaves nothing, which is the common, fast answer.
    """
    not_lower = hexpart.translate(None, _LOWER_HEX)
    if not not_lower:
        return False
    if not_lower.translate(None, _LETTERS_UPPER):
        # Only now, on the error path, pay for a search that finds the position.
        bad = _NOT_HEX.search(hexpart)
        assert bad is not None
        pos = bad.start()
        what = "the key" if pos < 2 else "the hex data"
        raise FormatError(
            f"obfuscated saved game: non-hex digit {hexpart[pos : pos + 1]!r} in {what} at offset {_KEY_AT + pos}",
            _at(where, _KEY_AT + pos),
        )
    # Some A-F present; upper only if there is no a-f at all (mixed case reads as lower).
    return not hexpart.translate(None, _UPPER_HEX)


def _decode_utf8(plain: bytes, where: Where | None, encoded_at: int | None, width: int = 2) -> str:
    """`plain` as text; `encoded_at` is where its first byte's `width` encoded bytes start in
    the entry (None for plain data, where the two offsets are the same)."""
    try:
        return plain.decode("utf-8")
    except UnicodeDecodeError as e:
        bad = plain[e.start : e.start + 1]
        if encoded_at is None:
            raise FormatError(
                f"saved game is neither obfuscated (no {HEADER.decode()!r} or {VOBS_HEADER.decode()!r} header) "
                f"nor command text: not valid utf-8: byte {bad!r} at byte offset {e.start}: {e.reason}",
                _at(where, e.start),
            ) from None
        raise FormatError(
            f"saved game is not valid utf-8: byte {bad!r} at decoded byte offset {e.start} "
            f"(encoded offset {encoded_at + width * e.start}): {e.reason}",
            _at(where, e.start),
        ) from None


def decode_saved_game(data: bytes, where: Where | None = None) -> tuple[str, Codec]:
    """Decode the bytes of a `savedGame` entry to its command text and the codec it used.

    Data starting with ``!VCSK`` is de-obfuscated (hex digits of either case; whitespace or
    any other byte is an error, as in VASSAL), data starting with ``VOBS`` too (its one key
    byte, then bytes); anything else is taken as plain UTF-8 text. Errors are `FormatError`s
    whose ``where.offset`` is the byte offset in `data` (for invalid UTF-8: in the decoded
    bytes; the message also gives the offset in `data`).
    """
    if data.startswith(VOBS_HEADER):
        return _decode_vobs(data, where)
    if not data.startswith(HEADER):
        return _decode_utf8(data, where, None), PLAIN
    hexpart = data[_KEY_AT:]
    if len(hexpart) < 2:
        raise FormatError(
            f"obfuscated saved game has no key after '!VCSK' (got {hexpart!r})",
            _at(where, _KEY_AT),
        )
    try:
        # unhexlify is bytes.fromhex minus its whitespace skipping: it accepts exactly the
        # digits VASSAL accepts, so on success the data is valid and no other pass is needed.
        raw = binascii.unhexlify(hexpart)
    except binascii.Error:
        raw = None
    if raw is None:  # the error path: find the first bad digit (or the dangling one)
        _hex_case(hexpart, where)
        last = len(data) - 1
        raise FormatError(
            f"obfuscated saved game has an odd number of hex digits: "
            f"dangling digit {data[last : last + 1]!r} at offset {last}",
            _at(where, last),
        )
    key = raw[0]
    plain = raw[1:].translate(_xor_table(key))
    return _decode_utf8(plain, where, _BODY_AT), Codec(obfuscated=True, key=key, upper=_is_upper(hexpart))


def _decode_vobs(data: bytes, where: Where | None) -> tuple[str, Codec]:
    """The vobs form (section 3.1): any key byte is read, 0 included (VASSAL only never writes it)."""
    if len(data) < _VOBS_BODY_AT:
        raise FormatError(
            f"obfuscated saved game has no key byte after {VOBS_HEADER.decode()!r}",
            _at(where, len(VOBS_HEADER)),
        )
    key = data[len(VOBS_HEADER)]
    plain = data[_VOBS_BODY_AT:].translate(_xor_table(key))
    return _decode_utf8(plain, where, _VOBS_BODY_AT, width=1), Codec(obfuscated=True, key=key, form=VOBS)


def _is_upper(hexpart: bytes) -> bool:
    """Whether valid hex digits were written upper case: some A-F and no a-f (mixed case
    reads as lower). Each ``in`` is a memchr that stops at the first hit, which for
    VASSAL's lower-case output comes within the first few bytes."""
    if any(c in hexpart for c in b"abcdef"):
        return False
    return any(c in hexpart for c in b"ABCDEF")


def encode_saved_game(text: str, codec: Codec) -> bytes:
    """Encode command text as a `savedGame` entry the way `codec` describes.

    The inverse of `decode_saved_game`: decoding and re-encoding with the returned codec gives
    the original bytes (for files whose hex digits are all one case, as VASSAL writes them).
    """
    try:
        plain = text.encode("utf-8")
    except UnicodeEncodeError as e:
        # Only a bug can put a lone surrogate here: decoded text never contains one.
        raise UsageError(
            f"saved game text cannot be encoded as utf-8: {text[e.start : e.end]!r} at character {e.start}"
        ) from None
    if not codec.obfuscated:
        return plain
    if not 0 <= codec.key <= 255:
        raise UsageError(f"obfuscation key {codec.key!r} is not in 0..255")
    if codec.form == VOBS:
        return VOBS_HEADER + bytes([codec.key]) + plain.translate(_xor_table(codec.key))
    body = binascii.hexlify(plain.translate(_xor_table(codec.key)))
    out = HEADER + b"%02x" % codec.key + body
    return out.translate(_TO_UPPER) if codec.upper else out
