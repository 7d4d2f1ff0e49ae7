"""One unit's movement search: the cost and the rules of each step, and a Dijkstra over them.

`MoveSearch` (for movement.py's `legal_path` and `reachable`) looks up once what a unit's
search needs (its costs in the weather, prohibited terrain, enemy zones of control), then judges
steps (`edge`) with terrain, hexside, weather and ZOC rules as edge rules: a step's legality
depends only on the step and the start hex, so a search over hexes is exact. A step's verdict is
worked out once and kept for every later search of the same move (a failed move's diagnosis
runs several, rules/mechanisms/path_faults.py).
"""

from __future__ import annotations

import heapq
from collections.abc import Collection, Mapping
from typing import Any

from vassal_adj.model.geometry.hexes import DIRECTIONS, Hex, distance
from vassal_adj.model.state import GameState
from vassal_adj.model.terrain import TerrainMap
from vassal_adj.rules.mechanisms.movement_mods import StepCost, modify_costs, unit_costs
from vassal_adj.rules.mechanisms.movement_params import MovementRules, allowance
from vassal_adj.rules.mechanisms.zoc import blocked_side, enemy_zoc, unit_classes, weather_name

__all__ = ["PENALTY", "MoveSearch"]

PENALTY = 10**12  # one broken rule outweighs any path cost (diagnosis only)
_DIRECTIONS = tuple((d.q, d.r) for d in DIRECTIONS)
_Key = tuple[int, int]  # a hex as (q, r) inside a search: it hashes in C, a Hex in Python
_HexCost = tuple[int, str | None, bool, frozenset[str], bool]  # `MoveSearch.hex_cost`
_NONE: frozenset[str] = frozenset()
_UNSEEN = object()  # a step whose verdict `MoveSearch.search` has not asked for yet


class MoveSearch:
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
        # `search` numbers each hex it meets (0: the start) and keys its maps by number: an int hashes
        # faster than a (q, r) tuple, which hashes in C where a Hex calls Python
        self._ids: dict[_Key, int] = {(start.q, start.r): 0}
        self._keys: list[_Key] = [(start.q, start.r)]
        self._hexes: list[Hex | None] = [start]
        self._links: list[list[list[Any]] | None] = [None]  # number -> [[neighbour's number, `edge` to it]]

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
            from_start = ka == self._keys[0]
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
            if not broken and self.withdrawal and self.start_in_z and b_in_z and kb != self._keys[0]:
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
                if fs and fs & p.through:
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
        penalty: int = PENALTY,
        strict: Collection[tuple[str, ...]] = (),
    ) -> tuple[dict[int, int], dict[int, int | None]]:
        """Dijkstra: legal steps only, or (`relax`) all but those breaking a rule whose (kind, rule number)
        is in `strict`, with `penalty` per step breaking rules; `limit` caps the cost. Hexes by number
        (`node`; `way` gives a path as hexes)."""
        # The heap holds (cost, (q, r), number): it pops, and breaks ties, in Hex order as with Hex keys.
        # Each step's verdict is kept in `self._links`: a failed move's diagnosis searches the same steps
        # up to 7 times.
        start, keys, hexes, all_links, ids, node = (
            self.start,
            self._keys,
            self._hexes,
            self._links,
            self._ids,
            self.node,
        )
        gi = None if goal is None else node((goal.q, goal.r))
        dist: dict[int, int] = {0: 0}
        parent: dict[int, int | None] = {0: None}
        done: set[int] = set()
        heap = [(0, keys[0], 0)]
        pop, push = heapq.heappop, heapq.heappush
        first_ok = self.rules.minimum_move and self.allow >= 1
        bounded = goal is not None and limit is None and self.area is None
        if bounded:
            assert goal is not None
            reach = distance(start, goal) + 2 * (self.allow * self.rules.scale // self.min_ticks) + 4
            sq, sr, gq, gr = start.q, start.r, goal.q, goal.r
        while heap:
            d, _, i = pop(heap)
            if i == gi:
                break
            if i in done or (limit is not None and d > limit):  # beyond the limit: a minimum move
                continue
            done.add(i)
            links = all_links[i]
            if links is None:
                q, r = keys[i]
                links = all_links[i] = [
                    [n if (n := ids.get(nk := (q + dq, r + dr))) is not None else node(nk), _UNSEEN]
                    for dq, dr in _DIRECTIONS
                ]
            for link in links:
                n, step = link
                if n in done:
                    continue
                if bounded:  # off the ellipse of ways no longer than the allowance allows: hex distances
                    nq, nr = keys[n]
                    to_start = abs(nq - sq) + abs(nr - sr) + abs(nq + nr - sq - sr)
                    if (to_start + abs(nq - gq) + abs(nr - gr) + abs(nq + nr - gq - gr)) // 2 > reach:
                        continue
                if step is _UNSEEN:
                    step = link[1] = self.edge(hexes[i] or self.hex_of(i), hexes[n] or self.hex_of(n))
                if step is None:
                    continue
                nd, broken = step
                if broken:
                    if not relax or any(x[:2] in strict for x in broken):
                        continue
                    nd += penalty
                nd += d
                if limit is not None and nd > limit and not (i == 0 and first_ok):
                    continue
                if nd < dist.get(n, nd + 1):
                    dist[n], parent[n] = nd, i
                    push(heap, (nd, keys[n], n))
        return dist, parent

    def node(self, k: _Key) -> int:
        """The number of the hex (q, r) in this move's searches."""
        i = self._ids.get(k)
        if i is None:
            i = self._ids[k] = len(self._keys)
            self._keys.append(k)
            self._hexes.append(None)
            self._links.append(None)
        return i

    def hex_of(self, i: int) -> Hex:
        """The hex numbered `i`: one object per hex, so dict lookups on it meet identity first."""
        h = self._hexes[i]
        if h is None:
            h = self._hexes[i] = Hex(*self._keys[i])
        return h

    def way(self, parent: Mapping[int, int | None], goal: int) -> tuple[Hex, ...]:
        """The path a search found from the start to hex number `goal`, as hexes."""
        out: list[Hex] = []
        i: int | None = goal
        while i is not None:
            out.append(self.hex_of(i))
            i = parent[i]
        return tuple(reversed(out))

    def hex_maps(
        self, dist: Mapping[int, int], parent: Mapping[int, int | None]
    ) -> tuple[dict[Hex, int], dict[Hex, Hex | None]]:
        """A search's maps keyed by hex."""
        at = self.hex_of
        return {at(i): d for i, d in dist.items()}, {at(i): None if p is None else at(p) for i, p in parent.items()}
