"""The registered adapter of ``setup.constraints``: set-up areas, quotas, one unit in each hex,
spacing and units set up with others (the mechanisms: setup_quota.py).

Each entry is read as its kind's shape (setup_shapes.py) says, its hexes turned into hexes on
the board; a ValueError names the key path (``count[0]: max 1 is below min 2``) and the engine
makes it a PackError.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from vassal_adj.model.state import GameState
from vassal_adj.rules.engine import RuleContext
from vassal_adj.rules.mechanisms.param_values import names, one_hex, table, whole, word
from vassal_adj.rules.mechanisms.setup_quota import (
    Area,
    Constraint,
    Count,
    OneEach,
    Placement,
    Spacing,
    With,
    check_constraints,
)
from vassal_adj.rules.mechanisms.setup_shapes import CONSTRAINTS
from vassal_adj.rules.param_shape import Each
from vassal_adj.rules.registry import Param, register
from vassal_adj.rules.results import Finding
from vassal_adj.rules.select import selector_at

__all__ = ["constraints"]


def _area(ctx: RuleContext, t: Mapping[str, Any], path: str) -> Area:
    specs = names(t["in"], f"{path}.in") if "in" in t else ()
    boxes = names(t["boxes"], f"{path}.boxes") if "boxes" in t else ()
    if not specs and not boxes:
        raise ValueError(f"{path}: expected 'in' (hexes, places or regions) or 'boxes'")
    return Area(
        frozenset(ctx.hexes(specs, f"{path}.in")),
        frozenset(b.strip().casefold() for b in boxes),
        " or ".join((*specs, *(f"box {b!r}" for b in boxes))),
    )


def _constraint(ctx: RuleContext, kind: str, value: Any, path: str, ref: str) -> Constraint:
    t = table(value, path, set(CONSTRAINTS[kind].keys), set(CONSTRAINTS[kind].required))
    units, ref = selector_at(t["units"], f"{path}.units"), word(t.get("rule_ref", ref), f"{path}.rule_ref")
    if kind == "in":
        return Placement(units, ref, _area(ctx, t, path))
    if kind == "count":
        if "min" not in t and "max" not in t:
            raise ValueError(f"{path}: expected 'min', 'max' or both")
        least, most = whole(t.get("min", 0), f"{path}.min"), whole(t.get("max", -1), f"{path}.max", -1)
        if 0 <= most < least:
            raise ValueError(f"{path}: max {most} is below min {least}")
        return Count(units, ref, _area(ctx, t, path), least, most)
    if kind == "one_each":
        spots = names(t["hexes"], f"{path}.hexes")
        return OneEach(units, ref, tuple((s, one_hex(ctx, s, f"{path}.hexes")) for s in spots))
    if kind == "spacing":
        return Spacing(units, ref, whole(t["min_distance"], f"{path}.min_distance", 1))
    if t.get("same", "formation") != "formation":
        raise ValueError(f"{path}.same: expected 'formation', got {t['same']!r}")
    return With(
        units,
        ref,
        selector_at(t["of"], f"{path}.of"),
        whole(t.get("distance", 0), f"{path}.distance"),
        "same" in t,
        whole(t["at_least"], f"{path}.at_least", 1) if "at_least" in t else -1,
    )


_CONSTRAINTS = ("in", "count", "one_each", "spacing", "with")


@register(
    "setup.constraints",
    params={
        "in": Param(
            (),
            "list",
            "{ units, in = [hexes, places, regions], boxes = [names] }: the units are set up there",
            shape=Each(CONSTRAINTS["in"]),
        ),
        "count": Param(
            (),
            "list",
            "{ units, in, boxes, min, max }: how many of the units the area holds at set-up",
            shape=Each(CONSTRAINTS["count"]),
        ),
        "one_each": Param(
            (),
            "list",
            "{ units, hexes = [hexes] }: one of the units in each hex, none elsewhere",
            shape=Each(CONSTRAINTS["one_each"]),
        ),
        "spacing": Param(
            (),
            "list",
            "{ units, min_distance = n }: no two of the units nearer than n hexes",
            shape=Each(CONSTRAINTS["spacing"]),
        ),
        "with": Param(
            (),
            "list",
            "{ units, of = units, distance = n (0: stacked), same = 'formation', at_least = n }: each "
            "unit (or n of them) that near a friendly unit `of` picks",
            shape=Each(CONSTRAINTS["with"]),
        ),
        "setup_turn": Param(
            0,
            "int",
            "a Game-Turn whose states with no phase are also a set-up (a scenario that "
            "begins on it); 0: only states with no turn and no phase",
        ),
    },
)
def constraints(state: GameState, ctx: RuleContext, p: Mapping[str, Any]) -> list[Finding]:
    """Set-up areas, quotas, one unit in each hex, spacing, and units set up with others
    (`units` and `of` are unit selectors, select.py)."""
    ref = ctx.rule.rule_ref if ctx.rule is not None else ""
    found = tuple(
        _constraint(ctx, kind, v, f"{kind}[{i}]", ref) for kind in _CONSTRAINTS for i, v in enumerate(p[kind])
    )
    turn = whole(p["setup_turn"], "setup_turn")
    if state.phase is not None or state.turn not in (None, turn or None):
        return []
    return check_constraints(state, found, cite=lambda r: f"{ctx.pack_id}:{r}", label=ctx.label)
