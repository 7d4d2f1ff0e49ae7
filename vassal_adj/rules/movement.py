"""Movement: allowances, terrain and hexside costs, prohibited terrain, roads, weather, ZOC.

`legal_path`: the cheapest legal path between two hexes, or why there is none (rule and
values); `reachable`: every hex a unit can reach, with its cost. One Dijkstra over movement
points, with terrain, hexside, weather and ZOC rules as edge rules: a step's legality depends
only on the step and the start hex, so a search over hexes is exact. Costs are pack parameters
(the seed gives none) and may be fractions (road 1/2): searched in whole ticks, reported as
`int` or `Fraction`.

>>> from vassal_adj.model.units import Unit
>>> poor = MovementRules(weather_allowance={"poor": ((8, -5), (0, -2))})  # a 20.3-style table
>>> allowance(Unit("u", "2-3-11 (1/6)", "Allied", "armor", 11), "Poor", poor)
6
"""

from __future__ import annotations

import heapq
import math
from collections.abc import Callable, Collection, Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from types import MappingProxyType

from ..model.hexes import Hex, distance, neighbors
from ..model.state import GameState
from ..model.terrain import TerrainMap
from ..model.units import Unit
from .movement_mods import AllowanceModifier, CostModifier, EnterableEnemy, StepCost, modify_costs, unit_costs
from .path_faults import first_broken, short_ways_fault
from .prohibition import Prohibition
from .results import PathResult
from .zoc import (ZocRules, blocked_side, enemy_zoc, freeze_weather_map, no_sources, unit_classes, weather_name,
                  zoc_sources)

__all__ = ["MovementRules", "PathResult",
           "Prohibition", "Reach", "allowance", "default_label", "entry_hex_cost", "legal_path", "reachable"]

Cost = int | float | Fraction
CostSpec = Cost | None | Mapping[str, Cost | None]
_PENALTY = 10 ** 12  # one broken rule outweighs any path cost (diagnosis only)


def _numbers(table: Mapping[str, CostSpec]) -> list[Cost]:
    return [v for s in table.values() for v in (s.values() if isinstance(s, Mapping) else (s,)) if v is not None]


def _freeze_costs(table: Mapping[str, CostSpec]) -> Mapping[str, CostSpec]:
    return MappingProxyType({k: MappingProxyType(dict(v)) if isinstance(v, Mapping) else v for k, v in table.items()})


def _frac(v: Cost) -> Fraction:  # floats as the fractions they stand for: 0.5 -> 1/2, 1 / 3 -> 1/3
    return Fraction(v).limit_denominator(1000) if isinstance(v, float) else Fraction(v)


def _hashable(table: Mapping[str, object]) -> frozenset[tuple[str, object]]:
    return frozenset((k, frozenset(v.items()) if isinstance(v, Mapping) else v) for k, v in table.items())


def default_label(h: Hex) -> str:
    """Raw column and row, two digits each ("1205"); pass `label=HexLayout.label_of` for real labels."""
    return "{:02d}{:02d}".format(*h.raw())


