"""A phase's moves checked one by one: `check_phase(state, phase, moves, rules, context)`.

A log records where each drag of a piece started and where it was dropped, never the hexes
between. Every drop is a waypoint: one unit's drags in a phase are the legs of one move,
judged in order by `legs.judge_legs` (each leg a legal path from where the unit stood, one
allowance for the phase, a drop in an enemy zone of control a stop, 19.2/19.21). The answer
shows the cheapest path of the whole chain, or the leg that broke a rule, why, and its
cheapest attempt. A reinforcement's first leg is its entry: the entry hex costs what the
pack's `entry_cost` says (its terrain, or nothing). Where the unit's piece has a Movement
Trail, the trail shows the hexes it went through: those are judged, hex by hex, instead of the
cheapest way between drops (`legs.trail_legs`), and the answer says which path it judged.

Besides the path: a move outside its side's movement phase (the sequence of play, 23.71), a
unit of the initial deployment moved on the turn 23.72 holds it still, and a reinforcement
entering before its turn or away from its entry hexes (23). `turn_rules(pack, context)`
reads all of it from the pack's rules, so a pack without a rule simply checks less.

Pure: states in, findings out. `state` is the position when the phase began (the other side
does not move in a movement phase, so its zones of control are those of the start).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from fractions import Fraction
from itertools import pairwise

from vassal_adj.model.geometry.hexes import Hex, distance
from vassal_adj.model.state import GameState, Position
from vassal_adj.rules.engine import RuleContext
from vassal_adj.rules.mechanisms.legs import AS_DRAGGED, CHEAPEST, Chain, Mover, judge_legs, mp, trail_legs
from vassal_adj.rules.mechanisms.movement import PathResult, entry_hex_cost, legal_path
from vassal_adj.rules.mechanisms.movement_params import allowance
from vassal_adj.rules.mechanisms.restricted import forbidden, move_findings
from vassal_adj.rules.mechanisms.setup import Entry, entry_due, moment, printed_key
from vassal_adj.rules.mechanisms.turn_rules import (
    Frozen,
    Reinforcements,
    TurnRules,
    in_phase,
    turn_rules,
    withdrawing,
)
from vassal_adj.rules.mechanisms.zoc import blocked_side, enemy_zoc, no_sources, weather_name, zoc_sources
from vassal_adj.rules.results import Finding, Severity

__all__ = ["Drag", "Frozen", "MoveCheck", "PhaseCheck", "Reinforcements", "TurnRules", "check_phase",
           "turn_rules", "withdrawing"]

Drag = tuple[Position, Position]  # where one drag started and ended


@dataclass(frozen=True)
class MoveCheck:
    """One unit's move in a phase, as a report shows it. `kind`: "move" (hex to hex), "entry"
    (box to map), "exit", "eliminated", "off-map" (map to a box), "box" (box to box); `ok`
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


def _map_legs(drags: Sequence[Drag]) -> tuple[list[tuple[Hex, Hex]], int | None]:
    """The drags on the map as legs, up to the first that leaves it, and that one's number (or None)."""
    legs = []
    for n, (a, b) in enumerate(drags, 1):
        if a.hex is None or b.hex is None:
            return legs, n
        legs.append((a.hex, b.hex))
    return legs, None


