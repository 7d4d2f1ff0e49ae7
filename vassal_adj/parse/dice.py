"""Die rolls in a command stream: standard Dice Button reports and Special Dice results (5.4)."""

from __future__ import annotations

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


def _dice_from_chat(index: int, node: Node, chat: records.Chat) -> DiceRoll | None:
    props: list[records.MutableProperty] = []
    for kid in node.children:
        if unlogged(kid.text).startswith("MutableProperty\t"):
            rec = unwrap(kid.command)
            if isinstance(rec, records.MutableProperty):
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
        bare = unlogged(node.text)
        if bare.startswith("CHAT") and node.children:
            chat = unwrap(node.command)
            if isinstance(chat, records.Chat):
                roll = _dice_from_chat(index, node, chat)
                if roll is not None:
                    out.append(roll)
        elif bare.startswith("SHOW_RESULTS\t"):
            show = unwrap(node.command)
            report = None
            if parent is not None and unlogged(parent.text).startswith("CHAT"):
                report = unlogged(parent.text)[4:]
            if isinstance(show, records.ShowResults):
                result = ",".join(map(str, show.rolls))
                out.append(DiceRoll(index, show.button, report, result, special=True, node=node))
    return out
