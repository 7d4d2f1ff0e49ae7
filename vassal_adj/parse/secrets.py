"""Player passwords ("secrets", spec 5.7) anywhere in a stream, for redaction.

Commands carry them in fixed fields (PLAYER, MovePiece, notes, UNMASK, LOCKSPOTAB); piece
states carry them in Mask (``obs;``, 6.9) and Invisible (``hide;``, 6.10) traits whose access
is per player, and in Restricted Access (``restrict;``), whose whole state is the owner's
password (VASSAL's Restricted.setProperty stores GameModule.getActiveUserId()). All are read
leniently: a malformed command must not hide its password.
"""

from __future__ import annotations

from vassal_adj.parse.class_traits import Restricted
from vassal_adj.parse.commands import Node, iter_texts, unlogged
from vassal_adj.parse.tokens import split
from vassal_adj.parse.trait_types import Hideable, Obscurable
from vassal_adj.parse.traits import parse_piece

__all__ = ["command_secrets", "piece_secrets", "all_secrets"]

_LOG = "LOG\t"
_STARTS = ("M/", "PLAYER\t", "PYREMOVE\t", "PNOTE\t", "SNOTE\t", "UNMASK\t", "LOCKSPOTAB\t")
_OWNER_TRAITS = ("obs;", "hide;", "restrict;")  # a type without one holds no password in its state


def _command_fields(t: str) -> list[str]:
    if t.startswith("M/"):
        return split(t[2:], "/")[9:10]
    head, tab, rest = t.partition("\t")
    if not tab:
        return []
    if head in ("PLAYER", "PYREMOVE", "PNOTE"):
        return split(rest, "\t")[:1]
    if head == "SNOTE":
        return split(rest, "\t")[1:2]
    if head == "UNMASK":
        return split(rest, "\t")
    if head == "LOCKSPOTAB":
        return split(rest, "\t")[2:3]
    return []


def command_secrets(root: Node) -> set[str]:
    """Passwords in PLAYER, PYREMOVE, MovePiece's player, PNOTE/SNOTE owners, UNMASK and
    LOCKSPOTAB commands, also inside LOG wrappers."""
    found: set[str] = set()
    for _, t in iter_texts(root):
        if t.startswith(_STARTS) or (t.startswith(_LOG) and unlogged(t).startswith(_STARTS)):
            found.update(x for x in _command_fields(unlogged(t)) if x)
    return found


def _owners(type_text: str, state: str) -> set[str]:
    out = set()
    for trait in parse_piece(type_text, state).traits:
        if isinstance(trait, Obscurable) and trait.access == "player" and trait.masked_by:
            out.add(trait.masked_by)
        elif isinstance(trait, Hideable) and trait.access == "player" and trait.hidden_by:
            out.add(trait.hidden_by)
        elif isinstance(trait, Restricted) and trait.state:
            out.add(trait.state)
    return out


def piece_secrets(root: Node) -> set[str]:
    """Owners' passwords in the states of per-player Mask and Invisible traits and of
    Restricted Access traits (a player who has left may be in no PLAYER entry).

    Read from AddPiece (type and state) and ChangePiece (new and old state, with the type of
    the piece's latest AddPiece; a piece never added in the stream is skipped), also inside
    LOG wrappers. Side-based access stores a side name, which is not a secret.
    """
    found: set[str] = set()
    types: dict[str, str] = {}  # piece id -> type, only for types with an owner trait
    for _, text in iter_texts(root):
        t = unlogged(text) if text.startswith(_LOG) else text
        if t.startswith("+/"):
            if not any(k in t for k in _OWNER_TRAITS):
                continue
            f = split(t[2:], "/")
            if len(f) >= 2 and any(k in f[1] for k in _OWNER_TRAITS):
                types[f[0]] = f[1]
                if len(f) > 2:
                    found |= _owners(f[1], f[2])
        elif t.startswith("D/") and types:
            f = split(t[2:], "/")
            type_text = types.get(f[0])
            if type_text is not None:
                for state in f[1:3]:
                    found |= _owners(type_text, state)
    return found


def all_secrets(root: Node) -> set[str]:
    """Every password of the stream: `command_secrets` plus `piece_secrets`."""
    return command_secrets(root) | piece_secrets(root)
