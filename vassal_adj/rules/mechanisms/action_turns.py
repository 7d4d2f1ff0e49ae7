"""The log rule ``log.action_turns``: who takes each action segment of a phase of alternating
actions (N23; the segments are cut by ``log.segments`` with `by = { tracks = ..., pass = ... }`).

seed 004 6.1: "During each friendly Action Segment, the side holding the Initiative declares if it
will take an Action or Pass"; "Play continues with sides alternating segments until either both
sides consecutively pass or expend all AP"; "If both sides pass sequentially, the phase ends";
"Only one Action may be taken during an Action Segment". 5.3: "The Allies have the Initiative on
all GTs unless the Axis roll the OB SudWest Event", "Initiative determines which side begins the
Action Phase".

Judged on each ``action`` or ``pass`` segment as it closes, with the phase's earlier segments:

- the first one is the initiative side's: the value of the [state] global `initiative_global`
  when the module shows one, else the scenario's `first_player`, else not judged. What may hand
  the initiative to the other side and is not read (`may_change`, 5.3's OB SudWest event) makes a
  first segment of the other side a warning, not judged, instead of an error;
- the sides alternate: a side's segment right after its own is an error, unless the other side
  has no points left on its track (`tracks`: it cannot act, 6.1 "until ... expend all AP"); when
  the first of the two spent points but moved no unit, or only units `interrupt_units` picks, it
  may be no action at all (`interrupt_words`: 21.3.1 "Conducting an Interception does not count as
  the next action", 21.2.2 a Bombardment's "defender loses one AP"): a warning, not judged;
- after two passes in a row by both sides the phase is over: a segment after them is an error.

A phase left because both sides spent all their points is not judged here (the points' ledger is).
Pure: a `Segment` in, findings out.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from vassal_adj.model.units import Unit
from vassal_adj.rules.engine import RuleContext
from vassal_adj.rules.param_shape import Each
from vassal_adj.rules.registry import Param, register
from vassal_adj.rules.results import Finding, Severity
from vassal_adj.rules.segments import Opened, Segment
from vassal_adj.rules.select import selector_at

__all__ = ["action_turns"]

_KINDS = ("action", "pass")


def _at(o: Opened) -> str:
    return f"log step {o.at}" if o.at is not None else "a log step"


def _what(o: Opened) -> str:
    if o.kind == "pass":
        return f"{o.side} passed ({_at(o)})"
    return f"{o.side} spent {o.values.get('before', '?')} -> {o.values.get('after', '?')} ({_at(o)})"


def _initiative(segment: Segment, ctx: RuleContext, p: Mapping[str, Any]) -> tuple[str, str]:
    """The side holding the initiative and where it was read ("" when nothing tells)."""
    name = p["initiative_global"]
    if name and segment.start.globals.get(name):
        return segment.start.globals[name], f"the global {name!r}"
    if ctx.scenario is not None and ctx.scenario.first_player:
        return ctx.scenario.first_player, f"{ctx.scenario.name}'s first player"
    return "", ""


def _no_points(segment: Segment, side: str, tracks: Mapping[str, str]) -> bool:
    """Whether `side`'s track shows no points left as the segment begins."""
    return any(
        s == side and (t := segment.start.tracks.get(name)) is not None and t.value == 0 for name, s in tracks.items()
    )


def _first(segment: Segment, ctx: RuleContext, p: Mapping[str, Any], ref: str) -> list[Finding]:
    cur = segment.opened
    side, where = _initiative(segment, ctx, p)
    if not side or cur.side == side:
        return []
    said = f"the first segment of the phase is {_what(cur)}, but {side} holds the initiative ({where})"
    if p["may_change"] and where != f"the global {p['initiative_global']!r}":
        msg = f"{said}, unless {p['may_change']} gave it to {cur.side}, which is not read: not judged [{ref}]"
        return [Finding(ctx.cite(), Severity.WARNING, msg)]
    return [Finding(ctx.cite(), Severity.ERROR, f"{said}: the side holding the initiative begins [{ref}]")]


def _again(
    segment: Segment, prev: tuple[Opened, tuple[Unit, ...]], ctx: RuleContext, p: Mapping[str, Any], ref: str
) -> list[Finding]:
    """A side's segment right after its own."""
    cur, (before, moved) = segment.opened, prev
    side = cur.side or ""
    if any(s != side and _no_points(segment, s, p["tracks"]) for s in set(p["tracks"].values())):
        return []  # the other side has nothing to spend: it cannot act (6.1)
    said = f"{_what(cur)} right after {_what(before)}"
    own = [u for u in moved if u.side == side]
    pick = selector_at(p["interrupt_units"], "interrupt_units") if p["interrupt_units"] else None
    if before.kind == "action" and p["interrupt_words"] and (pick is None or all(pick.matches(u) for u in own)):
        msg = (
            f"{said}, no ground action of {side}'s between: the first spending may be {p['interrupt_words']}, "
            f"which is no action; the log does not tell: not judged [{ref}]"
        )
        return [Finding(ctx.cite(), Severity.WARNING, msg)]
    return [
        Finding(
            ctx.cite(),
            Severity.ERROR,
            f"{said}: the sides alternate segments, one action a segment [{ref}]",
            tuple(u.id for u in own),
        )
    ]


@register(
    "log.action_turns",
    log=True,
    params={
        "initiative_global": Param(
            "", "str", "a [state] global naming the side holding the initiative ('': the scenario's first_player)"
        ),
        "may_change": Param(
            "", "str", "words for what may give the initiative to the other side and is not read (5.3 OB SudWest)"
        ),
        "tracks": Param(
            {}, "table", "the points track of each side: track name -> side (6.1 'expend all AP')", shape=Each("str")
        ),
        "interrupt_units": Param(
            {}, "selector", "units whose moves alone leave a spending possibly no action ({}: no units moved)"
        ),
        "interrupt_words": Param(
            "", "str", "what spends points outside an action (21.3.1 Interception); '': every spending is one"
        ),
    },
)
def action_turns(segment: Segment, ctx: RuleContext, p: Mapping[str, Any]) -> list[Finding]:
    """Whose turn each action or pass segment of a phase is (6.1, 5.3)."""
    if segment.opened.kind not in _KINDS:
        return []
    ref = ctx.rule.rule_ref if ctx.rule else ""
    seq: Sequence[tuple[Opened, tuple[Unit, ...]]] = [e for e in segment.earlier if e[0].kind in _KINDS]
    if not seq:
        return _first(segment, ctx, p, ref)
    cur = segment.opened
    if len(seq) >= 2 and all(o.kind == "pass" for o, _ in seq[-2:]) and seq[-2][0].side != seq[-1][0].side:
        a, b = seq[-2][0], seq[-1][0]
        msg = f"{_what(cur)} after {_what(a)} and {_what(b)}: both sides passed in a row, the phase has ended [{ref}]"
        return [Finding(ctx.cite(), Severity.ERROR, msg)]
    if seq[-1][0].side == cur.side:
        return _again(segment, seq[-1], ctx, p, ref)
    return []
