"""A unit's move in one phase as the chain of its drops: `judge_legs(legs, mover)`.

A log records where each drag started and where it was dropped, never the hexes between, and
every drop is a place the unit stood. So each drag is a leg judged from where the unit stood:
it needs a legal path (`movement.legal_path`: terrain 16.11/16.12, weather 20.2/20.3, zones of
control 19.2/19.21), the legs share one allowance (their costs add up, and a leg that comes
back to where it started still costs what it moved), and the rules that hold within one path
hold across drops:

- a drop in an enemy zone of control the unit entered this phase is a stop. The search never
  lets a path go on from such a hex, Withdrawal or not (19.2: "In all other respects, the
  effects of Enemy Zones of Control fully apply"), so no later leg may leave it either;
- a leg that starts where the unit began the phase starts in that zone as the search knows it
  (`start_in_z`): sticky zones of control hold it unless its side withdraws (19.2);
- a withdrawing unit that has left an enemy-controlled hex may not enter one in a later leg
  (19.21), as the search forbids within one leg.

Where a unit's piece has a Movement Trail, its trail shows the hexes it went through
(parse/trail.py): `trail_legs` makes them one-hex legs, judged the same way, each step at its
own cost (not the cheapest way between two drops), so the rule broken is cited at the hex where
the unit broke it. A trail that skips a hex cannot show the way taken: the drops are judged.

Pure: the paths come from the caller's `Mover.path`, which knows the state and the board.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from fractions import Fraction
from itertools import groupby, pairwise

from vassal_adj.model.geometry.hexes import Hex, distance
from vassal_adj.model.state import Position
from vassal_adj.rules.mechanisms.movement_params import MovementRules
from vassal_adj.rules.mechanisms.zoc import Sources, no_sources
from vassal_adj.rules.results import PathResult

__all__ = ["AS_DRAGGED", "CHEAPEST", "Chain", "Mover", "judge_legs", "map_legs", "mp", "trail_legs"]

# Which path a move was judged by, as the reports say it.
AS_DRAGGED, CHEAPEST = "as dragged (trail)", "cheapest between drops"

Leg = tuple[Hex, Hex]  # where the unit stood, where it was dropped


def mp(v: int | Fraction | None) -> str:
    """MP as a report prints them: 3, 2.5, or ? when unknown."""
    return "?" if v is None else str(v) if isinstance(v, int) or v.denominator == 1 else f"{float(v):g}"


@dataclass(frozen=True)
class Mover:
    """What one unit's legs are judged with: `path(start, goal)` its cheapest legal path; its
    `allowance` this phase and its `printed` one (they differ when the weather changes it,
    20.3); the enemy-controlled hexes it obeys (`zoc`: empty when it ignores them); whether
    its side withdraws this phase (19.2); hex labels for the reasons; `exerting`: the enemy units
    whose zone of control covers a hex, named (zoc.zoc_sources), for the reasons citing it."""

    path: Callable[[Hex, Hex], PathResult]
    allowance: int
    printed: int
    zoc: frozenset[Hex]
    withdrawal: bool
    rules: MovementRules
    weather: str
    label: Callable[[Hex], str]
    exerting: Sources = no_sources


@dataclass(frozen=True)
class Chain:
    """The verdict on a unit's legs. `ok`; `cost` the MP of the legs judged (with the broken
    leg's when known); `path` their hexes end to end, the broken leg's attempt last. When not
    `ok`: `leg` the leg that broke a rule (numbered as the drags, from `first`), `drop` its
    start and end, `reason` why, citing `rule_ref`, `units` the enemy units whose zones of
    control it names, and `leg_path`/`leg_cost` its cheapest attempt (possibly empty/None)."""

    ok: bool
    cost: int | Fraction | None
    allowance: int
    path: tuple[Hex, ...]
    reason: str = ""
    rule_ref: str = ""
    leg: int = 0
    drop: Leg | None = None
    leg_path: tuple[Hex, ...] = ()
    leg_cost: int | Fraction | None = None
    units: tuple[str, ...] = ()


def judge_legs(
    legs: Sequence[Leg],
    mover: Mover,
    *,
    spent: int | Fraction = 0,
    entered: Hex | None = None,
    first: int = 1,
    before: str = "the legs before",
) -> Chain:
    """Judge `legs` (each drag's start and drop, in order; numbered from `first`). `spent`:
    MP already paid this phase (entering the map at `entered`, which is a stop when it is in
    `mover.zoc`: a unit entering an enemy zone of control stops there). `before`: what paid
    the MP spent before a leg, as the reason for an allowance exceeded says it."""
    m, z, lab = mover.rules, mover.zoc, mover.label
    zr = m.zoc
    path: tuple[Hex, ...] = (entered,) if entered is not None else (legs[0][0],) if legs else ()
    stopped = entered if entered is not None and entered in z else None
    left: int | None = None  # the leg in which a withdrawing unit left an enemy-controlled hex
    paid = f"to enter at {lab(entered)}" if entered is not None else f"spent by {before}"
    for n, (a, b) in enumerate(legs, first):
        if a == b:
            continue
        res = mover.path(a, b)
        so_far = Chain(False, spent, mover.allowance, path, leg=n, drop=(a, b), leg_path=res.path, leg_cost=res.cost)
        if stopped is not None and zr is not None:
            units, of = mover.exerting(stopped)
            return _broken(
                so_far,
                f"enemy zone of control at {lab(stopped)}{of} stops movement: the unit entered "
                f"it this phase and may not move on [{zr.rule_ref}]",
                zr.rule_ref,
                units,
            )
        if not res.ok:
            return _broken(so_far, f"no legal path: {res.reason}", res.rule_ref, res.units)
        assert res.cost is not None
        if left is not None and mover.withdrawal and b in z and zr is not None:
            units, of = mover.exerting(b)
            return _broken(
                so_far,
                f"withdrawing unit left enemy zone of control in leg {left} and may not re-enter "
                f"one at {lab(b)}{of} [{zr.reenter_ref}]",
                zr.reenter_ref,
                units,
            )
        if spent and spent + res.cost > mover.allowance:
            # A first leg over the allowance is legal_path's minimum move; after any cost, none is.
            changed = mover.allowance != mover.printed
            ref = m.weather_ref if changed else m.rule_ref
            weather = f" in {mover.weather} weather" if changed else ""
            return _broken(
                so_far,
                f"needs {mp(res.cost)} MP more after {mp(spent)} MP {paid}: "
                f"{mp(spent + res.cost)} MP in all, allowance {mover.allowance}{weather} [{ref}]",
                ref,
            )
        spent += res.cost
        paid = f"spent by {before}"
        path += res.path[1:]
        if a in z and left is None:
            left = n
        if b in z:
            stopped = b
    return Chain(True, spent, mover.allowance, path)


def _broken(so_far: Chain, why: str, ref: str, units: tuple[str, ...] = ()) -> Chain:
    """`so_far` (the legs before, the broken leg's attempt) with the broken leg's attempt added."""
    cost = None if so_far.leg_cost is None or so_far.cost is None else so_far.cost + so_far.leg_cost
    return replace(so_far, cost=cost, path=so_far.path + so_far.leg_path[1:], reason=why, rule_ref=ref, units=units)


def trail_legs(trail: Sequence[Hex | None], stops: Sequence[Hex], label: Callable[[Hex], str]) -> tuple[list[Leg], str]:
    """The hexes of a unit's trail this phase (its start first, where it stands last; None for
    a point off the hex grid) as one-hex legs, or none and why they cannot be judged as its
    path. `stops`: the move's start and its drops, which a trail of this move goes through in
    order (an empty `trail`: the piece's trail does not cover the move, e.g. cleared during it)."""
    points = [h for h, _ in groupby(trail)]  # a drop within its hex adds a point, not a hex
    hexes = [h for h in points if h is not None]
    instead = "judged the cheapest path instead"
    if not points:
        return [], f"trail does not cover this move: {instead}"
    if len(hexes) < len(points):
        return [], f"trail leaves the hex grid: {instead}"
    it = iter(hexes)
    if hexes[0] != stops[0] or hexes[-1] != stops[-1] or not all(s in it for s in stops):
        return [], f"trail does not go through the drops: {instead}"
    gap = next(((a, b) for a, b in pairwise(hexes) if distance(a, b) != 1), None)
    if gap is not None:
        return [], f"trail not continuous ({label(gap[0])} -> {label(gap[1])}, not adjacent): {instead}"
    return list(pairwise(hexes)), ""


def map_legs(drags: Sequence[tuple[Position, Position]]) -> tuple[list[tuple[Hex, Hex]], int | None]:
    """The drags on the map as legs, up to the first that leaves it, and that one's number (or None)."""
    legs = []
    for n, (a, b) in enumerate(drags, 1):
        if a.hex is None or b.hex is None:
            return legs, n
        legs.append((a.hex, b.hex))
    return legs, None
