"""Movement costs and allowances that change with the weather, the hex left or the unit (RULES-MAP N7).

Kept apart from movement.py for size. Three pack parameters of `movement.allowance` become these:

- `CostModifier` (`cost_modifiers`): in some weathers, the cost of some terrain (or of every
  terrain), of some hexside features, or of any step leaving some terrain, changed by `add`,
  `multiply` or `set` (seed 003 3.2: "terrain costs doubled" in a sand storm).
- `exit_multiplier`: terrain -> factor on the cost of the next hex entered from it (seed 003
  4.3: "When leaving a minefield, the costs ... to enter the next hex are doubled").
- `AllowanceModifier` (`allowance_modifiers`): units of some classes, flags or sides, in some
  weathers, have their allowance capped, changed or set; the first that matches applies
  (seed 001 9.2: out of supply "at most 1 MP (EM: 2 MP)").

An allowance modifier's units, and the enemy units of `enterable_enemy`, are picked by the keys of
a unit selector (select.py: `sides`, `kinds`, `flags`, `not_flags`, ...) written in the entry itself.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from vassal_adj.model.units import Unit
from vassal_adj.rules.mechanisms.zoc import unit_classes, weather_name
from vassal_adj.rules.select import KEYS, Selector, selector_at

__all__ = [
    "AllowanceModifier",
    "CostModifier",
    "EnterableEnemy",
    "StepCost",
    "allowance_modifiers",
    "cost_modifiers",
    "enterable_enemy",
    "exit_multipliers",
    "modify_costs",
    "unit_costs",
]

_OPS = ("add", "multiply", "set")
_MISSING = object()
_CAPS = ("cap", "add", "set")


@dataclass(frozen=True)
class CostModifier:
    """In `weather` (empty: any), the cost of `terrain` hexes, of crossing `features` hexsides, or
    of a step `leaving` terrain, changed: `op` is "add", "multiply" (a whole factor) or "set".
    With neither terrain, features nor leaving it changes every hex's terrain cost."""

    op: str
    value: Fraction
    weather: frozenset[str] = frozenset()
    terrain: frozenset[str] = frozenset()
    features: frozenset[str] = frozenset()
    leaving: frozenset[str] = frozenset()

    def in_force(self, weather: str | None) -> bool:
        return not self.weather or weather_name(weather) in self.weather

    def apply(self, ticks: int, scale: int) -> int:
        """`ticks` (MP times `scale`) changed."""
        if self.op == "multiply":
            return ticks * int(self.value)
        v = int(self.value * scale)
        return ticks + v if self.op == "add" else v


@dataclass(frozen=True)
class AllowanceModifier:
    """Units `picks` selects, in `weather` (empty: any): allowance at most `value` ("cap"), changed by
    it ("add"), or set to it ("set")."""

    op: str
    value: int
    picks: Selector = Selector()
    weather: frozenset[str] = frozenset()

    def apply(self, unit: Unit, weather: str | None, mp: int) -> int | None:
        """The allowance `mp` becomes, or None when this modifier is not for `unit` in `weather`."""
        if (self.weather and weather_name(weather) not in self.weather) or not self.picks.matches(unit):
            return None
        return max(0, min(mp, self.value) if self.op == "cap" else mp + self.value if self.op == "add" else self.value)


@dataclass(frozen=True)
class EnterableEnemy:
    """An enemy-occupied hex a unit may enter when every enemy unit in it is one `enemies` picks,
    paying `extra_cost` MP on top of the hex's cost; units `movers` does not pick may not
    (seed 001 4.2: "Consuming two of it movement points in addition of cost of terrain, a
    combat unit could enter a hex occupied by a hostile EM not stacked with an enemy combat unit")."""

    enemies: Selector
    extra_cost: Fraction = Fraction(0)
    not_movers: frozenset[str] = frozenset()

    def by(self, mover: Unit) -> bool:
        return not self.not_movers.intersection(unit_classes(mover))


