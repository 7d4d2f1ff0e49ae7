"""Stacking: how many units (or steps) of one side may share a hex, and when that is checked.

The defaults are those of the 1976 SPI quadrigame standard rules (RULES-MAP E3): units may not
stack, so a hex holds at most one unit of a side; a set-up may repeat it ("Units may not be
stacked").
Markers are not units and never count. Everything else is a parameter a pack or a referee
can change: a limit by count or by steps, limits per unit class, exempt classes and flags
(e.g. HQs), and the moments the limit applies.

Games with several limits in one hex use pools (`StackPool`, `check_pools`): each pool is a unit
selector with its own limit, counted apart, and units in no pool do not count. seed 001 5.1/12
("Two combat units maximum", plus "A Tiger counter (and one only)") is two pools; a pool's limit
may come from a unit in the hex (seed 004 20.2.2: an airfield bases two air units with a
full-strength garrison, one with a reduced one).

>>> from vassal_adj.model.geometry.hexes import Hex
>>> from vassal_adj.model.state import GameState, Position
>>> from vassal_adj.model.units import Unit
>>> us = {i: Unit(i, f"1-2-7 ({i})", "Allied", "infantry", 7) for i in ("a", "b")}
>>> s = GameState(us, {i: Position(Hex.from_raw(26, 13), "2714") for i in us})
>>> [f.message for f in check_stacking(s, StackingRules(), "standard rules: no stacking")]
['2 Allied units in 2714 exceed the limit of 1 [standard rules: no stacking]']
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType

from vassal_adj.model.geometry.hexes import Hex
from vassal_adj.model.state import GameState
from vassal_adj.model.units import Unit
from vassal_adj.rules.param_shape import Each, Table, shaped
from vassal_adj.rules.results import Finding, Severity
from vassal_adj.rules.select import Selector, selector_at

__all__ = [
    "CHECK_POINTS",
    "POOLS",
    "POOL_CHECK_POINTS",
    "Capacity",
    "StackPool",
    "StackingRules",
    "check_pools",
    "check_stacking",
    "pools_from",
]

# The moments a stacking limit may apply (issue 4): at the end of a movement phase, at set-up,
# and when reinforcements arrive. Packs may name others (e.g. "end-of-combat").
CHECK_POINTS = frozenset({"end-of-movement", "setup", "reinforcement"})
MEASURES = ("units", "steps")
# When pools are checked: at set-up, and on a position in play, which a save shows as it stands at
# the end of a phase or of a segment (an action, an activation): a save cannot tell which moment.
POOL_CHECK_POINTS = ("setup", "end-of-phase", "end-of-segment")


@dataclass(frozen=True)
class StackingRules:
    """Per-hex stacking limits for the units of one side.

    `limit`: most units (or steps, by `measure`) of one side in a hex, None for no overall
    limit. `per_kind`: limits for unit classes, e.g. ``{"artillery": 1}``, counted apart and
    also within the overall limit. Units whose `kind` is in `exempt_kinds` or that carry a
    flag of `exempt_flags` do not count. `checked_at`: when the limit applies. `per_side`:
    count each side apart (False: every unit in the hex counts together).
    """

    limit: int | None = 1
    measure: str = "units"
    per_kind: Mapping[str, int] = field(default_factory=dict, hash=False)
    exempt_kinds: frozenset[str] = frozenset({"marker"})
    exempt_flags: frozenset[str] = frozenset({"marker"})
    checked_at: frozenset[str] = CHECK_POINTS
    per_side: bool = True

    def __post_init__(self) -> None:
        if self.measure not in MEASURES:
            raise ValueError(f"stacking measure must be one of {list(MEASURES)}, got {self.measure!r}")
        for name, n in [("limit", self.limit), *((f"per_kind[{k!r}]", v) for k, v in self.per_kind.items())]:
            if n is not None and (isinstance(n, bool) or not isinstance(n, int) or n < 0):
                raise ValueError(f"stacking {name} must be a whole number >= 0, got {n!r}")
        for name in ("exempt_kinds", "exempt_flags", "checked_at"):
            value = getattr(self, name)
            if isinstance(value, str):
                raise ValueError(f"stacking {name} must be a set of names, not the string {value!r}")
            object.__setattr__(self, name, frozenset(value))
        object.__setattr__(self, "per_kind", MappingProxyType(dict(self.per_kind)))

    def exempt(self, unit: Unit) -> bool:
        """Whether `unit` is left out of the count (its class or one of its flags is exempt)."""
        return unit.kind in self.exempt_kinds or bool(unit.flags & self.exempt_flags)

    def weight(self, unit: Unit) -> int:
        """What `unit` adds to the count: 1, or its steps when the limit is in steps."""
        return unit.steps if self.measure == "steps" else 1


def _label(state: GameState, h: Hex, ids: tuple[str, ...], label: Callable[[Hex], str] | None) -> str:
    """The hex as the module labels it: a unit position's label, else `label`, else raw c,r."""
    for uid in ids:
        pos = state.positions.get(uid)
        if pos is not None and pos.label:
            return pos.label
    if label is not None:
        return label(h)
    c, r = h.raw()
    return f"raw {c},{r}"


