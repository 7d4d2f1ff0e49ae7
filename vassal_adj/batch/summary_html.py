"""The batch summary as one HTML page (issue 16): the table of summary_text.COLUMNS, a game's
name linking to its report, error and warning counts coloured, then the evidence per game.
Self-contained (no script, no external style) so that a referee can publish it as it is."""

from __future__ import annotations

from html import escape
from typing import Any

from vassal_adj.batch.evidence import SHORT
from vassal_adj.batch.summary_text import COLUMNS, cells

__all__ = ["summary_html"]

_STYLE = """
body{font-family:system-ui,sans-serif;margin:1.5em;color:#222}
table{border-collapse:collapse;font-size:13px}
th,td{border:1px solid #ccc;padding:4px 6px;vertical-align:top;text-align:left}
th{background:#eee}
tr:nth-child(even) td{background:#fafafa}
td.n{text-align:right}
td.err{background:#fdd!important;font-weight:bold}
td.warn{background:#ffe9b3!important}
code{font-size:12px}
.ev li{margin:2px 0}
"""
_NUMERIC = {"files", "last turn", "errors", "warnings", "info", "VP", "undone rolls", "continuity breaks"}


def _cell(col: str, text: str, row: dict[str, Any]) -> str:
    cls = "n" if col in _NUMERIC else ""
    if col == "errors" and text != "0":
        cls += " err"
    elif col in ("warnings", "continuity breaks", "undone rolls") and text != "0":
        cls += " warn"
    body = escape(text)
    if col == "game" and row.get("report"):
        body = f'<a href="{escape(row["report"])}">{body}</a>'
    elif col == "chain":
        body = f'<code title="{escape(row["chain"])}">{body}</code>'
    return f'<td class="{cls.strip()}">{body}</td>' if cls else f"<td>{body}</td>"


def summary_html(rows: list[dict[str, Any]], title: str) -> str:
    head = "".join(f"<th>{escape(c)}</th>" for c in COLUMNS)
    body = "\n".join(
        "<tr>" + "".join(_cell(c, t, r) for c, t in zip(COLUMNS, cells(r), strict=True)) + "</tr>" for r in rows
    )
    evidence = []
    for r in rows:
        files = "".join(
            f"<li><code>{escape(f['short'])}</code> {escape(f['path'])} ({escape(f['of'])}"
            f"{', ' + escape(f['player']) if f['player'] else ''}), chain <code>{escape(f['link'][:SHORT])}</code></li>"
            for f in r["files"]
        )
        problems = "".join(
            f"<li>{escape(f['severity'])} {escape(f['rule'])}: {escape(f['message'])}</li>"
            for f in r["findings"]
            if f["rule"].startswith("batch:")
        )
        evidence.append(
            f"<h3>{escape(r['game'])}</h3><p>chain <code>{escape(r['chain'])}</code></p>"
            f"<ul class=ev>{files}</ul>" + (f"<ul>{problems}</ul>" if problems else "")
        )
    errors = sum(r["severity"]["error"] for r in rows)
    return (
        f"<!DOCTYPE html>\n<html lang=en><head><meta charset=utf-8><title>{escape(title)}</title>"
        f"<style>{_STYLE}</style></head><body>\n<h1>{escape(title)}</h1>\n"
        f"<p>{len(rows)} games, {errors} error finding(s). Fingerprints: SHA-256 of each file's savedGame "
        f"text (of its bytes when unreadable), first {SHORT} digits shown; a game's chain is the "
        f"SHA-256 over its files in order.</p>\n"
        f"<table><thead><tr>{head}</tr></thead><tbody>\n{body}\n</tbody></table>\n"
        f"<h2>Evidence</h2>\n{''.join(evidence)}\n</body></html>\n"
    )
