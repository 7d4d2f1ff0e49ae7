"""A game's movement parameters, checked and frozen (`MovementRules`), and a unit's allowance.

The search over them is movement.py; a pack's tables become these in movement_rules.py.

>>> from vassal_adj.model.units import Unit
>>> poor = MovementRules(weather_allowance={"poor": ((8, -5), (0, -2))})  # a 20.3-style table
>>> allowance(Unit("u", "2-3-11 (1/6)", "Allied", "armor", 11), "Poor", poor)
6
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from types import MappingProxyType

from vassal_adj.model.units import Unit
from vassal_adj.rules.mechanisms.breakthrough import ZocException
from vassal_adj.rules.mechanisms.movement_mods import AllowanceModifier, CostModifier, EnterableEnemy
from vassal_adj.rules.mechanisms.prohibition import Prohibition
from vassal_adj.rules.mechanisms.zoc import ZocRules, freeze_weather_map, weather_name

__all__ = ["Cost", "CostSpec", "MovementRules", "allowance"]

Cost = int | float | Fraction
CostSpec = Cost | None | Mapping[str, Cost | None]


def _numbers(table: Mapping[str, CostSpec]) -> list[Cost]:
    return [v for s in table.values() for v in (s.values() if isinstance(s, Mapping) else (s,)) if v is not None]


def _freeze_costs(table: Mapping[str, CostSpec]) -> Mapping[str, CostSpec]:
    return MappingProxyType({k: MappingProxyType(dict(v)) if isinstance(v, Mapping) else v for k, v in table.items()})


def _frac(v: Cost) -> Fraction:  # floats as the fractions they stand for: 0.5 -> 1/2, 1 / 3 -> 1/3
    return Fraction(v).limit_denominator(1000) if isinstance(v, float) else Fraction(v)


def _hashable(table: Mapping[str, object]) -> frozenset[tuple[str, object]]:
    return frozenset((k, frozenset(v.items()) if isinstance(v, Mapping) else v) for k, v in table.items())


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
    - `cost_modifiers`, `exit_multiplier`, `allowance_modifiers`: rules/mechanisms/movement_mods.py; the
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
    zoc_exceptions: tuple[ZocException, ...] = ()  # breakthrough.py (seed 001 4.3)
    entry_cost: str = "free"
    rule_ref: str = "standard-movement"
    impassable_ref: str = "standard-movement"
    weather_ref: str = "20.0"
    # Cited when an allowance modifier, not the weather, set the allowance a move exceeds: the rule
    # that imposes it (seed 001 Campaign II "reduced to 3 movement points"; 9.2). "": `rule_ref`.
    modifier_ref: str = ""
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
        set_(
            self,
            "weather_allowance",
            MappingProxyType(
                {
                    weather_name(k): tuple(sorted(((int(m), int(c)) for m, c in v), reverse=True))
                    for k, v in self.weather_allowance.items()
                }
            ),
        )
        positive = [*_numbers(self.terrain_costs), *_numbers(self.road_rates), self.default_cost]
        if bad := [v for v in positive if not v > 0] + [v for v in _numbers(self.hexside_costs) if v < 0]:
            raise ValueError(f"movement costs must be positive (hexside costs >= 0), got {bad[0]!r}")
        added = [c.value for c in self.cost_modifiers if c.op != "multiply"] + (
            [self.enterable_enemy.extra_cost] if self.enterable_enemy else []
        )
        set_(self, "scale", math.lcm(*(_frac(v).denominator for v in positive + _numbers(self.hexside_costs) + added)))

    def __hash__(self) -> int:
        return hash(
            (
                *map(
                    _hashable,
                    (
                        self.terrain_costs,
                        self.hexside_costs,
                        self.road_rates,
                        self.impassable_in_weather,
                        self.weather_allowance,
                        self.exit_multiplier,
                    ),
                ),
                self.default_cost,
                self.combine,
                self.entry_cost,
                self.minimum_move,
                self.prohibitions,
                self.bridge_features,
                self.zoc,
                self.impassable_sides,
                self.cost_modifiers,
                self.allowance_modifiers,
                self.enterable_enemy,
            )
        )

    def ticks(self, v: Cost) -> int:
        """A cost in the search's whole units (MP times `scale`)."""
        return int(_frac(v) * self.scale)


def allowance(unit: Unit, weather: str | None, rules: MovementRules) -> int:
    """The allowance in `weather`: the printed one changed by the first matching bracket (>= 0),
    then by the first of `rules.allowance_modifiers` that is for the unit in this weather."""
    mp = weather_allowance(unit, weather, rules)
    return next((got for m in rules.allowance_modifiers if (got := m.apply(unit, weather, mp)) is not None), mp)


def weather_allowance(unit: Unit, weather: str | None, rules: MovementRules) -> int:
    """The printed allowance changed by the first of `rules.weather_allowance`'s brackets for
    `weather` that fits it (>= 0), before any allowance modifier."""
    return next(
        (
            max(0, unit.movement + change)
            for minimum, change in rules.weather_allowance.get(weather_name(weather), ())
            if unit.movement >= minimum
        ),
        unit.movement,
    )
