"""Supply by lines of communication (LOC) of a length set per unit, to sources that exist while
something holds them (RULES-MAP N10; seed 004's 12.2-12.4).

A LOC is a path of hexes from a unit to a source hex, counted in hexes entered (the unit's own
hex is where it starts; a unit in a source hex traces 0 hexes):

- 12.2: "a number of hexes equal to its printed movement factor (MF) if the entire path is
  traced along contiguous roads and/or through open terrain hexes", and "half of its printed MF
  (rounded up) if the path does not". A step is *fast* when it crosses a hexside with one of
  `fast_features` (a road) or enters a hex whose every terrain type is one of `fast_terrain`
  (open); a hex the map gives no terrain is not open (nothing is guessed). A path of fast steps
  only may be `length` long; any other one `slow_length` of it (`SLOW_LENGTHS`).
- 12.3: it "cannot enter hexes containing enemy units or EZOC. However, a unit in an EZOC can
  always trace a LOC out of the hex": the hexes in `blocked` (supply.obstructed_hexes) are never
  entered, the unit's own hex is never one. "An LOC cannot be traced through terrain which the
  tracing unit is prohibited from entering. However, a unit can trace an LOC through such
  terrain along a road": `Prohibition`s as movement's, a barred hex entered and left only across
  one of its `through` hexsides. `closed_sides`: hexside features no LOC crosses.
- 12.3: "If a Garrison is in an EZOC it cannot provide an LOC other than into its own hex":
  a source hex that is itself blocked supplies by `source_in_enemy_zoc` (`SOURCE_POLICIES`).
- 12.4: the sources are named groups of hexes (`LocSource`) the caller draws from the position
  (ports holding a friendly Garrison, an edge off which a box is reached).

How it is computed (STYLE.md 6.14): one breadth-first search outward from each source, per set of
terrain barred to a class of unit and per kind of step (fast only, any), bounded by the longest
allowance plus `horizon` (so an out-of-supply report can say how far the nearest source is). A
unit looks its hex up in each; every source in reach is kept, nearest first (12.5 asks whether
units reach "a single supply source"). Pure: no files.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass, field

from vassal_adj.model.geometry.hexes import Hex, neighbors
from vassal_adj.model.state import GameState
from vassal_adj.model.terrain import TerrainMap
from vassal_adj.rules.mechanisms.prohibition import Prohibition
from vassal_adj.rules.mechanisms.zoc import unit_classes

__all__ = [
    "SLOW_LENGTHS",
    "SOURCE_POLICIES",
    "LocRules",
    "LocSource",
    "LocStatus",
    "loc_supply",
]

# "half-up" / "half-down": half the length, rounded up (12.2) or down; "full": a slow path is as
# long as a fast one (no road bonus); "none": only a path of fast steps counts.
SLOW_LENGTHS = ("half-up", "half-down", "full", "none")
# A source hex that is itself blocked: "own-hex" supplies only the units in it (12.3), "none"
# supplies no one, "normal" supplies as though it were free.
SOURCE_POLICIES = ("own-hex", "none", "normal")

_Barred = tuple[tuple[str, frozenset[str]], ...]  # (terrain, hexside features that still let a LOC in)


@dataclass(frozen=True)
class LocRules:
    """The parameters of a LOC (see the module doc): `fast_terrain`, `fast_features`,
    `slow_length`, `prohibitions`, `closed_sides`, `source_in_enemy_zoc`, and `horizon`: how
    many hexes past the longest allowance the searches look, for reports only."""

    fast_terrain: frozenset[str] = frozenset()
    fast_features: frozenset[str] = frozenset()
    slow_length: str = "half-up"
    prohibitions: tuple[Prohibition, ...] = ()
    closed_sides: frozenset[str] = frozenset()
    source_in_enemy_zoc: str = "own-hex"
    horizon: int = 4

    def __post_init__(self) -> None:
        if self.slow_length not in SLOW_LENGTHS:
            raise ValueError(f"slow_length: expected one of {', '.join(SLOW_LENGTHS)}, got {self.slow_length!r}")
        if self.source_in_enemy_zoc not in SOURCE_POLICIES:
            raise ValueError(
                f"source_in_enemy_zoc: expected one of {', '.join(SOURCE_POLICIES)}, got {self.source_in_enemy_zoc!r}"
            )
        if self.horizon < 0:
            raise ValueError(f"horizon must be >= 0, got {self.horizon}")
        for name in ("fast_terrain", "fast_features", "closed_sides"):
            object.__setattr__(self, name, frozenset(getattr(self, name)))
        object.__setattr__(self, "prohibitions", tuple(self.prohibitions))

    def slow(self, length: int) -> int:
        """The most hexes of a path not wholly of fast steps (-1: none counts)."""
        return {"half-up": (length + 1) // 2, "half-down": length // 2, "full": length, "none": -1}[self.slow_length]

    def barred(self, classes: tuple[str, ...]) -> _Barred:
        """The terrain a unit of these classes may not trace through, with the hexsides that still let it."""
        return tuple(sorted((p.terrain, p.through) for p in self.prohibitions if p.applies(classes)))


@dataclass(frozen=True)
class LocSource:
    """A supply source: its `name` (the place, or the box reached off an edge), its hexes, and
    `via`, words saying why it is one now ("Garrison X holds it")."""

    name: str
    hexes: tuple[Hex, ...]
    via: str = ""


@dataclass(frozen=True)
class LocStatus:
    """One unit's LOC. `fast` / `slow`: its allowances in hexes (slow -1: none); `source`, `path`
    (unit to source hex) and `on_fast` (every step fast) of the nearest source in reach;
    `reachable`: every source in reach, nearest first. When out: `nearest` is (source, hexes,
    fast path?) of the closest source found within the horizon, if any, and `blocking` the
    blocked hexes within the unit's reach (what closes the way)."""

    unit_id: str
    hex: Hex
    fast: int
    slow: int
    source: str = ""
    path: tuple[Hex, ...] = ()
    on_fast: bool = False
    reachable: tuple[str, ...] = ()
    nearest: tuple[str, int, bool] | None = None
    blocking: tuple[Hex, ...] = field(default=())

    @property
    def supplied(self) -> bool:
        return bool(self.source)


