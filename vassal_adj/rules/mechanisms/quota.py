"""How many units of a kind a side may have (RULES-MAP N19, `marker.quota`): the log rule
``units.quota``, run on each segment of a log as it closes.

`units` (a unit selector; it may ask the position: ``formation_has``) picks the units counted,
per side, on the map at the segment's end: all of them (``count = "all"``), or those that came
to be picked during the segment (``count = "new"``: not picked, or not on the map, as it
began). `limits` gives each side's most, by scenario id, ``"*"`` for any scenario:

- seed 001 10 and the campaign tables: "the active player could choose a certain number of EM,
  the number given for each campaign, three maximum - to be sustained" (Campaign I: Axis 3,
  Allies 1; Campaign II: Allies 3, Axis 2): ``units = { kinds = ["em"], flags = ["sustained"] }``,
  ``limits = { campaign-1 = { Axis = 3, Allied = 1 }, campaign-2 = { Allied = 3, Axis = 2 } }``;
- seed 004 25.2: "A Fortification build is declared, one AP is expended, and one fortification
  marker is placed", and 6.1 "Only one Action may be taken during an Action Segment": at most
  one new Fortification a side in an Action segment, ``count = "new"``, ``limits = { "*" = {
  Allied = 1, Axis = 1 } }``.

A side the scenario's limits do not name is not limited; a game whose scenario is not known,
when the limits differ by scenario, is not judged (a warning says so).

Pure: a `segments.Segment` in, findings out.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from vassal_adj.rules.engine import RuleContext
from vassal_adj.rules.param_shape import Each
from vassal_adj.rules.registry import REQUIRED, Param, register
from vassal_adj.rules.results import Finding, Severity
from vassal_adj.rules.segments import Segment
from vassal_adj.rules.select import selector_at

__all__ = ["units_quota"]

COUNTS = ("all", "new")


def _limits(p: Mapping[str, Any], scenario: str | None) -> Mapping[str, int] | None:
    """The sides' limits for `scenario` (None: not known, and they differ by scenario)."""
    table = p["limits"]
    if scenario is not None and scenario in table:
        return table[scenario]
    if "*" in table and (scenario is not None or len(table) == 1):
        return table["*"]
    return None if scenario is None else {}


@register(
    "units.quota",
    log=True,
    params={
        "units": Param(REQUIRED, "selector", "the units counted, per side (formation_has may be used)"),
        "limits": Param(
            REQUIRED,
            "table",
            "scenario id or '*' -> { side = the most units it may have }",
            shape=Each(Each("int")),
        ),
        "count": Param(
            "all",
            "str",
            "'all': the units picked at the segment's end; 'new': those picked during it",
        ),
    },
)
def units_quota(segment: Segment, ctx: RuleContext, p: Mapping[str, Any]) -> list[Finding]:
    """At most so many units of a kind a side, by scenario (seed 001 10's sustained EMs)."""
    if p["count"] not in COUNTS:
        raise ValueError(f"count: expected one of {', '.join(COUNTS)}, got {p['count']!r}")
    pick = selector_at(p["units"], "units", position=True)
    ref = ctx.rule.rule_ref if ctx.rule else ""
    scenario = ctx.scenario.id if ctx.scenario else None
    limits = _limits(p, scenario)
    start, end = segment.start, segment.end
    picked = [u for uid, u in end.units.items() if end.hex_of(uid) is not None and pick.matches(u, units=end.units)]
    if p["count"] == "new":
        before = {
            uid
            for uid, u in start.units.items()
            if start.hex_of(uid) is not None and pick.matches(u, units=start.units)
        }
        picked = [u for u in picked if u.id not in before]
    if limits is None:
        if not picked:
            return []
        return [
            Finding(
                ctx.cite(),
                Severity.WARNING,
                f"the scenario is not known and the most {pick.words()} a side may have depends on it: "
                f"not judged [{ref}]",
                tuple(u.id for u in picked),
            )
        ]
    out = []
    for side, most in limits.items():
        mine = [u for u in picked if u.side == side]
        if len(mine) > most:
            new = " new" if p["count"] == "new" else ""
            out.append(
                Finding(
                    ctx.cite(),
                    Severity.ERROR,
                    f"{side} has {len(mine)}{new} {pick.words()} ({', '.join(u.name for u in mine)}): "
                    f"at most {most}{' in ' + scenario if scenario else ''} [{ref}]",
                    tuple(u.id for u in mine),
                    tuple(sorted({ctx.label(h) for u in mine if (h := end.hex_of(u.id)) is not None})),
                )
            )
    return out
