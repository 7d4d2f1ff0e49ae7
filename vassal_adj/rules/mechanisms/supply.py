"""Supply: an initial path of a few hexes to a road/trail network that leads to a source.

The rule this module implements is RULES-MAP E4 (seed 000's 17.1), written generically:

- 17.11/17.12: a unit is in supply when an *unobstructed initial path* of `initial` or fewer
  hexes runs from the unit to a network (Trail or Road) hex that a contiguous line of
  unobstructed network hexes joins to a supply source (Axis 4 hexes, Allied 3).
- 17.13: once the path enters a Trail hex the rest must be Trail hexes joined by Trail
  hexsides, and likewise for Road. Each entry of `SupplyRules.networks` is therefore a network
  of its own that the path never leaves; a pack that lets roads and trails mix names them
  together, ``networks=(("road", "trail"),)``.
- 17.14: the initial hexes may instead reach a source directly (`direct_to_source`).
- 17.15: sources are lost when an Axis unit exits one of them (`sources_after_exits`).

How it is computed (STYLE.md 6.14): ONE search per side, not one per unit. First, for each
network, the network hexes joined to any unobstructed source through unobstructed network
hexes (a multi-source breadth-first search that keeps parents); then one breadth-first search
outward from all of those hexes (and the sources, under 17.14) over unobstructed hexes, which
gives every hex its distance to supply. A unit looks its hex up. Paths are rebuilt on demand
from the parents, for reports.

No path leaves the board: every search keeps to `TerrainMap.on_board`. Readings the rulebook
leaves open are parameters, whose values a pack states as assumptions:

- The initial path counts steps: a unit on a connected road hex has a path of 0 hexes, one
  next to it 1.
- `initial_crosses_network`: may the initial path pass through road or trail hexes before the
  one it joins (True), or does it end at the first it enters (False: 17.13 read literally,
  "once a Supply Path is traced into a Trail hex, all remaining hexes must be Trail hexes")?
- The unit's own hex is where the path starts, not a hex of it: it is never an obstruction
  (a unit in an enemy zone of control can still trace out of it). Every other hex of the path,
  the network hexes and the source included, must be unobstructed.
- "Unobstructed" means: no enemy unit, and no enemy zone of control unless a friendly unit is
  in the hex (`obstructed_hexes`; each part a parameter). The zones themselves come from
  rules/mechanisms/zoc.py; this module takes them as a set.
- `closed_sides`: hexside features no part of the path crosses unless the hexside also carries
  a bridge (a reading of seed 000's 20.2 for supply paths: unbridged streams in poor weather).
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Collection, Iterable, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType

from vassal_adj.model.geometry.hexes import DIRECTIONS, Hex
from vassal_adj.model.network import RoadNetwork
from vassal_adj.model.state import GameState
from vassal_adj.model.terrain import TerrainMap
from vassal_adj.rules.mechanisms.zoc import blocked_side

__all__ = ["SupplyField", "SupplyRules", "SupplyStatus", "obstructed_hexes", "supply_field", "supply_status"]

# How far past the rule's limit the search goes, so that a report can say how far away supply
# is ("6 hexes away; rule allows 4") rather than only that it is too far.
DEFAULT_HORIZON = 12


@dataclass(frozen=True)
class SupplyRules:
    """The parameters of a trace-to-network supply rule (RULES-MAP E4; the rule numbers below are seed 000's).

    `initial`: most hexes of the initial path (17.11: Axis 4; 17.12: Allied 3).
    `networks`: hexside features forming each network the path must stay on once entered
    (17.13: road and trail are separate). `direct_to_source`: 17.14. `enemy_units_obstruct`,
    `enemy_zoc_obstructs`, `friendly_negates_zoc`: what "unobstructed" means.
    `initial_crosses_network`: whether the initial path may pass through network hexes before
    the one it joins (see the module doc). `impassable_terrain` / `impassable_sides`: terrain
    types and hexside features the initial path may not enter or cross (none in seed 000).
    `closed_sides`: hexside features no part of the path crosses unless bridged (one of
    `bridge_features`; the adapter gives the state's weather's). `rule_ref`: cited in reasons.
    """

    initial: int
    networks: tuple[tuple[str, ...], ...] = (("road",), ("trail",))
    direct_to_source: bool = True
    enemy_units_obstruct: bool = True
    enemy_zoc_obstructs: bool = True
    friendly_negates_zoc: bool = True
    initial_crosses_network: bool = True
    impassable_terrain: frozenset[str] = frozenset()
    impassable_sides: frozenset[str] = frozenset()
    closed_sides: frozenset[str] = frozenset()
    bridge_features: frozenset[str] = frozenset({"bridge"})
    rule_ref: str = ""

    def __post_init__(self) -> None:
        if isinstance(self.initial, bool) or not isinstance(self.initial, int) or self.initial < 0:
            raise ValueError(f"initial path length must be a whole number >= 0, got {self.initial!r}")
        if isinstance(self.networks, str) or any(isinstance(g, str) for g in self.networks):
            raise ValueError(
                f"networks must be groups of feature names, e.g. (('road',), ('trail',)), got {self.networks!r}"
            )
        nets = tuple(tuple(g) for g in self.networks)
        if any(not g for g in nets):
            raise ValueError(f"every network needs at least one feature, got {self.networks!r}")
        object.__setattr__(self, "networks", nets)
        object.__setattr__(self, "impassable_terrain", frozenset(self.impassable_terrain))
        object.__setattr__(self, "impassable_sides", frozenset(self.impassable_sides))
        object.__setattr__(self, "closed_sides", frozenset(self.closed_sides))
        object.__setattr__(self, "bridge_features", frozenset(self.bridge_features))

    def network_words(self) -> str:
        """The network features as a report names them, e.g. "road/trail"."""
        return "/".join(dict.fromkeys(f for g in self.networks for f in g))


def obstructed_hexes(
    state: GameState, side: str, rules: SupplyRules, enemy_zoc: Collection[Hex] = ()
) -> frozenset[Hex]:
    """The hexes a supply path of `side` may not use: enemy-occupied hexes and enemy zones of
    control (less the friendly-occupied ones when friendly units negate them), per `rules`.

    `enemy_zoc` is the set rules/mechanisms/zoc.py gives for the enemies of `side`.
    """
    enemy: set[Hex] = set()
    friendly: set[Hex] = set()
    for uid, pos in state.positions.items():
        unit = state.units.get(uid)
        if pos.hex is None or unit is None:
            continue
        (friendly if unit.side == side else enemy).add(pos.hex)
    out: set[Hex] = set(enemy) if rules.enemy_units_obstruct else set()
    if rules.enemy_zoc_obstructs:
        zoc = set(enemy_zoc)
        if rules.friendly_negates_zoc:
            zoc -= friendly
        out |= zoc
    return frozenset(out)


@dataclass(frozen=True, eq=False)
class SupplyField:
    """The result of one supply search for one side: each hex's distance to supply.

    `distance(h)` is the fewest initial-path hexes from `h` to a network hex joined to a source
    (or to a source, under 17.14), looked for up to `limit + horizon` hexes; `path(h)` rebuilds
    the whole path, unit to source.
    """

    side: str
    rules: SupplyRules
    sources: frozenset[Hex]
    blocked: frozenset[Hex]
    horizon: int
    _dist: Mapping[tuple[int, int], int] = field(repr=False)  # keyed by (q, r): faster to hash
    _parent: Mapping[tuple[int, int], tuple[int, int] | None] = field(repr=False)
    _seed_net: Mapping[Hex, int] = field(repr=False)  # network index, or -1 for a source (17.14)
    _nets: tuple[RoadNetwork, ...] = field(repr=False)
    _net_parent: tuple[Mapping[Hex, Hex | None], ...] = field(repr=False)
    _crossable: Callable[[Hex, Hex], bool] = field(repr=False)  # no closed hexside between the two

    @property
    def limit(self) -> int:
        return self.rules.initial

    def connected_network(self) -> frozenset[Hex]:
        """The network hexes joined to a source by unobstructed network hexes (all networks)."""
        return frozenset(h for h, k in self._seed_net.items() if k >= 0)

    def _origin_on_network(self, h: Hex) -> int | None:
        """For an obstructed origin (see module doc): the network index that takes it straight to
        a source, or -1 when it is a source itself that it may use; None otherwise."""
        if h in self.sources and (self.rules.direct_to_source or any(h in n for n in self._nets)):
            return -1
        for k, net in enumerate(self._nets):
            if any(g in self._net_parent[k] and self._crossable(h, g) for g in net.neighbors(h)):
                return k
        return None

    def distance(self, h: Hex) -> int | None:
        """Fewest hexes of an initial path from a unit in `h` to supply; None when there is
        none within `limit + horizon` hexes."""
        if h in self.blocked and h not in self._seed_net and self._origin_on_network(h) is not None:
            return 0
        return self._dist.get((h.q, h.r))

    def supplied(self, h: Hex) -> bool:
        """Whether a unit in `h` is in supply."""
        d = self.distance(h)
        return d is not None and d <= self.rules.initial

    def path(self, h: Hex) -> tuple[Hex, ...]:
        """The path of a unit in `h` to a source, hexes in order; () when none was found.

        The initial part comes first (`distance(h)` steps), then the network part. Where the
        unit is out of supply the path shown is the shortest one, longer than the rule allows.
        """
        d = self.distance(h)
        if d is None:
            return ()
        out = [h]
        if d == 0 and h not in self._seed_net:  # an obstructed origin on the network
            origin_net = self._origin_on_network(h)
            assert origin_net is not None
            if origin_net == -1:
                return (h,)
            k = origin_net  # 17.13: the path stays on the network it entered
            out.append(min(g for g in self._nets[k].neighbors(h) if g in self._net_parent[k] and self._crossable(h, g)))
        else:
            step = self._parent[(h.q, h.r)]
            while step is not None:
                out.append(Hex(*step))
                step = self._parent[step]
            k = self._seed_net[out[-1]]
        if k >= 0:
            parents = self._net_parent[k]
            cur = parents[out[-1]]
            while cur is not None:
                out.append(cur)
                cur = parents[cur]
        return tuple(out)

    def reason(self, h: Hex) -> str:
        """Why a unit in `h` is out of supply, quoting the values ("" when it is supplied)."""
        if self.supplied(h):
            return ""
        r = self.rules
        ref = f" [{r.rule_ref}]" if r.rule_ref else ""
        words = r.network_words()
        target = f"{words} hex connected to {_a(self.side)} supply source"
        if r.direct_to_source:
            target += " (or a source hex)"
        if not self.sources:
            return f"no {self.side} supply source is in use{ref}"
        if not self.sources - self.blocked:
            return f"every {self.side} supply source hex ({len(self.sources)}) is obstructed{ref}"
        if not self._seed_net:
            return f"no {words} hex is connected to {_a(self.side)} supply source by unobstructed {words} hexes{ref}"
        d = self.distance(h)
        if d is None:
            return (
                f"no unobstructed path of {r.initial + self.horizon} hexes or fewer reaches a "
                f"{target}; rule allows {r.initial}{ref}"
            )
        return f"nearest {target} is {_hexes(d)} away; rule allows {r.initial}{ref}"


def _a(word: str) -> str:
    return f"an {word}" if word and word[0].lower() in "aeiou" else f"a {word}"


def _hexes(n: int) -> str:
    return f"{n} hex" if n == 1 else f"{n} hexes"


@dataclass(frozen=True)
class SupplyStatus:
    """A unit's supply: `supplied`, `distance` (hexes of the initial path, None when out of
    reach), `reason` (empty when supplied) and the rule cited; `path` is rebuilt on demand."""

    unit_id: str
    hex: Hex
    supplied: bool
    distance: int | None
    limit: int
    reason: str
    rule_ref: str
    search: SupplyField = field(compare=False, repr=False)

    @property
    def path(self) -> tuple[Hex, ...]:
        """The hexes from the unit to a source (empty when unsupplied)."""
        return self.search.path(self.hex) if self.supplied else ()


def _network_search(
    net: RoadNetwork, sources: Iterable[Hex], blocked: Collection[Hex], crossable: Callable[[Hex, Hex], bool]
) -> dict[Hex, Hex | None]:
    """Multi-source BFS along `net` from the unobstructed sources on it, across `crossable`
    hexsides: hex -> next hex towards a source (None at a source)."""
    starts = sorted(h for h in sources if h in net and h not in blocked)
    parent: dict[Hex, Hex | None] = dict.fromkeys(starts)
    queue = deque(starts)
    while queue:
        h = queue.popleft()
        for n in net.neighbors(h):
            if n not in parent and n not in blocked and crossable(h, n):
                parent[n] = h
                queue.append(n)
    return parent


def supply_field(
    terrain: TerrainMap,
    side: str,
    rules: SupplyRules,
    sources: Collection[Hex],
    blocked: Collection[Hex],
    *,
    horizon: int = DEFAULT_HORIZON,
) -> SupplyField:
    """The one supply search for `side` (see the module doc), on the hexes of `terrain`'s board.

    `sources`: the side's source hexes now in use (after 17.15). `blocked`: the hexes the path
    may not use (`obstructed_hexes`). `horizon`: how far past `rules.initial` to measure, for
    reasons.
    """
    srcs = frozenset(h for h in sources if terrain.on_board(h))
    blk = frozenset(blocked)
    closed, bridges, between = rules.closed_sides, rules.bridge_features, terrain.features_between

    def crossable(a: Hex, b: Hex) -> bool:
        return not closed or blocked_side(between(a, b), closed, bridges) is None

    nets = tuple(terrain.network(*g) for g in rules.networks)
    net_parents = tuple(_network_search(net, srcs, blk, crossable) for net in nets)
    seed_net: dict[Hex, int] = {}
    if rules.direct_to_source:
        seed_net.update((h, -1) for h in srcs - blk)
    for k, parents in enumerate(net_parents):
        for h in parents:
            if seed_net.get(h, -1) == -1:  # a network keeps its hex over a bare source
                seed_net[h] = k
    imp_t, imp_s = rules.impassable_terrain, rules.impassable_sides
    # The search runs on (q, r) pairs: a tuple hashes several times faster than a `Hex`, and this
    # loop visits every hex of the board within reach.
    blk_k = {(h.q, h.r) for h in blk}
    off_k = {(h.q, h.r) for h in terrain.off_map}
    board_k = None if terrain.board is None else {(h.q, h.r) for h in terrain.board}
    stop_k = set(blk_k)
    if imp_t:
        stop_k.update((h.q, h.r) for h, ts in terrain.hex_terrain.items() if ts & imp_t)
    seeds = sorted((h.q, h.r) for h in seed_net)
    if not rules.initial_crosses_network:  # a network hex that is not a seed ends the path it is on
        seed_k = set(seeds)
        stop_k.update(k for net in nets for h in net.hexes() if (k := (h.q, h.r)) not in seed_k)
    dist: dict[tuple[int, int], int] = dict.fromkeys(seeds, 0)
    parent: dict[tuple[int, int], tuple[int, int] | None] = dict.fromkeys(seeds)
    frontier = [k for k in seeds if k not in stop_k]  # a stop may end a path, not be part of one
    steps = [(h.q, h.r) for h in DIRECTIONS]
    depth, max_depth = 0, rules.initial + horizon
    while frontier and depth < max_depth:
        depth += 1
        nxt = []
        for key in frontier:
            q, r = key
            for dq, dr in steps:
                n = (q + dq, r + dr)
                if n in dist or n in off_k or (board_k is not None and n not in board_k):
                    continue
                if (imp_s or closed) and not _open_side(between(Hex(q, r), Hex(*n)), imp_s, closed, bridges):
                    continue
                dist[n] = depth
                parent[n] = key
                if n not in stop_k:
                    nxt.append(n)
        frontier = nxt
    return SupplyField(
        side,
        rules,
        srcs,
        blk,
        horizon,
        MappingProxyType(dist),
        MappingProxyType(parent),
        MappingProxyType(seed_net),
        nets,
        tuple(MappingProxyType(p) for p in net_parents),
        crossable,
    )


def _open_side(
    features: frozenset[str], impassable: frozenset[str], closed: frozenset[str], bridges: frozenset[str]
) -> bool:
    """Whether the initial path crosses a hexside with these features (closed ones unless bridged)."""
    return not features & impassable and blocked_side(features, closed, bridges) is None


def supply_status(
    state: GameState,
    terrain: TerrainMap,
    side: str,
    rules: SupplyRules,
    sources: Collection[Hex],
    blocked: Collection[Hex],
    *,
    horizon: int = DEFAULT_HORIZON,
) -> Mapping[str, SupplyStatus]:
    """The supply status of every unit of `side` on the map, by unit id (sorted).

    One search for the side (`supply_field`), then one look-up per unit. Units in off-map
    boxes have no entry. Never raises for an unsupplied unit: that is a status.
    """
    fld = supply_field(terrain, side, rules, sources, blocked, horizon=horizon)
    out: dict[str, SupplyStatus] = {}
    for uid in sorted(state.units):
        unit, h = state.units[uid], state.hex_of(uid)
        if unit.side != side or h is None:
            continue
        d = fld.distance(h)
        ok = d is not None and d <= rules.initial
        out[uid] = SupplyStatus(uid, h, ok, d, rules.initial, "" if ok else fld.reason(h), rules.rule_ref, fld)
    return MappingProxyType(out)
