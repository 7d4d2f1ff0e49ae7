"""The non-decorator piece types: BasicPiece, Stack and Deck (VASSAL-FORMATS.md 6.3, 6.4).

They are the innermost element of a chain; VASSAL hands them the whole remaining type and
state text. Registered with `trait_types.TRAIT_CLASSES` like every trait.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from vassal_adj.errors import FormatError
from vassal_adj.limits import quoted
from vassal_adj.parse.tokens import Fields, int_or, is_integer, parse_int, split
from vassal_adj.parse.trait_types import Trait, _field

__all__ = ["BasicPiece", "Stack", "Deck"]


@dataclass(frozen=True)
class BasicPiece(Trait, prefix="piece;", editor="Basic Piece"):
    """``piece;`` (6.3). `x`/`y` read like ``nextInt(0)``: missing or not a Java int -> 0;
    a field that is present but unparsable is named in `bad_fields` so it is not silent.
    `properties`: persistent properties in file order (states before 3.4 have none)."""

    clone_key: str = ""
    delete_key: str = ""
    image: str = ""
    name: str = ""
    map_id: str | None = None
    x: int = 0
    y: int = 0
    gpid: str = ""
    properties: tuple[tuple[str, str], ...] = ()
    bad_fields: tuple[str, ...] = ()

    @classmethod
    def _extras(cls, type_text: str, state_text: str) -> dict[str, Any]:
        t = split(type_text, ";") + [""] * 4
        s = Fields(state_text, ";")
        map_id = s.next_str("null")
        out: dict[str, Any] = {
            "clone_key": t[1],
            "delete_key": t[2],
            "image": t[3],
            "name": t[4],
            "map_id": None if map_id == "null" else map_id,
        }
        bad = []
        for key, raw in (("x", s.next()), ("y", s.next())):
            out[key] = int_or(raw, 0)
            if raw is not None and parse_int(raw) is None:
                if is_integer(raw):  # a number VASSAL's Integer.parseInt overflows on: a forged file
                    raise FormatError(f"piece {t[4]!r}: {key} coordinate {quoted(raw)} is outside Java's int range")
                bad.append(key)
        out["gpid"] = s.next_str()
        count = parse_int(s.next_str("0"))
        bad += [] if count is not None else ["propCount"]
        pairs = s.rest()
        if len(pairs) < 2 * (count or 0):
            bad.append("properties")
        props = tuple(zip(pairs[0 : 2 * (count or 0) : 2], pairs[1 : 2 * (count or 0) : 2], strict=False))
        return {**out, "properties": props, "bad_fields": tuple(bad)}


@dataclass(frozen=True)
class Stack(Trait, prefix="stack", editor="Stack"):
    """``stack`` (6.4): piece ids bottom to top; `layer` -1 without ``@@``. With map ``null``
    VASSAL does not read x/y: they are None (ids still start at the fourth field)."""

    map_id: str | None = None
    x: int | None = None
    y: int | None = None
    piece_ids: tuple[str, ...] = ()
    layer: int = -1

    @classmethod
    def _extras(cls, type_text: str, state_text: str) -> dict[str, Any]:
        f = split(state_text, ";")
        map_id = None if f[0] == "null" else f[0]
        x = y = None
        if map_id is not None:
            x, y = int_or(_field(f, 1), 0), int_or(_field(f, 2), 0)
        ids, layer = [], -1
        for token in f[3:]:
            if token.startswith("@@"):
                layer = int_or(token[2:], -1)
            elif token:
                ids.append(token)
        return {"map_id": map_id, "x": x, "y": y, "piece_ids": tuple(ids), "layer": layer}


@dataclass(frozen=True)
class Deck(Trait, prefix="deck;", editor="Deck"):
    """``deck;`` (6.4): the type's many options are kept raw but for the deck's name (the 13th
    option, after the reshuffle message), which VASSAL shows as the location of its spot (8.1);
    the state is read."""

    name: str = ""
    map_id: str | None = None
    x: int = 0
    y: int = 0
    face_down: bool = False
    piece_ids: tuple[str, ...] = ()

    @classmethod
    def _extras(cls, type_text: str, state_text: str) -> dict[str, Any]:
        s = Fields(state_text, ";")
        map_id = s.next_str("null")
        x, y, face_down = s.next_int(0), s.next_int(0), s.next_bool(False)
        return {
            "name": _field(split(type_text, ";"), 13, ""),
            "map_id": None if map_id == "null" else map_id,
            "x": x,
            "y": y,
            "face_down": face_down,
            "piece_ids": tuple(i for i in split(s.next_str(), ",") if i),
        }
