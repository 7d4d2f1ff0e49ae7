"""What `turn.check_phase` applies, read from a rule pack: `turn_rules(pack, context)`.

The movement (``movement.allowance``), zone of control (``zoc.engaged``), set-up
(``setup.deployment``) and reinforcement (``reinforcements.schedule``) rules, the phases they
name, the units of an initial deployment held still (23.72), the reinforcement entries (23)
and the Withdrawal markers (19.0). A pack without a rule simply gives less to check.

Pure: the pack and the context in, `TurnRules` out.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field, replace

from ..model.state import GameState
from .engine import RuleContext
from .movement import MovementRules
from .movement_rules import movement_rules
from .pack import RulePack
from .restricted import Restriction, parse_restrictions

# The schedule rule's own readers of the pack's entries and of an entry's turn (23), not copies.
from .setup import Entry, printed_key
from .setup_rules import BOXES, parse_boxes, parse_entry, parse_event, turn_pattern

__all__ = ["Frozen", "Reinforcements", "TurnRules", "turn_rules", "withdrawing"]

@dataclass(frozen=True)
class Frozen:
    """Units of `side`'s initial deployment (`names`, `printed_key`s) that may not move on
    Game-Turn `turn` unless an enemy unit is within `exempt_range` hexes (23.72)."""

    side: str
    names: frozenset[str]
    turn: int
    exempt_range: int
    rule_ref: str


@dataclass(frozen=True)
class Reinforcements:
    """A side's reinforcement entries (23) and the phase they enter in."""

    side: str
    entries: tuple[Entry, ...]
    movement_phase: str
    phases: tuple[str, ...]
    rule_ref: str


@dataclass(frozen=True)
class TurnRules:
    """What `check_phase` applies, from the pack (`turn_rules`). `movement_phases` and
    `combat_phases`: phase id -> the side whose phase it is; `withdrawal_markers`: side ->
    the marker piece whose place in a Game-Turn box declares that side's Withdrawal (19.0)."""

    movement: MovementRules
    movement_phases: Mapping[str, str]
    combat_phases: Mapping[str, str] = field(default_factory=dict)
    phase_rule: str = ""
    frozen: tuple[Frozen, ...] = ()
    restricted: tuple[Restriction, ...] = ()  # movement.restricted, judged per move (rules/restricted.py)
    reinforcements: tuple[Reinforcements, ...] = ()
    withdrawal_markers: Mapping[str, str] = field(default_factory=dict)
    turn_box: re.Pattern[str] = re.compile(r"Turn (\d+)", re.IGNORECASE)
    weather_side_rule: str = ""  # cited for a hexside the weather closes (20.2), when not the allowance's
    eliminated_box: str = BOXES["eliminated"].casefold()
    exited_box: str = BOXES["exited"].casefold()

def turn_rules(pack: RulePack, ctx: RuleContext) -> TurnRules:
    """The pack's movement (``movement.allowance``), zone of control (``zoc.engaged``), set-up
    (``setup.deployment``) and reinforcement (``reinforcements.schedule``) rules as
    `TurnRules`. ValueError names the rule whose parameters do not fit the board."""
    moving = pack.rules_using("movement.allowance")
    rules = movement_rules(moving[0].params) if moving else MovementRules()
    zocs = pack.rules_using("zoc.engaged")
    if zocs and rules.zoc is not None:  # cite the pack's ZOC rule (19.2), not the standard rules
        p = zocs[0].params
        rules = replace(rules, zoc=replace(rules.zoc, rule_ref=zocs[0].rule_ref,
                                           withdrawal_ref=p["withdrawal_rule"] or rules.zoc.withdrawal_ref))
    phases = dict(zocs[0].params["movement_phases"]) if zocs else {}
    combat = dict(zocs[0].params["combat_phases"]) if zocs else {}
    frozen, arrivals, phase_rule = [], [], ""
    for r in pack.rules_using("setup.deployment"):
        p = r.params
        if p["frozen_turn"] > 0:
            names = frozenset(printed_key(n) for g in p["groups"] for n in g["units"])
            frozen.append(Frozen(p["side"], names, p["frozen_turn"], p["frozen_exempt_range"],
                                 p["frozen_rule"] or r.rule_ref))
    restricted: list[Restriction] = []
    for r in pack.rules_using("movement.restricted"):
        try:  # the rule's own reader, so that verify and check read the pack alike
            restricted += parse_restrictions(ctx, r.params, r.rule_ref)
        except ValueError as e:
            raise ValueError(f"rules.{r.name}: {e}") from None
    for r in pack.rules_using("reinforcements.schedule"):
        p = r.params
        try:  # the schedule rule's own readers of `boxes`, `events` and `entries`
            boxes = parse_boxes(p["boxes"], p["side"])
            turn_pattern(boxes["turn"], "boxes.turn")  # raises, as the rule does, for a name without {turn}
            events = {name: parse_event(ctx, name, v, boxes["turn"]) for name, v in p["events"].items()}
            entries = tuple(parse_entry(ctx, e, f"entries[{i}]", events) for i, e in enumerate(p["entries"]))
        except ValueError as e:
            raise ValueError(f"rules.{r.name}: {e}") from None
        move = p["movement_phase"] or f"{p['side'].lower()}-movement"
        arrivals.append(Reinforcements(p["side"], entries, move, tuple(p["phases"]), r.rule_ref))
        phases.setdefault(move, p["side"])
        phase_rule = phase_rule or p["phase_rule"]
    for side in pack.sides:  # a pack naming no phases: '<side>-movement', as the schedule's default
        if side not in phases.values():
            phases[f"{side.lower()}-movement"] = side
    markers = {s: f"{s} Withdrawal" for s in pack.sides}
    for r in pack.rules_using("victory.points"):
        markers.update(r.params["withdrawal_markers"])
    sides = next((r.params["hexside_rule"] for r in pack.rules_using("weather.effects")), "")
    return TurnRules(rules, phases, combat, phase_rule, tuple(frozen), tuple(restricted), tuple(arrivals), markers,
                     weather_side_rule=sides)


def withdrawing(state: GameState, side: str, rules: TurnRules) -> bool:
    """Whether `side` declared its Withdrawal for `state`'s Game-Turn: its marker is in the
    box of that turn (19.0: "Immediately before the Movement Phase")."""
    name = rules.withdrawal_markers.get(side)
    return bool(name) and state.turn is not None and any(
        (m := rules.turn_box.fullmatch((p.box or "").strip())) is not None and int(m.group(1)) == state.turn
        for p in state.marker(name or ""))
