"""`vassal-adj verify FILES... --module M.vmod`: what a PBEM turn did, replayed from its files.

Kept apart from cli.py only for size; the same rules hold (exit 2 for bad input or pack, 3 for
a bug). One log: its steps replayed from the opening position. Several saves and logs in game
order: each log's steps, each save's differences from where the previous file ended, and a
finding (``verify:continuity``) for every piece a log does not start where the previous file
left it. Without --as this is the referee's view: masked and invisible pieces are shown,
with a note; with --as SIDE, what a player of that side sees (model/viewpoint.py).
"""

from __future__ import annotations

import html
import re
from dataclasses import asdict
from typing import Any

import click

from vassal_adj import packs as packs_io
from vassal_adj.cli import _emit_json, _guarded, main, require_new_file
from vassal_adj.cli_options import pack_option, state_options
from vassal_adj.errors import UsageError, Where
from vassal_adj.load import load_module, load_save
from vassal_adj.model.events import (
    Added,
    Changed,
    ChatLine,
    DieRolled,
    Event,
    Moved,
    PieceDiff,
    PropertyChange,
    PropertySet,
    Removed,
    Replay,
    TurnChanged,
    diff_pieces,
)  # fmt: skip
from vassal_adj.model.module import Module
from vassal_adj.model.pieces import Piece
from vassal_adj.model.units import Unit
from vassal_adj.model.viewpoint import view_replay, visibility
from vassal_adj.parse.dice_reports import report_reader
from vassal_adj.parse.replay import opening_differences, replay
from vassal_adj.report.describe import REDACTED, SCHEMA_VERSION, redactor
from vassal_adj.report.dice_text import dice_lines
from vassal_adj.rules.audit import Audit, audit
from vassal_adj.rules.results import Finding, Severity
from vassal_adj.verify_builder import Verification, verify_turn

RULE = "verify:continuity"
_KIND = {Moved: "move", Added: "arrival", Removed: "removal", Changed: "change", ChatLine: "chat",
         DieRolled: "die roll", TurnChanged: "turn", PropertySet: "property"}
_TAG = re.compile(r"</?[a-zA-Z][^>]*>")


def _plain(text: str) -> str:
    """A report's text without its HTML markup (VASSAL shows reports as HTML)."""
    return " ".join(html.unescape(_TAG.sub("", text)).split())


def _name(name: str, concealed: str | None) -> str:
    return f"{name or '(no name)'} [{concealed}]" if concealed else name or "(no name)"


def _props(changes: tuple[PropertyChange, ...]) -> str:
    def show(v: str | None) -> str:
        return "(none)" if v is None else repr(v)

    return ", ".join(f"{c.name} {show(c.before)} -> {show(c.after)}" for c in changes)


def event_line(e: Event) -> str:
    """One event in words, places by label."""
    if isinstance(e, Moved):
        how = f" with stack {e.via}" if e.via else " (by a state change)" if e.by_change else ""
        who = f" (by {e.player})" if e.player else ""
        return f"move     {_name(e.name, e.concealed)}: {e.origin} -> {e.to}{how}{who}"
    if isinstance(e, Added):
        return f"arrive   {_name(e.name, e.concealed)} at {e.at}"
    if isinstance(e, Removed):
        return f"remove   {_name(e.name, e.concealed)} from {e.at}"
    if isinstance(e, Changed):
        renamed = f"{e.name_before} -> " if e.name_before != e.name else ""
        hidden = f"; concealment {e.concealed_before} -> {e.concealed}" if e.concealed_before != e.concealed else ""
        props = f": {_props(e.properties)}" if e.properties else ""
        return f"change   {renamed}{_name(e.name, e.concealed)} at {e.at}{props}{hidden}"
    if isinstance(e, ChatLine):
        if e.report:
            return f"report   {_plain(e.text)}"
        return f"chat     <{e.speaker}> {e.text}" if e.speaker else f"chat     {e.text}"
    if isinstance(e, DieRolled):
        report = f" ({_plain(e.report)})" if e.report else ""
        total = f", total {e.total}" if e.total and e.total != e.result else ""
        return f"dice     {e.button} = {e.result}{total}{report}"
    if isinstance(e, TurnChanged):
        values = ", ".join(f"{k} {v}" for k, v in e.values) or e.state
        return f"turn     {e.tracker}: {values}"
    return f"property {e.name}: {e.before!r} -> {e.after!r}" + (f" ({e.container})" if e.container else "")