def _picks(entry: Mapping[str, Any], where: str) -> Selector:
    """The selector an entry's selector keys make (its other keys are its own)."""
    return selector_at({k: v for k, v in entry.items() if k in KEYS}, where)


def enterable_enemy(table: Mapping[str, Any]) -> EnterableEnemy | None:
    """The `enterable_enemy` parameter ({ selector keys, extra_cost, not_by }; {}: no enemy hex is entered)."""
    if not table:
        return None
    if bad := sorted(set(table) - {"extra_cost", "not_by", *KEYS}):
        raise ValueError(f"enterable_enemy.{bad[0]}: unknown key (known: extra_cost, not_by, {', '.join(KEYS)})")
    picks = _picks(table, "enterable_enemy")
    cost = table.get("extra_cost", 0)
    if isinstance(cost, bool) or not isinstance(cost, (int, float)) or cost < 0:
        raise ValueError(f"enterable_enemy.extra_cost: expected a number of MP >= 0, got {cost!r}")
    if picks == Selector():
        raise ValueError(
            "enterable_enemy: give the kinds or flags (or other selector keys) of the enemy units a hex "
            "may be entered with"
        )
    return EnterableEnemy(picks, Fraction(cost).limit_denominator(1000), _names(table, "not_by", "enterable_enemy"))


def _names(entry: Mapping[str, Any], key: str, where: str, lower: bool = False) -> frozenset[str]:
    v = entry.get(key, ())
    if isinstance(v, str):
        v = (v,)
    if not isinstance(v, (list, tuple)) or not all(isinstance(x, str) and x for x in v):
        raise ValueError(f"{where}.{key}: expected a list of names, got {v!r}")
    return frozenset(weather_name(x) if lower else x for x in v)


def _op(entry: Mapping[str, Any], ops: tuple[str, ...], where: str, known: tuple[str, ...]) -> tuple[str, Any]:
    if not isinstance(entry, Mapping):  # a ValueError: the pack loader reports those as the pack's fault
        raise ValueError(f"{where}: expected a table, got {entry!r}")  # noqa: TRY004
    if bad := sorted(set(entry) - set(known) - set(ops)):
        raise ValueError(f"{where}.{bad[0]}: unknown key (known: {', '.join((*known, *ops))})")
    given = [k for k in ops if k in entry]
    if len(given) != 1:
        raise ValueError(f"{where}: expected exactly one of {', '.join(ops)}, got {given or 'none'}")
    value = entry[given[0]]
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise ValueError(f"{where}.{given[0]}: expected a number, got {value!r}")  # noqa: TRY004
    return given[0], value


def cost_modifiers(rows: Any, vocab: Mapping[str, frozenset[str]] | None = None) -> tuple[CostModifier, ...]:
    """The `cost_modifiers` parameter (ValueError naming the entry and key).

    `vocab`: the pack's "terrain" and "features", when known, to check the names against."""
    out = []
    for i, entry in enumerate(rows):
        where = f"cost_modifiers[{i}]"
        op, value = _op(entry, _OPS, where, ("weather", "terrain", "features", "leaving"))
        if op == "multiply" and not (value == int(value) and value > 0):
            raise ValueError(f"{where}.multiply: expected a whole factor > 0, got {value!r}")
        if not value > 0:  # a step costing nothing (or less) would break the search
            raise ValueError(f"{where}.{op}: expected a number > 0, got {value!r}")
        names = {k: _names(entry, k, where) for k in ("terrain", "features", "leaving")}
        for key, vocabulary in (("terrain", "terrain"), ("leaving", "terrain"), ("features", "features")):
            if vocab is not None and (bad := sorted(names[key] - vocab[vocabulary])):
                raise ValueError(f"{where}.{key}: unknown {vocabulary} {bad[0]!r}")
        out.append(
            CostModifier(op, Fraction(value).limit_denominator(1000), _names(entry, "weather", where, True), **names)
        )
    return tuple(out)


