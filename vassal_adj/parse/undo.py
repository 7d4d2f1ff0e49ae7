"""Undo in a log (spec 5.6, pitfall 5): which steps are undos, and which step each takes back.

VASSAL 3.6.7+ brackets an undo with ``UNDO<TAB>true`` ... ``UNDO<TAB>false``; older logs hold only
the inverse commands of the action taken back: the ``* UNDO: `` echo of each chat line it wrote,
a move back to the exact place each piece came from, the old value of each property.
"""

from __future__ import annotations

from vassal_adj.model.events import Event, Moved
from vassal_adj.parse import records as r
from vassal_adj.parse.commands import Node, iter_nodes
from vassal_adj.parse.dice import unwrap

__all__ = ["Done", "unbracketed_undo", "undone_step"]


def unbracketed_undo(step: Node) -> bool:
    """Whether `step` is an undo logged before VASSAL 3.6.7, without ``UNDO`` brackets (5.6,
    pitfall 5): it holds the inverse commands, among them the ``* UNDO: `` echo of each chat
    line taken back. The echo leads the step when the undone action ended with its report,
    but the inverse of a die roll opens with its property records (5.4), so the whole step is
    searched. A player's chat is ``<name> - text``: only an undo writes ``* UNDO: ``."""
    found = False
    for _local, _depth, node in iter_nodes(step):
        cmd = unwrap(node.command)
        if isinstance(cmd, r.Undo):
            return False
        found = found or (isinstance(cmd, r.Chat) and cmd.message.startswith("* UNDO: "))
    return found


Done = tuple[int, list[str], list[Event]]  # a step an undo could take back: number, chat, events


def _inverts(back: Moved, forth: Moved) -> bool:
    """Whether `back` puts the piece `forth` moved back to the exact place it came from."""
    return back.piece == forth.piece and back.origin.same_spot(forth.to) and back.to.same_spot(forth.origin)


def undone_step(done: list[Done], said: list[str], events: list[Event]) -> int:
    """Which `done` step an undo takes back: the latest that made the report the undo repeats
    after ``* UNDO: ``; else the latest whose moves the undo's moves invert (each piece put
    back where it was); else the latest, as VASSAL undoes in reverse order."""
    taken = {m[len("* UNDO: ") :] for m in said if m.startswith("* UNDO: ")}
    for k in range(len(done) - 1, -1, -1):
        if taken & set(done[k][1]):
            return k
    backs = [e for e in events if isinstance(e, Moved)]
    for k in range(len(done) - 1, -1, -1):
        forths = [e for e in done[k][2] if isinstance(e, Moved)]
        if backs and all(any(_inverts(b, f) for f in forths) for b in backs):
            return k
    return len(done) - 1
