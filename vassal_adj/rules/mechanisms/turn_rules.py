"""What `turn.check_phase` applies, read from a rule pack: `turn_rules(pack, context)`.

The movement (``movement.allowance``), zone of control (``zoc.engaged``), set-up
(``setup.deployment``) and reinforcement (``reinforcements.schedule``) rules, the phases they
name, the units of an initial deployment held still (23.72), the reinforcement entries (23)
and the Withdrawal markers (19.0). A pack without a rule simply gives less to check.

A pack may have several movement and ZOC rules, each in force at its own time (``when``,
scope.py: by weather, turns, scenario...): `in_phase` picks, for each phase, the first of
each in pack order that is in force then. The rules read are the scenario's when it has
assumption values of its own.

Pure: the pack and the context in, `TurnRules` out.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from vassal_adj.model.state import GameState, TurnBoxes
from vassal_adj.parse.tokens import parse_int
from vassal_adj.rules.engine import RuleContext, rule_verdict
from vassal_adj.rules.mechanisms.movement_params import MovementRules
from vassal_adj.rules.mechanisms.movement_rules import movement_rules

# The schedule rule's own readers of the pack's entries and of an entry's turn (23), not copies.
from vassal_adj.rules.mechanisms.reinforcement_units import resolve
from vassal_adj.rules.mechanisms.restricted import Restriction, parse_restrictions
from vassal_adj.rules.mechanisms.setup import Entry, Event, printed_key
from vassal_adj.rules.mechanisms.setup_rules import parse_boxes, parse_entry, parse_event, turn_pattern
from vassal_adj.rules.packs.pack import RuleConfig, RulePack
from vassal_adj.rules.results import Finding, Severity
from vassal_adj.rules.scope import Situation

__all__ = ["Frozen", "Reinforcements", "TurnRules", "in_phase", "turn_rules", "withdrawing"]


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
    events: Mapping[str, Event] = field(default_factory=dict)
    turn_boxes: TurnBoxes | None = None  # None: entries that read a unit's turn from its box read none

    def of(self, state: GameState, sequence: tuple[str, ...]) -> tuple[Entry, ...]:
        """The entries, those that pick units or read their turns made one per unit of `state`
        (as the schedule rule makes them), so that a move names the entry of its unit."""
        boxes = self.turn_boxes or TurnBoxes(re.compile(r"(?!)"))
        return resolve(self.entries, state, self.side, boxes, sequence=sequence, events=self.events, rule="", ref="")[0]


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
    restricted: tuple[Restriction, ...] = ()  # movement.restricted, judged per move (rules/mechanisms/restricted.py)
    reinforcements: tuple[Reinforcements, ...] = ()
    withdrawal_markers: Mapping[str, str] = field(default_factory=dict)
    turn_box: re.Pattern[str] | None = None  # the first schedule's `boxes.turn` (None: no turn boxes named)
    weather_side_rule: str = ""  # cited for a hexside the weather closes (20.2), when not the allowance's
    eliminated_box: str | None = None  # casefolded, as the schedule's `boxes` name it (None: not named)
    exited_box: str | None = None
    # Every movement.allowance and zoc.engaged rule, in pack order, and the MovementRules of each
    # pair (None: no such rule), for `in_phase` to pick those in force in a phase.
    moving: tuple[RuleConfig, ...] = ()
    zocs: tuple[RuleConfig, ...] = ()
    choices: Mapping[tuple[str | None, str | None], MovementRules] = field(default_factory=dict)
    # phase id -> the sides whose units' moves a displacement rule (N24, displacement.py) judges in it
    displaced: Mapping[str, frozenset[str]] = field(default_factory=dict)
    # a transport.modes rule's (box kinds, sea terrain, closed hexsides): its trips are not moves (N25)
    transport: tuple[frozenset[str], str, tuple[str, ...]] | None = None


def _movement(m: RuleConfig | None, z: RuleConfig | None) -> MovementRules:
    rules = movement_rules(m.params) if m is not None else MovementRules()
    if m is not None:  # an allowance its modifiers set is the pack rule's own (seed 001 Campaign II)
        rules = replace(rules, modifier_ref=m.rule_ref)
    if z is not None and rules.zoc is not None:  # cite the pack's ZOC rule (19.2), not the standard rules
        rules = replace(
            rules,
            zoc=replace(
                rules.zoc, rule_ref=z.rule_ref, withdrawal_ref=z.params["withdrawal_rule"] or rules.zoc.withdrawal_ref
            ),
        )
    return rules


def turn_rules(pack: RulePack, ctx: RuleContext) -> TurnRules:
    """The pack's movement (``movement.allowance``), zone of control (``zoc.engaged``), set-up
    (``setup.deployment``) and reinforcement (``reinforcements.schedule``) rules as
    `TurnRules`. ValueError names the rule whose parameters do not fit the board."""
    scenario = ctx.scenario
    read = scenario.rule_configs if scenario is not None and scenario.rule_configs else pack.rules

    def using(impl: str) -> tuple[RuleConfig, ...]:
        return tuple(r for r in read if r.impl == impl and r.enabled)

    moving, zocs = using("movement.allowance"), using("zoc.engaged")
    # None: no rule of the kind in force (the standard rules of that kind)
    choices = {
        (m.name if m else None, z.name if z else None): _movement(m, z) for m in (*moving, None) for z in (*zocs, None)
    }
    rules = choices[(moving[0].name if moving else None, zocs[0].name if zocs else None)]
    phases = dict(zocs[0].params["movement_phases"]) if zocs else {}
    combat = dict(zocs[0].params["combat_phases"]) if zocs else {}
    frozen, arrivals, phase_rule = [], [], ""
    named: dict[str, Any] = {}  # the box names of the first schedule that gives each
    for r in using("setup.deployment"):
        p = r.params
        if p["frozen_turn"] > 0:
            names = frozenset(printed_key(n) for g in p["groups"] for n in g["units"])
            frozen.append(
                Frozen(p["side"], names, p["frozen_turn"], p["frozen_exempt_range"], p["frozen_rule"] or r.rule_ref)
            )
    restricted: list[Restriction] = []
    for r in using("movement.restricted"):
        try:  # the rule's own reader, so that verify and check read the pack alike
            restricted += parse_restrictions(ctx, r.params, r.rule_ref)
        except ValueError as e:
            raise ValueError(f"rules.{r.name}: {e}") from None
    for r in using("reinforcements.schedule"):
        p = r.params
        try:  # the schedule rule's own readers of `boxes`, `events` and `entries`
            boxes = parse_boxes(p["boxes"], p["side"], p["turn_box_kind"])
            pattern = turn_pattern(boxes["turn"], "boxes.turn")  # raises, as the rule does, for a name without {turn}
            events = {
                name: parse_event(ctx, name, v, boxes["turn"], p["turn_box_kind"]) for name, v in p["events"].items()
            }
            entries = tuple(parse_entry(ctx, e, f"entries[{i}]", events) for i, e in enumerate(p["entries"]))
        except ValueError as e:
            raise ValueError(f"rules.{r.name}: {e}") from None
        move = p["movement_phase"] or f"{p['side'].lower()}-movement"
        turn_boxes = TurnBoxes(pattern, p["turn_box_kind"])
        arrivals.append(Reinforcements(p["side"], entries, move, tuple(p["phases"]), r.rule_ref, events, turn_boxes))
        named = {
            "turn_box": pattern if "turn" in p["boxes"] else None,
            **{f"{k}_box": boxes[k].casefold() for k in ("eliminated", "exited") if k in boxes},
            **named,
        }
        phases.setdefault(move, p["side"])
        phase_rule = phase_rule or p["phase_rule"]
    for side in pack.sides:  # a pack naming no phases: '<side>-movement', as the schedule's default
        if side not in phases.values():
            phases[f"{side.lower()}-movement"] = side
    markers: dict[str, str] = {}  # the pack names them (the engine knows no module's pieces)
    for r in using("victory.points"):
        markers.update(r.params["withdrawal_markers"])
    sides = next((r.params["hexside_rule"] for r in using("weather.effects")), "")
    displaced: dict[str, frozenset[str]] = {}
    for r in using("combat.displacement"):
        for phase, side in r.params["phases"].items():
            judged = frozenset(pack.sides) if r.params["advances"] else frozenset(pack.sides) - {side}
            displaced[phase] = displaced.get(phase, frozenset()) | judged
    carry = next((r.params for r in using("transport.modes")), None)
    transport = (frozenset(carry["boxes"]), carry["sea_terrain"], tuple(carry["closed_sides"])) if carry else None
    return TurnRules(
        rules,
        phases,
        combat,
        phase_rule,
        tuple(frozen),
        tuple(restricted),
        tuple(arrivals),
        markers,
        weather_side_rule=sides,
        moving=moving,
        zocs=zocs,
        choices=choices,
        displaced=displaced,
        transport=transport,
        **named,
    )


def in_phase(rules: TurnRules, state: GameState, ctx: RuleContext) -> tuple[TurnRules, list[Finding]]:
    """`rules` with the movement and ZOC rules in force in `state`'s phase: of each kind, the
    first in pack order in force then (none: the standard rules, MovementRules()). When one
    before it may be in force but the files cannot tell, a warning says whose verdicts rest on
    which rule; the moves are judged by the first rule known to be in force."""
    phase = state.phase or ""
    at = Situation(
        ctx.scenario.id if ctx.scenario else None,
        state.turn,
        state.phase,
        rules.movement_phases.get(phase) or rules.combat_phases.get(phase),
        state.weather,
        (lambda name: ctx.events(state, ctx, name)) if ctx.events is not None else None,
    )
    picked: list[str | None] = []
    found: list[Finding] = []
    for kind, candidates in (("movement", rules.moving), ("zone of control", rules.zocs)):
        doubt = []
        chosen = None
        for r in candidates:
            v = rule_verdict(r, ctx.scenario, at, ctx.options)
            if v.status == "yes":
                chosen = r
                break
            if v.status == "unknown":
                doubt.append(f"{r.name} ({r.cited}): {v.why}")
        picked.append(chosen.name if chosen else None)
        if doubt:
            judged = f"rule {chosen.name} ({chosen.cited})" if chosen else "the standard rules"
            found.append(
                Finding(
                    ctx.cite(chosen) if chosen else ctx.pack_id,
                    Severity.WARNING,
                    f"phase {phase or '(unknown)'}: the moves are judged by {judged}, but the {kind} "
                    f"rule in force may be another: {'; '.join(doubt)}",
                )
            )
    first = (rules.moving[0].name if rules.moving else None, rules.zocs[0].name if rules.zocs else None)
    if (picked[0], picked[1]) == first:  # the pack's first rules, as `movement` already holds them
        return rules, found
    return replace(rules, movement=rules.choices[(picked[0], picked[1])]), found


def withdrawing(state: GameState, side: str, rules: TurnRules) -> bool:
    """Whether `side` declared its Withdrawal for `state`'s Game-Turn: its marker is in the
    box of that turn (19.0: "Immediately before the Movement Phase")."""
    name = rules.withdrawal_markers.get(side)
    return (
        bool(name)
        and state.turn is not None
        and rules.turn_box is not None
        and any(
            (m := rules.turn_box.fullmatch((p.box or "").strip())) is not None and parse_int(m.group(1)) == state.turn
            for p in state.marker(name or "")
        )
    )
