"""Movement: allowances, terrain and hexside costs, prohibited terrain, roads, weather, ZOC.

`legal_path`: the cheapest legal path between two hexes, or why there is none (rule and
values); `reachable`: every hex a unit can reach, with its cost. One Dijkstra over movement
points, with terrain, hexside, weather and ZOC rules as edge rules: a step's legality depends
only on the step and the start hex, so a search over hexes is exact. Costs are pack parameters
(the seed gives none) and may be fractions (road 1/2): searched in whole ticks, reported as
`int` or `Fraction`.
"""

from __future__ import annotations

import heapq
from collections.abc import Callable, Collection, Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from types import MappingProxyType
from typing import Any

from vassal_adj.model.geometry.hexes import DIRECTIONS, Hex, distance
from vassal_adj.model.state import GameState
from vassal_adj.model.terrain import TerrainMap
from vassal_adj.rules.mechanisms.movement_mods import StepCost, modify_costs, unit_costs
from vassal_adj.rules.mechanisms.movement_params import MovementRules, allowance, weather_allowance
from vassal_adj.rules.mechanisms.path_faults import first_broken, short_ways_fault
from vassal_adj.rules.mechanisms.prohibition import Prohibition
from vassal_adj.rules.mechanisms.zoc import (
    blocked_side,
    enemy_zoc,
    no_sources,
    unit_classes,
    weather_name,
    zoc_sources,
)
from vassal_adj.rules.results import PathResult

__all__ = ["PathResult", "Prohibition", "Reach", "default_label", "entry_hex_cost", "legal_path", "reachable"]

_PENALTY = 10**12  # one broken rule outweighs any path cost (diagnosis only)
_DIRECTIONS = tuple((d.q, d.r) for d in DIRECTIONS)
_Key = tuple[int, int]  # a hex as (q, r) inside a search: it hashes in C, a Hex in Python
_HexCost = tuple[int, str | None, bool, frozenset[str], bool]  # `_Move.hex_cost`
_NONE: frozenset[str] = frozenset()
_UNSEEN = object()  # a step whose verdict `_Move.search` has not asked for yet


def default_label(h: Hex) -> str:
    """Raw column and row, two digits each ("1205"); pass `label=HexLayout.label_of` for real labels."""
    return "{:02d}{:02d}".format(*h.raw())


def _mp(ticks: int, scale: int) -> int | Fraction:
    return f.numerator if (f := Fraction(ticks, scale)).denominator == 1 else f


def entry_hex_cost(
    state: GameState, terrain: TerrainMap, unit_id: str, h: Hex, rules: MovementRules, weather: str | None = None
) -> int | Fraction:
    """The MP `unit_id` pays for `h` as it enters the map there (`rules.entry_cost`)."""
    if rules.entry_cost == "free":
        return 0
    return _mp(_Move(state, terrain, unit_id, h, rules, frozenset(), weather, False, None).hex_cost(h)[0], rules.scale)


@dataclass(frozen=True)
class Reach:
    """Every hex a unit can reach (`costs`: hex -> cheapest MP, the start 0) and how."""

    costs: Mapping[Hex, int | Fraction]
    parents: Mapping[Hex, Hex | None] = field(repr=False)
    allowance: int = 0

    def path_to(self, h: Hex) -> tuple[Hex, ...]:
        """A cheapest path from the start to `h` (empty when `h` is not reachable)."""
        return _path(self.parents, h) if h in self.costs else ()


