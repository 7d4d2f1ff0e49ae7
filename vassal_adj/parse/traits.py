"""Piece type/state strings: decorator chains (VASSAL-FORMATS.md section 6).

`parse_piece` gives the `Trait`s outermost first, the innermost (BasicPiece, Stack, Deck or
unknown) last, and keeps the raw texts: `encode_piece` of an unchanged parse returns them byte
for byte, and edits re-encode only the levels above the change. As in VASSAL (6.1), a text with
a basic prefix is innermost and not split; other texts split with TAB into this trait and the
rest (more fields: ignored by VASSAL, kept here); the state splits in step, the innermost trait
getting all the remaining state. A state chain shorter than the type chain leaves inner traits
with empty states (VASSAL would refuse the piece) and sets `PieceDef.state_short`.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from functools import lru_cache

from vassal_adj import limits
from vassal_adj.errors import FormatError, UsageError, Where
from vassal_adj.parse import class_traits as _class_traits
from vassal_adj.parse import later_traits as _later_traits
from vassal_adj.parse import trait_types as _trait_types
from vassal_adj.parse.basic_traits import BasicPiece, Deck, Stack
from vassal_adj.parse.chains import state_levels, state_owns, tab_fields, type_levels, type_owns
from vassal_adj.parse.class_traits import *  # noqa: F403  (re-exported: one import point)
from vassal_adj.parse.later_traits import *  # noqa: F403  (re-exported: one import point)
from vassal_adj.parse.later_traits import Comment
from vassal_adj.parse.piece_names import (
    KindFilter,
    name_and_properties,
    piece_name,
    piece_properties,
    visible_name,
)
from vassal_adj.parse.tokens import join, split
from vassal_adj.parse.trait_types import *  # noqa: F403  (re-exported: one import point)
from vassal_adj.parse.trait_types import BASIC_PREFIXES, Prototype, Trait, make_trait, trait_prefix

TAB = "\t"

__all__ = [  # noqa: F405  (the trait classes come from trait_types)
    "PieceDef",
    "parse_piece",
    "parse_add_piece_text",
    "encode_piece",
    "expand_prototypes",
    "piece_name",
    "visible_name",
    "piece_properties",
    "name_and_properties",
    "KindFilter",
    "BasicPiece",
    "Stack",
    "Deck",
    *_trait_types.__all__,
    *_class_traits.__all__,
    *_later_traits.__all__,
]


@dataclass(frozen=True)
class PieceDef:
    """A parsed piece: its traits outermost first and the raw texts (out of repr: a Mask state
    may hold a password). `state_text` is None when parsed from a type alone;
    `missing_prototypes` names prototypes `expand_prototypes` could not find."""

    traits: tuple[Trait, ...]
    type_text: str = field(repr=False)
    state_text: str | None = field(default=None, repr=False)
    state_short: bool = False
    missing_prototypes: tuple[str, ...] = ()

    @property
    def basic(self) -> BasicPiece | None:
        """The innermost BasicPiece, or None (a Stack, a Deck or an unknown innermost)."""
        inner = self.traits[-1] if self.traits else None
        return inner if isinstance(inner, BasicPiece) else None

    @property
    def is_stack(self) -> bool:
        return bool(self.traits) and isinstance(self.traits[-1], Stack)

    @property
    def is_deck(self) -> bool:
        return bool(self.traits) and isinstance(self.traits[-1], Deck)

    @property
    def name(self) -> str:
        """The name VASSAL shows (referee view: masks ignored); see `piece_name`."""
        return piece_name(self)

    def encode(self) -> tuple[str, str]:
        return encode_piece(self)

    # -- editing (each returns a new PieceDef; unchanged inner levels keep their raw text) --

    def with_trait(self, index: int, trait: Trait) -> PieceDef:
        """Replace the trait at `index` (0 = outermost; negative indexes count from inside)."""
        index = range(len(self.traits))[index]
        traits = list(self.traits)
        traits[index] = trait
        return _rebuild(self, traits, list(range(len(traits))))

    def with_trait_state(self, index: int, state: str) -> PieceDef:
        """Give the trait at `index` a new own state."""
        return self.with_trait(index, self.traits[index].with_state(state))

    def with_outer_trait(self, trait: Trait) -> PieceDef:
        """Add a decorator (e.g. a Marker) outside the whole chain."""
        return _rebuild(self, [trait, *self.traits], [None, *range(len(self.traits))])

    def without_trait(self, index: int) -> PieceDef:
        """Remove the trait at `index`."""
        index = range(len(self.traits))[index]
        keep = [i for i in range(len(self.traits)) if i != index]
        return _rebuild(self, [self.traits[i] for i in keep], keep)


# -- decoding ------------------------------------------------------------------------


def parse_piece(type_text: str, state_text: str | None = None, where: Where | None = None) -> PieceDef:
    """Decode a piece's type (and state) text into its trait chain; never loses text.
    Bad data inside traits is read leniently, as VASSAL does (see the trait classes)."""
    if not isinstance(type_text, str):
        raise FormatError(f"piece type must be text, got {type_text!r}", where)
    types = type_owns(type_text)
    if state_text is None:
        states, short = [""] * len(types), False
    else:
        states, short = state_owns(state_text, len(types))
    try:
        traits = tuple(map(make_trait, types, states))
    except FormatError as e:
        raise e.located(**vars(where or Where())) from None
    return PieceDef(traits, type_text, state_text, short)


def parse_add_piece_text(text: str, where: Where | None = None) -> tuple[str, PieceDef]:
    """Split an AddPiece text ``+/id/type/state`` (5.3) into the id and the parsed piece."""
    fields = split(text[2:], "/") if text.startswith("+/") else []
    if len(fields) < 2:
        raise FormatError(f"not an AddPiece command: {text[:60]!r}", where)
    return fields[0], parse_piece(fields[1], fields[2] if len(fields) > 2 else None, where)


# -- encoding ------------------------------------------------------------------------


def encode_piece(piece: PieceDef) -> tuple[str, str]:
    """The (type, state) texts: the original bytes for an unchanged parse. A piece parsed
    without a state gets the state VASSAL would write for its traits' default states."""
    if piece.state_text is not None:
        return piece.type_text, piece.state_text
    n = len(piece.traits)
    return piece.type_text, _encode_chain([t.state for t in piece.traits], [()] * n, [None] * n)