def check_stacking(
    state: GameState,
    rules: StackingRules,
    rule_ref: str,
    *,
    when: str | None = None,
    label: Callable[[Hex], str] | None = None,
    rule: str | None = None,
    severity: Severity = Severity.ERROR,
) -> list[Finding]:
    """Findings for every hex where a side's units exceed a stacking limit, sorted.

    `rule_ref` is cited in each message ("3 Allied units in 2714 exceed the limit of 1
    [standard rules: no stacking]"); `rule` is the finding's rule id (default `rule_ref`).
    With `when` given, nothing is checked unless `when` is one of `rules.checked_at`.
    `label` names hexes whose units carry no label. Never raises for an overstack.
    """
    if when is not None and when not in rules.checked_at:
        return []
    rule_id = rule if rule is not None else rule_ref
    cite = f" [{rule_ref}]" if rule_ref else ""
    out: list[Finding] = []
    for h, ids in state.occupied().items():
        groups: dict[str, list[str]] = {}
        for uid in ids:
            unit = state.units.get(uid)
            if unit is None or rules.exempt(unit):
                continue
            groups.setdefault(unit.side if rules.per_side else "", []).append(uid)
        for side, members in sorted(groups.items()):
            units = [state.units[u] for u in members]
            where = _label(state, h, ids, label)
            who = f"{side} " if side else ""
            checks: list[tuple[str | None, int]] = []
            if rules.limit is not None:
                checks.append((None, rules.limit))
            checks += sorted(rules.per_kind.items())
            for kind, limit in checks:
                counted = [u for u in units if kind is None or u.kind == kind]
                total = sum(rules.weight(u) for u in counted)
                if total <= limit:
                    continue
                what = f"{who}{kind} " if kind is not None else who
                if rules.measure == "units":
                    subject = f"{total} {what}unit{'s' if total != 1 else ''}"
                else:
                    subject = f"{total} steps of {what}units"
                extra = f" for {kind}" if kind is not None else ""
                msg = f"{subject} in {where} exceed the limit of {limit}{extra}{cite}"
                out.append(Finding(rule_id, severity, msg, tuple(u.id for u in counted), (where,)))
    return sorted(out, key=Finding.sort_key)


@dataclass(frozen=True)
class Capacity:
    """A pool's limit in a hex holding a unit that `units` selects (an airfield's garrison)."""

    units: Selector
    limit: int


@dataclass(frozen=True)
class StackPool:
    """One stacking pool: the units `units` selects, at most `limit` of them (or steps, by `measure`)
    a hex, counted apart from every other pool. The first `capacity_from` entry that selects a unit
    of the side in the hex gives the limit there instead."""

    name: str
    units: Selector
    limit: int
    measure: str = "units"
    capacity_from: tuple[Capacity, ...] = ()

    def __post_init__(self) -> None:
        if self.measure not in MEASURES:
            raise ValueError(f"measure: expected one of {list(MEASURES)}, got {self.measure!r}")
        for name, n in [
            ("limit", self.limit),
            *((f"capacity_from[{i}].limit", c.limit) for i, c in enumerate(self.capacity_from)),
        ]:
            if isinstance(n, bool) or not isinstance(n, int) or n < 0:
                raise ValueError(f"{name}: expected a whole number >= 0, got {n!r}")

    def limit_in(self, units: list[Unit]) -> tuple[int, Unit | None]:
        """The limit in a hex holding `units` (one side's), and the unit that sets it, if any."""
        for cap in self.capacity_from:
            for u in units:
                if cap.units.matches(u):
                    return cap.limit, u
        return self.limit, None


