"""SequenceEncoder: spec vectors, the exact decoder, round trips, the 3.4 hazard, typed readers."""

from __future__ import annotations

import doctest
import json
import math

import pytest
from conftest import SPEC
from hypothesis import given, settings
from hypothesis import strategies as st

from vassal_adj.parse import tokens
from vassal_adj.parse.tokens import (
    Fields,
    bool_of,
    char_or,
    float_or,
    int_or,
    join,
    long_or,
    parse_int,
    split,
)


def _vectors() -> dict:
    path = SPEC / "vectors.json"
    if not path.is_file():
        pytest.skip(f"spec vectors not found at {path}")
    return json.loads(path.read_text(encoding="utf-8"))["sequence_encoder"]


def _delim(code: str) -> str:
    return chr(int(code[2:], 16))


def reference_split(s: str, d: str) -> list[str]:
    """Spec 4.2's character loop, transcribed literally (the oracle for `split`)."""

    def unquote(t: str) -> str:
        return t[1:-1] if len(t) > 1 and t[0] == "'" and t[-1] == "'" else t

    out, n, start = [], len(s), 0
    while True:
        if start == n:
            out.append("")
            return out
        buf, i = "", start
        while i < n:
            if s[i] == d:
                if i > 0 and s[i - 1] == "\\":
                    buf += s[start : i - 1]
                    start = i
                else:
                    out.append(unquote(buf + s[start:i]))
                    start = i + 1
                    break
            i += 1
        else:
            out.append(unquote(buf + s[start:n]))
            return out


def test_encode_vectors() -> None:
    cases = _vectors()["encode"]
    assert cases
    for case in cases:
        d = _delim(case["delimiter"])
        assert join(case["items"], d) == case["encoded"], case
        assert split(case["encoded"], d) == case["decodes_back_to"], case


def test_decode_vectors() -> None:
    cases = _vectors()["decode"]
    assert cases
    for case in cases:
        d = _delim(case["delimiter"])
        assert split(case["input"], d) == case["tokens"], case
        assert reference_split(case["input"], d) == case["tokens"], case


def test_old_encoder_vectors() -> None:
    for case in _vectors()["old_encoder_3_3"]:
        d = _delim(case["delimiter"])
        assert join(case["items"], d) == case["encoded_by_3_4_plus"]
        if "decoded_3_3_form" in case:
            assert split(case["encoded_by_3_3"], d) == case["decoded_3_3_form"]
            assert split(case["encoded_by_3_4_plus"], d) == case["decoded_3_4_form"]
            # safe=True quotes a trailing backslash, as 3.3 did: this field round-trips.
            assert join(case["items"], d, safe=True) == case["encoded_by_3_3"]


def test_split_edge_cases() -> None:
    assert split(None, ",") == []
    assert split("", ",") == [""]
    assert split(",", ",") == ["", ""]
    assert split("'", ",") == ["'"]
    assert split("''", ",") == [""]
    assert split("a\\", ",") == ["a\\"]  # a trailing backslash escapes nothing
    assert split("a\\,", ",") == ["a,"]
    assert split("a\\,\\,b", ",") == ["a,,b"]
    assert split("\\\\,", ",") == ["\\,"]
    assert split("a\\b,c", ",") == ["a\\b", "c"]  # not before a delimiter: kept verbatim
    with pytest.raises(ValueError):
        split("a", ",;")


def test_join_edge_cases() -> None:
    assert join([None], ",") == ""
    assert join(["", None, ""], ",") == ",,"
    assert join(["\\"], ",") == "'\\'"
    assert join(["x\\"], ",", safe=True) == "'x\\'"
    with pytest.raises(ValueError):
        join([], ",")


def test_escaped_delimiter_seen_from_previous_field() -> None:
    # The backslash that ends field 1 escapes the delimiter after it (spec 4.2).
    assert split("C:\\dir\\,next", ",") == ["C:\\dir,next"]
    assert reference_split("C:\\dir\\,next", ",") == ["C:\\dir,next"]


