"""Renderers of a `LintReport` (lint/findings.py): text, Markdown, BBCode, JSON data and a page
of HTML. They compute nothing: the order and counts are the report's. Each finding shows its
severity, check, where, why, and the fix; free text from the module (names, paths) is made safe
per format by markup.py.
"""

from __future__ import annotations

import html
from typing import Any

from vassal_adj.lint.findings import LintFinding, LintReport
from vassal_adj.report.describe import SCHEMA_VERSION
from vassal_adj.report.markup import bb, md, plain

__all__ = ["lint_bbcode", "lint_data", "lint_html", "lint_markdown", "lint_text"]


def _summary(report: LintReport) -> str:
    c = report.counts()
    return f"{c['error']} error(s), {c['warning']} warning(s), {c['info']} info"


def _head(report: LintReport) -> str:
    return f"lint {report.source} (module {report.module})"


def lint_text(report: LintReport) -> str:
    lines = [plain(_head(report)), _summary(report)]
    for f in report.findings:
        lines += ["", f"{f.severity.value:<7} {f.check}: {plain(f.message)}", f"  where: {plain(f.where)}"]
        if f.fix:
            lines.append(f"  fix:   {plain(f.fix)}")
    lines += [""] + [f"note: {plain(n)}" for n in report.notes]
    lines += ["", "checked: " + ", ".join(f"{name} ({n})" for name, n in report.checked), _summary(report)]
    return "\n".join(lines)


def lint_markdown(report: LintReport) -> str:
    lines = [f"## Module lint: {md(report.source)}", "", f"Module **{md(report.module)}**. **{_summary(report)}**."]
    if report.findings:
        lines += ["", "| Severity | Check | Where | Finding | Fix |", "|---|---|---|---|---|"]
        lines += [
            f"| {f.severity.value} | {md(f.check)} | {md(f.where)} | {md(f.message)} | {md(f.fix)} |"
            for f in report.findings
        ]
    if report.notes:
        lines += ["", "### Notes", ""] + [f"- {md(n)}" for n in report.notes]
    return "\n".join(lines)


def lint_bbcode(report: LintReport) -> str:
    lines = [
        f"[b]Module lint: {bb(report.source)}[/b]",
        f"Module [b]{bb(report.module)}[/b]. [b]{_summary(report)}[/b].",
    ]
    for f in report.findings:
        lines += ["", f"[b]{f.severity.value}[/b] {bb(f.check)}: {bb(f.message)}", f"where: {bb(f.where)}"]
        if f.fix:
            lines.append(f"fix: {bb(f.fix)}")
    if report.notes:
        lines += ["", "[o]", *map(bb, report.notes), "[/o]"]
    return "\n".join(lines)


def _finding(f: LintFinding) -> dict[str, str]:
    return {"check": f.check, "severity": f.severity.value, "where": f.where, "message": f.message, "fix": f.fix}


def lint_data(report: LintReport) -> dict[str, Any]:
    """JSON-ready data with ``schema_version``; dump with sorted keys."""
    return {
        "schema_version": SCHEMA_VERSION,
        "module": report.module,
        "source": report.source,
        "findings": [_finding(f) for f in report.findings],
        "counts": report.counts(),
        "checked": [{"check": name, "findings": n} for name, n in report.checked],
        "notes": list(report.notes),
    }


_STYLE = """body{font-family:sans-serif;margin:2em;max-width:80em}table{border-collapse:collapse;width:100%}
td,th{border:1px solid #ccc;padding:.3em .5em;vertical-align:top;text-align:left}
.error td:first-child{color:#b00;font-weight:bold}.warning td:first-child{color:#a60}.info td:first-child{color:#555}"""


def lint_html(report: LintReport) -> str:
    """A page to save and open: the counts, one table row per finding, the notes."""
    e = html.escape
    rows = "\n".join(
        f'<tr class="{f.severity.value}"><td>{f.severity.value}</td><td>{e(f.check)}</td><td>{e(f.where)}</td>'
        f"<td>{e(f.message)}</td><td>{e(f.fix)}</td></tr>"
        for f in report.findings
    )
    notes = "".join(f"<li>{e(n)}</li>" for n in report.notes)
    return (
        f'<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8"><title>{e(_head(report))}</title>'
        f"<style>{_STYLE}</style></head><body>\n<h1>Module lint: {e(report.source)}</h1>\n"
        f"<p>Module <b>{e(report.module)}</b>. <b>{_summary(report)}</b>.</p>\n"
        "<table><tr><th>Severity</th><th>Check</th><th>Where</th><th>Finding</th><th>Fix</th></tr>\n"
        f"{rows}\n</table>\n<ul>{notes}</ul>\n</body></html>"
    )
