"""The registered adapter of the set-up, ``setup.deployment`` (rules/mechanisms/setup_deploy.py;
``setup.constraints`` is setup_constraints.py).

It reads its parameters, checks their shape (a ValueError names the key path, e.g.
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
from vassal_adj.rules.mechanisms.param_values import names, one_hex, table, whole, word
from vassal_adj.rules.mechanisms.setup import printed_key
from vassal_adj.rules.mechanisms.setup_deploy import PLACEMENTS, Deployment, Group, check_deployment
from vassal_adj.rules.mechanisms.setup_shapes import GROUP
from vassal_adj.rules.param_shape import Each
from vassal_adj.rules.registry import REQUIRED, Param, register
from vassal_adj.rules.results import Finding, Severity

__all__ = ["deployment"]


# -- set-up --------------------------------------------------------------------------------------
def _group(ctx: RuleContext, value: Any, path: str) -> Group:
    g = table(value, path, set(GROUP.keys), set(GROUP.required))
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
            shape=Each(GROUP),
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
