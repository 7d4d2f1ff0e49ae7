"""The report as one self-contained HTML page: the findings shown on the module's own map.

Every error and warning gets a picture cut from the board around its hexes, with the units
drawn from the module's own counter images (`report.figures`, `report.counters`);
information findings form a compact table; an overview shows the whole map with the units
and every move of the turn as an arrow, coloured by its verdict. For `verify` (a `TurnView`),
a move finding is shown before and after its phase's moves, a finding of the end of a phase
at that end, and the chat and the dice are listed. Long listings are folded. Pictures are
inline PNG ``data:`` URIs and the style sheet is inline, so the page opens offline and can
be mailed as one file. All text is escaped. Player passwords (spec 5.7) are not in any field
a finding or piece name is built from; text taken from the save is still scrubbed of them,
so no rule or module quirk can leak one into a page that is meant to be shared.
"""

from __future__ import annotations

import html
from collections.abc import Iterable, Sequence

from vassal_adj.model.events import Moved, PieceDiff
from vassal_adj.model.module import Module
from vassal_adj.pbem.rolls import Roll
from vassal_adj.position import GamePosition
from vassal_adj.report.html_page import Page, picture_colour, sev
from vassal_adj.report.markup import plain
from vassal_adj.report.pictures import MOVE_COLOURS, SEVERITY_COLOURS
from vassal_adj.report.turn_view import Move, TurnView
from vassal_adj.report.verify_steps import event_line
from vassal_adj.rules.results import SEVERITY_RANK, Finding, Report, Severity
from vassal_adj.savedgame import SavedGame

__all__ = ["Move", "TurnView", "moves_of", "report_html"]

# Listings longer than this are folded (a <details> the reader opens), so a long log's page stays usable.
FOLD = 40
# Errors and warnings beyond this many (errors first) are listed without pictures: each picture is
# some 100 kB, and a page of hundreds of them is too big to open.
PICTURES = 100

_STYLE = """
body{font:15px/1.45 system-ui,sans-serif;margin:24px auto;max-width:1640px;padding:0 16px;color:#222}
h1{font-size:1.6em;margin:0 0 .2em}h2{margin-top:1.6em;border-bottom:2px solid #ddd}
.meta{color:#555;margin:0 0 .8em}.counts span{display:inline-block;padding:2px 10px;margin-right:8px;
border-radius:12px;color:#fff;font-weight:600}.error{background:#d50000}.warning{background:#e68200}
.info{background:#0072b2}.finding{border:1px solid #ddd;border-left:6px solid #888;padding:8px 12px;
margin:14px 0;border-radius:4px;display:flex;gap:16px;flex-wrap:wrap}.finding.sev-error{border-left-color:#d50000}
.finding.sev-warning{border-left-color:#e68200}.finding .text{flex:1 1 320px}
.finding h3{margin:.1em 0 .3em;font-size:1.05em}
.tag{font-size:.8em;padding:1px 8px;border-radius:10px;color:#fff;margin-right:6px;vertical-align:1px}
img{border:1px solid #bbb;max-width:100%;height:auto}table{border-collapse:collapse;width:100%}
td,th{border:1px solid #ddd;padding:3px 8px;text-align:left;vertical-align:top}th{background:#f3f3f3}
.legend span{display:inline-block;margin-right:18px}.sw{display:inline-block;width:22px;height:6px;
margin-right:6px;vertical-align:middle}.muted{color:#777}figure{margin:0 0 8px}
.pics{display:flex;gap:8px;flex-wrap:wrap}svg.pic{max-width:100%;height:auto}
tr.move-legal td:last-child{color:#fff;background:rgb(0,150,60)}tr.move-illegal td:last-child{color:#fff;
background:rgb(200,0,150)}summary{cursor:pointer;color:#0050a0}
"""


def moves_of(items: Iterable[Moved | PieceDiff], findings: Sequence[Finding] = ()) -> list[Move]:
    """Moves for the overview from replay events (`Moved`) or position differences
    (`PieceDiff` of kind "moved"), when no pack judged them (see `TurnView.moves`): a move is
    faulted (False) when an error or warning is about it, i.e. cites its piece and both its
    places; any other is not judged (None)."""
    cited = [(set(f.units), set(f.hexes)) for f in findings if sev(f) != "info"]
    out: list[Move] = []
    for item in items:
        if isinstance(item, Moved):
            start, end = item.origin, item.to
        elif item.kind == "moved" and item.start is not None and item.end is not None:
            start, end = item.start, item.end
        else:
            continue
        about = any(item.piece in units and {start.label, end.label} <= hexes for units, hexes in cited)
        out.append(Move(start.label, end.label, item.name, False if about else None))
    return out


def _counts(findings: Sequence[Finding]) -> dict[str, int]:
    out = {s.value: 0 for s in Severity}
    for f in findings:
        out[sev(f)] += 1
    return out