def summary_line(counts: dict[str, int]) -> str:
    main_counts = ("moves", "arrivals", "removals", "changes", "chat lines", "die rolls", "undos")
    line = ", ".join(f"{counts[k]} {k}" for k in main_counts)
    extra = [f"{counts[k]} {k}" for k in ("turn changes", "property changes") if counts[k]]
    return line + (f" (also {', '.join(extra)})" if extra else "")


def diff_line(d: PieceDiff) -> str:
    name = _name(d.name, d.concealed)
    if d.start is None:
        return f"added    {name} at {d.end}"
    if d.end is None:
        return f"removed  {name} from {d.start}"
    renamed = f" (was {d.name_before})" if d.name_before else ""
    props = f": {_props(d.properties)}" if d.properties else ""
    where = f"{d.start} -> {d.end}" if d.kind == "moved" else f"at {d.end}"
    return f"{d.kind:<8} {name}{renamed} {where}{props}"


def continuity_finding(d: PieceDiff, previous: str, log: str) -> Finding:
    """The finding for one piece a log does not start where the previous file left it."""
    name = d.name or d.piece
    if d.start is None:
        msg = f"{name} is in the opening position of {log} at {d.end} but not at the end of {previous}"
    elif d.end is None:
        msg = f"{name} is at {d.start} at the end of {previous} but not in the opening position of {log}"
    else:
        parts = [f"{previous} ends with it at {d.start}, {log} starts it at {d.end}"] if d.kind == "moved" else []
        parts += [f"name was {d.name_before!r}"] if d.name_before else []
        parts += [f"properties differ: {_props(d.properties)}"] if d.properties else []
        parts += [] if parts else ["its concealment differs"]
        msg = f"{name} does not start where {previous} left it: " + "; ".join(parts)
    labels = tuple(p.label for p in (d.start, d.end) if p is not None and p.label)
    return Finding(RULE, Severity.WARNING, msg, units=(d.piece,), hexes=labels)


class _Section:
    """What one file contributes: a log's replay, or a save's changes from the previous file."""

    def __init__(self, path: str, is_log: bool, rp: Replay, changes: list[PieceDiff] | None) -> None:
        self.path, self.is_log, self.replay, self.changes = path, is_log, rp, changes

    def concealed(self) -> int:
        if self.is_log:
            return sum(1 for e in self.replay.events() if getattr(e, "concealed", None))
        return sum(1 for d in self.changes or () if d.concealed)

    def data(self) -> dict[str, Any]:
        out: dict[str, Any] = {"file": self.path, "kind": "log" if self.is_log else "save",
                               "pieces_at_start": len(self.replay.opening),
                               "pieces_at_end": len(self.replay.final)}
        if self.is_log:
            out["steps"] = [{"number": s.number, "command": s.command, "undo": s.undo, "undoes": s.undoes,
                             "events": [{"kind": _KIND[type(e)], **asdict(e)} for e in s.events]}
                            for s in self.replay.steps if s.events]
            out["counts"] = dict(self.replay.counts())
            out["problems"] = list(self.replay.problems)
        if self.changes is not None:
            out["changes"] = [{"kind": d.kind, **asdict(d)} for d in self.changes]
        return out

    def lines(self, md: bool) -> list[str]:
        rp = self.replay
        head = (f"log {self.path}: {len(rp.steps)} step(s) from a position of {len(rp.opening)} piece(s)"
                if self.is_log else f"save {self.path}: {len(rp.final)} piece(s)")
        out = [f"## {head}" if md else f"== {head}"]
        item = "- " if md else "  "
        if self.is_log:
            for s in rp.steps:
                if not s.events:
                    continue
                undo = f", undo of step {s.undoes}" if s.undoes else ", an undo" if s.undo else ""
                title = f"step {s.number}{undo} (command {s.command})"
                out += ["", f"### {title}" if md else f"{title}:"]
                out += [item + event_line(e) for e in s.events]
            out += ["", ("**summary:** " if md else "summary: ") + summary_line(dict(rp.counts()))]
            out += [f"note: {p}" for p in rp.problems]
        if self.changes is not None:
            out += ["", f"changes since the previous file: {len(self.changes)} piece(s)"]
            out += [item + diff_line(d) for d in self.changes]
        return out


