"""Transport modes (RULES-MAP N25): a unit's move with no land path, and the modes it may fit.

A move has no land path when a drag of it leaves or reaches a box, or joins two hexes that no
chain of land hexes links (a sea hex between, an all-sea hexside: `land_parts`). Such a move is
legal only as one of the pack's modes, each a table:

- `name` (the action, e.g. "naval-transfer"), `rule_ref`, `cost` (AP, seed 004 14.1 "one AP");
- `sides` (who may use it; [] any), `units` (selector of the units carried), `carrier` (selector of
  the naval unit that must move with them, one per destination hex: 18.2 "one Amphib");
- `from` and `to`: endpoint tables, any of which fits: `box` (a box kind of the pack's [boxes], of
  the unit's side), `place_kind`, `region` (any hex spec), `terrain` / `not_terrain` (terrain types
  the hex has / has not), `coastal` (beside a sea hex), `holding` / `not_holding` (a friendly unit
  of this selector is / is not in the hex as the segment began: a functional port holds a
  Garrison, 7.3), `no_enemy` (no enemy unit of this selector there), `name` (the endpoint in words),
  `rule_ref` (cited when the endpoint fails, e.g. 14.1.2);
- `max_units` units an action (with a `carrier`: a carrier, i.e. a destination hex; 0: any),
  `one_origin` / `one_destination` (all from / to one place), `one_contingent`
  (a field the units share), `exclusive` (no other unit moves in the segment, and the carried units
  make no other move: 14.1.1 "can conduct no other movement in that Action Segment"), `path`
  ("none"; "ground": a move by land between a box and the map, 26.3, which may go on by land),
  `unless_marker` (`{ marker, sides, rule_ref }`: closed to those sides while that marker is
  placed, 14.2.2 "the Axis can no longer conduct Naval Transfer" once the Naval Interdiction
  marker is on the Allied AP Track).

Pure: positions and terrain in, verdicts out.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from vassal_adj.model.geometry.hexes import Hex, neighbors
from vassal_adj.model.state import GameState, Position
from vassal_adj.model.terrain import TerrainMap
from vassal_adj.model.units import Unit
from vassal_adj.rules.engine import RuleContext
from vassal_adj.rules.param_shape import Each, Either, Table
from vassal_adj.rules.select import Selector, selector_at

__all__ = ["MODE", "Endpoint", "Mode", "carried", "land_parts", "mode_of", "no_land_path"]

_NAMES = Either("str", "list[str]")  # _strings: a name or a list of names
_ENDPOINT = Table(
    {
        "box": "str",
        "place_kind": "str",
        "region": "str",
        "terrain": _NAMES,
        "not_terrain": _NAMES,
        "coastal": "bool",
        "holding": "selector",
        "not_holding": "selector",
        "no_enemy": "selector",
        "name": "str",
        "rule_ref": "str",
    }
)
# One mode as the pack writes it: `transport.modes`' shape, checked as the pack loads; `Mode.read`
# checks again what it means (a path of "none" or "ground", endpoints given).
MODE = Table(
    {
        "name": "str",
        "rule_ref": "str",
        "cost": "int",
        "sides": _NAMES,
        "units": "selector",
        "carrier": "selector",
        "from": Each(_ENDPOINT),
        "to": Each(_ENDPOINT),
        "max_units": "int",
        "one_origin": "bool",
        "one_destination": "bool",
        "one_contingent": "str",
        "exclusive": "bool",
        "path": "str",
        "unless_marker": Table({"marker": "str", "sides": _NAMES, "rule_ref": "str"}, ("marker",), or_empty=True),
    },
    required=("name", "from", "to"),
)
ENDPOINT_KEYS = set(_ENDPOINT.keys)
FITS = 100  # a trip that meets every condition of a mode (misfit's score)
MODE_KEYS = set(MODE.keys)


@lru_cache(maxsize=8)
def land_parts(terrain: TerrainMap, sea: str, closed: tuple[str, ...]) -> Mapping[Hex, int]:
    """Each land hex of the board (not of terrain `sea`) and the number of the land mass it is in,
    hexes joined across any hexside without a feature of `closed`."""
    part: dict[Hex, int] = {}
    for first in terrain.hexes():
        if first in part or terrain.has_terrain(first, sea):
            continue
        part[first], todo = len(part), [first]
        while todo:
            h = todo.pop()
            for n in neighbors(h):
                if n in part or not terrain.on_board(n) or terrain.has_terrain(n, sea):
                    continue
                if any(terrain.has_feature(h, n, f) for f in closed):
                    continue
                part[n] = part[first]
                todo.append(n)
    return part


def no_land_path(a: Position, b: Position, parts: Mapping[Hex, int]) -> bool:
    """Whether a drag from `a` to `b` goes where no land path does: a box, a sea hex, another land mass."""
    if a.hex is None or b.hex is None:
        return True
    return a.hex not in parts or b.hex not in parts or parts[a.hex] != parts[b.hex]


def carried(drags: Sequence[tuple[Position, Position]], parts: Mapping[Hex, int], boxes: frozenset[str]) -> bool:
    """Whether a unit's drags are a trip `transport.modes` judges (its `trips_of`): a drag with no
    land path, and every box it touches of a kind in `boxes` (the Staging Areas), not a
    Reinforcement Display's entry nor a loss."""
    stops = [drags[0][0], *(b for _, b in drags)] if drags else []
    if any(s.hex is None and (s.named is None or s.named.kind not in boxes) for s in stops):
        return False
    return any(no_land_path(a, b, parts) for a, b in drags)


