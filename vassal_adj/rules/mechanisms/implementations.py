"""The built-in rule implementations a pack names with ``impl = "..."``.

Each is a thin adapter: it reads the rule's parameters, builds the rule object of its
mechanism module (supply.py, zoc.py, movement.py; stacking: stacking_rules.py) and turns what that returns
into findings. The signature is the engine's (rules/engine.py): ``(state, context, params)
-> list[Finding]``; ``context.cite()`` is the citation ``"<pack id>:<rule_ref>"``.

The mechanisms keep the logic and their own tests; these adapters only translate, so a
parameter documented here means exactly the field of the mechanism's rule object.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from vassal_adj.model.geometry.hexes import neighbors
from vassal_adj.model.state import GameState
from vassal_adj.rules.engine import RuleContext
from vassal_adj.rules.mechanisms.movement_rules import ZOC_SHAPE_PARAMS, by_weather, zoc_rules
from vassal_adj.rules.mechanisms.supply import (
    DEFAULT_HORIZON,
    SupplyRules,
    obstructed_hexes,
    supply_status,
)
from vassal_adj.rules.mechanisms.supply_words import after_exits, crossing_note, route_words
from vassal_adj.rules.mechanisms.zoc import enemy_zoc, unit_classes, weather_name
from vassal_adj.rules.param_shape import Table
from vassal_adj.rules.registry import REQUIRED, Param, register
from vassal_adj.rules.results import Finding, Severity

if TYPE_CHECKING:
    from vassal_adj.rules.mechanisms.supply_hq import HqRoute

__all__ = ["obstruction_flags", "rule_ref", "severity_of", "supply_trace", "terrain_prohibited"]

_SEVERITIES = tuple(s.value for s in Severity)


def severity_of(value: str, key: str = "severity") -> Severity:
    if value not in _SEVERITIES:
        raise ValueError(f"{key}: expected one of {', '.join(_SEVERITIES)}, got {value!r}")
    return Severity(value)


def rule_ref(ctx: RuleContext) -> str:
    # A rule the pack cites by an assumption names the assumption's source in every message.
    return ctx.rule.cited if ctx.rule is not None else ""


# -- supply ---------------------------------------------------------------------------------
def _networks(value: Any) -> tuple[tuple[str, ...], ...]:
    """``[["road"], ["trail"]]`` (separate networks) or ``["road", "trail"]`` (one each)."""
    out = []
    for i, g in enumerate(value):
        group = (g,) if isinstance(g, str) else tuple(g)
        if not group or not all(isinstance(f, str) for f in group):
            raise ValueError(f"networks[{i}]: expected a feature name or a list of them, got {g!r}")
        out.append(group)
    return tuple(out)


_OBSTRUCTION = ("enemy_units", "enemy_zoc", "friendly_negates_zoc")


def obstruction_flags(table: Mapping[str, Any]) -> dict[str, bool]:
    """The `obstruction` parameter with every key given (true when left out)."""
    if bad := sorted(set(table) - set(_OBSTRUCTION)):
        raise ValueError(f"obstruction.{bad[0]}: unknown key (known: {', '.join(_OBSTRUCTION)})")
    if bad := [k for k, v in table.items() if not isinstance(v, bool)]:
        raise ValueError(f"obstruction.{bad[0]}: expected true or false, got {table[bad[0]]!r}")
    return {k: table.get(k, True) for k in _OBSTRUCTION}


@register(
    "supply.trace",
    params={
        "side": Param(REQUIRED, "str", "the side whose units are checked"),
        "initial": Param(REQUIRED, "int", "most hexes of the initial path to the network (17.11: 4)"),
        "sources": Param(REQUIRED, "list[str]", "supply source hexes: label ranges or terrain-file place names"),
        "networks": Param(
            (("road",), ("trail",)),
            "list[list[str]]",
            "networks the path stays on once entered: [['road'], ['trail']] keeps them apart",
            names="features",
        ),
        "direct_to_source": Param(True, "bool", "the initial path may reach a source directly (17.14)"),
        "obstruction": Param(
            {},
            "table",
            "what blocks a path ('unobstructed', 17.11): { enemy_units = true, "
            "enemy_zoc = true, friendly_negates_zoc = true } (each true when left out)",
            shape=Table(dict.fromkeys(_OBSTRUCTION, "bool")),
        ),
        "initial_crosses_network": Param(
            True,
            "bool",
            "the initial path may pass through road/trail hexes before the "
            "one it joins (false: it ends at the first it enters, 17.13)",
        ),
        "impassable_terrain": Param((), "list[str]", "terrain the initial path may not enter", names="terrain"),
        "impassable_sides": Param((), "list[str]", "hexside features the initial path may not cross", names="features"),
        "closed_in_weather": Param(
            {},
            "table[list[str]]",
            "weather -> hexside features no supply path crosses unless "
            "bridged (a reading of 20.2: { poor = ['stream'] })",
            keys="weather",
            names="features",
        ),
        "bridge_features": Param(
            ("bridge",), "list[str]", "features that keep a closed hexside open", names="features"
        ),
        "horizon": Param(DEFAULT_HORIZON, "int", "how far past `initial` distances are measured for reports"),
        **ZOC_SHAPE_PARAMS,
        "report_paths": Param(True, "bool", "an info finding per unit in supply, with its path"),
        "hq_kinds": Param(
            (),
            "list[str]",
            "unit classes that pass supply on: a unit out of supply by the network "
            "is in supply within `hq_range` hexes of one in supply",
        ),
        "hq_range": Param(0, "int", "most hexes from a unit to a supplied HQ (with hq_kinds)"),
        "hq_rule": Param("", "str", "the rule cited for supply through an HQ"),
        "sources_lost_on_exit_by": Param(
            "",
            "str",
            "the side whose units, exiting from a source hex, remove it and the sources east of it (17.15: Axis)",
        ),
        "exit_box": Param(
            "", "str", "the off-map box of units that have exited the map (needed with sources_lost_on_exit_by)"
        ),
        "exit_rule": Param("", "str", "the rule cited for sources lost by exits"),
        "severity": Param("warning", "str", "severity of an out-of-supply finding (a status, not a violation)"),
    },
)
def supply_trace(state: GameState, ctx: RuleContext, p: Mapping[str, Any]) -> list[Finding]:
    """Supply by an initial path to a road/trail network joined to a source (one search per side)."""
    side = p["side"]
    obstruction = obstruction_flags(p["obstruction"])
    closed = by_weather(p["closed_in_weather"], "closed_in_weather").get(weather_name(state.weather), frozenset())
    rules = SupplyRules(
        initial=p["initial"],
        networks=_networks(p["networks"]),
        direct_to_source=p["direct_to_source"],
        enemy_units_obstruct=obstruction["enemy_units"],
        enemy_zoc_obstructs=obstruction["enemy_zoc"],
        friendly_negates_zoc=obstruction["friendly_negates_zoc"],
        initial_crosses_network=p["initial_crosses_network"],
        impassable_terrain=frozenset(p["impassable_terrain"]),
        impassable_sides=frozenset(p["impassable_sides"]),
        closed_sides=closed,
        bridge_features=frozenset(p["bridge_features"]),
        rule_ref=rule_ref(ctx),
    )
    severity = severity_of(p["severity"])
    sources, exit_notes = after_exits(state, ctx, p, side, ctx.hexes(p["sources"], "sources"))
    # Enemy ZOC as movement draws it: the same zoc_* parameters, read by the same function.
    zoc = (
        enemy_zoc(state, ctx.terrain, side, zoc_rules(p), purpose="supply")
        if rules.enemy_zoc_obstructs
        else frozenset()
    )
    blocked = obstructed_hexes(state, side, rules, zoc)
    statuses = supply_status(state, ctx.terrain, side, rules, sources, blocked, horizon=p["horizon"])
    # The other reading of initial_crosses_network, so that a finding can say when a unit's supply turns on it.
    # Only whether it supplies a unit is read, and the path when it does: all within `initial` hexes, so its
    # search goes no further (horizon 0), where the first one measures unsupplied units' distances for reasons.
    other = supply_status(
        state,
        ctx.terrain,
        side,
        replace(rules, initial_crosses_network=not rules.initial_crosses_network),
        sources,
        blocked,
        horizon=0,
    )
    routes: Mapping[str, HqRoute] = {}
    if p["hq_kinds"]:
        # here: only a pack whose supply runs through headquarters needs it (startup time, issue 10)
        from vassal_adj.rules.mechanisms.supply_hq import HqRules, hq_routes

        hq = HqRules(frozenset(p["hq_kinds"]), p["hq_range"])
        routes = hq_routes(state, ctx.terrain, side, hq, statuses, blocked)
    out: list[Finding] = []
    supplied: list[str] = []
    for uid, st in statuses.items():
        unit = state.units[uid]
        if uid in routes:
            supplied.append(uid)
            r = routes[uid]
            hq, via = state.units[r.hq_id], " ".join(ctx.label(h) for h in r.path)
            ref = f" [{p['hq_rule']}]" if p["hq_rule"] else ""
            out.append(
                Finding(
                    ctx.cite(),
                    Severity.INFO,
                    f"{side} {unit.name} in {ctx.label(st.hex)} is in supply "
                    f"through HQ {hq.name}: {r.distance} hexes ({via}), within "
                    f"{p['hq_range']}{ref}",
                    (uid, r.hq_id),
                    (ctx.label(st.hex),),
                )
            )
            continue
        note = crossing_note(ctx, rules, st, other[uid])
        if st.supplied:
            supplied.append(uid)
            if p["report_paths"] or note:
                out.append(
                    Finding(
                        ctx.cite(),
                        Severity.INFO,
                        f"{side} {unit.name} in {ctx.label(st.hex)} is in "
                        f"supply: {route_words(ctx, rules, st.path, st.distance)}"
                        f"{note}",
                        (uid,),
                        (ctx.label(st.hex),),
                    )
                )
            continue
        out.append(
            Finding(
                ctx.cite(),
                severity,
                f"{side} {unit.name} in {ctx.label(st.hex)} is out of supply: {st.reason}{note}",
                (uid,),
                (ctx.label(st.hex),),
            )
        )
    ref = f" [{rules.rule_ref}]" if rules.rule_ref else ""
    summary = Finding(
        ctx.cite(),
        Severity.INFO,
        f"{len(supplied)} of {len(statuses)} {side} units on the map are in supply "
        f"(initial path of {rules.initial} hexes or fewer to {rules.network_words()} "
        f"joined to {len(sources)} source hex{'es' if len(sources) != 1 else ''}"
        f"{f'; {len(routes)} through an HQ' if routes else ''}){ref}",
        tuple(supplied),
    )
    return [summary, *exit_notes, *sorted(out, key=Finding.sort_key)]


# -- terrain --------------------------------------------------------------------------------
@register(
    "terrain.prohibited",
    params={
        "prohibited": Param(
            REQUIRED,
            "table[list[str]]",
            "terrain -> unit classes barred from it, e.g. { rough = ['mechanized'] }",
            keys="terrain",
        ),
        "except_classes": Param((), "list[str]", "classes never barred (16.11: mechanized infantry)"),
        "through": Param(
            (), "list[str]", "hexside features by which a barred unit may still be in the hex (16.12)", names="features"
        ),
        "severity": Param("error", "str", "severity of a finding"),
    },
)
def terrain_prohibited(state: GameState, ctx: RuleContext, p: Mapping[str, Any]) -> list[Finding]:
    """Units standing in terrain prohibited to their class (with class exceptions and road hexsides)."""
    # The pack loader checked the shape (terrain -> list of classes) and the terrain names.
    barred = {terrain: frozenset(classes) for terrain, classes in p["prohibited"].items()}
    exempt, through = frozenset(p["except_classes"]), frozenset(p["through"])
    severity = severity_of(p["severity"])
    ref = f" [{rule_ref(ctx)}]" if rule_ref(ctx) else ""
    out = []
    for uid in sorted(state.units):
        unit, h = state.units[uid], state.hex_of(uid)
        if h is None:
            continue
        classes = unit_classes(unit)
        if exempt.intersection(classes):
            continue
        for terrain in sorted(ctx.terrain.terrain(h) & barred.keys()):
            by = next((c for c in classes if c in barred[terrain]), None)
            if by is None:
                continue
            # 16.12: a unit may be in the hex when a road/trail hexside leads into it.
            if through and any(ctx.terrain.features_between(h, n) & through for n in neighbors(h)):
                continue
            why = f"{by} units" if by != unit.kind else f"{by}"
            out.append(
                Finding(
                    ctx.cite(),
                    severity,
                    f"{unit.side} {unit.name} ({unit.kind}) is in {terrain} hex {ctx.label(h)}, "
                    f"which is prohibited to {why}{ref}",
                    (uid,),
                    (ctx.label(h),),
                )
            )
            break
    return sorted(out, key=Finding.sort_key)
