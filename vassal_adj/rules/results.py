"""What rules return: findings that cite their rule and quote the values they used."""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from fractions import Fraction

from vassal_adj.model.geometry.hexes import Hex


class Severity(str, Enum):
    ERROR = "error"
    WARNING = "warning"
    INFO = "info"


@dataclass(frozen=True)
class Finding:
    """One verdict: `rule` is the pack id and the rule number as the rulebook prints it
    (``"mygame:17.11"``); `message` quotes the values used ("path of 6 hexes exceeds 4 to
    a trail hex"); `units` are piece ids, `hexes` labels."""

    rule: str
    severity: Severity
    message: str
    units: tuple[str, ...] = ()
    hexes: tuple[str, ...] = ()

    def sort_key(self) -> tuple[str, str, str, str]:
        """Deterministic order for reports: by hex label, then unit id, then rule."""
        return (self.hexes[0] if self.hexes else "", self.units[0] if self.units else "", self.rule, self.message)


@dataclass(frozen=True)
class PathResult:
    """One move's verdict (rules/mechanisms/movement.py `legal_path`): if `ok`, `path` (both ends) is a cheapest
    legal path costing `cost` MP; else `reason` says why, citing `rule_ref`, and `path`/`cost` show the
    best attempt (may be empty/None); `units` are the enemy units whose zones of control the reason names."""

    ok: bool
    cost: int | Fraction | None
    path: tuple[Hex, ...]
    reason: str = ""
    rule_ref: str = ""
    allowance: int = 0
    units: tuple[str, ...] = ()


# Severity order for reports and exit codes: errors first.
SEVERITY_RANK = {Severity.ERROR: 0, Severity.WARNING: 1, Severity.INFO: 2}


@dataclass(frozen=True)
class Report:
    """What `rules.engine.adjudicate` returns: the findings, in a deterministic order, and
    what a referee needs to judge them (the effective parameters of every rule, the
    assumptions those parameters use, the state's turn/phase/weather, and notes on what was
    not checked). Plain data only (str, int, bool, lists, dicts), so renderers need not
    know the pack classes and JSON output is a straight dump.
    """

    pack: str
    findings: tuple[Finding, ...]
    parameters: dict[str, dict[str, object]]  # rule name -> impl, rule_ref, enabled, params
    assumptions: dict[str, dict[str, object]]  # assumption name -> value, source, rule, used_by
    unit_names: dict[str, str]  # unit/piece id -> name, so renderers can show names
    turn: int | None = None
    phase: str | None = None
    weather: str | None = None
    notes: tuple[str, ...] = ()
    checked: tuple[tuple[str, str, int], ...] = ()  # (rule name, citation, findings) of every rule run, in order

    def counts(self) -> dict[str, int]:
        """Findings per severity ("error", "warning", "info"), zeros included."""
        out = {s.value: 0 for s in Severity}
        for f in self.findings:
            out[Severity(f.severity).value] += 1
        return out

    @property
    def has_errors(self) -> bool:
        return any(f.severity == Severity.ERROR for f in self.findings)
