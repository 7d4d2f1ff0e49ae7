"""Unit selectors: the one parameter type every rule that picks units uses (RULES-MAP N3).

A selector is a TOML table of conditions, all of which a unit must meet; a condition given as
a list is met by any one of its values. A key left out does not restrict:

- ``sides``, ``kinds``, ``formations``, ``nationalities``, ``names``: the unit's side, class,
  formation, nationality or printed name (compared as `printed_key` makes it: spacing does not
  matter) is one of these;
- ``flags``: the unit carries at least one of these flags; ``not_flags``: it carries none;
- ``groups = { army = ["1st British"] }``: the unit's group field (units.toml ``groups``) is one of
  these, for every field named (fields: `GROUP_FIELDS`);
- ``boxes``: the unit stands in one of these off-map boxes (a unit on the map never does);
- ``attrs = { size = [1, 3], arrival = 4, class = ["TAC", "STR"] }``: the unit's attribute (a named
  group of its units.toml pattern, an ``attrs`` entry, or a printed number such as ``steps``) is
  within the inclusive range ``[lo, hi]``, equals the number, or is one of the words. A unit
  without the attribute does not match: nothing is guessed.

- ``formation_has = <selector>``: the unit itself, or a unit of its formation, meets that
  selector. seed 001 10: "These EM and all their units can then, during the exploitation phase,
  move", with the module marking only the EM (its Sustained layer: flag ``sustained``): a unit
  of a sustained division is ``formation_has = { kinds = ["em"], flags = ["sustained"] }``. It
  asks the other units of the position: only rules that see it take the key (`needs_position`;
  `matches` is then given the position's `units`), others refuse it.

``{}`` selects every unit. seed 001's 12 ("A Tiger counter (and one only) can stack in
addition of the limit") picks the Tigers with ``{ flags = ["tiger"] }`` and the other combat units
with ``{ not_flags = ["tiger", "em"] }``.

>>> from vassal_adj.model.units import Unit
>>> s = Selector.from_mapping({"sides": ["Axis"], "attrs": {"size": [1, 3]}})
>>> s.matches(Unit("a", "x", "Axis", "infantry", 4, attrs={"size": 2}))
True
>>> s.matches(Unit("b", "y", "Axis", "infantry", 4))
False
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType

from vassal_adj.model.units import GROUP_FIELDS, Unit
from vassal_adj.rules.mechanisms.setup import printed_key

__all__ = ["KEYS", "Selector", "SelectorError", "selector_at", "unit_attribute"]

_WORDS = ("sides", "kinds", "flags", "not_flags", "formations", "nationalities", "names", "boxes")
KEYS = (*_WORDS, "groups", "attrs", "formation_has")
# The printed numbers of a unit a selector's `attrs` may also name (Unit fields).
_NUMBERS = ("attack", "defense", "barrage", "fpf", "range", "steps", "movement")


class SelectorError(ValueError):
    """A selector that does not fit its format; `at` is the key path inside it."""

    def __init__(self, message: str, at: tuple[str | int, ...] = ()) -> None:
        super().__init__(message)
        self.at = at


def _norm(text: str) -> str:
    return " ".join(text.split())


def _words(value: object, at: tuple[str | int, ...]) -> frozenset[str]:
    if isinstance(value, str):
        raise SelectorError(f"expected a list of names, not the string {value!r} (write [{value!r}])", at)
    if not isinstance(value, (list, tuple)):
        raise SelectorError(f"expected a list of names, got {value!r}", at)
    for i, v in enumerate(value):
        if not isinstance(v, str) or not v.strip():
            raise SelectorError(f"expected a name, got {v!r}", (*at, i))
    return frozenset(_norm(v) for v in value)


def _is_int(v: object) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def _attr(value: object, at: tuple[str | int, ...]) -> tuple[int, int] | frozenset[str]:
    """An attribute condition: an inclusive int range, or a set of words (an int n is [n, n])."""
    if _is_int(value):
        return (value, value)  # type: ignore[return-value]
    if isinstance(value, str):
        return frozenset({_norm(value)})
    if isinstance(value, (list, tuple)) and len(value) == 2 and all(_is_int(v) for v in value):
        lo, hi = value
        if lo > hi:
            raise SelectorError(f"range [{lo}, {hi}] is empty: the low end comes first", at)
        return (lo, hi)
    if isinstance(value, (list, tuple)) and value and all(isinstance(v, str) for v in value):
        return _words(value, at)
    raise SelectorError(f"expected a whole number, a range [lo, hi] of them, or a list of words, got {value!r}", at)


@dataclass(frozen=True)
class Selector:
    """A validated selector. Each field is None when the pack leaves the key out."""

    sides: frozenset[str] | None = None
    kinds: frozenset[str] | None = None
    flags: frozenset[str] | None = None
    not_flags: frozenset[str] | None = None
    formations: frozenset[str] | None = None
    nationalities: frozenset[str] | None = None
    names: frozenset[str] | None = None
    boxes: frozenset[str] | None = None
    groups: Mapping[str, frozenset[str]] = field(default_factory=dict, hash=False)
    attrs: Mapping[str, tuple[int, int] | frozenset[str]] = field(default_factory=dict, hash=False)
    formation_has: Selector | None = None

    @property
    def needs_position(self) -> bool:
        """Whether matching asks the other units of the position (`formation_has`)."""
        return self.formation_has is not None

    @classmethod
    def from_mapping(cls, data: object, position: bool = False) -> Selector:
        """A selector from its TOML table; SelectorError with the key path when it does not fit.
        `position`: the caller gives `matches` the position's units (else `formation_has` is refused)."""
        if not isinstance(data, Mapping):
            raise SelectorError(f"expected a table (a unit selector), got {data!r}")
        for k in data:
            if k not in KEYS:
                raise SelectorError(f"unknown key {k!r} (known here: {', '.join(KEYS)})", (k,))
        words = {k: _words(data[k], (k,)) for k in _WORDS if k in data}
        if "names" in words:
            words["names"] = frozenset(printed_key(n) for n in words["names"])
        groups = data.get("groups", {})
        if not isinstance(groups, Mapping):
            raise SelectorError(f"expected a table of group fields, got {groups!r}", ("groups",))
        for k in groups:
            if k not in GROUP_FIELDS:
                raise SelectorError(f"unknown group field (known: {', '.join(GROUP_FIELDS)})", ("groups", k))
        attrs = data.get("attrs", {})
        if not isinstance(attrs, Mapping):
            raise SelectorError(f"expected a table of attribute conditions, got {attrs!r}", ("attrs",))
        if "formation_has" in data and not position:
            raise SelectorError(
                "formation_has asks the other units of the position, which this rule does not read "
                "(log.segments movers and units.quota do)",
                ("formation_has",),
            )
        inner = None
        if "formation_has" in data:
            try:
                inner = cls.from_mapping(data["formation_has"], position=True)
            except SelectorError as e:
                raise SelectorError(str(e), ("formation_has", *e.at)) from None
        return cls(
            formation_has=inner,
            **words,
            groups=MappingProxyType({k: _words(v, ("groups", k)) for k, v in groups.items()}),
            attrs=MappingProxyType({k: _attr(v, ("attrs", k)) for k, v in attrs.items()}),
        )

    def matches(self, unit: Unit, box: str | None = None, units: Mapping[str, Unit] | None = None) -> bool:
        """Whether `unit` meets every condition; `box` is the off-map box it stands in, if any;
        `units` the position's units (`formation_has` looks there for the unit's formation)."""
        for want, have in (
            (self.sides, unit.side),
            (self.kinds, unit.kind),
            (self.formations, unit.formation),
            (self.nationalities, unit.nationality),
            (self.names, printed_key(unit.name)),
            (self.boxes, box),
        ):
            if want is not None and have not in want:
                return False
        if self.flags is not None and not unit.flags & self.flags:
            return False
        if self.not_flags is not None and unit.flags & self.not_flags:
            return False
        if any(unit.groups.get(k) not in want for k, want in self.groups.items()):
            return False
        if not all(_attr_fits(unit_attribute(unit, k), want) for k, want in self.attrs.items()):
            return False
        return self.formation_has is None or self._formation_has(unit, units or {})

    def _formation_has(self, unit: Unit, units: Mapping[str, Unit]) -> bool:
        inner = self.formation_has
        assert inner is not None
        mates = (u for u in units.values() if unit.formation and u.formation == unit.formation)
        return inner.matches(unit, units=units) or any(inner.matches(u, units=units) for u in mates)

    def words(self) -> str:
        """The units in words, for findings ("Italian Axis units", "Axis units flagged tiger")."""
        lead = " ".join(" or ".join(sorted(s)) for s in (self.nationalities, self.sides, self.kinds) if s)
        more = [
            f"of {' or '.join(sorted(self.formations))}" if self.formations else "",
            f"flagged {' or '.join(sorted(self.flags))}" if self.flags else "",
            f"not {' or '.join(sorted(self.not_flags))}" if self.not_flags else "",
            f"named {', '.join(sorted(self.names))}" if self.names else "",
            f"in {' or '.join(sorted(self.boxes))}" if self.boxes else "",
            *(f"with {k} {' or '.join(sorted(v))}" for k, v in self.groups.items()),
            *(f"with {k} {_attr_words(v)}" for k, v in self.attrs.items()),
            f"of a formation with {self.formation_has.words()}" if self.formation_has is not None else "",
        ]
        return " ".join(w for w in (lead, "units", *more) if w)


