"""Registered rules for movement, zones of control and weather (the adapters of movement.py
and zoc.py; see implementations.py for the shape every adapter has).

A single save shows where units are, not how they got there, so on a save these rules report
what the state implies: the allowances the weather leaves (20.3), what the weather does this
turn (20.1, 20.2), and which units stand in an enemy zone of control and what that obliges
them to do. `movement_rules(params)` turns the same parameters into the `MovementRules` that
`legal_path` uses, so that a check of moves between two saves reads the pack's one table.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from typing import Any

from vassal_adj.model.state import GameState
from vassal_adj.rules.engine import RuleContext
from vassal_adj.rules.mechanisms.breakthrough import zoc_exceptions
from vassal_adj.rules.mechanisms.movement_mods import (
    allowance_modifiers,
    cost_modifiers,
    enterable_enemy,
    exit_multipliers,
)
from vassal_adj.rules.mechanisms.movement_params import MovementRules, allowance
from vassal_adj.rules.mechanisms.prohibition import Prohibition
from vassal_adj.rules.mechanisms.zoc import ZOC_MODES, ZOC_PURPOSES, ZocRules, enemy_zoc, weather_name
from vassal_adj.rules.param_shape import Each, Table, selector_keys
from vassal_adj.rules.registry import Param, register
from vassal_adj.rules.results import Finding, Severity

__all__ = [
    "ZOC_PARAMS",
    "ZOC_SHAPE_PARAMS",
    "by_weather",
    "movement_allowance",
    "movement_rules",
    "weather_effects",
    "zoc_engaged",
    "zoc_rules",
]


def _words(value: Any, key: str) -> frozenset[str]:
    if isinstance(value, str):
        value = (value,)
    if not isinstance(value, (list, tuple)) or not all(isinstance(v, str) for v in value):
        raise ValueError(f"{key}: expected a list of names, got {value!r}")
    return frozenset(value)


def by_weather(table: Mapping[str, Any], key: str) -> dict[str, frozenset[str]]:
    """A ``{ poor = ["stream"] }`` parameter as sets of names by weather (ValueError names `key`)."""
    return {w: _words(v, f"{key}.{w}") for w, v in table.items()}


def zoc_rules(p: Mapping[str, Any]) -> ZocRules:
    """The `ZocRules` of a rule's parameters: the `ZOC_SHAPE_PARAMS` (where zones of control are, which
    supply.trace shares), and, when the rule has them, the `ZOC_PARAMS` of what they do to movement."""
    if p.get("zoc_mode", "sticky") not in ZOC_MODES:
        raise ValueError(f"zoc_mode: expected one of {', '.join(sorted(ZOC_MODES))}, got {p['zoc_mode']!r}")
    if bad := sorted(set(p.get("zoc_negated_for", ())) - ZOC_PURPOSES):
        raise ValueError(f"zoc_negated_for: unknown purpose {bad[0]!r} (known: {', '.join(sorted(ZOC_PURPOSES))})")
    return ZocRules(
        mode=p.get("zoc_mode", "sticky"),
        zoc_to_zoc=p.get("zoc_to_zoc", False),
        exert_kinds=frozenset(p["zoc_exert"]) or None,
        no_zoc_kinds=frozenset(p["zoc_not_exert"]),
        blocked_terrain=frozenset(p["zoc_blocked_terrain"]),
        blocked_features=frozenset(p["zoc_blocked_features"]),
        blocked_in_weather=by_weather(p["zoc_blocked_in_weather"], "zoc_blocked_in_weather"),
        negated_for=frozenset(p.get("zoc_negated_for", ())),
        ignore_kinds=frozenset(p.get("zoc_ignore", ())),
    )


# Where zones of control are: the same in every rule that reads them (movement, zoc.engaged, supply.trace).
ZOC_SHAPE_PARAMS = {
    "zoc_exert": Param(
        (),
        "list[str]",
        "unit classes that exert a ZOC (kinds, flags, 'mechanized', ...); empty: every unit (seed 001 3: combat units)",
    ),
    "zoc_not_exert": Param((), "list[str]", "unit classes that exert no ZOC (besides the flag 'no-zoc')"),
    "zoc_blocked_terrain": Param(
        (), "list[str]", "terrain a ZOC does not extend into (seed 001 3: impassable)", names="terrain"
    ),
    "zoc_blocked_features": Param(
        (),
        "list[str]",
        "hexside features a ZOC never crosses (seed 001 2.1: crest; seed 004 11.1: all-sea, strait)",
        names="features",
    ),
    "zoc_blocked_in_weather": Param(
        {},
        "table[list[str]]",
        "weather -> hexside features a ZOC does not cross unless bridged (20.2)",
        keys="weather",
        names="features",
    ),
}
ZOC_PARAMS = {
    "zoc_mode": Param(
        "sticky",
        "str",
        "'sticky' (may not leave an enemy ZOC), 'stop' (stop on entering), "
        "'no-entry' (may not enter one; may leave) or 'none'",
    ),
    "zoc_to_zoc": Param(False, "bool", "in 'stop' mode, may a unit move from one enemy ZOC straight into another"),
    "zoc_negated_for": Param(
        (),
        "list[str]",
        "'movement', 'supply', 'retreat': uses for which a hex holding a friendly unit is not enemy-controlled",
    ),
    "zoc_ignore": Param(
        (), "list[str]", "unit classes that ignore enemy ZOC when they move (besides the flag 'ignores-zoc')"
    ),
    **ZOC_SHAPE_PARAMS,
}


def movement_rules(p: Mapping[str, Any]) -> MovementRules:
    """The `MovementRules` of a `movement.allowance` rule's parameters."""
    brackets = {}
    for w, rows in p["weather_allowance"].items():
        if not all(isinstance(r, (list, tuple)) and len(r) == 2 and all(isinstance(v, int) for v in r) for r in rows):
            raise ValueError(
                f"weather_allowance.{w}: expected [[minimum printed allowance, change], ...], got {rows!r}"
            )
        brackets[w] = tuple((int(m), int(c)) for m, c in rows)
    prohibitions = tuple(
        Prohibition(
            t,
            _words(c, f"prohibited.{t}"),
            frozenset(p["except_classes"]),
            frozenset(p["through"]),
            p["prohibited_rule"],
            p["through_rule"],
        )
        for t, c in p["prohibited"].items()
    )
    return MovementRules(
        terrain_costs=p["terrain_costs"],
        default_cost=p["default_cost"],
        hexside_costs=p["hexside_costs"],
        road_rates=p["road_rates"],
        combine=p["combine"],
        minimum_move=p["minimum_move"],
        prohibitions=prohibitions,
        impassable_in_weather=by_weather(p["impassable_in_weather"], "impassable_in_weather"),
        weather_allowance=brackets,
        zoc=zoc_rules(p),
        weather_ref=p["weather_rule"],
        entry_cost=p["entry_cost"],
        impassable_sides=frozenset(p["impassable_sides"]),
        impassable_ref=p["impassable_rule"] or MovementRules.impassable_ref,
        cost_modifiers=cost_modifiers(p["cost_modifiers"]),
        exit_multiplier=exit_multipliers(p["exit_multiplier"]),
        allowance_modifiers=allowance_modifiers(p["allowance_modifiers"]),
        enterable_enemy=enterable_enemy(p["enterable_enemy"]),
        zoc_exceptions=zoc_exceptions(p["zoc_exceptions"]),
    )


