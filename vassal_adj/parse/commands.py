"""The command stream of a save or log: a tree of ESC-separated commands (spec section 5).

`parse_stream` decodes the text into a tree of `Node`; `encode` turns it back into text.

Change tracking: a parsed node remembers its text and the identity of its children as
parsed. `encode` returns ``node.raw`` (the exact string the node was decoded from) when the
node's text is unchanged, its child list holds the same Node objects in the same order and
every child is unchanged too; otherwise it re-encodes that node with `join`, still reusing
the raw text of every unchanged descendant. So nodes and their ``children`` lists may be
edited freely and in place; nothing has to be flagged. New nodes (``Node(text, children)``)
have no raw text and are always encoded.

Typed records (`node.command`) are decoded lazily, on first access, and cached per text.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field

from ..errors import FormatError, Where
from . import records as r
from .tokens import int_or, join, parse_int, split

__all__ = [
    "ESC",
    "Node",
    "parse_stream",
    "encode",
    "iter_nodes",
    "decode_command",
    "DiceRoll",
    "dice_rolls",
    "secrets",
    "log_steps",
    "is_log",
]

ESC = "\x1b"
_MAX_DEPTH = 200  # real streams nest < 10 deep; deeper means a corrupt or hostile file
_MAX_LOG_WRAP = 100


class Node:
    """One command of the stream: its own text plus its sub-commands, in execution order."""

    __slots__ = ("text", "children", "raw", "index", "where", "_text0", "_kids0", "_record", "_rtext")

    def __init__(self, text: str, children: Iterable[Node] = ()) -> None:
        self.text = text
        self.children: list[Node] = list(children)
        self.raw: str | None = None
        self.index: int | None = None  # depth-first index in the parsed stream
        self.where: Where | None = None
        self._text0: str | None = None
        self._kids0: tuple[Node, ...] = ()
        self._record: r.Record | None = None
        self._rtext: str | None = None

    @property
    def command(self) -> r.Record:
        """The typed record of this node's own text (FormatError if a known command is bad)."""
        if self._record is None or self._rtext is not self.text:
            self._record = decode_command(self.text, self.index, self.where)
            self._rtext = self.text
        return self._record

    def changed(self) -> bool:
        """Whether this node or a descendant differs from what was parsed."""
        return encode_checked(self)[1] is False

    def __repr__(self) -> str:
        # Never the text itself: it may hold a password.
        head = self.text.split("\t", 1)[0].split("/", 1)[0][:30]
        return f"Node(index={self.index}, head={head!r}, children={len(self.children)})"


def _node(text: str, raw: str, counter: list[int], where: Where | None) -> Node:
    node = Node.__new__(Node)
    node.text = node._text0 = text
    node.raw = raw
    node.children = []
    node._kids0 = ()
    node.index = counter[0]
    counter[0] += 1
    node.where = where
    node._record = node._rtext = None
    return node


def parse_stream(text: str, where: Where | None = None) -> Node:
    """Decode a whole savedGame text (or any single command text) into a command tree.

    Exactly spec 5.1: split with ESC; one field identical to the input is a single command;
    otherwise the first field (decoded recursively) is the node and every further field a
    sub-command. `where` (file, entry) is attached to errors raised later by `Node.command`.
    """
    counter = [0]

    def decode(s: str, depth: int) -> Node:
        if depth > _MAX_DEPTH:
            raise FormatError(f"commands nested deeper than {_MAX_DEPTH} levels", where)
        src = s
        while True:
            if ESC not in s and not (len(s) > 1 and s[0] == "'" and s[-1] == "'"):
                return _node(s, src, counter, where)  # the common leaf: no split needed
            fields = split(s, ESC)
            if len(fields) > 1:
                break
            if fields[0] == s:
                return _node(s, src, counter, where)
            s = fields[0]  # quotes or a lone escape were removed: decode again
        node = decode(fields[0], depth + 1)
        node.raw = src
        kids = node.children
        for f in fields[1:]:
            kids.append(decode(f, depth + 1))
        node._kids0 = tuple(kids)
        return node

    return decode(text, 0)


def encode_checked(node: Node) -> tuple[str, bool]:
    """The encoded text of `node` and whether it is the unchanged raw text."""
    results = [encode_checked(c) for c in node.children]
    kids = node.children
    if (
        node.raw is not None
        and node.text == node._text0
        and len(kids) == len(node._kids0)
        and all(a is b for a, b in zip(kids, node._kids0))
        and all(ok for _, ok in results)
    ):
        return node.raw, True
    if not kids:
        return node.text, False
    return join([node.text, *(t for t, _ in results)], ESC), False


def encode(node: Node) -> str:
    """The text of a command tree: the original bytes for unchanged parts (see module doc).

    Re-encoding follows spec 5.1 with VASSAL's >= 3.4 quoting, including its round-trip
    hazard (4.3): a changed command ending in a backslash that is followed by another one
    merges with it, as it would in VASSAL.
    """
    return encode_checked(node)[0]


def iter_nodes(root: Node) -> Iterator[tuple[int, int, Node]]:
    """Every node as (index, depth, node), depth first: the order VASSAL executes them."""
    stack = [(root, 0)]
    index = 0
    while stack:
        node, depth = stack.pop()
        yield index, depth, node
        index += 1
        if node.children:
            stack.extend((k, depth + 1) for k in reversed(node.children))


# ---------------------------------------------------------------------------- typing


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