@dataclass(frozen=True)
class MovementRules:
    """A game's movement parameters (all pack values; defaults are neutral).

    - `terrain_costs`: terrain -> MP to enter: a number, or a table by unit class (kind,
      flags, "mechanized"/"non-mechanized", "*"); None: prohibited off-road. Terrain with no
      entry does not count; a hex with none that counts costs `default_cost`. `combine`:
      "highest" (highest single cost) or "sum" when a hex has several.
    - `hexside_costs`: feature -> MP added for crossing (None: never crossed, unless the side
      carries a `bridge_features` feature).
    - `road_rates`: feature -> MP per hex crossing a hexside that carries it (17.13's
      "connected"); it replaces terrain and hexside costs; the unit pays the cheaper way.
    - `minimum_move`: a unit with an allowance >= 1 may always move one hex unless prohibited.
    - `prohibitions`: `Prohibition`s (16.11 with 16.12).
    - `impassable_in_weather`: weather -> hexside features no unit crosses then, unless bridged
      (20.0: poor -> stream). `weather_allowance`: weather -> brackets (minimum printed
      allowance, change), first match wins (20.0: poor -> ((8, -5), (0, -2))); never below 0.
    - `zoc`: the `ZocRules` movement obeys (None: zones of control are ignored).
    - `impassable_sides`: hexside features no unit ever crosses, bridged or not, minimum move or
      not (seed 004 13.4.4: "ground units may not cross all-sea hexsides").
    - `cost_modifiers`, `exit_multiplier`, `allowance_modifiers`: rules/movement_mods.py; the
      first allowance modifier that matches applies after `weather_allowance`. `enterable_enemy`:
      enemy-occupied hexes that may be entered, at a cost (None: none may).
    - `entry_cost`: what a unit entering the map pays for its entry hex: "free", or "terrain"
      (the hex's terrain cost off road, as for any hex entered); `entry_hex_cost` gives it.
    """

    terrain_costs: Mapping[str, CostSpec] = field(default_factory=dict)
    default_cost: Cost = 1
    hexside_costs: Mapping[str, CostSpec] = field(default_factory=dict)
    road_rates: Mapping[str, CostSpec] = field(default_factory=dict)
    combine: str = "highest"
    minimum_move: bool = True
    prohibitions: tuple[Prohibition, ...] = ()
    impassable_in_weather: Mapping[str, frozenset[str]] = field(default_factory=dict)
    bridge_features: frozenset[str] = frozenset({"bridge"})
    weather_allowance: Mapping[str, tuple[tuple[int, int], ...]] = field(default_factory=dict)
    zoc: ZocRules | None = ZocRules()
    impassable_sides: frozenset[str] = frozenset()
    cost_modifiers: tuple[CostModifier, ...] = ()
    exit_multiplier: Mapping[str, int] = field(default_factory=dict)
    allowance_modifiers: tuple[AllowanceModifier, ...] = ()
    enterable_enemy: EnterableEnemy | None = None
    entry_cost: str = "free"
    rule_ref: str = "standard-movement"
    impassable_ref: str = "standard-movement"
    weather_ref: str = "20.0"
    scale: int = field(init=False, repr=False, compare=False, default=1)

    def __post_init__(self) -> None:
        set_ = object.__setattr__
        if self.combine not in ("highest", "sum"):
            raise ValueError(f"combine must be 'highest' or 'sum', got {self.combine!r}")
        if self.entry_cost not in ("free", "terrain"):
            raise ValueError(f"entry_cost must be 'free' or 'terrain', got {self.entry_cost!r}")
        for name in ("terrain_costs", "hexside_costs", "road_rates"):
            set_(self, name, _freeze_costs(getattr(self, name)))
        set_(self, "prohibitions", tuple(self.prohibitions))
        set_(self, "bridge_features", frozenset(self.bridge_features))
        set_(self, "impassable_sides", frozenset(self.impassable_sides))
        set_(self, "cost_modifiers", tuple(self.cost_modifiers))
        set_(self, "allowance_modifiers", tuple(self.allowance_modifiers))
        set_(self, "exit_multiplier", MappingProxyType(dict(self.exit_multiplier)))
        set_(self, "impassable_in_weather", freeze_weather_map(self.impassable_in_weather))
        set_(self, "weather_allowance", MappingProxyType(
            {weather_name(k): tuple(sorted(((int(m), int(c)) for m, c in v), reverse=True))
             for k, v in self.weather_allowance.items()}))
        positive = [*_numbers(self.terrain_costs), *_numbers(self.road_rates), self.default_cost]
        if bad := [v for v in positive if not v > 0] + [v for v in _numbers(self.hexside_costs) if v < 0]:
            raise ValueError(f"movement costs must be positive (hexside costs >= 0), got {bad[0]!r}")
        added = [c.value for c in self.cost_modifiers if c.op != "multiply"] + (
            [self.enterable_enemy.extra_cost] if self.enterable_enemy else [])
        set_(self, "scale", math.lcm(*(_frac(v).denominator for v in positive + _numbers(self.hexside_costs) + added)))

    def __hash__(self) -> int:
        return hash((*map(_hashable, (self.terrain_costs, self.hexside_costs, self.road_rates,
                                      self.impassable_in_weather, self.weather_allowance, self.exit_multiplier)),
                     self.default_cost, self.combine, self.entry_cost, self.minimum_move, self.prohibitions,
                     self.bridge_features, self.zoc, self.impassable_sides, self.cost_modifiers, self.allowance_modifiers,
                     self.enterable_enemy))

    def ticks(self, v: Cost) -> int:
        """A cost in the search's whole units (MP times `scale`)."""
        return int(_frac(v) * self.scale)


