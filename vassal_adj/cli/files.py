"""The commands that describe files: inspect (a module), pieces and decode (a save or log)."""

from __future__ import annotations

import shutil

import click

from vassal_adj.cli import _emit_json, _guarded, main
from vassal_adj.cli.options import text_or_json
from vassal_adj.cli.output import output_option
from vassal_adj.load import load_module, load_save
from vassal_adj.parse.places import missing_boards, missing_maps
from vassal_adj.report.describe import (
    SCHEMA_VERSION,
    decode_lines,
    module_data,
    module_text,
    piece_data,
    pieces_text,
)


@main.command()
@click.argument("module", type=click.Path(dir_okay=False))
@text_or_json
@_guarded
@output_option
def inspect(module: str, as_json: bool) -> None:
    """Describe a module: name, version, maps, boards, grids and numbering, zones, counts.

    \b
    Example:
      vassal-adj inspect game.vmod
      vassal-adj inspect game.vmod --format json | jq '.maps[].boards[].grid'
    """
    data = module_data(load_module(module))
    if as_json:
        _emit_json(data)
    else:
        click.echo(module_text(data))


@main.command()
@click.argument("save", type=click.Path(dir_okay=False))
@click.option(
    "--module",
    "module_path",
    type=click.Path(dir_okay=False),
    help="The module (.vmod): adds hex labels and properties from its prototypes.",
)
@click.option(
    "--properties",
    is_flag=True,
    help="Also list each piece's properties, one name=value a line (always in --format json).",
)
@text_or_json
@_guarded
@output_option
def pieces(save: str, module_path: str | None, properties: bool, as_json: bool) -> None:
    """List every real piece of a saved game or log (stacks are not pieces).

    For a log, this is the position the log starts from. Pieces that are masked or
    invisible to some player are listed and marked: this is the referee's view. The table
    fits the terminal's width (80 columns when not on a terminal, or $COLUMNS): long values
    wrap within their column.

    \b
    Example:
      vassal-adj pieces setup.vsav --module game.vmod
    """
    game = load_save(save)
    module = load_module(module_path) if module_path else None
    found = game.pieces(module)
    warnings = missing_boards(game.root, module) + missing_maps(found, module) if module is not None else []
    rows = [piece_data(p, properties or as_json) for p in found]
    concealed = sum(1 for p in found if p.concealed)
    if as_json:
        _emit_json(
            {
                "schema_version": SCHEMA_VERSION,
                "file": save,
                "is_log": game.is_log,
                "referee_view": True,
                "pieces": rows,
                "warnings": warnings,
            }
        )
        return
    for line in warnings:  # first: under a long table they would scroll away unread
        click.echo(f"warning: {line}")
    click.echo(pieces_text(rows, properties, width=shutil.get_terminal_size().columns))
    click.echo(f"{len(rows)} piece(s)" + (" (the position the log starts from)" if game.is_log else ""))
    if concealed:
        click.echo(f"note: {concealed} masked or invisible piece(s) shown as the referee sees them")


@main.command()
@click.argument("save", type=click.Path(dir_okay=False))
@_guarded
@output_option
def decode(save: str) -> None:
    """Print the decoded command stream of a save or log, one command a line.

    Nesting is shown by indentation; TAB is shown as \u21e5 and an empty command as
    (empty). Player passwords are replaced by ********. This is the raw stream, the
    referee's view: pieces masked or invisible to a player are shown in full (a note on
    standard error says how many).

    \b
    Example:
      vassal-adj decode setup.vsav | less
    """
    game = load_save(save)
    click.echo("\n".join(decode_lines(game.nodes(), game.secrets())))
    concealed = sum(1 for p in game.pieces() if p.concealed)
    if concealed:
        click.echo(f"note: {concealed} masked or invisible piece(s) shown in full (referee view)", err=True)
