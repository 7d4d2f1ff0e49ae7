"""The command stream of a save or log: a tree of ESC-separated commands (spec section 5).

`parse_stream` decodes the text into a tree of `Node`; `encode` turns it back into text.

Change tracking: a parsed node remembers its text and the identity of its children as
parsed. `encode` returns ``node.raw`` (the exact string the node was decoded from) when the
node's text is unchanged, its child list holds the same Node objects in the same order and
every child is unchanged too; otherwise it re-encodes that node with `join`, still reusing
the raw text of every unchanged descendant. So nodes and their ``children`` lists may be
edited freely and in place; nothing has to be flagged. New nodes (``Node(text, children)``)
have no raw text and are always encoded.

Typed records (`node.command`) are decoded lazily, on first access, and cached per text
(`decode_command`, in `vassal_adj.parse.command_decoders`).
"""

from __future__ import annotations

import gc
import itertools
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field

from ..errors import FormatError, Where
from . import records as r
from .command_decoders import KNOWN_PREFIXES, decode_command
from .tokens import join, split

__all__ = [
    "ESC", "KNOWN_PREFIXES", "Node", "parse_stream", "encode", "iter_nodes", "decode_command",
    "DiceRoll", "dice_rolls", "secrets", "log_steps", "is_log",
]  # fmt: skip

ESC = "\x1b"
_MAX_DEPTH = 200  # real streams nest < 10 deep; deeper means a corrupt or hostile file


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
        return not _clean(self)

    def __repr__(self) -> str:
        # Never the text itself: it may hold a password.
        head = self.text.split("\t", 1)[0].split("/", 1)[0][:30]
        return f"Node(index={self.index}, head={head!r}, children={len(self.children)})"


def parse_stream(text: str, where: Where | None = None) -> Node:
    """Decode a whole savedGame text (or any single command text) into a command tree.

    Exactly spec 5.1: split with ESC; one field identical to the input is a single command;
    otherwise the first field (decoded recursively) is the node and every further field a
    sub-command. `where` (file, entry) is attached to errors raised later by `Node.command`.
    Never raises for odd text, except FormatError for absurdly deep nesting.
    """
    counter = itertools.count()
    new = Node.__new__

    def leaf(s: str, raw: str) -> Node:
        node = new(Node)
        node.text = node._text0 = s
        node.raw = raw
        node.children = []
        node._kids0 = ()
        node.index = next(counter)
        node.where = where
        node._record = node._rtext = None
        return node

    def decode(s: str, depth: int) -> Node:
        if depth > _MAX_DEPTH:
            raise FormatError(f"commands nested deeper than {_MAX_DEPTH} levels", where)
        src = s
        while True:
            if ESC not in s and not (len(s) > 1 and s[0] == "'" and s[-1] == "'"):
                return leaf(s, src)  # the common case needs no split
            fields = split(s, ESC)
            if len(fields) > 1:
                break
            if fields[0] == s:
                return leaf(s, src)
            s = fields[0]  # quotes or a lone escape were removed: decode what is left
        node = decode(fields[0], depth + 1)
        node.raw = src
        kids = node.children
        for f in fields[1:]:
            if ESC in f or (len(f) > 1 and f[0] == "'" and f[-1] == "'"):
                kids.append(decode(f, depth + 1))
                continue
            kid = new(Node)  # leaf(f, f), inlined: most commands of a save go through here
            kid.text = kid._text0 = kid.raw = f
            kid.children = []
            kid._kids0 = ()
            kid.index = next(counter)
            kid.where = where
            kid._record = kid._rtext = None
            kids.append(kid)
        node._kids0 = tuple(kids)
        return node

    # The tree holds no reference cycles, so pausing the cyclic GC while tens of thousands
    # of nodes are allocated is safe; it halves the time on large saves.
    gc_was_enabled = gc.isenabled()
    gc.disable()
    try:
        return decode(text, 0)
    finally:
        if gc_was_enabled:
            gc.enable()


def _clean(node: Node) -> bool:
    if node.raw is None or node.text != node._text0:
        return False
    kids, orig = node.children, node._kids0
    if len(kids) != len(orig):
        return False
    for a, b in zip(kids, orig):
        if a is not b:
            return False
        # Inline test for the common unchanged leaf; anything else is checked in full.
        if (a.children or a._kids0 or a.raw is None or a.text != a._text0) and not _clean(a):
            return False
    return True


def encode(node: Node) -> str:
    """The text of a command tree: the original bytes for unchanged parts (see module doc).

    Re-encoding follows spec 5.1 with VASSAL's >= 3.4 quoting, including its round-trip
    hazard (4.3): a changed command ending in a backslash that is followed by another one
    merges with it, as it would in VASSAL.
    """
    if _clean(node):
        return node.raw  # type: ignore[return-value]
    if not node.children:
        return node.text
    return join([node.text, *(encode(c) for c in node.children)], ESC)


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
    stack = [root]
    while stack:
        node = stack.pop()
        stack.extend(node.children)
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
