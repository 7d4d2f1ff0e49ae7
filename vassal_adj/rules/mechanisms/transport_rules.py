"""The log rule ``transport.modes`` (RULES-MAP N25): each move with no land path in a segment fits
one of the pack's transport modes (transport.py), the units of one segment use one mode as one
action, and the AP the side paid for it is the mode's cost.

A unit's trip runs from where it stood as the segment began to where it stands at its end; it is
judged when a drag of it has no land path and every box it touches is of a kind in `boxes` (the
Staging Areas): entries from a Reinforcement Display, losses and returns are other rules' (the
reinforcement and withdrawal rules). Seed 004: 14.1 "By expending one AP, up to three mobile ground
units may be moved in a single Naval Transfer"; 14.1.2 "Allies: Staging Area and all friendly
functional ports ... Axis: Staging Area and all friendly functional ports" (a port without a friendly
Garrison is not functional, 7.3); 14.1.3 evacuation, 18.2/18.3 invasion, 19 drop, 21.4 air transport,
26.3 the Axis Staging Area reached by ground from the north edge.

Pure: a `segments.Segment` in, findings out.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from vassal_adj.model.state import Position
from vassal_adj.rules.engine import RuleContext
from vassal_adj.rules.mechanisms.ap_paid import ap_changes, paid_findings, payment
from vassal_adj.rules.mechanisms.transport import MODE, Mode, carried, land_parts, mode_of, no_land_path
from vassal_adj.rules.param_shape import Each
from vassal_adj.rules.registry import REQUIRED, Param, register
from vassal_adj.rules.results import Finding, Severity
from vassal_adj.rules.segment_movers import field_value
from vassal_adj.rules.segments import Segment
from vassal_adj.rules.select import selector_at

__all__ = ["Trips", "transport_modes", "trips_of"]


@dataclass(frozen=True)
class Trips:
    """A segment's moves sorted out: each trip with no land path (unit -> origin, destination, and
    whether it also moved by land), the units that moved by land only, and the carriers that moved."""

    trips: Mapping[str, tuple[Position, Position, bool]]
    land: tuple[str, ...]
    carriers: tuple[str, ...]


def trips_of(segment: Segment, ctx: RuleContext, p: Mapping[str, Any], carrier: Sequence[Any] = ()) -> Trips:
    """The trips of `segment` as the parameters `boxes`, `sea_terrain`, `closed_sides` and `units` say."""
    parts = land_parts(ctx.terrain, p["sea_terrain"], tuple(p["closed_sides"]))
    units = selector_at(p["units"], "units")
    trips, land, carriers = {}, [], []
    for uid, drags in segment.moves.items():
        unit = segment.start.units.get(uid)
        if unit is None or not drags:
            continue
        if any(c.matches(unit) for c in carrier):
            carriers.append(uid)
            continue
        if not units.matches(unit):
            continue
        if not carried(drags, parts, frozenset(p["boxes"])):
            if all(a.hex is not None and b.hex is not None for a, b in drags):
                land.append(uid)
            continue
        jumps = [i for i, (a, b) in enumerate(drags) if no_land_path(a, b, parts)]
        # The trip is from the first drag with no land path to the last: 26.3 goes on by land after it.
        origin, dest = drags[jumps[0]][0], drags[jumps[-1]][1]
        if (origin.hex, origin.box) != (dest.hex, dest.box):  # back where it began (18.4 e): no trip
            trips[uid] = (origin, dest, len(jumps) < len(drags))
    return Trips(trips, tuple(land), tuple(carriers))


def _where(pos: Position, ctx: RuleContext) -> str:
    return pos.box or (ctx.label(pos.hex) if pos.hex is not None else "?")


def _problems(mode: Mode, t: Trips, segment: Segment, ctx: RuleContext) -> list[str]:
    """What the segment's trips break of `mode`'s limits on the action as a whole."""
    units, out = segment.start.units, []
    by_dest: dict[str, list[str]] = {}
    for uid, (_, dest, _) in t.trips.items():
        by_dest.setdefault(_where(dest, ctx), []).append(units[uid].name)
    count = len(t.trips) if mode.carrier is None else max(len(v) for v in by_dest.values())
    if mode.max_units and count > mode.max_units:
        each = " to one hex" if mode.carrier is not None else ""
        out.append(f"{count} units{each} ({', '.join(units[u].name for u in t.trips)}), at most {mode.max_units}")
    origins = {_where(o, ctx) for o, _, _ in t.trips.values()}
    if mode.one_origin and len(origins) > 1:
        out.append(f"units from {len(origins)} places ({', '.join(sorted(origins))}), all must start in one")
    if mode.one_destination and len(by_dest) > 1:
        out.append(f"units to {len(by_dest)} places ({', '.join(sorted(by_dest))}), all must go to one")
    values = {field_value(units[u], mode.one_contingent) for u in t.trips} if mode.one_contingent else set()
    if len(values) > 1:
        out.append(f"units of {len(values)} {mode.one_contingent} values ({', '.join(sorted(values))}), one only")
    if mode.exclusive and not mode.ground:
        also = sorted(units[u].name for u, (_, _, by_land) in t.trips.items() if by_land) + sorted(
            units[u].name for u in t.land
        )
        if also:
            out.append(f"other movement in the same segment ({', '.join(also)})")
    if mode.carrier is not None:
        moved = [u for u in t.carriers if mode.carrier.matches(units[u])]
        if len(moved) < len(by_dest):
            out.append(f"{len(by_dest)} destination(s) with {len(moved)} {mode.carrier.words()} moved, one each")
    return out


@register(
    "transport.modes",
    log=True,
    params={
        "modes": Param(
            REQUIRED,
            "list",
            "the transport modes (tables: name, cost, sides, units, carrier, from, to, ...)",
            shape=Each(MODE),
        ),
        "units": Param({}, "selector", "the units whose moves with no land path are judged ({}: all)"),
        "boxes": Param(
            ("staging",), "list[str]", "box kinds a transport leaves from or reaches (others: not transport)"
        ),
        "sea_terrain": Param("sea", "str", "the terrain type of sea hexes"),
        "closed_sides": Param((), "list[str]", "hexside features no land path crosses", names="features"),
        "tracks": Param(
            {}, "table", "track -> side: the AP tracks a mode's cost is paid from ({}: not judged)", shape=Each("str")
        ),
        "cost_ref": Param("6.1", "str", "the rule cited for the AP a mode costs"),
    },
)
def transport_modes(segment: Segment, ctx: RuleContext, p: Mapping[str, Any]) -> list[Finding]:
    """Moves with no land path fit a transport mode; one mode an action, its AP cost paid."""
    modes = [Mode.read(m, f"modes[{i}]") for i, m in enumerate(p["modes"])]
    t = trips_of(segment, ctx, p, [m.carrier for m in modes if m.carrier is not None])
    if not t.trips:
        return []
    units, out, fitted = segment.start.units, [], {}
    for uid, (origin, dest, _) in t.trips.items():
        fits, why, ref = mode_of(modes, units[uid], (origin, dest), segment.start, ctx, p["sea_terrain"])
        fitted[uid] = {m.name for m in fits}
        if not fits:
            u, trip = units[uid], f"{_where(origin, ctx)} to {_where(dest, ctx)}"
            message = (
                f"{u.side} {u.name} moved from {trip} with no land path, which fits no transport mode: {why} [{ref}]"
            )
            out.append(Finding(f"{ctx.pack_id}:{ref}", Severity.ERROR, message, (uid,)))
    if out:
        return out
    common = set.intersection(*fitted.values())
    if not common:
        each = "; ".join(f"{units[u].name}: {' or '.join(sorted(v))}" for u, v in fitted.items())
        message = (
            f"units moved by different transport modes in one segment ({each}): one action a segment [{p['cost_ref']}]"
        )
        return [Finding(ctx.cite(), Severity.ERROR, message, tuple(t.trips))]
    candidates = [m for m in modes if m.name in common]
    legal = [m for m in candidates if not _problems(m, t, segment, ctx)]
    if not legal:
        each = "; ".join(
            dict.fromkeys(
                f"the {m.name} [{m.rule_ref}]: {'; '.join(_problems(m, t, segment, ctx))}" for m in candidates
            )
        )
        # why the modes each unit did not fit are out too (14.2.2: a transfer closed by interdiction)
        uid, (origin, dest, _) = next(iter(t.trips.items()))
        others = [m for m in modes if m.name not in common]
        _, why, ref = mode_of(others, units[uid], (origin, dest), segment.start, ctx, p["sea_terrain"])
        if others and not t.carriers and all(m.carrier is not None for m in candidates):
            # no carrier moved (18.2's Amphib): the trip was none of the carried modes, and what
            # the others lacked is the fault (14.1.2: a transfer to a port without a Garrison)
            names = " or ".join(dict.fromkeys(m.name for m in candidates))
            message = f"{each} [{candidates[0].rule_ref}]; as no carrier moved, not the {names}: {why} [{ref}]"
            return [Finding(f"{ctx.pack_id}:{ref}", Severity.ERROR, message, tuple(t.trips))]
        rest = f"; no other mode: {why} [{ref}]" if others else ""
        cite = f"{ctx.pack_id}:{candidates[0].rule_ref}"
        return [Finding(cite, Severity.ERROR, f"{each} [{candidates[0].rule_ref}]{rest}", tuple(t.trips))]
    side = units[next(iter(t.trips))].side
    paid = payment(ap_changes(segment, p["tracks"]), side) if p["tracks"] else None
    what = " or ".join(m.name for m in legal)
    if paid is None:
        if p["tracks"] and segment.ledger:
            costs = " or ".join(sorted({str(m.cost) for m in legal}))
            message = f"no {side} AP paid in the segment, the {what} costs {costs} [{p['cost_ref']}]"
            return [Finding(f"{ctx.pack_id}:{p['cost_ref']}", Severity.ERROR, message, tuple(t.trips))]
        return []
    return paid_findings(paid, what, {m.cost for m in legal}, f"{ctx.pack_id}:{p['cost_ref']}", p["cost_ref"])
