"""The rule ``air.range``: air units on the map within range of a base of their side, based only
where a base is, and flying only over the hexes their class may (RULES-MAP N29).

seed 004 20.3: "Range is the number of hexes the unit can fly a mission from a friendly Staging
Area or functional airfield ... Units with a 'U' (unlimited) range factor can fly anywhere on the
map"; 20.2.2 "Air units may conduct missions from friendly functional airfields" (a port or airfield
"is only considered to be functional if it contains a Garrison", 12.1); 20.4 "Air units may be
placed in enemy occupied hexes for attacks against them"; 24.4 "The British CVE unit ... may only
fly missions over coastal hexes. It otherwise has unlimited range."

A base is drawn from the position (`bases`, as ``supply.loc`` draws its sources): the places of a
kind, or the places named, whose hexes hold a unit of the side that `holding` selects; or the hexes
of an `edge` off which a `box` (a Staging Area) lies, `offset` hexes further (the box is off the
map: the edge hex is the first hex flown). What one save shows of a picked unit on the map:

- in a base hex of its side (not an edge): based there, nothing more to judge (its capacity is the
  stacking rule's, 10.1);
- in a hex holding a unit the side may fly a mission against (`targets`, by default any enemy
  unit): on a mission, so some base must lie within its range, and (`over`) its hex must be one
  its class may fly over;
- anywhere else: neither based nor on a mission, an error (20.2.2).

Units off the map (a Staging Area, the turn track) are not judged here; which box a side may use is
``movement.restricted``'s (26.1). A mission flown from a base that has since fallen cannot be told
from one flown out of range: the nearest base now is the one judged, and the finding names it.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from vassal_adj.model.geometry.hexes import Hex, distance, neighbors
from vassal_adj.model.state import GameState
from vassal_adj.model.units import Unit
from vassal_adj.rules.engine import RuleContext
from vassal_adj.rules.mechanisms.implementations import rule_ref, severity_of
from vassal_adj.rules.mechanisms.param_values import word
from vassal_adj.rules.mechanisms.supply_loc_rules import loc_sources
from vassal_adj.rules.param_shape import Each, Table
from vassal_adj.rules.registry import REQUIRED, Param, register
from vassal_adj.rules.results import Finding, Severity
from vassal_adj.rules.select import Selector, selector_at, unit_attribute

__all__ = ["Base", "air_bases", "air_range", "unit_range"]

_BASE = Table(
    {
        "place_kind": "str",
        "places": "list[str]",
        "edge": "str",
        "box": "str",
        "holding": "selector",
        "offset": "int",
        "name": "str",
    }
)
_OVER = Table(
    {"units": "selector", "hexes": "list[str]", "next_to": "list[str]", "rule_ref": "str"}, required=("units",)
)


@dataclass(frozen=True)
class Base:
    """A base of the side now: its `name`, its hexes, `offset` hexes added to a range measured from
    them (a box off the map edge), `via` why it is one ("held by Garrison 3 in 3321"), and whether
    units may be `based` in its hexes (an airfield, not the edge of a box)."""

    name: str
    hexes: tuple[Hex, ...]
    offset: int = 0
    via: str = ""
    based: bool = True


def air_bases(state: GameState, ctx: RuleContext, side: str, specs: Any) -> list[Base]:
    """The bases of `side` in this position, in the order of `specs` (see the module doc)."""
    out = []
    for i, spec in enumerate(specs):
        offset = spec.get("offset", 0)
        if isinstance(offset, bool) or not isinstance(offset, int) or offset < 0:
            raise ValueError(f"bases[{i}].offset: expected a whole number >= 0, got {offset!r}")
        if offset and "edge" not in spec:
            raise ValueError(f"bases[{i}].offset: an offset is for a box reached off an `edge`")
        plain = {k: v for k, v in spec.items() if k != "offset"}
        try:
            found = loc_sources(state, ctx, side, [plain])
        except ValueError as e:
            raise ValueError(str(e).replace("sources[0]", f"bases[{i}]")) from None
        out += [Base(s.name, s.hexes, offset, s.via, "edge" not in spec) for s in found]
    return out


def unit_range(unit: Unit, attr: str, unlimited: str) -> int | None | str:
    """A unit's range in hexes: the attribute `attr` of the unit, a whole number (or its digits); the
    word `unlimited` gives "unlimited"; None when the unit shows neither (not judged)."""
    v = unit_attribute(unit, attr)
    if isinstance(v, bool) or v is None:
        return None
    if isinstance(v, int):
        return v if v >= 0 else None
    if v.strip().casefold() == unlimited.casefold():
        return "unlimited"
    return int(v) if v.strip().isdigit() else None


def _nearest(h: Hex, bases: list[Base]) -> tuple[int, Base, Hex] | None:
    best = None
    for b in bases:
        for x in b.hexes:
            d = distance(h, x) + b.offset
            if best is None or d < best[0]:
                best = (d, b, x)
    return best


def _base_words(found: tuple[int, Base, Hex], ctx: RuleContext) -> str:
    d, b, x = found
    where = f"{b.name} off {ctx.label(x)}, {b.offset} hex(es) beyond it" if b.offset else f"{b.name} {ctx.label(x)}"
    via = f" ({b.via})" if b.via else ""
    return f"{d} hexes from its nearest base, {where}{via}"


@dataclass(frozen=True)
class _Over:
    units: Selector
    hexes: frozenset[Hex] | None
    next_to: frozenset[Hex] | None
    rule_ref: str
    words: str


def _overs(ctx: RuleContext, value: Any, ref: str) -> list[_Over]:
    out = []
    for i, o in enumerate(value):
        at = f"over[{i}]"
        if "hexes" not in o and "next_to" not in o:
            raise ValueError(f"{at}: expected 'hexes', 'next_to' or both (the hexes the units may fly over)")
        hexes = frozenset(ctx.hexes(o["hexes"], f"{at}.hexes")) if "hexes" in o else None
        near = frozenset(ctx.hexes(o["next_to"], f"{at}.next_to")) if "next_to" in o else None
        words = " ".join(
            [
                " or ".join(o["hexes"]) if "hexes" in o else "a hex",
                *([f"next to {' or '.join(o['next_to'])}"] if "next_to" in o else []),
            ]
        )
        out.append(_Over(selector_at(o["units"], f"{at}.units"), hexes, near, o.get("rule_ref", ref), words))
    return out


def _may_fly_over(h: Hex, o: _Over) -> bool:
    if o.hexes is not None and h not in o.hexes:
        return False
    return o.next_to is None or any(n in o.next_to for n in neighbors(h))


@register(
    "air.range",
    params={
        "side": Param(REQUIRED, "str", "the side whose air units are judged"),
        "units": Param(REQUIRED, "selector", "the air units (e.g. { flags = ['air'] })"),
        "bases": Param(
            REQUIRED,
            "list",
            "the bases: { place_kind | places | edge, holding = selector, box, offset = n, name } (20.2, 20.3)",
            shape=Each(_BASE),
        ),
        "range": Param("attr:range", "str", "the unit attribute that gives its range in hexes ('attr:<name>')"),
        "unlimited": Param("U", "str", "the range value that means any distance (20.3 'U')"),
        "targets": Param({}, "selector", "the units a mission may be flown against (default: any enemy unit)"),
        "over": Param(
            (),
            "list",
            "{ units = selector, hexes = [regions], next_to = [regions], rule_ref }: "
            "what those units may fly over (24.4)",
            shape=Each(_OVER),
        ),
        "basing_rule": Param("", "str", "the rule cited for a unit neither based nor on a mission (20.2.2)"),
        "severity": Param("error", "str", "the severity of a finding"),
    },
)
def air_range(state: GameState, ctx: RuleContext, p: Mapping[str, Any]) -> list[Finding]:
    """Air units on the map within range of a base of their side, based only at a base, over hexes they may fly."""
    side, ref = word(p["side"], "side"), rule_ref(ctx)
    basing_ref = p["basing_rule"] or ref
    attr = p["range"]
    if not isinstance(attr, str) or not attr.startswith("attr:") or not attr[5:]:
        raise ValueError(f"range: expected 'attr:<name>' (the unit attribute of its range), got {attr!r}")
    picked = selector_at(p["units"], "units")
    targets = selector_at(p["targets"], "targets") if p["targets"] else None
    severity = severity_of(p["severity"])
    bases = air_bases(state, ctx, side, p["bases"])
    overs = _overs(ctx, p["over"], ref)
    based_at = {h for b in bases if b.based for h in b.hexes}
    cite = ctx.cite()
    out: list[Finding] = []
    for uid, unit in sorted(state.units.items()):
        h = state.hex_of(uid)
        if h is None or unit.side != side or not picked.matches(unit):
            continue
        here = ctx.label(h)
        name = f"{side} {unit.name} in {here}"
        against = [
            o
            for o in state.units_at(h)
            if o.side != side and (targets is None or targets.matches(o, units=state.units))
        ]
        if h in based_at and not against:
            continue
        if not against:
            msg = (
                f"{name} is neither at a base of its side nor on a mission against an enemy unit "
                f"in its hex [{basing_ref}]"
            )
            out.append(Finding(cite, severity, msg, (uid,), (here,)))
            continue
        for o in overs:
            if o.units.matches(unit) and not _may_fly_over(h, o):
                msg = f"{name} flies a mission over a hex that is not {o.words} [{o.rule_ref}]"
                out.append(Finding(cite, severity, msg, (uid,), (here,)))
        reach = unit_range(unit, attr[5:], p["unlimited"])
        if reach == "unlimited":
            continue
        if reach is None:
            msg = f"{name}: its range ({attr}) is not a number, so whether a base is in range is not judged [{ref}]"
            out.append(Finding(cite, Severity.INFO, msg, (uid,), (here,)))
            continue
        near = _nearest(h, bases)
        if near is None:
            msg = f"{name} flies a mission with no base of its side in this position [{ref}]"
            out.append(Finding(cite, severity, msg, (uid,), (here,)))
        elif near[0] > reach:
            msg = f"{name} is {_base_words(near, ctx)}: beyond its range of {reach} [{ref}]"
            out.append(Finding(cite, severity, msg, (uid,), (here,)))
    return out
