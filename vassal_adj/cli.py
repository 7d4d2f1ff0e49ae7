"""The `vassal-adj` command line: the only place that prints or exits.

Exit status: 0 no finding of error severity; 1 findings of error severity; 2 unreadable
input, bad pack or bad usage; 3 an internal error (a bug).
"""

from __future__ import annotations

import functools
import json
import os
import sys
import traceback
from collections.abc import Callable
from typing import Any, TypeVar

import click

from vassal_adj import __version__
from vassal_adj.errors import VassalAdjError
from vassal_adj.load import load_module, load_save
from vassal_adj.parse.builder import game_pieces
from vassal_adj.report.describe import (
    SCHEMA_VERSION,
    decode_lines,
    module_data,
    module_text,
    piece_data,
    pieces_text,
)

F = TypeVar("F", bound=Callable[..., Any])
ISSUES_URL = "the project's issue tracker"


def _guarded(func: F) -> F:
    """Turn tool errors into exit status 2 and bugs into exit status 3 with a short apology."""

    @functools.wraps(func)
    def run(*args: Any, **kwargs: Any) -> Any:
        ctx = click.get_current_context()
        try:
            return func(*args, **kwargs)
        except VassalAdjError as e:
            click.echo(f"error: {e}", err=True)
            ctx.exit(2)
        except (click.exceptions.Exit, click.ClickException, click.Abort):
            raise
        except BrokenPipeError:  # the reader went away (| head): stop quietly
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
            ctx.exit(0)
        except Exception as e:  # a bug: say so in one line, the traceback only on --debug
            if ctx.find_root().params.get("debug"):
                traceback.print_exc()
            else:
                click.echo(
                    f"internal error ({type(e).__name__}: {e}). Sorry: this is a bug in vassal-adj. "
                    f"Run again with --debug and report the traceback to {ISSUES_URL}.",
                    err=True,
                )
            ctx.exit(3)

    return run  # type: ignore[return-value]


def _emit_json(data: Any) -> None:
    click.echo(json.dumps(data, indent=2, sort_keys=True, ensure_ascii=False))


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="vassal-adj")
@click.option("--debug", is_flag=True, help="Show the full traceback of an internal error.")
def main(debug: bool) -> None:
    """Read VASSAL modules, saved games and logs, and check them against a game's rules.

    Files are recognised by their content, not their extension. Input files are never
    modified; anything written goes to a new file.

    \b
    Exit status: 0 no error findings, 1 error findings, 2 unreadable input or bad usage,
    3 internal error.

    \b
    Examples:
      vassal-adj inspect modules/kasserine/example/Kasserine.vmod
      vassal-adj pieces modules/kasserine/example/setup.vsav --module modules/kasserine/example/Kasserine.vmod
      vassal-adj decode modules/kasserine/example/setup.vsav
    """


@main.command()
@click.argument("module", type=click.Path(dir_okay=False))
@click.option("--json", "as_json", is_flag=True, help="Print JSON (with schema_version) instead of text.")
@_guarded
def inspect(module: str, as_json: bool) -> None:
    """Describe a module: name, version, maps, boards, grids and numbering, zones, counts.

    \b
    Example:
      vassal-adj inspect modules/kasserine/example/Kasserine.vmod
      vassal-adj inspect game.vmod --json | jq '.maps[].boards[].grid'
    """
    data = module_data(load_module(module))
    if as_json:
        _emit_json(data)
    else:
        click.echo(module_text(data))


@main.command()
@click.argument("save", type=click.Path(dir_okay=False))
@click.option("--module", "module_path", type=click.Path(dir_okay=False),
              help="The module (.vmod): adds hex labels and properties from its prototypes.")
@click.option("--properties", is_flag=True, help="Also list each piece's properties (always in --json).")
@click.option("--json", "as_json", is_flag=True, help="Print JSON (with schema_version) instead of text.")
@_guarded
def pieces(save: str, module_path: str | None, properties: bool, as_json: bool) -> None:
    """List every real piece of a saved game or log (stacks are not pieces).

    For a log, this is the position the log starts from. Pieces that are masked or
    invisible to some player are listed and marked: this is the referee's view.

    \b
    Example:
      vassal-adj pieces modules/kasserine/example/setup.vsav \\
          --module modules/kasserine/example/Kasserine.vmod
    """
    game = load_save(save)
    module = load_module(module_path) if module_path else None
    found = game_pieces(game.root, module, game.path)
    rows = [piece_data(p, properties or as_json) for p in found]
    concealed = sum(1 for p in found if p.concealed)
    if as_json:
        _emit_json({"schema_version": SCHEMA_VERSION, "file": save, "is_log": game.is_log,
                    "referee_view": True, "pieces": rows})
        return
    click.echo(pieces_text(rows, properties))
    click.echo(f"{len(rows)} piece(s)" + (" (the position the log starts from)" if game.is_log else ""))
    if concealed:
        click.echo(f"note: {concealed} masked or invisible piece(s) shown as the referee sees them")


@main.command()
@click.argument("save", type=click.Path(dir_okay=False))
@_guarded
def decode(save: str) -> None:
    """Print the decoded command stream of a save or log, one command a line.

    Nesting is shown by indentation; TAB is shown as \u21e5 and an empty command as
    (empty). Player passwords are replaced by ********.

    \b
    Example:
      vassal-adj decode modules/kasserine/example/setup.vsav | less
    """
    game = load_save(save)
    click.echo("\n".join(decode_lines(game.nodes(), game.secrets())))