class _Move:
    """Everything one search needs, looked up once: the unit's costs, enemy hexes, ZOC."""

    def __init__(
        self,
        state: GameState,
        terrain: TerrainMap,
        unit_id: str,
        start: Hex | None,
        rules: MovementRules,
        zoc: frozenset[Hex] | None,
        weather: str | None,
        withdrawal: bool,
        area: Collection[Hex] | None,
    ):
        if (unit := state.units.get(unit_id)) is None:
            raise KeyError(f"no unit {unit_id!r} in the game state")
        self.unit = unit
        if (start := start if start is not None else state.hex_of(unit_id)) is None:
            raise ValueError(f"unit {unit_id!r} ({unit.name}) is not on the map and no start hex was given")
        weather = state.weather if weather is None else weather
        classes = unit_classes(unit)
        self.rules, self.start, self.area, self.withdrawal, self.weather = rules, start, area, withdrawal, weather
        self.keyed = terrain.keyed()
        self.terrain_ticks = unit_costs(rules.terrain_costs, classes, rules.ticks)
        self.side_ticks = unit_costs(rules.hexside_costs, classes, rules.ticks)
        self.road_ticks = {k: v for k, v in unit_costs(rules.road_rates, classes, rules.ticks).items() if v}
        self.default = modify_costs(
            rules.cost_modifiers,
            weather,
            self.terrain_ticks,
            self.side_ticks,
            rules.ticks(rules.default_cost),
            rules.scale,
        )
        self.on_leaving = StepCost(rules.cost_modifiers, weather, rules.exit_multiplier, rules.scale)
        self.closed = frozenset(k for k, v in self.side_ticks.items() if v is None)  # impassable hexsides
        self.weather_closed = rules.impassable_in_weather.get(weather_name(weather), frozenset())
        self.prohibitions = [(p, who) for p in rules.prohibitions if (who := p.applies(classes))]
        self.classes, self.allow = classes, allowance(unit, weather, rules)
        self.occupied, self.units, self.side = state.occupied(), state.units, unit.side
        self.zr = zr = rules.zoc
        self.z = (
            frozenset()
            if zr is None or zr.mode == "none" or zr.ignores(unit)
            else (zoc if zoc is not None else enemy_zoc(state, terrain, unit.side, zr, weather))
        )
        self.start_in_z = start in self.z
        self.min_ticks = min([self.default, *self.road_ticks.values(), *filter(None, self.terrain_ticks.values())])
        self._hex_cost: dict[_Key, _HexCost] = {}
        self._by_terrain: dict[frozenset[str], tuple[int, str | None]] = {}
        self.extra: dict[Hex, int] = {}  # enemy-occupied hexes it may enter, and the ticks entering costs on top
        self._start_key = (start.q, start.r)
        self._hexes: dict[_Key, Hex] = {self._start_key: start}
        self._steps: dict[_Key, list[list[Any]]] = {}  # hex -> [neighbour, `edge` to it] (search)

    def is_enemy(self, h: Hex) -> bool:
        return any(self.units[i].side != self.side for i in self.occupied.get(h, ()) if i in self.units)

    def hex_cost(self, h: Hex) -> _HexCost:
        """Off-road ticks to enter `h`, terrain prohibiting it, may it be entered at all, its terrain,
        is it in the enemy zone of control."""
        k = (h.q, h.r)
        return self._hex_cost.get(k) or self._new_hex_cost(k, h)

    def _new_hex_cost(self, k: _Key, h: Hex) -> _HexCost:
        kt = self.keyed
        terr = kt.terrain.get(k, _NONE)
        if (by_terrain := self._by_terrain.get(terr)) is None:  # many hexes share a terrain
            names = sorted(t for t in terr if t in self.terrain_ticks)
            costs = [v for t in names if (v := self.terrain_ticks[t]) is not None]
            total = (max(costs) if self.rules.combine == "highest" else sum(costs)) if costs else self.default
            by_terrain = self._by_terrain[terr] = (
                total,
                next((t for t in names if self.terrain_ticks[t] is None), None),
            )
        open_ = kt.on_board(k) and (self.area is None or h in self.area)
        if open_ and h in self.occupied and self.is_enemy(h):  # most hexes are empty: no generator for them
            ee = self.rules.enterable_enemy  # 4.2-style: only enemy units it picks, entered at a cost
            open_ = (
                ee is not None
                and ee.by(self.unit)
                and all(
                    ee.enemies.matches(u)
                    for i in self.occupied[h]
                    if (u := self.units.get(i)) is not None and u.side != self.side
                )
            )
            if open_ and ee is not None:  # paid on top of the terrain cost, even along a road
                self.extra[h] = self.rules.ticks(ee.extra_cost)
        got = self._hex_cost[k] = (*by_terrain, open_, terr, h in self.z)
        return got

    def edge(self, a: Hex, b: Hex) -> tuple[int, tuple[tuple[str, ...], ...]] | None:
        """(ticks, every rule the step a -> b breaks: none when legal); None when b can never be entered.
        A broken rule is (kind, rule number, the values its words quote: rules/mechanisms/path_faults.py REASONS)."""
        ka, kb, costs = (a.q, a.r), (b.q, b.r), self._hex_cost
        ticks, banned, open_, terr_b, b_in_z = costs.get(kb) or self._new_hex_cost(kb, b)
        if not open_:
            return None
        terr_a, a_in_z = (costs.get(ka) or self._new_hex_cost(ka, a))[3:]
        fs = self.keyed.sides.get(ka + kb, _NONE)
        broken: tuple[tuple[str, ...], ...] = ()
        zr = self.zr
        if self.z and zr is not None:  # entering stops (or is barred); leaving per `zr.mode`; 19.2 and 19.21
            from_start = ka == self._start_key
            if zr.mode == "no-entry":
                broken = (("zoc-no-entry", zr.rule_ref),) if b_in_z else ()
            elif not from_start and a_in_z:
                broken = (("zoc-stop", zr.rule_ref),)
            elif from_start and self.start_in_z:
                if zr.mode == "sticky" and not self.withdrawal:
                    ref = zr.withdrawal_ref and f" except in a Withdrawal ({zr.withdrawal_ref})"
                    broken = (("zoc-locked", zr.rule_ref, ref),)
                elif zr.mode == "stop" and not zr.zoc_to_zoc and b_in_z and not self.withdrawal:
                    broken = (("zoc-to-zoc", zr.rule_ref),)
            if not broken and self.withdrawal and self.start_in_z and b_in_z and kb != self._start_key:
                broken = (("reenter", zr.reenter_ref),)
        if fs:
            bridges = self.rules.bridge_features
            f = blocked_side(fs, self.closed, bridges)
            if fs & self.rules.impassable_sides:  # no bridge opens it
                broken += (("side", self.rules.impassable_ref, min(fs & self.rules.impassable_sides)),)
            elif f is not None:
                broken += (("side", self.rules.rule_ref, f),)
            elif (f := blocked_side(fs, self.weather_closed, bridges)) is not None:
                broken += (("weather-side", self.rules.weather_ref, f, weather_name(self.weather)),)
        if self.prohibitions:
            for p, who in self.prohibitions:
                if fs & p.through:
                    continue
                if p.terrain in terr_b:
                    via = f" except through {' or '.join(sorted(p.through))} hexsides ({p.through_ref})"
                    broken += (("enter", p.rule_ref, p.terrain, who, via if p.through else ""),)
                elif p.terrain in terr_a:
                    broken += (("exit", p.through_ref or p.rule_ref, p.terrain, who, " or ".join(sorted(p.through))),)
        if fs:
            ticks += sum(self.side_ticks.get(f) or 0 for f in fs)
            roads = [self.road_ticks[f] for f in fs if f in self.road_ticks]
            if roads:  # a road move ignores the hex's terrain and the hexside's costs
                ticks = min(roads) if banned is not None else min(ticks, min(roads))
                banned = None
        if banned is not None:
            broken += (("terrain", self.rules.rule_ref, banned, self.classes[0]),)
        if self.on_leaving.terrain:
            ticks = self.on_leaving(terr_a, ticks)
        if self.extra:
            ticks += self.extra.get(b, 0)
        return ticks, broken

    def search(
        self,
        limit: int | None,
        relax: bool,
        goal: Hex | None = None,
        penalty: int = _PENALTY,
        strict: Collection[tuple[str, ...]] = (),
    ) -> tuple[dict[_Key, int], dict[_Key, _Key | None]]:
        """Dijkstra: legal steps only, or (`relax`) all but those breaking a rule whose (kind, rule number)
        is in `strict`, with `penalty` per step breaking rules; `limit` caps the cost. Hexes as (q, r)
        keys (`way` gives a path as hexes)."""
        # Hexes are (q, r) tuples inside: they hash and compare in C, where a Hex calls Python, and
        # order as Hex does, so the heap pops (and ties break) as with Hex keys. Each step's verdict
        # is kept in `self._steps`: a failed move's diagnosis searches the same steps up to 7 times.
        start, sk, hexes, steps = self.start, self._start_key, self._hexes, self._steps
        gk = None if goal is None else (goal.q, goal.r)
        dist: dict[_Key, int] = {sk: 0}
        parent: dict[_Key, _Key | None] = {sk: None}
        done: set[_Key] = set()
        heap = [(0, sk)]
        first_ok = self.rules.minimum_move and self.allow >= 1
        bounded = goal is not None and limit is None and self.area is None
        if bounded:
            assert goal is not None
            reach = distance(start, goal) + 2 * (self.allow * self.rules.scale // self.min_ticks) + 4
            sq, sr, gq, gr = start.q, start.r, goal.q, goal.r
        while heap:
            d, k = heapq.heappop(heap)
            if k == gk:
                break
            if k in done or (limit is not None and d > limit):  # beyond the limit: a minimum move
                continue
            done.add(k)
            links = steps.get(k)
            if links is None:
                q, r = k
                links = steps[k] = [[(q + dq, r + dr), _UNSEEN] for dq, dr in _DIRECTIONS]
            for link in links:
                n, step = link
                if n in done:
                    continue
                if bounded:  # off the ellipse of ways no longer than the allowance allows: hex distances
                    nq, nr = n
                    to_start = abs(nq - sq) + abs(nr - sr) + abs(nq + nr - sq - sr)
                    if (to_start + abs(nq - gq) + abs(nr - gr) + abs(nq + nr - gq - gr)) // 2 > reach:
                        continue
                if step is _UNSEEN:
                    step = link[1] = self.edge(hexes[k], hexes.get(n) or self._new_hex(n))
                if step is None or (step[1] and (not relax or any(x[:2] in strict for x in step[1]))):
                    continue
                nd = d + step[0] + (penalty if step[1] else 0)
                if limit is not None and nd > limit and not (k == sk and first_ok):
                    continue
                if nd < dist.get(n, nd + 1):
                    dist[n], parent[n] = nd, k
                    heapq.heappush(heap, (nd, n))
        return dist, parent

    def way(self, parent: Mapping[_Key, _Key | None], goal: _Key) -> tuple[Hex, ...]:
        """The path a search found from the start to `goal`, as hexes."""
        out, k = [], goal
        while k is not None:
            out.append(self._hexes[k])
            k = parent[k]
        return tuple(reversed(out))

    def _new_hex(self, k: _Key) -> Hex:
        """The Hex of a search key met for the first time: one object per hex, so dict lookups meet identity."""
        h = self._hexes[k] = Hex(*k)
        return h


def _path(parent: Mapping[Hex, Hex | None], h: Hex | None) -> tuple[Hex, ...]:
    out = []
    while h is not None:
        out.append(h)
        h = parent[h]
    return tuple(reversed(out))


def legal_path(
    state: GameState,
    terrain: TerrainMap,
    unit_id: str,
    start: Hex | None,
    goal: Hex,
    rules: MovementRules,
    zoc: frozenset[Hex] | None = None,
    weather: str | None = None,
    *,
    withdrawal: bool = False,
    area: Collection[Hex] | None = None,
    label: Callable[[Hex], str | None] | None = None,
) -> PathResult:
    """The cheapest legal path of `unit_id` from `start` (None: its hex in `state`) to `goal`.

    `zoc`: enemy-controlled hexes (`zoc.enemy_zoc`; None: computed from `rules.zoc`).
    `weather`: None means `state.weather`. `withdrawal`: a Withdrawal Movement Phase (19.2,
    19.21). `area`: hexes the search may use, within `terrain.on_board` (None: the board's).
    `label`: hex names for reasons (e.g. `HexLayout.label_of`). A failure names, in order: a
    bad goal, the allowance (a path exists but costs too much) and every rule that closes a way within it
    (rules/mechanisms/path_faults.py), else the first rule broken on a path breaking fewest.
    """
    m = _Move(state, terrain, unit_id, start, rules, zoc, weather, withdrawal, area)
    allow, scale, start_hex = m.allow, rules.scale, m.start
    lab = lambda h: (label(h) if label is not None else None) or default_label(h)  # noqa: E731
    # the enemy units exerting a zone of control that a reason cites, named in it and returned with it
    whose = zoc_sources(state, terrain, m.side, m.zr, lab, m.weather) if m.z and m.zr is not None else no_sources
    if goal == start_hex:
        return PathResult(True, 0, (goal,), allowance=allow)
    if not m.hex_cost(goal)[2]:
        names = ", ".join(state.units[i].name for i in state.occupied().get(goal, ()) if i in state.units)
        why = f"is occupied by enemy unit {names}" if m.is_enemy(goal) else "is off the map"
        return PathResult(False, None, (), f"hex {lab(goal)} {why} [{rules.rule_ref}]", rules.rule_ref, allow)
    gk = (goal.q, goal.r)
    dist, parent = m.search(allow * scale, relax=False, goal=goal)
    if gk in dist:
        return PathResult(True, _mp(dist[gk], scale), m.way(parent, gk), allowance=allow)
    dist, parent = m.search(None, relax=False, goal=goal)
    if gk in dist:
        need = _mp(dist[gk], scale)
        weathered = weather_allowance(m.unit, m.weather, rules)
        if allow != weathered:  # an allowance modifier set it (seed 001 9.2, Campaign II), not the weather
            why, ref = f"needs {need} MP, allowance {allow} (printed {m.unit.movement})", rules.modifier_ref
            ref = ref or rules.rule_ref
        else:
            changed = allow != m.unit.movement
            why = f"needs {need} MP, allowance {allow}" + (f" in {weather_name(m.weather)} weather" if changed else "")
            ref = rules.weather_ref if changed else rules.rule_ref

        # Within the allowance only by breaking rules (a panzer cutting through rough, or through a zone of
        # control): every rule that closes such a way is named (rules/mechanisms/path_faults.py).
        def within(strict: frozenset[tuple[str, str]]) -> tuple[tuple[Hex, ...], int | Fraction] | None:
            near, near_parent = m.search(allow * scale, relax=True, goal=goal, penalty=0, strict=strict)
            return (m.way(near_parent, gk), _mp(near[gk], scale)) if gk in near else None

        why, cite, units = f"{why} [{ref}]", ref, ()
        if fault := short_ways_fault(within, m.edge, lab, whose):
            why, cite, units = f"the legal way {why}; {fault[0]}", fault[1], fault[2]
        return PathResult(False, need, m.way(parent, gk), why, cite, allow, units)
    dist, parent = m.search(None, relax=True, goal=goal)
    path = m.way(parent, gk) if gk in dist else ()
    if (broken := first_broken(m.edge, path, lab, whose)) is not None:
        return PathResult(False, None, path, f"{broken.words} [{broken.rule}]", broken.rule, allow, broken.units)
    why = f"no path from {lab(start_hex)} to {lab(goal)}"
    return PathResult(False, None, path, f"{why} [{rules.rule_ref}]", rules.rule_ref, allow)


def reachable(
    state: GameState,
    terrain: TerrainMap,
    unit_id: str,
    start: Hex | None,
    rules: MovementRules,
    zoc: frozenset[Hex] | None = None,
    weather: str | None = None,
    *,
    withdrawal: bool = False,
    area: Collection[Hex] | None = None,
) -> Reach:
    """Every hex `unit_id` can legally reach from `start` this phase and its cost (as `legal_path`)."""
    m = _Move(state, terrain, unit_id, start, rules, zoc, weather, withdrawal, area)
    dist, parent = m.search(m.allow * rules.scale, relax=False)
    at = m._hexes
    costs = {at[k]: _mp(d, rules.scale) for k, d in dist.items()}
    parents = {at[k]: None if p is None else at[p] for k, p in parent.items()}
    return Reach(MappingProxyType(costs), MappingProxyType(parents), m.allow)
