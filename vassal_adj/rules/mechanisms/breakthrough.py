"""Exceptions to the zone of control rules of movement (RULES-MAP N6): the `zoc_exceptions`
parameter of ``movement.allowance``.

``zoc_exceptions = [{ units = <selector>, proof = "roll", not_past = <selector>, joint = true,
rule_ref = "4.3", not_past_rule = "12" }]``: a unit `units` picks may cross an enemy zone of
control (go on after entering one, or from one straight into another) by a special move whose
outcome the log does not record. seed 001 3: "Armored breakthrough- special movement that allows
a unit to cross a ZoC (see 4.3)-, is allowed only to units endowed with armor capacity" (``units
= { flags = ["armour"] }``). `joint`: a unit moving with one `units` picks, from the hex it began
in, may cross too (4.3 "An armor unit, which moves alone or stacked with another unit, itself not
armor, could execute an armored breakthrough"). `not_past`: the zone of control of a hex holding
such an enemy unit is never crossed (12, the Tiger: "Its presence immunizes all the units of the
hex on which it is stacked, against an armor breakthrough"). `proof = "roll"`: the rule's
procedure rolls dice ("the inactive player makes a cohesion test"), so a crossing is "legal only
if the breakthrough succeeded" when a die was rolled during the unit's move, and when none was,
legal only if the other player let it pass; ``"none"``: the crossing is legal only if the special
move succeeded, whatever the log shows. Either way a warning: the files never show the result.

Pure: parameters in, `ZocException` records out (rules/crossing.py judges a move with them).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from vassal_adj.model.units import Unit
from vassal_adj.rules.select import Selector, selector_at

__all__ = ["PROOFS", "ZocException", "zoc_exceptions"]

PROOFS = ("roll", "none")


@dataclass(frozen=True)
class ZocException:
    """Units (`units`) that may cross an enemy zone of control, see the module's words."""

    units: Selector
    proof: str = "roll"
    not_past: Selector | None = None
    joint: bool = False
    rule_ref: str = ""
    not_past_ref: str = ""

    def picks(self, unit: Unit, partners: Sequence[Unit] = ()) -> bool:
        """Whether `unit` may cross, alone or (`joint`) with one of `partners` (units that moved
        from the hex it began in)."""
        return self.units.matches(unit) or (self.joint and any(self.units.matches(u) for u in partners))


def zoc_exceptions(raw: Sequence[Mapping[str, Any]]) -> tuple[ZocException, ...]:
    """The `zoc_exceptions` parameter; ValueError names the key path of a bad entry."""
    out = []
    for i, e in enumerate(raw):
        at = f"zoc_exceptions[{i}]"
        if "units" not in e:
            raise ValueError(f"{at}.units: required (the units that may cross a zone of control)")
        proof = e.get("proof", "roll")
        if proof not in PROOFS:
            raise ValueError(f"{at}.proof: expected one of {', '.join(PROOFS)}, got {proof!r}")
        past = e.get("not_past", {})
        out.append(
            ZocException(
                selector_at(e["units"], f"{at}.units"),
                proof,
                selector_at(past, f"{at}.not_past") if past else None,
                bool(e.get("joint", False)),
                str(e.get("rule_ref", "")),
                str(e.get("not_past_rule", "")),
            )
        )
    return tuple(out)