_Field = tuple[dict[Hex, int], dict[Hex, Hex]]  # distance to the source, next hex toward it


class _Search:
    """The searches of one side's position, cached by (source, barred terrain, fast only)."""

    def __init__(self, terrain: TerrainMap, rules: LocRules, blocked: Collection[Hex], depth: int) -> None:
        self.terrain, self.rules, self.blocked, self.depth = terrain, rules, frozenset(blocked), depth
        self._fields: dict[tuple[int, _Barred, bool], _Field] = {}

    def step(self, a: Hex, b: Hex, barred: _Barred) -> bool | None:
        """Whether the step a -> b is fast; None when no LOC takes it (off the board, a closed
        hexside, barred terrain not entered or left across a hexside that lets it)."""
        t = self.terrain
        if not t.on_board(b):
            return None
        sides = t.features_between(a, b)
        if sides & self.rules.closed_sides:
            return None
        to, at = t.terrain(b), t.terrain(a)
        for kind, through in barred:
            if (kind in to or kind in at) and not sides & through:
                return None
        return bool(sides & self.rules.fast_features) or bool(to and to <= self.rules.fast_terrain)

    def field(self, i: int, source: LocSource, barred: _Barred, fast_only: bool) -> _Field:
        key = (i, barred, fast_only)
        if key not in self._fields:
            self._fields[key] = self._search(source, barred, fast_only)
        return self._fields[key]

    def _search(self, source: LocSource, barred: _Barred, fast_only: bool) -> _Field:
        policy = self.rules.source_in_enemy_zoc
        dist: dict[Hex, int] = {}
        toward: dict[Hex, Hex] = {}
        queue: deque[Hex] = deque()
        for h in source.hexes:
            if h in dist or not self.terrain.on_board(h) or (h in self.blocked and policy == "none"):
                continue
            dist[h] = 0
            queue.append(h)
        while queue:
            b = queue.popleft()
            # A blocked hex is recorded (a unit standing in it traces out of it) but never crossed;
            # a blocked source is crossed only under "normal".
            if b in self.blocked and not (policy == "normal" and dist[b] == 0):
                continue
            d = dist[b] + 1
            if d > self.depth:
                continue
            for a in neighbors(b):
                if a in dist:
                    continue
                fast = self.step(a, b, barred)
                if fast is None or (fast_only and not fast):
                    continue
                dist[a], toward[a] = d, b
                queue.append(a)
        return dist, toward

    def around(self, origin: Hex, barred: _Barred, reach: int) -> tuple[Hex, ...]:
        """The blocked hexes a LOC from `origin` would meet within `reach` hexes, nearest first."""
        seen, met = {origin: 0}, {}
        queue = deque([origin])
        while queue:
            a = queue.popleft()
            if seen[a] >= reach:
                continue
            for b in neighbors(a):
                if b in seen or self.step(a, b, barred) is None:
                    continue
                seen[b] = seen[a] + 1
                if b in self.blocked:
                    met[b] = seen[b]
                else:
                    queue.append(b)
        return tuple(sorted(met, key=lambda h: (met[h], h.raw())))


def _walk(toward: Mapping[Hex, Hex], h: Hex) -> tuple[Hex, ...]:
    path = [h]
    while path[-1] in toward:
        path.append(toward[path[-1]])
    return tuple(path)


def loc_supply(
    state: GameState,
    terrain: TerrainMap,
    units: Iterable[tuple[str, Hex, int]],
    rules: LocRules,
    sources: Sequence[LocSource],
    blocked: Collection[Hex],
) -> dict[str, LocStatus]:
    """The LOC of each (unit id, hex, length in hexes) of `units` to `sources`, hexes of `blocked`
    never entered. Ties between sources as near go to the one given first."""
    todo = list(units)
    longest = max((max(n, rules.slow(n)) for _, _, n in todo), default=0)
    search = _Search(terrain, rules, blocked, longest + rules.horizon)
    out: dict[str, LocStatus] = {}
    for uid, h, length in todo:
        barred = rules.barred(unit_classes(state.units[uid]))
        fast, slow = length, rules.slow(length)
        reach: list[tuple[int, int, str, tuple[Hex, ...], bool]] = []
        near: tuple[int, int, str, bool] | None = None
        for i, src in enumerate(sources):
            for fast_only, allowed in ((True, fast), (False, slow)):
                dist, toward = search.field(i, src, barred, fast_only)
                d = dist.get(h)
                if d is None:
                    continue
                if d <= allowed:
                    reach.append((d, i, src.name, _walk(toward, h), fast_only))
                    break
                if near is None or (d, i) < near[:2]:
                    near = (d, i, src.name, fast_only)
        if reach:
            reach.sort(key=lambda r: r[:2])
            d, _, name, path, on_fast = reach[0]
            names = tuple(dict.fromkeys(r[2] for r in reach))
            out[uid] = LocStatus(uid, h, fast, slow, name, path, on_fast, names)
        else:
            nearest = (near[2], near[0], near[3]) if near else None
            blocking = search.around(h, barred, max(fast, slow))
            out[uid] = LocStatus(uid, h, fast, slow, nearest=nearest, blocking=blocking)
    return out