def _scrub(data: Any, pattern: re.Pattern[str] | None) -> Any:
    if pattern is None:
        return data
    if isinstance(data, str):
        return pattern.sub(REDACTED, data)
    if isinstance(data, dict):
        return {k: _scrub(v, pattern) for k, v in data.items()}
    if isinstance(data, (list, tuple)):
        return [_scrub(v, pattern) for v in data]
    return data


@main.command()
@click.argument("files", nargs=-1, required=True, type=click.Path(dir_okay=False))
@click.option("--module", "module_path", type=click.Path(dir_okay=False),
              help="The module (.vmod): places are given by the labels VASSAL shows.")
@pack_option
@click.option("--no-rules", is_flag=True, help="Only list what happened: judge no move, even when a pack fits.")
@state_options
@click.option("--format", "fmt", type=click.Choice(["text", "markdown", "json", "html"]), default="text",
              show_default=True, help="Output format (html: a page with map pictures and every move drawn).")
@click.option("--annotate", "annotate_to", type=click.Path(dir_okay=False),
              help="Write a copy of the last file (the opponent's save) that VASSAL opens, with a marker on "
                   "every unit an error or warning concerns and the findings in the chat.")
@click.option("--as", "side", metavar="SIDE",
              help="Show only what a player of SIDE sees: the other side's masked pieces by their masked "
                   "name, invisible ones not at all. Without it: the referee's view, with a note.")
