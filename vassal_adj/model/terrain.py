"""Terrain maps: terrain per hex, features per hexside, named places, and feature networks.

A `TerrainMap` is pure, frozen data keyed by `Hex` and `HexSide`; it knows no labels (the
pack file is read by `parse.terrain_file`). Names of terrain types, hexside features and
place kinds come from the pack's `TerrainVocabulary`, so a misspelt name is caught once, when
the map is built, never in the middle of a rule.

Linear features (road, trail, ...) live on hexsides, not in hexes. Rule 17.13 of Kasserine
needs "Road hexes connected by Road hexsides": two hexes side by side that each hold a bit of
road are not connected unless the side between them carries the road. `TerrainMap.network`
gives that graph.

>>> from vassal_adj.model.hexes import Hex, hexside
>>> voc = TerrainVocabulary(terrain={"clear", "rough"}, features={"road", "stream"})
>>> a, b, c = Hex.from_raw(0, 0), Hex.from_raw(1, 0), Hex.from_raw(2, 0)
>>> m = TerrainMap(voc, hex_terrain={a: {"rough"}},
...                side_features={hexside(a, b): {"road"}, hexside(b, c): {"road", "stream"}})
>>> sorted(m.terrain(a)), m.has_feature(c, b, "stream")
(['rough'], True)
>>> m.network("road").connected(a, c)
True
"""

from __future__ import annotations

from collections import deque
from collections.abc import Collection, Iterable, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType

from .hexes import Hex, HexSide

__all__ = ["DEFAULT_PLACE_KINDS", "Place", "RoadNetwork", "TerrainMap", "TerrainVocabulary"]

DEFAULT_PLACE_KINDS = frozenset({"town", "objective", "supply-source", "entry"})
# A name must be writable in the pack file as one word of a space-separated list.
_BAD_NAME_CHARS = frozenset(',"#/') | frozenset(" \t\r\n")


def _check_names(what: str, names: Iterable[str]) -> frozenset[str]:
    out = frozenset(names)
    for n in out:
        if not isinstance(n, str) or not n or any(ch in _BAD_NAME_CHARS for ch in n):
            raise ValueError(f"bad {what} name {n!r}: one word, no spaces, commas, '#', '/' or quotes")
    return out


def _unknown(given: Iterable[str], known: frozenset[str]) -> list[str]:
    return sorted(set(given) - known)


@dataclass(frozen=True, slots=True)
class TerrainVocabulary:
    """The names a pack allows: hex terrain types, hexside features and place kinds."""

    terrain: frozenset[str]
    features: frozenset[str]
    place_kinds: frozenset[str] = DEFAULT_PLACE_KINDS

    def __post_init__(self) -> None:
        object.__setattr__(self, "terrain", _check_names("terrain type", self.terrain))
        object.__setattr__(self, "features", _check_names("hexside feature", self.features))
        object.__setattr__(self, "place_kinds", _check_names("place kind", self.place_kinds))

    def unknown_terrain(self, names: Iterable[str]) -> list[str]:
        """The names (sorted) that are not terrain types of this vocabulary."""
        return _unknown(names, self.terrain)

    def unknown_features(self, names: Iterable[str]) -> list[str]:
        """The names (sorted) that are not hexside features of this vocabulary."""
        return _unknown(names, self.features)

    def unknown_place_kinds(self, names: Iterable[str]) -> list[str]:
        """The names (sorted) that are not place kinds of this vocabulary."""
        return _unknown(names, self.place_kinds)


@dataclass(frozen=True, slots=True)
class Place:
    """A named place (a town, an objective, a supply source, an entry area) and its hexes.

    `kinds` says what the place is (a town may also be an objective); `hexes` keep the order
    the pack gives them, without repeats.
    """

    name: str
    kinds: frozenset[str]
    hexes: tuple[Hex, ...]

    def __post_init__(self) -> None:
        if not self.name or self.name != self.name.strip() or "\n" in self.name or "\r" in self.name:
            raise ValueError(f"bad place name {self.name!r}: empty, padded or several lines")
        object.__setattr__(self, "kinds", frozenset(self.kinds))
        object.__setattr__(self, "hexes", tuple(dict.fromkeys(self.hexes)))
        if not self.kinds:
            raise ValueError(f"place {self.name!r} has no kind")
        if not self.hexes:
            raise ValueError(f"place {self.name!r} has no hex")

    def __contains__(self, h: object) -> bool:
        return h in self.hexes


