"""Units: what a rule pack makes of a VASSAL piece (side, class, strengths, movement)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

# The group fields a unit may carry beside its formation (units.toml ``groups``): seed 001's
# armies (9.1b), seed 004's contingents (2.5), divisions for rules that ask "same division".
GROUP_FIELDS = ("division", "army", "contingent")


@dataclass(frozen=True)
class Unit:
    """One playing piece as the rules see it.

    Strengths are as printed on the counter; None where the counter has none (an HQ has no
    barrage). `kind` is the pack's unit class ("armor", "mechanized-infantry", "infantry",
    "artillery", ...); `mechanized` is what terrain and movement rules ask (16.11).
    """

    id: str  # the VASSAL piece id
    name: str  # the piece name, e.g. "5-3-12 (2/7)"
    side: str  # e.g. "Axis", "Allied"
    kind: str
    movement: int
    attack: int | None = None
    defense: int | None = None
    barrage: int | None = None
    fpf: int | None = None
    range: int | None = None
    steps: int = 1
    mechanized: bool = False
    designation: str = ""  # e.g. "2/7"
    formation: str = ""  # e.g. "US 1st Armored Division"
    nationality: str = ""
    flags: frozenset[str] = frozenset()  # pack-defined traits: "hq", "ignores-zoc", ...
    # Pack-defined values beyond the printed strengths: a named group of the units.toml pattern
    # ("size", "arrival") or an `attrs` entry; an int when the value is all digits.
    attrs: Mapping[str, int | str] = field(default_factory=dict, hash=False)
    groups: Mapping[str, str] = field(default_factory=dict, hash=False)  # GROUP_FIELDS -> name
    properties: Mapping[str, str] = field(default_factory=dict, compare=False, hash=False)

    def has(self, flag: str) -> bool:
        return flag in self.flags