@register(
    "movement.allowance",
    params={
        "terrain_costs": Param(
            {}, "costs", "terrain -> MP to enter (a number, a table by class, or omitted)", keys="terrain"
        ),
        "default_cost": Param(1, "float", "MP of a hex with no costed terrain"),
        "hexside_costs": Param({}, "costs", "hexside feature -> MP added to cross it", keys="features"),
        "road_rates": Param({}, "costs", "road/trail feature -> MP per hex along it", keys="features"),
        "combine": Param("highest", "str", "'highest' single terrain cost, or 'sum'"),
        "minimum_move": Param(True, "bool", "a unit may always move one hex unless prohibited"),
        "prohibited": Param(
            {}, "table[list[str]]", "terrain -> classes that may never enter it (16.11)", keys="terrain"
        ),
        "except_classes": Param((), "list[str]", "classes a prohibition never bars (16.11: mechanized infantry)"),
        "through": Param(
            (), "list[str]", "hexside features by which barred units may still enter (16.12)", names="features"
        ),
        "prohibited_rule": Param("", "str", "rule cited for a prohibition"),
        "through_rule": Param("", "str", "rule cited for entering through road/trail hexsides"),
        "impassable_in_weather": Param(
            {},
            "table[list[str]]",
            "weather -> hexside features no unit crosses unless bridged",
            keys="weather",
            names="features",
        ),
        "weather_allowance": Param(
            {},
            "table",
            "weather -> [[minimum printed allowance, change], ...], first match wins (20.3)",
            keys="weather",
            shape=Each(Each("list[int]")),
        ),
        "weather_rule": Param("", "str", "rule cited for weather changes"),
        "entry_cost": Param(
            "free",
            "str",
            "what a unit entering the map pays for its entry hex: 'free' or 'terrain' "
            "(its terrain cost, as any hex entered)",
        ),
        "impassable_sides": Param(
            (),
            "list[str]",
            "hexside features no unit ever crosses, bridged or not, even by "
            "the minimum move (seed 004 13.4.4: all-sea)",
            names="features",
        ),
        "impassable_rule": Param("", "str", "rule cited for an impassable hexside"),
        "cost_modifiers": Param(
            (),
            "list",
            "[{ weather, terrain | features | leaving, add | multiply | set }]: costs "
            "changed in some weathers (seed 003 3.2: sand storm x2)",
            shape=Each(
                Table(
                    {
                        **dict.fromkeys(("weather", "terrain", "features", "leaving"), "any"),
                        **dict.fromkeys(("add", "multiply", "set"), "float"),
                    }
                )
            ),
        ),
        "exit_multiplier": Param(
            {},
            "table",
            "terrain -> factor on the cost of the next hex entered from it (seed 003 4.3: { minefield = 2 })",
            keys="terrain",
            shape=Each("int"),
        ),
        "allowance_modifiers": Param(
            (),
            "list",
            "[{ kinds, flags, sides, weather, cap | add | set }]: the first that "
            "matches a unit changes its allowance (seed 001 9.2)",
            shape=Each(Table(selector_keys(weather="any", cap="float", add="float", set="float"))),
        ),
        "enterable_enemy": Param(
            {},
            "table",
            "{ kinds, flags, extra_cost, not_by }: an enemy hex holding only such units "
            "may be entered for extra_cost more MP, not by not_by units (seed 001 4.2)",
            shape=Table(selector_keys(extra_cost="float", not_by="any")),
        ),
        "zoc_exceptions": Param(
            (),
            "list",
            "[{ units, proof, not_past, joint, rule_ref, not_past_rule }]: units that may cross an "
            "enemy zone of control by a special move (seed 001 4.3, 12; breakthrough.py)",
            shape=Each(
                Table(
                    {"units": "selector", "not_past": "selector", "proof": "str", "joint": "bool"}
                    | dict.fromkeys(("rule_ref", "not_past_rule"), "str"),
                    required=("units",),
                )
            ),
        ),
        **ZOC_PARAMS,
    },
)
def movement_allowance(state: GameState, ctx: RuleContext, p: Mapping[str, Any]) -> list[Finding]:
    """Movement allowances the weather changes, as the units on the map and in boxes have them."""
    rules = movement_rules(p)
    voc = ctx.terrain.vocabulary  # the names of cost_modifiers, a list of tables the pack loader cannot check
    cost_modifiers(p["cost_modifiers"], {"terrain": voc.terrain, "features": voc.features})
    changed: Counter[tuple[int, int]] = Counter()
    for unit in state.units.values():
        now = allowance(unit, state.weather, rules)
        if now != unit.movement:
            changed[(unit.movement, now)] += 1
    if not changed:
        return []
    ref = f" [{rules.weather_ref}]" if rules.weather_ref else ""
    pairs = ", ".join(
        f"{a}->{b} ({n} unit{'s' if n != 1 else ''})" for (a, b), n in sorted(changed.items(), reverse=True)
    )
    return [
        Finding(
            ctx.cite(),
            Severity.INFO,
            f"{weather_name(state.weather).capitalize()} weather: movement allowances are reduced: {pairs}{ref}",
        )
    ]


