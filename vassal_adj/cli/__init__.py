"""The `vassal-adj` command line: the only place that prints or exits.

Exit status: 0 no finding of error severity; 1 findings of error severity; 2 unreadable
input, bad pack or bad usage; 3 an internal error (a bug).
"""

from __future__ import annotations

import atexit
import functools
import gc
import os
import sys
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, TypeVar

import click

from vassal_adj import __version__
from vassal_adj.cli.lazy import LazyGroup

if TYPE_CHECKING:
    from vassal_adj.model.module import MapDef, Module

F = TypeVar("F", bound=Callable[..., Any])
ISSUES_URL = "the project's issue tracker"

# At exit Python looks for garbage among every object of the process, more than once: 6 ms of
# `vassal-adj --help`, 15 of `check` (issue 10). A command line ending has nothing to find there
# (what it wrote is closed), so its objects are set apart first, as the last of its exit handlers.
atexit.register(gc.freeze)


def _guarded(func: F) -> F:
    """Turn tool errors into exit status 2 and bugs into exit status 3 with a short apology."""

    @functools.wraps(func)
    def run(*args: Any, **kwargs: Any) -> Any:
        # imported by a command that runs, not by the group: `--help` makes no dataclass (issue 10)
        from vassal_adj.errors import VassalAdjError

        ctx = click.get_current_context()
        try:
            return func(*args, **kwargs)
        except VassalAdjError as e:
            from vassal_adj.cli.error_secrets import safe_message  # here: only a run that fails needs it

            click.echo(f"error: {safe_message(e)}", err=True)
            ctx.exit(2)
        except (click.exceptions.Exit, click.ClickException, click.Abort):
            raise
        except BrokenPipeError:  # the reader went away (| head): stop quietly
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
            ctx.exit(0)
        except Exception as e:  # a bug: say so in one line, the traceback only on --debug
            if ctx.find_root().params.get("debug"):
                import traceback

                traceback.print_exc()
            else:
                click.echo(
                    f"internal error ({type(e).__name__}: {e}). Sorry: this is a bug in vassal-adj. "
                    f"Run again with --debug and report the traceback to {ISSUES_URL}.",
                    err=True,
                )
            ctx.exit(3)

    return run  # type: ignore[return-value]


def require_new_file(path: str, option: str) -> None:
    """Outputs go to a new file: refuse, before any work, one that exists (exit 2)."""
    from vassal_adj.errors import UsageError, Where

    if os.path.exists(path):
        raise UsageError(
            f"{option} {path}: the file exists; outputs go to a new file, never over one", Where(path=path)
        )


def _emit_json(data: Any) -> None:
    import json  # here: `--help` and most commands never print JSON (startup time)

    click.echo(json.dumps(data, indent=2, sort_keys=True, ensure_ascii=False))


@click.group(cls=LazyGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="vassal-adj", message="%(prog)s %(version)s")
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
      vassal-adj check turn3.vsav --module game.vmod
      vassal-adj verify turn4.vlog --module game.vmod
      vassal-adj verify turn3.vlog --module game.vmod --format bbcode --summary -o post.txt
      vassal-adj pieces setup.vsav --module game.vmod
      vassal-adj inspect game.vmod

    \b
    Shell completion (commands, options, pack names), e.g. for bash in ~/.bashrc:
      eval "$(_VASSAL_ADJ_COMPLETE=bash_source vassal-adj)"
    (zsh: zsh_source, fish: fish_source; see the README).
    """


# The commands live in the package's modules, imported when run (lazy.py): files (inspect, pieces,
# decode), grid (grid, where, hex), check, verify, vp, packs, terrain.


def _pick_map(mod: Module, name: str | None) -> MapDef:
    """The map called `name` (or with that id); by default the first map with a hex grid."""
    # imported when called: the group loads no model at start-up (vassal-adj --help stays fast)
    from vassal_adj.errors import UsageError
    from vassal_adj.model.geometry.maps import board_hex_layouts

    if name is not None:
        found = mod.map_by_id(name)
        if found is None:
            have = ", ".join(repr(n) for n in mod.maps) or "none"
            raise UsageError(f"no map {name!r} in module {mod.name!r}; maps: {have}")
        return found
    maps = list(mod.maps.values())
    for test in (lambda b: bool(board_hex_layouts(b)), lambda b: b.grid is not None):
        found = next((m for m in maps if any(test(b) for b in m.boards.values())), None)
        if found is not None:
            return found
    raise UsageError(
        f"module {mod.name!r} has no map with a grid (maps: {', '.join(repr(n) for n in mod.maps) or 'none'})"
    )
