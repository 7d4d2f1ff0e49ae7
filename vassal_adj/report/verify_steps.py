"""The step-by-step part of `verify`: each file's events in words, and what is hidden unless -v.

A log's steps list what a player did. Hidden by default, and counted in a note:

- internal state changes: global, map and zone properties (a module's counters, e.g. a dice
  tray's or the phase bookkeeping), and the piece properties VASSAL keeps for itself: the
  ``Old*`` properties of the last move (OldX, OldMap, ...) and a layer's ``*_Level``,
  ``*_Image``, ``*_Name``, ``*_Active`` when its level did not change (a level change is
  shown in words: "Step: reduced"); a change left with nothing else to show is hidden whole;
- VASSAL's automatic report of an action the step already lists: a report naming a piece
  the step moves and the place it moves to (when the place has a label), or every value of
  the turn tracker the step advances.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import asdict, dataclass, replace
from typing import Any

from vassal_adj.model.events import (
    Added,
    Changed,
    ChatLine,
    DieRolled,
    Event,
    Moved,
    PieceDiff,
    PropertySet,
    Removed,
    Replay,
    Step,
    TurnChanged,
)  # fmt: skip
from vassal_adj.pbem.changes import change_text, layer_changes
from vassal_adj.pbem.rolls import Roll
from vassal_adj.report.markup import Style, plain

__all__ = ["Section", "diff_line", "event_line", "roll_line", "summary_line", "visible_events"]

_KIND = {
    Moved: "move",
    Added: "arrival",
    Removed: "removal",
    Changed: "change",
    ChatLine: "chat",
    DieRolled: "die roll",
    TurnChanged: "turn",
    PropertySet: "property",
}
_INTERNAL = re.compile(r"Old(X|Y|Map|Board|Zone|LocationName)|.+_(Level|Image|Name|Active)")


def _name(name: str, concealed: str | None) -> str:
    return f"{name or '(no name)'} [{concealed}]" if concealed else name or "(no name)"


def event_line(e: Event) -> str:
    """One event in words, places by label; free text as the file has it (a style escapes it)."""
    if isinstance(e, Moved):
        how = f" with stack {e.via}" if e.via else " (by a state change)" if e.by_change else ""
        who = f" (by {e.player})" if e.player else ""
        return f"move     {_name(e.name, e.concealed)}: {e.origin} -> {e.to}{how}{who}"
    if isinstance(e, Added):
        return f"arrive   {_name(e.name, e.concealed)} at {e.at}"
    if isinstance(e, Removed):
        return f"remove   {_name(e.name, e.concealed)} from {e.at}"
    if isinstance(e, Changed):
        renamed = f"{e.name_before} -> " if e.name_before != e.name else ""
        hidden = f"; concealment {e.concealed_before} -> {e.concealed}" if e.concealed_before != e.concealed else ""
        props = f": {change_text(e.properties, bool(renamed))}" if e.properties else ""
        return f"change   {renamed}{_name(e.name, e.concealed)} at {e.at}{props}{hidden}"
    if isinstance(e, ChatLine):
        if e.report:
            return f"report   {e.text.strip()}"
        return f"chat     <{e.speaker}> {e.text}" if e.speaker else f"chat     {e.text}"
    if isinstance(e, DieRolled):
        report = f" ({e.report})" if e.report else ""
        total = f", total {e.total}" if e.total and e.total != e.result else ""
        if e.undo:  # the inverse of a roll: its records put back, the roll named as it was
            return f"undo     {e.button} = {e.result}{total} taken back{report}"
        return f"dice     {e.button} = {e.result}{total}{report}"
    if isinstance(e, TurnChanged):
        values = ", ".join(f"{k} {v}" for k, v in e.values) or e.state
        return f"turn     {e.tracker}: {values}"
    return f"property {e.name}: {e.before!r} -> {e.after!r}" + (f" ({e.container})" if e.container else "")


def roll_line(r: Roll) -> str:
    """A die roll as the dice audit read it: what was rolled, by whom, and the report it
    came from (the echo of a Dice Button roll, or the chat report it was read from)."""
    report = f" ({r.report})" if r.report else ""
    return f"dice     {r.shown} by {r.player}{report}"


def summary_line(counts: dict[str, int]) -> str:
    main_counts = ("moves", "arrivals", "removals", "changes", "chat lines", "die rolls", "undos")
    line = ", ".join(f"{counts[k]} {k}" for k in main_counts)
    extra = [f"{counts[k]} {k}" for k in ("undone steps", "turn changes", "property changes") if counts.get(k)]
    return line + (f" (also {', '.join(extra)})" if extra else "")


def diff_line(d: PieceDiff) -> str:
    name = _name(d.name, d.concealed)
    if d.start is None:
        return f"added    {name} at {d.end}"
    if d.end is None:
        return f"removed  {name} from {d.start}"
    renamed = f" (was {d.name_before})" if d.name_before else ""
    props = f": {change_text(d.properties, bool(renamed))}" if d.properties else ""
    where = f"{d.start} -> {d.end}" if d.kind == "moved" else f"at {d.end}"
    return f"{d.kind:<8} {name}{renamed} {where}{props}"


def _duplicates(report: ChatLine, step: Step) -> bool:
    """Whether `report` is VASSAL's automatic report of an action `step` lists."""
    text = plain(report.text)
    for e in step.events:
        if isinstance(e, Moved) and e.name and e.name in text and (not e.to.label or e.to.label in text):
            return True
        if isinstance(e, TurnChanged) and e.values and all(v in text for _, v in e.values):
            return True
    return False


