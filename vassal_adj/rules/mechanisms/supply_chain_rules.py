"""The rule ``supply.hq_chain``: supply through each formation's own HQ (RULES-MAP N9; the
mechanism is supply_chain.py), and the out-of-supply marker checked against it.

Seed 001 9.2: "One places an out of supply marker on the unit"; 9.3: "an out of
supply unit loses this unfavorable status at the end of the phase of player if it could trace a
line of supply to that moment". With `marker_flag`, a unit whose marker says otherwise than
its traced supply is reported at the check (the pack's ``when`` puts the rule at the supply
phase). Its severity is the pack's (`marker_severity`): a save taken during the supply phase
may come before the player has finished the check, which the files cannot tell.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from vassal_adj.model.geometry.hexes import Hex
from vassal_adj.model.state import GameState
from vassal_adj.rules.engine import RuleContext
from vassal_adj.rules.mechanisms.implementations import obstruction_flags, rule_ref, severity_of
from vassal_adj.rules.mechanisms.movement_rules import ZOC_SHAPE_PARAMS, zoc_rules
from vassal_adj.rules.mechanisms.supply import SupplyRules, obstructed_hexes
from vassal_adj.rules.mechanisms.supply_chain import POLICIES, ChainRules, ChainStatus, chain_supply
from vassal_adj.rules.mechanisms.supply_words import obstructed_words
from vassal_adj.rules.mechanisms.zoc import Sources, enemy_zoc, zoc_sources
from vassal_adj.rules.param_shape import Table
from vassal_adj.rules.registry import REQUIRED, Param, register
from vassal_adj.rules.results import Finding, Severity
from vassal_adj.rules.select import selector_at

__all__ = ["supply_hq_chain"]

# How many obstructed hexes a finding names in words (every one is in its `hexes`).
_POLICY_DOC = f"one of {', '.join(POLICIES)}"


@register(
    "supply.hq_chain",
    params={
        "side": Param(REQUIRED, "str", "the side whose units are checked"),
        "hq": Param(REQUIRED, "selector", "the units that are HQs (seed 001 6.1: the EMs)"),
        "link": Param("formation", "str", "what ties a unit to its HQ: 'formation' or a group field (9.1)"),
        "unit_range": Param(-1, "int", "most hexes from a unit to its HQ; -1: no limit (9.1 gives none)"),
        "sources_by": Param(
            REQUIRED,
            "table[list[str]]",
            "supply sources (places, hex ranges, regions) by the value of `sources_group` (9.1b: by army)",
        ),
        "sources_group": Param("side", "str", "what picks a unit's sources: 'side' or a group field ('army')"),
        "without_hq": Param("as-hq", "str", f"a unit with no {{link}} value ({_POLICY_DOC}; 9.1b: as-hq)"),
        "hq_absent": Param("out", "str", f"a unit whose HQ is off the map, in a box ({_POLICY_DOC}; 6.3: out)"),
        "hq_missing": Param(
            "not-judged", "str", f"a unit whose formation's HQ is in no file ({_POLICY_DOC}; the files cannot tell)"
        ),
        "hq_absent_rule": Param("", "str", "the rule cited when a unit's HQ is off the map (seed 001: 6.3)"),
        "obstruction": Param(
            {},
            "table",
            "what blocks a path: { enemy_units = true, enemy_zoc = true, friendly_negates_zoc = true } "
            "(each true when left out; 9.1a)",
            shape=Table({"enemy_units": "bool", "enemy_zoc": "bool", "friendly_negates_zoc": "bool"}),
        ),
        "impassable_terrain": Param((), "list[str]", "terrain no supply path enters", names="terrain"),
        **ZOC_SHAPE_PARAMS,
        "marker_flag": Param("", "str", "the unit flag of the out-of-supply marker, checked against the trace (9.2)"),
        "marker_rule": Param("", "str", "the rule cited for a wrong marker (seed 001: 9.2)"),
        "marker_severity": Param("warning", "str", "severity of a marker that disagrees with the traced supply"),
        "report_paths": Param(True, "bool", "an info finding per unit in supply, with its path"),
        "severity": Param(
            "warning", "str", "severity of out of supply: 'warning' or 'info' (a status, never an error)"
        ),
    },
)
def supply_hq_chain(state: GameState, ctx: RuleContext, p: Mapping[str, Any]) -> list[Finding]:
    """Supply through the own HQ: unit to the HQ of its formation, HQ to a source of its group."""
    side, severity = p["side"], severity_of(p["severity"])
    if severity == Severity.ERROR:
        raise ValueError("severity: out of supply is a status, not a violation: 'warning' or 'info'")
    marker_severity = severity_of(p["marker_severity"], "marker_severity")
    rules = ChainRules(
        hq=selector_at(p["hq"], "hq"),
        link=p["link"],
        unit_range=p["unit_range"],
        sources_group=p["sources_group"],
        without_hq=p["without_hq"],
        hq_absent=p["hq_absent"],
        hq_missing=p["hq_missing"],
        impassable_terrain=frozenset(p["impassable_terrain"]),
    )
    ob = obstruction_flags(p["obstruction"])
    how = SupplyRules(
        initial=0,
        enemy_units_obstruct=ob["enemy_units"],
        enemy_zoc_obstructs=ob["enemy_zoc"],
        friendly_negates_zoc=ob["friendly_negates_zoc"],
    )
    zr = zoc_rules(p)
    zoc = enemy_zoc(state, ctx.terrain, side, zr, purpose="supply") if ob["enemy_zoc"] else frozenset()
    blocked = obstructed_hexes(state, side, how, zoc)
    sources = {k: ctx.hexes(v, f"sources_by.{k}") for k, v in p["sources_by"].items()}
    statuses = chain_supply(state, ctx.terrain, side, rules, sources, blocked)
    by = zoc_sources(state, ctx.terrain, side, zr, ctx.label)
    ref = rule_ref(ctx)
    cite = f" [{ref}]" if ref else ""
    absent = f" [{p['hq_absent_rule']}]" if p["hq_absent_rule"] else cite
    words = _Words(state, ctx, side, by, zoc)
    out: list[Finding] = []
    for st in statuses.values():
        unit, at = state.units[st.unit_id], ctx.label(st.hex)
        who = (st.unit_id, st.hq_id) if st.hq_id else (st.unit_id,)
        lead = f"{side} {unit.name} in {at}"
        if st.supplied:
            if p["report_paths"]:
                out.append(
                    Finding(
                        ctx.cite(),
                        Severity.INFO,
                        f"{lead} is in supply: {words.route(st, rules.hq.matches(unit))}{cite}",
                        who,
                        (at,),
                    )
                )
        elif st.status == "out":
            why = st.why + words.blocking(st.blocking)
            # A unit out because its HQ is off the map is reported under the rule that says so (6.3).
            absent_hq = st.cause == "hq-absent"
            tail = absent if absent_hq else cite
            rule = _cited(ctx, p["hq_absent_rule"]) if absent_hq else ctx.cite()
            hexes = (at, *(ctx.label(h) for h in st.blocking))
            out.append(Finding(rule, severity, f"{lead} is out of supply{words.hq(st)}: {why}{tail}", who, hexes))
        else:
            out.append(Finding(ctx.cite(), Severity.WARNING, f"{lead}: supply not judged, {st.why}{cite}", who, (at,)))
        if p["marker_flag"] and st.status != "not-judged":
            out.extend(_marker(ctx, p, marker_severity, st, lead, unit.has(p["marker_flag"])))
    fed = [uid for uid, st in statuses.items() if st.supplied]
    n_out = sum(st.status == "out" for st in statuses.values())
    n_unknown = len(statuses) - len(fed) - n_out
    summary = Finding(
        ctx.cite(),
        Severity.INFO,
        f"{len(fed)} of {len(statuses)} {side} units on the map are in supply through their HQ or as an HQ "
        f"({n_out} out of supply{f', {n_unknown} not judged' if n_unknown else ''}){cite}",
        tuple(fed),
    )
    return [summary, *sorted(out, key=Finding.sort_key)]


def _marker(
    ctx: RuleContext, p: Mapping[str, Any], severity: Severity, st: ChainStatus, lead: str, marked: bool
) -> list[Finding]:
    """A finding when the unit's out-of-supply marker disagrees with its traced supply (9.2, 9.3)."""
    if marked == (not st.supplied):
        return []
    ref = f" [{p['marker_rule']}]" if p["marker_rule"] else ""
    flag = p["marker_flag"]
    what = (
        f"carries the out-of-supply marker ({flag}) but traces a line of supply: "
        "the marker comes off at the supply check"
        if marked
        else f"is out of supply but carries no out-of-supply marker ({flag}): one is placed at the supply check"
    )
    return [
        Finding(_cited(ctx, p["marker_rule"]), severity, f"{lead} {what}{ref}", (st.unit_id,), (ctx.label(st.hex),))
    ]


