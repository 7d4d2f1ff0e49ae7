"""Typing of single command texts: `decode_command` turns one text into its record.

Split from `vassal_adj.parse.commands` (which re-exports it) to keep files small; the
records themselves are in `vassal_adj.parse.records`. Decoding follows VASSAL's own
decoders: missing trailing fields get VASSAL's defaults, fields VASSAL requires (read with
``nextToken()`` or ``Integer.parseInt``) raise FormatError naming the command index.
"""

from __future__ import annotations

from collections.abc import Callable

from vassal_adj.errors import FormatError, Where
from vassal_adj.limits import quoted
from vassal_adj.parse import records as r
from vassal_adj.parse.tokens import int_or, is_integer, parse_int, split

__all__ = ["decode_command", "KNOWN_PREFIXES"]

_MAX_LOG_WRAP = 100


def _err(message: str, index: int | None, where: Where | None) -> FormatError:
    return FormatError(message, (where or Where()).but(command=index))


def _fields(rest: str, name: str, need: int, index: int | None, where: Where | None) -> list[str]:
    f = split(rest, "\t")
    if len(f) < need:
        raise _err(f"{name} command has {len(f)} fields, expected at least {need}", index, where)
    return f


def _lines(text: str) -> str:
    # Notes: lines joined with '|' (spec 5.9); reading joins the decoded fields with \n.
    return "\n".join(split(text, "|"))


def _add(t: str, i: int | None, w: Where | None) -> r.Record:
    f = split(t[2:], "/")
    if len(f) < 3:
        raise _err(f"add-piece command has {len(f)} fields, expected 3", i, w)
    return r.AddPiece(f[0], f[1], f[2], raw=t)


def _change(t: str, i: int | None, w: Where | None) -> r.Record:
    f = split(t[2:], "/")
    if len(f) < 2:
        raise _err(f"change-piece command has {len(f)} fields, expected at least 2", i, w)
    return r.ChangePiece(f[0], f[1], f[2] if len(f) > 2 else None, raw=t)


def _move(t: str, i: int | None, w: Where | None) -> r.Record:
    f = split(t[2:], "/")
    if len(f) < 9:
        raise _err(f"move-piece command has {len(f)} fields, expected at least 9", i, w)
    xy = []
    for pos, what in ((2, "new x"), (3, "new y"), (6, "old x"), (7, "old y")):
        value = parse_int(f[pos])  # VASSAL uses Integer.parseInt here: no default
        if value is None:
            raise _err(f"move of piece {f[0]!r}: {what} is not an integer: {f[pos]!r}", i, w)
        xy.append(value)
    nul = [None if f[k] == "null" else f[k] for k in (1, 4, 5, 8)]
    player = f[9] if len(f) > 9 else None
    return r.MovePiece(f[0], nul[0], xy[0], xy[1], nul[1], nul[2], xy[2], xy[3], nul[3], player, raw=t)


def _log(t: str, i: int | None, w: Where | None) -> r.Record:
    depth = 1
    while t.startswith("LOG\t", 4 * depth):
        depth += 1
        if depth > _MAX_LOG_WRAP:
            raise _err(f"more than {_MAX_LOG_WRAP} nested LOG wrappers", i, w)
    inner = t[4 * depth :]
    rec: r.Record
    if inner == "null":  # a logged command without encoder (spec 5.6)
        depth -= 1
        rec = r.LogNull(raw=t[4 * depth :])
    else:
        rec = decode_command(inner, i, w)
    for k in range(depth - 1, -1, -1):
        rec = r.Log(rec, raw=t[4 * k :])
    return rec


def _player(t: str, i: int | None, w: Where | None) -> r.Record:
    f = _fields(t[7:], "player", 3, i, w)
    return r.Player(f[0], f[1], f[2], raw=t)


def _mutable(t: str, i: int | None, w: Where | None) -> r.Record:
    f = _fields(t[16:], "mutable-property", 3, i, w)
    return r.MutableProperty(f[0], f[1], f[2], f[3] if len(f) > 3 else None, raw=t)


def _global(t: str, i: int | None, w: Where | None) -> r.Record:
    f = split(t, ";")  # literally enc(';'; "GlobalProperty<TAB>", name, value, container)
    if f[0] != "GlobalProperty\t":
        return r.Unknown(t)
    if len(f) < 2:
        raise _err("global-property command has no property name", i, w)
    return r.GlobalProperty(f[1], f[2] if len(f) > 2 else "", f[3] if len(f) > 3 else None, raw=t)


def _snote(t: str, i: int | None, w: Where | None) -> r.Record:
    f = _fields(t[6:], "secret-note", 4, i, w) + ["", ""]
    return r.SecretNote(f[0], f[1], f[2] == "true", _lines(f[3]), f[4], f[5], raw=t)


def _pnote(t: str, i: int | None, w: Where | None) -> r.Record:
    f = _fields(t[6:], "private-note", 2, i, w)
    return r.PrivateNote(f[0], _lines(f[1]), raw=t)


