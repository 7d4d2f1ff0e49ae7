"""What rules return: findings that cite their rule and quote the values they used."""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum


class Severity(str, Enum):
    ERROR = "error"
    WARNING = "warning"
    INFO = "info"


@dataclass(frozen=True)
class Finding:
    """One verdict: `rule` is the pack id and the rule number as the rulebook prints it
    (``"kasserine:17.11"``); `message` quotes the values used ("path of 6 hexes exceeds 4 to
    a trail hex"); `units` are piece ids, `hexes` labels."""

    rule: str
    severity: Severity
    message: str
    units: tuple[str, ...] = ()
    hexes: tuple[str, ...] = ()

    def sort_key(self) -> tuple[str, str, str, str]:
        """Deterministic order for reports: by hex label, then unit id, then rule."""
        return (self.hexes[0] if self.hexes else "", self.units[0] if self.units else "",
                self.rule, self.message)
