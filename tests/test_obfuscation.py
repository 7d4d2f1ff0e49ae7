"""savedGame obfuscation: spec vectors, strictness, round trips."""

from __future__ import annotations

import contextlib
import json
import time

import pytest
from conftest import SAVES, SPEC, ids, need_corpus
from hypothesis import given, settings
from hypothesis import strategies as st

from vassal_adj.codec.archive import read_archive
from vassal_adj.codec.obfuscation import Codec, decode_saved_game, encode_saved_game
from vassal_adj.errors import FormatError, UsageError, Where


def _vectors() -> dict:
    path = SPEC / "vectors.json"
    if not path.is_file():
        need_corpus()
        pytest.skip(f"no {path}")
    return json.loads(path.read_text(encoding="utf-8"))["obfuscation"]


def test_vector_cases_decode_and_encode() -> None:
    vec = _vectors()
    assert vec["cases"], "no obfuscation vectors"
    for case in vec["cases"]:
        data = case["obfuscated"].encode("ascii")
        assert data.startswith(vec["header_ascii"].encode("ascii"))
        text, codec = decode_saved_game(data)
        assert text == case["plaintext"], case["id"]
        assert codec == Codec(obfuscated=True, key=int(case["key_hex"], 16), upper=False)
        if "plaintext_utf8_hex" in case:
            assert text.encode("utf-8").hex() == case["plaintext_utf8_hex"]
        assert encode_saved_game(case["plaintext"], codec) == data, case["id"]


def test_vector_decode_cases() -> None:
    vec = _vectors()
    for case in vec["decode_cases"]:
        data = case["input"].encode("ascii")
        if "plaintext" in case:
            text, codec = decode_saved_game(data)
            assert text == case["plaintext"], case["note"]
            assert encode_saved_game(text, codec) == data, case["note"]
        else:
            with pytest.raises(FormatError):
                decode_saved_game(data)


def test_spec_worked_example() -> None:
    # VASSAL-FORMATS.md section 3: key 0x5A, "begin_save<ESC><ESC>end_save".
    data = b"!VCSK5a383f3d333405293b2c3f41413f343e05293b2c3f"
    text, codec = decode_saved_game(data)
    assert text == "begin_save\x1b\x1bend_save"
    assert codec == Codec(obfuscated=True, key=0x5A, upper=False)
    assert encode_saved_game(text, Codec(True, 0x5A)) == data


def test_upper_case_is_recorded_and_kept() -> None:
    text, codec = decode_saved_game(b"!VCSK5A383F3D33340529")
    assert text == "begin_s" and codec.upper and codec.key == 0x5A
    assert encode_saved_game(text, codec) == b"!VCSK5A383F3D33340529"


def test_digits_only_is_lower_and_mixed_case_decodes_as_lower() -> None:
    # Key 0x10 and bytes that XOR to pure digits: no letter says which case; lower it is.
    assert decode_saved_game(b"!VCSK10" + b"70")[1].upper is False
    text, codec = decode_saved_game(b"!VCSK5a383F3d")
    assert text == "beg" and codec == Codec(True, 0x5A, upper=False)


def test_plain_text_passes_through() -> None:
    text, codec = decode_saved_game("begin_save\x1bé".encode())
    assert text == "begin_save\x1bé" and codec == Codec(obfuscated=False)
    assert encode_saved_game(text, codec) == "begin_save\x1bé".encode()
    assert decode_saved_game(b"") == ("", Codec(False))
    assert decode_saved_game(b"!VCS") == ("!VCS", Codec(False))


def test_header_alone_or_key_missing_is_an_error() -> None:
    for data in (b"!VCSK", b"!VCSK5"):
        with pytest.raises(FormatError, match="no key") as err:
            decode_saved_game(data, Where(path="x.vsav", entry="savedGame"))
        assert err.value.where.offset == 5
        assert str(err.value).startswith("x.vsav!savedGame: offset 5: ")


def test_header_and_key_only_is_empty_text() -> None:
    assert decode_saved_game(b"!VCSKab") == ("", Codec(True, 0xAB))


def test_odd_length() -> None:
    with pytest.raises(FormatError, match="odd number of hex digits") as err:
        decode_saved_game(b"!VCSK5a383", Where(path="g.vsav", entry="savedGame"))
    assert err.value.where.offset == 9
    assert "b'3'" in str(err.value) and "g.vsav!savedGame" in str(err.value)


@pytest.mark.parametrize(
    ("data", "offset", "shown"),
    [
        (b"!VCSK5a38zf", 9, "b'z'"),
        (b"!VCSKz538", 5, "b'z'"),  # in the key
        (b"!VCSK5a38 3f", 9, "b' '"),  # bytes.fromhex would skip this space
        (b"!VCSK5a383f\n", 11, "b'\\n'"),  # a trailing newline too
        (b"!VCSK5a\t383f", 7, "b'\\t'"),
        (b"!VCSK5a38\xff3f", 9, "b'\\xff'"),
    ],
)
def test_non_hex_digit(data: bytes, offset: int, shown: str) -> None:
    with pytest.raises(FormatError, match="non-hex digit") as err:
        decode_saved_game(data, Where(path="bad.vsav", entry="savedGame"))
    assert err.value.where.offset == offset
    message = str(err.value)
    assert shown in message and f"offset {offset}" in message and "bad.vsav!savedGame" in message