def _show(t: str, i: int | None, w: Where | None) -> r.Record:
    f = split(t[13:], "\t")
    rolls = []
    for v in f[1:]:
        n = parse_int(v)
        if n is None:
            raise _err(f"special dice result is not an integer: {v!r}", i, w)
        rolls.append(n)
    return r.ShowResults(f[0], tuple(rolls), raw=t)


def _pair(cls: type[r.Extension] | type[r.Plugin], cut: int) -> _Decoder:
    def decode(t: str, i: int | None, w: Where | None) -> r.Record:
        f = split(t[cut:], "\t")
        return cls(f[0], f[1] if len(f) > 1 else "", raw=t)

    return decode


def _lock(t: str, i: int | None, w: Where | None) -> r.Record:
    f = split(t[11:], "\t") + ["", "", ""]
    return r.LockScenarioTab(f[0], f[1], f[2], f[3], raw=t)


def _board_index(f: list[str], k: int, board: str, i: int | None, w: Where | None) -> int:
    """``nextInt(0)`` of a board's column or row; a number past Java's int range is a forged file."""
    text = f[k] if k < len(f) else None
    if text is not None and is_integer(text) and parse_int(text) is None:
        raise _err(f"board {board!r}: column or row {quoted(text)} is outside Java's int range", i, w)
    return int_or(text, 0)


def _board_picker(t: str, i: int | None, w: Where | None) -> r.Record:
    f = split(t, "\t")
    head = f[0]
    map_id = head[: -len("BoardPicker")] if head.endswith("BoardPicker") else head
    boards = []
    for k in range(1, len(f), 3):
        name = split(f[k], "/")
        col, row = (_board_index(f, k + d, name[0], i, w) for d in (1, 2))
        boards.append(r.BoardChoice(name[0], len(name) > 1 and name[1] == "rev", col, row))
    return r.BoardPicker(map_id, tuple(boards), raw=t)


_Decoder = Callable[[str, "int | None", "Where | None"], r.Record]

_PIECE: dict[str, _Decoder] = {
    "+/": _add,
    "-/": lambda t, i, w: r.RemovePiece(t[2:], raw=t),
    "D/": _change,
    "M/": _move,
}

# Commands of the form HEAD<TAB>…, keyed by HEAD.
_HEADS: dict[str, _Decoder] = {
    "LOG": _log,
    "UNDO": lambda t, i, w: r.Undo(t[5:] == "true", raw=t),
    "PLAYER": _player,
    "PYREMOVE": lambda t, i, w: r.PlayerRemove(split(t[9:], "\t")[0], raw=t),
    "MutableProperty": _mutable,
    "GlobalProperty": _global,
    "NOTES": lambda t, i, w: r.Notes(_lines(t[6:]), raw=t),
    "PNOTES": lambda t, i, w: r.PublicNotes(_lines(t[7:]), raw=t),
    "PNOTE": _pnote,
    "SNOTE": _snote,
    # Empty entries are dropped: "UNMASK<TAB>" (nobody) decodes to one empty field.
    "UNMASK": lambda t, i, w: r.Unmask(tuple(x for x in split(t[7:], "\t") if x), raw=t),
    "SETUP_STACK": lambda t, i, w: r.SetupStack(raw=t),
    "EXT": _pair(r.Extension, 4),
    "PLUGIN": _pair(r.Plugin, 7),
    "SHOW_RESULTS": _show,
    "LOCKSPOTAB": _lock,
}

#: The prefixes `decode_command` types (anything else becomes `Unknown`).
KNOWN_PREFIXES = ("+/", "-/", "D/", "M/", "CHAT", "TURN", "begin_save", "end_save") + tuple(h + "\t" for h in _HEADS)


def decode_command(text: str, index: int | None = None, where: Where | None = None) -> r.Record:
    """The typed record of one single-command text (spec 5.3-5.6); `Unknown` if unrecognised.

    Raises FormatError (with ``where.command = index``) when a known command is malformed.
    """
    if not text:
        return r.Empty(raw=text)
    piece = _PIECE.get(text[:2])
    if piece is not None:
        return piece(text, index, where)
    tab = text.find("\t")
    if text.startswith("CHAT"):
        return r.Chat(text[4:], raw=text)
    if tab >= 0:
        head = _HEADS.get(text[:tab])
        if head is not None:
            return head(text, index, where)
        if text.startswith("TURN"):
            f = split(text[tab + 1 :], "|")
            return r.TurnState(text[4:tab], text[tab + 1 :], int_or(f[0], 0), tuple(f[1:]), raw=text)
    if text == "begin_save":
        return r.BeginSave(raw=text)
    if text == "end_save":
        return r.EndSave(raw=text)
    if (text if tab < 0 else text[:tab]).endswith("BoardPicker"):
        return _board_picker(text, index, where)
    return r.Unknown(text)
