"""Splitting a piece's type or state text into its decorator levels (VASSAL-FORMATS.md 6.1).

A chain is encoded by nesting: ``enc(TAB; own, rest)`` at every level, so the separator of
level k is a TAB preceded by exactly k backslashes, and a TAB inside level k's own text has
more. Decoding level by level (`levels`) costs levels x length, which is slow for the 60-level
chains of real modules; `owns` finds every separator in one scan and falls back to the
level-by-level decoder whenever the text is not of that regular shape.
"""

from __future__ import annotations

import re
from functools import lru_cache
from itertools import repeat
from operator import getitem

from vassal_adj.parse.tokens import split, unquote
from vassal_adj.parse.trait_types import BASIC_PREFIXES, trait_prefix

TAB = "\t"
_TAB_RUN = re.compile(r"(\\*)\t")


def tab_fields(text: str) -> list[str]:
    """``split(text, TAB)`` in a few C-speed scans: real TABs = count(TAB) - count(``\\`` TAB)."""
    real = text.count(TAB) - text.count("\\\t")
    if real > 1:
        return split(text, TAB)  # extra fields: rare, let the general decoder do it
    if real == 0:
        parts = [text]
    else:
        i = text.find(TAB)
        while i > 0 and text[i - 1] == "\\":
            i = text.find(TAB, i + 1)
        parts = [text[:i], text[i + 1 :]]
    return [unquote(p.replace("\\\t", TAB)) for p in parts]


def type_levels(type_text: str) -> tuple[list[str], list[str]]:
    """The text of each chain level (as handed to that level) and each own type."""
    levels, owns = [], []
    text = type_text
    while True:
        levels.append(text)
        if trait_prefix(text) in BASIC_PREFIXES:
            owns.append(text)
            return levels, owns
        fields = tab_fields(text)
        owns.append(fields[0])
        if len(fields) < 2:
            return levels, owns
        text = fields[1]


def state_levels(state_text: str | None, depth: int) -> tuple[list[str | None], list[str]]:
    """Each level's state text (None where the chain ran out) and each own state."""
    levels: list[str | None] = []
    owns: list[str] = []
    text = state_text
    for i in range(depth):
        levels.append(text)
        fields = [""] if text is None else [text] if i == depth - 1 else tab_fields(text)
        owns.append(fields[0])
        text = fields[1] if len(fields) > 1 else None
    return levels, owns


def _unescape(segment: str, c: int) -> str | None:
    """A level's own text from its raw slice: `c` backslashes fewer before each TAB (None when
    a TAB has fewer, i.e. the text is not a regular chain). Level k's own field has been
    decoded k + 1 times (k enclosing levels, then its own split), the innermost text k times."""
    if c == 0 or TAB not in segment:
        return segment
    bad = False

    def cut(m: re.Match[str]) -> str:
        nonlocal bad
        run = m.group(1)
        if len(run) < c:
            bad = True
        return run[c:] + TAB

    out = _TAB_RUN.sub(cut, segment)
    return None if bad else out


def _separator(text: str, k: int, pos: int) -> tuple[int, int] | None:
    """Start and end of the first TAB after `pos` preceded by exactly k backslashes (the
    separator of chain level k). `str.find` of the k backslashes and the TAB skips ahead at
    C speed; a hit with one more backslash in front belongs to a deeper level and is passed."""
    needle = "\\" * k + TAB
    while True:
        i = text.find(needle, pos)
        if i < 0:
            return None
        if i == 0 or text[i - 1] != "\\":
            return i, i + len(needle)
        pos = i + 1


def _fast_owns(text: str, depth: int | None) -> list[str] | None:
    """Own texts of every level, or None when neither fast path applies.

    `depth` None: a type chain (stops at a basic prefix); else a state chain of that depth.
    """
    owns = _tab_owns(text, depth)
    return owns if owns is not None else _scan_owns(text, depth)


