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
import re
from collections.abc import Callable, Generator, Iterable, Iterator
from itertools import compress, count, repeat
from operator import getitem

from vassal_adj import limits
from vassal_adj.errors import Where
from vassal_adj.parse import records as r
from vassal_adj.parse.command_decoders import KNOWN_PREFIXES, decode_command
from vassal_adj.parse.tokens import join, unquote

__all__ = [
    "ESC", "KNOWN_PREFIXES", "Node", "parse_stream", "encode", "iter_nodes", "iter_texts",
    "decode_command", "log_steps", "is_log", "unlogged",
]  # fmt: skip

ESC = "\x1b"
_BIG = 1000  # building more nodes than this at once pauses the cyclic GC


class Node:
    """One command of the stream: its own text plus its sub-commands, in execution order."""

    __slots__ = ("text", "children", "raw", "index", "where", "_text0", "_kids0", "_record",
                 "_rtext", "_pending", "_flat", "_pre")  # fmt: skip

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
        self._pre: dict[int, list[str]] | None = None  # see `_split_esc`

    def __getattr__(self, name: str) -> list[Node]:
        # Python calls this only for an unset slot: `children` of a node not built yet.
        if name == "children" and self._pending is not None:
            return self._build_children()
        raise AttributeError(f"{type(self).__name__!r} object has no attribute {name!r}")

    def _build_children(self) -> list[Node]:
        pending, index, where, pre = self._pending, self.index, self.where, self._pre or {}
        assert pending is not None and index is not None
        pause = len(pending) > _BIG and gc.isenabled()
        if pause:
            gc.disable()  # the tree has no cycles: collecting while it grows is wasted time
        try:
            kids = []
            index += 1
            for i, f in enumerate(pending):
                kids.append(_make(f, index, where, pre.get(i)))
                # A field holds 1 + count(ESC) commands; a known split has that many parts.
                index += 1 if self._flat else len(pre[i]) if i in pre else 1 + f.count(ESC)
        finally:
            if pause:
                gc.enable()
        self.children = kids
        self._kids0 = tuple(kids)
        self._pending = self._pre = None
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


def _split_esc(
    s: str, parts: list[str] | None = None, unquoted: bool = False
) -> tuple[list[str], bool, dict[int, list[str]]]:
    """``split(s, ESC)`` (spec 4.2) in C-speed passes: saves hold 75,000 commands.

    Also says whether a field may start with a quote (False: certainly none does; `unquoted`
    True: the caller knows, as every field of a field follows an ESC too), and gives each
    glued field's own ``split(ESC)`` by index: decoding it needs that next, and a save's
    piece list is a field of 75,000 parts. `parts`, when known, is ``s.split(ESC)``.
    """
    fields, runs = _glue(s.split(ESC)) if parts is None else _glue(parts, probe=True)
    if not unquoted and _may_quote(s):  # unquote; the glued splits may then not apply
        return [unquote(f) for f in fields], True, {}
    return fields, False, runs


def _glue(parts: list[str], probe: bool = False) -> tuple[list[str], dict[int, list[str]]]:
    # The parts ending in a backslash (an escaped ESC follows) are glued to the next one
    # without it. `probe`: first find out whether there is any, which is cheaper (a last-
    # character slice is one of Python's cached 1-character strings) for a known split,
    # usually a piece list with none.
    last = len(parts) - 1
    if probe and "\\" not in {*map(getitem, parts, repeat(_LAST, last))}:
        return parts, {}
    escaped = bytes(map(str.endswith, parts, repeat("\\", last)))
    fields: list[str] = []
    runs: dict[int, list[str]] = {}
    done = 0
    for m in _ONES.finditer(escaped):  # parts a..b-1 end in a backslash: glue a..b
        a, b = m.span()
        fields += parts[done:a]
        glued = [p[:-1] for p in parts[a:b]]
        glued.append(parts[b])
        runs[len(fields)] = glued
        fields.append(ESC.join(glued))
        done = b + 1
    fields += parts[done:]
    return fields, runs


