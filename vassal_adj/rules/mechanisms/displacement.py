"""Combat-phase displacement limits (N24): how far a unit may retreat or advance after combat.

In a combat phase the log shows units moved, never the combat result that moved them. What the
rules bound is checked: a unit of the side whose combat phase it is advances, a unit of the
other side retreats; each may end at most `retreat_max` / `advance_max` hexes from where it
stood as the segment began (every drop a waypoint: the distance from the start counts, as
"must move that number of hexes away from its start position", seed 004 17.1.1). At
most `advance_units_max` units advance into one hex (0: any number). `advance_into_vacated`:
the first hex of an advance is one enemy units held as the segment began and have left.
`overrides` (first match wins) give units their own limits; `never` units are never displaced,
nor, when `units` is given, any unit it does not select. `advances = false`: the phase's side is
not displaced but moves (a movement phase in which the enemy's units are pushed back, seed 001
4.2); its moves are judged as moves, and the sequence of play still judges the others'.
Whether a combat called for the retreat, and its length, the log cannot tell: a shorter move
is not an error. `overstack_extends`: a retreat must go on past its length while it would end
overstacked (seed 001 7.5), which the log cannot show either (it holds no path, nor where the unit
could have stopped): a longer retreat is then a warning saying when it is legal, not an error.

Pure: a `segments.Segment` in, findings out.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from vassal_adj.model.geometry.hexes import Hex, distance
from vassal_adj.rules.engine import RuleContext
from vassal_adj.rules.param_shape import Each, Table
from vassal_adj.rules.registry import REQUIRED, Param, register
from vassal_adj.rules.results import Finding, Severity
from vassal_adj.rules.segments import Segment
from vassal_adj.rules.select import selector_at

__all__ = ["combat_displacement"]


def _limit(unit: Any, p: Mapping[str, Any], key: str) -> int:
    for i, o in enumerate(p["overrides"]):
        if not isinstance(o, Mapping) or not isinstance(o.get("units"), Mapping):
            # ValueError: the engine reports a pack's bad parameter as a PackError naming the rule
            raise ValueError(
                f"overrides[{i}]: expected {{ units = selector, retreat_max, advance_max }}, "  # noqa: TRY004
                f"got {o!r}"
            )
        if selector_at(o["units"], f"overrides[{i}].units").matches(unit) and key in o:
            return int(o[key])
    return int(p[key])


@register(
    "combat.displacement",
    log=True,
    params={
        "phases": Param(
            REQUIRED,
            "table",
            "phase id -> the side whose phase it is (its units advance, the other side's retreat)",
            shape=Each("str"),
        ),
        "retreat_max": Param(REQUIRED, "int", "the most hexes a unit ends from its start by retreating"),
        "advance_max": Param(REQUIRED, "int", "the most hexes a unit ends from its start by advancing"),
        "advance_units_max": Param(0, "int", "the most units that advance into one hex (0: any number)"),
        "advance_into_vacated": Param(False, "bool", "an advance's first hex is one the enemy held and left"),
        "overrides": Param(
            [],
            "list",
            "[{ units = selector, retreat_max, advance_max }]: first match wins",
            shape=Each(Table({"units": "selector", "retreat_max": "int", "advance_max": "int"}, required=("units",))),
        ),
        "never": Param({}, "selector", "selector of units never displaced after combat (empty: none)"),
        "units": Param(
            {}, "selector", "selector of the only units displaced (empty: all); another unit moved is an error"
        ),
        "advances": Param(
            True,
            "bool",
            "the phase's side advances; false: its moves are not this rule's (its "
            "movement phase, where the other side is displaced, seed 001 4.2)",
        ),
        "overstack_extends": Param(
            False,
            "bool",
            "a retreat longer than retreat_max is a warning, legal only if it could not stop "
            "without overstacking (seed 001 7.5); false: an error",
        ),
        "retreat_rule": Param("", "str", "the rule cited for retreats (default: the rule's rule_ref)"),
        "advance_rule": Param("", "str", "the rule cited for advances (default: the rule's rule_ref)"),
    },
)
def combat_displacement(segment: Segment, ctx: RuleContext, p: Mapping[str, Any]) -> list[Finding]:
    """Retreats and advances after combat (or pushed back in a movement phase): their length, the units per hex."""
    attacker = p["phases"].get(segment.phase or "")
    if attacker is None:
        return []
    ref = ctx.rule.rule_ref if ctx.rule else ""
    never, only = selector_at(p["never"], "never"), selector_at(p["units"], "units")
    start, end, out = segment.start, segment.end, []
    held = {h for uid, u in start.units.items() if u.side != attacker and (h := start.hex_of(uid)) is not None}
    vacated = held - {h for uid, u in end.units.items() if u.side != attacker and (h := end.hex_of(uid)) is not None}
    into: dict[Hex, list[str]] = {}
    for uid in segment.moves:
        unit, a, b = start.units.get(uid), start.hex_of(uid), end.hex_of(uid)
        if unit is None or a is None or b is None or a == b:
            continue  # off the map (eliminated, exited) or back where it stood
        advance = unit.side == attacker
        if advance and not p["advances"]:
            continue  # a move of the phase's side, judged as a move (turn.py)
        word, key = ("advance", "advance_max") if advance else ("retreat", "retreat_max")
        a_word = f"an {word}" if advance else f"a {word}"
        cite = p["advance_rule" if advance else "retreat_rule"] or ref
        what = f"{unit.side} {unit.name} moved {ctx.label(a)} -> {ctx.label(b)} in the {segment.phase} phase"
        hexes = (ctx.label(a), ctx.label(b))
        if (p["never"] and never.matches(unit)) or (p["units"] and not only.matches(unit)):
            out.append(
                Finding(
                    f"{ctx.pack_id}:{cite}",
                    Severity.ERROR,
                    f"{what}: such units are never displaced in this phase [{cite}]",
                    (uid,),
                    hexes,
                )
            )
            continue
        most, d = _limit(unit, p, key), distance(a, b)
        if d > most:
            longer = not advance and p["overstack_extends"]
            unless = (
                ": legal only if it could not stop sooner without overstacking a hex, which the log does not show"
                if longer
                else ""
            )
            out.append(
                Finding(
                    f"{ctx.pack_id}:{cite}",
                    Severity.WARNING if longer else Severity.ERROR,
                    f"{what}: {a_word} after combat of {d} hex{'es' if d > 1 else ''}, and it may "
                    f"{word} at most {most}{unless} [{cite}]",
                    (uid,),
                    hexes,
                )
            )
            continue
        if advance:
            into.setdefault(b, []).append(uid)
            if p["advance_into_vacated"] and not any(distance(a, v) == 1 and distance(v, b) <= d - 1 for v in vacated):
                out.append(
                    Finding(
                        f"{ctx.pack_id}:{cite}",
                        Severity.ERROR,
                        f"{what}: an advance after combat goes first into a hex the enemy held and left, "
                        f"and no such hex is on its way [{cite}]",
                        (uid,),
                        hexes,
                    )
                )
                continue
        out.append(
            Finding(
                f"{ctx.pack_id}:{cite}",
                Severity.INFO,
                f"{what}: {a_word} after combat of {d} hex{'es' if d > 1 else ''}, within the {most} "
                f"allowed; whether a combat result called for it is not known from the log [{cite}]",
                (uid,),
                hexes,
            )
        )
    cap, cite = p["advance_units_max"], p["advance_rule"] or ref
    for h, uids in into.items():
        if cap and len(uids) > cap:
            names = ", ".join(start.units[u].name for u in uids)
            out.append(
                Finding(
                    f"{ctx.pack_id}:{cite}",
                    Severity.ERROR,
                    f"{len(uids)} units advanced after combat into {ctx.label(h)} ({names}) in the "
                    f"{segment.phase} phase, and at most {cap} may [{cite}]",
                    tuple(uids),
                    (ctx.label(h),),
                )
            )
    return out