# The pools parameter: the key paths of a pool that does not fit are named as the pack is read.
POOLS = Each(
    Table(
        {
            "name": "str",
            "units": "selector",
            "limit": "int",
            "measure": "str",
            "capacity_from": Each(Table({"units": "selector", "limit": "int"}, required=("units", "limit"))),
        },
        required=("name", "units", "limit"),
    )
)


def pools_from(value: object, path: str = "pools") -> tuple[StackPool, ...]:
    """The pools of a pack's ``pools = [{ name, units, limit, measure, capacity_from }]`` (`POOLS`).

    ValueError naming the key path (``pools[1].units.flags: ...``) when an entry does not fit.
    """
    if not isinstance(value, (list, tuple)) or not value:
        raise ValueError(f"{path}: expected a non-empty list of pool tables, got {value!r}")
    shaped(POOLS, value, path)
    pools: list[StackPool] = []
    for i, data in enumerate(value):
        at = f"{path}[{i}]"
        name = data["name"]
        if not name or name in {p.name for p in pools}:
            raise ValueError(f"{at}.name: expected a name no other pool has, got {name!r}")
        caps = data.get("capacity_from", ())
        capacities = tuple(
            Capacity(selector_at(c["units"], f"{at}.capacity_from[{j}].units"), c["limit"]) for j, c in enumerate(caps)
        )
        try:
            pools.append(
                StackPool(
                    name,
                    selector_at(data["units"], f"{at}.units"),
                    data["limit"],
                    data.get("measure", "units"),
                    capacities,
                )
            )
        except ValueError as e:  # StackPool names the key ("limit: ..."), this the pool
            raise ValueError(f"{at}.{e}") from None
    return tuple(pools)


def check_pools(
    state: GameState,
    pools: tuple[StackPool, ...],
    rule_ref: str,
    *,
    per_side: bool = True,
    label: Callable[[Hex], str] | None = None,
    rule: str | None = None,
    severity: Severity = Severity.ERROR,
    caveat: str = "",
) -> list[Finding]:
    """Findings for every hex and pool where a side's units exceed the pool's limit, sorted.

    Only units on the map count (a box is never a hex). `caveat` is added to each message (what
    the files cannot tell, e.g. whether the units have just arrived). Never raises for an overstack.
    """
    rule_id = rule if rule is not None else rule_ref
    cite = f" [{rule_ref}]" if rule_ref else ""
    out: list[Finding] = []
    for h, ids in state.occupied().items():
        sides: dict[str, list[Unit]] = {}
        for uid in ids:
            if (unit := state.units.get(uid)) is not None:
                sides.setdefault(unit.side if per_side else "", []).append(unit)
        for side, units in sorted(sides.items()):
            for pool in pools:
                counted = [u for u in units if pool.units.matches(u)]
                total = sum(u.steps if pool.measure == "steps" else 1 for u in counted)
                limit, setter = pool.limit_in(units)
                if total <= limit:
                    continue
                who = f"{side} " if side else ""
                subject = (
                    f"{total} {who}unit{'s' if total != 1 else ''}"
                    if pool.measure == "units"
                    else f"{total} steps of {who}units"
                )
                why = f" set by {setter.name}" if setter is not None else ""
                where = _label(state, h, ids, label)
                msg = f"{subject} of pool {pool.name!r} in {where} exceed its limit of {limit}{why}{caveat}{cite}"
                out.append(Finding(rule_id, severity, msg, tuple(u.id for u in counted), (where,)))
    return sorted(out, key=Finding.sort_key)