class RoadNetwork:
    """The graph of hexes joined by hexsides that carry one of `features` (rule 17.13).

    A hex is on the network when at least one of its sides carries a feature. Components are
    computed once, so `connected` and `component` are dictionary look-ups; `reachable` and
    `path` search (breadth first) only when some hexes are `blocked` (enemy units, zones of
    control, an unbridged stream in poor weather: the rules decide).
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
        for s in sorted(self.sides):
            adj.setdefault(s.a, []).append(s.b)
            adj.setdefault(s.b, []).append(s.a)
        set_(self, "_adj", MappingProxyType({h: tuple(n) for h, n in adj.items()}))
        comp: dict[Hex, int] = {}
        components: list[frozenset[Hex]] = []
        for start in sorted(adj):
            if start in comp:
                continue
            members = self._search([start], frozenset(), None)
            for h in members:
                comp[h] = len(components)
            components.append(frozenset(members))
        set_(self, "_comp", MappingProxyType(comp))
        set_(self, "_components", tuple(components))

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError(f"RoadNetwork is immutable: cannot set {name!r}")

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, RoadNetwork):
            return NotImplemented
        return self.features == other.features and self.sides == other.sides

    def __hash__(self) -> int:
        return hash((self.features, self.sides))

    def __repr__(self) -> str:
        return (f"RoadNetwork({sorted(self.features)}, {len(self._adj)} hexes, "
                f"{len(self.sides)} hexsides, {len(self._components)} components)")

    def __contains__(self, h: object) -> bool:
        return h in self._adj

    def __len__(self) -> int:
        return len(self._adj)

    def hexes(self) -> frozenset[Hex]:
        """Every hex on the network."""
        return frozenset(self._adj)

    def components(self) -> tuple[frozenset[Hex], ...]:
        """The connected parts of the network."""
        return self._components

    def neighbors(self, h: Hex) -> tuple[Hex, ...]:
        """The hexes joined to `h` across a feature hexside (none when `h` is off the network)."""
        return self._adj.get(h, ())

    def connected(self, a: Hex, b: Hex) -> bool:
        """Whether `a` and `b` are both on the network and joined by a chain of its hexsides."""
        ca = self._comp.get(a)
        return ca is not None and ca == self._comp.get(b)

    def component(self, h: Hex) -> frozenset[Hex]:
        """The hexes connected to `h` along the network (empty when `h` is not on it)."""
        c = self._comp.get(h)
        return frozenset() if c is None else self._components[c]

    def reachable(self, sources: Iterable[Hex], blocked: Collection[Hex] = ()) -> frozenset[Hex]:
        """Every network hex connected to any of `sources` without entering a `blocked` hex.

        One multi-source search for all sources together. Sources off the network or blocked
        contribute nothing; with nothing blocked the answer is a union of components.
        """
        starts = [h for h in dict.fromkeys(sources) if h in self._adj and h not in blocked]
        if not blocked:
            seen = {self._comp[h] for h in starts}
            return frozenset().union(*(self._components[c] for c in seen))
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

    def _search(self, starts: list[Hex], blocked: Collection[Hex],
                parents: dict[Hex, Hex | None] | None, stop: Hex | None = None) -> list[Hex]:
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


def _freeze_sets(what: str, table: Mapping[object, Iterable[str]]) -> dict[object, frozenset[str]]:
    out = {}
    for k, v in table.items():
        if isinstance(v, str):
            raise TypeError(f"{what} of {k} must be a set of names, not the string {v!r}")
        names = frozenset(v)
        if names:
            out[k] = names
    return out


@dataclass(frozen=True, eq=False, repr=False)
class TerrainMap:
    """Terrain per hex, features per hexside, named places and off-map hexes (frozen).

    Hexes and hexsides with empty sets are dropped, so equal content compares equal. Raises
    ValueError when a name is not in `vocabulary`, two places share a name, or a key is not
    a `Hex` / `HexSide`.
    """

    vocabulary: TerrainVocabulary
    hex_terrain: Mapping[Hex, frozenset[str]] = field(default_factory=dict)
    side_features: Mapping[HexSide, frozenset[str]] = field(default_factory=dict)
    named_places: tuple[Place, ...] = ()
    off_map: frozenset[Hex] = frozenset()
    _by_name: Mapping[str, Place] = field(init=False)
    _by_pair: Mapping[tuple[Hex, Hex], frozenset[str]] = field(init=False)
    _cache: dict[object, object] = field(init=False)

    def __post_init__(self) -> None:
        voc = self.vocabulary
        hexes = _freeze_sets("terrain", self.hex_terrain)
        sides = _freeze_sets("features", self.side_features)
        if bad := [k for k in hexes if not isinstance(k, Hex)]:
            raise ValueError(f"terrain keys must be Hex, got {bad[0]!r}")
        if bad := [k for k in sides if not isinstance(k, HexSide)]:
            raise ValueError(f"hexside keys must be HexSide (use hexside(a, b)), got {bad[0]!r}")
        if bad := voc.unknown_terrain(t for ts in hexes.values() for t in ts):
            raise ValueError(f"unknown terrain types {bad} (known: {sorted(voc.terrain)})")
        if bad := voc.unknown_features(f for fs in sides.values() for f in fs):
            raise ValueError(f"unknown hexside features {bad} (known: {sorted(voc.features)})")
        places = tuple(self.named_places)
        by_name: dict[str, Place] = {}
        for p in places:
            if p.name in by_name:
                raise ValueError(f"two places named {p.name!r}")
            if bad := voc.unknown_place_kinds(p.kinds):
                raise ValueError(f"unknown place kinds {bad} (known: {sorted(voc.place_kinds)})")
            by_name[p.name] = p
        pairs: dict[tuple[Hex, Hex], frozenset[str]] = {}
        for s, fs in sides.items():
            assert isinstance(s, HexSide)
            pairs[(s.a, s.b)] = pairs[(s.b, s.a)] = fs
        setattr_ = object.__setattr__
        setattr_(self, "hex_terrain", MappingProxyType(hexes))
        setattr_(self, "side_features", MappingProxyType(sides))
        setattr_(self, "named_places", places)
        setattr_(self, "off_map", frozenset(self.off_map))
        setattr_(self, "_by_name", MappingProxyType(by_name))
        setattr_(self, "_by_pair", MappingProxyType(pairs))
        setattr_(self, "_cache", {})

    def __repr__(self) -> str:
        return (f"TerrainMap({len(self.hex_terrain)} hexes, {len(self.side_features)} hexsides, "
                f"{len(self.named_places)} places, {len(self.off_map)} off-map)")

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, TerrainMap):
            return NotImplemented
        return (self.vocabulary == other.vocabulary and self.hex_terrain == other.hex_terrain
                and self.side_features == other.side_features and self.off_map == other.off_map
                and self._by_name == other._by_name)

    def __hash__(self) -> int:
        h = self._cache.get("hash")
        if h is None:
            h = self._cache["hash"] = hash((self.vocabulary, frozenset(self.hex_terrain.items()),
                                            frozenset(self.side_features.items()),
                                            frozenset(self.named_places), self.off_map))
        assert isinstance(h, int)
        return h

    # -- hexes ---------------------------------------------------------------------------
    def terrain(self, h: Hex) -> frozenset[str]:
        """The terrain types of `h` (empty when the map gives none)."""
        return self.hex_terrain.get(h, frozenset())

    def has_terrain(self, h: Hex, terrain: str) -> bool:
        """Whether `h` has the terrain type `terrain`."""
        return terrain in self.hex_terrain.get(h, ())

    def hexes(self) -> frozenset[Hex]:
        """The hexes the map gives terrain for."""
        return frozenset(self.hex_terrain)

    def is_off_map(self, h: Hex) -> bool:
        """Whether `h` is declared off the playing area."""
        return h in self.off_map

    # -- hexsides ------------------------------------------------------------------------
    def features(self, side: HexSide) -> frozenset[str]:
        """The features on hexside `side` (empty when none)."""
        return self.side_features.get(side, frozenset())

    def features_between(self, a: Hex, b: Hex) -> frozenset[str]:
        """The features on the side between `a` and `b`; empty when none or not adjacent.

        The fast path for searches: no `HexSide` is built.
        """
        return self._by_pair.get((a, b), frozenset())

    def has_feature(self, a: Hex, b: Hex, feature: str) -> bool:
        """Whether the side between `a` and `b` carries `feature` (False when not adjacent)."""
        return feature in self._by_pair.get((a, b), ())

    def sides_with(self, *features: str) -> frozenset[HexSide]:
        """The hexsides carrying any of `features`."""
        wanted = frozenset(features)
        return frozenset(s for s, fs in self.side_features.items() if fs & wanted)

    # -- places --------------------------------------------------------------------------
    def places(self, kind: str | None = None) -> tuple[Place, ...]:
        """The places of that kind (all places when `kind` is None), in the pack's order."""
        if kind is None:
            return self.named_places
        return tuple(p for p in self.named_places if kind in p.kinds)

    def place(self, name: str) -> Place:
        """The place called `name` (KeyError naming the known places when there is none)."""
        try:
            return self._by_name[name]
        except KeyError:
            raise KeyError(f"no place named {name!r} (known: {sorted(self._by_name)})") from None

    def places_at(self, h: Hex) -> tuple[Place, ...]:
        """The places that include `h`."""
        return tuple(p for p in self.named_places if h in p.hexes)

    def place_hexes(self, kind: str) -> frozenset[Hex]:
        """Every hex of every place of that kind (e.g. all supply-source hexes)."""
        return frozenset(h for p in self.places(kind) for h in p.hexes)

    # -- networks ------------------------------------------------------------------------
    def network(self, *features: str) -> RoadNetwork:
        """The network of hexsides carrying any of `features` (built once, then cached).

        ``network("road")`` is the road net of rule 17.13; ``network("road", "trail")`` joins
        roads and trails where they meet. Hexsides touching an off-map hex are left out: no
        path runs off the playing area. ValueError for a feature the vocabulary lacks.
        """
        if not features:
            raise ValueError("network() needs at least one feature")
        if bad := self.vocabulary.unknown_features(features):
            raise ValueError(f"unknown hexside features {bad} (known: {sorted(self.vocabulary.features)})")
        key = ("network", frozenset(features))
        net = self._cache.get(key)
        if net is None:
            off = self.off_map
            sides = [s for s in self.sides_with(*features) if s.a not in off and s.b not in off]
            net = self._cache[key] = RoadNetwork(features, sides)
        assert isinstance(net, RoadNetwork)
        return net
