"""Options several commands share, defined once: `game_options` (check, vp), `pack_option`
(check, vp, verify), `state_options` and `post_options` (check, verify), `format_version_option`
(check, verify: the saves they write), `report_format_option` (check, verify, lint),
`text_or_json` (the describing commands), and the text `FORMATS`. ``-o/--output`` is cli/output.py's."""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, TypeVar

import click

if TYPE_CHECKING:
    from click.shell_completion import CompletionItem

__all__ = [
    "FORMATS",
    "format_version_option",
    "game_options",
    "option_option",
    "pack_option",
    "post_options",
    "report_format_option",
    "scenario_option",
    "state_options",
    "text_or_json",
]

F = TypeVar("F", bound=Callable[..., Any])


def _pack_names(ctx: click.Context, param: click.Parameter, incomplete: str) -> list[CompletionItem]:
    """Shell completion of ``--pack``: the ids of the packs found (those in use, not shadowed).
    Aliases are left out: they hold spaces, which shells split."""
    # only when completing: it reads the packs' TOML, and imports no rule engine
    from click.shell_completion import CompletionItem

    from vassal_adj import packs as packs_io

    ids = sorted({r.id for r in packs_io.list_packs() if r.id is not None and not r.shadowed_by})
    return [CompletionItem(i) for i in ids if i.startswith(incomplete)]


def pack_option(func: F) -> F:
    """``--pack``, by default the one pack that fits the module; the shell completes pack ids."""
    return click.option(
        "--pack",
        "pack_name",
        shell_complete=_pack_names,
        help="The rule pack: an id or alias (`packs list`), or a pack directory. Default: the "
        "one pack whose [pack.module] fits the module.",
    )(func)


def game_options(func: F) -> F:
    """``--module`` (required) and `pack_option`: the options of the commands that judge a game
    with a rule pack (check, vp)."""
    return click.option(
        "--module",
        "module_path",
        required=True,
        type=click.Path(dir_okay=False),
        help="The module (.vmod) the game is played with.",
    )(pack_option(func))


def scenario_option(func: F) -> F:
    """``--scenario``: the pack's scenario (``[scenarios.<id>]``) when the save does not show it."""
    return click.option(
        "--scenario",
        help="The scenario, by its id in the pack (`packs list`). Default: the one the "
        "save's global property or turn shows.",
    )(func)


def option_option(func: F) -> F:
    """``--option``: an optional rule of the pack (``[options.<id>]``) the game plays with."""
    return click.option(
        "--option",
        "options",
        multiple=True,
        metavar="ID",
        help="An optional rule the game plays with, by its id in the pack (`packs list`); repeatable. "
        "Also chosen: those whose global property the save holds.",
    )(func)


_STATE_OPTIONS = [
    scenario_option,
    click.option(
        "--terrain",
        type=click.Path(dir_okay=False, exists=True),
        help="A terrain file to use instead of the pack's (e.g. for the real module's map).",
    ),
    click.option("--turn", type=int, help="The game turn (default: the turn tracker the pack names)."),
    click.option("--phase", help="The phase, e.g. axis-movement (default: the turn tracker)."),
    click.option("--weather", help="The weather, e.g. poor (default: the pack's weather table for the turn)."),
]


def state_options(func: F) -> F:
    """``--scenario``, ``--terrain``, ``--turn``, ``--phase`` and ``--weather``: what the pack
    would otherwise read from the save, the pack's terrain file and the game's turn tracker."""
    for option in reversed(_STATE_OPTIONS):
        func = option(func)
    return func


# The text formats every judging command writes; check and verify add json and html, vp json.
FORMATS = ["text", "markdown", "bbcode"]


def report_format_option(html: str) -> Callable[[F], F]:
    """``--format`` text|markdown|bbcode|json|html for the commands whose report may be a page
    (check, verify, lint), given as ``fmt``; `html` says what that page shows, for the help."""
    return click.option(
        "--format",
        "fmt",
        type=click.Choice([*FORMATS, "json", "html"]),
        default="text",
        show_default=True,
        help=f"Output format (bbcode: a BoardGameGeek post; html: {html}).",
    )


_POST_OPTIONS = [
    click.option(
        "--summary",
        is_flag=True,
        help="A short post (at most 30 lines, under 2,000 characters): the verdict and the dice. Text formats only.",
    ),
    click.option(
        "--errors-only", is_flag=True, help="Only the verdict: the errors and warnings, no finding for information."
    ),
]


def post_options(func: F) -> F:
    """``--summary`` and ``--errors-only``: how much of the report to post (check, verify)."""
    for option in reversed(_POST_OPTIONS):
        func = option(func)
    return func


# --format-version: the VASSAL version whose savedGame form a written save takes (the vcsk and vobs
# forms of codec/obfuscation.py, spec 3 and 3.1); "read" keeps the form of the file read.
_SAVE_FORMS = {"read": None, "3.7": "vcsk", "3.8": "vobs"}


def format_version_option(func: F) -> F:
    """``--format-version read|3.7|3.8`` for the commands that write a save (``--annotate``); the
    function is given ``save_form``: None (as read), "vcsk" or "vobs" (`SavedGame.write`'s form)."""
    return click.option(
        "--format-version",
        "save_form",
        type=click.Choice(list(_SAVE_FORMS)),
        default="read",
        show_default=True,
        callback=lambda ctx, param, value: _SAVE_FORMS[value],
        help="The form of the save --annotate writes: read = the form of the file read; 3.7 = the hex form "
        "('!VCSK') every VASSAL from 3.0 to 3.7 writes, which every version opens; 3.8 = the binary form "
        "('VOBS', half the size) of VASSAL 3.8, which older versions cannot open.",
    )(func)


def text_or_json(func: F) -> F:
    """``--format text|json``, the one output option of every command (issue 10), for the
    commands that describe files and places; ``--json`` is kept as a hidden alias of
    ``--format json``. The function is given ``as_json``."""

    @functools.wraps(func)
    def run(*args: Any, fmt: str, json_alias: bool, **kwargs: Any) -> Any:
        return func(*args, as_json=json_alias or fmt == "json", **kwargs)

    run = click.option("--json", "json_alias", is_flag=True, hidden=True, help="The same as --format json.")(run)
    return click.option(
        "--format",
        "fmt",
        type=click.Choice(["text", "json"]),
        default="text",
        show_default=True,
        help="Output format (json: with schema_version).",
    )(run)  # type: ignore[return-value]
