"""The registered adapter of the reinforcement schedule, ``reinforcements.schedule``
(mechanisms in rules/mechanisms/setup.py, reinforcement_units.py and reinforcement_ext.py; its
entries are read by reinforcement_entries.py).

It reads its parameters, checks their shape (a ValueError names the key path; the engine makes
it a PackError), turns labels into hexes on the board, and runs the mechanism.

Events of conditional reinforcements (`after = "<event>"`) are defined by the `events`
parameter, one table per event, by what a single save can show of it:

- ``{ marker = "Allied Withdrawal" }``: the marker piece in a Game-Turn box (``boxes.turn``,
  or the event's own ``box``) means the event happened on that turn; elsewhere, not yet.
- ``{ side = "Axis", within = 9, of = ["1704", "0306"] }``: a unit of the side within that
  many hexes now means it happened (when, unknown); none now cannot tell, since the unit may
  have been there and left ("even if that Axis unit no longer occupied the hex", 23). `of`
  may be a region ("row<=15"), and ``units = selector`` counts only the units it picks (seed
  004 7.1.1: "one or more Allied ground units occupy any hexes ... on or north of the hex row
  which includes Monte Cassino").
- ``{ unknown = "why" }``: nothing in one save shows it (e.g. the hex a unit exited by).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from vassal_adj.model.state import GameState, TurnBoxes
from vassal_adj.rules.engine import RuleContext
from vassal_adj.rules.mechanisms.param_values import names, table, whole, word
from vassal_adj.rules.mechanisms.reinforcement_check import Schedule, check_schedule
from vassal_adj.rules.mechanisms.reinforcement_entries import parse_entry
from vassal_adj.rules.mechanisms.reinforcement_ext import RETURNS, check_returns, parse_returns
from vassal_adj.rules.mechanisms.reinforcement_units import resolve
from vassal_adj.rules.mechanisms.setup import DEFAULT_PHASES, Entry, Event, printed_key
from vassal_adj.rules.mechanisms.setup_shapes import ENTRY, EVENTS
from vassal_adj.rules.param_shape import Each, Table
from vassal_adj.rules.registry import REQUIRED, Param, register
from vassal_adj.rules.results import Finding
from vassal_adj.rules.select import selector_at

__all__ = [
    "BOX_ROLES",
    "names",
    "parse_boxes",
    "parse_entry",
    "parse_event",
    "schedule",
    "table",
    "turn_pattern",
    "whole",
]

# The off-map boxes a schedule reads, by role; `{turn}` and `{side}` are filled in. The pack names
# them (`boxes`): the engine holds no module's box names. A role left out is a box not read.
BOX_ROLES = ("turn", "conditional", "eliminated", "exited")
_EVENT_KEYS = {"marker": {"marker", "box"}, "within": {"within", "side", "of", "units"}, "unknown": {"unknown"}}


def parse_boxes(value: Mapping[str, Any], side: str, turn_kind: str = "") -> dict[str, str]:
    """The box names by role. The turn boxes are named, or read by their [boxes] kind `turn_kind`;
    then the name pattern is never consulted (TurnBoxes reads the kind), and "{turn}" stands in."""
    boxes = dict(table(value, "boxes", set(BOX_ROLES)))
    if "turn" not in boxes and not turn_kind:
        raise ValueError(
            "boxes.turn: missing required key (the Game-Turn boxes' name, e.g. 'Turn {turn}'), "
            "unless turn_box_kind reads them by kind"
        )
    for k, v in boxes.items():
        word(v, f"boxes.{k}")
    return {"turn": "{turn}", **{k: v.replace("{side}", side) for k, v in boxes.items()}}


def turn_pattern(template: str, path: str) -> re.Pattern[str]:
    """A box name with '{turn}' in it as a pattern whose group 1 is the Game-Turn."""
    if "{turn}" not in template:
        raise ValueError(f"{path}: expected a name with '{{turn}}' in it, got {template!r}")
    return re.compile(re.escape(template).replace(re.escape("{turn}"), r"(\d+)"), re.IGNORECASE)


# -- reinforcements --------------------------------------------------------------------------------
def parse_event(ctx: RuleContext, name: str, value: Any, turn_box: str, turn_kind: str = "") -> Event:
    path = f"events.{name}"
    kinds = [k for k in _EVENT_KEYS if k in table(value, path, set().union(*_EVENT_KEYS.values()))]
    if len(kinds) != 1:
        raise ValueError(f"{path}: expected exactly one of 'marker', 'within' or 'unknown', got {sorted(value)}")
    kind = kinds[0]
    e = table(value, path, _EVENT_KEYS[kind], _EVENT_KEYS[kind] - {"box", "units"})
    if kind == "marker":
        box = turn_pattern(word(e.get("box", turn_box), f"{path}.box"), f"{path}.box")
        # An event's own box pattern says where its marker counts; else the turn boxes do.
        return Event(
            name, kind, marker=word(e["marker"], f"{path}.marker"), box=TurnBoxes(box, "" if "box" in e else turn_kind)
        )
    if kind == "within":
        at = names(e["of"], f"{path}.of")
        return Event(
            name,
            kind,
            side=word(e["side"], f"{path}.side"),
            at=at,
            hexes=ctx.hexes(at, f"{path}.of"),
            distance=whole(e["within"], f"{path}.within"),
            units=selector_at(e["units"], f"{path}.units") if "units" in e else None,
        )
    return Event(name, kind, reason=word(e["unknown"], f"{path}.unknown"))


@register(
    "reinforcements.schedule",
    params={
        "side": Param(REQUIRED, "str", "the side whose reinforcements are listed"),
        "entries": Param(
            REQUIRED,
            "list",
            "entries: { turn = n or label | turns = [first, last] | after = event, "
            "turns_after = n | turn_from = 'attr:<name>' or 'box', otherwise_turn, "
            "if_side_within = { side, hex, distance }, repeatable = bool, at = [hexes, "
            "places, regions, 'box:<name or kind>'], units = [names] or selector } "
            "(rules/mechanisms/reinforcement_entries.py)",
            shape=Each(ENTRY),
        ),
        "events": Param(
            {},
            "table",
            "event name -> { marker = name [, box] } | { side, within = n, of = [hexes or "
            "regions], units = selector } "
            "| { unknown = why }: how one save shows it (see rules/mechanisms/setup_rules.py)",
            shape=EVENTS,
        ),
        "void_east_of_axis_exit": Param(
            False,
            "bool",
            "entries at or east of a hex an enemy unit exited by are void (23); the exits come from the game's log",
        ),
        "exit_hexes": Param(
            (), "list[str]", "more hexes enemy units exited by, when a referee knows them and no log given shows them"
        ),
        "boxes": Param(
            {},
            "table",
            "off-map box names by role: turn ('{turn}' filled in; required unless "
            "turn_box_kind), conditional ('{side}'), eliminated, exited (a role left out: not "
            "read)",
            shape=Table(dict.fromkeys(BOX_ROLES, "str")),
        ),
        "turn_box_kind": Param(
            "",
            "str",
            "the [boxes] kind of the turn boxes (their number is the Game-Turn); "
            "replaces boxes.turn in reading where units and event markers wait",
        ),
        "phases": Param(DEFAULT_PHASES, "list[str]", "the phase ids of a Game-Turn, in order (23.71: Axis first)"),
        "movement_phase": Param("", "str", "the phase the side's units enter in (default '<side>-movement')"),
        "phase_rule": Param("", "str", "the rule number cited for the order of phases (e.g. 23.71)"),
        "at_start": Param(
            {},
            "table",
            "scenario id -> selector: units that scenario's own set-up puts in play though their counter "
            "gives a later turn; no reinforcements in it (seed 004 27.2 'Allies start with GT 3 "
            "reinforcements already in play')",
            shape=Each("selector"),
        ),
        "returns": Param(
            (),
            "list",
            "units that come back through the turn boxes: { units = selector, after = n | "
            "after_range = [lo, hi], to = 'Turn {turn}' (default: the turn boxes), rule_ref } "
            "(rules/mechanisms/reinforcement_ext.py)",
            shape=RETURNS,
        ),
    },
)
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
    # Entries that pick units or read their turns from them, one per unit of this state
    listed, notes = resolve(
        entries,
        state,
        side,
        TurnBoxes(turn_box, p["turn_box_kind"]),
        sequence=ctx.turn_sequence,
        events=events,
        rule=ctx.cite(),
        ref=ctx.rule.rule_ref if ctx.rule is not None else "",
    )
    listed = _not_set_up(listed, state, ctx, p["at_start"])
    sch = Schedule(
        side,
        listed,
        movement,
        phases,
        TurnBoxes(turn_box, p["turn_box_kind"]),
        frozenset(boxes[k].casefold() for k in ("conditional",) if k in boxes),
        frozenset(boxes[k].casefold() for k in ("eliminated", "exited") if k in boxes),
        boxes.get("exited", "").casefold(),
        p["void_east_of_axis_exit"],
        ctx.hexes(p["exit_hexes"], "exit_hexes"),
        ctx.rule.rule_ref if ctx.rule is not None else "",
        p["phase_rule"],
    )
    returns = parse_returns(p["returns"], sch.turn_box, sch.rule_ref)
    last = ctx.scenario.turns[1] if ctx.scenario is not None and ctx.scenario.turns else None
    return [
        *check_schedule(state, sch, rule=ctx.cite(), label=ctx.label),
        *notes,
        *check_returns(state, returns, listed, side=side, rule=ctx.cite(), last_turn=last),
    ]


def _not_set_up(
    listed: tuple[Entry, ...], state: GameState, ctx: RuleContext, at_start: Mapping[str, Any]
) -> tuple[Entry, ...]:
    """The entries, those of units the scenario's set-up puts in play (`at_start`) due the turn
    before its first: in play from its start, and still listed (a move out of a box is theirs)."""
    scenario = ctx.scenario if ctx.scenario is not None and ctx.scenario.id in at_start else None
    if scenario is None or scenario.turns is None:
        return listed
    pick = selector_at(at_start[scenario.id], f"at_start.{scenario.id}")
    set_up = {printed_key(u.name) for u in state.units.values() if pick.matches(u)}
    return tuple(
        replace(e, turn=scenario.turns[0] - 1, otherwise_turn=None)
        if e.units and all(printed_key(n) in set_up for n in e.units)
        else e
        for e in listed
    )