def _head(page: Page, report: Report | None, title: str, source: str, counts: dict[str, int]) -> list[str]:
    out = [f"<h1>{page.text(title)}</h1>"]
    meta = [f"file {page.text(source)}"] if source else []
    if report is not None:

        def show(v: object) -> str:
            return "unknown" if v is None else page.text(v)

        meta.append(
            f"pack {page.text(report.pack)}; turn {show(report.turn)}, phase {show(report.phase)}, "
            f"weather {show(report.weather)}"
        )
    if meta:
        out.append(f'<p class="meta">{" &middot; ".join(meta)}</p>')
    out.append(
        '<p class="counts">'
        + "".join(f'<span class="{k}">{n} {k if n == 1 or k == "info" else k + "s"}</span>' for k, n in counts.items())
        + "</p>"
    )
    return out


def _finding(page: Page, f: Finding) -> list[str]:
    level = sev(f)
    units = ", ".join(page.unit_names(f))
    where = [f"hexes: {page.text(', '.join(f.hexes))}"] if f.hexes else []
    where += [f"units: {html.escape(units)}"] if units else []
    return [
        f'<div class="finding sev-{level}"><div class="text">',
        f'<h3><span class="tag {level}">{level}</span>{page.text(f.rule)}</h3>',
        f"<p>{page.text(f.message)}</p>",
        f'<p class="muted">{"<br>".join(where)}</p>' if where else "",
        f"</div><div>{page.picture(f)}</div></div>",
    ]


def _fold(what: str, head: str, rows: Sequence[str]) -> list[str]:
    """A table, folded into a <details> the reader opens when it has more than FOLD rows."""
    table = [f"<table><thead>{head}</thead><tbody>", *rows, "</tbody></table>"]
    if len(rows) <= FOLD:
        return table
    return [f"<details><summary>{len(rows)} {what} (open to list them)</summary>", *table, "</details>"]


def _info_table(page: Page, info: Sequence[Finding]) -> list[str]:
    rows = [
        f"<tr><td>{page.text(f.rule)}</td><td>{page.text(', '.join(f.hexes))}</td><td>{page.text(f.message)}</td></tr>"
        for f in info
    ]
    return _fold("information findings", "<tr><th>Rule</th><th>Hexes</th><th>Finding</th></tr>", rows)


_VERDICT = {True: ("legal", "move-legal"), False: ("illegal", "move-illegal"), None: ("not judged", "move-unjudged")}


def _moves(page: Page, moves: Sequence[Move], skipped: int) -> tuple[str, list[str]]:
    """The overview's legend, and the table of moves under it."""
    legend = [
        (MOVE_COLOURS[True], "move judged legal"),
        (MOVE_COLOURS[False], "move judged illegal"),
        (MOVE_COLOURS[None], "move not judged"),
        (picture_colour(Finding("", Severity.ERROR, "")), "hex of an error"),
        (SEVERITY_COLOURS["warning"], "hex of a warning"),
    ]
    head = (
        '<p class="legend">'
        + "".join(f'<span><i class="sw" style="background:rgb{c}"></i>{t}</span>' for c, t in legend)
        + "</p>"
    )
    if not moves:
        return head, ['<p class="muted">No moves were given: the map shows where the findings are.</p>']
    off = f'<p class="muted">{skipped} move(s) start or end off the hex grid and are not drawn.</p>'
    out = [off] if skipped else []
    rows = [
        f'<tr class="{_VERDICT[m.ok][1]}"><td>{page.text(m.name)}</td><td>{page.text(m.start or "off the grid")}'
        f"</td><td>{page.text(m.end or 'off the grid')}</td><td>{_VERDICT[m.ok][0]}</td></tr>"
        for m in moves
    ]
    counts = " &middot; ".join(f"{sum(1 for m in moves if m.ok is ok)} {_VERDICT[ok][0]}" for ok in (True, False, None))
    return head, [
        *out,
        f'<p class="muted">Moves: {counts}.</p>',
        *_fold("moves", "<tr><th>Unit</th><th>From</th><th>To</th><th>Verdict</th></tr>", rows),
    ]


def _undone_roll(r: Roll) -> str:
    """What became of an undone roll: the roll that took its place, or that it was replayed."""
    if r.undone_in is None:
        return ""
    then = (f"; roll {r.replaced_by} took its place" if r.replaced_by is not None else "; not rolled again") + (
        " (the same actions replayed)" if r.replayed else ""
    )
    return f"undone in step {r.undone_in}{then}"