@_guarded
def verify(files: tuple[str, ...], module_path: str | None, pack_name: str | None, no_rules: bool,
           terrain: str | None, turn: int | None, phase: str | None, weather: str | None, fmt: str,
           annotate_to: str | None, side: str | None) -> None:
    """Replay a PBEM turn: every move, arrival, removal, change, chat line and die roll.

    Give one log, or several saves and logs oldest first. A log is replayed from the
    position it starts from; a save is compared with where the previous file ended. A log
    that does not start where the previous file ended is a finding (verify:continuity,
    warning): the opponent may have started from another position.

    With --module, the pack that fits the module (or --pack) judges every move: each drag a
    leg from where the unit stood, within one allowance for the phase, and the end of each
    movement phase. Turn and phase come from the pack's turn tracker as each log opens (when
    it cannot tell them: exit 2, give --turn and --phase), the weather from the pack's table;
    --turn, --phase and --weather override them for every log given, --terrain replaces the
    pack's terrain file. --no-rules only lists what happened.

    \b
    Example:
      vassal-adj verify turn3.vlog --module game.vmod
      vassal-adj verify turn2.vsav turn3.vlog turn3.vsav --module game.vmod --format markdown
    """
    module = load_module(module_path) if module_path else None
    given = {"--terrain": terrain, "--turn": turn, "--phase": phase, "--weather": weather}
    lp, notes = _judge(module, pack_name, no_rules, [k for k, v in given.items() if v is not None])
    games = [load_save(f) for f in files]
    if len(games) == 1 and not games[0].is_log:
        raise UsageError("a saved game holds no moves: give its log (.vlog), or two saves in game order",
                         Where(path=files[0]))
    sections: list[_Section] = []
    findings: list[Finding] = []
    previous: tuple[str, tuple[Piece, ...]] | None = None
    if side is not None:
        known = set(module.sides) if module else set()
        if known and side not in known:
            raise UsageError(f"--as {side!r}: the module's sides are {', '.join(sorted(known))}")
    if annotate_to is not None:
        _check_annotate(annotate_to, files[-1], games[-1].is_log, module)
    if fmt == "html" and module is None:
        raise UsageError("--format html needs --module: its pictures are cut from the module's boards")
    hidden: dict[str, str] = {}  # piece id -> how --as SIDE sees it, when not in full
    moves_checked: list[Finding] = []
    verdicts: dict[str, Verification] = {}  # file -> the pack's checks of its moves
    for path, game in zip(files, games):
        rp = replay(game.root, module, game.path)
        if lp is not None and module is not None and game.is_log:
            v = verify_turn(module, game, lp, rp, terrain=terrain, turn=turn, phase=phase, weather=weather)
            verdicts[path] = v
            moves_checked += v.findings
            notes += [f"{path}: {n}" for n in v.notes if n not in rp.problems]  # the problems are in its section
        if side is not None:
            disguised = _disguised((*rp.opening, *rp.final), lp, side)
            hidden.update((p.id, v) for p in (*rp.opening, *rp.final)
                          if (v := visibility(p.concealed, p.seen_by, side)) != "full")
            hidden.update(dict.fromkeys(disguised, "masked"))
            rp = view_replay(rp, side, disguised)
        changes = None
        if previous is not None and game.is_log:
            findings += [continuity_finding(d, previous[0], path)
                         for d in opening_differences(previous[1], rp.opening)]
        elif previous is not None:
            changes = diff_pieces(previous[1], rp.final)
        sections.append(_Section(path, game.is_log, rp, changes))
        previous = (path, rp.final)
    checked = audit([(path, sec.replay) for path, sec in zip(files, sections)], reader=report_reader(module),
                    chat_dice=lp.pack.dice if lp else ())
    # A finding about a piece the side may not see would tell them what it is or where it went.
    kept = [f for f in moves_checked if not hidden.keys() & set(f.units)]
    findings = kept + findings + list(checked.findings)
    left_out = len(moves_checked) - len(kept)
    pattern = redactor(set().union(*(g.secrets() for g in games)))
    concealed = sum(s.concealed() for s in sections) if side is None else 0
    if fmt == "html":
        # only for the page: it loads Pillow (startup time, cli_lazy.py)
        from vassal_adj.report.html import TurnView, report_html

        # With --as, a verdict on a piece the side may not see would tell them about it.
        view = TurnView([(p, sec.replay) for p, sec in zip(files, sections)],
                        {} if hidden else verdicts, checked.rolls, frozenset(hidden),
                        [d for sec in sections for d in sec.changes or ()])
        # The page masks passwords in its own texts: a pattern over the whole page could hit image data.
        click.echo(report_html(findings, module=module, game=games[-1], module_path=module_path,  # type: ignore[arg-type]
                               turn=view, games=games[:-1], title=f"Turn verification: {files[-1]}",
                               source=", ".join(files), secrets=set().union(*(g.secrets() for g in games)),
                               notes=[*notes, *_notes(side, concealed, left_out)]))
    elif fmt == "json":
        _emit_json(_scrub({"schema_version": SCHEMA_VERSION, "module": module.name if module else None,
                           "pack": lp.id if lp else None, "referee_view": side is None, "as_side": side,
                           "hidden_pieces_shown": concealed, "findings_left_out": left_out, "notes": notes,
                           "files": [s.data() for s in sections],
                           "rolls": [{**asdict(r), "shown": r.shown} for r in checked.rolls],
                           "dice_stats": [{**asdict(d), "reading": d.reading()} for d in checked.stats],
                           "findings": [{"rule": f.rule, "severity": f.severity.value, "message": f.message,
                                         "units": list(f.units), "hexes": list(f.hexes)} for f in findings]},
                          pattern))
    else:
        click.echo(_scrub(_text(sections, findings, checked, fmt == "markdown", module, lp, side, concealed,
                                left_out, notes), pattern))
    if annotate_to is not None:
        # only for --annotate: a report needs none of it (startup time, cli_lazy.py)
        from vassal_adj.report.annotate import annotate

        markers = annotate(games[-1], findings, annotate_to, module=module)  # type: ignore[arg-type]
        click.echo(f"{len(markers)} marker(s) written to {annotate_to}", err=True)
    if any(f.severity == Severity.ERROR for f in findings):
        raise click.exceptions.Exit(1)