def allowance(unit: Unit, weather: str | None, rules: MovementRules) -> int:
    """The allowance in `weather`: the printed one changed by the first matching bracket (>= 0),
    then by the first of `rules.allowance_modifiers` that is for the unit in this weather."""
    mp = next((max(0, unit.movement + change) for minimum, change in rules.weather_allowance.get(weather_name(weather), ())
               if unit.movement >= minimum), unit.movement)
    return next((got for m in rules.allowance_modifiers if (got := m.apply(unit, weather, mp)) is not None), mp)


def _mp(ticks: int, scale: int) -> int | Fraction:
    return f.numerator if (f := Fraction(ticks, scale)).denominator == 1 else f


def entry_hex_cost(state: GameState, terrain: TerrainMap, unit_id: str, h: Hex, rules: MovementRules,
                   weather: str | None = None) -> int | Fraction:
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

    def __init__(self, state: GameState, terrain: TerrainMap, unit_id: str, start: Hex | None, rules: MovementRules,
                 zoc: frozenset[Hex] | None, weather: str | None, withdrawal: bool, area: Collection[Hex] | None):
        if (unit := state.units.get(unit_id)) is None:
            raise KeyError(f"no unit {unit_id!r} in the game state")
        self.unit = unit
        if (start := start if start is not None else state.hex_of(unit_id)) is None:
            raise ValueError(f"unit {unit_id!r} ({unit.name}) is not on the map and no start hex was given")
        weather = state.weather if weather is None else weather
        classes = unit_classes(unit)
        self.rules, self.start, self.area, self.withdrawal, self.weather = rules, start, area, withdrawal, weather
        self.between, self.hex_terrain, self.on_board = terrain.features_between, terrain.hex_terrain, terrain.on_board
        self.terrain_ticks = unit_costs(rules.terrain_costs, classes, rules.ticks)
        self.side_ticks = unit_costs(rules.hexside_costs, classes, rules.ticks)
        self.road_ticks = {k: v for k, v in unit_costs(rules.road_rates, classes, rules.ticks).items() if v}
        self.default = modify_costs(rules.cost_modifiers, weather, self.terrain_ticks, self.side_ticks,
                                    rules.ticks(rules.default_cost), rules.scale)
        self.on_leaving = StepCost(rules.cost_modifiers, weather, rules.exit_multiplier, rules.scale)
        self.closed = frozenset(k for k, v in self.side_ticks.items() if v is None)  # impassable hexsides
        self.weather_closed = rules.impassable_in_weather.get(weather_name(weather), frozenset())
        self.prohibitions = [(p, who) for p in rules.prohibitions if (who := p.applies(classes))]
        self.classes, self.allow = classes, allowance(unit, weather, rules)
        self.occupied, self.units, self.side = state.occupied(), state.units, unit.side
        self.zr = zr = rules.zoc
        self.z = frozenset() if zr is None or zr.mode == "none" or zr.ignores(unit) else (
            zoc if zoc is not None else enemy_zoc(state, terrain, unit.side, zr, weather))
        self.start_in_z = start in self.z
        self.min_ticks = min([self.default, *self.road_ticks.values(), *filter(None, self.terrain_ticks.values())])
        self._hex_cost: dict[Hex, tuple[int, str | None, bool, frozenset[str]]] = {}
        self.extra: dict[Hex, int] = {}  # enemy-occupied hexes it may enter, and the ticks entering costs on top

    def is_enemy(self, h: Hex) -> bool:
        return any(self.units[i].side != self.side for i in self.occupied.get(h, ()) if i in self.units)

    def hex_cost(self, h: Hex) -> tuple[int, str | None, bool, frozenset[str]]:
        """Off-road ticks to enter `h`, terrain prohibiting it, may it be entered at all, its terrain."""
        got = self._hex_cost.get(h)
        if got is None:
            terr = self.hex_terrain.get(h, frozenset())
            names = sorted(t for t in terr if t in self.terrain_ticks)
            costs = [v for t in names if (v := self.terrain_ticks[t]) is not None]
            total = (max(costs) if self.rules.combine == "highest" else sum(costs)) if costs else self.default
            banned = next((t for t in names if self.terrain_ticks[t] is None), None)
            open_ = self.on_board(h) and (self.area is None or h in self.area)
            if open_ and self.is_enemy(h):
                ee = self.rules.enterable_enemy  # 4.2-style: only enemy units it picks, entered at a cost
                open_ = ee is not None and ee.by(self.unit) and all(
                    ee.enemies.matches(u) for i in self.occupied[h] if (u := self.units.get(i)) is not None and u.side != self.side)
                if open_ and ee is not None:  # paid on top of the terrain cost, even along a road
                    self.extra[h] = self.rules.ticks(ee.extra_cost)
            got = self._hex_cost[h] = (total, banned, open_, terr)
        return got

    def edge(self, a: Hex, b: Hex) -> tuple[int, tuple[tuple[str, ...], ...]] | None:
        """(ticks, every rule the step a -> b breaks: none when legal); None when b can never be entered.
        A broken rule is (kind, rule number, the values its words quote: rules/path_faults.py REASONS)."""
        ticks, banned, open_, terr_b = self.hex_cost(b)
        if not open_:
            return None
        fs = self.between(a, b)
        broken: tuple[tuple[str, ...], ...] = ()
        z, zr = self.z, self.zr
        if z and zr is not None:  # entering stops (or is barred); leaving per `zr.mode`; 19.2 and 19.21
            if zr.mode == "no-entry":
                broken = (("zoc-no-entry", zr.rule_ref),) if b in z else ()
            elif a != self.start and a in z:
                broken = (("zoc-stop", zr.rule_ref),)
            elif a == self.start and self.start_in_z:
                if zr.mode == "sticky" and not self.withdrawal:
                    ref = zr.withdrawal_ref and f" except in a Withdrawal ({zr.withdrawal_ref})"
                    broken = (("zoc-locked", zr.rule_ref, ref),)
                elif zr.mode == "stop" and not zr.zoc_to_zoc and b in z and not self.withdrawal:
                    broken = (("zoc-to-zoc", zr.rule_ref),)
            if not broken and self.withdrawal and self.start_in_z and b in z and b != self.start:
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
            terr_a = self.hex_cost(a)[3]
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
            ticks = self.on_leaving(self.hex_cost(a)[3], ticks)
        if self.extra:
            ticks += self.extra.get(b, 0)
        return ticks, broken

    def search(self, limit: int | None, relax: bool, goal: Hex | None = None, penalty: int = _PENALTY,
               strict: Collection[tuple[str, ...]] = ()) -> tuple[dict[Hex, int], dict[Hex, Hex | None]]:
        """Dijkstra: legal steps only, or (`relax`) all but those breaking a rule whose (kind, rule number)
        is in `strict`, with `penalty` per step breaking rules; `limit` caps the cost."""
        start = self.start
        dist: dict[Hex, int] = {start: 0}
        parent: dict[Hex, Hex | None] = {start: None}
        done: set[Hex] = set()
        heap = [(0, start)]
        first_ok = self.rules.minimum_move and self.allow >= 1
        in_bounds: Callable[[Hex], bool] = lambda h: True  # noqa: E731
        if limit is None and self.area is None and goal is not None:
            reach = distance(start, goal) + 2 * (self.allow * self.rules.scale // self.min_ticks) + 4
            in_bounds = lambda h: distance(start, h) + distance(h, goal) <= reach  # noqa: E731
        while heap:
            d, h = heapq.heappop(heap)
            if h == goal:
                break
            if h in done or (limit is not None and d > limit):  # beyond the limit: a minimum move
                continue
            done.add(h)
            for n in neighbors(h):
                if n in done or not in_bounds(n):
                    continue
                step = self.edge(h, n)
                if step is None or (step[1] and (not relax or any(x[:2] in strict for x in step[1]))):
                    continue
                nd = d + step[0] + (penalty if step[1] else 0)
                if limit is not None and nd > limit and not (h == start and first_ok):
                    continue
                if nd < dist.get(n, nd + 1):
                    dist[n], parent[n] = nd, h
                    heapq.heappush(heap, (nd, n))
        return dist, parent


def _path(parent: Mapping[Hex, Hex | None], h: Hex | None) -> tuple[Hex, ...]:
    out = []
    while h is not None:
        out.append(h)
        h = parent[h]
    return tuple(reversed(out))


def legal_path(state: GameState, terrain: TerrainMap, unit_id: str, start: Hex | None, goal: Hex,
               rules: MovementRules, zoc: frozenset[Hex] | None = None, weather: str | None = None, *,
               withdrawal: bool = False, area: Collection[Hex] | None = None,
               label: Callable[[Hex], str | None] | None = None) -> PathResult:
    """The cheapest legal path of `unit_id` from `start` (None: its hex in `state`) to `goal`.

    `zoc`: enemy-controlled hexes (`zoc.enemy_zoc`; None: computed from `rules.zoc`).
    `weather`: None means `state.weather`. `withdrawal`: a Withdrawal Movement Phase (19.2,
    19.21). `area`: hexes the search may use, within `terrain.on_board` (None: the board's).
    `label`: hex names for reasons (e.g. `HexLayout.label_of`). A failure names, in order: a
    bad goal, the allowance (a path exists but costs too much) and every rule that closes a way within it
    (rules/path_faults.py), else the first rule broken on a path breaking fewest.
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
    dist, parent = m.search(allow * scale, relax=False, goal=goal)
    if goal in dist:
        return PathResult(True, _mp(dist[goal], scale), _path(parent, goal), allowance=allow)
    dist, parent = m.search(None, relax=False, goal=goal)
    if goal in dist:
        need = _mp(dist[goal], scale)
        changed = allow != m.unit.movement
        why = f"needs {need} MP, allowance {allow}" + (f" in {weather_name(m.weather)} weather" if changed else "")
        ref = rules.weather_ref if changed else rules.rule_ref
        # Within the allowance only by breaking rules (a panzer cutting through rough, or through a zone of
        # control): every rule that closes such a way is named (rules/path_faults.py).
        def within(strict: frozenset[tuple[str, str]]) -> tuple[tuple[Hex, ...], int | Fraction] | None:
            near, near_parent = m.search(allow * scale, relax=True, goal=goal, penalty=0, strict=strict)
            return (_path(near_parent, goal), _mp(near[goal], scale)) if goal in near else None

        why, cite, units = f"{why} [{ref}]", ref, ()
        if fault := short_ways_fault(within, m.edge, lab, whose):
            why, cite, units = f"the legal way {why}; {fault[0]}", fault[1], fault[2]
        return PathResult(False, need, _path(parent, goal), why, cite, allow, units)
    dist, parent = m.search(None, relax=True, goal=goal)
    path = _path(parent, goal) if goal in dist else ()
    if (broken := first_broken(m.edge, path, lab, whose)) is not None:
        return PathResult(False, None, path, f"{broken.words} [{broken.rule}]", broken.rule, allow, broken.units)
    why = f"no path from {lab(start_hex)} to {lab(goal)}"
    return PathResult(False, None, path, f"{why} [{rules.rule_ref}]", rules.rule_ref, allow)


def reachable(state: GameState, terrain: TerrainMap, unit_id: str, start: Hex | None, rules: MovementRules,
              zoc: frozenset[Hex] | None = None, weather: str | None = None, *, withdrawal: bool = False,
              area: Collection[Hex] | None = None) -> Reach:
    """Every hex `unit_id` can legally reach from `start` this phase and its cost (as `legal_path`)."""
    m = _Move(state, terrain, unit_id, start, rules, zoc, weather, withdrawal, area)
    dist, parent = m.search(m.allow * rules.scale, relax=False)
    return Reach(MappingProxyType({h: _mp(d, rules.scale) for h, d in dist.items()}),
                 MappingProxyType(parent), m.allow)