def visible_events(step: Step, verbose: bool) -> tuple[list[Event], int]:
    """The events of `step` a reader is shown, and how many were hidden (see the docstring)."""
    if verbose:
        return list(step.events), 0
    shown: list[Event] = []
    for e in step.events:
        if isinstance(e, Changed):
            layers = {layer + part for layer, parts in layer_changes(e.properties).items() for part in parts}
            props = tuple(p for p in e.properties if p.name in layers or not _INTERNAL.fullmatch(p.name))
            if props or e.name_before != e.name or e.concealed_before != e.concealed:
                shown.append(replace(e, properties=props))
        elif isinstance(e, ChatLine) and e.report and _duplicates(e, step):
            continue
        elif not isinstance(e, PropertySet):
            shown.append(e)
    return shown, len(step.events) - len(shown)


@dataclass
class Section:
    """What one file contributes: a log's replay, or a save's changes from the previous file."""

    path: str
    is_log: bool
    replay: Replay
    changes: list[PieceDiff] | None
    rolls: Sequence[Roll] = ()  # the dice audit's rolls of this file: each listed with its roller

    def counts(self) -> dict[str, int]:
        """The replay's counts, each roll read once as a die roll, and the steps undone."""
        out = dict(self.replay.counts({r.command for r in self.rolls}))
        out["undone steps"] = sum(1 for s in self.replay.steps if s.undone_in is not None)
        return out

    def line(self, e: Event, step: Step, rolls: dict[int, Roll]) -> str:
        """An event of `step` in words: a roll (`rolls` by command) with its roller, an undone
        action marked so."""
        r = rolls.get(e.command)
        if r is not None and not e.undo:
            undone = f" [undone in step {r.undone_in}]" if r.undone_in is not None else ""
            return roll_line(r) + undone
        return event_line(e) + (f" [undone in step {step.undone_in}]" if step.undone_in is not None else "")

    def concealed(self) -> int:
        if self.is_log:
            return sum(1 for e in self.replay.events() if getattr(e, "concealed", None))
        return sum(1 for d in self.changes or () if d.concealed)

    def data(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "file": self.path,
            "kind": "log" if self.is_log else "save",
            "pieces_at_start": len(self.replay.opening),
            "pieces_at_end": len(self.replay.final),
        }
        if self.is_log:
            out["steps"] = [
                {
                    "number": s.number,
                    "command": s.command,
                    "undo": s.undo,
                    "undoes": s.undoes,
                    "undone_in": s.undone_in,
                    "events": [{"kind": _KIND[type(e)], **asdict(e)} for e in s.events],
                }
                for s in self.replay.steps
                if s.events
            ]
            out["counts"] = self.counts()
            out["problems"] = list(self.replay.problems)
        if self.changes is not None:
            out["changes"] = [{"kind": d.kind, **asdict(d)} for d in self.changes]
        return out

    def lines(self, st: Style, verbose: bool) -> tuple[list[str], int]:
        """The file's part of the step-by-step listing, and the number of events hidden."""
        rp, hidden = self.replay, 0
        head = (
            f"log {self.path}: {len(rp.steps)} step(s) from a position of {len(rp.opening)} piece(s)"
            if self.is_log
            else f"save {self.path}: {len(rp.final)} piece(s)"
        )
        out = [st.heading(st.esc(head))]
        if self.is_log:
            rolls = {r.command: r for r in self.rolls}
            for s in rp.steps:
                events, n = visible_events(s, verbose)
                hidden += n
                if not events:
                    continue
                undo = f", undo of step {s.undoes}" if s.undoes else ", an undo" if s.undo else ""
                undo += f", undone in step {s.undone_in}" if s.undone_in is not None else ""
                out += ["", st.subheading(f"step {s.number}{undo} (command {s.command})")]
                out += [st.item(st.esc(self.line(e, s, rolls))) for e in events]
            out += ["", st.strong("summary:") + " " + summary_line(self.counts())]
            out += [st.item("note: " + st.esc(p)) for p in rp.problems]
        if self.changes is not None:
            out += ["", f"changes since the previous file: {len(self.changes)} piece(s)"]
            out += [st.item(st.esc(diff_line(d))) for d in self.changes]
        return out, hidden
