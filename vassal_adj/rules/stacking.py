"""Stacking: how many units (or steps) of one side may share a hex, and when that is checked.

The defaults are those of the 1976 SPI quadrigame standard rules (RULES-MAP E3): units may not
stack, so a hex holds at most one unit of a side; a set-up may repeat it ("Units may not be
stacked").
Markers are not units and never count. Everything else is a parameter a pack or a referee
can change: a limit by count or by steps, limits per unit class, exempt classes and flags
(e.g. HQs), and the moments the limit applies.

>>> from vassal_adj.model.hexes import Hex
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

from ..model.hexes import Hex
from ..model.state import GameState
from ..model.units import Unit
from .results import Finding, Severity

__all__ = ["CHECK_POINTS", "StackingRules", "check_stacking"]

# The moments a stacking limit may apply (issue 4): at the end of a movement phase, at set-up,
# and when reinforcements arrive. Packs may name others (e.g. "end-of-combat").
CHECK_POINTS = frozenset({"end-of-movement", "setup", "reinforcement"})
MEASURES = ("units", "steps")


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


def check_stacking(state: GameState, rules: StackingRules, rule_ref: str, *, when: str | None = None,
                   label: Callable[[Hex], str] | None = None, rule: str | None = None,
                   severity: Severity = Severity.ERROR) -> list[Finding]:
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