def _board_picker(t: str, i: int | None, w: Where | None) -> r.Record:
    f = split(t, "\t")
    head = f[0]
    map_id = head[: -len("BoardPicker")] if head.endswith("BoardPicker") else head
    boards = []
    for k in range(1, len(f), 3):
        name = split(f[k], "/")
        col = int_or(f[k + 1] if k + 1 < len(f) else None, 0)
        row = int_or(f[k + 2] if k + 2 < len(f) else None, 0)
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
KNOWN_PREFIXES = ("+/", "-/", "D/", "M/", "CHAT", "TURN", "begin_save", "end_save") + tuple(
    h + "\t" for h in _HEADS
)


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


# ---------------------------------------------------------------------------- derived views


def _unwrap(rec: r.Record) -> r.Record:
    while isinstance(rec, r.Log):
        rec = rec.inner
    return rec


def _unlogged(text: str) -> str:
    while text.startswith("LOG\t"):
        text = text[4:]
    return text


@dataclass(frozen=True)
class DiceRoll:
    """A die roll: a standard Dice Button compound (spec 5.4) or a Special Dice Button.

    `result` is the new value of ``<button>_result`` (the kept dice, e.g. ``3,5``) or, for
    special dice, the rolls joined by ``,``. `undo` marks the inverse written when a player
    undid a roll (its chat line is ``* UNDO: …``). `index` is the depth-first command index.
    """

    index: int
    button: str
    report: str | None
    result: str
    total: str | None = None
    keep: str | None = None
    summary: str | None = None
    special: bool = False
    undo: bool = False
    node: Node | None = field(default=None, repr=False, compare=False)


def _dice_from_chat(index: int, node: Node, chat: r.Chat) -> DiceRoll | None:
    props: list[r.MutableProperty] = []
    for kid in node.children:
        if _unlogged(kid.text).startswith("MutableProperty\t"):
            rec = _unwrap(kid.command)
            if isinstance(rec, r.MutableProperty):
                props.append(rec)
    button = next((p.name[:-7] for p in props if p.name.endswith("_result")), None)
    if button is None:
        return None
    values = {p.name[len(button) :]: p.new for p in props if p.name.startswith(button)}
    return DiceRoll(
        index=index,
        button=button,
        report=chat.message,
        result=values["_result"],
        total=values.get("_total"),
        keep=values.get("_keep"),
        summary=values.get("_summary"),
        undo=chat.message.startswith("* UNDO: "),
        node=node,
    )


def dice_rolls(root: Node) -> list[DiceRoll]:
    """Every die roll in the stream, in execution order, including those inside LOG steps.

    A standard roll is a CHAT node whose sub-commands set ``<button>_result`` (and, since
    VASSAL 3.3, ``_total``, ``_keep``, ``_summary``); a special roll is SHOW_RESULTS, whose
    report is the chat line it hangs under, if any.
    """
    out: list[DiceRoll] = []
    stack: list[tuple[Node, Node | None]] = [(root, None)]
    index = -1
    while stack:
        node, parent = stack.pop()
        index += 1
        if node.children:
            stack.extend((k, node) for k in reversed(node.children))
        bare = _unlogged(node.text)
        if bare.startswith("CHAT") and node.children:
            chat = _unwrap(node.command)
            if isinstance(chat, r.Chat):
                roll = _dice_from_chat(index, node, chat)
                if roll is not None:
                    out.append(roll)
        elif bare.startswith("SHOW_RESULTS\t"):
            show = _unwrap(node.command)
            report = None
            if parent is not None and _unlogged(parent.text).startswith("CHAT"):
                report = _unlogged(parent.text)[4:]
            if isinstance(show, r.ShowResults):
                result = ",".join(map(str, show.rolls))
                out.append(DiceRoll(index, show.button, report, result, special=True, node=node))
    return out


def _secret_fields(text: str) -> list[str]:
    # Lenient on purpose: a malformed command must not hide its password from redaction.
    t = _unlogged(text)
    if t.startswith("M/"):
        f = split(t[2:], "/")
        return f[9:10]
    head, _, rest = t.partition("\t")
    if not _:
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


_SECRET_STARTS = ("M/", "PLAYER\t", "PYREMOVE\t", "PNOTE\t", "SNOTE\t", "UNMASK\t", "LOCKSPOTAB\t")


def secrets(root: Node) -> set[str]:
    """Every player password in the stream's commands (spec 5.7), for redaction.

    Covers PLAYER, PYREMOVE, MovePiece's player, PNOTE/SNOTE owners, UNMASK and LOCKSPOTAB,
    also inside LOG wrappers. Passwords inside piece states (Invisible/Mask traits with
    per-player access) are found by the trait decoder, not here.
    """
    found: set[str] = set()
    for _, _, node in iter_nodes(root):
        t = node.text
        if t.startswith(_SECRET_STARTS) or (t.startswith("LOG\t") and _unlogged(t).startswith(_SECRET_STARTS)):
            found.update(x for x in _secret_fields(t) if x)
    return found


def log_steps(root: Node) -> list[Node]:
    """The logged steps of a .vlog: the root's sub-commands after ``end_save`` ([] for a save)."""
    kids = root.children
    for k, node in enumerate(kids):
        if node.text == "end_save":
            return kids[k + 1 :]
    return []


def is_log(root: Node) -> bool:
    """Whether the stream is a log: it has steps after ``end_save``."""
    return bool(log_steps(root))
