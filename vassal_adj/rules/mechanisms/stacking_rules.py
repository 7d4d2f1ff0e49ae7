"""The registered adapters of stacking: ``stacking.limit`` (one limit a hex, per-class limits,
exemptions) and ``stacking.pools`` (unit selectors each with its own limit, counted apart), on
the mechanisms of stacking.py.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from vassal_adj.model.state import GameState
from vassal_adj.rules.engine import RuleContext
from vassal_adj.rules.mechanisms.implementations import rule_ref, severity_of
from vassal_adj.rules.mechanisms.stacking import (
    POOL_CHECK_POINTS,
    POOLS,
    StackingRules,
    check_pools,
    check_stacking,
    pools_from,
)
from vassal_adj.rules.param_shape import Each
from vassal_adj.rules.registry import REQUIRED, Param, register
from vassal_adj.rules.results import Finding, Severity

__all__ = ["stacking_limit", "stacking_pools"]


@register(
    "stacking.limit",
    params={
        "limit": Param(1, "int", "most units (or steps) of one side in a hex; -1 for no overall limit"),
        "measure": Param("units", "str", "what is counted: 'units' or 'steps'"),
        "per_kind": Param({}, "table", "limits per unit class, e.g. { artillery = 1 }", shape=Each("int")),
        "exempt_kinds": Param(("marker",), "list[str]", "unit classes that do not count (e.g. HQ)"),
        "exempt_flags": Param(("marker",), "list[str]", "unit flags that do not count"),
        "per_side": Param(True, "bool", "count each side apart (false: all units in a hex together)"),
        "phases": Param(
            (), "list[str]", "phase ids in which the limit is checked ('setup' for a state with no turn); empty: always"
        ),
        "severity": Param("error", "str", "severity of an overstack finding"),
    },
)
def stacking_limit(state: GameState, ctx: RuleContext, p: Mapping[str, Any]) -> list[Finding]:
    """Per-hex stacking limit by count or steps, with per-class limits and exemptions."""
    now = "setup" if state.turn is None and state.phase is None else state.phase
    if p["phases"] and now not in p["phases"]:
        ref = f" [{rule_ref(ctx)}]" if rule_ref(ctx) else ""
        return [
            Finding(
                ctx.cite(),
                Severity.INFO,
                f"stacking is checked in {', '.join(p['phases'])}, not in phase {now or 'unknown'}: not checked{ref}",
            )
        ]
    per_kind = dict(p["per_kind"])
    for k, v in per_kind.items():
        if isinstance(v, bool) or not isinstance(v, int):
            # ValueError, as for every bad parameter: the engine makes it a PackError
            raise ValueError(f"per_kind.{k}: expected int, got {v!r}")  # noqa: TRY004
    rules = StackingRules(
        limit=None if p["limit"] < 0 else p["limit"],
        measure=p["measure"],
        per_kind=per_kind,
        exempt_kinds=frozenset(p["exempt_kinds"]),
        exempt_flags=frozenset(p["exempt_flags"]),
        per_side=p["per_side"],
    )
    return check_stacking(
        state, rules, rule_ref(ctx), label=ctx.label, rule=ctx.cite(), severity=severity_of(p["severity"])
    )


@register(
    "stacking.pools",
    params={
        "pools": Param(
            REQUIRED,
            "list",
            shape=POOLS,
            doc="[{ name, units = selector, limit, measure = 'units'/'steps', "
            "capacity_from = [{ units = selector, limit }] }]: each counted apart",
        ),
        "per_side": Param(True, "bool", "count each side apart (false: all units in a hex together)"),
        "checked_at": Param(POOL_CHECK_POINTS, "list[str]", "when: 'setup', 'end-of-phase', 'end-of-segment'"),
        "phases": Param((), "list[str]", "phase ids in which the pools are checked; empty: every phase"),
        "exempt_arrivals": Param(
            False,
            "bool",
            "reinforcements may arrive overstacked: an overstack in play is a "
            "warning, as a save cannot tell whether its units just arrived",
        ),
        "severity": Param("error", "str", "severity of an overstack finding"),
    },
)
def stacking_pools(state: GameState, ctx: RuleContext, p: Mapping[str, Any]) -> list[Finding]:
    """Per-hex stacking pools: unit selectors each with its own limit, counted apart; units in no pool are exempt."""
    pools = pools_from(p["pools"])
    if bad := [c for c in p["checked_at"] if c not in POOL_CHECK_POINTS]:
        raise ValueError(f"checked_at: unknown moment {bad[0]!r} (known: {', '.join(POOL_CHECK_POINTS)})")
    setup = state.turn is None and state.phase is None
    in_force = "setup" in p["checked_at"] if setup else bool({"end-of-phase", "end-of-segment"} & set(p["checked_at"]))
    if not in_force or (not setup and p["phases"] and state.phase not in p["phases"]):
        ref = f" [{rule_ref(ctx)}]" if rule_ref(ctx) else ""
        now = "the set-up" if setup else f"phase {state.phase or 'unknown'}"
        when = ", ".join(p["checked_at"]) + (f" (phases {', '.join(p['phases'])})" if p["phases"] else "")
        return [Finding(ctx.cite(), Severity.INFO, f"stacking is checked at {when}, not in {now}: not checked{ref}")]
    severity, caveat = severity_of(p["severity"]), ""
    if p["exempt_arrivals"] and not setup:
        # Reinforcements may arrive overstacked: a wrong "illegal" is the risk, so say what is unknown.
        severity = Severity.WARNING
        caveat = " (legal if they are reinforcements that have just arrived: the save cannot tell)"
    return check_pools(
        state,
        pools,
        rule_ref(ctx),
        per_side=p["per_side"],
        label=ctx.label,
        rule=ctx.cite(),
        severity=severity,
        caveat=caveat,
    )