class _Phase:
    """One phase's checks: the start state, what is looked up once (ZOC per side)."""

    def __init__(self, state: GameState, phase: str | None, rules: TurnRules, ctx: RuleContext,
                 end: GameState | None, trails: Mapping[str, Sequence[Hex | None]]) -> None:
        self.state, self.phase, self.rules, self.ctx, self.trails = state, phase, rules, ctx, trails
        # The Withdrawal marker is placed as the phase begins, and an event's marker may move in it.
        self.seen = GameState(state.units, state.positions, state.turn, state.phase, state.weather,
                              (end or state).markers)
        self.zoc: dict[str, frozenset[Hex] | None] = {}

    def cite(self, ref: str) -> str:
        return f"{self.ctx.pack_id}:{ref}"

    def where(self, pos: Position) -> str:
        if pos.hex is not None:
            return pos.label or self.ctx.label(pos.hex)
        return f"box {pos.box!r}" if pos.box else "off the map"

    def enemy_zoc(self, side: str) -> frozenset[Hex] | None:
        z = self.rules.movement.zoc
        if side not in self.zoc:
            self.zoc[side] = None if z is None else enemy_zoc(self.state, self.ctx.terrain, side, z)
        return self.zoc[side]

    def path(self, uid: str, start: Hex, goal: Hex, area: frozenset[Hex] | None = None) -> PathResult:
        side, m = self.state.units[uid].side, self.rules.movement
        zoc, wd = self.enemy_zoc(side), withdrawing(self.seen, side, self.rules)
        res = legal_path(self.state, self.ctx.terrain, uid, start, goal, m, zoc, withdrawal=wd, area=area,
                         label=self.ctx.label)
        closed = m.impassable_in_weather.get(weather_name(self.state.weather), frozenset())
        if res.ok or res.cost is None or not closed:
            return res
        # Too far only because the weather closed hexsides (20.2)? Then that is the rule broken.
        open_ = legal_path(self.state, self.ctx.terrain, uid, start, goal, replace(m, impassable_in_weather={}), zoc,
                           withdrawal=wd, area=area, label=self.ctx.label)
        crossed = next(((a, b, f) for a, b in pairwise(open_.path)
                        if (f := blocked_side(self.ctx.terrain.features_between(a, b), closed, m.bridge_features))),
                       None)
        if not open_.ok or crossed is None:
            return res
        a, b, f = crossed
        ref = self.rules.weather_side_rule or m.weather_ref
        why = (f"unbridged {f} hexside {self.ctx.label(a)}/{self.ctx.label(b)} may not be crossed in "
               f"{weather_name(self.state.weather)} weather [{ref}]; the way around needs {mp(res.cost)} MP, "
               f"allowance {res.allowance} [{res.rule_ref}]")
        return PathResult(False, None, open_.path, why, ref, res.allowance)

    def mover(self, uid: str, exact: bool = False) -> Mover:
        """`exact`: each leg is one step, from hex to next hex, never a way around."""
        unit, m = self.state.units[uid], self.rules.movement
        zoc, zr = self.enemy_zoc(unit.side), m.zoc
        obeyed = frozenset() if zoc is None or zr is None or zr.mode == "none" or zr.ignores(unit) else zoc
        return Mover(lambda a, b: self.path(uid, a, b, frozenset((a, b))) if exact else self.free_path(uid, a, b),
                     allowance(unit, self.state.weather, m), unit.movement,
                     obeyed, withdrawing(self.seen, unit.side, self.rules), m, weather_name(self.state.weather),
                     self.ctx.label, zoc_sources(self.state, self.ctx.terrain, unit.side, zr, self.ctx.label)
                     if obeyed and zr else no_sources)

    def free_path(self, uid: str, start: Hex, goal: Hex) -> PathResult:
        """The path, kept out of the hexes movement.restricted rules bar (the start and goal
        excepted: ending in one is `move_findings`' to report). When only they block it, the
        restriction is the fault, cited, not the movement rule."""
        barred = forbidden(self.state, uid, start, self.rules.restricted, self.ctx.label)
        board = self.ctx.terrain.board or (frozenset(self.ctx.layout.hexes()) if self.ctx.layout else None)
        if not barred or board is None:
            return self.path(uid, start, goal)
        res = self.path(uid, start, goal, (board - barred.keys()) | {start, goal})
        way = res if res.ok else self.path(uid, start, goal)
        crossed = next((h for h in way.path if h in barred and h != goal), None)
        if res.ok or not way.ok or crossed is None:
            return res
        r, lab = barred[crossed], self.ctx.label
        why = (f"its way {' '.join(lab(h) for h in way.path)} enters {lab(crossed)}, and {r.words()} "
               f"[{r.rule_ref}]; no way around is within the allowance")
        return PathResult(False, None, way.path, why, r.rule_ref, res.allowance)

    def check(self, uid: str, drags: Sequence[Drag]) -> tuple[MoveCheck, list[Finding]]:
        unit, (start, goal) = self.state.units[uid], (drags[0][0], drags[-1][1])
        a, b = self.where(start), self.where(goal)
        box = (goal.box or "").strip().casefold()
        kind = ("move" if goal.on_map else "eliminated" if box == self.rules.eliminated_box else "exit"
                if box == self.rules.exited_box else "off-map") if start.on_map else "entry" if goal.on_map else "box"
        mc = MoveCheck(uid, unit.name, unit.side, kind, a, b, len(drags), stops=tuple(self.where(d[1]) for d in drags))
        what = f"{unit.side} {unit.name} moved {' -> '.join(self.where(p) for p in (start, *(d[1] for d in drags)))}"
        hexes = tuple(self.where(p) for p in (start, goal) if p.on_map)
        if kind in ("eliminated", "box") or all((x.hex, x.box) == (y.hex, y.box) for x, y in drags):
            return mc, []
        mover = self.rules.movement_phases.get(self.phase or "")
        if mover != unit.side:
            if unit.side in self.rules.displaced.get(self.phase or "", ()):  # judged by displacement.py
                return mc, []
            return mc, [self.out_of_phase(uid, what, mover, hexes)]
        found = self.frozen(uid, start, what, hexes) + move_findings(
            self.state, uid, start, goal, self.rules.restricted, what=what, hexes=hexes, cite=self.cite,
            label=self.ctx.label)
        if kind == "entry":
            more, mc = self.entry(uid, drags, mc, what, hexes)
            return mc, found + more
        legs, left = _map_legs(drags)
        if legs:
            steps, note = (trail_legs(self.trails[uid], (legs[0][0], *(b for _, b in legs)), self.ctx.label)
                           if uid in self.trails and left is None else ([], ""))
            chain = (judge_legs(steps, self.mover(uid, exact=True), before="the hexes before") if steps
                     else judge_legs(legs, self.mover(uid)))
            mc, finding = self.verdict(uid, replace(mc, path_note=note), chain, what, hexes, len(drags) > 1,
                                       bool(steps))
            found.append(finding)
        return mc, found + self.left_map(uid, what, hexes, left)

    def left_map(self, uid: str, what: str, hexes: tuple[str, ...], left: int | None) -> list[Finding]:
        if left is None:
            return []
        return [Finding(self.cite(self.rules.movement.rule_ref), Severity.INFO,
                        f"{what}: left the map by drag {left}; the hex and path it left by, and any move after, are "
                        f"not checked", (uid,), hexes)]

    def verdict(self, uid: str, mc: MoveCheck, chain: Chain, what: str, hexes: tuple[str, ...], several: bool,
                trail: bool = False) -> tuple[MoveCheck, Finding]:
        """The verdict on `chain`: the cheapest way between drops, or (`trail`) the trail's hexes."""
        lab = self.ctx.label
        labels = tuple(lab(h) for h in chain.path)
        m, side_ref = self.rules.movement, self.rules.weather_side_rule
        if side_ref and not chain.ok and chain.leg_cost is None and chain.rule_ref == m.weather_ref:
            # legal_path cites one weather rule; with no cost it is a closed hexside, not the allowance
            chain = replace(chain, rule_ref=side_ref, reason=chain.reason.replace(f"[{m.weather_ref}]", f"[{side_ref}]"))
        rule = self.cite(chain.rule_ref or m.rule_ref)
        step = f"{lab(chain.drop[0])} -> {lab(chain.drop[1])}: " if chain.drop else ""
        leg = "" if not step else f"{AS_DRAGGED} {' '.join(labels)}, at {step}" if trail else f"leg {chain.leg}, {step}" \
            if several else ""
        note = f" ({AS_DRAGGED})" if trail else f"; {mc.path_note}" if mc.path_note else ""
        mc = replace(mc, ok=chain.ok, cost=chain.cost, allowance=chain.allowance, path=labels,
                     reason=leg + chain.reason, rule=rule, judged=AS_DRAGGED if trail else CHEAPEST)
        if chain.ok:
            return mc, Finding(rule, Severity.INFO, f"{what}: legal, {mp(chain.cost)} of {chain.allowance} MP by "
                                                    f"{' '.join(labels)}{note}", (uid,), hexes)
        tried = (f"; cheapest attempt {' '.join(map(lab, chain.leg_path))}"
                 + (f" ({mp(chain.leg_cost)} MP)" if chain.leg_cost is not None else "")) if chain.leg_path else ""
        tried = "" if trail else tried + note
        # The finding's hexes are the path tried, in order, so a picture can draw it.
        # The enemy units whose zones of control the reason names follow the mover, to be marked with it.
        return mc, Finding(rule, Severity.ERROR, f"{what}: {leg}{chain.reason}{tried}", (uid, *chain.units),
                           labels or hexes)

    def out_of_phase(self, uid: str, what: str, mover: str | None, hexes: tuple[str, ...]) -> Finding:
        side, phase, ref = self.state.units[uid].side, self.phase, self.rules.phase_rule or "sequence of play"
        if mover is not None:
            return Finding(self.cite(ref), Severity.ERROR, f"{what} in the {phase} phase: {side} units move only in "
                                                           f"the {side} movement phase [{ref}]", (uid,), hexes)
        if phase in self.rules.combat_phases:
            # Retreats and advances after combat move units then; the log cannot tell them apart.
            return Finding(self.cite(ref), Severity.WARNING, f"{what} in the {phase} phase: only a retreat or an "
                                                             f"advance after combat moves a unit then; which it was, "
                                                             f"and whether the combat allowed it, is not checked "
                                                             f"[{ref}]", (uid,), hexes)
        return Finding(self.cite(ref), Severity.INFO, f"{what} in phase {phase!r}, which the pack names as no "
                                                      f"movement or combat phase: not checked", (uid,), hexes)

    def frozen(self, uid: str, start: Position, what: str, hexes: tuple[str, ...]) -> list[Finding]:
        unit, out = self.state.units[uid], []
        for fr in self.rules.frozen:
            if (fr.side != unit.side or self.state.turn != fr.turn or start.hex is None
                    or printed_key(unit.name) not in fr.names):
                continue
            near = min((distance(start.hex, h) for h, ids in self.state.occupied().items()
                        if any(self.state.units[i].side != unit.side for i in ids)), default=None)
            if near is None or near > fr.exempt_range:
                nearest = ("no enemy unit is on the map" if near is None
                           else f"the nearest enemy unit is {near} hexes away")
                out.append(Finding(self.cite(fr.rule_ref), Severity.ERROR,
                                   f"{what} on Game-Turn {fr.turn}: units of the initial deployment may not be moved "
                                   f"then unless within {fr.exempt_range} hexes of an enemy unit, and {nearest} "
                                   f"[{fr.rule_ref}]", (uid,), hexes))
        return out

    def entry(self, uid: str, drags: Sequence[Drag], mc: MoveCheck, what: str, hexes: tuple[str, ...]
              ) -> tuple[list[Finding], MoveCheck]:
        unit, goal = self.state.units[uid], drags[-1][1].hex
        assert goal is not None
        key = printed_key(unit.name)
        found = next(((rs, e) for rs in self.rules.reinforcements if rs.side == unit.side
                      for e in rs.entries if key in {printed_key(n) for n in e.units}), None)
        if found is None:
            refs = [rs.rule_ref for rs in self.rules.reinforcements if rs.side == unit.side]
            ref = refs[0] if refs else self.rules.movement.rule_ref
            return [Finding(self.cite(ref), Severity.WARNING, f"{what}: entered the map, but no reinforcement entry "
                                                              f"of the pack lists it, so neither its turn nor its "
                                                              f"path is checked [{ref}]", (uid,), hexes)], mc
        rs, e = found
        out = self.entry_turn(uid, rs, e, what, hexes)
        arrival = next(i for i, (a, b) in enumerate(drags) if not a.on_map and b.on_map)
        first = drags[arrival][1].hex
        assert first is not None
        legs, left = _map_legs(drags[arrival + 1:])
        mover, m = self.mover(uid), self.rules.movement
        # The log shows where the drag onto the map ended; if that is no entry hex, the unit may
        # still have entered at any of them and moved on: ask for each (the entry leg is drag `arrival`).
        chains = [judge_legs([(s, first), *legs], mover, first=arrival + 1, entered=s,
                             spent=entry_hex_cost(self.state, self.ctx.terrain, uid, s, m))
                  for s in ((first,) if first in e.hexes else e.hexes)]
        best = min((c for c in chains if c.ok), key=lambda c: c.cost or 0, default=None)
        if best is None:  # the furthest leg reached, too far rather than forbidden, then a shorter attempt
            best = min(chains, key=lambda c: (-c.leg, c.leg_cost is None, not c.leg_path, c.leg_cost or 0,
                                              len(c.leg_path)))
        at = " or ".join(e.at)
        mc, finding = self.verdict(uid, mc, best, f"{what} (entering at {at})", hexes, len(drags) > 1)
        if not best.ok and first not in e.hexes:
            finding = replace(finding, message=f"{finding.message}; its entry hexes are {at} [{rs.rule_ref}]")
        return out + [finding] + self.left_map(uid, what, hexes, None if left is None else arrival + 1 + left), mc

    def entry_turn(self, uid: str, rs: Reinforcements, e: Entry, what: str, hexes: tuple[str, ...]) -> list[Finding]:
        state, turn, ref = self.seen, self.seen.turn, rs.rule_ref
        if turn is None:
            return [Finding(self.cite(ref), Severity.INFO, f"{what}: no Game-Turn is known, so the turn it "
                                                           f"enters on (it enters {e.words()}) is not checked [{ref}]",
                            (uid,), hexes)]
        lo, hi, why, seen = entry_due(e, state, moment(state, rs.phases), rs.phases.index(rs.movement_phase),
                                      self.ctx.label)
        because = f" ({why})" if why else ""
        if seen == "no":
            return [Finding(self.cite(ref), Severity.ERROR, f"{what} on Game-Turn {turn}, but it enters {e.words()} "
                                                            f"and {why} [{ref}]", (uid,), hexes)]
        if lo is not None and turn < lo:
            return [Finding(self.cite(ref), Severity.ERROR, f"{what} on Game-Turn {turn}: too early, it enters "
                                                            f"{e.words()}{because} [{ref}]", (uid,), hexes)]
        if seen in ("unknown", "undated") or (why and lo is not None and hi is not None and lo < hi and turn < hi):
            return [Finding(self.cite(ref), Severity.INFO, f"{what} on Game-Turn {turn}: whether it may enter now "
                                                           f"is not known; it enters {e.words()}{because} [{ref}]",
                            (uid,), hexes)]
        if hi is not None and turn > hi:
            return [Finding(self.cite(ref), Severity.INFO, f"{what} on Game-Turn {turn}: late (held back); it "
                                                           f"enters {e.words()} [{ref}]", (uid,), hexes)]
        return []


def check_phase(state: GameState, phase: str | None, moves: Mapping[str, Sequence[Drag]], rules: TurnRules,
                context: RuleContext, *, end: GameState | None = None,
                trails: Mapping[str, Sequence[Hex | None]] | None = None) -> PhaseCheck:
    """The findings on one phase's moves: `moves` maps a unit id to its drags in that phase,
    in order (the legs of one move, each dropped where the next starts). `state` is the
    position at the phase's start; `end` (optional) the one at its end, whose markers show a
    Withdrawal declared or an event dated during the phase. Units `state` lacks are skipped.
    `trails`: for a unit whose piece has a Movement Trail, the hexes its trail shows it went
    through in the phase (`legs.trail_legs`; empty when the trail does not cover the move)."""
    rules, findings = in_phase(rules, state, context)  # the movement and ZOC rules in force in this phase
    ph = _Phase(state, phase, rules, context, end, trails or {})
    checks: list[MoveCheck] = []
    for uid, drags in moves.items():
        if uid not in state.units or not drags:
            continue
        mc, found = ph.check(uid, drags)
        checks.append(mc)
        findings += found
    return PhaseCheck(tuple(findings), tuple(checks))