_LAST = slice(-1, None)
_ONES = re.compile(b"\x01+")


def _may_quote(s: str) -> bool:
    """Whether a field of `s` may start with a quote: `s` does or one follows an ESC. Saves
    hold few quotes: looking at each (found by a memchr) beats searching for ESC + quote."""
    i = s.find("'")
    for _ in range(1000):
        if i < 0:
            return False
        if i == 0 or s[i - 1] == ESC:
            return True
        i = s.find("'", i + 1)
    return ESC + "'" in s


def _explode(
    s: str, parts: list[str] | None = None, unquoted: bool = False
) -> tuple[str, list[str] | None, bool, dict[int, list[str]] | None]:
    """Spec 5.1 for one node: its own text, its child fields (None for a single command),
    whether every child field is a plain single command (no ESC, not quoted) and the known
    splits of child fields (see `_split_esc`; `parts` and `unquoted` are passed to it)."""
    while True:
        if ESC not in s and not _quoted(s):
            return s, None, False, None  # the common case needs no split
        if parts is None and not _quoted(s):
            s, peeled = _peel(s)
            unquoted = unquoted and not peeled
        fields, quotes, runs = _split_esc(s, parts, unquoted)
        if len(fields) > 1:
            break
        if fields[0] == s:
            return s, None, False, None
        # Quotes or a lone escape were removed: decode what is left.
        s, parts, unquoted = fields[0], runs.get(0), not quotes
    text, own, _, _ = _explode(fields[0], runs.get(0), not quotes)
    if own is not None:  # the first field is itself compound: its children come first
        return text, own + fields[1:], False, None
    # The fields hold no ESC when nothing was glued; none is quoted when no field starts
    # with a quote. (A copy: `fields` may be the caller's `parts`, kept for other uses.)
    flat = not quotes and not runs
    return text, fields[1:], flat, {i - 1: r for i, r in runs.items()} or None


def _peel(s: str) -> tuple[str, bool]:
    """`s` with all but one of the escape levels that wrap it whole removed in one pass.

    While every ESC of `s` has a backslash before it, one decoding pass only removes one of
    them before each ESC (spec 4.2): `s` is one escaped command inside another. Doing the
    passes one by one costs a pass per level; here the levels every ESC allows (the shortest
    run of backslashes before one) are removed at once, bar one, left to the caller's pass.
    Says whether anything was removed. (A quoted `s` is left alone: unquoting comes first.)
    """
    first = s.find(ESC)
    if first < 2 or s[first - 2 : first] != "\\\\":  # the usual case, decided at the first ESC
        return s, False
    pieces = s.split(ESC)
    keep = min(len(p) - len(p.rstrip("\\")) for p in pieces[:-1])
    if keep < 2:
        return s, False
    cut = keep - 1
    return ESC.join([*(p[:-cut] for p in pieces[:-1]), pieces[-1]]), True


def _make(s: str, index: int, where: Where | None, parts: list[str] | None = None) -> Node:
    """The node of field `s`; `parts`, when known, is ``s.split(ESC)`` of a field that holds
    no quoted field (see `_split_esc`)."""
    node = Node.__new__(Node)
    # The leaf test inlined: most commands of a save are single commands.
    leaf = ESC not in s and not _quoted(s) if parts is None else len(parts) == 1
    node.text, node._pending, node._flat, node._pre = (
        (s, None, False, None) if leaf else _explode(s, parts, parts is not None)
    )
    if node._pending is None:
        node.children = []
    node._text0, node.raw, node._kids0, node.index, node.where = node.text, s, (), index, where
    node._record = node._rtext = None
    return node


