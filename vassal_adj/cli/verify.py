"""`vassal-adj verify FILES... --module M.vmod`: what a PBEM turn did, replayed from its files.

One command of the cli/ package; the same rules hold (exit 2 for bad input or pack, 3 for
a bug). One log: its steps replayed from the opening position. Several saves and logs in game
order: each log's steps, each save's differences from where the previous file ended, and one
finding (``verify:continuity``) for a log that does not start where the previous file left
the game, listing every piece that differs, or that contains an earlier log and continues it
(pbem/continuity.py). Without --as this is the referee's view: masked and invisible pieces
are shown, with a note; with --as SIDE, what a player of that side sees (model/viewpoint.py).
The text formats are report/verify_text.py's: the verdict first.
"""

from __future__ import annotations

from dataclasses import asdict, replace
from functools import partial

import click

from vassal_adj import packs as packs_io
from vassal_adj.cli import _emit_json, _guarded, main, require_new_file
from vassal_adj.cli.hiding import disguised, scrub, unit_of, view_notes, withheld
from vassal_adj.cli.options import (
    FORMATS,
    format_version_option,
    option_option,
    pack_option,
    post_options,
    report_format_option,
    state_options,
)
from vassal_adj.cli.output import output_option, severity_colours, working
from vassal_adj.cli.verify_vp import vp_change
from vassal_adj.errors import UsageError, Where
from vassal_adj.load import load_module, load_save, same_module
from vassal_adj.model.events import Replay, diff_pieces
from vassal_adj.model.module import Module
from vassal_adj.model.pieces import Piece
from vassal_adj.model.viewpoint import view_replay, visibility
from vassal_adj.parse.dice_reports import report_reader
from vassal_adj.parse.log_contains import contained, continuation
from vassal_adj.pbem.audit import audit
from vassal_adj.pbem.continuity import contains_finding, continuity_finding, judged_once
from vassal_adj.pbem.replay import opening_differences, replay
from vassal_adj.pbem.verify import Verification, verify_turn
from vassal_adj.position import resolve
from vassal_adj.report.describe import REDACTED, SCHEMA_VERSION, redactor
from vassal_adj.report.markup import STYLES
from vassal_adj.report.verify_steps import Section
from vassal_adj.report.verify_text import VerifyView, verify_text
from vassal_adj.rules.results import Finding, Severity
from vassal_adj.rules.turn import MoveCheck