def _encode_chain(owns: Sequence[str], extras: Sequence[Sequence[str]], reuse: Sequence[str | None]) -> str:
    """Encode a chain inside out: `reuse[j]` is a raw text for the chain from level j inward
    (or None), `extras[j]` the original level's fields beyond the second. `safe=True` quotes
    fields ending in a backslash, so a rebuilt level always decodes to the same traits."""
    text = ""
    last = len(owns) - 1
    for j in range(last, -1, -1):
        reused = reuse[j]
        if reused is not None:
            text = reused
        elif j == last:
            text = owns[j]
        else:
            text = join([owns[j], text, *extras[j]], TAB, safe=True)
    return text


def _rebuild(piece: PieceDef, traits: Sequence[Trait], origin: Sequence[int | None]) -> PieceDef:
    """A new PieceDef for `traits`, where trait j came from old trait `origin[j]` (or is new).

    The longest inner run of unchanged traits, in their old order down to the old innermost,
    keeps its raw level text; only the levels above it are encoded again.
    """
    if traits and trait_prefix(traits[0].type) in BASIC_PREFIXES and len(traits) > 1:
        raise UsageError(f"a basic piece cannot decorate another piece: {traits[0].type[:40]!r}")
    old = piece.traits
    last_old = len(old) - 1

    def encode(levels: Sequence[str | None], owns: list[str], olds: list[str]) -> tuple[str, bool]:
        n = len(owns)
        reuse: list[str | None] = [None] * n
        for j in range(n - 1, -1, -1):
            m = origin[j]
            if m is None or owns[j] != olds[m] or levels[m] is None:
                break
            if (m != last_old) if j == n - 1 else (origin[j + 1] != m + 1 or reuse[j + 1] is None):
                break
            reuse[j] = levels[m]
        extras: list[list[str]] = []
        for j, m in enumerate(origin):
            raw = levels[m] if m is not None and m < last_old and reuse[j] is None else None
            extras.append(tab_fields(raw)[2:] if raw is not None else [])
        return _encode_chain(owns, extras, reuse), n > 0 and reuse[-1] is not None

    type_text, _ = encode(type_levels(piece.type_text)[0], [t.type for t in traits], [t.type for t in old])
    state_text, kept = encode(
        state_levels(piece.state_text, len(old))[0], [t.state for t in traits], [t.state for t in old]
    )
    # A short old state chain stays short only if its raw inner levels were reused.
    return PieceDef(tuple(traits), type_text, state_text, piece.state_short and kept, piece.missing_prototypes)