def _cited(ctx: RuleContext, ref: str) -> str:
    """The citation of a finding that a parameter attributes to a rule of its own (6.3, 9.2), else the rule's."""
    return f"{ctx.pack_id}:{ref}" if ref else ctx.cite()


class _Words:
    """The words of a finding: paths, the HQ, and why each obstructed hex obstructs."""

    def __init__(self, state: GameState, ctx: RuleContext, side: str, by: Sources, zoc: frozenset[Hex]) -> None:
        self.state, self.ctx, self.side, self.by, self.zoc = state, ctx, side, by, zoc

    def path(self, hexes: tuple[Hex, ...]) -> str:
        n = len(hexes) - 1
        return f"{' '.join(self.ctx.label(h) for h in hexes)} ({n} hex{'es' if n != 1 else ''})"

    def hq(self, st: ChainStatus) -> str:
        if not st.hq_id:
            return ""
        hq = self.state.units[st.hq_id]
        h = self.state.hex_of(st.hq_id)
        return f" (its HQ {hq.name}{f' in {self.ctx.label(h)}' if h is not None else ''})"

    def route(self, st: ChainStatus, is_hq: bool) -> str:
        if not st.hq_id:
            how = "an HQ, it traces" if is_hq else "with no HQ, it traces like an HQ"
            return f"{how} to the source {self.ctx.label(st.path[-1])}: {self.path(st.path)}"
        hq = self.state.units[st.hq_id]
        return (
            f"to its HQ {hq.name} in {self.ctx.label(st.path[-1])}: {self.path(st.path)}; "
            f"the HQ to the source {self.ctx.label(st.hq_path[-1])}: {self.path(st.hq_path)}"
        )

    def blocking(self, hexes: tuple[Hex, ...]) -> str:
        if not hexes:
            return ""
        words = obstructed_words(self.state, self.ctx, self.side, self.by, self.zoc, hexes)
        return f"; every way is closed by obstructed hexes: {words}"
