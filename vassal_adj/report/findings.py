"""Renderers of a `Report` (rules/results.py): plain text, Markdown for a forum post, JSON data.

They compute nothing: the order of the findings, the counts and the parameters are the
report's. Text and Markdown group findings by the rule they cite, in report order.
"""

from __future__ import annotations

from typing import Any

from vassal_adj.report.describe import SCHEMA_VERSION
from vassal_adj.rules.results import Finding, Report

__all__ = ["report_data", "report_markdown", "report_text"]


def _groups(report: Report) -> list[tuple[str, list[Finding]]]:
    groups: dict[str, list[Finding]] = {}
    for f in report.findings:
        groups.setdefault(f.rule, []).append(f)
    return list(groups.items())


def _sev(f: Finding) -> str:
    return getattr(f.severity, "value", str(f.severity))


def _state_line(report: Report) -> str:
    def show(v: object) -> str:
        return "unknown" if v is None else str(v)

    return f"turn {show(report.turn)}, phase {show(report.phase)}, weather {show(report.weather)}"


def _summary(report: Report) -> str:
    c = report.counts()
    return f"{c['error']} error(s), {c['warning']} warning(s), {c['info']} info"


def _quiet(report: Report) -> list[str]:
    return [f"{cite} ({name})" for name, cite, n in report.checked if n == 0]


def report_text(report: Report, *, source: str = "") -> str:
    """The report as terminal text: a heading and the counts, then the errors and warnings,
    then what every rule reports for information, grouped by rule, and the assumptions."""
    head = f"check{' ' + source if source else ''} with pack {report.pack!r} ({_state_line(report)})"
    lines = [head, _summary(report)]
    problems = [f for f in report.findings if _sev(f) != "info"]
    if problems:
        lines += ["", "errors and warnings:"]
        for f in problems:
            where = f" [{', '.join(f.hexes)}]" if f.hexes else ""
            lines.append(f"  {_sev(f):<7} {f.rule}: {f.message}{where}")
    for rule, found in _groups(report):
        info = [f for f in found if _sev(f) == "info"]
        if info:
            lines += ["", f"{rule} (information):"]
            lines += [f"  {f.message}" for f in info]
    if quiet := _quiet(report):
        lines += ["", f"nothing found by: {', '.join(quiet)}"]
    for note in report.notes:
        lines += ["", f"note: {note}"] if note is report.notes[0] else [f"note: {note}"]
    if report.assumptions:
        lines += ["", "assumptions used:"]
        for name, a in sorted(report.assumptions.items()):
            lines.append(f"  {name} = {a['value']!r} ({a['source']}; used by {', '.join(a['used_by'])})")
    lines += ["", _summary(report)]
    return "\n".join(lines)


def _md(text: str) -> str:
    """Text safe inside a Markdown table cell or list item."""
    return text.replace("|", "\\|").replace("\n", " ")


def report_markdown(report: Report, *, source: str = "") -> str:
    """The report for a forum post: a title, a summary, the errors and warnings in one table,
    then one table of information per rule, the assumptions and notes."""
    title = f"## Referee check{': ' + _md(source) if source else ''}"
    lines = [title, "", f"Pack **{report.pack}**; {_state_line(report)}. **{_summary(report)}**."]
    problems = [f for f in report.findings if _sev(f) != "info"]
    if problems:
        lines += ["", "### Errors and warnings", "", "| Severity | Rule | Hex | Finding |", "|---|---|---|---|"]
        for f in problems:
            lines.append(f"| {_sev(f)} | {f.rule} | {_md(', '.join(f.hexes))} | {_md(f.message)} |")
    for rule, found in _groups(report):
        info = [f for f in found if _sev(f) == "info"]
        if info:
            lines += ["", f"### {rule} (information)", "", "| Hex | Finding |", "|---|---|"]
            lines += [f"| {_md(', '.join(f.hexes))} | {_md(f.message)} |" for f in info]
    if quiet := _quiet(report):
        lines += ["", f"Nothing found by: {_md(', '.join(quiet))}."]
    if report.assumptions:
        lines += ["", "### Assumptions", ""]
        for name, a in sorted(report.assumptions.items()):
            lines.append(f"- `{name}` = `{a['value']!r}`: {_md(str(a['source']))}"
                         + (f" (rule {a['rule']})" if a["rule"] else ""))
    if report.notes:
        lines += ["", "### Notes", ""] + [f"- {_md(n)}" for n in report.notes]
    return "\n".join(lines)


def report_data(report: Report, **extra: Any) -> dict[str, Any]:
    """The report as JSON-ready data with ``schema_version``; `extra` adds top-level keys
    (the files checked). Dump it with sorted keys: findings are already in report order."""
    findings = [{"rule": f.rule, "severity": _sev(f), "message": f.message, "units": list(f.units),
                 "unit_names": [report.unit_names.get(u, "") for u in f.units], "hexes": list(f.hexes)}
                for f in report.findings]
    return {"schema_version": SCHEMA_VERSION, **extra, "pack": report.pack, "turn": report.turn,
            "phase": report.phase, "weather": report.weather, "findings": findings,
            "counts": report.counts(), "parameters": report.parameters,
            "assumptions": report.assumptions, "notes": list(report.notes),
            "checked": [{"rule": name, "cite": cite, "findings": n} for name, cite, n in report.checked]}
