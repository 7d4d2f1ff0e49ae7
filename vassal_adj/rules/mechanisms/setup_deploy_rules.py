"""The registered adapters of the set-up: ``setup.deployment`` (rules/mechanisms/setup_deploy.py)
and ``setup.constraints`` (rules/mechanisms/setup_quota.py).

Each reads its parameters, checks their shape (a ValueError names the key path, e.g.
``groups[3].placement: expected 'exact', 'adjacent' or 'within', got 'near'``; the engine
makes it a PackError), turns labels into hexes on the board, and runs the mechanism.

When the set-up is checked: on a state with no Game-Turn and no phase (a set-up), and on
Game-Turn `frozen_turn` (RULES-MAP E6, N14: e.g. 1), when listed units not near the enemy may not
have moved. On later turns the set-up says nothing, and the rule reports nothing.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from vassal_adj.model.state import GameState
from vassal_adj.rules.engine import RuleContext
from vassal_adj.rules.mechanisms.param_shapes import names, one_hex, table, whole, word
from vassal_adj.rules.mechanisms.setup import printed_key
from vassal_adj.rules.mechanisms.setup_deploy import PLACEMENTS, Deployment, Group, check_deployment
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
from vassal_adj.rules.registry import REQUIRED, Param, register
from vassal_adj.rules.results import Finding, Severity
from vassal_adj.rules.select import selector_at

__all__ = ["constraints", "deployment"]


# -- set-up --------------------------------------------------------------------------------------
def _group(ctx: RuleContext, value: Any, path: str) -> Group:
    g = table(value, path, {"at", "placement", "distance", "units"}, {"at", "placement", "units"})
    placement = g["placement"]
    if placement not in PLACEMENTS:
        raise ValueError(f"{path}.placement: expected 'exact', 'adjacent' or 'within', got {placement!r}")
    if placement == "within" and "distance" not in g:
        raise ValueError(f"{path}.distance: missing required key for placement 'within'")
    if placement != "within" and "distance" in g:
        raise ValueError(f"{path}.distance: only placement 'within' takes a distance, not {placement!r}")
    at = word(g["at"], f"{path}.at")
    return Group(
        at,
        one_hex(ctx, at, f"{path}.at"),
        placement,
        whole(g.get("distance", 0), f"{path}.distance"),
        names(g["units"], f"{path}.units"),
    )


@register(
    "setup.deployment",
    params={
        "side": Param(REQUIRED, "str", "the side whose set-up is listed"),
        "groups": Param(
            REQUIRED,
            "list",
            "set-up groups: { at = hex, placement = 'exact'|'adjacent'|'within', "
            "distance = n (within only), units = [printed names] }",
        ),
        "no_stacking": Param(True, "bool", "set-up units may not be stacked (23: 'Units may not be stacked')"),
        "frozen_turn": Param(0, "int", "the Game-Turn on which listed units may not move (23.72: 1); 0 for none"),
        "frozen_exempt_range": Param(10, "int", "units within this many hexes of an enemy unit may move then (23.72)"),
        "frozen_rule": Param("", "str", "the rule number cited for the frozen turn (default: the rule's own)"),
    },
)
def deployment(state: GameState, ctx: RuleContext, p: Mapping[str, Any]) -> list[Finding]:
    """Set-up placement (exact hex, in or adjacent, within n hexes), no stacking, and units frozen on turn 1."""
    groups = tuple(_group(ctx, g, f"groups[{i}]") for i, g in enumerate(p["groups"]))
    if not groups:
        raise ValueError("groups: expected at least one set-up group")
    dep = Deployment(
        word(p["side"], "side"),
        groups,
        p["no_stacking"],
        whole(p["frozen_turn"], "frozen_turn"),
        whole(p["frozen_exempt_range"], "frozen_exempt_range"),
        p["frozen_rule"],
        ctx.rule.rule_ref if ctx.rule is not None else "",
    )
    found = check_deployment(state, dep, rule=ctx.cite(), label=ctx.label)
    if state.turn is not None and state.turn != dep.frozen_turn or state.turn is None and state.phase is not None:
        return found
    # A referee wants the all-clear said, not inferred from silence.
    listed = {printed_key(n) for g in groups for n in g.units}
    ours = [uid for uid, u in state.units.items() if u.side == dep.side and printed_key(u.name) in listed]
    faulted = {uid for f in found if f.severity != Severity.INFO for uid in f.units}
    when = "at set-up" if state.turn is None else f"on Game-Turn {state.turn}"
    ok = sum(1 for uid in ours if uid not in faulted and state.hex_of(uid) is not None)
    summary = Finding(
        ctx.cite(),
        Severity.INFO,
        f"{ok} of {len(listed)} {dep.side} units of the initial deployment "
        f"are on the map {when} with no set-up finding [{dep.rule_ref} set-up]",
    )
    return [summary, *found]


# -- set-up constraints (rules/mechanisms/setup_quota.py) -------------------------------------------------------
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
    keys = {
        "in": {"in", "boxes"},
        "count": {"in", "boxes", "min", "max"},
        "one_each": {"hexes"},
        "spacing": {"min_distance"},
        "with": {"of", "distance", "same"},
    }[kind]
    need = {"one_each": {"hexes"}, "spacing": {"min_distance"}, "with": {"of"}}.get(kind, set())
    t = table(value, path, keys | {"units", "rule_ref"}, need | {"units"})
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
        units, ref, selector_at(t["of"], f"{path}.of"), whole(t.get("distance", 0), f"{path}.distance"), "same" in t
    )


_CONSTRAINTS = ("in", "count", "one_each", "spacing", "with")


@register(
    "setup.constraints",
    params={
        "in": Param(
            (), "list", "{ units, in = [hexes, places, regions], boxes = [names] }: the units are set up there"
        ),
        "count": Param((), "list", "{ units, in, boxes, min, max }: how many of the units the area holds at set-up"),
        "one_each": Param((), "list", "{ units, hexes = [hexes] }: one of the units in each hex, none elsewhere"),
        "spacing": Param((), "list", "{ units, min_distance = n }: no two of the units nearer than n hexes"),
        "with": Param(
            (),
            "list",
            "{ units, of = units, distance = n (0: stacked), same = 'formation' }: each unit that "
            "near a friendly unit `of` picks",
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
