"""The one-scan chain splitter agrees with VASSAL's level-by-level decoding everywhere."""

from __future__ import annotations

import zipfile
from pathlib import Path

import pytest
from conftest import MODULES, SAVES, ids, need_corpus
from hypothesis import given
from hypothesis import strategies as st
from lxml import etree

import vassal_adj
from vassal_adj.parse.chains import _fast_owns, state_levels, state_owns, type_levels, type_owns
from vassal_adj.parse.commands import iter_texts
from vassal_adj.parse.tokens import join, split

TAB = "\t"


def check(type_text: str, state_text: str | None) -> bool:
    """Fast and slow agree; returns whether the fast path applied."""
    slow_types = type_levels(type_text)[1]
    assert list(type_owns(type_text)) == slow_types
    if state_text is not None:
        levels, slow_states = state_levels(state_text, len(slow_types))
        assert state_owns(state_text, len(slow_types)) == (slow_states, levels[-1] is None)
    return _fast_owns(type_text, None) is not None


def add_pieces_of_module(path: Path) -> list[tuple[str, str]]:
    names = zipfile.ZipFile(path).namelist()
    xml = zipfile.ZipFile(path).read("buildFile.xml" if "buildFile.xml" in names else "buildFile")
    out = []
    for el in etree.fromstring(xml, etree.XMLParser(resolve_entities=False, no_network=True)).iter():
        if isinstance(el.tag, str) and el.tag.endswith(("PieceSlot", "CardSlot", "PrototypeDefinition")):
            fields = split((el.text or "").strip()[2:], "/")
            if len(fields) >= 3:
                out.append((fields[1], fields[2]))
    return out


@pytest.mark.parametrize("path", MODULES, ids=ids(MODULES))
def test_module_piece_definitions(path: Path) -> None:
    pieces = add_pieces_of_module(path)
    fast = sum(check(t, s) for t, s in pieces)
    assert fast >= 0.9 * len(pieces)  # the fast path is the rule, not the exception


@pytest.mark.parametrize("path", SAVES, ids=ids(SAVES))
def test_save_pieces(path: Path) -> None:
    game = vassal_adj.load_save(path)
    for _, text in iter_texts(game.root):
        if text.startswith("+/"):
            fields = split(text[2:], "/")
            if len(fields) >= 3 and fields[1] != "stack":
                check(fields[1], fields[2])


def test_corpus_present() -> None:
    need_corpus()
    assert MODULES and SAVES


own_text = st.text(alphabet="ab;\\\t'/", max_size=8)


@given(st.lists(own_text, min_size=1, max_size=6), own_text)
def test_random_chains(owns: list[str], basic: str) -> None:
    # Build as VASSAL does: innermost basic piece, then each decorator wraps the rest.
    type_text = "piece;" + basic
    state_text = "null;0;0;" + basic
    for own in reversed(owns):
        own = "x" + own  # a trait type always starts with its prefix
        type_text = join([own, type_text], TAB)
        state_text = join([own, state_text], TAB)
    check(type_text, state_text)


@given(
    st.lists(st.tuples(st.sampled_from(["x", "", "piece;", "deck;", "'"]), own_text), min_size=0, max_size=8),
    own_text,
    st.booleans(),
)
def test_split_path_equals_scan(owns: list[tuple[str, str]], basic: str, typed: bool) -> None:
    # `_tab_owns` (one split) answers exactly as `_scan_owns` whenever it answers at all.
    from vassal_adj.parse.chains import _scan_owns, _tab_owns

    text = ("piece;" if typed else "") + basic
    for head, own in reversed(owns):
        text = join([head + own, text], TAB)
    depth = None if typed else len(owns) + 1
    fast = _tab_owns(text, depth)
    assert fast is None or fast == _scan_owns(text, depth)
    plain = all(h == "x" for h, _ in owns)
    if plain and not any(c in "".join(o for _, o in owns) + basic for c in "\t\\'"):
        assert fast is not None  # the regular shape takes the split path
