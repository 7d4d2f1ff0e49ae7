"""The binary `savedGame` form of VASSAL 3.8 (``VOBS``, VASSAL-FORMATS.md section 3.1): read, written
back in the form read, and converted to and from the hex form (``!VCSK``, section 3) on request."""

from __future__ import annotations

import contextlib
import json

import pytest
from conftest import SPEC, need_corpus
from hypothesis import given, settings
from hypothesis import strategies as st

from vassal_adj.codec.archive import archive_from_bytes
from vassal_adj.codec.obfuscation import CONVERSION_KEY, PLAIN, VCSK, VOBS, Codec, decode_saved_game, encode_saved_game
from vassal_adj.errors import FormatError, UsageError, Where

# Section 3.1's worked example: the section 3 one (key 0x5A, begin_save<ESC><ESC>end_save) in the vobs form.
WORKED_TEXT = "begin_save\x1b\x1bend_save"
WORKED_VOBS = bytes.fromhex("564f42535a383f3d333405293b2c3f41413f343e05293b2c3f")
WORKED_VCSK = b"!VCSK5a383f3d333405293b2c3f41413f343e05293b2c3f"


def test_3_1_worked_example_decodes_and_encodes_byte_for_byte() -> None:
    text, codec = decode_saved_game(WORKED_VOBS)
    assert text == WORKED_TEXT
    assert codec == Codec(obfuscated=True, key=0x5A, form=VOBS)
    assert encode_saved_game(text, codec) == WORKED_VOBS


def test_3_1_the_same_key_converts_between_the_forms_both_ways() -> None:
    _, hexed = decode_saved_game(WORKED_VCSK)
    assert hexed.converted(VOBS) == Codec(True, 0x5A, form=VOBS)
    assert encode_saved_game(WORKED_TEXT, hexed.converted(VOBS)) == WORKED_VOBS
    _, binary = decode_saved_game(WORKED_VOBS)
    assert encode_saved_game(WORKED_TEXT, binary.converted(VCSK)) == WORKED_VCSK


def test_3_1_spec_vectors_in_the_vobs_form_are_the_hex_forms_bytes() -> None:
    path = SPEC / "vectors.json"
    if not path.is_file():
        need_corpus()
        pytest.skip(f"no {path}")
    cases = json.loads(path.read_text(encoding="utf-8"))["obfuscation"]["cases"]
    for case in cases:
        hexed = case["obfuscated"].encode("ascii")
        vobs = b"VOBS" + bytes.fromhex(hexed[5:].decode("ascii"))  # the key byte, then the body
        text, codec = decode_saved_game(vobs)
        assert text == case["plaintext"], case["id"]
        assert codec == Codec(True, int(case["key_hex"], 16), form=VOBS)
        assert encode_saved_game(text, codec) == vobs
        assert encode_saved_game(text, codec.converted(VCSK)) == hexed


def test_3_1_payload_is_bytes_nul_and_newline_included() -> None:
    # Key 'b' XORs the first byte to 0x00; 'b' ^ 0x68 is LF: text readers would stop or split there.
    codec = Codec(True, ord("b"), form=VOBS)
    data = encode_saved_game("begin_save\x1bh", codec)
    assert data[5] == 0 and b"\n" in data[5:]
    assert decode_saved_game(data) == ("begin_save\x1bh", codec)


def test_3_1_key_zero_is_read_and_kept_but_never_chosen() -> None:
    # VASSAL 3.8 never writes key 0; a file that has it is still read, and written back with it.
    data = b"VOBS\x00" + WORKED_TEXT.encode()
    text, codec = decode_saved_game(data)
    assert (text, codec) == (WORKED_TEXT, Codec(True, 0, form=VOBS))
    assert encode_saved_game(text, codec) == data
    # Converting picks a key VASSAL could have written.
    assert Codec(True, 0).converted(VOBS) == Codec(True, CONVERSION_KEY, form=VOBS)
    assert PLAIN.converted(VOBS) == Codec(True, CONVERSION_KEY, form=VOBS)
    assert CONVERSION_KEY in range(1, 256)  # a key VASSAL 3.8 could have written (never 0)
    # Key 0 is a key VASSAL 3.0-3.7 wrote: kept when converting to their form.
    assert Codec(True, 0, form=VOBS).converted(VCSK) == Codec(True, 0)


def test_converting_to_the_form_read_changes_nothing() -> None:
    upper = Codec(True, 0x3C, upper=True)
    assert upper.converted(VCSK) is upper
    binary = Codec(True, 0x3C, form=VOBS)
    assert binary.converted(VOBS) is binary
    # VASSAL writes the hex digits in lower case.
    assert upper.converted(VOBS).converted(VCSK) == Codec(True, 0x3C)


def test_unknown_forms_and_upper_case_vobs_are_refused() -> None:
    with pytest.raises(UsageError, match="unknown savedGame form 'hex'"):
        Codec(True, 1, form="hex")
    with pytest.raises(UsageError, match="unknown savedGame form '3.8'"):
        PLAIN.converted("3.8")
    with pytest.raises(UsageError, match="upper case"):
        Codec(True, 1, upper=True, form=VOBS)


@pytest.mark.parametrize(
    ("data", "match", "offset"),
    [
        (b"VOBS", "no key byte after 'VOBS'", 4),
        # "begin_sa" then the first byte of a 2-byte character: the body was cut inside it.
        (b"VOBS\x01" + bytes(b ^ 1 for b in "begin_saé".encode()[:-1]), "not valid utf-8", 8),
    ],
)
def test_3_1_truncated_vobs_is_an_error_naming_the_place(data: bytes, match: str, offset: int) -> None:
    with pytest.raises(FormatError, match=match) as err:
        decode_saved_game(data, Where(path="t.vsav", entry="savedGame"))
    assert err.value.where.offset == offset
    assert str(err.value).startswith(f"t.vsav!savedGame: offset {offset}: ")


def test_3_1_invalid_utf8_gives_the_offset_in_the_entry() -> None:
    with pytest.raises(FormatError) as err:
        decode_saved_game(b"VOBS\x00ab\xffc")
    assert "decoded byte offset 2" in str(err.value) and "encoded offset 7" in str(err.value)


def test_3_1_an_unzipped_vobs_save_is_a_save() -> None:
    archive = archive_from_bytes(WORKED_VOBS, "old.sav")
    assert archive.form == "plain" and archive.entries == {"savedGame": WORKED_VOBS}


@settings(max_examples=300, deadline=None)
@given(text=st.text(), key=st.integers(0, 255))
def test_3_1_text_round_trip(text: str, key: int) -> None:
    codec = Codec(True, key, form=VOBS)
    data = encode_saved_game(text, codec)
    assert data[:5] == b"VOBS" + bytes([key]) and len(data) == 5 + len(text.encode("utf-8"))
    assert decode_saved_game(data) == (text, codec)
    # Half the size of the hex form, less the header.
    assert len(encode_saved_game(text, codec.converted(VCSK))) - 7 == 2 * (len(data) - 5)


@given(data=st.binary(max_size=64))
def test_3_1_arbitrary_bytes_never_escape(data: bytes) -> None:
    with contextlib.suppress(FormatError):
        decode_saved_game(b"VOBS" + data)