def exit_multipliers(table: Mapping[str, Any]) -> Mapping[str, int]:
    """The `exit_multiplier` parameter: terrain -> a whole factor > 0."""
    if bad := [k for k, v in table.items() if isinstance(v, bool) or not isinstance(v, int) or v < 1]:
        raise ValueError(f"exit_multiplier.{bad[0]}: expected a whole factor > 0, got {table[bad[0]]!r}")
    return dict(table)


def allowance_modifiers(rows: Any) -> tuple[AllowanceModifier, ...]:
    """The `allowance_modifiers` parameter (ValueError naming the entry and key)."""
    out = []
    for i, entry in enumerate(rows):
        where = f"allowance_modifiers[{i}]"
        op, value = _op(entry, _CAPS, where, ("weather", *KEYS))
        if value != int(value):
            raise ValueError(f"{where}.{op}: expected a whole number of MP, got {value!r}")
        picks = _picks(entry, where)
        out.append(AllowanceModifier(op, int(value), picks, _names(entry, "weather", where, True)))
    return tuple(out)


def modify_costs(
    mods: tuple[CostModifier, ...],
    weather: str | None,
    terrain_ticks: dict[str, int | None],
    side_ticks: dict[str, int | None],
    default: int,
    scale: int,
) -> int:
    """Apply the modifiers of hex and hexside costs in force in `weather` to one unit's cost tables
    (in ticks, changed in place, in the pack's order: each on what the ones before it left); the
    cost of a hex with no costed terrain is returned. A prohibited terrain or hexside (None) stays so."""
    for c in mods:
        if not c.in_force(weather) or c.leaving:
            continue
        if c.features:
            side_ticks.update(
                {f: c.apply(side_ticks.get(f) or 0, scale) for f in c.features if side_ticks.get(f, 0) is not None}
            )
        elif c.terrain:
            terrain_ticks.update(
                {
                    t: c.apply(terrain_ticks.get(t) or default, scale)
                    for t in c.terrain
                    if terrain_ticks.get(t, 0) is not None
                }
            )
        else:
            terrain_ticks.update({t: c.apply(v, scale) for t, v in terrain_ticks.items() if v is not None})
            default = c.apply(default, scale)
    return default


class StepCost:
    """The cost of a step changed by the terrain of the hex it leaves: the `leaving` modifiers in
    force in the weather, then the `exit_multiplier` (seed 003 4.3: "if the weather
    is mist, increase the movement cost by 1 before doubling")."""

    def __init__(
        self, mods: tuple[CostModifier, ...], weather: str | None, exit_multiplier: Mapping[str, int], scale: int
    ) -> None:
        self.mods = [c for c in mods if c.leaving and c.in_force(weather)]
        self.exit_multiplier, self.scale = exit_multiplier, scale
        self.terrain = frozenset(exit_multiplier).union(*(c.leaving for c in self.mods))

    def __call__(self, left: frozenset[str], ticks: int) -> int:
        """`ticks` of a step from a hex of terrain `left`."""
        if not self.terrain & left:
            return ticks
        for c in self.mods:
            if c.leaving & left:
                ticks = c.apply(ticks, self.scale)
        return ticks * max((self.exit_multiplier[t] for t in left if t in self.exit_multiplier), default=1)


def unit_costs(
    table: Mapping[str, Any], classes: tuple[str, ...], ticks: Callable[[Any], int]
) -> dict[str, int | None]:
    """A cost table (name -> MP, or a table of MP by class) for one unit in ticks (None: prohibited);
    entries with no value for it left out.

    In a table by class, a compound key "wheeled&column" (the unit has every one of its classes)
    comes before the single classes, and keys naming more classes before those naming fewer
    (seed 003 4.1: desert costs Wheeled 5 MP, 3 in Column)."""
    out: dict[str, int | None] = {}
    for name, spec in table.items():
        if isinstance(spec, Mapping):
            both = sorted(
                (k for k in spec if "&" in k and set(k.split("&")) <= set(classes)), key=lambda k: -k.count("&")
            )
            v = spec[both[0]] if both else next((spec[c] for c in classes if c in spec), _MISSING)
        else:
            v = spec
        if v is not _MISSING:
            out[name] = None if v is None else ticks(v)
    return out
