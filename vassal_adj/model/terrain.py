"""Terrain maps: terrain per hex, features per hexside, named places, and feature networks.

A `TerrainMap` is pure, frozen data keyed by `Hex` and `HexSide`; it knows no labels (the
pack file is read by `parse.terrain_file`). Names of terrain types, hexside features and
place kinds come from the pack's `TerrainVocabulary`, so a misspelt name is caught once, when
the map is built, never in the middle of a rule.

Linear features (road, trail, ...) live on hexsides, not in hexes. A supply rule may ask for
"Road hexes connected by Road hexsides": two hexes side by side that each hold a bit of
road are not connected unless the side between them carries the road. `TerrainMap.network`
gives that graph.

>>> from vassal_adj.model.geometry.hexes import Hex, hexside
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

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType

from vassal_adj.model.geometry.hexes import Hex, HexSide
from vassal_adj.model.network import RoadNetwork

__all__ = ["DEFAULT_PLACE_KINDS", "KeyedTerrain", "Place", "RoadNetwork", "TerrainMap", "TerrainVocabulary"]

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


@dataclass(frozen=True, slots=True)
class KeyedTerrain:
    """A `TerrainMap`'s lookups keyed by ints, for search loops (a tuple hashes in C, a `Hex` in
    Python): a hex is (q, r); the side between hexes a and b is (a.q, a.r, b.q, b.r), either way."""

    terrain: Mapping[tuple[int, int], frozenset[str]]
    sides: Mapping[tuple[int, int, int, int], frozenset[str]]
    off_map: frozenset[tuple[int, int]]
    board: frozenset[tuple[int, int]] | None

    def on_board(self, k: tuple[int, int]) -> bool:
        """`TerrainMap.on_board` of the hex (q, r)."""
        return k not in self.off_map and (self.board is None or k in self.board)


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

    `board`: the hexes that exist (those the board's hex layout names, `with_board`); None
    when no board is known, and then every hex not in `off_map` counts as on it. Every
    search (movement, supply, zones of control, networks) asks `on_board`, so no path runs
    through a hex the board lacks (column 40 of a 39-column map).

    Hexes and hexsides with empty sets are dropped, so equal content compares equal. Raises
    ValueError when a name is not in `vocabulary`, two places share a name, or a key is not
    a `Hex` / `HexSide`.
    """

    vocabulary: TerrainVocabulary
    hex_terrain: Mapping[Hex, frozenset[str]] = field(default_factory=dict)
    side_features: Mapping[HexSide, frozenset[str]] = field(default_factory=dict)
    named_places: tuple[Place, ...] = ()
    off_map: frozenset[Hex] = frozenset()
    board: frozenset[Hex] | None = None
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
        if self.board is not None:
            setattr_(self, "board", frozenset(self.board))
        setattr_(self, "_by_name", MappingProxyType(by_name))
        setattr_(self, "_by_pair", MappingProxyType(pairs))
        setattr_(self, "_cache", {})

    def __repr__(self) -> str:
        return (
            f"TerrainMap({len(self.hex_terrain)} hexes, {len(self.side_features)} hexsides, "
            f"{len(self.named_places)} places, {len(self.off_map)} off-map"
            f"{'' if self.board is None else f', {len(self.board)} on the board'})"
        )

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, TerrainMap):
            return NotImplemented
        return (
            self.vocabulary == other.vocabulary
            and self.hex_terrain == other.hex_terrain
            and self.side_features == other.side_features
            and self.off_map == other.off_map
            and self.board == other.board
            and self._by_name == other._by_name
        )

    def __hash__(self) -> int:
        h = self._cache.get("hash")
        if h is None:
            h = self._cache["hash"] = hash(
                (
                    self.vocabulary,
                    frozenset(self.hex_terrain.items()),
                    frozenset(self.side_features.items()),
                    frozenset(self.named_places),
                    self.off_map,
                    self.board,
                )
            )
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

    def on_board(self, h: Hex) -> bool:
        """Whether `h` is a hex of the playing area: on the board (when known), not declared off-map."""
        return h not in self.off_map and (self.board is None or h in self.board)

    def is_off_map(self, h: Hex) -> bool:
        """Whether `h` is off the playing area: declared off-map, or a hex the board lacks."""
        return not self.on_board(h)

    def with_board(self, hexes: Iterable[Hex]) -> TerrainMap:
        """The same map on a board of these hexes (a layout's `hexes()`): what
        ``replace(self, board=...)`` makes, its checked tables shared rather than checked and
        built again (1 ms of `check`, issue 10), and a cache of its own (a network depends on
        the board)."""
        out = object.__new__(type(self))
        out.__dict__.update(self.__dict__)
        object.__setattr__(out, "board", frozenset(hexes))
        object.__setattr__(out, "_cache", {})
        return out

    # -- hexsides ------------------------------------------------------------------------
    def features(self, side: HexSide) -> frozenset[str]:
        """The features on hexside `side` (empty when none)."""
        return self.side_features.get(side, frozenset())

    def features_between(self, a: Hex, b: Hex) -> frozenset[str]:
        """The features on the side between `a` and `b`; empty when none or not adjacent.

        The fast path for searches: no `HexSide` is built.
        """
        return self._by_pair.get((a, b), frozenset())

    def keyed(self) -> KeyedTerrain:
        """The hexes' terrain, the hexsides' features and the board keyed by ints (built once, then cached)."""
        got = self._cache.get("keyed")
        if got is None:
            got = self._cache["keyed"] = KeyedTerrain(
                {(h.q, h.r): ts for h, ts in self.hex_terrain.items()},
                {(a.q, a.r, b.q, b.r): fs for (a, b), fs in self._by_pair.items()},
                frozenset((h.q, h.r) for h in self.off_map),
                None if self.board is None else frozenset((h.q, h.r) for h in self.board),
            )
        assert isinstance(got, KeyedTerrain)
        return got

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
        roads and trails where they meet. Hexsides touching a hex off the playing area
        (`on_board`) are left out: no path runs off it. ValueError for a feature the vocabulary lacks.
        """
        if not features:
            raise ValueError("network() needs at least one feature")
        if bad := self.vocabulary.unknown_features(features):
            raise ValueError(f"unknown hexside features {bad} (known: {sorted(self.vocabulary.features)})")
        key = ("network", frozenset(features))
        net = self._cache.get(key)
        if net is None:
            on = self.on_board
            sides = [s for s in self.sides_with(*features) if on(s.a) and on(s.b)]
            net = self._cache[key] = RoadNetwork(features, sides)
        assert isinstance(net, RoadNetwork)
        return net
