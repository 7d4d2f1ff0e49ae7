"""Reading the victory terms of a pack (``victory.conditions``, ``victory.tally``) into
`Term`s (victory_terms.py): what a term may say and what it may not, each problem a ValueError
naming the key (the engine makes it a PackError).

Beyond the kinds of victory_terms.py, two keys weigh or date what a term counts:

- ``value = { fields, by_kind }`` on a ``box`` or ``exited`` item: `points` per point of each
  unit's value, its printed `fields` added (``by_kind`` gives other fields for some unit
  kinds). Seed 000 22.11: "Attack plus Defense Strengths for non-Artillery units; Barrage, FPF
  and Defense Strengths for Artillery units"; seed 003 Sc.2: "1 victory point for each French
  step eliminated" (``fields = ["steps"]``).
- ``turns = [first, last]`` on a place with ``at = "first-entry"``: the entry scores only on a
  turn within (seed 000 22.41.1: "if on or before Game-Turn Three"), as a declaration does in
  ``declared.turns`` (seed 003 Sc.4: "on June 7th or earlier").
- ``before_declared = { marker, box }`` on a first-entry place or an ``exited`` item: it counts
  only on a turn before the one the marker is declared in (a box matching `box`, group 1 the
  turn). Seed 000 22.41.7: "the instant the first Axis unit enters Tebessa (hex 0306) on any
  Game-Turn preceeding the Axis Withdrawal"; 22.43.1: "each Axis unit exited from any Allied
  Supply Source hex preceding an Axis Withdrawal".
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from vassal_adj.rules.engine import RuleContext
from vassal_adj.rules.mechanisms.victory_rules import _sub
from vassal_adj.rules.mechanisms.victory_terms import Control, Event, Term
from vassal_adj.rules.mechanisms.victory_values import UnitValue
from vassal_adj.rules.select import selector_at

__all__ = ["read_control", "read_term"]

_INT, _STR, _LIST, _TABLE = (int,), (str,), (list, tuple), (Mapping,)
_AT = ("end", "first-entry", "last-occupier")
_PER = ("place", "hex", "unit")
_KINDS = ("place", "box", "steps_lost", "exited", "declared")
_TERM = {
    "side": _STR,
    "name": _STR,
    "rule_ref": _STR,
    "points": _INT,
    "count": _INT,
    "place": (str, list, tuple),
    "at": _STR,
    "per": _STR,
    "box": _STR,
    "units": _TABLE,
    "control": _TABLE,
    "steps_lost": _TABLE,
    "exited": _TABLE,
    "declared": _TABLE,
    "reduced_flag": _STR,
    "value": _TABLE,
    "turns": _LIST,
    "before_declared": _TABLE,
}
_FIELDS = ("attack", "defense", "barrage", "fpf", "range", "steps", "movement")


def read_control(spec: Any, path: str = "control") -> Control:
    c = _sub(spec, path, {}, {"units": _TABLE, "requires": _LIST})
    requires = frozenset(c.get("requires", ()))
    if bad := sorted(requires - {"supplied"}):
        raise ValueError(f"{path}.requires: unknown requirement {bad[0]!r} (known: supplied)")
    return Control(selector_at(c.get("units", {}), f"{path}.units"), requires)


def read_term(ctx: RuleContext, spec: Any, path: str, side: str | None, p: Mapping[str, Any]) -> Term:
    s = _sub(spec, path, {}, _TERM)
    side = s.get("side", side)
    if side is None:
        raise ValueError(f"{path}: missing side")
    kinds = [k for k in _KINDS if k in s]
    if len(kinds) != 1:
        raise ValueError(f"{path}: give exactly one of {', '.join(_KINDS)} (got {', '.join(kinds) or 'none'})")
    for key, takes in (("turns", ("place",)), ("value", ("box", "exited")), ("before_declared", ("place", "exited"))):
        if key in s and kinds[0] not in takes:
            raise ValueError(f"{path}.{key}: only a {' or '.join(takes)} item takes it")
    common = {"side": side, "points": s.get("points", 0), "rule_ref": s.get("rule_ref", ""), "count": s.get("count", 1)}
    if common["count"] < (0 if kinds == ["place"] else 1):
        raise ValueError(
            f"{path}.count: expected {'0 (all) or more' if kinds == ['place'] else '1 or more'}, got {common['count']}"
        )
    if kinds == ["place"]:
        specs = [s["place"]] if isinstance(s["place"], str) else list(s["place"])
        at = s.get("at", "end")
        if at not in _AT:
            raise ValueError(f"{path}.at: expected one of {', '.join(_AT)}, got {at!r}")
        per = s.get("per", "place")
        if per not in _PER or (per != "place" and at != "end"):
            raise ValueError(
                f"{path}.per: expected one of {', '.join(_PER)} (hex and unit only with at = 'end'), got {per!r}"
            )
        own = read_control(s["control"], f"{path}.control") if "control" in s else None
        if at != "end" and (own or read_control(p["control"])).requires:
            # a supply search in every state given is not what "entered" or "last occupied" asks
            raise ValueError(
                f"{path}: control requirements (requires) apply only with at = 'end'; give this "
                "place its own control = { units } without them"
            )
        for key in ("turns", "before_declared"):
            if key in s and at != "first-entry":
                raise ValueError(f"{path}.{key}: a window of turns applies to at = 'first-entry' only")
        return Term(
            "place",
            name=s.get("name", ", ".join(specs)),
            hexes=ctx.hexes(specs, f"{path}.place"),
            at=at,
            per=per,
            control=own,
            turns=_turns(s, f"{path}.turns"),
            closed_by=_event(s, f"{path}.before_declared"),
            **common,
        )
    if kinds == ["declared"]:
        d = _sub(s["declared"], f"{path}.declared", {"marker": _STR, "box": _STR}, {"turns": _LIST})
        return Term("declared", name=d["marker"], box=d["box"], turns=_turns(d, f"{path}.declared.turns"), **common)
    units = selector_at(s.get("units", {}), f"{path}.units")
    value = _value(s["value"], f"{path}.value") if "value" in s else None
    if kinds == ["box"]:
        return Term("box", name=s.get("name", s["box"]), box=s["box"], units=units, value=value, **common)
    if kinds == ["steps_lost"]:
        return Term(
            "steps",
            name=s.get("name", "steps lost"),
            units=selector_at(s["steps_lost"], f"{path}.steps_lost"),
            box=_box(s.get("box", p["eliminated_box"]), f"{path}.box", "eliminated_box"),
            reduced_flag=s.get("reduced_flag", "reduced"),
            **common,
        )
    e = _sub(s["exited"], f"{path}.exited", {}, {"box": _STR, "via": _LIST, "count": _INT})
    if not units.sides:  # exits are the side's own units unless the selector says otherwise
        units = replace(units, sides=frozenset({side}))
    via = frozenset(ctx.hexes(e["via"], f"{path}.exited.via")) if "via" in e else None
    common["count"] = e.get("count", common["count"])
    if value is not None and common["count"] != 1:
        raise ValueError(f"{path}.value: points by value go per unit, so exited.count must be 1")
    box = _box(e.get("box", p["exited_box"]), f"{path}.exited.box", "exited_box")
    return Term(
        "exited",
        name=s.get("name", "exits"),
        box=box,
        via=via,
        units=units,
        value=value,
        closed_by=_event(s, f"{path}.before_declared"),
        **common,
    )


def _event(s: Mapping[str, Any], path: str) -> Event | None:
    if "before_declared" not in s:
        return None
    d = _sub(s["before_declared"], path, {"marker": _STR, "box": _STR})
    return Event(d["marker"], d["box"])


def _box(name: str, path: str, shared: str) -> str:
    """The box an item reads: the engine knows no module's box names, so the pack gives it."""
    if not name:
        raise ValueError(f"{path}: name the box (or give {shared} for every item)")
    return name


def _turns(s: Mapping[str, Any], path: str) -> tuple[int, int] | None:
    turns = s.get("turns")
    if turns is None:
        return None
    if len(turns) != 2 or not all(isinstance(t, int) and not isinstance(t, bool) for t in turns):
        raise ValueError(f"{path}: expected [first, last], got {list(turns)!r}")
    return turns[0], turns[1]


def _value(spec: Any, path: str) -> UnitValue:
    """``{ fields = [...], by_kind = { kind = [...] } }``: what a unit is worth, its printed values added."""
    v = _sub(spec, path, {"fields": _LIST}, {"by_kind": _TABLE})
    lists = {"fields": v["fields"], **{f"by_kind.{k}": f for k, f in v.get("by_kind", {}).items()}}
    for key, fields in lists.items():
        if not isinstance(fields, (list, tuple)) or not fields or (bad := [f for f in fields if f not in _FIELDS]):
            got = fields if not isinstance(fields, (list, tuple)) or not fields else bad[0]
            raise ValueError(f"{path}.{key}: expected a list of {', '.join(_FIELDS)}, got {got!r}")
    return UnitValue(tuple(v["fields"]), {k: tuple(f) for k, f in v.get("by_kind", {}).items()})