def _strings(value: Any, path: str) -> frozenset[str]:
    if isinstance(value, str):
        return frozenset({value})
    if not isinstance(value, (list, tuple)) or not all(isinstance(v, str) for v in value):
        raise ValueError(f"{path}: expected a name or a list of names, got {value!r}")
    return frozenset(value)


@dataclass(frozen=True)
class Endpoint:
    """Where a mode's units may leave from or arrive at (see the module's doc)."""

    data: Mapping[str, Any]
    holding: Selector | None
    not_holding: Selector | None
    no_enemy: Selector | None

    @classmethod
    def read(cls, data: Any, path: str) -> Endpoint:
        if not isinstance(data, Mapping):
            raise ValueError(f"{path}: expected a table (an endpoint), got {data!r}")
        unknown = sorted(set(data) - ENDPOINT_KEYS)
        if unknown:
            raise ValueError(f"{path}: unknown key {unknown[0]!r} (known: {', '.join(sorted(ENDPOINT_KEYS))})")
        sel = {
            k: selector_at(data[k], f"{path}.{k}") if k in data else None
            for k in ("holding", "not_holding", "no_enemy")
        }
        return cls(dict(data), **sel)

    @property
    def words(self) -> str:
        d = self.data
        return str(d.get("name") or d.get("box") or d.get("place_kind") or d.get("region") or "a hex")

    def misses(self, pos: Position, side: str, state: GameState, ctx: RuleContext, sea: str) -> tuple[int, str]:
        """Why `pos` is not this endpoint for a unit of `side` ("" when it is), and how many of its
        conditions `pos` met before the one it failed (the nearer miss is the one to cite)."""
        d = self.data
        if pos.hex is None:
            named = pos.named
            ok = "box" in d and named is not None and named.kind == d["box"] and named.side in ("", side)
            return (0, "") if ok else (0, f"{pos.box} is not {self.words}")
        h, at = pos.hex, f"{ctx.label(pos.hex)}"
        if "box" in d:
            return 0, f"{at} is no box"
        have = ctx.terrain.terrain(h)
        places = [p.name for p in ctx.terrain.places_at(h) if "place_kind" in d and d["place_kind"] in p.kinds]
        if "place_kind" in d and not places:
            return 0, f"{at} is no {d['place_kind']}"
        where = f"{places[0]} ({at})" if places else at
        want, avoid = _strings(d.get("terrain", ()), "terrain"), _strings(d.get("not_terrain", ()), "not_terrain")
        units = state.units_at(h)
        friends = [u for u in units if u.side == side]
        checks = (
            ("region" in d and h not in ctx.hexes([d.get("region", "")]), lambda: f"{where} is not in {d['region']}"),
            (bool(want) and not have & want, lambda: f"{where} is not {' or '.join(sorted(want))}"),
            (bool(have & avoid), lambda: f"{where} is {' or '.join(sorted(have & avoid))}"),
            (
                bool(d.get("coastal")) and not any(ctx.terrain.has_terrain(n, sea) for n in neighbors(h)),
                lambda: f"{where} is not coastal",
            ),
            (
                self.holding is not None and not any(self.holding.matches(u) for u in friends),
                lambda: f"{where} holds no friendly {self.holding.words() if self.holding else ''}",
            ),
            (
                self.not_holding is not None and any(self.not_holding.matches(u) for u in friends),
                lambda: f"{where} holds a friendly {self.not_holding.words() if self.not_holding else ''}",
            ),
            (
                self.no_enemy is not None and any(self.no_enemy.matches(u) for u in units if u.side != side),
                lambda: f"{where} holds enemy {self.no_enemy.words() if self.no_enemy else ''}",
            ),
        )
        for depth, (failed, why) in enumerate(checks, 1):
            if failed:
                return depth, why()
        return 0, ""