@register(
    "weather.effects",
    params={
        "ground_support": Param(
            {}, "table", "weather -> the side's ground support points (20.1)", keys="weather", shape=Each("int")
        ),
        "ground_support_side": Param("Axis", "str", "the side that receives ground support points"),
        "closed_hexsides": Param(
            {},
            "table[list[str]]",
            "weather -> hexside features closed to movement, attack and ZOC (20.2)",
            keys="weather",
            names="features",
        ),
        "bridge_features": Param(
            ("bridge",), "list[str]", "features that keep a closed hexside open", names="features"
        ),
        "table_rule": Param("", "str", "the rule of the weather table, cited with the weather"),
        "support_rule": Param("", "str", "the rule of the ground support points"),
        "hexside_rule": Param("", "str", "the rule of the closed hexsides"),
    },
)
def weather_effects(state: GameState, ctx: RuleContext, p: Mapping[str, Any]) -> list[Finding]:
    """This turn's weather and what it does: ground support points, closed hexsides."""

    def ref(key: str) -> str:
        return f" [{p[key]}]" if p[key] else ""

    if state.weather is None:
        return [
            Finding(
                ctx.cite(),
                Severity.INFO,
                "the weather is not known (no turn, or a turn the weather "
                f"table does not give){ref('table_rule')}: give --weather",
            )
        ]
    w = weather_name(state.weather)
    turn = f"Turn {state.turn}: " if state.turn is not None else ""
    parts = [f"{turn}{w} weather{ref('table_rule')}"]
    table = {weather_name(k): v for k, v in p["ground_support"].items()}
    if w in table:
        parts.append(f"{p['ground_support_side']} ground support points: {table[w]}{ref('support_rule')}")
    closed = {weather_name(k): _words(v, f"closed_hexsides.{k}") for k, v in p["closed_hexsides"].items()}
    if closed.get(w):
        bridges = " or ".join(sorted(p["bridge_features"]))
        sides = sum(
            1
            for feats in ctx.terrain.side_features.values()
            if feats & closed[w] and not feats & set(p["bridge_features"])
        )
        parts.append(
            f"no movement, attack or zone of control across {' or '.join(sorted(closed[w]))} hexsides "
            f"without a {bridges} ({sides} on this map){ref('hexside_rule')}"
        )
    return [Finding(ctx.cite(), Severity.INFO, "; ".join(parts))]


