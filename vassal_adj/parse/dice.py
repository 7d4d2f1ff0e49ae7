"""Die rolls in a command stream: standard Dice Button reports and Special Dice results (5.4)."""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from vassal_adj.parse import records
from vassal_adj.parse.commands import Node, unlogged


def unwrap(rec: records.Record) -> records.Record:
    """The command a ``LOG`` record wraps (itself when not logged)."""
    while isinstance(rec, records.Log):
        rec = rec.inner
    return rec


@dataclass(frozen=True)
class DiceRoll:
    """A die roll: a standard Dice Button compound (spec 5.4) or a Special Dice Button.

    `result` is the new value of ``<button>_result`` (the kept dice, e.g. ``3,5``) or, for
    special dice, the rolls joined by ``,``. `undo` marks the inverse written when a player
    undid a roll (its chat line is ``* UNDO: …``). `index` is the depth-first command index of
    the roll's first command; `parts` the indices of all its commands (its chat echo and its
    property records), which are this one roll and nothing else.
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
    parts: tuple[int, ...] = field(default=(), compare=False)


# The property records of one roll (pitfall 21): `_result` always, `_total` and `_keep` since
# VASSAL 3.6.0, `_summary` since 3.7.16.
_SUFFIXES = ("_result", "_total", "_keep", "_summary")


def _dice_property(node: Node) -> tuple[str, str, str, str] | None:
    """(button, suffix, old value, new value) of a Dice Button property record, or None."""
    if not unlogged(node.text).startswith("MutableProperty\t"):
        return None
    rec = unwrap(node.command)
    if not isinstance(rec, records.MutableProperty):
        return None
    suffix = next((x for x in _SUFFIXES if rec.name.endswith(x)), None)
    return (rec.name[: -len(suffix)], suffix, rec.old, rec.new) if suffix else None


def _chat(node: Node) -> records.Chat | None:
    if not unlogged(node.text).startswith("CHAT"):
        return None
    rec = unwrap(node.command)
    return rec if isinstance(rec, records.Chat) else None


def _quotes(chat: Node, parts: list[tuple[int, Node]]) -> bool:
    """Whether the chat line quotes a value the roll's ``_result`` record sets or replaces."""
    message = unlogged(chat.text)
    for _i, node in parts:
        rec = unwrap(node.command)
        if isinstance(rec, records.MutableProperty) and rec.name.endswith("_result"):
            # The value as a whole: a result of 5 is not quoted by "2514".
            return any(v and re.search(rf"(?<![\w,]){re.escape(v)}(?![\w,])", message) for v in (rec.new, rec.old))
    return False


def _roll(parts: list[tuple[int, Node]], chat: records.Chat | None, button: str) -> DiceRoll | None:
    """The roll whose commands are `parts` (index, node), or None when none sets ``_result``.
    An undo's records put back the values before the roll: the roll it takes back is their
    old values, as its echo quotes it."""
    report = chat.message if chat is not None else None
    undo = bool(report and report.startswith("* UNDO: "))
    values: dict[str, str] = {}
    for _i, node in parts:
        found = _dice_property(node)
        if found is not None and found[0] == button:
            values.setdefault(found[1], found[2] if undo else found[3])
    if "_result" not in values:
        return None
    first = min(parts, key=lambda p: p[0])
    return DiceRoll(
        index=first[0],
        button=button,
        report=report,
        result=values["_result"],
        total=values.get("_total"),
        keep=values.get("_keep"),
        summary=values.get("_summary"),
        undo=undo,
        node=first[1],
        parts=tuple(sorted(i for i, _ in parts)),
    )


def _numbered(root: Node) -> list[tuple[int, Node, Node | None]]:
    """(index, node, parent) of every node, depth first, indexed as `iter_nodes` does."""
    out: list[tuple[int, Node, Node | None]] = []
    stack: list[tuple[Node, Node | None]] = [(root, None)]
    while stack:
        node, parent = stack.pop()
        out.append((len(out), node, parent))
        if node.children:
            stack.extend((k, node) for k in reversed(node.children))
    return out


def dice_rolls(root: Node) -> list[DiceRoll]:
    """Every die roll in the stream, in execution order, including those inside LOG steps.

    A standard roll is the set of ``<button>_result`` (``_total``, ``_keep``, ``_summary``)
    records of one button that hang together, with its chat echo when it has one (5.4,
    pitfall 21): VASSAL writes the echo with the records under it, an undo writes the
    inverse records first and the ``* UNDO: `` echo beside them, and a button whose report
    format is empty writes the records alone. Echo and records are one roll, never two. A
    special roll is SHOW_RESULTS, whose report is the chat line it hangs under, if any.
    """
    out: list[DiceRoll] = []
    nodes = _numbered(root)
    index_of = {id(n): i for i, n, _p in nodes}
    used: set[int] = set()
    for index, node, parent in nodes:
        if index in used:
            continue
        if unlogged(node.text).startswith("SHOW_RESULTS\t"):
            show = unwrap(node.command)
            chat = _chat(parent) if parent is not None else None
            if isinstance(show, records.ShowResults):
                result = ",".join(map(str, show.rolls))
                out.append(
                    DiceRoll(
                        index,
                        show.button,
                        chat.message if chat else None,
                        result,
                        special=True,
                        node=node,
                        parts=(index,),
                    )
                )
            continue
        found = _dice_property(node)
        if found is None:
            continue
        # The roll's commands: the records of its button among this record's siblings, the
        # parent when it is one of them or the echo, and the echo among the siblings.
        family = [(index_of[id(k)], k) for k in (parent.children if parent is not None else (node,))]
        if parent is not None and index_of[id(parent)] not in used:
            family.append((index_of[id(parent)], parent))
        parts = [(i, k) for i, k in family if (_dice_property(k) or ("",))[0] == found[0] and i not in used]
        # The echo: the parent when the records hang under it, else a sibling chat that is no
        # other roll's echo (one with records of its own under it) and that quotes the value
        # the record sets or, for an undo's echo, the one it takes back.
        chats = [
            (i, k)
            for i, k in family
            if i not in used
            and _chat(k) is not None
            and (k is parent or (not any(_dice_property(c) for c in k.children) and _quotes(k, parts)))
        ]
        echo = next(((i, k) for i, k in chats if k is parent), None) or next(iter(chats), None)
        roll = _roll(parts + ([echo] if echo else []), _chat(echo[1]) if echo else None, found[0])
        if roll is not None:
            used.update(roll.parts)
            out.append(roll)
    return sorted(out, key=lambda d: d.index)