@dataclass(frozen=True)
class Mode:
    """One transport mode of the pack (see the module's doc)."""

    name: str
    rule_ref: str
    cost: int
    sides: frozenset[str]
    units: Selector
    carrier: Selector | None
    origins: tuple[Endpoint, ...]
    destinations: tuple[Endpoint, ...]
    max_units: int
    one_origin: bool
    one_destination: bool
    one_contingent: str
    exclusive: bool
    ground: bool
    unless: Mapping[str, Any] = field(default_factory=dict)

    @classmethod
    def read(cls, data: Any, path: str) -> Mode:
        if not isinstance(data, Mapping) or not isinstance(data.get("name"), str):
            raise ValueError(f"{path}: expected a table with a name (a transport mode), got {data!r}")
        unknown = sorted(set(data) - MODE_KEYS)
        if unknown:
            raise ValueError(f"{path}: unknown key {unknown[0]!r} (known: {', '.join(sorted(MODE_KEYS))})")
        if data.get("path", "none") not in ("none", "ground"):
            raise ValueError(f"{path}.path: expected 'none' or 'ground', got {data['path']!r}")

        def ends(key: str) -> tuple[Endpoint, ...]:
            value = data.get(key)
            if not isinstance(value, (list, tuple)) or not value:
                raise ValueError(f"{path}.{key}: expected a list of endpoint tables, got {value!r}")
            return tuple(Endpoint.read(v, f"{path}.{key}[{i}]") for i, v in enumerate(value))

        carrier = selector_at(data["carrier"], f"{path}.carrier") if "carrier" in data else None
        return cls(
            data["name"],
            str(data.get("rule_ref", "")),
            int(data.get("cost", 0)),
            _strings(data.get("sides", []), f"{path}.sides"),
            selector_at(data.get("units", {}), f"{path}.units"),
            carrier,
            ends("from"),
            ends("to"),
            int(data.get("max_units", 0)),
            bool(data.get("one_origin", False)),
            bool(data.get("one_destination", False)),
            str(data.get("one_contingent", "")),
            bool(data.get("exclusive", False)),
            data.get("path", "none") == "ground",
            _unless(data.get("unless_marker", {}), f"{path}.unless_marker"),
        )

    def misfit(
        self, unit: Unit, trip: tuple[Position, Position], state: GameState, ctx: RuleContext, sea: str
    ) -> tuple[int, str, str]:
        """How far `unit`'s trip (origin, destination) fits this mode (FITS: it fits), why not, and the
        rule to cite (the failing endpoint's, else the mode's)."""
        if self.sides and unit.side not in self.sides:
            return 0, f"only {' or '.join(sorted(self.sides))} units use it", self.rule_ref
        if not self.units.matches(unit):
            return 10, f"it carries only {self.units.words()}", self.rule_ref
        for stage, key, ends, pos in ((2, "from", self.origins, trip[0]), (3, "to", self.destinations, trip[1])):
            why = [e.misses(pos, unit.side, state, ctx, sea) for e in ends]
            if all(w for _, w in why):
                near = max(depth for depth, _ in why)
                refs = sorted(
                    {
                        str(e.data["rule_ref"])
                        for e, (depth, _) in zip(ends, why, strict=True)
                        if "rule_ref" in e.data and depth == near
                    }
                )
                text = f"{key} {' or '.join(e.words for e in ends)}: {'; '.join(dict.fromkeys(w for _, w in why))}"
                return stage * 10 + near, text, ", ".join(refs) or self.rule_ref
        barred = self.unless.get("marker")
        if barred and unit.side in self.unless.get("sides", [unit.side]) and state.marker(barred):
            # everything else fits: the nearest miss, whose rule is cited
            return (
                FITS - 1,
                f"not while the {barred!r} marker is placed",
                str(self.unless.get("rule_ref", self.rule_ref)),
            )
        return FITS, "", self.rule_ref


def mode_of(
    modes: Sequence[Mode], unit: Unit, trip: tuple[Position, Position], state: GameState, ctx: RuleContext, sea: str
) -> tuple[list[Mode], str, str]:
    """The modes `unit`'s trip fits; when none: why not, mode by mode, and the rule to cite (that
    of the mode the trip came closest to fitting)."""
    fits, why, best = [], [], (-1, "")
    for mode in modes:
        stage, miss, ref = mode.misfit(unit, trip, state, ctx, sea)
        if stage == FITS:
            fits.append(mode)
            continue
        why.append(f"{mode.name}: {miss}")
        best = max(best, (stage, ref), key=lambda b: b[0])
    return fits, "; ".join(why), best[1]


def _unless(value: Any, path: str) -> Mapping[str, Any]:
    """``unless_marker = { marker, sides, rule_ref }``: the mode is closed to those sides (all when
    not given) while a marker of that name is placed anywhere (seed 004 14.2.2: "When Naval
    Interdiction goes into effect the Axis can no longer conduct Naval Transfer nor Naval Evacuation")."""
    if not isinstance(value, Mapping) or (value and not isinstance(value.get("marker"), str)):
        raise ValueError(f"{path}: expected {{ marker = name, sides = [...], rule_ref = ... }}, got {value!r}")
    unknown = sorted(set(value) - {"marker", "sides", "rule_ref"})
    if unknown:
        raise ValueError(f"{path}: unknown key {unknown[0]!r} (known: marker, sides, rule_ref)")
    return {**value, **({"sides": sorted(_strings(value["sides"], f"{path}.sides"))} if "sides" in value else {})}
