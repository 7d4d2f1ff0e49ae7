"""`vassal-adj lint MODULE.vmod [--pack P] [--setup SAVE ...]`: what is broken in a module and the
set-ups it ships, for module authors (lint/). Exit status 1 when a finding is an error, 0
otherwise, 2 when the module, a set-up file or the pack cannot be read.
"""

from __future__ import annotations

import click

from vassal_adj import packs as packs_io
from vassal_adj.cli import _emit_json, _guarded, main
from vassal_adj.cli.options import pack_option, report_format_option
from vassal_adj.cli.output import output_option, severity_colours
from vassal_adj.lint import lint as run_lint
from vassal_adj.lint import read_lint_input
from vassal_adj.report.lint_report import lint_bbcode, lint_data, lint_html, lint_markdown, lint_text


@main.command()
@click.argument("module_path", metavar="MODULE", type=click.Path(dir_okay=False))
@pack_option
@click.option(
    "--setup",
    "setup_paths",
    multiple=True,
    type=click.Path(dir_okay=False),
    help="A set-up save to check besides the module's own predefined set-ups. Repeatable.",
)
@report_format_option("a page to save and open")
@_guarded
@output_option
def lint(module_path: str, pack_name: str | None, setup_paths: tuple[str, ...], fmt: str) -> None:
    """Check a module and its set-ups for defects before release, each with where, why and a fix.

    Structure: images missing from the archive; prototypes used but not defined, or never used;
    duplicate piece-slot ids; boards referred to but missing; grids giving two hexes one label;
    zones outside their board; pieces without names; traits and buildFile classes VASSAL cannot
    read. Set-ups shipped in the module (and --setup files): pieces Refresh Counters would change,
    boards and maps the module lacks, a seat taken or a password carried (never printed).
    With --pack: the pack's labels on the module's grid, pieces it cannot map, units too many,
    and its set-up and stacking rules on every set-up.

    \b
    Example:
      vassal-adj lint game.vmod
      vassal-adj lint game.vmod --pack mygame --setup scenario2.vsav --format markdown
    """
    li = read_lint_input(module_path, setup_paths)
    lp = packs_io.find_pack(pack_name) if pack_name is not None else None
    report = run_lint(li, lp)
    if fmt == "json":
        _emit_json(lint_data(report))
    elif fmt == "html":
        click.echo(lint_html(report))
    else:
        render = {"markdown": lint_markdown, "bbcode": lint_bbcode}.get(fmt, lint_text)
        click.echo(severity_colours(render(report), fmt))
    if report.has_errors:
        raise click.exceptions.Exit(1)