def _judge(module: Module | None, pack_name: str | None, no_rules: bool, given: list[str]
           ) -> tuple[packs_io.LoadedPack | None, list[str]]:
    """The pack that judges the moves (--pack, else the one that fits the module) and what the
    reader should know about it; None with --no-rules, without a module, or when none fits."""
    if no_rules and (pack_name or given):
        raise UsageError(f"--no-rules judges no move: {', '.join([*(['--pack'] if pack_name else []), *given])} "
                         "would have nothing to do")
    if module is None:
        if pack_name or given:
            raise UsageError("--pack, --terrain, --turn, --phase and --weather need --module: moves are judged on "
                             "its map")
        return None, []
    if no_rules:
        return None, []
    lp = packs_io.find_pack(pack_name) if pack_name else packs_io.find_pack_for_module(module.name, module.version)
    if lp is None:
        if given:
            raise UsageError(f"{', '.join(given)}: no rule pack fits module {module.name!r}; name one with --pack")
        why = f"no rule pack fits module {module.name!r} version {module.version!r}"
        return None, [f"{why}: the moves are listed, not judged (name a pack with --pack)"]
    return lp, []


def _disguised(pieces: tuple[Piece, ...], lp: packs_io.LoadedPack | None, side: str) -> dict[str, str]:
    """Pieces the game's rules hide from `side` (units the pack flags "hidden", e.g. dummy and real
    AT guns), by id, with the name that side sees."""
    if lp is None or lp.unitmap is None:
        return {}
    out = {}
    for p in pieces:
        unit = lp.unitmap.map_piece(p)
        if isinstance(unit, Unit) and unit.has("hidden") and unit.side != side:
            out[p.id] = f"{unit.side} hidden unit"
    return out


def _check_annotate(out: str, last: str, is_log: bool, module: Module | None) -> None:
    """--annotate marks the opponent's final save: refused before any work when it cannot be done."""
    if module is None:
        raise UsageError("--annotate needs --module: markers are placed by the module's grid")
    if is_log:
        raise UsageError("--annotate marks a saved game: give the opponent's save of the end of the turn as the "
                         "last file (a log's pieces are where they stood before its moves)", Where(path=last))
    require_new_file(out, "--annotate")


def _text(sections: list[_Section], findings: list[Finding], checked: Audit, md: bool, module: Module | None,
          lp: packs_io.LoadedPack | None, side: str | None, concealed: int, left_out: int, notes: list[str]) -> str:
    what = f"module {module.name!r}" if module else "no module: places are map pixels"
    seen = f", as {side} sees it" if side else ""
    lines = [(f"# verify ({what})" if md else f"verify ({what})") + (f", pack {lp.id!r}" if lp else "") + seen]
    for s in sections:
        lines += [""] + s.lines(md)
    item = "- " if md else "  "
    if checked.rolls:
        lines += ["", f"{'## ' if md else ''}dice: {len(checked.rolls)} roll(s) in game order"]
        lines += [f"{item}roll {r.number}: {r.player}, {r.file} step {r.step}: {r.shown}"
                  + (" (undone)" if r.undone_in else "") for r in checked.rolls]
    lines += dice_lines(checked, md)
    counts = {sev.value: sum(f.severity == sev for f in findings) for sev in Severity}
    lines += ["", f"{'## ' if md else ''}findings: {len(findings)} ({counts['error']} error(s), "
                  f"{counts['warning']} warning(s), {counts['info']} info)"]
    lines += [f"{item}{f.severity.value} {f.rule}: {f.message}" for f in findings]
    told = [*notes, *_notes(side, concealed, left_out)]
    lines += [""] * bool(told) + [f"{'- ' if md else ''}note: {note}" for note in told]
    return "\n".join(lines)


def _notes(side: str | None, concealed: int, left_out: int) -> list[str]:
    out = [f"{left_out} finding(s) about pieces {side} may not see are left out"] if left_out else []
    if concealed:
        out.append(f"hidden pieces shown: {concealed} event(s) or change(s) concern masked or invisible pieces, "
                   "shown as the referee sees them")
    return out
