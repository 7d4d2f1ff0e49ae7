"""The batch summary as Markdown, CSV and JSON (issue 16): one row per game, the cells shared
with summary_html.py. Each row links to the game's own report (worker.report_name)."""

from __future__ import annotations

import csv
import io
import json
from typing import Any

from vassal_adj.batch.evidence import SHORT

__all__ = ["COLUMNS", "cells", "summary_csv", "summary_json", "summary_markdown"]

COLUMNS = (
    "game",
    "files",
    "last turn",
    "errors",
    "warnings",
    "info",
    "VP",
    "level",
    "dice (per player: rolls, fairness p)",
    "undone rolls",
    "continuity breaks",
    "chain",
    "hours between files (per player)",
)


def _dice(row: dict[str, Any]) -> str:
    out = []
    for d in row["dice"]:
        p = d.get("p")
        fair = f"p={p:.3f}" if isinstance(p, (int, float)) else "too few to test"
        out.append(f"{d.get('player') or '?'}{' ' + d['name'] if d.get('name') else ''}: {d.get('rolls')} {fair}")
    return "; ".join(out)


def _gaps(row: dict[str, Any]) -> str:
    return "; ".join(f"{who}: {', '.join(f'{h:g}' for h in hours)}" for who, hours in sorted(row["gaps"].items()))


def cells(row: dict[str, Any]) -> list[str]:
    """The row's cells, in COLUMNS' order, as text."""
    sev = row["severity"]
    blank = lambda v: "" if v is None else str(v)  # noqa: E731
    return [
        row["game"],
        str(len(row["files"])),
        blank(row["last_turn"]),
        str(sev["error"]),
        str(sev["warning"]),
        str(sev["info"]),
        blank(row["vp"]),
        blank(row["level"]),
        _dice(row),
        str(row["undone_rolls"]),
        str(row["continuity_breaks"]),
        row["chain"][:SHORT],
        _gaps(row),
    ]


def summary_markdown(rows: list[dict[str, Any]], title: str) -> str:
    def esc(t: str) -> str:
        return t.replace("|", "\\|")

    lines = [f"# {esc(title)}", "", "| " + " | ".join(COLUMNS) + " |", "|" + "---|" * len(COLUMNS)]
    for row in rows:
        c = [esc(x) for x in cells(row)]
        if row.get("report"):
            c[0] = f"[{c[0]}]({row['report']})"
        lines.append("| " + " | ".join(c) + " |")
    lines += ["", "## Evidence", ""]
    for row in rows:
        lines.append(f"- **{esc(row['game'])}** chain `{row['chain']}`")
        for f in row["files"]:
            who = f", {f['player']}" if f["player"] else ""
            lines.append(f"  - `{f['short']}` {esc(f['path'])} ({f['of']}{who}), link `{f['link'][:SHORT]}`")
    return "\n".join(lines) + "\n"


def summary_csv(rows: list[dict[str, Any]]) -> str:
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow([*COLUMNS, "report"])
    for row in rows:
        w.writerow([*cells(row), row.get("report") or ""])
    return buf.getvalue()


def summary_json(rows: list[dict[str, Any]], title: str) -> str:
    return (
        json.dumps({"schema_version": 1, "title": title, "games": rows}, indent=2, sort_keys=True, ensure_ascii=False)
        + "\n"
    )
