"""Zones of control: which hexes the enemy controls, computed once per state and side.

`ZocRules` holds a pack's parameters: which units exert a zone of control (ZOC), into which
terrain and across which hexsides it extends, what it does to movement (`mode`), whether
friendly units negate it for some purpose, and which units ignore it. `enemy_zoc` makes one
pass over the enemy units and returns the controlled hexes; movement (`rules.movement`) and
supply take that set as an argument instead of asking unit by unit.

Defaults are the 1976 SPI quadrigame standard rules that seed 000's rulebook builds on, as
public descriptions give them: every unit exerts a ZOC into the six hexes around it, a unit
entering an enemy ZOC must stop there, and (rule 19.2 implies it: "any and all of the
Phasing Player's units may exit from Enemy Zones of Control" only during a Withdrawal) a unit
may not leave an enemy ZOC by movement ("sticky"). A pack adds its own rules as parameters
(e.g. `blocked_in_weather`: no ZOC across unbridged streams in poor weather).

>>> from vassal_adj.model.geometry.hexes import Hex
>>> from vassal_adj.model.state import GameState, Position
>>> from vassal_adj.model.terrain import TerrainMap, TerrainVocabulary
>>> from vassal_adj.model.units import Unit
>>> u = Unit("g1", "5-3-12 (2/7)", "Axis", "armor", 12, mechanized=True)
>>> state = GameState({"g1": u}, {"g1": Position(Hex.from_raw(5, 5))})
>>> terrain = TerrainMap(TerrainVocabulary(terrain={"clear"}, features={"stream"}))
>>> len(enemy_zoc(state, terrain, "Allied", ZocRules()))
6
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType

from vassal_adj.model.geometry.hexes import Hex, neighbors
from vassal_adj.model.state import GameState
from vassal_adj.model.terrain import TerrainMap
from vassal_adj.model.units import Unit

__all__ = [
    "ZOC_MODES",
    "ZOC_PURPOSES",
    "Sources",
    "ZocRules",
    "blocked_side",
    "enemy_zoc",
    "exerted_by",
    "freeze_weather_map",
    "no_sources",
    "unit_classes",
    "weather_name",
    "zoc_sources",
]

# For an enemy-controlled hex: the enemy units exerting the zone of control, and words naming them.
Sources = Callable[[Hex], tuple[tuple[str, ...], str]]

# "sticky": a unit in an enemy ZOC may not leave it during movement (locked);
# "stop": it must stop on entering, may leave on a later move, but not straight into another
#         enemy-controlled hex (no ZOC to ZOC) unless `zoc_to_zoc` allows it;
# "none": zones of control do not affect movement (they may still matter for supply);
# "no-entry": a unit may not enter an enemy-controlled hex at all, though one that starts in
#         one may leave it (seed 001 10: exploitation).
ZOC_MODES = frozenset({"sticky", "stop", "none", "no-entry"})
# What `negated_for` may name: the uses of a zone of control a friendly unit in the hex may cancel.
ZOC_PURPOSES = frozenset({"movement", "supply", "retreat"})


def unit_classes(unit: Unit) -> tuple[str, ...]:
    """The names a rule table may key a unit by, most specific first.

    Its `kind` ("armor", "mechanized-infantry", ...), its flags (sorted), then "mechanized"
    or "non-mechanized" (the words of rule 16.11), then "*" for every unit.
    """
    return (unit.kind, *sorted(unit.flags), "mechanized" if unit.mechanized else "non-mechanized", "*")


def weather_name(weather: str | None) -> str:
    """The weather as rule tables key it: lower case, stripped ("" when unknown)."""
    return (weather or "").strip().lower()


def freeze_weather_map(m: Mapping[str, Iterable[str]]) -> Mapping[str, frozenset[str]]:
    """A read-only copy of a weather -> names table, with weather names in lower case."""
    return MappingProxyType({weather_name(k): frozenset(v) for k, v in m.items()})


def blocked_side(features: frozenset[str], blocked: frozenset[str], bridges: frozenset[str]) -> str | None:
    """The first (sorted) feature of a hexside that blocks, or None.

    A hexside carrying a bridge feature is not blocked ("unbridged Stream hexsides", 20.0).
    """
    if not features or not blocked or features & bridges:
        return None
    hit = features & blocked
    return min(hit) if hit else None


@dataclass(frozen=True)
class ZocRules:
    """What zones of control are in one game; every field is a pack parameter.

    - `exert_kinds`: when not None, only units of these classes exert a ZOC (see
      `unit_classes`); `no_zoc_kinds` / `no_zoc_flags`: classes and flags that exert none
      (e.g. a pack where artillery has no ZOC sets ``no_zoc_kinds={"artillery"}``).
    - `blocked_terrain`: terrain a ZOC does not extend into (16.13: Rough is *not* one).
    - `blocked_features`: hexside features a ZOC never crosses ("crest", "all-sea").
    - `blocked_in_weather`: weather -> hexside features it does not cross in that weather
      unless the side also carries one of `bridge_features` (20.0: poor -> stream).
    - `negated_for`: purposes ("supply", "retreat", "movement") for which a hex holding a
      friendly unit is not enemy-controlled; empty means never.
    - `ignore_kinds` / `ignore_flags`: units that ignore enemy ZOC in movement.
    - `mode`: see `ZOC_MODES`; `zoc_to_zoc`: in "stop" mode, may a unit move straight from
      one enemy-controlled hex into another.
    - `rule_ref`, `weather_ref`, `withdrawal_ref`, `reenter_ref`: rule numbers cited.
    """

    mode: str = "sticky"
    zoc_to_zoc: bool = False
    exert_kinds: frozenset[str] | None = None
    no_zoc_kinds: frozenset[str] = frozenset()
    no_zoc_flags: frozenset[str] = frozenset({"no-zoc"})
    blocked_terrain: frozenset[str] = frozenset()
    blocked_features: frozenset[str] = frozenset()
    blocked_in_weather: Mapping[str, frozenset[str]] = field(default_factory=dict)
    bridge_features: frozenset[str] = frozenset({"bridge"})
    negated_for: frozenset[str] = frozenset()
    ignore_kinds: frozenset[str] = frozenset()
    ignore_flags: frozenset[str] = frozenset({"ignores-zoc"})
    rule_ref: str = "standard-zoc"
    weather_ref: str = "20.0"
    withdrawal_ref: str = "19.2"
    reenter_ref: str = "19.21"

    def __post_init__(self) -> None:
        if self.mode not in ZOC_MODES:
            raise ValueError(f"unknown ZOC mode {self.mode!r} (known: {sorted(ZOC_MODES)})")
        if bad := sorted(set(self.negated_for) - ZOC_PURPOSES):
            raise ValueError(f"unknown ZOC purpose {bad[0]!r} (known: {sorted(ZOC_PURPOSES)})")
        set_ = object.__setattr__
        for name in (
            "no_zoc_kinds",
            "no_zoc_flags",
            "blocked_terrain",
            "blocked_features",
            "bridge_features",
            "negated_for",
            "ignore_kinds",
            "ignore_flags",
        ):
            set_(self, name, frozenset(getattr(self, name)))
        if self.exert_kinds is not None:
            set_(self, "exert_kinds", frozenset(self.exert_kinds))
        set_(self, "blocked_in_weather", freeze_weather_map(self.blocked_in_weather))

    def __hash__(self) -> int:
        return hash(
            (
                self.mode,
                self.zoc_to_zoc,
                self.exert_kinds,
                self.no_zoc_kinds,
                self.no_zoc_flags,
                self.blocked_terrain,
                self.blocked_features,
                frozenset(self.blocked_in_weather.items()),
                self.bridge_features,
                self.negated_for,
                self.ignore_kinds,
                self.ignore_flags,
                self.rule_ref,
                self.weather_ref,
                self.withdrawal_ref,
                self.reenter_ref,
            )
        )

    def exerts(self, unit: Unit) -> bool:
        """Whether `unit` exerts a zone of control."""
        classes = unit_classes(unit)
        if self.exert_kinds is not None and not self.exert_kinds.intersection(classes):
            return False
        return not (self.no_zoc_kinds.intersection(classes) or self.no_zoc_flags & unit.flags)

    def ignores(self, unit: Unit) -> bool:
        """Whether `unit` ignores enemy zones of control when it moves."""
        return bool(self.ignore_kinds.intersection(unit_classes(unit)) or self.ignore_flags & unit.flags)

    def side_blocked(self, weather: str | None) -> frozenset[str]:
        """Hexside features no ZOC crosses in `weather` (before bridges are considered)."""
        extra = self.blocked_in_weather.get(weather_name(weather))
        return self.blocked_features | extra if extra else self.blocked_features


def _extends(terrain: TerrainMap, rules: ZocRules, weather: str | None) -> Callable[[Hex, Hex], bool]:
    """Whether the zone of control of a unit in one hex extends into a neighbour: both on the
    playing area, the neighbour not of `rules.blocked_terrain`, the hexside not blocked in `weather`."""
    sides_blocked, bridges, blocked_terrain = rules.side_blocked(weather), rules.bridge_features, rules.blocked_terrain
    hex_terrain, on_board, between = terrain.hex_terrain, terrain.on_board, terrain.features_between

    def extends(src: Hex, dst: Hex) -> bool:
        return (
            on_board(src)
            and on_board(dst)
            and not (blocked_terrain and blocked_terrain & hex_terrain.get(dst, frozenset()))
            and not (sides_blocked and blocked_side(between(src, dst), sides_blocked, bridges))
        )

    return extends


def enemy_zoc(
    state: GameState,
    terrain: TerrainMap,
    side: str,
    rules: ZocRules,
    weather: str | None = None,
    purpose: str = "movement",
) -> frozenset[Hex]:
    """The hexes in the zone of control of any unit not of `side` (one pass over the units).

    A ZOC extends into the six hexes around each exerting unit on the map, except hexes off
    the playing area (`TerrainMap.on_board`: off the board, or declared off-map), hexes of
    `rules.blocked_terrain`, and across hexsides `rules` blocks in `weather` (default:
    `state.weather`). When `purpose` is in `rules.negated_for`, hexes holding a unit
    of `side` are left out. The hexes the enemy units stand in are not included (they are
    enemy-occupied, which movement treats on its own).
    """
    extends = _extends(terrain, rules, state.weather if weather is None else weather)
    units = state.units
    out: set[Hex] = set()
    friendly: set[Hex] = set()
    for h, ids in state.occupied().items():
        exerting = False
        for uid in ids:
            u = units.get(uid)
            if u is None:
                continue
            if u.side == side:
                friendly.add(h)
            elif not exerting and rules.exerts(u):
                exerting = True
        if exerting:
            out.update(n for n in neighbors(h) if n not in out and extends(h, n))
    if purpose in rules.negated_for:
        out -= friendly
    return frozenset(out)


def exerted_by(
    state: GameState, terrain: TerrainMap, h: Hex, side: str, rules: ZocRules, weather: str | None = None
) -> tuple[str, ...]:
    """The units not of `side` whose zone of control extends into `h`, as `enemy_zoc` draws it
    (the same terrain, hexside and weather limits); by hex around `h`, then as the state lists them."""
    extends = _extends(terrain, rules, state.weather if weather is None else weather)
    occupied, units = state.occupied(), state.units
    return tuple(
        uid
        for n in neighbors(h)
        if n in occupied and extends(n, h)
        for uid in occupied[n]
        if (u := units.get(uid)) is not None and u.side != side and rules.exerts(u)
    )


def no_sources(h: Hex) -> tuple[tuple[str, ...], str]:
    """`Sources` when no unit is known to exert the zone of control (none is obeyed)."""
    return (), ""


def zoc_sources(
    state: GameState,
    terrain: TerrainMap,
    side: str,
    rules: ZocRules,
    label: Callable[[Hex], str],
    weather: str | None = None,
) -> Sources:
    """`Sources` for a unit of `side`: the enemy units exerting a zone of control into a hex
    (`exerted_by`) and " (of Allied 1-2-7 (-/168) in 2212)" naming them, so that a finding
    citing the zone names and marks who exerts it; "" when none does (a zone the caller gave)."""
    known: dict[Hex, tuple[tuple[str, ...], str]] = {}

    def sources(h: Hex) -> tuple[tuple[str, ...], str]:
        if h not in known:
            ids = exerted_by(state, terrain, h, side, rules, weather)
            names = [
                f"{state.units[i].side} {state.units[i].name} in {label(at)}"
                for i in ids
                if (at := state.hex_of(i)) is not None
            ]
            known[h] = ids, f" (of {' and '.join(names)})" if names else ""
        return known[h]

    return sources
