"""A phase's moves checked one by one: `check_phase(state, phase, moves, rules, context)`.

A log records where each drag of a piece started and where it was dropped, never the hexes
between. Every drop is a waypoint: one unit's drags in a phase are the legs of one move,
judged in order by `legs.judge_legs` (each leg a legal path from where the unit stood, one
allowance for the phase, a drop in an enemy zone of control a stop, 19.2/19.21). The answer
shows the cheapest path of the whole chain, or the leg that broke a rule, why, and its
cheapest attempt. A reinforcement's first leg is its entry: the entry hex costs what the
pack's `entry_cost` says (its terrain, or nothing). A unit whose entries are into boxes only
(an artillery park, a staging area) arrives there and never enters the map by them: its move
onto the map is an error citing the entry's rule. Where the unit's piece has a Movement
Trail, the trail shows the hexes it went through: those are judged, hex by hex, instead of the
cheapest way between drops (`legs.trail_legs`), and the answer says which path it judged.

Besides the path: a move outside its side's movement phase (the sequence of play, 23.71), a
unit of the initial deployment moved on the turn 23.72 holds it still, and a reinforcement
entering before its turn or away from its entry hexes (23). `turn_rules(pack, context)`
reads all of it from the pack's rules, so a pack without a rule simply checks less.
The paths are searched by move_paths.py (with the diagnoses of the rule really broken); the
findings on when a unit may move (phase, held still, turn of entry) are move_timing.py's.

Pure: states in, findings out. `state` is the position when the phase began (the other side
does not move in a movement phase, so its zones of control are those of the start).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from fractions import Fraction

from vassal_adj.model.geometry.hexes import Hex
from vassal_adj.model.state import GameState, Position
from vassal_adj.rules.crossing import crossing, passed, refused, rolls_during
from vassal_adj.rules.engine import RuleContext
from vassal_adj.rules.mechanisms.legs import AS_DRAGGED, CHEAPEST, Chain, judge_legs, map_legs, mp, trail_legs
from vassal_adj.rules.mechanisms.movement import entry_hex_cost
from vassal_adj.rules.mechanisms.reinforcement_entries import unheld_entry
from vassal_adj.rules.mechanisms.restricted import move_findings
from vassal_adj.rules.mechanisms.setup import printed_key
from vassal_adj.rules.mechanisms.transport import carried, land_parts
from vassal_adj.rules.mechanisms.turn_rules import Frozen, Reinforcements, TurnRules, in_phase, turn_rules, withdrawing
from vassal_adj.rules.move_paths import Paths
from vassal_adj.rules.move_timing import MoveWords, entry_turn, frozen, out_of_phase
from vassal_adj.rules.results import Finding, Severity

__all__ = [
    "Drag",
    "Frozen",
    "MoveCheck",
    "PhaseCheck",
    "Reinforcements",
    "TurnRules",
    "check_phase",
    "turn_rules",
    "withdrawing",
]

Drag = tuple[Position, Position]  # where one drag started and ended
Timing = tuple[
    Sequence[str], Sequence[tuple[int, int]]
]  # the units of the drags in order; (drags before, step) of each roll


@dataclass(frozen=True)
class MoveCheck:
    """One unit's move in a phase, as a report shows it. `kind`: "move" (hex to hex), "entry"
    (box to map), "exit", "eliminated", "off-map" (map to a box), "box" (box to box), "transport"
    (a trip with no land path, which the pack's `transport.modes` judges); `ok`
    None when no path was judged; `path` labels of the whole chain of legs (the broken leg's
    attempt last), the entry hex first for an entry; `cost` their MP added up; `reason` names
    the leg that broke a rule when there are several; `stops` where each drag was dropped, in
    order (the chain a report shows); `judged` the path judged (`legs.AS_DRAGGED` or
    `legs.CHEAPEST`) and `path_note` why a Movement Trail's was not."""

    unit: str
    name: str
    side: str
    kind: str
    start: str
    end: str
    drags: int
    ok: bool | None = None
    cost: int | Fraction | None = None
    allowance: int = 0
    path: tuple[str, ...] = ()
    reason: str = ""
    rule: str = ""
    stops: tuple[str, ...] = ()
    judged: str = ""
    path_note: str = ""


@dataclass(frozen=True)
class PhaseCheck:
    findings: tuple[Finding, ...]
    moves: tuple[MoveCheck, ...]


class _Phase:
    """One phase's checks: the start state, and the paths under the phase's rules (`Paths`)."""

    def __init__(
        self,
        state: GameState,
        phase: str | None,
        rules: TurnRules,
        ctx: RuleContext,
        end: GameState | None,
        trails: Mapping[str, Sequence[Hex | None]],
        moves: Mapping[str, Sequence[Drag]] | None = None,
        timing: Timing | None = None,
    ) -> None:
        self.state, self.phase, self.rules, self.ctx, self.trails = state, phase, rules, ctx, trails
        self.moves, self.timing = moves or {}, timing
        # The Withdrawal marker is placed as the phase begins, and an event's marker may move in it.
        self.seen = replace(state, markers=(end or state).markers)
        self.paths = Paths(state, self.seen, rules, ctx)

    def cite(self, ref: str) -> str:
        return f"{self.ctx.pack_id}:{ref}"

    def where(self, pos: Position) -> str:
        if pos.hex is not None:
            return pos.label or self.ctx.label(pos.hex)
        return f"box {pos.box!r}" if pos.box else "off the map"

    def check(self, uid: str, drags: Sequence[Drag]) -> tuple[MoveCheck, list[Finding]]:
        unit, (start, goal) = self.state.units[uid], (drags[0][0], drags[-1][1])
        a, b = self.where(start), self.where(goal)
        box = (goal.box or "").strip().casefold()
        kind = (
            (
                "move"
                if goal.on_map
                else "eliminated"
                if box == self.rules.eliminated_box
                else "exit"
                if box == self.rules.exited_box
                else "off-map"
            )
            if start.on_map
            else "entry"
            if goal.on_map
            else "box"
        )
        mc = MoveCheck(uid, unit.name, unit.side, kind, a, b, len(drags), stops=tuple(self.where(d[1]) for d in drags))
        what = f"{unit.side} {unit.name} moved {' -> '.join(self.where(p) for p in (start, *(d[1] for d in drags)))}"
        hexes = tuple(self.where(p) for p in (start, goal) if p.on_map)
        words = MoveWords(uid, what, hexes, self.ctx.pack_id)
        if kind in ("eliminated", "box") or all((x.hex, x.box) == (y.hex, y.box) for x, y in drags):
            return mc, []
        mover = self.rules.movement_phases.get(self.phase or "")
        if mover != unit.side:
            if unit.side in self.rules.displaced.get(self.phase or "", ()):  # judged by displacement.py
                return mc, []
            return mc, [out_of_phase(self.state, self.phase, self.rules, mover, words)]
        found = frozen(self.state, self.rules, start, words) + move_findings(
            self.state,
            uid,
            start,
            goal,
            self.rules.restricted,
            what=what,
            hexes=hexes,
            cite=self.cite,
            label=self.ctx.label,
        )
        if (t := self.rules.transport) is not None and carried(drags, land_parts(self.ctx.terrain, t[1], t[2]), t[0]):
            return replace(mc, kind="transport"), found  # a trip with no land path: transport.modes judges it (N25)
        if kind == "entry":
            more, mc = self.entry(uid, drags, mc, what, hexes)
            return mc, found + more
        legs, left = map_legs(drags)
        if legs:
            steps, note = (
                trail_legs(self.trails[uid], (legs[0][0], *(b for _, b in legs)), self.ctx.label)
                if uid in self.trails and left is None
                else ([], "")
            )
            chain = (
                judge_legs(steps, self.paths.mover(uid, exact=True), before="the hexes before")
                if steps
                else judge_legs(legs, self.paths.mover(uid))
            )
            mc, finding = self.verdict(
                uid, replace(mc, path_note=note), chain, what, hexes, len(drags) > 1, bool(steps)
            )
            if not chain.ok:
                mc, finding = self.crossed(uid, steps or legs, bool(steps), (mc, finding), what, hexes)
            found.append(finding)
        return mc, found + self.left_map(uid, what, hexes, left)

    def crossed(
        self,
        uid: str,
        legs: Sequence[tuple[Hex, Hex]],
        exact: bool,
        judged: tuple[MoveCheck, Finding],
        what: str,
        hexes: tuple[str, ...],
    ) -> tuple[MoveCheck, Finding]:
        """The verdict `judged` on a move that breaks a rule, when it crossed an enemy zone of
        control by an exception (crossing.py: seed 001 4.3's armoured breakthrough, 12)."""
        start = self.state.hex_of(uid)
        partners = [
            self.state.units[o]
            for o in self.moves
            if o != uid and o in self.state.units and self.state.hex_of(o) == start
        ]
        cx = crossing(self.state, self.seen, self.rules, self.ctx, uid, legs, exact, partners)
        if cx is None:
            return judged
        mc, f = judged
        if cx.ex is None or cx.immune:
            return mc, refused(cx, self.rules.movement.zoc_exceptions[0], f, self.ctx.pack_id)
        mc2, ok = self.verdict(uid, mc, cx.chain, what, hexes, False, exact)
        rolled = rolls_during(uid, *self.timing) if self.timing else None
        found = passed(cx.ex, self.state.units[uid], what, mc.reason, ok, rolled, self.ctx.pack_id)
        return replace(mc2, rule=found.rule), found

    def left_map(self, uid: str, what: str, hexes: tuple[str, ...], left: int | None) -> list[Finding]:
        if left is None:
            return []
        return [
            Finding(
                self.cite(self.rules.movement.rule_ref),
                Severity.INFO,
                f"{what}: left the map by drag {left}; the hex and path it left by, and any move after, are "
                f"not checked",
                (uid,),
                hexes,
            )
        ]

    def verdict(
        self,
        uid: str,
        mc: MoveCheck,
        chain: Chain,
        what: str,
        hexes: tuple[str, ...],
        several: bool,
        trail: bool = False,
    ) -> tuple[MoveCheck, Finding]:
        """The verdict on `chain`: the cheapest way between drops, or (`trail`) the trail's hexes."""
        lab = self.ctx.label
        labels = tuple(lab(h) for h in chain.path)
        m, side_ref = self.rules.movement, self.rules.weather_side_rule
        if side_ref and not chain.ok and chain.leg_cost is None and chain.rule_ref == m.weather_ref:
            # legal_path cites one weather rule; with no cost it is a closed hexside, not the allowance
            chain = replace(
                chain, rule_ref=side_ref, reason=chain.reason.replace(f"[{m.weather_ref}]", f"[{side_ref}]")
            )
        rule = self.cite(chain.rule_ref or m.rule_ref)
        step = f"{lab(chain.drop[0])} -> {lab(chain.drop[1])}: " if chain.drop else ""
        leg = (
            ""
            if not step
            else f"{AS_DRAGGED} {' '.join(labels)}, at {step}"
            if trail
            else f"leg {chain.leg}, {step}"
            if several
            else ""
        )
        note = f" ({AS_DRAGGED})" if trail else f"; {mc.path_note}" if mc.path_note else ""
        mc = replace(
            mc,
            ok=chain.ok,
            cost=chain.cost,
            allowance=chain.allowance,
            path=labels,
            reason=leg + chain.reason,
            rule=rule,
            judged=AS_DRAGGED if trail else CHEAPEST,
        )
        if chain.ok:
            return mc, Finding(
                rule,
                Severity.INFO,
                f"{what}: legal, {mp(chain.cost)} of {chain.allowance} MP by {' '.join(labels)}{note}",
                (uid,),
                hexes,
            )
        tried = (
            (
                f"; cheapest attempt {' '.join(map(lab, chain.leg_path))}"
                + (f" ({mp(chain.leg_cost)} MP)" if chain.leg_cost is not None else "")
            )
            if chain.leg_path
            else ""
        )
        tried = "" if trail else tried + note
        # The finding's hexes are the path tried, in order, so a picture can draw it.
        # The enemy units whose zones of control the reason names follow the mover, to be marked with it.
        return mc, Finding(
            rule, Severity.ERROR, f"{what}: {leg}{chain.reason}{tried}", (uid, *chain.units), labels or hexes
        )

    def entry(
        self, uid: str, drags: Sequence[Drag], mc: MoveCheck, what: str, hexes: tuple[str, ...]
    ) -> tuple[list[Finding], MoveCheck]:
        unit, goal = self.state.units[uid], drags[-1][1].hex
        assert goal is not None
        key = printed_key(unit.name)
        listed = [
            (rs, e)
            for rs in self.rules.reinforcements
            if rs.side == unit.side
            for e in rs.of(self.state, self.ctx.turn_sequence)
            if key in {printed_key(n) for n in e.units}
        ]
        found = next(((rs, e) for rs, e in listed if e.hexes), None)
        if found is None and listed:  # its entries are into boxes only: it never enters the map by them
            rs, e = listed[0]
            boxes = " or ".join(repr(a.removeprefix("box:").strip()) for a in e.at)
            why = f"it arrives in box {boxes}, not on the map [{rs.rule_ref}]"
            return [Finding(self.cite(rs.rule_ref), Severity.ERROR, f"{what}: {why}", (uid,), hexes)], replace(
                mc, ok=False, reason=why, rule=self.cite(rs.rule_ref)
            )
        if found is None:
            refs = [rs.rule_ref for rs in self.rules.reinforcements if rs.side == unit.side]
            ref = refs[0] if refs else self.rules.movement.rule_ref
            return [
                Finding(
                    self.cite(ref),
                    Severity.WARNING,
                    f"{what}: entered the map, but no reinforcement entry "
                    f"of the pack lists it, so neither its turn nor its "
                    f"path is checked [{ref}]",
                    (uid,),
                    hexes,
                )
            ], mc
        rs, e = found
        out = entry_turn(self.seen, rs, e, self.ctx.label, MoveWords(uid, what, hexes, self.ctx.pack_id))
        arrival = next(i for i, (a, b) in enumerate(drags) if not a.on_map and b.on_map)
        first = drags[arrival][1].hex
        assert first is not None
        if why := unheld_entry(e, self.state, unit.side, first, self.ctx.label):
            out.append(Finding(self.cite(rs.rule_ref), Severity.ERROR, f"{what}: {why} [{rs.rule_ref}]", (uid,), hexes))
        legs, left = map_legs(drags[arrival + 1 :])
        mover, m = self.paths.mover(uid), self.rules.movement
        # The log shows where the drag onto the map ended; if that is no entry hex, the unit may
        # still have entered at any of them and moved on: ask for each (the entry leg is drag `arrival`).
        chains = [
            judge_legs(
                [(s, first), *legs],
                mover,
                first=arrival + 1,
                entered=s,
                spent=entry_hex_cost(self.state, self.ctx.terrain, uid, s, m),
            )
            for s in ((first,) if first in e.hexes else e.hexes)
        ]
        best = min((c for c in chains if c.ok), key=lambda c: c.cost or 0, default=None)
        if best is None:  # the furthest leg reached, too far rather than forbidden, then a shorter attempt
            best = min(
                chains, key=lambda c: (-c.leg, c.leg_cost is None, not c.leg_path, c.leg_cost or 0, len(c.leg_path))
            )
        at = " or ".join(e.at)
        mc, finding = self.verdict(uid, mc, best, f"{what} (entering at {at})", hexes, len(drags) > 1)
        if not best.ok and first not in e.hexes:
            finding = replace(finding, message=f"{finding.message}; its entry hexes are {at} [{rs.rule_ref}]")
        return out + [finding] + self.left_map(uid, what, hexes, None if left is None else arrival + 1 + left), mc


def check_phase(
    state: GameState,
    phase: str | None,
    moves: Mapping[str, Sequence[Drag]],
    rules: TurnRules,
    context: RuleContext,
    *,
    end: GameState | None = None,
    trails: Mapping[str, Sequence[Hex | None]] | None = None,
    timing: Timing | None = None,
) -> PhaseCheck:
    """The findings on one phase's moves: `moves` maps a unit id to its drags in that phase,
    in order (the legs of one move, each dropped where the next starts). `state` is the
    position at the phase's start; `end` (optional) the one at its end, whose markers show a
    Withdrawal declared or an event dated during the phase. Units `state` lacks are skipped.
    `trails`: for a unit whose piece has a Movement Trail, the hexes its trail shows it went
    through in the phase (`legs.trail_legs`; empty when the trail does not cover the move).
    `timing`: the units of the phase's drags in order and its die rolls (segments.Segment's
    `order` and `rolls`), for the roll of a breakthrough (crossing.py)."""
    rules, findings = in_phase(rules, state, context)  # the movement and ZOC rules in force in this phase
    ph = _Phase(state, phase, rules, context, end, trails or {}, moves, timing)
    checks: list[MoveCheck] = []
    for uid, drags in moves.items():
        if uid not in state.units or not drags:
            continue
        mc, found = ph.check(uid, drags)
        checks.append(mc)
        findings += found
    return PhaseCheck(tuple(findings), tuple(checks))
