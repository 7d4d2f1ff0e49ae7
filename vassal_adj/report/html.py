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
import re
from collections.abc import Callable, Iterable, Sequence

from vassal_adj.model.events import Moved, PieceDiff
from vassal_adj.model.module import Module
from vassal_adj.model.pieces import Piece
from vassal_adj.parse.builder import game_pieces
from vassal_adj.pbem.rolls import Roll
from vassal_adj.report.describe import REDACTED
from vassal_adj.report.figures import Figures
from vassal_adj.report.markup import plain
from vassal_adj.report.pictures import MOVE_COLOURS, SEVERITY_COLOURS, Arrow, Rgb
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
.finding.sev-warning{border-left-color:#e68200}.finding .text{flex:1 1 320px}.finding h3{margin:.1em 0 .3em;font-size:1.05em}
.tag{font-size:.8em;padding:1px 8px;border-radius:10px;color:#fff;margin-right:6px;vertical-align:1px}
img{border:1px solid #bbb;max-width:100%;height:auto}table{border-collapse:collapse;width:100%}
td,th{border:1px solid #ddd;padding:3px 8px;text-align:left;vertical-align:top}th{background:#f3f3f3}
.legend span{display:inline-block;margin-right:18px}.sw{display:inline-block;width:22px;height:6px;
margin-right:6px;vertical-align:middle}.muted{color:#777}figure{margin:0 0 8px}.pics{display:flex;gap:8px;flex-wrap:wrap}svg.pic{max-width:100%;height:auto}
tr.move-legal td:last-child{color:#fff;background:rgb(0,150,60)}tr.move-illegal td:last-child{color:#fff;
background:rgb(200,0,150)}summary{cursor:pointer;color:#0050a0}
"""


def _sev(f: Finding) -> str:
    return Severity(f.severity).value


def _scrubber(secrets: Iterable[str]) -> Callable[[str], str]:
    """Replace every password that stands as a word of its own (not inside a longer word,
    so a short password does not blank ordinary words) by the redaction mark."""
    found = sorted({s for s in secrets if s}, key=len, reverse=True)
    if not found:
        return lambda text: text
    pattern = re.compile(r"(?<![0-9A-Za-z])(?:" + "|".join(map(re.escape, found)) + r")(?![0-9A-Za-z])")
    return lambda text: pattern.sub(REDACTED, text)


def _picture_colour(f: Finding) -> Rgb:
    """An error is drawn in the colour of an illegal move: the board's roads are red."""
    return MOVE_COLOURS[False] if _sev(f) == "error" else SEVERITY_COLOURS[_sev(f)]


def moves_of(items: Iterable[Moved | PieceDiff], findings: Sequence[Finding] = ()) -> list[Move]:
    """Moves for the overview from replay events (`Moved`) or position differences
    (`PieceDiff` of kind "moved"), when no pack judged them (see `TurnView.moves`): a move is
    faulted (False) when an error or warning is about it, i.e. cites its piece and both its
    places; any other is not judged (None)."""
    cited = [(set(f.units), set(f.hexes)) for f in findings if _sev(f) != "info"]
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


class _Page:
    """What the page needs from the module and the save, read once."""

    def __init__(self, module: Module, game: SavedGame, module_path: str | None,
                 names: dict[str, str], secrets: Iterable[str] = (), turn: TurnView | None = None,
                 games: Sequence[SavedGame] = ()) -> None:
        self.clean = _scrubber({*game.secrets(), *secrets})
        self.pieces = game_pieces(game.root, module, game.path)
        self.names = {**{p.id: p.name for p in self.pieces}, **names}
        self.turn = turn
        if turn is not None:  # the position the turn leaves, not the one the last file opens with
            self.pieces = turn.final()
            self.names.update((p.id, p.name) for _, rp in turn.replays for p in (*rp.opening, *rp.final))
        self.figures = Figures(module, game, module_path, games, turn.masked if turn is not None else ())

    def text(self, value: object) -> str:
        """Escaped text, scrubbed of passwords (and of NUL, which marks a picture's place)."""
        return html.escape(self.clean(str(value)).replace("\x00", ""))

    def unit_names(self, f: Finding) -> list[str]:
        return [self.clean(self.names.get(u, u)) for u in f.units]

    def picture(self, f: Finding) -> str:
        fig = self.figures
        if fig.layout is None:
            return '<p class="muted">(no picture: the map has no numbered hex grid, or no module file was given)</p>'
        moments = self.turn.moments(f) if self.turn is not None else None
        before, after = moments if moments is not None else (self.pieces, None)
        colour = _picture_colour(f)
        alt = f"{f.rule} at {', '.join(f.hexes)}"

        def name(p: Piece) -> str:
            return self.clean(self.names.get(p.id, p.name) or p.id)

        shots = [(None, fig.crop(before, f.hexes, colour, f.units, name, alt))] if after is None else [
            ("before the phase's moves", fig.crop(before, f.hexes, colour, f.units, name, alt + " (before)", 400)),
            ("after them", fig.crop(after, f.hexes, colour, f.units, name, alt + " (after)", 400))]
        if all(pic is None for _, pic in shots):
            return '<p class="muted">(no picture: no hex of this finding is on the map)</p>'
        where = ("at the end of the phase" if moments is not None and after is None else "")
        return '<div class="pics">' + "".join(f'<figure>{pic}<figcaption class="muted">{cap or where}</figcaption></figure>'
                                              for cap, pic in shots if pic is not None) + "</div>"

    def overview(self, problems: Sequence[Finding], moves: Sequence[Move]) -> tuple[str, int]:
        """The overview picture and how many moves could not be drawn (a place off the grid)."""
        fig = self.figures
        if fig.layout is None:
            return '<p class="muted">(no map picture: the map has no numbered hex grid, or no module file was given)</p>', 0
        arrows: list[Arrow] = []
        skipped = 0
        for m in moves:
            a, b = fig.centre(m.start), fig.centre(m.end)
            if a is None or b is None:
                skipped += 1
                continue
            # Through the pack's path when it runs from the origin to the destination (an
            # entry's path starts at its entry hex, off the origin box).
            via = [fig.centre(h) for h in m.path[1:-1]] if m.path[:1] == (m.start,) and m.path[-1:] == (m.end,) else []
            arrows.append(Arrow(a, b, MOVE_COLOURS[m.ok], tuple(c for c in via if c is not None)))
        marked = [(h, _picture_colour(f)) for f in sorted(problems, key=lambda f: -SEVERITY_RANK[f.severity])
                  for h in f.hexes]
        return fig.overview(self.pieces, arrows, marked, "the whole map with the units and the moves"), skipped


def _counts(findings: Sequence[Finding]) -> dict[str, int]:
    out = {s.value: 0 for s in Severity}
    for f in findings:
        out[_sev(f)] += 1
    return out


def _head(page: _Page, report: Report | None, title: str, source: str, counts: dict[str, int]) -> list[str]:
    out = [f"<h1>{page.text(title)}</h1>"]
    meta = [f"file {page.text(source)}"] if source else []
    if report is not None:
        def show(v: object) -> str:
            return "unknown" if v is None else page.text(v)
        meta.append(f"pack {page.text(report.pack)}; turn {show(report.turn)}, phase {show(report.phase)}, "
                    f"weather {show(report.weather)}")
    if meta:
        out.append(f'<p class="meta">{" &middot; ".join(meta)}</p>')
    out.append('<p class="counts">' + "".join(
        f'<span class="{k}">{n} {k if n == 1 or k == "info" else k + "s"}</span>' for k, n in counts.items()) + "</p>")
    return out


def _finding(page: _Page, f: Finding) -> list[str]:
    sev = _sev(f)
    units = ", ".join(page.unit_names(f))
    where = [f"hexes: {page.text(', '.join(f.hexes))}"] if f.hexes else []
    where += [f"units: {html.escape(units)}"] if units else []
    return [f'<div class="finding sev-{sev}"><div class="text">',
            f'<h3><span class="tag {sev}">{sev}</span>{page.text(f.rule)}</h3>',
            f"<p>{page.text(f.message)}</p>",
            f'<p class="muted">{"<br>".join(where)}</p>' if where else "",
            f"</div><div>{page.picture(f)}</div></div>"]


def _fold(what: str, head: str, rows: Sequence[str]) -> list[str]:
    """A table, folded into a <details> the reader opens when it has more than FOLD rows."""
    table = [f"<table><thead>{head}</thead><tbody>", *rows, "</tbody></table>"]
    if len(rows) <= FOLD:
        return table
    return [f"<details><summary>{len(rows)} {what} (open to list them)</summary>", *table, "</details>"]


def _info_table(page: _Page, info: Sequence[Finding]) -> list[str]:
    rows = [f"<tr><td>{page.text(f.rule)}</td><td>{page.text(', '.join(f.hexes))}</td>"
            f"<td>{page.text(f.message)}</td></tr>" for f in info]
    return _fold("information findings", "<tr><th>Rule</th><th>Hexes</th><th>Finding</th></tr>", rows)


_VERDICT = {True: ("legal", "move-legal"), False: ("illegal", "move-illegal"), None: ("not judged", "move-unjudged")}


def _moves(page: _Page, moves: Sequence[Move], skipped: int) -> tuple[str, list[str]]:
    """The overview's legend, and the table of moves under it."""
    legend = [(MOVE_COLOURS[True], "move judged legal"), (MOVE_COLOURS[False], "move judged illegal"),
              (MOVE_COLOURS[None], "move not judged"),
              (_picture_colour(Finding("", Severity.ERROR, "")), "hex of an error"),
              (SEVERITY_COLOURS["warning"], "hex of a warning")]
    head = '<p class="legend">' + "".join(
        f'<span><i class="sw" style="background:rgb{c}"></i>{t}</span>' for c, t in legend) + "</p>"
    if not moves:
        return head, ['<p class="muted">No moves were given: the map shows where the findings are.</p>']
    out = [f'<p class="muted">{skipped} move(s) start or end off the hex grid and are not drawn.</p>'] if skipped else []
    rows = [f'<tr class="{_VERDICT[m.ok][1]}"><td>{page.text(m.name)}</td><td>{page.text(m.start or "off the grid")}'
            f'</td><td>{page.text(m.end or "off the grid")}</td><td>{_VERDICT[m.ok][0]}</td></tr>' for m in moves]
    counts = " &middot; ".join(f"{sum(1 for m in moves if m.ok is ok)} {_VERDICT[ok][0]}" for ok in (True, False, None))
    return head, [*out, f'<p class="muted">Moves: {counts}.</p>',
                  *_fold("moves", "<tr><th>Unit</th><th>From</th><th>To</th><th>Verdict</th></tr>", rows)]


def _undone_roll(r: Roll) -> str:
    """What became of an undone roll: the roll that took its place, or that it was replayed."""
    if r.undone_in is None:
        return ""
    then = (f"; roll {r.replaced_by} took its place" if r.replaced_by is not None else "; not rolled again") + (
        " (the same actions replayed)" if r.replayed else "")
    return f"undone in step {r.undone_in}{then}"


def _chat_and_dice(page: _Page, turn: TurnView) -> list[str]:
    chat = [f"<tr><td>{page.text(path)}</td><td>{step}</td><td>{page.text(line.speaker or '')}</td>"
            f"<td>{page.text(plain(line.text))}</td></tr>" for path, step, line in turn.chat()]
    dice = [f"<tr><td>{r.number}</td><td>{page.text(r.file)}</td><td>{r.step}</td><td>{page.text(r.player)}</td>"
            f"<td>{page.text(r.shown)}</td><td>{page.text(_undone_roll(r))}</td></tr>" for r in turn.rolls]
    out = ["<h2>Chat</h2>"]
    out += _fold("chat lines and reports", "<tr><th>File</th><th>Step</th><th>Speaker</th><th>Text</th></tr>",
                 chat) if chat else ["<p>None.</p>"]
    undone = [f"<tr><td>{page.text(path)}</td><td>{step}</td><td>{undo}</td><td>{page.text(event_line(e))}</td></tr>"
              for path, step, undo, e in turn.undone()]
    if undone:  # what an undo took back: it happened, but is no move of the turn
        out += ["<h2>Undone</h2>", *_fold("undone moves and changes", "<tr><th>File</th><th>Step</th>"
                                          "<th>Undone in step</th><th>Move or change</th></tr>", undone)]
    out.append("<h2>Dice</h2>")
    out += _fold("die rolls", "<tr><th>Roll</th><th>File</th><th>Step</th><th>Player</th><th>Roll</th><th></th></tr>",
                 dice) if dice else ["<p>None.</p>"]
    return out




def report_html(report_or_findings: Report | Sequence[Finding], *, module: Module, game: SavedGame,
                module_path: str | None, moves: Sequence[Move | tuple] = (), title: str = "Referee report",
                source: str = "", secrets: Iterable[str] = (), notes: Sequence[str] = (),
                turn: TurnView | None = None, games: Sequence[SavedGame] = ()) -> str:
    """The page for a `Report` (or a plain list of findings, e.g. `verify`'s).

    `module_path` is the module file the board and piece images are read from (None: no
    pictures); `moves` are drawn on the overview (see `moves_of`); `title` and `source` head
    the page; `secrets`: passwords of other files of the game, masked like those of `game`;
    `notes` are listed after the report's own (e.g. that hidden pieces are shown).

    `turn` (verify): the turn's replays, the pack's verdicts and the dice. Then the moves are
    the turn's own with their verdicts (`moves` is ignored), the map shows the position the
    turn leaves, a finding's picture shows the pieces at the moment it is about, and the chat
    and the dice are listed. `games`: the turn's other files, whose pieces' looks are read too.
    """
    report = report_or_findings if isinstance(report_or_findings, Report) else None
    findings = list(report.findings if report is not None else report_or_findings)
    page = _Page(module, game, module_path, dict(report.unit_names) if report is not None else {}, secrets,
                 turn, games)
    moves = turn.moves() if turn is not None else [Move(*m) for m in moves]  # a plain tuple is a Move too
    problems = [f for f in findings if _sev(f) != "info"]
    info = [f for f in findings if _sev(f) == "info"]
    body = _head(page, report, title, source, report.counts() if report is not None else _counts(findings))
    body.append("<h2>Errors and warnings</h2>")
    if not problems:
        body.append("<p>None.</p>")
    ordered = sorted(problems, key=lambda f: SEVERITY_RANK[f.severity])
    for f in ordered[:PICTURES]:
        body += _finding(page, f)
    if ordered[PICTURES:]:
        rows = [f"<tr><td>{_sev(f)}</td><td>{page.text(f.rule)}</td><td>{page.text(', '.join(f.hexes))}</td>"
                f"<td>{page.text(f.message)}</td></tr>" for f in ordered[PICTURES:]]
        body += [f"<p>{len(rows)} more errors and warnings, listed without pictures:</p>",
                 *_fold("more errors and warnings", "<tr><th>Severity</th><th>Rule</th><th>Hexes</th>"
                        "<th>Finding</th></tr>", rows)]
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
        body += [f"<li><code>{page.text(name)}</code> = <code>{page.text(repr(a.get('value')))}</code>: "
                 f"{page.text(a.get('source', ''))}</li>" for name, a in sorted(report.assumptions.items())]
        body.append("</ul>")
    return page.figures.render("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
                               f"<title>{page.text(title)}</title><style>{_STYLE}</style></head><body>\n"
                               + "\n".join(b for b in body if b) + "\n</body></html>\n")
