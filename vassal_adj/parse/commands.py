"""The command stream of a save or log: a tree of ESC-separated commands (spec section 5).

`parse_stream` decodes the text into a tree of `Node`; `encode` turns it back into text.

Laziness: saves hold tens of thousands of commands. `parse_stream` splits only the root; a node
keeps its sub-commands as field strings (decoded one level) and builds their Nodes on the first
access to ``node.children``; `iter_texts` walks (index, text) pairs building no Node at all.
Indices are exact depth-first numbers either way: a field holds ``1 + field.count(ESC)``
commands (every ESC in it is a delimiter at some depth, an escaped one losing one backslash
per level), so a child's index is its parent's plus the sizes of the siblings before it.

Change tracking: `encode` returns ``node.raw`` (the exact string the node was decoded from)
when the node's text is unchanged and its child list holds the same, unchanged Node objects
in the same order (children never built are unchanged); otherwise it re-encodes that node
with `join`, reusing the raw text of unchanged descendants. So nodes and ``children`` lists
may be edited in place; nothing is flagged. New nodes (``Node(text, children)``) have no raw.
Typed records (`node.command`) are decoded lazily and cached per text (`decode_command`).
"""

from __future__ import annotations

import gc
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field

from ..errors import FormatError, Where
from . import records as r
from .command_decoders import KNOWN_PREFIXES, decode_command
from .tokens import join, unquote

__all__ = [
    "ESC", "KNOWN_PREFIXES", "Node", "parse_stream", "encode", "iter_nodes", "iter_texts",
    "decode_command", "DiceRoll", "dice_rolls", "secrets", "log_steps", "is_log",
]  # fmt: skip

ESC = "\x1b"
_MAX_DEPTH = 200  # real streams nest < 10 deep; deeper means a corrupt or hostile file
_BIG = 1000  # building more nodes than this at once pauses the cyclic GC


class Node:
    """One command of the stream: its own text plus its sub-commands, in execution order."""

    __slots__ = ("text", "children", "raw", "index", "where", "_text0", "_kids0", "_record",
                 "_rtext", "_pending", "_flat")  # fmt: skip

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
        self._pending: list[str] | None = None  # child fields not built yet (children unset)
        self._flat = False  # every pending field is a plain single command

    def __getattr__(self, name: str) -> list[Node]:
        # Python calls this only for an unset slot: `children` of a node not built yet.
        if name == "children" and self._pending is not None:
            return self._build_children()
        raise AttributeError(f"{type(self).__name__!r} object has no attribute {name!r}")

    def _build_children(self) -> list[Node]:
        pending, index, where = self._pending, self.index, self.where
        assert pending is not None and index is not None
        pause = len(pending) > _BIG and gc.isenabled()
        if pause:
            gc.disable()  # the tree has no cycles: collecting while it grows is wasted time
        try:
            kids = []
            index += 1
            for f in pending:
                kids.append(_make(f, index, where))
                index += 1 if self._flat else 1 + f.count(ESC)
        finally:
            if pause:
                gc.enable()
        self.children = kids
        self._kids0 = tuple(kids)
        self._pending = None
        return kids

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
        count = len(self._pending) if _lazy(self) else len(self.children)  # type: ignore[arg-type]
        return f"Node(index={self.index}, head={head!r}, children={count})"


_CHILDREN_SLOT = Node.children  # the slot itself: reading it never builds children


def _lazy(node: Node) -> bool:
    """Whether `node` still holds unbuilt child fields (and nobody assigned its children)."""
    try:  # an assigned list is never None; an unset slot raises
        return node._pending is not None and _CHILDREN_SLOT.__get__(node, Node) is None
    except AttributeError:
        return True


def _quoted(s: str) -> bool:
    return len(s) > 1 and s[0] == "'" and s[-1] == "'"


def _split_esc(s: str) -> tuple[list[str], bool]:
    """``split(s, ESC)`` with C-speed passes where it counts: one ``str.split`` at every ESC,
    then the parts ending in a backslash (an escaped ESC follows) are glued to the next one
    without that backslash, exactly as the decoder does (spec 4.2). Replacing ``\\<ESC>``
    in the whole text instead would be slow: saves often hold non-Latin-1 characters.
    Also says whether a field may start with a quote (False: certainly none does)."""
    parts = s.split(ESC)
    last = len(parts) - 1
    ends = [i for i, p in enumerate(parts) if p[-1:] != "\\" or i == last]
    if len(ends) == len(parts):
        fields = parts
    else:
        fields, start = [], 0
        for end in ends:
            if end == start:
                fields.append(parts[end])
            else:
                glued = [p[:-1] for p in parts[start:end]]
                glued.append(parts[end])
                fields.append(ESC.join(glued))
            start = end + 1
    if s[:1] == "'" or ESC + "'" in s:  # else no field starts with a quote: none to remove
        return [unquote(f) for f in fields], True
    return fields, False


