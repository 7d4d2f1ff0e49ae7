"""The log rule ``track.ledger`` (RULES-MAP N19): the AP a side's track gains and pays, segment by segment.

Gains, in the `gain_phases` (seed 004 5.2.1, the Command phase's Action Point Segment): each side's
marker goes up by "1d6 and then add to the result: a) Six for the Allied Staging Area [Two for the
Axis], plus b) One per Objective hex occupied by a friendly Garrison unit, plus c) Any AP from the
Events Table", the total capped at the track's maximum (5.2). The die is the roll made since the
track's previous change (ap_paid.py); `gain_constant` gives a), `gain_places` and `gain_holding` b).
A gain that differs from the formula by what the side's events could give (`gain_events`, c) is
not judged and says so; any other is an error quoting the sum. `no_constant` names the scenario and
turn that leave a) out (27.2 "Do not include the AP for the Staging Area ... on GT 3").

Costs, in the `action_phases` (6.1 "the appropriate number of AP are expended as shown on the
Action Points Expenditure Table"): the kind of action a segment holds is read from the moves of
the side that paid: units entering from an `entry_boxes` box are `entry_kinds` (first whose
selector picks them all, else `entry_kind`), units moving by land only are `move_kind`. The AP it
paid (its last drag down) is judged against `costs` of that kind (ap_paid.paid_findings). A
segment with a move with no land path is the transport rule's (transport_rules.py, same
`units`, `boxes`, `sea_terrain`, `closed_sides`); a segment with no move (an attack, a regroup,
a bombardment) shows not which action it was: not judged.

Pure: a `segments.Segment` in, findings out.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from itertools import combinations
from typing import Any

from vassal_adj.rules.engine import RuleContext
from vassal_adj.rules.mechanisms.ap_paid import APChange, ap_changes, paid_findings, payment
from vassal_adj.rules.mechanisms.transport_rules import trips_of
from vassal_adj.rules.param_shape import Each, Table
from vassal_adj.rules.registry import REQUIRED, Param, register
from vassal_adj.rules.results import Finding, Severity
from vassal_adj.rules.segments import Segment
from vassal_adj.rules.select import selector_at

__all__ = ["track_ledger"]


def _kind(segment: Segment, ctx: RuleContext, p: Mapping[str, Any], side: str) -> str:
    """The kind of action the moves of `side` in the segment show ("" when they show none)."""
    t = trips_of(segment, ctx, p)
    units = segment.start.units
    mine = [u for u, d in segment.moves.items() if u in units and units[u].side == side and d]
    if any(units[u].side == side for u in t.trips):
        return ""
    entered = [u for u in mine if (n := segment.moves[u][0][0].named) is not None and n.kind in p["entry_boxes"]]
    if entered:
        for entry in p["entry_kinds"]:
            pick = selector_at(entry.get("units", {}), "entry_kinds.units")
            if all(pick.matches(units[u]) for u in entered):
                return str(entry["kind"])
        return str(p["entry_kind"])
    return str(p["move_kind"]) if any(u in t.land for u in mine) else ""


def _sums(amounts: Sequence[int]) -> set[int]:
    """What any set of the events' amounts adds up to (each event once a game, 28.0)."""
    return {sum(c) for n in range(1, len(amounts) + 1) for c in combinations(amounts, n)}