@main.command()
@click.argument("files", nargs=-1, required=True, type=click.Path(dir_okay=False))
@click.option(
    "--module",
    "module_path",
    type=click.Path(dir_okay=False),
    help="The module (.vmod): places are given by the labels VASSAL shows.",
)
@pack_option
@click.option("--no-rules", is_flag=True, help="Only list what happened: judge no move, even when a pack fits.")
@state_options
@option_option
@report_format_option("a page with map pictures and every move drawn")
@post_options
@click.option(
    "-v",
    "--verbose",
    is_flag=True,
    help="Also list the internal changes (module counters, a piece's Old* and layer properties) and "
    "VASSAL's automatic reports of a listed action, hidden by default.",
)
@click.option(
    "--annotate",
    "annotate_to",
    type=click.Path(dir_okay=False),
    help="Write a copy of the last file (the opponent's save; of a log, a save of its end) that VASSAL "
    "opens, with a marker on every unit an error or warning concerns and the findings in the chat.",
)
@format_version_option
@click.option(
    "--as",
    "side",
    metavar="SIDE",
    help="Show only what a player of SIDE sees: the other side's masked pieces by their masked "
    "name, invisible ones not at all. Without it: the referee's view, with a note.",
)
@_guarded
@output_option
def verify(
    files: tuple[str, ...],
    module_path: str | None,
    pack_name: str | None,
    no_rules: bool,
    scenario: str | None,
    options: tuple[str, ...],
    terrain: str | None,
    turn: int | None,
    phase: str | None,
    weather: str | None,
    fmt: str,
    summary: bool,
    errors_only: bool,
    verbose: bool,
    annotate_to: str | None,
    side: str | None,
    save_form: str | None,
) -> None:
    """Replay a PBEM turn: every move, arrival, removal, change, chat line and die roll.

    Give one log, or several saves and logs oldest first. A log is replayed from the
    position it starts from; a save is compared with where the previous file ended. A log
    that does not start where the previous file ended is a finding (verify:continuity,
    warning, one per log listing the pieces): the opponent may have started from another
    position. A log that contains an earlier log given (its opening and all its steps, then
    more: VASSAL keeps the steps of a log it replays) continues it (verify:continuity, info):
    only its own steps are listed with it, and every move is judged and every roll counted once.

    The text formats open with the verdict (errors and warnings), then the VP change when
    the pack counts victory points, the dice, one line per unit moved, and the steps, with
    internal changes (module counters, a piece's Old* and layer properties) and VASSAL's
    reports repeating a listed move hidden unless -v. --format bbcode is a BoardGameGeek
    post, --summary a short one (30 lines, under 2,000 characters), --errors-only only the
    verdict.

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
      vassal-adj verify turn3.vlog --module game.vmod --format bbcode --summary
    """
    if save_form is not None and annotate_to is None:
        raise UsageError("--format-version is the form of the save --annotate writes: give --annotate too")
    module = load_module(module_path) if module_path else None
    given = {"--terrain": terrain, "--turn": turn, "--phase": phase, "--weather": weather}
    lp, notes = _judge(module, pack_name, no_rules, [k for k, v in given.items() if v is not None])
    if lp is not None:
        lp = replace(lp, options_given=options)
    games = [load_save(f) for f in files]
    if module is not None and module_path is not None:
        notes += [n for g in games for n in same_module(g, module, module_path)]
    if len(games) == 1 and not games[0].is_log:
        raise UsageError(
            "a saved game holds no moves: give its log (.vlog), or two saves in game order", Where(path=files[0])
        )
    if summary and fmt not in FORMATS:
        raise UsageError(f"--summary is a short post in a text format ({', '.join(FORMATS)}), not {fmt}")
    sections: list[Section] = []
    findings: list[Finding] = []
    previous: tuple[str, tuple[Piece, ...]] | None = None
    if side is not None:
        known = set(module.sides) if module else set()
        if known and side not in known:
            raise UsageError(f"--as {side!r}: the module's sides are {', '.join(sorted(known))}")
    if annotate_to is not None:
        if module is None:
            raise UsageError("--annotate needs --module: markers are placed by the module's grid")
        require_new_file(annotate_to, "--annotate")
    if fmt == "html" and module is None:
        raise UsageError("--format html needs --module: its pictures are cut from the module's boards")
    hidden: dict[str, str] = {}  # piece id -> how --as SIDE sees it, when not in full
    moves_checked: list[Finding] = []
    verdicts: dict[str, Verification] = {}  # file -> the pack's checks of its moves
    moves: list[MoveCheck] = []
    logs: list[tuple[str, Replay]] = []  # the logs so far, as replayed, for what a later log contains
    repeated: list[int] = []  # per file, the steps it repeats of a log it contains
    superseded: list[Replay] = []  # the logs a later log contains, as replayed (a file may be given twice)
    dice: list[tuple[str, Replay, Replay]] = []  # each file, what the dice audit reads of it, its replay
    # Each file resolved once for the pack (maps placed, pieces labelled): its moves, VP and page share it.
    positions = [resolve(module, g, lp) if lp is not None and module is not None else None for g in games]
    with working("verify") as say:
        for number, (path, game) in enumerate(zip(files, games, strict=True), 1):
            at = f"verify: {'log' if game.is_log else 'save'} {number}/{len(files)}"
            say(at)
            pos = positions[number - 1]
            rp = replay(
                game.root,
                module,
                game.path,
                label=pos.label if pos is not None else None,
                on_step=lambda done, total, at=at: say(f"{at}, step {done}/{total} replayed"),
            )
            found = contained(rp, logs) if game.is_log else None
            logs.append((path, rp))
            repeated.append(found[2] if found else 0)
            if lp is not None and module is not None and game.is_log:
                v = verify_turn(
                    module,
                    game,
                    lp,
                    rp,
                    terrain=terrain,
                    turn=turn,
                    phase=phase,
                    weather=weather,
                    scenario=scenario,
                    position=positions[number - 1],
                    on_step=lambda done, total, at=at: say(f"{at}, step {done}/{total} judged"),
                )
                if found is not None:
                    v = judged_once(v, found[2], verdicts[found[0]].findings, verdicts[found[0]].moves)
                verdicts[path] = v
                moves_checked += v.findings
                moves += v.moves
                notes += [f"{path}: {n}" for n in v.notes if n not in rp.problems]  # the problems are in its section
            whole = read = rp
            if found is not None:
                findings.append(contains_finding(path, found, len(rp.steps)))
                superseded.append(found[1])
                rp = continuation(rp, found)
            if side is not None:
                units = pos.unit if pos is not None and unit_of(lp) is not None else unit_of(lp)  # mapped once
                masked = disguised((*rp.opening, *rp.final), units, side)
                hidden.update(
                    (p.id, v)
                    for p in (*rp.opening, *rp.final)
                    if (v := visibility(p.concealed, p.seen_by, side)) != "full"
                )
                hidden.update(dict.fromkeys(masked, "masked"))
                rp = view_replay(rp, side, masked)
                whole = view_replay(whole, side, masked) if found is not None else rp
            # The dice audit reads a log that contains another whole (an undo may take back a
            # repeated roll), and the log it contains not at all: each roll counts once.
            dice.append((path, whole, read))
            changes = None
            if previous is not None and game.is_log:
                if differ := opening_differences(previous[1], rp.opening):
                    findings.append(continuity_finding(differ, previous[0], path))
            elif previous is not None:
                changes = diff_pieces(previous[1], rp.final)
            sections.append(Section(path, game.is_log, rp, changes))
            previous = (path, rp.final)
    checked = audit(
        [(path, rp) for path, rp, read in dice if not any(read is s for s in superseded)],
        reader=report_reader(module),
        chat_dice=lp.pack.dice if lp else (),
    )
    for sec in sections:  # the step listing shows each roll with its roller, as the audit read it
        sec.rolls = [r for r in checked.rolls if r.file == sec.path]
    # A finding about a piece the side may not see would tell them what it is or where it went.
    kept = [f for f in moves_checked if not hidden.keys() & set(f.units)]
    findings = kept + findings + list(checked.findings)
    left_out = len(moves_checked) - len(kept)
    moves = [m for m in moves if m.unit not in hidden]
    if errors_only:
        findings = [f for f in findings if f.severity != Severity.INFO]
    pattern = redactor(set().union(*(g.secrets() for g in games)))
    concealed = sum(s.concealed() for s in sections) if side is None else 0
    if fmt == "html":
        # only for the page: it loads Pillow (startup time, cli/lazy.py)
        from vassal_adj.report.html import TurnView, report_html

        # With --as, a verdict on a piece the side may not see would tell them about it.
        view = TurnView(
            [(p, sec.replay) for p, sec in zip(files, sections, strict=True)],
            {} if hidden else verdicts,
            checked.rolls,
            frozenset(hidden),
            [d for sec in sections for d in sec.changes or ()],
        )
        # The page masks passwords in its own texts: a pattern over the whole page could hit image data.
        click.echo(
            report_html(
                findings,
                module=module,
                game=games[-1],
                module_path=module_path,  # type: ignore[arg-type]
                turn=view,
                games=games[:-1],
                title=f"Turn verification: {files[-1]}",
                source=", ".join(files),
                secrets=set().union(*(g.secrets() for g in games)),
                notes=[*notes, *view_notes(side, concealed, left_out)],
                position=positions[-1],
            )
        )
    elif fmt == "json":
        _emit_json(
            scrub(
                {
                    "schema_version": SCHEMA_VERSION,
                    "module": module.name if module else None,
                    "pack": lp.id if lp else None,
                    "referee_view": side is None,
                    "as_side": side,
                    "hidden_pieces_shown": concealed,
                    "findings_left_out": left_out,
                    "notes": notes,
                    "files": [s.data() for s in sections],
                    "rolls": [{**asdict(r), "shown": r.shown} for r in checked.rolls],
                    "dice_stats": [{**asdict(d), "reading": d.reading()} for d in checked.stats],
                    "findings": [
                        {
                            "rule": f.rule,
                            "severity": f.severity.value,
                            "message": f.message,
                            "units": list(f.units),
                            "hexes": list(f.hexes),
                        }
                        for f in findings
                    ],
                },
                pattern,
            )
        )
    else:
        what = f"module {module.name!r}" if module else "no module: places are map pixels"
        title = f"verify ({what})" + (f", pack {lp.id!r}" if lp else "") + (f", as {side} sees it" if side else "")
        # The VP tell where every unit is: not for a side that may not see them all.
        vp = (
            vp_change(
                module,
                games,
                repeated,
                lp,
                terrain=terrain,
                turn=turn,
                phase=phase,
                weather=weather,
                scenario=scenario,
                positions=positions,
                replays=[rp for _, rp in logs],
            )
            if lp is not None and module is not None and side is None and not errors_only
            else []
        )
        view = VerifyView(
            title, sections, findings, checked, moves, vp, notes=[*notes, *view_notes(side, concealed, left_out)]
        )
        style = STYLES[fmt]
        if pattern is not None:  # before escaping, which could split a secret
            style = replace(style, esc=lambda t, esc=style.esc: esc(pattern.sub(REDACTED, t)))
        click.echo(
            severity_colours(
                scrub(verify_text(view, style, verbose=verbose, errors_only=errors_only, summary=summary), pattern), fmt
            )
        )
    if annotate_to is not None:
        # only for --annotate: a report needs none of it (startup time, cli/lazy.py)
        from vassal_adj.report.annotate import annotate

        # everyone opens the copy: whatever --as says, no hidden piece is cited in it
        hide = partial(withheld, units=unit_of(lp), side=None)
        markers = annotate(games[-1], findings, annotate_to, module=module, form=save_form, withhold=hide)  # type: ignore[arg-type]
        click.echo(f"{len(markers)} marker(s) written to {annotate_to}", err=True)
    if any(f.severity == Severity.ERROR for f in findings):
        raise click.exceptions.Exit(1)


def _judge(
    module: Module | None, pack_name: str | None, no_rules: bool, given: list[str]
) -> tuple[packs_io.LoadedPack | None, list[str]]:
    """The pack that judges the moves (--pack, else the one that fits the module) and what the
    reader should know about it; None with --no-rules, without a module, or when none fits."""
    if no_rules and (pack_name or given):
        raise UsageError(
            f"--no-rules judges no move: {', '.join([*(['--pack'] if pack_name else []), *given])} "
            "would have nothing to do"
        )
    if module is None:
        if pack_name or given:
            raise UsageError(
                "--pack, --terrain, --turn, --phase and --weather need --module: moves are judged on its map"
            )
        return None, []
    if no_rules:
        return None, []
    lp = (
        packs_io.pack_for(pack_name, module.name, module.version)
        if pack_name
        else packs_io.find_pack_for_module(module.name, module.version)
    )
    if lp is None:
        if given:
            raise UsageError(f"{', '.join(given)}: no rule pack fits module {module.name!r}; name one with --pack")
        why = f"no rule pack fits module {module.name!r} version {module.version!r}"
        return None, [f"{why}: the moves are listed, not judged (name a pack with --pack)"]
    return lp, []
