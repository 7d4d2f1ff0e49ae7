"""The rule ``supply.loc``: supply by lines of communication whose length comes from each unit, to
sources that exist while something holds them (RULES-MAP N10; the search is supply_loc.py).

seed 004 12.4: "Allies: A Garrison unit in any port hex. Axis: 1) A Garrison
unit in any airfield or supply source hex (Roma, San Benedetto) 2) Axis Staging Area", and 26.2:
"Axis units in mainland Italy can trace a LOC to the Axis Staging Area off all north map edge land
hexes". A source is drawn from the position each time (`sources`): the places of a kind, or the
places named, whose hexes hold a friendly unit `holding` selects; or the hexes of an `edge` off
which a `box` is reached. 12.4/26.2 "units in the Staging Area are always in supply" and 12.3 "A
unit in the same hex as a Garrison is always In Supply even if in an EZOC" are `always_supplied`.
Every finding names the unit, the source reached and the path, or why none is in reach.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from vassal_adj.model.geometry.hexes import Hex
from vassal_adj.model.state import GameState
from vassal_adj.model.units import Unit
from vassal_adj.rules.engine import RuleContext
from vassal_adj.rules.mechanisms.implementations import obstruction_flags, rule_ref, severity_of
from vassal_adj.rules.mechanisms.movement_rules import ZOC_SHAPE_PARAMS, zoc_rules
from vassal_adj.rules.mechanisms.prohibition import Prohibition
from vassal_adj.rules.mechanisms.supply import SupplyRules, obstructed_hexes
from vassal_adj.rules.mechanisms.supply_loc import (
    SLOW_LENGTHS,
    SOURCE_POLICIES,
    LocRules,
    LocSource,
    LocStatus,
    loc_supply,
)
from vassal_adj.rules.mechanisms.supply_loc_words import LocWords
from vassal_adj.rules.mechanisms.zoc import enemy_zoc, zoc_sources
from vassal_adj.rules.param_shape import Each, Table
from vassal_adj.rules.registry import REQUIRED, Param, register
from vassal_adj.rules.results import Finding, Severity
from vassal_adj.rules.select import selector_at, unit_attribute

__all__ = ["LocCheck", "loc_check", "loc_sources", "supply_loc", "unit_length"]

_SOURCE = Table(
    {"place_kind": "str", "places": "list[str]", "edge": "str", "box": "str", "holding": "selector", "name": "str"}
)
_KINDS = ("place_kind", "places", "edge")


def unit_length(unit: Unit, length: str) -> int | None:
    """A unit's LOC length: `length` is a whole number, or "attr:<name>" of the unit (12.2: its
    printed MF, "attr:movement"); None when the unit has no such whole number."""
    if length.startswith("attr:"):
        v = unit_attribute(unit, length[5:])
        return v if isinstance(v, int) and not isinstance(v, bool) and v >= 0 else None
    if length.isdigit():
        return int(length)
    raise ValueError(f"length: expected a whole number or 'attr:<name>' (12.2: 'attr:movement'), got {length!r}")


def loc_sources(state: GameState, ctx: RuleContext, side: str, specs: Any) -> list[LocSource]:
    """The sources of `side` in this position, in the order of `specs` (see the module doc)."""
    out: list[LocSource] = []
    for i, spec in enumerate(specs):
        at = f"sources[{i}]"
        kinds = [k for k in _KINDS if k in spec]
        if len(kinds) != 1:
            raise ValueError(f"{at}: give exactly one of {', '.join(_KINDS)}, got {kinds or 'none'}")
        if "box" in spec and "edge" not in spec:
            raise ValueError(f"{at}.box: a box is reached off an `edge`")
        holding = selector_at(spec["holding"], f"{at}.holding") if "holding" in spec else None
        if "place_kind" in spec:
            groups = [(p.name, p.hexes) for p in ctx.terrain.places(spec["place_kind"])]
        elif "places" in spec:
            groups = [(s, ctx.hexes((s,), f"{at}.places")) for s in spec["places"]]
        else:
            groups = [(spec.get("box") or spec["edge"], ctx.hexes((spec["edge"],), f"{at}.edge"))]
        for name, hexes in groups:
            if holding is None:
                out.append(LocSource(spec.get("name", name), tuple(hexes)))
                continue
            held = {
                h: [u for u in state.units_at(h) if u.side == side and holding.matches(u, units=state.units)]
                for h in hexes
            }
            held = {h: us for h, us in held.items() if us}
            if held:
                who = " and ".join(f"{u.name} in {ctx.label(h)}" for h, us in held.items() for u in us)
                out.append(LocSource(spec.get("name", name), tuple(held), f"held by {who}"))
    return out


def _prohibitions(p: Mapping[str, Any]) -> tuple[Prohibition, ...]:
    return tuple(
        Prohibition(t, frozenset(cs), frozenset(p["except_classes"]), frozenset(p["through"]))
        for t, cs in p["prohibited"].items()
    )


@dataclass(frozen=True)
class LocCheck:
    """One side's supply by LOC in a position, before it is put in words: `always` (unit id -> the
    box it is in, or the units of its hex that keep it in supply), `unjudged` (unit id -> its hex: no
    length in the files), `statuses` (the LOC of every other unit), the `sources` of the position and the enemy
    `zoc`. A rule that needs the source each unit reaches (12.5, 8.2) reads `statuses`."""

    always: Mapping[str, str | tuple[Unit, ...]]
    unjudged: Mapping[str, Hex]
    statuses: Mapping[str, LocStatus]
    sources: tuple[LocSource, ...]
    zoc: frozenset[Hex]


def loc_check(state: GameState, ctx: RuleContext, p: Mapping[str, Any]) -> LocCheck:
    """The `LocCheck` of a ``supply.loc`` rule's parameters `p` (its `side`) in `state`."""
    side = p["side"]
    rules = LocRules(
        frozenset(p["fast_terrain"]),
        frozenset(p["fast_features"]),
        p["slow_length"],
        _prohibitions(p),
        frozenset(p["closed_sides"]),
        p["source_in_enemy_zoc"],
        p["horizon"],
    )
    units = selector_at(p["units"], "units")
    always_p = p["always_supplied"]
    boxes = frozenset(always_p.get("boxes", ()))
    stacked = (
        selector_at(always_p["stacked_with"], "always_supplied.stacked_with") if "stacked_with" in always_p else None
    )
    ob = obstruction_flags(p["obstruction"])
    how = SupplyRules(
        initial=0,
        enemy_units_obstruct=ob["enemy_units"],
        enemy_zoc_obstructs=ob["enemy_zoc"],
        friendly_negates_zoc=ob["friendly_negates_zoc"],
    )
    zoc = enemy_zoc(state, ctx.terrain, side, zoc_rules(p), purpose="supply") if ob["enemy_zoc"] else frozenset()
    always: dict[str, str | tuple[Unit, ...]] = {}
    unjudged: dict[str, Hex] = {}
    trace: list[tuple[str, Hex, int]] = []
    for uid, pos in state.positions.items():
        unit = state.units.get(uid)
        if unit is None or unit.side != side or not units.matches(unit, pos.box, state.units):
            continue
        if pos.hex is None:
            # A unit in any other box (eliminated, on the turn track) is out of play: no supply to judge.
            for box in (pos.box, pos.named.name if pos.named else None):
                if box in boxes:
                    always[uid] = box
                    break
            continue
        if stacked is not None and (
            with_ := tuple(
                u
                for u in state.units_at(pos.hex)
                if u.id != uid and u.side == side and stacked.matches(u, units=state.units)
            )
        ):
            always[uid] = with_
        elif (n := unit_length(unit, p["length"])) is None:
            unjudged[uid] = pos.hex
        else:
            trace.append((uid, pos.hex, n))
    sources = tuple(loc_sources(state, ctx, side, p["sources"]))
    statuses = loc_supply(state, ctx.terrain, trace, rules, sources, obstructed_hexes(state, side, how, zoc))
    return LocCheck(always, unjudged, statuses, sources, zoc)