def _gain(segment: Segment, ctx: RuleContext, p: Mapping[str, Any], changes: list[APChange]) -> list[Finding]:
    """Findings on one side's gain in an AP segment (5.2.1)."""
    first, last = changes[0], changes[-1]
    side, ref, cite = first.side, p["gain_ref"], f"{ctx.pack_id}:{p['gain_ref']}"
    if first.before is None or last.after is None:
        return []
    if first.die is None:
        why = f"no die roll before the {side} AP marker moved: the {side} gain is not judged [{ref}]"
        return [Finding(cite, Severity.WARNING, why)]
    scenario = ctx.scenario.id if ctx.scenario else None
    skip = any(n.get("scenario") == scenario and n.get("turn") == segment.turn for n in p["no_constant"])
    constant = 0 if skip else int(p["gain_constant"].get(side, 0))
    held = []
    if p["gain_places"]:
        holding = selector_at(p["gain_holding"], "gain_holding")
        for h in ctx.hexes([p["gain_places"]]):
            if any(u.side == side and holding.matches(u) for u in segment.start.units_at(h)):
                held.append(ctx.label(h))
    total = first.die + constant + len(held)
    track = segment.end.tracks.get(first.track)
    top = track.max if track is not None and track.max is not None else None
    expected = min(first.before + total, top) if top is not None else first.before + total
    if last.after == expected:
        return []
    parts = f"1d6 {first.die} + {constant} + {len(held)} Objective hex(es) held ({', '.join(held) or 'none'}) = {total}"
    capped = f", capped at {top}" if top is not None and first.before + total > top else ""
    went = f"the {side} AP went from {first.before} to {last.after}: {parts}, to {expected}{capped}"
    diff = last.after - expected
    if diff in _sums([int(a) for a in p["gain_events"].get(side, ())]):
        why = f"{went}; the {diff:+d} an event could give (5.2.1 c): not judged [{ref}]"
        return [Finding(cite, Severity.INFO, why)]
    return [Finding(cite, Severity.ERROR, f"{went} [{ref}]")]


@register(
    "track.ledger",
    log=True,
    params={
        "tracks": Param(REQUIRED, "table", "track -> side: the AP tracks of the sides", shape=Each("str")),
        "costs": Param(REQUIRED, "table", "action kind -> AP it costs (move, reinforcement, ...)", shape=Each("int")),
        "action_phases": Param(("action",), "list[str]", "phase ids in which actions pay AP"),
        "entry_boxes": Param(("reinforcement",), "list[str]", "box kinds reinforcements enter from"),
        "entry_kinds": Param(
            (),
            "list",
            "[{ kind, units = selector }]: an entry of units all picked is that kind",
            shape=Each(Table({"kind": "str", "units": "selector"}, required=("kind",))),
        ),
        "entry_kind": Param("reinforcement", "str", "the kind of any other entry"),
        "move_kind": Param("move", "str", "the kind of a segment of land moves"),
        "units": Param({}, "selector", "the units whose moves with no land path are transport ({}: all)"),
        "boxes": Param(("staging",), "list[str]", "box kinds a transport leaves from or reaches"),
        "sea_terrain": Param("sea", "str", "the terrain type of sea hexes"),
        "closed_sides": Param((), "list[str]", "hexside features no land path crosses", names="features"),
        "gain_phases": Param((), "list[str]", "phase ids in which the tracks gain by the formula"),
        "gain_constant": Param({}, "table", "side -> AP added to the die", shape=Each("int")),
        "gain_places": Param("", "str", "hexes (any hex spec) each worth 1 AP when holding a friendly unit"),
        "gain_holding": Param({}, "selector", "the friendly unit a gain place must hold"),
        "gain_events": Param({}, "table", "side -> the AP its events may add or deduct", shape=Each(Each("int"))),
        "no_constant": Param(
            (),
            "list",
            "[{ scenario, turn }]: the constant is not added then",
            shape=Each(Table({"scenario": "str", "turn": "int"}, required=("scenario", "turn"))),
        ),
        "cost_ref": Param("6.1", "str", "the rule cited for an action's cost"),
        "gain_ref": Param("5.2.1", "str", "the rule cited for a gain"),
    },
)
def track_ledger(segment: Segment, ctx: RuleContext, p: Mapping[str, Any]) -> list[Finding]:
    """The AP each segment pays for its action, and each side's gain by the formula (5.2.1, 6.1)."""
    changes = ap_changes(segment, p["tracks"])
    if segment.phase in p["gain_phases"]:
        out = []
        for side in dict.fromkeys(c.side for c in changes):
            out += _gain(segment, ctx, p, [c for c in changes if c.side == side])
        return out
    # The side that opened the segment pays (a Bombardment's AP loss, 21.2.2, is the defender's).
    paid = payment(changes, segment.opened.side) if segment.phase in p["action_phases"] else None
    if paid is None:
        return []
    kind = _kind(segment, ctx, p, paid.side)
    if not kind or kind not in p["costs"]:
        return []
    return paid_findings(paid, kind, {int(p["costs"][kind])}, f"{ctx.pack_id}:{p['cost_ref']}", p["cost_ref"])
