"""The registered adapters of the order of battle: ``setup.deployment`` and
``reinforcements.schedule`` (mechanisms in rules/mechanisms/setup.py); ``setup.constraints`` is
setup_constraints.py.

Each reads its parameters, checks their shape (a ValueError names the key path, e.g.
``groups[3].placement: expected 'exact', 'adjacent' or 'within', got 'near'``; the engine
makes it a PackError), turns labels into hexes on the board, and runs the mechanism.

When the set-up is checked: on a state with no Game-Turn and no phase (a set-up), and on
Game-Turn `frozen_turn` (RULES-MAP E6, N14: e.g. 1), when listed units not near the enemy may not
have moved. On later turns the set-up says nothing, and the rule reports nothing.

Events of conditional reinforcements (`after = "<event>"`) are defined by the `events`
parameter, one table per event, by what a single save can show of it:

- ``{ marker = "Allied Withdrawal" }``: the marker piece in a Game-Turn box (``boxes.turn``,
  or the event's own ``box``) means the event happened on that turn; elsewhere, not yet.
- ``{ side = "Axis", within = 9, of = ["1704", "0306"] }``: a unit of the side within that
  many hexes now means it happened (when, unknown); none now cannot tell, since the unit may
  have been there and left ("even if that Axis unit no longer occupied the hex", 23).
- ``{ unknown = "why" }``: nothing in one save shows it (e.g. the hex a unit exited by).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from typing import Any

from vassal_adj.model.geometry.hexes import Hex
from vassal_adj.model.state import GameState, TurnBoxes
from vassal_adj.rules.engine import RuleContext
from vassal_adj.rules.mechanisms.reinforcement_ext import RETURNS, check_returns, parse_returns
from vassal_adj.rules.mechanisms.setup import (
    DEFAULT_PHASES,
    PLACEMENTS,
    Deployment,
    Entry,
    Event,
    Group,
    Schedule,
    check_deployment,
    check_schedule,
    printed_key,
)
from vassal_adj.rules.mechanisms.setup_shapes import ENTRY, EVENTS, GROUP
from vassal_adj.rules.param_shape import Each, Table
from vassal_adj.rules.registry import REQUIRED, Param, register
from vassal_adj.rules.results import Finding, Severity

__all__ = ["BOX_ROLES", "deployment", "names", "one_hex", "parse_boxes", "parse_entry", "parse_event", "schedule",
           "table", "turn_pattern", "whole", "word"]

# The off-map boxes a schedule reads, by role; `{turn}` and `{side}` are filled in. The pack names
# them (`boxes`): the engine holds no module's box names. A role left out is a box not read.
BOX_ROLES = ("turn", "conditional", "eliminated", "exited")
_EVENT_KEYS = {"marker": {"marker", "box"}, "within": {"within", "side", "of"}, "unknown": {"unknown"}}


def table(value: Any, path: str, allowed: set[str], required: Iterable[str] = ()) -> Mapping[str, Any]:
    if not isinstance(value, Mapping):
        # ValueError, as for every bad parameter: the engine makes it a PackError
        raise ValueError(f"{path}: expected a table, got {value!r}")  # noqa: TRY004
    for k in value:
        if k not in allowed:
            raise ValueError(f"{path}.{k}: unknown key (known here: {', '.join(sorted(allowed))})")
    for k in sorted(required):
        if k not in value:
            raise ValueError(f"{path}.{k}: missing required key")
    return value


def whole(value: Any, path: str, least: int = 0) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < least:
        raise ValueError(f"{path}: expected a whole number >= {least}, got {value!r}")
    return value


def word(value: Any, path: str) -> str:
    if not isinstance(value, str) or not value.strip():
        raise ValueError(f"{path}: expected a non-empty string, got {value!r}")
    return value


def names(value: Any, path: str) -> tuple[str, ...]:
    if isinstance(value, str) or not isinstance(value, (list, tuple)) or not value:
        raise ValueError(f"{path}: expected a non-empty list of strings, got {value!r}")
    return tuple(word(v, f"{path}[{i}]") for i, v in enumerate(value))


def one_hex(ctx: RuleContext, spec: str, path: str) -> Hex:
    hexes = ctx.hexes([spec], path)
    if len(hexes) != 1:
        raise ValueError(f"{path}: expected one hex, got {spec!r} ({len(hexes)} hexes)")
    return hexes[0]


def parse_boxes(value: Mapping[str, Any], side: str, turn_kind: str = "") -> dict[str, str]:
    """The box names by role. The turn boxes are named, or read by their [boxes] kind `turn_kind`;
    then the name pattern is never consulted (TurnBoxes reads the kind), and "{turn}" stands in."""
    boxes = dict(table(value, "boxes", set(BOX_ROLES)))
    if "turn" not in boxes and not turn_kind:
        raise ValueError("boxes.turn: missing required key (the Game-Turn boxes' name, e.g. 'Turn {turn}'), "
                         "unless turn_box_kind reads them by kind")
    for k, v in boxes.items():
        word(v, f"boxes.{k}")
    return {"turn": "{turn}", **{k: v.replace("{side}", side) for k, v in boxes.items()}}


def turn_pattern(template: str, path: str) -> re.Pattern[str]:
    """A box name with '{turn}' in it as a pattern whose group 1 is the Game-Turn."""
    if "{turn}" not in template:
        raise ValueError(f"{path}: expected a name with '{{turn}}' in it, got {template!r}")
    return re.compile(re.escape(template).replace(re.escape("{turn}"), r"(\d+)"), re.IGNORECASE)


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
    return Group(at, one_hex(ctx, at, f"{path}.at"), placement, whole(g.get("distance", 0), f"{path}.distance"),
                 names(g["units"], f"{path}.units"))


@register("setup.deployment", params={
    "side": Param(REQUIRED, "str", "the side whose set-up is listed"),
    "groups": Param(REQUIRED, "list", "set-up groups: { at = hex, placement = 'exact'|'adjacent'|'within', "
                                      "distance = n (within only), units = [printed names] }",
                    shape=Each(GROUP)),
    "no_stacking": Param(True, "bool", "set-up units may not be stacked (23: 'Units may not be stacked')"),
    "frozen_turn": Param(0, "int", "the Game-Turn on which listed units may not move (23.72: 1); 0 for none"),
    "frozen_exempt_range": Param(10, "int", "units within this many hexes of an enemy unit may move then (23.72)"),
    "frozen_rule": Param("", "str", "the rule number cited for the frozen turn (default: the rule's own)"),
})
def deployment(state: GameState, ctx: RuleContext, p: Mapping[str, Any]) -> list[Finding]:
    """Set-up placement (exact hex, in or adjacent, within n hexes), no stacking, and units frozen on turn 1."""
    groups = tuple(_group(ctx, g, f"groups[{i}]") for i, g in enumerate(p["groups"]))
    if not groups:
        raise ValueError("groups: expected at least one set-up group")
    dep = Deployment(word(p["side"], "side"), groups, p["no_stacking"], whole(p["frozen_turn"], "frozen_turn"),
                     whole(p["frozen_exempt_range"], "frozen_exempt_range"), p["frozen_rule"],
                     ctx.rule.rule_ref if ctx.rule is not None else "")
    found = check_deployment(state, dep, rule=ctx.cite(), label=ctx.label)
    if state.turn is not None and state.turn != dep.frozen_turn or state.turn is None and state.phase is not None:
        return found
    # A referee wants the all-clear said, not inferred from silence.
    listed = {printed_key(n) for g in groups for n in g.units}
    ours = [uid for uid, u in state.units.items() if u.side == dep.side and printed_key(u.name) in listed]
    faulted = {uid for f in found if f.severity != Severity.INFO for uid in f.units}
    when = "at set-up" if state.turn is None else f"on Game-Turn {state.turn}"
    ok = sum(1 for uid in ours if uid not in faulted and state.hex_of(uid) is not None)
    summary = Finding(ctx.cite(), Severity.INFO, f"{ok} of {len(listed)} {dep.side} units of the initial deployment "
                                                 f"are on the map {when} with no set-up finding [{dep.rule_ref} set-up]")
    return [summary, *found]


# -- reinforcements --------------------------------------------------------------------------------
def parse_event(ctx: RuleContext, name: str, value: Any, turn_box: str, turn_kind: str = "") -> Event:
    path = f"events.{name}"
    kinds = [k for k in _EVENT_KEYS if k in table(value, path, set().union(*_EVENT_KEYS.values()))]
    if len(kinds) != 1:
        raise ValueError(f"{path}: expected exactly one of 'marker', 'within' or 'unknown', got {sorted(value)}")
    kind = kinds[0]
    e = table(value, path, _EVENT_KEYS[kind], _EVENT_KEYS[kind] - {"box"})
    if kind == "marker":
        box = turn_pattern(word(e.get("box", turn_box), f"{path}.box"), f"{path}.box")
        # An event's own box pattern says where its marker counts; else the turn boxes do.
        return Event(name, kind, marker=word(e["marker"], f"{path}.marker"),
                     box=TurnBoxes(box, "" if "box" in e else turn_kind))
    if kind == "within":
        at = names(e["of"], f"{path}.of")
        return Event(name, kind, side=word(e["side"], f"{path}.side"), at=at, hexes=ctx.hexes(at, f"{path}.of"),
                     distance=whole(e["within"], f"{path}.within"))
    return Event(name, kind, reason=word(e["unknown"], f"{path}.unknown"))




def _window(value: Any, path: str) -> tuple[int, int]:
    """`turns = [a, b]`: the entry may come on any Game-Turn from a to b (seed 003 Sc.2: "Italians
    may withhold any units to 1300")."""
    if isinstance(value, str) or not isinstance(value, (list, tuple)) or len(value) != 2:
        raise ValueError(f"{path}: expected [first, last] Game-Turns, got {value!r}")
    first, last = whole(value[0], f"{path}[0]", 1), whole(value[1], f"{path}[1]", 1)
    if last <= first:
        raise ValueError(f"{path}: expected the last Game-Turn after the first, got {value!r}")
    return first, last


def parse_entry(ctx: RuleContext, value: Any, path: str, events: Mapping[str, Event]) -> Entry:
    e = table(value, path, set(ENTRY.keys), set(ENTRY.required))
    if sum(k in e for k in ("turn", "turns", "after")) != 1:
        raise ValueError(f"{path}: expected exactly one of 'turn' (a Game-Turn) or 'after' (an event) or 'turns' "
                         "([first, last] Game-Turns)")
    if ("otherwise_turn" in e) != ("if_side_within" in e):
        raise ValueError(f"{path}: 'otherwise_turn' and 'if_side_within' go together")
    for key in ("otherwise_turn", "turns_after"):
        if key in e and ("turn" if key == "otherwise_turn" else "after") not in e:
            raise ValueError(f"{path}.{key}: only an entry with '{'turn' if key == 'otherwise_turn' else 'after'}' "
                             "takes it")
    at, units = names(e["at"], f"{path}.at"), names(e["units"], f"{path}.units")
    hexes = ctx.hexes(at, f"{path}.at")
    if "after" in e:
        name = word(e["after"], f"{path}.after")
        if name not in events:
            known = ", ".join(sorted(events)) or "none: add an `events` parameter"
            raise ValueError(f"{path}.after: unknown event {name!r} (events defined: {known})")
        return Entry(units, at, hexes, after=events[name], turns_after=whole(e.get("turns_after", 0),
                                                                            f"{path}.turns_after"))
    if "turns" in e:
        first, last = _window(e["turns"], f"{path}.turns")
        return Entry(units, at, hexes, turn=first, otherwise_turn=last)
    turn = whole(e["turn"], f"{path}.turn", 1)
    if "if_side_within" not in e:
        return Entry(units, at, hexes, turn=turn)
    cpath = f"{path}.if_side_within"
    c = table(e["if_side_within"], cpath, {"side", "hex", "distance"}, {"side", "hex", "distance"})
    spot = word(c["hex"], f"{cpath}.hex")
    condition = Event(f"{cpath}", "within", side=word(c["side"], f"{cpath}.side"), at=(spot,),
                      hexes=(one_hex(ctx, spot, f"{cpath}.hex"),), distance=whole(c["distance"], f"{cpath}.distance"))
    otherwise = whole(e["otherwise_turn"], f"{path}.otherwise_turn", 1)
    if otherwise <= turn:
        raise ValueError(f"{path}.otherwise_turn: expected a Game-Turn after turn {turn}, got {otherwise}")
    return Entry(units, at, hexes, turn=turn, otherwise_turn=otherwise, condition=condition)


@register("reinforcements.schedule", params={
    "side": Param(REQUIRED, "str", "the side whose reinforcements are listed"),
    "entries": Param(REQUIRED, "list", "entries: { turn = n | turns = [first, last] | after = event, turns_after = n, "
                                       "otherwise_turn = n, if_side_within = { side, hex, distance }, at = [hexes], units = [names] }",
                     shape=Each(ENTRY)),
    "events": Param({}, "table", "event name -> { marker = name [, box] } | { side, within = n, of = [hexes] } "
                                 "| { unknown = why }: how one save shows it (see rules/mechanisms/setup_rules.py)",
                    shape=EVENTS),
    "void_east_of_axis_exit": Param(False, "bool", "entries at or east of a hex an enemy unit exited by are void (23); "
                                                   "the exits come from the game's log"),
    "exit_hexes": Param((), "list[str]", "more hexes enemy units exited by, when a referee knows them and no log "
                                         "given shows them"),
    "boxes": Param({}, "table", "off-map box names by role: turn ('{turn}' filled in; required unless "
                                "turn_box_kind), conditional ('{side}'), eliminated, exited (a role left out: not read)",
                   shape=Table(dict.fromkeys(BOX_ROLES, "str"))),
    "turn_box_kind": Param("", "str", "the [boxes] kind of the turn boxes (their number is the Game-Turn); "
                                      "replaces boxes.turn in reading where units and event markers wait"),
    "phases": Param(DEFAULT_PHASES, "list[str]", "the phase ids of a Game-Turn, in order (23.71: Axis first)"),
    "movement_phase": Param("", "str", "the phase the side's units enter in (default '<side>-movement')"),
    "phase_rule": Param("", "str", "the rule number cited for the order of phases (e.g. 23.71)"),
    "returns": Param((), "list", "units that come back through the turn boxes: { units = selector, after = n | "
                                 "after_range = [lo, hi], to = 'Turn {turn}' (default: the turn boxes), rule_ref } "
                                 "(rules/mechanisms/reinforcement_ext.py)", shape=RETURNS),
})
def schedule(state: GameState, ctx: RuleContext, p: Mapping[str, Any]) -> list[Finding]:
    """Reinforcements by Game-Turn, condition or event: in play too early, or late (held back)."""
    side = word(p["side"], "side")
    boxes = parse_boxes(p["boxes"], side, p["turn_box_kind"])
    turn_box = turn_pattern(boxes["turn"], "boxes.turn")
    if p["void_east_of_axis_exit"] and "exited" not in boxes:
        raise ValueError("boxes.exited: missing required key for void_east_of_axis_exit (the box exited units go to)")
    events = {name: parse_event(ctx, name, v, boxes["turn"], p["turn_box_kind"]) for name, v in p["events"].items()}
    entries = tuple(parse_entry(ctx, e, f"entries[{i}]", events) for i, e in enumerate(p["entries"]))
    phases = tuple(p["phases"])
    movement = p["movement_phase"] or f"{side.lower()}-movement"
    if movement not in phases:
        raise ValueError(f"movement_phase: {movement!r} is not one of phases {list(phases)}")
    sch = Schedule(side, entries, movement, phases, TurnBoxes(turn_box, p["turn_box_kind"]),
                   frozenset(boxes[k].casefold() for k in ("conditional",) if k in boxes),
                   frozenset(boxes[k].casefold() for k in ("eliminated", "exited") if k in boxes),
                   boxes.get("exited", "").casefold(), p["void_east_of_axis_exit"], ctx.hexes(p["exit_hexes"], "exit_hexes"),
                   ctx.rule.rule_ref if ctx.rule is not None else "", p["phase_rule"])
    returns = parse_returns(p["returns"], sch.turn_box, sch.rule_ref)
    return [*check_schedule(state, sch, rule=ctx.cite(), label=ctx.label),
            *check_returns(state, returns, entries, side=side, rule=ctx.cite())]
