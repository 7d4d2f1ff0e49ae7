"""Renderers of a `Report` (rules/results.py): plain text, Markdown and BBCode (BoardGameGeek)
for a forum post, a --summary post in any of those, JSON data.

They compute nothing: the order of the findings, the counts and the parameters are the
report's. The text formats open with the verdict (the errors and warnings), then group the
information by the rule it cites, in report order; `errors_only` stops after the verdict.
Free text (unit names from the file in the messages) is made safe per format by markup.py.
"""

from __future__ import annotations

from typing import Any

from vassal_adj.report.markup import Style, bb, fit_post, md, plain
from vassal_adj.rules.results import Finding, Report

__all__ = ["report_bbcode", "report_data", "report_markdown", "report_summary", "report_text"]


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


def _head(report: Report, source: str) -> str:
    return f"check{' ' + source if source else ''} with pack {report.pack!r} ({_state_line(report)})"


def report_text(report: Report, *, source: str = "", errors_only: bool = False) -> str:
    """The report as terminal text: a heading and the counts, then the errors and warnings,
    then what every rule reports for information, grouped by rule, and the assumptions."""
    lines = [plain(_head(report, source)), _summary(report)]
    problems = [f for f in report.findings if _sev(f) != "info"]
    if problems:
        lines += ["", "errors and warnings:"]
        for f in problems:
            where = f" [{', '.join(f.hexes)}]" if f.hexes else ""
            lines.append(f"  {_sev(f):<7} {f.rule}: {plain(f.message)}{where}")
    if errors_only:
        return "\n".join(lines)
    for rule, found in _groups(report):
        info = [f for f in found if _sev(f) == "info"]
        if info:
            lines += ["", f"{rule} (information):"]
            lines += [f"  {plain(f.message)}" for f in info]
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


_md = md  # text safe in a Markdown table cell or list item


def report_markdown(report: Report, *, source: str = "", errors_only: bool = False) -> str:
    """The report for a forum post: a title, a summary, the errors and warnings in one table,
    then one table of information per rule, the assumptions and notes."""
    title = f"## Referee check{': ' + _md(source) if source else ''}"
    lines = [title, "", f"Pack **{report.pack}**; {_state_line(report)}. **{_summary(report)}**."]
    problems = [f for f in report.findings if _sev(f) != "info"]
    if problems:
        lines += ["", "### Errors and warnings", "", "| Severity | Rule | Hex | Finding |", "|---|---|---|---|"]
        for f in problems:
            lines.append(f"| {_sev(f)} | {_md(f.rule)} | {_md(', '.join(f.hexes))} | {_md(f.message)} |")
    if errors_only:
        return "\n".join(lines)
    for rule, found in _groups(report):
        info = [f for f in found if _sev(f) == "info"]
        if info:
            lines += ["", f"### {_md(rule)} (information)", "", "| Hex | Finding |", "|---|---|"]
            lines += [f"| {_md(', '.join(f.hexes))} | {_md(f.message)} |" for f in info]
    if quiet := _quiet(report):
        lines += ["", f"Nothing found by: {_md(', '.join(quiet))}."]
    if report.assumptions:
        lines += ["", "### Assumptions", ""]
        for name, a in sorted(report.assumptions.items()):
            lines.append(
                f"- `{name}` = `{a['value']!r}`: {_md(str(a['source']))}"
                + (f" (rule {a['rule']})" if a["rule"] else "")
            )
    if report.notes:
        lines += ["", "### Notes", ""] + [f"- {_md(n)}" for n in report.notes]
    return "\n".join(lines)


def _bb_line(f: Finding) -> str:
    where = f" ({', '.join(f.hexes)})" if f.hexes else ""
    return f"[b]{_sev(f)}[/b] {bb(f.rule)}: {bb(f.message + where)}"


def report_bbcode(report: Report, *, source: str = "", errors_only: bool = False) -> str:
    """The report for BoardGameGeek, which has no tables: [b] headings, a finding a line, the
    errors and warnings first, the information, assumptions and notes in a spoiler ([o])."""
    lines = [
        f"[b]Referee check{': ' + bb(source) if source else ''}[/b]",
        f"Pack [b]{bb(report.pack)}[/b]; {bb(_state_line(report))}. [b]{_summary(report)}[/b].",
    ]
    problems = [f for f in report.findings if _sev(f) != "info"]
    if problems:
        lines += ["", "[b]Errors and warnings[/b]", *map(_bb_line, problems)]
    if errors_only:
        return "\n".join(lines)
    more: list[str] = []
    for rule, found in _groups(report):
        info = [f for f in found if _sev(f) == "info"]
        if info:
            more += ["", f"[b]{bb(rule)} (information)[/b]"]
            more += [bb(f.message + (f" ({', '.join(f.hexes)})" if f.hexes else "")) for f in info]
    if quiet := _quiet(report):
        more += ["", f"Nothing found by: {bb(', '.join(quiet))}."]
    if report.assumptions:
        more += ["", "[b]Assumptions[/b]"]
        more += [
            bb(f"{name} = {a['value']!r}: {a['source']}" + (f" (rule {a['rule']})" if a["rule"] else ""))
            for name, a in sorted(report.assumptions.items())
        ]
    if report.notes:
        more += ["", "[b]Notes[/b]", *map(bb, report.notes)]
    return "\n".join([*lines, "", "[o]", *more[1:], "[/o]"] if more else lines)


def report_summary(report: Report, st: Style, *, source: str = "") -> str:
    """A --summary post of the report in the format `st` marks: the heading, the counts and as
    many errors and warnings as the post's limits hold (markup.fit_post)."""
    problems = [f for f in report.findings if _sev(f) != "info"]
    items = [
        st.item(
            f"{st.strong(_sev(f))} {st.esc(f.rule)}: "
            + st.esc(f.message + (f" ({', '.join(f.hexes)})" if f.hexes else ""))
        )
        for f in problems
    ]
    return fit_post(
        [st.title(st.esc(_head(report, source))), "", st.heading(_summary(report))],
        items,
        [],
        lambda n: st.item(f"... and {n} more (the full report: without --summary)"),
    )


def report_data(report: Report, **extra: Any) -> dict[str, Any]:
    """The report as JSON-ready data with ``schema_version``; `extra` adds top-level keys
    (the files checked). Dump it with sorted keys: findings are already in report order."""
    # here: describe.py is the JSON of other commands; `check` in a text format needs none of it
    from vassal_adj.report.describe import SCHEMA_VERSION

    findings = [
        {
            "rule": f.rule,
            "severity": _sev(f),
            "message": f.message,
            "units": list(f.units),
            "unit_names": [report.unit_names.get(u, "") for u in f.units],
            "hexes": list(f.hexes),
        }
        for f in report.findings
    ]
    return {
        "schema_version": SCHEMA_VERSION,
        **extra,
        "pack": report.pack,
        "turn": report.turn,
        "phase": report.phase,
        "weather": report.weather,
        "findings": findings,
        "counts": report.counts(),
        "parameters": report.parameters,
        "assumptions": report.assumptions,
        "notes": list(report.notes),
        "checked": [{"rule": name, "cite": cite, "findings": n} for name, cite, n in report.checked],
    }
