"""The ways a unit may go in a phase, under the phase's rules: the cheapest legal path with the
rule broken when there is none, and the `Mover` that judges a chain of legs (legs.py).

A path is searched with the movement and ZOC rules in force (movement.py); when it fails, two
diagnoses name the rule really broken: a hexside closed by the weather (20.2-style) when the
way around is too long, and a `movement.restricted` region (restricted.py) when only it blocks
the way. Zones of control are computed once per side and phase.

Pure: a state, the rules and the context in, paths out.
"""

from __future__ import annotations

from dataclasses import replace
from itertools import pairwise

from vassal_adj.model.geometry.hexes import Hex
from vassal_adj.model.state import GameState
from vassal_adj.rules.engine import RuleContext
from vassal_adj.rules.mechanisms.legs import Mover, mp
from vassal_adj.rules.mechanisms.movement import PathResult, legal_path
from vassal_adj.rules.mechanisms.movement_params import allowance
from vassal_adj.rules.mechanisms.restricted import forbidden
from vassal_adj.rules.mechanisms.turn_rules import TurnRules, withdrawing
from vassal_adj.rules.mechanisms.zoc import blocked_side, enemy_zoc, no_sources, weather_name, zoc_sources

__all__ = ["Paths"]


class Paths:
    """Paths in one phase: `state` the position at its start; `seen` the same units with the
    markers at its end (a Withdrawal marker is placed as the phase begins)."""

    def __init__(self, state: GameState, seen: GameState, rules: TurnRules, ctx: RuleContext) -> None:
        self.state, self.seen, self.rules, self.ctx = state, seen, rules, ctx
        self.zoc: dict[str, frozenset[Hex] | None] = {}

    def enemy_zoc(self, side: str) -> frozenset[Hex] | None:
        z = self.rules.movement.zoc
        if side not in self.zoc:
            self.zoc[side] = None if z is None else enemy_zoc(self.state, self.ctx.terrain, side, z)
        return self.zoc[side]

    def path(self, uid: str, start: Hex, goal: Hex, area: frozenset[Hex] | None = None) -> PathResult:
        side, m = self.state.units[uid].side, self.rules.movement
        zoc, wd = self.enemy_zoc(side), withdrawing(self.seen, side, self.rules)
        res = legal_path(
            self.state, self.ctx.terrain, uid, start, goal, m, zoc, withdrawal=wd, area=area, label=self.ctx.label
        )
        closed = m.impassable_in_weather.get(weather_name(self.state.weather), frozenset())
        if res.ok or res.cost is None or not closed:
            return res
        # Too far only because the weather closed hexsides (20.2)? Then that is the rule broken.
        open_ = legal_path(
            self.state,
            self.ctx.terrain,
            uid,
            start,
            goal,
            replace(m, impassable_in_weather={}),
            zoc,
            withdrawal=wd,
            area=area,
            label=self.ctx.label,
        )
        crossed = next(
            (
                (a, b, f)
                for a, b in pairwise(open_.path)
                if (f := blocked_side(self.ctx.terrain.features_between(a, b), closed, m.bridge_features))
            ),
            None,
        )
        if not open_.ok or crossed is None:
            return res
        a, b, f = crossed
        ref = self.rules.weather_side_rule or m.weather_ref
        why = (
            f"unbridged {f} hexside {self.ctx.label(a)}/{self.ctx.label(b)} may not be crossed in "
            f"{weather_name(self.state.weather)} weather [{ref}]; the way around needs {mp(res.cost)} MP, "
            f"allowance {res.allowance} [{res.rule_ref}]"
        )
        return PathResult(False, None, open_.path, why, ref, res.allowance)

    def mover(self, uid: str, exact: bool = False) -> Mover:
        """`exact`: each leg is one step, from hex to next hex, never a way around."""
        unit, m = self.state.units[uid], self.rules.movement
        zoc, zr = self.enemy_zoc(unit.side), m.zoc
        obeyed = frozenset() if zoc is None or zr is None or zr.mode == "none" or zr.ignores(unit) else zoc
        return Mover(
            lambda a, b: self.path(uid, a, b, frozenset((a, b))) if exact else self.free_path(uid, a, b),
            allowance(unit, self.state.weather, m),
            unit.movement,
            obeyed,
            withdrawing(self.seen, unit.side, self.rules),
            m,
            weather_name(self.state.weather),
            self.ctx.label,
            zoc_sources(self.state, self.ctx.terrain, unit.side, zr, self.ctx.label) if obeyed and zr else no_sources,
        )

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
        why = (
            f"its way {' '.join(lab(h) for h in way.path)} enters {lab(crossed)}, and {r.words()} "
            f"[{r.rule_ref}]; no way around is within the allowance"
        )
        return PathResult(False, None, way.path, why, r.rule_ref, res.allowance)
