"""Options several commands share, defined once: `game_options` (check, vp), `pack_option`
(check, vp, verify), `state_options` and `post_options` (check, verify), and the text `FORMATS`."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

import click

__all__ = ["FORMATS", "game_options", "pack_option", "post_options", "state_options"]

F = TypeVar("F", bound=Callable[..., Any])


def pack_option(func: F) -> F:
    """``--pack``, by default the one pack that fits the module."""
    return click.option("--pack", "pack_name",
                        help="The rule pack: an id or alias (`packs list`), or a pack directory. Default: the "
                             "one pack whose [pack.module] fits the module.")(func)


def game_options(func: F) -> F:
    """``--module`` (required) and `pack_option`: the options of the commands that judge a game
    with a rule pack (check, vp)."""
    return click.option("--module", "module_path", required=True, type=click.Path(dir_okay=False),
                        help="The module (.vmod) the game is played with.")(pack_option(func))


_STATE_OPTIONS = [
    click.option("--terrain", type=click.Path(dir_okay=False, exists=True),
                 help="A terrain file to use instead of the pack's (e.g. for the real module's map)."),
    click.option("--turn", type=int, help="The game turn (default: the turn tracker the pack names)."),
    click.option("--phase", help="The phase, e.g. axis-movement (default: the turn tracker)."),
    click.option("--weather", help="The weather, e.g. poor (default: the pack's weather table for the turn)."),
]


def state_options(func: F) -> F:
    """``--terrain``, ``--turn``, ``--phase`` and ``--weather``: what the pack would otherwise
    read from the pack's terrain file and the game's turn tracker."""
    for option in reversed(_STATE_OPTIONS):
        func = option(func)
    return func


# The text formats every judging command writes; check and verify add json and html, vp json.
FORMATS = ["text", "markdown", "bbcode"]

_POST_OPTIONS = [
    click.option("--summary", is_flag=True,
                 help="A short post (at most 30 lines, under 2,000 characters): the verdict and the dice. "
                      "Text formats only."),
    click.option("--errors-only", is_flag=True,
                 help="Only the verdict: the errors and warnings, no finding for information."),
]


def post_options(func: F) -> F:
    """``--summary`` and ``--errors-only``: how much of the report to post (check, verify)."""
    for option in reversed(_POST_OPTIONS):
        func = option(func)
    return func