@register(
    "supply.loc",
    params={
        "side": Param(REQUIRED, "str", "the side whose units are checked"),
        "units": Param({}, "selector", "which units of the side trace a LOC (12.2: ground units)"),
        "length": Param("attr:movement", "str", "a LOC's length in hexes: a number or 'attr:<name>' (12.2: MF)"),
        "slow_length": Param("half-up", "str", f"a path not wholly fast: one of {', '.join(SLOW_LENGTHS)} (12.2)"),
        "fast_terrain": Param((), "list[str]", "terrain whose hexes are fast to enter (12.2: open)", names="terrain"),
        "fast_features": Param((), "list[str]", "hexside features fast to follow (12.2: roads)", names="features"),
        "prohibited": Param(
            {}, "table[list[str]]", "terrain -> unit classes no LOC of theirs enters (12.3)", keys="terrain"
        ),
        "except_classes": Param((), "list[str]", "classes `prohibited` never bars"),
        "through": Param(
            (), "list[str]", "hexside features along which barred terrain may be traced (12.3: road)", names="features"
        ),
        "closed_sides": Param((), "list[str]", "hexside features no LOC crosses", names="features"),
        "sources": Param(
            REQUIRED,
            "list",
            "the sources: { place_kind | places | edge, holding = selector, box, name } (12.4)",
            shape=Each(_SOURCE),
        ),
        "always_supplied": Param(
            {},
            "table",
            "{ boxes = [...], stacked_with = selector }: units always in supply (12.3, 26.2)",
            shape=Table({"boxes": "list[str]", "stacked_with": "selector"}),
        ),
        "source_in_enemy_zoc": Param(
            "own-hex", "str", f"a blocked source hex: one of {', '.join(SOURCE_POLICIES)} (12.3: own-hex)"
        ),
        "obstruction": Param(
            {},
            "table",
            "what blocks a LOC: { enemy_units, enemy_zoc, friendly_negates_zoc } (each true when left out; 12.3)",
            shape=Table({"enemy_units": "bool", "enemy_zoc": "bool", "friendly_negates_zoc": "bool"}),
        ),
        **ZOC_SHAPE_PARAMS,
        "horizon": Param(4, "int", "hexes past the allowance searched, to say how far the nearest source is"),
        "report_paths": Param(True, "bool", "an info finding per unit in supply, with its source and path"),
        "severity": Param("warning", "str", "severity of out of supply: 'warning' or 'info' (a status)"),
    },
)
def supply_loc(state: GameState, ctx: RuleContext, p: Mapping[str, Any]) -> list[Finding]:
    """Supply by a LOC of each unit's length to sources held in the position (RULES-MAP N10)."""
    side, severity = p["side"], severity_of(p["severity"])
    if severity == Severity.ERROR:
        raise ValueError("severity: out of supply is a status, not a violation: 'warning' or 'info'")
    check = loc_check(state, ctx, p)
    by = zoc_sources(state, ctx.terrain, side, zoc_rules(p), ctx.label)
    words = LocWords(state, ctx, side, by, check.zoc, check.sources)
    ref = rule_ref(ctx)
    cite = f" [{ref}]" if ref else ""
    out: list[Finding] = []
    for uid, why in check.always.items() if p["report_paths"] else ():
        unit, h = state.units[uid], state.hex_of(uid)
        if isinstance(why, str):
            msg = f"{side} {unit.name} in {why} is in supply: units there always are{cite}"
            out.append(Finding(ctx.cite(), Severity.INFO, msg, (uid,)))
        elif h is not None:
            at, names = ctx.label(h), " and ".join(u.name for u in why)
            msg = f"{side} {unit.name} in {at} is in supply: stacked with {names}{cite}"
            out.append(Finding(ctx.cite(), Severity.INFO, msg, (uid, *(u.id for u in why)), (at,)))
    for uid, h in check.unjudged.items():
        unit, at = state.units[uid], ctx.label(h)
        why = f"its LOC length ({p['length']}) is not in the files"
        out.append(
            Finding(
                ctx.cite(),
                Severity.WARNING,
                f"{side} {unit.name} in {at}: supply not judged, {why}{cite}",
                (uid,),
                (at,),
            )
        )
    for st in check.statuses.values():
        unit, at = state.units[st.unit_id], ctx.label(st.hex)
        lead = f"{side} {unit.name} in {at}"
        if st.supplied and p["report_paths"]:
            msg = f"{lead} is in supply: {words.route(st)}{cite}"
            out.append(Finding(ctx.cite(), Severity.INFO, msg, (st.unit_id,), (at,)))
        elif not st.supplied:
            hexes = (at, *(ctx.label(h) for h in st.blocking))
            msg = f"{lead} is out of supply: {words.why_out(st)}{cite}"
            out.append(Finding(ctx.cite(), severity, msg, (st.unit_id,), hexes))
    fed = (*check.always, *(u for u, st in check.statuses.items() if st.supplied))
    judged, n_unjudged = len(check.always) + len(check.unjudged) + len(check.statuses), len(check.unjudged)
    summary = Finding(
        ctx.cite(),
        Severity.INFO,
        f"{len(fed)} of {judged} {side} units trace a LOC or are always in supply "
        f"({judged - len(fed) - n_unjudged} out of supply{f', {n_unjudged} not judged' if n_unjudged else ''}; "
        f"sources: {words.source_list()}){cite}",
        fed,
    )
    return [summary, *sorted(out, key=Finding.sort_key)]
