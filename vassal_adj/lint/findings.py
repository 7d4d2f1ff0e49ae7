"""What `vassal-adj lint` reports: findings that say where, why, and how to fix it.

A module author reads these, not a referee: `where` names the archive entry and the place in it
(buildFile line and element, piece slot by name and id, a set-up's piece), `message` why it is a
defect (quoting the values), `fix` what to change. The severities are the rules' (rules/results.py):
an error is what VASSAL itself fails on or shows wrongly, a warning what is probably a mistake, an
info what lint could not judge or what is untidy but harmless.
"""

from __future__ import annotations

from dataclasses import dataclass

from vassal_adj.rules.results import SEVERITY_RANK, Severity

__all__ = ["LintFinding", "LintReport", "Severity"]


@dataclass(frozen=True)
class LintFinding:
    """One defect: `check` names the check ("images.missing"), `where` the place, `fix` the remedy."""

    check: str
    severity: Severity
    where: str
    message: str
    fix: str = ""

    def sort_key(self) -> tuple[int, str, str, str]:
        return (SEVERITY_RANK[self.severity], self.check, self.where, self.message)


@dataclass(frozen=True)
class LintReport:
    """Every finding of a lint run, errors first; `checked` the checks run (with their counts)
    and `notes` what was not looked at and why."""

    module: str
    source: str
    findings: tuple[LintFinding, ...]
    checked: tuple[tuple[str, int], ...] = ()
    notes: tuple[str, ...] = ()

    def counts(self) -> dict[str, int]:
        out = {s.value: 0 for s in Severity}
        for f in self.findings:
            out[f.severity.value] += 1
        return out

    @property
    def has_errors(self) -> bool:
        return any(f.severity == Severity.ERROR for f in self.findings)
