"""`vassal-adj verify FILES... --module M.vmod`: what a PBEM turn did, replayed from its files.

One command of the cli/ package; the same rules hold (exit 2 for bad input or pack, 3 for
a bug). One log: its steps replayed from the opening position. Several saves and logs in game
order: each log's steps, each save's differences from where the previous file ended, and one
finding (``verify:continuity``) for a log that does not start where the previous file left
the game, listing every piece that differs, or that contains an earlier log and continues it
(pbem/continuity.py). Without --as this is the referee's view: masked and invisible pieces
are shown, with a note; with --as SIDE, what a player of that side sees (model/viewpoint.py).
The text formats are report/verify_text.py's: the verdict first. The files are read and judged
once (cli/verify_run.py), then shown in the format asked for.
"""

from __future__ import annotations

from functools import partial

import click

from vassal_adj.cli import _emit_json, _guarded, main, require_new_file
from vassal_adj.cli.hiding import unit_of, view_notes, withheld
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
from vassal_adj.cli.verify_run import judge_files, prepare
from vassal_adj.errors import UsageError
from vassal_adj.rules.results import Severity


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
    how, games, notes = prepare(
        files, module_path, pack_name, no_rules, options, scenario, terrain, turn, phase, weather, side
    )
    module, lp = how.module, how.lp
    if summary and fmt not in FORMATS:
        raise UsageError(f"--summary is a short post in a text format ({', '.join(FORMATS)}), not {fmt}")
    if annotate_to is not None:
        if module is None:
            raise UsageError("--annotate needs --module: markers are placed by the module's grid")
        require_new_file(annotate_to, "--annotate")
    if fmt == "html" and module is None:
        raise UsageError("--format html needs --module: its pictures are cut from the module's boards")
    with working("verify") as say:
        run = judge_files(files, games, how, notes, say)
    findings = run.verdict(errors_only)
    if fmt == "html":
        # only for the page: it loads Pillow (startup time, cli/lazy.py)
        from vassal_adj.report.html import TurnView, report_html

        # With --as, a verdict on a piece the side may not see would tell them about it.
        view = TurnView(
            [(p, sec.replay) for p, sec in zip(files, run.sections, strict=True)],
            {} if run.hidden else run.verdicts,
            run.checked.rolls,
            frozenset(run.hidden),
            [d for sec in run.sections for d in sec.changes or ()],
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
                notes=[*run.notes, *view_notes(side, run.concealed, run.left_out)],
                position=run.positions[-1],
            )
        )
    elif fmt == "json":
        _emit_json(run.data(errors_only))
    else:
        text = run.text(fmt, verbose=verbose, errors_only=errors_only, summary=summary)
        click.echo(severity_colours(text, fmt))
    if annotate_to is not None:
        # only for --annotate: a report needs none of it (startup time, cli/lazy.py)
        from vassal_adj.report.annotate import annotate

        # everyone opens the copy: whatever --as says, no hidden piece is cited in it
        hide = partial(withheld, units=unit_of(lp), side=None)
        markers = annotate(games[-1], findings, annotate_to, module=module, form=save_form, withhold=hide)  # type: ignore[arg-type]
        click.echo(f"{len(markers)} marker(s) written to {annotate_to}", err=True)
    if any(f.severity == Severity.ERROR for f in findings):
        raise click.exceptions.Exit(1)