# -- prototypes ----------------------------------------------------------------------

_VAR = re.compile(r"\$([^$]*)\$")


def _substitute(text: str, params: Mapping[str, str]) -> str:
    """``$k$`` -> value for the given parameters; other ``$...$`` are left as they are."""
    if not params:
        return text
    return _VAR.sub(lambda m: params.get(m.group(1), m.group(0)), text)


def _definition(value: str | PieceDef, params: Mapping[str, str]) -> PieceDef:
    if isinstance(value, PieceDef):
        state = value.state_text
        return parse_piece(_substitute(value.type_text, params), None if state is None else _substitute(state, params))
    return _parse_definition(_substitute(value, params))


@lru_cache(maxsize=4096)  # a module's many slots share a few prototype texts
def _parse_definition(text: str) -> PieceDef:
    return parse_add_piece_text(text)[1] if text.startswith("+/") else parse_piece(text)


def expand_prototypes(
    piece: PieceDef, prototypes: Mapping[str, str | PieceDef], where: Where | None = None
) -> PieceDef:
    """Replace every ``prototype;`` trait by the named definition's traits (6.8).

    `prototypes` maps a name to the definition: best the PrototypeDefinition's AddPiece text
    (``+/null/type/state``: parameters ``$k$`` are substituted over the whole text, as VASSAL
    does), or a bare type text (states empty), or a `PieceDef` (substituted in type and state).
    The definition's traits, with their states, replace the reference; its innermost dummy is
    dropped; expansion recurses; Comment traits are dropped everywhere. A missing name keeps
    the reference and is listed in `missing_prototypes`; a prototype including itself raises
    FormatError naming the cycle. An unchanged piece is returned as is.
    """
    missing: list[str] = []
    traits, origin = _expand(piece.traits, prototypes, (), missing, where, [0])
    missing_all = tuple(dict.fromkeys([*piece.missing_prototypes, *missing]))
    if len(traits) == len(piece.traits) and all(o == i for i, o in enumerate(origin)):
        return piece if not missing else replace(piece, missing_prototypes=missing_all)
    return replace(_rebuild(piece, traits, origin), missing_prototypes=missing_all)


def _expand(
    traits: Sequence[Trait],
    prototypes: Mapping[str, str | PieceDef],
    stack: tuple[str, ...],
    missing: list[str],
    where: Where | None,
    work: list[int],
) -> tuple[list[Trait], list[int | None]]:
    # `work` counts the expansions and traits made so far for this piece: prototypes using
    # others twice double at each level (2^40 traits from 41 definitions), and chains may be
    # as deep as a file likes, so both are bounded (limits.TRAITS, PROTOTYPE_DEPTH).
    out: list[Trait] = []
    origin: list[int | None] = []
    work[0] += len(traits)
    at = f" (at prototype {stack[-1]!r})" if stack else ""
    limits.TRAITS.check(work[0], f"the piece's prototypes expand to over {work[0]:,} traits{at}", where)
    for i, trait in enumerate(traits):
        if isinstance(trait, Comment):
            continue
        if not isinstance(trait, Prototype) or trait.name not in prototypes:
            missing += [trait.name] if isinstance(trait, Prototype) else []
            out.append(trait)
            origin.append(i)
            continue
        if trait.name in stack:
            cycle = " -> ".join(repr(n) for n in (*stack[stack.index(trait.name) :], trait.name))
            raise FormatError(f"prototype includes itself: {cycle}", where)
        if len(stack) >= limits.PROTOTYPE_DEPTH.value:
            chain = f"{stack[0]!r} -> ... -> {trait.name!r}"
            raise limits.PROTOTYPE_DEPTH.error(f"prototypes nested {len(stack) + 1:,} deep ({chain})", where)
        definition = _definition(prototypes[trait.name], dict(trait.params))
        work[0] += 1
        inner, _ = _expand(definition.traits[:-1], prototypes, (*stack, trait.name), missing, where, work)
        out.extend(inner)
        origin.extend([None] * len(inner))
    return out, origin