def test_round_trip_hazard_of_vassal_3_4() -> None:
    """Spec 4.3: a field ending in a backslash swallows the next one under the >= 3.4 rule."""
    fields = ["C:\\dir\\", "next"]
    encoded = join(fields, ",")
    assert encoded == "C:\\dir\\,next"
    assert split(encoded, ",") == ["C:\\dir,next"]  # VASSAL's own bug, reproduced
    assert split(join(fields, ",", safe=True), ",") == fields


ALPHABET = st.sampled_from(list("ab\\',;\t\x1b|/ é"))
TEXT = st.text(ALPHABET, max_size=12)
DELIMS = st.sampled_from([",", ";", "\t", "\x1b", "|", "/"])


@settings(max_examples=500)
@given(st.text(ALPHABET, max_size=40), DELIMS)
def test_split_matches_reference(s: str, d: str) -> None:
    assert split(s, d) == reference_split(s, d)


def _hazard_free(fields: list[str]) -> bool:
    # The only failure class: a field that ends with a backslash, is not quoted (does not
    # start with one) and is followed by another field.
    return not any(f.endswith("\\") and not f.startswith("\\") for f in fields[:-1])


@settings(max_examples=500)
@given(st.lists(TEXT, min_size=1, max_size=6), DELIMS)
def test_join_then_split_round_trips(fields: list[str], d: str) -> None:
    if _hazard_free(fields):
        assert split(join(fields, d), d) == fields
    assert split(join(fields, d, safe=True), d) == fields


@settings(max_examples=200)
@given(st.lists(st.lists(TEXT, min_size=1, max_size=4), min_size=1, max_size=4))
def test_nested_round_trip(inner: list[list[str]]) -> None:
    """Nested lists: encode the inner lists first, then the outer one (spec 4)."""
    outer = [join(fields, ",", safe=True) for fields in inner]
    decoded = [split(f, ",") for f in split(join(outer, ";", safe=True), ";")]
    assert decoded == inner


def test_int_or_is_java_parse_int() -> None:
    assert int_or("12", 0) == 12
    assert int_or("-7", 0) == -7
    assert int_or("+5", 0) == 5
    assert int_or("007", 0) == 7
    assert int_or(None, 9) == 9
    for bad in ("", " 5", "5 ", "1_000", "1.0", "0x10", "2147483648", "abc"):
        assert int_or(bad, -1) == -1, bad
    assert int_or("2147483647", 0) == 2147483647
    assert int_or("-2147483648", 0) == -(2**31)
    assert parse_int("x") is None
    assert long_or("2147483648", 0) == 2147483648
    assert long_or("9223372036854775808", 3) == 3


def test_float_bool_char() -> None:
    assert float_or("1.0E-6", 0.0) == 1e-6
    assert float_or("64.0", 0.0) == 64.0
    assert float_or(" 3 ", 0.0) == 3.0
    assert float_or("2d", 0.0) == 2.0
    assert float_or("-Infinity", 0.0) == -math.inf
    assert math.isnan(float_or("NaN", 0.0))
    assert float_or("x", 2.5) == 2.5
    assert float_or(None, 2.5) == 2.5
    assert bool_of("true") is True
    assert bool_of("True") is False
    assert bool_of("false", True) is False
    assert bool_of("", True) is False  # present but not "true"
    assert bool_of(None, True) is True
    assert char_or("abc", "z") == "a"
    assert char_or("", "z") == "z"
    assert char_or(None, "z") == "z"


def test_fields_cursor() -> None:
    f = Fields("mark;7;true;x;extra\\;semi;more", ";")
    assert len(f) == 6
    assert f.next() == "mark"
    assert f.next_int(0) == 7
    assert f.next_bool() is True
    assert f.next_char("?") == "x"
    assert f.rest() == ["extra;semi", "more"]
    assert not f.has_more()
    assert f.next() is None
    assert f.next_str("d") == "d"
    assert f.next_int(4) == 4
    assert f.next_float(1.5) == 1.5
    assert f.next_bool(True) is True
    assert f.next_long(8) == 8
    assert len(Fields(None, ";")) == 0


def test_doctests() -> None:
    result = doctest.testmod(tokens)
    assert result.attempted > 0 and result.failed == 0