def _tab_owns(text: str, depth: int | None) -> list[str] | None:
    """The own texts when every TAB of `text` is a level separator, else None.

    Then the TABs, in order, follow runs of exactly 0, 1, 2, ... backslashes (level k's
    separator has k) and each level's own text is its part of ``split(TAB)`` less that run:
    a few C-level passes, several times faster than `_scan_owns`' search per level (real
    states are mostly that regular shape: 65 levels of empty or short own states). Gives
    exactly `_scan_owns`' answer: any other shape (a TAB inside an own text, an own text
    ending in a backslash, quotes, a basic prefix above the last part, a chain of another
    depth) is left to it.
    """
    parts = text.split(TAB)
    last = len(parts) - 1
    if (depth is not None and last + 1 != depth) or last >= _MAX_RUN:
        return None
    if "'" in text and (text[:1] == "'" or "\t'" in text):  # (a memchr first: quotes are rare)
        return None  # a quoted field: unquoting applies
    # Part k < last ends in k backslashes: its last k characters, joined, are all backslashes.
    if "".join(map(getitem, parts, _TAILS[:last])) != "\\" * (last * (last - 1) // 2):
        return None
    owns = list(map(getitem, parts, _CUTS[:last]))
    if "\\" in TAB.join(owns) and "\\" in {*map(getitem, owns, repeat(_FIRST)), *map(getitem, owns, repeat(_LAST))}:
        return None  # an own text starting (must be quoted) or ending (a longer run) with "\\"
    if (
        depth is None
        and last
        and (text.startswith(_BASIC) or any(text.find(TAB + b, 0, len(text) - len(parts[last])) >= 0 for b in _BASIC))
    ):
        return None  # a basic piece above the innermost part: its text holds TABs
    owns.append(parts[last])
    return owns


_MAX_RUN = 512  # deeper chains take the general path
_TAILS = [slice(0, 0)] + [slice(-k, None) for k in range(1, _MAX_RUN)]  # last k characters
_CUTS = [slice(None)] + [slice(0, -k) for k in range(1, _MAX_RUN)]  # all but the last k
_FIRST, _LAST = slice(0, 1), slice(-1, None)
_BASIC = ("piece;", "deck;")  # basic prefixes ending in ";" (a basic "stack" has no TAB after)


def _scan_owns(text: str, depth: int | None) -> list[str] | None:
    """Own texts of every level in one forward scan, or None when it does not apply.

    Each search stops at its level's separator, so the text is scanned about once. Extra
    fields (more TABs at some level) sit after all deeper levels, so they end up in the last
    segment, where a TAB with too few backslashes sends the text to the general decoder.
    """
    owns: list[str] = []
    pos, k = 0, 0
    while True:
        final = depth is not None and len(owns) == depth - 1
        if final or (depth is None and trait_prefix(text[pos : pos + 8]) in BASIC_PREFIXES):
            own = _unescape(text[pos:], k)
            if own is None or own[:1] == "'":
                return None
            owns.append(own)
            return owns
        found = _separator(text, k, pos)
        if found is None:  # a last field that was split, so decoded once more
            own = _unescape(text[pos:], k + 1)
            if own is None or own[:1] == "'":
                return None
            owns.append(own)
            return owns if depth is None or len(owns) == depth else None
        own = _unescape(text[pos : found[0]], k + 1)
        if own is None or own.startswith(("'", "\\")):
            return None  # quoted or escaped fields: unquoting rules apply
        owns.append(own)
        pos, k = found[1], k + 1


@lru_cache(maxsize=1024)  # pieces made from one palette slot share their type text
def type_owns(type_text: str) -> tuple[str, ...]:
    """Each level's own type, outermost first (the basic piece's whole text last)."""
    fast = _fast_owns(type_text, None)
    return tuple(fast if fast is not None else type_levels(type_text)[1])


def state_owns(state_text: str, depth: int) -> tuple[list[str], bool]:
    """Each level's own state for a chain of `depth` levels, and whether the text ran out
    before the innermost level (a short state chain)."""
    fast = _fast_owns(state_text, depth)
    if fast is not None:
        return fast, False
    levels, found = state_levels(state_text, depth)
    return found, levels[-1] is None