def _explode(s: str) -> tuple[str, list[str] | None, bool]:
    """Spec 5.1 for one node: its own text, its child fields (None for a single command) and
    whether every child field is a plain single command (no ESC, not quoted)."""
    while True:
        if ESC not in s and not _quoted(s):
            return s, None, False  # the common case needs no split
        fields, quotes = _split_esc(s)
        if len(fields) > 1:
            break
        if fields[0] == s:
            return s, None, False
        s = fields[0]  # quotes or a lone escape were removed: decode what is left
    text, own, _ = _explode(fields[0])
    if own is not None:  # the first field is itself compound: its children come first
        return text, own + fields[1:], False
    del fields[0]
    # The fields hold no ESC when `s` had exactly one per delimiter; none is quoted when no
    # field starts with a quote.
    flat = not quotes and s.count(ESC) == len(fields)
    return text, fields, flat


def _make(s: str, index: int, where: Where | None) -> Node:
    node = Node.__new__(Node)
    # The leaf test inlined: most commands of a save are single commands.
    leaf = ESC not in s and not _quoted(s)
    node.text, node._pending, node._flat = (s, None, False) if leaf else _explode(s)
    if node._pending is None:
        node.children = []
    node._text0, node.raw, node._kids0, node.index, node.where = node.text, s, (), index, where
    node._record = node._rtext = None
    return node


def _check_depth(s: str, depth: int, where: Where | None) -> None:
    # The nesting test of the former eager parser, on strings: `depth` counts its recursion.
    if depth > _MAX_DEPTH:
        raise FormatError(f"commands nested deeper than {_MAX_DEPTH} levels", where)
    while ESC in s or _quoted(s):
        fields = _split_esc(s)[0]
        if len(fields) > 1:
            _check_depth(fields[0], depth + 1, where)
            for f in fields[1:]:
                if ESC in f or _quoted(f):
                    _check_depth(f, depth + 1, where)
            return
        if fields[0] == s:
            return
        s = fields[0]


def parse_stream(text: str, where: Where | None = None) -> Node:
    """Decode a whole savedGame text (or any single command text) into a command tree.

    Exactly spec 5.1: split with ESC; one field identical to the input is a single command;
    otherwise the first field (decoded recursively) is the node and every further field a
    sub-command. `where` (file, entry) is attached to errors raised later by `Node.command`.
    Never raises for odd text, except FormatError for absurdly deep nesting.
    """
    # An ESC that splits at depth d has at least d backslashes before it in `text` (each level
    # removes one), so without such a run no depth can pass the limit: skip the full check.
    if "\\" * _MAX_DEPTH + ESC in text:
        _check_depth(text, 0, where)
    return _make(text, 0, where)


def _clean(node: Node) -> bool:
    if node.raw is None or node.text != node._text0:
        return False
    if node._pending is not None:
        return _lazy(node)  # unbuilt children are unchanged; assigned ones replace them
    kids, orig = node.children, node._kids0
    if len(kids) != len(orig):
        return False
    for a, b in zip(kids, orig):
        if a is not b:
            return False
        # Inline test for the common unchanged leaf; anything else is checked in full.
        if (a._pending is not None or a._kids0 or a.children or a.raw is None
                or a.text != a._text0) and not _clean(a):
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


def iter_texts(node: Node, start: int = 0) -> Iterator[tuple[int, str]]:
    """(index, own text) of `node` and every descendant, depth first, building no Node.

    Indices count from `start` like `iter_nodes` does from 0, so for a parsed root they are
    the nodes' own ``index``. Children not built yet are read from their field strings.
    """
    index = start
    todo: list[Node | str] = [node]
    while todo:
        item = todo.pop()
        if type(item) is str:
            text, pending, flat = _explode(item)
        else:
            assert isinstance(item, Node)
            text, flat = item.text, item._flat
            pending = item._pending if _lazy(item) else None
            if pending is None and item.children:
                todo.extend(reversed(item.children))
        yield index, text
        index += 1
        if pending is None:
            continue
        if flat:  # a flat list of single commands: zip is much faster than the loop
            yield from zip(range(index, index + len(pending)), pending)
            index += len(pending)
        else:
            todo.extend(reversed(pending))


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


def secrets(root: Node) -> set[str]:
    """Every player password in the stream's commands (spec 5.7); see `parse.secrets`.

    Passwords inside piece states (Mask/Invisible traits) are added by `secrets.all_secrets`.
    """
    from .secrets import command_secrets  # that module builds on this one: import late

    return command_secrets(root)


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
