"""`vassal-adj check SAVE --module M.vmod --pack PACK`: a referee's verdict on a saved game.

One command of the cli/ package; the same rules hold: this is the command line, the only
place that prints or exits, with the exit statuses of cli/__init__.py (0 no error finding, 1 error
findings, 2 bad input or pack, 3 a bug).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from functools import partial
from typing import TYPE_CHECKING, Any

import click

from vassal_adj import packs as packs_io
from vassal_adj.cli import _emit_json, _guarded, main, require_new_file
from vassal_adj.cli.hiding import UnitOf, view_notes, withheld
from vassal_adj.cli.options import (
    FORMATS,
    format_version_option,
    game_options,
    option_option,
    post_options,
    report_format_option,
    state_options,
)
from vassal_adj.cli.output import output_option, severity_colours
from vassal_adj.errors import UsageError
from vassal_adj.load import load_module, load_save, same_module
from vassal_adj.model.pieces import Piece
from vassal_adj.position import GamePosition, resolve
from vassal_adj.report.findings import (
    report_bbcode,
    report_data,
    report_markdown,
    report_summary,
    report_text,
)
from vassal_adj.report.markup import STYLES
from vassal_adj.rules.engine import adjudicate
from vassal_adj.rules.results import Report, Severity
from vassal_adj.state_builder import game_state

if TYPE_CHECKING:
    from vassal_adj.pbem.log_state import LogHistory


@main.command()
@click.argument("save", type=click.Path(dir_okay=False))
@game_options
@state_options
@option_option
@report_format_option("a page with map pictures, to save and open")
@post_options
@click.option(
    "--annotate",
    "annotate_to",
    type=click.Path(dir_okay=False),
    help="Also write a copy of the save (of a log: a save of its end) that VASSAL opens, with a marker "
    "on every unit an error or warning concerns and the findings in the chat. Never replaces an "
    "existing file.",
)
@format_version_option
@click.option(
    "--as",
    "side",
    metavar="SIDE",
    help="Show only what a player of SIDE may see: findings about the other side's masked, invisible "
    "or rule-hidden pieces are left out (counted), in the report and in --annotate's copy. Without "
    "it: the referee's view, with a note when hidden pieces are shown.",
)
@_guarded
@output_option
def check(
    save: str,
    module_path: str,
    pack_name: str | None,
    scenario: str | None,
    options: tuple[str, ...],
    terrain: str | None,
    turn: int | None,
    phase: str | None,
    weather: str | None,
    fmt: str,
    summary: bool,
    errors_only: bool,
    annotate_to: str | None,
    save_form: str | None,
    side: str | None,
) -> None:
    """Check a saved game against a rule pack and print every finding with its rule.

    Pieces the pack cannot make units of are reported as findings of their own (warnings),
    never guessed. Exit status 1 when a finding is an error.

    Turn and phase come from the turn tracker the pack names, the weather from the pack's
    weather table; --turn, --phase and --weather override them. --terrain replaces the
    pack's terrain file (a referee who owns the real module gives the real map's).

    --annotate's copy is opened by every player: it never cites a masked or invisible piece
    (nor one the pack hides), whatever --as says; findings about them are only counted.

    A log (.vlog) is checked as its end shows it: the position, turn and phase it leaves, and
    the exits its steps recorded (17.15); --annotate writes a save of that end. Its moves
    are checked by `vassal-adj verify`.

    \b
    Example:
      vassal-adj check turn3.vsav --module game.vmod --pack mygame --format markdown
      vassal-adj check turn3.vsav --module game.vmod --format bbcode --errors-only
    """
    if annotate_to is not None:
        require_new_file(annotate_to, "--annotate")
    elif save_form is not None:
        raise UsageError("--format-version is the form of the save --annotate writes: give --annotate too")
    if summary and fmt not in FORMATS:
        raise UsageError(f"--summary is a short post in a text format ({', '.join(FORMATS)}), not {fmt}")
    module = load_module(module_path)
    if side is not None and module.sides and side not in module.sides:
        raise UsageError(f"--as {side!r}: the module's sides are {', '.join(sorted(module.sides))}")
    lp = replace(packs_io.pack_for(pack_name, module.name, module.version), options_given=options)
    game = load_save(save)
    notes = same_module(game, module, module_path)
    if game.is_log and fmt == "html":
        # The page draws the position a file's saved part holds: a log's opening, not the end judged here.
        raise UsageError(
            f"{save}: check --format html on a log would show the position the log opens with, not its "
            f"end, which check judges; use `vassal-adj verify {save} --format html` for a log"
        )
    position = resolve(module, game, lp)  # the maps placed and the pieces labelled once, for the rules and the page
    report = judge_position(
        position, notes, turn=turn, phase=phase, weather=weather, terrain=terrain, scenario=scenario, side=side
    )
    units = position.unit if lp.unitmap is not None else None  # each piece mapped once (position.py)
    if annotate_to is not None:
        # only for --annotate: a report needs none of it (startup time, cli/lazy.py)
        from vassal_adj.report.annotate import annotate

        # everyone opens the copy: whatever --as says, no hidden piece is cited in it
        hide = partial(withheld, units=units, side=None)
        markers = annotate(game, report.findings, annotate_to, module=module, form=save_form, withhold=hide)
        click.echo(f"{len(markers)} marker(s) written to {annotate_to}", err=True)
    # --errors-only leaves the information out of what is shown; the exit status and JSON counts stay whole.
    shown = replace(report, findings=tuple(f for f in report.findings if f.severity != Severity.INFO))
    if summary:
        click.echo(severity_colours(report_summary(report, STYLES[fmt], source=save), fmt))
    elif fmt == "html":
        # only for the page: it loads Pillow (startup time, cli/lazy.py)
        from vassal_adj.report.html import report_html

        click.echo(
            report_html(
                shown if errors_only else report,
                module=module,
                game=game,
                module_path=module_path,
                title=f"Referee check: {save}",
                source=save,
                position=position,
            )
        )
    elif fmt == "json":
        data = report_data(report, save=save, module=module_path)
        if errors_only:
            data["findings"] = report_data(shown)["findings"]
        _emit_json(data)
    else:
        render = {"markdown": report_markdown, "bbcode": report_bbcode}.get(fmt, report_text)
        click.echo(severity_colours(render(report, source=save, errors_only=errors_only), fmt))
    if report.has_errors:
        raise click.exceptions.Exit(1)


def judge_position(
    position: GamePosition,
    notes: list[str],
    *,
    turn: int | None = None,
    phase: str | None = None,
    weather: str | None = None,
    terrain: str | None = None,
    scenario: str | None = None,
    side: str | None = None,
    history: LogHistory | None = None,
) -> Report:
    """What `check` finds in the game of `position` (resolved for its module and pack), as `side`
    may read it; `notes`: what the reader should know of the files. `history`: of a log, its
    history as log_history gives it with these options (a batch's verify worked it out already)."""
    module, game, lp = position.module, position.game, position.pack
    given: dict[str, Any] = {"turn": turn, "phase": phase, "weather": weather, "terrain": terrain, "scenario": scenario}
    if game.is_log:
        # A log is judged at one moment, its end: the position, turn and phase the log leaves, with
        # the exits its steps showed (17.15). Its moves are `verify`'s. Only a log needs the replay
        # and its events (startup time, cli/lazy.py).
        from vassal_adj.pbem.log_state import log_history

        if history is None:
            history = log_history(module, game, lp, **given, position=position)
        end, context = history.end, history.context
    else:  # a save is its own one position, as log_history would give it
        end, context, _ = game_state(module, game, lp, **given, position=position)
    report = adjudicate(end, lp, replace(context, notes=(*notes, *context.notes)))
    units = position.unit if lp.unitmap is not None else None  # each piece mapped once (position.py)
    return _as_seen(report, position.pieces, units, side)


def _as_seen(report: Report, pieces: Sequence[Piece], units: UnitOf | None, side: str | None) -> Report:
    """The report as a player of `side` may read it: findings about pieces that side may not see
    left out, with a note; for the referee (no side), a note when hidden pieces are shown."""
    hidden = withheld(pieces, units, side)
    if side is None:
        if not hidden:
            return report
        note = (
            f"referee's view: {len(hidden)} hidden piece(s) (masked, invisible or hidden by the game's rules) "
            "are shown as they are; give --as SIDE for what one side may see"
        )
        return replace(report, notes=(*report.notes, note))
    kept = tuple(f for f in report.findings if not hidden & set(f.units))
    notes = view_notes(side, 0, len(report.findings) - len(kept))
    return replace(report, findings=kept, notes=(*report.notes, *notes))