@register(
    "zoc.engaged",
    params={
        **ZOC_PARAMS,
        "combat_phases": Param({}, "table", "phase id -> the side whose combat phase it is", shape=Each("str")),
        "movement_phases": Param({}, "table", "phase id -> the side whose movement phase it is", shape=Each("str")),
        "must_attack": Param(True, "bool", "units in an enemy ZOC must attack in their combat phase"),
        "withdrawal_rule": Param("", "str", "the rule that lets units leave enemy ZOC (19.2)"),
    },
)
def zoc_engaged(state: GameState, ctx: RuleContext, p: Mapping[str, Any]) -> list[Finding]:
    """The phasing side's units in an enemy zone of control, and what the rules oblige them to do."""
    rules = zoc_rules(p)
    phase = state.phase or ""
    combat, moving = p["combat_phases"].get(phase), p["movement_phases"].get(phase)
    side = combat or moving
    if side is None or rules.mode == "none":
        return []
    zoc = enemy_zoc(state, ctx.terrain, side, rules)
    engaged = sorted(
        (ctx.label(h), uid)
        for uid in state.units
        if state.units[uid].side == side and (h := state.hex_of(uid)) is not None and h in zoc
    )
    if not engaged:
        return []
    names = ", ".join(f"{state.units[uid].name} ({lab})" for lab, uid in engaged)
    if combat is not None:
        if not p["must_attack"]:
            return []
        duty = "must attack this combat phase (standard rules; assumption zoc_mode)"
    else:
        via = f" ({p['withdrawal_rule']})" if p["withdrawal_rule"] else ""
        duty = {
            "sticky": "may not leave it this movement phase unless the side withdraws" + via,
            "no-entry": "may leave it but may not enter an enemy zone of control this phase",
        }.get(rules.mode, "must stop on entering an enemy zone of control")
    return [
        Finding(
            ctx.cite(),
            Severity.INFO,
            f"{len(engaged)} {side} unit{'s' if len(engaged) != 1 else ''} in an enemy zone of control {duty}: {names}",
            tuple(uid for _, uid in engaged),
            tuple(lab for lab, _ in engaged),
        )
    ]
