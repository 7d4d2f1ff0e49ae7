"""Traits VASSAL added after the ones section 6 details: Basic Name (3.6) and those of 3.7 and
3.8 a report reads (VASSAL-FORMATS.md 6.2 and pitfall 23).

Each keeps its raw own type and state like every trait, so fields newer versions append (and
any this reader does not name) are written back byte for byte (pitfall 6); only the fields
below are read. Border Outline (3.7) only draws, and stays typed by class (`class_traits`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from vassal_adj.parse.tokens import bool_of, split
from vassal_adj.parse.trait_types import Trait, _after, _field

__all__ = ["Attachment", "BasicName", "Comment", "MultiLocationCommand", "SetPieceProperty"]


@dataclass(frozen=True)
class BasicName(Trait, prefix="basicName;", editor="Basic Name"):
    """``basicName;`` + name (3.6): the piece answers the property ``BasicName`` with it,
    and VASSAL's BasicPiece takes its name from that property of the outermost trait, so the
    name replaces the BasicPiece's at the bottom of the chain (`piece_names.piece_name`)."""

    name: str = ""

    @classmethod
    def _extras(cls, type_text: str, state_text: str) -> dict[str, Any]:
        return {"name": split(_after(type_text, "basicName;"), ";")[0]}


@dataclass(frozen=True)
class Comment(Trait, prefix="cmt;", editor="Comment"):
    """``cmt;`` + comment (3.7): a note for the module's designer; dropped when VASSAL
    expands prototypes (6.8), so rarely in a game."""

    comment: str = ""

    @classmethod
    def _extras(cls, type_text: str, state_text: str) -> dict[str, Any]:
        return {"comment": _field(split(type_text, ";"), 1, "")}


@dataclass(frozen=True)
class Attachment(Trait, prefix="attach;", editor="Attachment"):
    """``attach;`` + name; description; then the attach and clear commands and the search
    for pieces to attach (3.7). The state (the pieces attached) has no layout in the spec:
    it is kept raw."""

    name: str = ""
    description: str = ""

    @classmethod
    def _extras(cls, type_text: str, state_text: str) -> dict[str, Any]:
        f = split(type_text, ";")
        return {"name": _field(f, 1, ""), "description": _field(f, 2, "")}


@dataclass(frozen=True)
class SetPieceProperty(Trait, prefix="setpieceprop;", editor="Set Piece Property"):
    """``setpieceprop;`` (3.7): sets a Dynamic Property of other pieces. Its first fields are
    a Dynamic Property's (6.11): property name; constraints; commands; description; then the
    pieces it targets. State: empty."""

    property_name: str = ""
    description: str = ""

    @classmethod
    def _extras(cls, type_text: str, state_text: str) -> dict[str, Any]:
        f = split(type_text, ";")
        return {"property_name": _field(f, 1, ""), "description": _field(f, 4, "")}


def _flag(text: str | None) -> bool | None:
    return None if text is None else bool_of(text)


@dataclass(frozen=True)
class MultiLocationCommand(Trait, prefix="locCommand;", editor="Multi-Location Command"):
    """``locCommand;`` (3.7): one menu command per location that passes a filter. Type:
    description; location kind (e.g. ``locZones``, ``locRegions``); filter expression; menu
    text format; key (NamedKeyStroke, raw); a sixth 3.7 field (kept raw); 3.8 appends the sort
    format, ascending and numeric flags (pitfall 23). A 3.7 type lacks them: None, not a
    default, so that a report never claims an order the file does not give."""

    description: str = ""
    location_kind: str = ""
    filter: str = ""
    menu_text: str = ""
    key: str = ""
    sort_format: str | None = None
    sort_ascending: bool | None = None
    sort_numeric: bool | None = None

    @classmethod
    def _extras(cls, type_text: str, state_text: str) -> dict[str, Any]:
        f = split(type_text, ";")
        return {
            "description": _field(f, 1, ""),
            "location_kind": _field(f, 2, ""),
            "filter": _field(f, 3, ""),
            "menu_text": _field(f, 4, ""),
            "key": _field(f, 5, ""),
            "sort_format": _field(f, 7),
            "sort_ascending": _flag(_field(f, 8)),
            "sort_numeric": _flag(_field(f, 9)),
        }