def selector_at(data: object, path: str, position: bool = False) -> Selector:
    """`Selector.from_mapping` for a pack parameter at `path`: a ValueError names the full key path."""
    try:
        return Selector.from_mapping(data, position)
    except SelectorError as e:
        where = path + "".join(f"[{k}]" if isinstance(k, int) else f".{k}" for k in e.at)
        raise ValueError(f"{where}: {e}") from None


def unit_attribute(unit: Unit, name: str) -> int | str | None:
    """The attribute `name` of `unit` as a selector's `attrs` reads it: an ``attrs`` entry, else a
    printed number (`movement`, `steps`, ...); None when the unit has none (nothing is guessed)."""
    if name in unit.attrs:
        return unit.attrs[name]
    return getattr(unit, name) if name in _NUMBERS else None


def _attr_words(want: tuple[int, int] | frozenset[str]) -> str:
    if isinstance(want, tuple):
        return str(want[0]) if want[0] == want[1] else f"{want[0]} to {want[1]}"
    return " or ".join(sorted(want))


def _attr_fits(have: int | str | None, want: tuple[int, int] | frozenset[str]) -> bool:
    if have is None:
        return False
    if isinstance(want, tuple):
        return _is_int(have) and want[0] <= have <= want[1]  # type: ignore[operator]
    return _norm(str(have)) in want