def _chat_and_dice(page: Page, turn: TurnView) -> list[str]:
    chat = [
        f"<tr><td>{page.text(path)}</td><td>{step}</td><td>{page.text(line.speaker or '')}</td>"
        f"<td>{page.text(plain(line.text))}</td></tr>"
        for path, step, line in turn.chat()
    ]
    dice = [
        f"<tr><td>{r.number}</td><td>{page.text(r.file)}</td><td>{r.step}</td><td>{page.text(r.player)}</td>"
        f"<td>{page.text(r.shown)}</td><td>{page.text(_undone_roll(r))}</td></tr>"
        for r in turn.rolls
    ]
    out = ["<h2>Chat</h2>"]
    out += (
        _fold("chat lines and reports", "<tr><th>File</th><th>Step</th><th>Speaker</th><th>Text</th></tr>", chat)
        if chat
        else ["<p>None.</p>"]
    )
    undone = [
        f"<tr><td>{page.text(path)}</td><td>{step}</td><td>{undo}</td><td>{page.text(event_line(e))}</td></tr>"
        for path, step, undo, e in turn.undone()
    ]
    if undone:  # what an undo took back: it happened, but is no move of the turn
        out += [
            "<h2>Undone</h2>",
            *_fold(
                "undone moves and changes",
                "<tr><th>File</th><th>Step</th><th>Undone in step</th><th>Move or change</th></tr>",
                undone,
            ),
        ]
    out.append("<h2>Dice</h2>")
    out += (
        _fold(
            "die rolls", "<tr><th>Roll</th><th>File</th><th>Step</th><th>Player</th><th>Roll</th><th></th></tr>", dice
        )
        if dice
        else ["<p>None.</p>"]
    )
    return out


def report_html(
    report_or_findings: Report | Sequence[Finding],
    *,
    module: Module,
    game: SavedGame,
    module_path: str | None,
    moves: Sequence[Move | tuple] = (),
    title: str = "Referee report",
    source: str = "",
    secrets: Iterable[str] = (),
    notes: Sequence[str] = (),
    turn: TurnView | None = None,
    games: Sequence[SavedGame] = (),
    position: GamePosition | None = None,
) -> str:
    """The page for a `Report` (or a plain list of findings, e.g. `verify`'s).

    `module_path` is the module file the board and piece images are read from (None: no
    pictures); `moves` are drawn on the overview (see `moves_of`); `title` and `source` head
    the page; `secrets`: passwords of other files of the game, masked like those of `game`;
    `notes` are listed after the report's own (e.g. that hidden pieces are shown).

    `turn` (verify): the turn's replays, the pack's verdicts and the dice. Then the moves are
    the turn's own with their verdicts (`moves` is ignored), the map shows the position the
    turn leaves, a finding's picture shows the pieces at the moment it is about, and the chat
    and the dice are listed. `games`: the turn's other files, whose pieces' looks are read too.

    `position`: `game` resolved for the pack that judged it (position.py): its pieces are the ones
    shown, and the map drawn is the one the pack plays on (``[state] map``). Without one (no pack),
    the first map with a numbered hex grid is drawn.
    """
    report = report_or_findings if isinstance(report_or_findings, Report) else None
    findings = list(report.findings if report is not None else report_or_findings)
    page = Page(
        module, game, module_path, dict(report.unit_names) if report is not None else {}, secrets, turn, games, position
    )
    moves = turn.moves() if turn is not None else [Move(*m) for m in moves]  # a plain tuple is a Move too
    problems = [f for f in findings if sev(f) != "info"]
    info = [f for f in findings if sev(f) == "info"]
    body = _head(page, report, title, source, report.counts() if report is not None else _counts(findings))
    body.append("<h2>Errors and warnings</h2>")
    if not problems:
        body.append("<p>None.</p>")
    ordered = sorted(problems, key=lambda f: SEVERITY_RANK[f.severity])
    for f in ordered[:PICTURES]:
        body += _finding(page, f)
    if ordered[PICTURES:]:
        rows = [
            f"<tr><td>{sev(f)}</td><td>{page.text(f.rule)}</td><td>{page.text(', '.join(f.hexes))}</td>"
            f"<td>{page.text(f.message)}</td></tr>"
            for f in ordered[PICTURES:]
        ]
        body += [
            f"<p>{len(rows)} more errors and warnings, listed without pictures:</p>",
            *_fold(
                "more errors and warnings",
                "<tr><th>Severity</th><th>Rule</th><th>Hexes</th><th>Finding</th></tr>",
                rows,
            ),
        ]
    overview, skipped = page.overview(problems, moves)
    legend, table = _moves(page, moves, skipped)
    body += ["<h2>The map</h2>", legend, f"<p>{overview}</p>", *table]
    if info:
        body += ["<h2>Information</h2>", *_info_table(page, info)]
    if turn is not None:
        body += _chat_and_dice(page, turn)
    all_notes = [*(report.notes if report is not None else ()), *notes]
    if all_notes:
        body += ["<h2>Notes</h2>", "<ul>", *(f"<li>{page.text(n)}</li>" for n in all_notes), "</ul>"]
    if report is not None and report.assumptions:
        body += ["<h2>Assumptions</h2>", "<ul>"]
        body += [
            f"<li><code>{page.text(name)}</code> = <code>{page.text(repr(a.get('value')))}</code>: "
            f"{page.text(a.get('source', ''))}</li>"
            for name, a in sorted(report.assumptions.items())
        ]
        body.append("</ul>")
    return page.figures.render(
        '<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">'
        f"<title>{page.text(title)}</title><style>{_STYLE}</style></head><body>\n"
        + "\n".join(b for b in body if b)
        + "\n</body></html>\n"
    )
