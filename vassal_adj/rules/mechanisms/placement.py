"""``placement.near`` (RULES-MAP N11/N12): a unit put back on the map from an off-map box is
placed within n hexes of a unit of its formation, and not at all when none is left.

Seed 001 6.3: "at the end of the indicated turn, the EM is replaced on the map by the player,
within 4 hex of an unit of the division. If all the units of a division are destroyed, the EM is
not replaced." A log shows the placement: a drag of a picked unit from a box onto the map. Its
hex is judged against the units `of` picks, of its side (and of its formation, with ``same =
"formation"``) standing on the map as the segment began or ended (a unit of the division
arriving in the same segment counts). With `returns_only`, only a unit the files show leaving
the map earlier is judged: one entering for the first time is a reinforcement (its own rule),
and one whose departure the files do not show cannot be told from it ("not judged", INFO).
A save alone shows no placement: this is a log rule.

Pure: a `segments.Segment` in, findings out.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from vassal_adj.model.geometry.hexes import Hex, distance
from vassal_adj.model.state import GameState
from vassal_adj.model.units import Unit
from vassal_adj.rules.engine import RuleContext
from vassal_adj.rules.registry import REQUIRED, Param, register
from vassal_adj.rules.results import Finding, Severity
from vassal_adj.rules.segments import Segment
from vassal_adj.rules.select import Selector, selector_at

__all__ = ["placed_near"]


def _nearest(state: GameState, unit: Unit, at: Hex, of: Selector, same: bool) -> tuple[int, str] | None:
    """The distance from `at` to the nearest unit `of` picks, of `unit`'s side (and formation), and its id."""
    found = [
        (distance(at, h), v)
        for v, other in state.units.items()
        if v != unit.id
        and other.side == unit.side
        and (not same or other.formation == unit.formation)
        and of.matches(other)
        and (h := state.hex_of(v)) is not None
    ]
    return min(found) if found else None


@register(
    "placement.near",
    log=True,
    params={
        "units": Param(REQUIRED, "selector", "the units whose placement from a box onto the map is judged"),
        "within": Param(REQUIRED, "int", "the most hexes from the nearest unit `of` picks"),
        "of": Param({}, "selector", "the units they are placed near (empty: any unit of the side)"),
        "same": Param("formation", "str", "'formation': a unit of its own formation; '': any unit of its side"),
        "returns_only": Param(
            True, "bool", "judge only units the files show leaving the map before (a return, not a first entry)"
        ),
    },
)
def placed_near(segment: Segment, ctx: RuleContext, p: Mapping[str, Any]) -> list[Finding]:
    """A unit put back on the map within n hexes of a unit of its formation (none left: not put back)."""
    if p["same"] not in ("formation", ""):
        raise ValueError(f"same: expected 'formation' or '', got {p['same']!r}")
    pick, of = selector_at(p["units"], "units"), selector_at(p["of"], "of")
    same, within, ref = p["same"] == "formation", p["within"], ctx.rule.rule_ref if ctx.rule else ""
    rule, out = ctx.cite(), []
    for uid, drags in segment.moves.items():
        unit = segment.start.units.get(uid) or segment.end.units.get(uid)
        placed = next((b for a, b in drags if a.hex is None and a.box and b.hex is not None), None)
        if unit is None or placed is None or placed.hex is None or not pick.matches(unit):
            continue
        where = placed.label or ctx.label(placed.hex)
        what = f"{unit.side} {unit.name} placed in {where} from box {drags[0][0].box!r}"
        if p["returns_only"] and not any(d.unit == uid for d in segment.start.departures):
            why = "the files do not show it leaving the map, so whether it returns or enters for the first time"
            out.append(
                Finding(rule, Severity.INFO, f"{what}: not judged: {why} is not known [{ref}]", (uid,), (where,))
            )
            continue
        if same and not unit.formation:
            msg = f"{what}: not judged: it has no formation in the pack [{ref}]"
            out.append(Finding(rule, Severity.INFO, msg, (uid,), (where,)))
            continue
        near = [n for s in (segment.start, segment.end) if (n := _nearest(s, unit, placed.hex, of, same)) is not None]
        whose = f"a unit of {unit.formation}" if same else f"a unit of the {unit.side}"
        if not near:
            msg = f"{what}, but no {whose[2:]} is on the map: it is not replaced [{ref}]"
            out.append(Finding(rule, Severity.ERROR, msg, (uid,), (where,)))
        elif min(near)[0] > within:
            d, v = min(near)
            there = segment.end.positions.get(v) or segment.start.positions.get(v)
            spot = (there.label if there else None) or "?"
            msg = f"{what}, {d} hexes from the nearest {whose[2:]} ({spot}): it goes within {within} [{ref}]"
            out.append(Finding(rule, Severity.ERROR, msg, (uid, v), (where, spot)))
    return out