def _check_size(text: str, where: Where | None) -> None:
    # An ESC that splits at depth d has at least d backslashes before it (each level of
    # escaping adds one, spec 4.2), so the longest run of backslashes before an ESC bounds the
    # nesting depth, and so the recursion and the passes of decoding: found by one substring
    # search, with no split (a split per level costs memory as depth x size).
    nesting = limits.NESTING.value
    at = text.find("\\" * (nesting + 1) + ESC)
    if at >= 0:  # the end of the run: count back to its start
        esc, start = at + nesting + 1, len(text[:at].rstrip("\\"))
        found = f"an ESC with {esc - start:,} backslashes before it (that many levels of nesting)"
        raise limits.NESTING.error(found, (where or Where()).but(offset=start))
    commands = text.count(ESC) + 1  # every ESC separates two commands at some depth
    if commands > limits.COMMANDS.value:
        raise limits.COMMANDS.error(f"{commands:,} commands", where)


def parse_stream(text: str, where: Where | None = None) -> Node:
    """Decode a whole savedGame text (or any single command text) into a command tree.

    Exactly spec 5.1: split with ESC; one field identical to the input is a single command;
    otherwise the first field (decoded recursively) is the node and every further field a
    sub-command. `where` (file, entry) is attached to errors raised later by `Node.command`.
    Never raises for odd text, except FormatError past the limits on nesting and commands.
    """
    _check_size(text, where)
    return _make(text, 0, where)


def _clean(node: Node) -> bool:
    if node.raw is None or node.text != node._text0:
        return False
    if node._pending is not None:
        return _lazy(node)  # unbuilt children are unchanged; assigned ones replace them
    kids, orig = node.children, node._kids0
    if len(kids) != len(orig):
        return False
    for a, b in zip(kids, orig, strict=False):
        if a is not b:
            return False
        # Inline test for the common unchanged leaf; anything else is checked in full.
        if (a._pending is not None or a._kids0 or a.children or a.raw is None or a.text != a._text0) and not _clean(a):
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


def iter_texts(
    node: Node, start: int = 0, select: Callable[[str], object] | None = None
) -> Generator[tuple[int, str], None, int]:
    """(index, own text) of `node` and every descendant, depth first, building no Node.

    Indices count from `start` like `iter_nodes` does from 0, so for a parsed root they are
    the nodes' own ``index``. Children not built yet are read from their field strings.
    `select`: only the texts for which it is true (give a C function, e.g. a compiled
    pattern's ``match``: a save's piece list of 75,000 fields is then filtered at C speed).
    The generator returns the index after the last command.
    """
    index = start
    todo: list[Node | tuple[str, list[str] | None]] = [node]
    while todo:
        item = todo.pop()
        if type(item) is tuple:
            text, pending, flat, pre = _explode(*item, unquoted=item[1] is not None)
        else:
            assert isinstance(item, Node)
            text, flat, pre = item.text, item._flat, item._pre
            pending = item._pending if _lazy(item) else None
            if pending is None and item.children:
                todo.extend(reversed(item.children))
        if select is None or select(text):
            yield index, text
        index += 1
        if pending is None:
            continue
        if flat:  # a flat list of single commands: one C-level pass, no loop here
            if select is None:
                yield from zip(count(index), pending)
            else:
                for i in compress(count(), map(select, pending)):
                    yield index + i, pending[i]
            index += len(pending)
        else:
            pre = pre or {}
            todo.extend((pending[i], pre.get(i)) for i in range(len(pending) - 1, -1, -1))
    return index


# ---------------------------------------------------------------------------- derived views


def log_steps(root: Node) -> list[Node]:
    """The logged steps of a .vlog: the root's sub-commands after ``end_save`` ([] for a save)."""
    kids = root.children
    for k, node in enumerate(kids):
        if node.text == "end_save":
            return kids[k + 1 :]
    return []


def unlogged(text: str) -> str:
    """A command text without its ``LOG<TAB>`` wrappers (5.6)."""
    while text.startswith("LOG\t"):
        text = text[4:]
    return text


def is_log(root: Node) -> bool:
    """Whether the stream is a log: it has steps after ``end_save``."""
    return bool(log_steps(root))
