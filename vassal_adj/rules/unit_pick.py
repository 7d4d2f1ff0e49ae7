"""Which units a rule means: `{ sides, kinds, flags, not_flags, names, formations,
nationalities }` (each a list; a unit must match every key given, any value of a key).

This is the subset of the shared unit selector (RULES-MAP N3) that movement.restricted and
the set-up constraints need; when rules/select.py (the general selector) lands, `parse_pick`
is where it plugs in, and `Pick.matches` becomes its match. Pure.

>>> from vassal_adj.model.units import Unit
>>> p = parse_pick({"sides": ["Axis"], "nationalities": ["Italian"]}, "units")
>>> p.matches(Unit("a", "Ariete", "Axis", "armor", 6, nationality="Italian")), p.words()
(True, 'Italian Axis units')
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from ..model.units import Unit
from .setup import printed_key

__all__ = ["PICK_KEYS", "Pick", "parse_pick"]

PICK_KEYS = ("sides", "kinds", "flags", "not_flags", "names", "formations", "nationalities")


@dataclass(frozen=True)
class Pick:
    """A unit selector; an empty key places no condition. `names` are printed names (`printed_key`)."""

    sides: frozenset[str] = frozenset()
    kinds: frozenset[str] = frozenset()
    flags: frozenset[str] = frozenset()
    not_flags: frozenset[str] = frozenset()
    names: frozenset[str] = frozenset()
    formations: frozenset[str] = frozenset()
    nationalities: frozenset[str] = frozenset()

    def matches(self, u: Unit) -> bool:
        return ((not self.sides or u.side in self.sides) and (not self.kinds or u.kind in self.kinds)
                and self.flags <= u.flags and not self.not_flags & u.flags
                and (not self.names or printed_key(u.name) in self.names)
                and (not self.formations or u.formation in self.formations)
                and (not self.nationalities or u.nationality in self.nationalities))

    def words(self) -> str:
        """The units in words, for findings ("Italian Axis units")."""
        lead = " ".join(" or ".join(sorted(s)) for s in (self.nationalities, self.sides, self.kinds) if s)
        more = [f"of {' or '.join(sorted(self.formations))}" if self.formations else "",
                f"flagged {' and '.join(sorted(self.flags))}" if self.flags else "",
                f"not {' or '.join(sorted(self.not_flags))}" if self.not_flags else "",
                f"named {', '.join(sorted(self.names))}" if self.names else ""]
        return " ".join(w for w in (lead, "units", *more) if w)


def parse_pick(value: Any, path: str) -> Pick:
    """A `Pick` from a pack table; ValueError names the key path of a bad entry."""
    if not isinstance(value, Mapping):
        raise ValueError(f"{path}: expected a table of {', '.join(PICK_KEYS)}, got {value!r}")  # noqa: TRY004
    out: dict[str, frozenset[str]] = {}
    for k, v in value.items():
        if k not in PICK_KEYS:
            raise ValueError(f"{path}.{k}: unknown key (known here: {', '.join(PICK_KEYS)})")
        if isinstance(v, str) or not isinstance(v, (list, tuple)) or not all(isinstance(x, str) and x.strip()
                                                                            for x in v):
            raise ValueError(f"{path}.{k}: expected a list of names, got {v!r}")
        out[k] = frozenset(printed_key(x) for x in v) if k == "names" else frozenset(v)
    return Pick(**out)
