"""The log rule ``log.one_source``: the units that move together in one action all trace a line of
communication to one supply source, or one unit out of supply moves alone (N23 with N10).

seed 004 12.5: "all mobile ground units of a single contingent which can trace a LOC to a single
supply source may conduct a Movement Action by expending one AP. If an LOC cannot be traced, only
one unit from a Contingent may conduct a Movement Action (13.1)"; 13.1: "one mobile ground unit
which is Out of Supply or all mobile ground units of one contingent which can trace a LOC to a
Supply Source may move". The single contingent is ``log.segments`` `one_contingent`.

Each segment of a kind in `kinds` is judged on the position it began with: the side's ``supply.loc``
rule (`supply`: side -> the pack's rule name) gives each unit that moved (`units` picks which
count: mobile ground units) the sources it reaches (`LocStatus.reachable`). A unit out of supply
that moved with others is an error; units in supply that share no source are an error naming what
each reaches. A unit always in supply (a Staging Area, with a Garrison: `always_supplied`) reaches
no named source: it is left out of the comparison. A unit that began off the map in no such box (a
deployment from the Reinforcement Display, 7.4: "does not need to trace a LOC") is not judged, and
one without a LOC length in the files is a warning, not judged.

`restored = "<flag>"`: the units of the side that carried that flag as the segment began and not at
its end (a reduced counter flipped back) take part in the action as the movers do, and share
`one_contingent` (seed 004 8.2.1: "All reduced mobile ground units of a single contingent currently
on the map ... which can trace a LOC to one supply source (12.4) are restored to full-strength, or:
All reduced mobile ground units of a single contingent currently in the Staging Area"; the Staging
Area's units are always in supply, so left out of the comparison, as above).

Pure: a `Segment` and the pack's rules (`RuleContext.peers`) in, findings out.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from vassal_adj.model.units import Unit
from vassal_adj.rules.engine import RuleContext
from vassal_adj.rules.mechanisms.supply_loc_rules import loc_check
from vassal_adj.rules.param_shape import Each
from vassal_adj.rules.registry import REQUIRED, Param, register
from vassal_adj.rules.results import Finding, Severity
from vassal_adj.rules.segment_movers import field_value
from vassal_adj.rules.segments import Segment
from vassal_adj.rules.select import selector_at

__all__ = ["one_source"]


@register(
    "log.one_source",
    log=True,
    params={
        "supply": Param(
            REQUIRED, "table", "side -> the name of the pack's supply.loc rule for it (12.2-12.4)", shape=Each("str")
        ),
        "units": Param({}, "selector", "the units that moved that count (12.5: mobile ground units)"),
        "kinds": Param(("action",), "list[str]", "the segment kinds judged (log.segments openers)"),
        "restored": Param("", "str", "a flag units lose in the action: they take part as movers (8.2.1 regroup)"),
        "one_contingent": Param("", "str", "the field the restored units share ('': any mix)"),
    },
)
def one_source(segment: Segment, ctx: RuleContext, p: Mapping[str, Any]) -> list[Finding]:
    """Whether the units of one action trace a LOC to one source, or one unit out of supply moved alone (12.5, 13.1)."""
    side = segment.opened.side
    if segment.opened.kind not in p["kinds"] or not side or side not in p["supply"]:
        return []
    name = p["supply"][side]
    peer = ctx.peers.get(name)
    if peer is None or peer.impl != "supply.loc":
        raise ValueError(f"supply.{side}: {name!r} is not a supply.loc rule of the pack")
    pick = selector_at(p["units"], "units")
    start = segment.start
    restored = [
        uid
        for uid, u in start.units.items()
        if p["restored"]
        and u.side == side
        and u.has(p["restored"])
        and (e := segment.end.units.get(uid)) is not None
        and not e.has(p["restored"])
    ]
    moved = [
        u
        for uid in dict.fromkeys([*segment.moves, *restored])
        if (u := start.units.get(uid)) is not None
        and u.side == side
        and pick.matches(u, start.positions[uid].box if uid in start.positions else None, start.units)
    ]
    ref = ctx.rule.rule_ref if ctx.rule else ""
    found = _one_contingent([start.units[uid] for uid in restored], p["one_contingent"], segment, ctx.cite(), ref)
    if len(moved) < 2:
        return found
    chk = loc_check(start, replace(ctx, rule=peer), peer.params)
    cite = ctx.cite()
    judged = [u for u in moved if u.id in chk.statuses]
    out_ = [u for u in judged if not chk.statuses[u.id].supplied]
    if out_:
        u = out_[0]
        others = ", ".join(o.name for o in moved if o is not u)
        found.append(
            Finding(
                cite,
                Severity.ERROR,
                f"{side} {u.name}, out of supply as the {segment.opened.words} began, moved with {others}: "
                f"a unit that cannot trace a LOC moves alone, one unit a Movement Action (13.1) [{ref}]",
                tuple(o.id for o in moved),
            )
        )
    fed = [u for u in judged if chk.statuses[u.id].supplied]
    common = set.intersection(*(set(chk.statuses[u.id].reachable) for u in fed)) if fed else set()
    if len(fed) >= 2 and not common:
        each = "; ".join(f"{u.name}: {', '.join(chk.statuses[u.id].reachable)}" for u in fed)
        found.append(
            Finding(
                cite,
                Severity.ERROR,
                f"the {side} units that moved in the {segment.opened.words} trace a LOC to no single supply "
                f"source ({each}): they move together only from one source [{ref}]",
                tuple(u.id for u in fed),
            )
        )
    if unknown := [u for u in moved if u.id in chk.unjudged]:
        found.append(
            Finding(
                cite,
                Severity.WARNING,
                f"{', '.join(u.name for u in unknown)} moved in the {segment.opened.words} with no LOC length in "
                f"the files: whether the units trace a LOC to one source is not judged [{ref}]",
                tuple(u.id for u in unknown),
            )
        )
    return found


def _one_contingent(units: list[Unit], field: str, segment: Segment, cite: str, ref: str) -> list[Finding]:
    """An error when the units restored in the segment are not all of one value of `field`."""
    by: dict[str, list[Unit]] = {}
    for u in units if field else ():
        by.setdefault(field_value(u, field) or f"no {field} known", []).append(u)
    if len(by) < 2:
        return []
    groups = "; ".join(f"{value}: {', '.join(u.name for u in us)}" for value, us in by.items())
    message = (
        f"units of {len(by)} {field} values restored in the {segment.opened.words} ({groups}): "
        f"the units restored in one action are of one {field} [{ref}]"
    )
    return [Finding(cite, Severity.ERROR, message, tuple(u.id for u in units))]