def test_invalid_utf8_obfuscated() -> None:
    # Key 0: bytes are their own hex. "ab", then 0xff at decoded offset 2 = encoded 7 + 4.
    with pytest.raises(FormatError, match="not valid utf-8") as err:
        decode_saved_game(b"!VCSK00" + b"6162ff63", Where(path="u.vsav", entry="savedGame"))
    assert err.value.where.offset == 2
    message = str(err.value)
    assert "decoded byte offset 2" in message and "encoded offset 11" in message
    assert "b'\\xff'" in message and message.startswith("u.vsav!savedGame: offset 2:")


def test_invalid_utf8_plain() -> None:
    with pytest.raises(FormatError, match="not valid utf-8") as err:
        decode_saved_game(b"begin_save\xc3(", Where(path="p.vsav"))
    assert err.value.where.offset == 10 and "encoded offset" not in str(err.value)


def test_encode_rejects_bad_key_and_surrogates() -> None:
    with pytest.raises(UsageError, match="256"):
        encode_saved_game("x", Codec(True, 256))
    with pytest.raises(UsageError, match="utf-8"):
        encode_saved_game("a\ud800b", Codec(True, 1))


@settings(max_examples=300, deadline=None)
@given(text=st.text(), key=st.integers(0, 255), upper=st.booleans())
def test_text_round_trip(text: str, key: int, upper: bool) -> None:
    # st.text() excludes lone surrogates, which no decoder can produce.
    codec = Codec(True, key, upper)
    data = encode_saved_game(text, codec)
    assert data.startswith(b"!VCSK") and len(data) == 7 + 2 * len(text.encode("utf-8"))
    decoded, back = decode_saved_game(data)
    assert decoded == text
    if any(c in data[5:] for c in b"abcdefABCDEF"):
        assert back == codec
    assert encode_saved_game(decoded, back) == data


@settings(max_examples=300, deadline=None)
@given(raw=st.binary(), key=st.integers(0, 255), upper=st.booleans())
def test_bytes_decode_encode_identity(raw: bytes, key: int, upper: bool) -> None:
    """Any single-case obfuscated byte stream decodes (or fails cleanly) and re-encodes exactly."""
    hexed = b"%02x" % key + raw.hex().encode("ascii")
    data = b"!VCSK" + (hexed.upper() if upper else hexed)
    plain = bytes(b ^ key for b in raw)
    try:
        expected = plain.decode("utf-8")
    except UnicodeDecodeError:
        with pytest.raises(FormatError):
            decode_saved_game(data)
        return
    text, codec = decode_saved_game(data)
    assert text == expected
    assert encode_saved_game(text, codec) == data


@given(data=st.binary(max_size=64))
def test_arbitrary_bytes_never_escape(data: bytes) -> None:
    for candidate in (data, b"!VCSK" + data):
        with contextlib.suppress(FormatError):
            decode_saved_game(candidate)


def test_corpus_present() -> None:
    need_corpus()
    assert SAVES, "corpus has no .vsav/.vlog"


@pytest.mark.parametrize("path", SAVES, ids=ids(SAVES))
def test_corpus_saves_round_trip(path) -> None:
    data = read_archive(path).entries["savedGame"]
    text, codec = decode_saved_game(data)
    assert codec.obfuscated and not codec.upper
    assert text.startswith("begin_save")
    assert encode_saved_game(text, codec) == data


def test_decode_is_fast() -> None:
    # 20 MB of obfuscated text must take well under a second: no Python loop per byte.
    text = ("+/12345/piece;;;unit.png;Name\tstate\x1b" * 600_000)[:10_000_000]
    data = encode_saved_game(text, Codec(True, 0x3C))
    start = time.perf_counter()
    decoded, codec = decode_saved_game(data)
    elapsed = time.perf_counter() - start
    assert decoded == text and codec.key == 0x3C
    assert elapsed < 1.0, f"decoding 20 MB took {elapsed:.2f} s"


def test_bad_digit_wins_over_odd_length_and_case_reads_whole_data() -> None:
    # Both faults: the non-hex digit is reported, as before the unhexlify-first fast path.
    with pytest.raises(FormatError, match="non-hex digit") as err:
        decode_saved_game(b"!VCSK5a38z")
    assert err.value.where.offset == 9
    # Upper case unless a lower-case letter appears anywhere, even at the very end.
    assert decode_saved_game(b"!VCSK5A" + b"3F" * 1000 + b"3f")[1].upper is False
    assert decode_saved_game(b"!VCSK5A" + b"3F" * 1000)[1].upper is True
