"""The root of the command line (the `vassal-adj` group of cli/__init__.py): what holds for every command.

- Output is UTF-8 whatever the console's locale. VASSAL's files hold arrows and accented names
  (``decode`` shows TAB as U+21E5); on a Windows ``cp1252`` console, or any redirect in a
  non-UTF-8 locale, printing them raised UnicodeEncodeError (exit status 3).
- ``--packs-dir DIR`` adds a directory of rule packs, searched first (pack_paths.py). The root
  group takes it (``vassal-adj --packs-dir DIR check ...``), and so does every command that
  looks packs up (``check ... --packs-dir DIR``): this group gives it to them, so the commands'
  own code never handles it.
- Its help is as wide as the terminal, found without importing shutil (`_terminal_columns`).
"""

from __future__ import annotations

import io
import os
import sys
from typing import Any

import click
from click import formatting

from vassal_adj import pack_paths

__all__ = ["RootGroup", "give_packs_dir", "utf8_streams"]

# A command whose parameters include one of these looks packs up (--pack) or lists them.
_PACK_PARAMS = {"pack_name", "modules_dir"}


def utf8_streams() -> None:
    """Write standard output and error as UTF-8, replacing what UTF-8 cannot hold (lone surrogates
    of undecodable file names) by backslash escapes rather than failing."""
    for stream in (sys.stdout, sys.stderr):
        if isinstance(stream, io.TextIOWrapper):
            stream.reconfigure(encoding="utf-8", errors="backslashreplace")


def _add_packs_dirs(ctx: click.Context, param: click.Parameter, value: tuple[str, ...] | None) -> None:
    pack_paths.set_packs_dirs((*pack_paths.packs_dirs(), *(value or ())))


def _packs_dir_option() -> click.Option:
    return click.Option(
        ["--packs-dir"],
        multiple=True,
        expose_value=False,
        callback=_add_packs_dirs,
        type=click.Path(file_okay=False),
        metavar="DIR",
        help="Look for rule packs (one sub-directory each, holding pack.toml) in DIR first, then "
        f"in ${pack_paths.ENV_PACKS}, your packs folder ({pack_paths.user_packs_path()}) and "
        "the packs shipped with vassal-adj. Repeatable.",
    )


def _commands(group: click.Group) -> list[click.Command]:
    out: list[click.Command] = []
    for cmd in group.commands.values():
        out += _commands(cmd) if isinstance(cmd, click.Group) else [cmd]
    return out


def give_packs_dir(cmd: click.Command) -> None:
    """Add ``--packs-dir`` to `cmd` if it looks packs up (and has no such option yet); a group's
    commands are given it too."""
    for c in _commands(cmd) if isinstance(cmd, click.Group) else [cmd]:
        names = {p.name for p in c.params}
        if names & _PACK_PARAMS and "packs_dir" not in names:
            c.params.append(_packs_dir_option())


def _terminal_columns() -> int:
    """``shutil.get_terminal_size().columns``, its steps for the columns alone: click's help
    formatter imports shutil to ask it, and shutil imports zlib, bz2, lzma and fnmatch, 2 ms of
    `vassal-adj --help` (a tenth of what it adds to Python's start, issue 10)."""
    try:
        columns = int(os.environ["COLUMNS"])
    except (KeyError, ValueError):
        columns = 0
    if columns > 0:
        return columns
    try:
        size = os.get_terminal_size(sys.__stdout__.fileno())  # type: ignore[union-attr]
    except (AttributeError, ValueError, OSError):
        return 80
    return size.columns or 80


class _HelpFormatter(click.HelpFormatter):
    """click's formatter, the width it would work out given to it (click's tests' fixed width kept)."""

    def __init__(self, indent_increment: int = 2, width: int | None = None, max_width: int | None = None) -> None:
        if width is None and formatting.FORCED_WIDTH is None:
            width = max(min(_terminal_columns(), 80 if max_width is None else max_width) - 2, 50)
        super().__init__(indent_increment, width, max_width)


class _Context(click.Context):
    formatter_class = _HelpFormatter


class RootGroup(click.Group):
    """The `vassal-adj` group: UTF-8 output, and ``--packs-dir`` on itself and on every command
    that looks packs up, for the length of one run."""

    context_class = _Context

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.params.append(_packs_dir_option())

    def main(self, *args: Any, **kwargs: Any) -> Any:
        utf8_streams()  # before anything is printed, --help and --version included
        for cmd in _commands(self):  # commands register on import, after the group is made
            give_packs_dir(cmd)
        pack_paths.set_packs_dirs(())
        try:
            return super().main(*args, **kwargs)
        finally:  # the directories belong to this run, not to later calls in the same process
            pack_paths.set_packs_dirs(())
