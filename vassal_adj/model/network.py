"""Networks of linear features: hexes joined by hexsides that carry a road, a trail, a rail.

`TerrainMap.network` builds them (model/terrain.py); a rule searches them for supply paths
("Road hexes connected by Road hexsides", as a pack's supply rule may say) or lines of
communication.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Collection, Iterable, Mapping
from types import MappingProxyType

from vassal_adj.model.geometry.hexes import Hex, HexSide, hex_order, side_order

__all__ = ["RoadNetwork"]


class RoadNetwork:
    """The graph of hexes joined by hexsides that carry one of `features` (rule 17.13).

    A hex is on the network when at least one of its sides carries a feature. Components are
    computed once, when first needed, so `connected` and `component` are dictionary look-ups;
    `reachable` and `path` search (breadth first) only when some hexes are `blocked` (enemy
    units, zones of control, an unbridged stream in poor weather: the rules decide).
    """

    __slots__ = ("_adj", "_comp", "_components", "features", "sides")
    _adj: Mapping[Hex, tuple[Hex, ...]]
    _comp: Mapping[Hex, int]
    _components: tuple[frozenset[Hex], ...]

    features: frozenset[str]
    sides: frozenset[HexSide]

    def __init__(self, features: Iterable[str], sides: Iterable[HexSide]) -> None:
        set_ = object.__setattr__
        set_(self, "features", frozenset(features))
        set_(self, "sides", frozenset(sides))
        adj: dict[Hex, list[Hex]] = {}
        for s in sorted(self.sides, key=side_order):
            adj.setdefault(s.a, []).append(s.b)
            adj.setdefault(s.b, []).append(s.a)
        set_(self, "_adj", MappingProxyType({h: tuple(n) for h, n in adj.items()}))

    def _parts(self) -> tuple[Mapping[Hex, int], tuple[frozenset[Hex], ...]]:
        """Each hex's component and the components, found when first asked for: a supply search
        walks the network itself and never needs them (startup time, issue 10)."""
        try:
            return self._comp, self._components
        except AttributeError:
            pass
        comp: dict[Hex, int] = {}
        components: list[frozenset[Hex]] = []
        for start in sorted(self._adj, key=hex_order):
            if start in comp:
                continue
            members = self._search([start], frozenset(), None)
            for h in members:
                comp[h] = len(components)
            components.append(frozenset(members))
        object.__setattr__(self, "_comp", MappingProxyType(comp))
        object.__setattr__(self, "_components", tuple(components))
        return self._comp, self._components

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError(f"RoadNetwork is immutable: cannot set {name!r}")

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, RoadNetwork):
            return NotImplemented
        return self.features == other.features and self.sides == other.sides

    def __hash__(self) -> int:
        return hash((self.features, self.sides))

    def __repr__(self) -> str:
        return (
            f"RoadNetwork({sorted(self.features)}, {len(self._adj)} hexes, "
            f"{len(self.sides)} hexsides, {len(self._parts()[1])} components)"
        )

    def __contains__(self, h: object) -> bool:
        return h in self._adj

    def __len__(self) -> int:
        return len(self._adj)

    def hexes(self) -> frozenset[Hex]:
        """Every hex on the network."""
        return frozenset(self._adj)

    def components(self) -> tuple[frozenset[Hex], ...]:
        """The connected parts of the network."""
        return self._parts()[1]

    def neighbors(self, h: Hex) -> tuple[Hex, ...]:
        """The hexes joined to `h` across a feature hexside (none when `h` is off the network)."""
        return self._adj.get(h, ())

    def connected(self, a: Hex, b: Hex) -> bool:
        """Whether `a` and `b` are both on the network and joined by a chain of its hexsides."""
        comp = self._parts()[0]
        ca = comp.get(a)
        return ca is not None and ca == comp.get(b)

    def component(self, h: Hex) -> frozenset[Hex]:
        """The hexes connected to `h` along the network (empty when `h` is not on it)."""
        comp, components = self._parts()
        c = comp.get(h)
        return frozenset() if c is None else components[c]

    def reachable(self, sources: Iterable[Hex], blocked: Collection[Hex] = ()) -> frozenset[Hex]:
        """Every network hex connected to any of `sources` without entering a `blocked` hex.

        One multi-source search for all sources together. Sources off the network or blocked
        contribute nothing; with nothing blocked the answer is a union of components.
        """
        starts = [h for h in dict.fromkeys(sources) if h in self._adj and h not in blocked]
        if not blocked:
            comp, components = self._parts()
            return frozenset().union(*(components[c] for c in {comp[h] for h in starts}))
        return frozenset(self._search(starts, blocked, None))

    def path(self, a: Hex, b: Hex, blocked: Collection[Hex] = ()) -> list[Hex] | None:
        """A shortest chain of hexes from `a` to `b` along the network, ends included.

        None when there is none (either end off the network, blocked, or not connected).
        """
        if a not in self._adj or b not in self._adj or a in blocked or b in blocked:
            return None
        if not self.connected(a, b):
            return None
        parents: dict[Hex, Hex | None] = {}
        self._search([a], blocked, parents, stop=b)
        if b not in parents:
            return None
        out: list[Hex] = []
        cur: Hex | None = b
        while cur is not None:
            out.append(cur)
            cur = parents[cur]
        return out[::-1]

    def _search(
        self,
        starts: list[Hex],
        blocked: Collection[Hex],
        parents: dict[Hex, Hex | None] | None,
        stop: Hex | None = None,
    ) -> list[Hex]:
        """Breadth-first search from all `starts`; records parents when asked."""
        par: dict[Hex, Hex | None] = {} if parents is None else parents
        for s in starts:
            par[s] = None
        queue = deque(starts)
        while queue:
            h = queue.popleft()
            if h == stop:
                break
            for n in self._adj[h]:
                if n not in par and n not in blocked:
                    par[n] = h
                    queue.append(n)
        return list(par)
