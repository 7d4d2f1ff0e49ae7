"""The command group that imports a command's module only when that command runs.

What a user waits for on a short command is mostly Python starting, and most of that is
importing: `check` needs the rule engine, `verify` the replay, `terrain` numpy and Pillow.
`vassal-adj --help` needs none of them, so every command lives in a module of cli/, is
listed here by name, module and one-line summary, and is imported by `get_command` on demand.
The summary is the first sentence of the command's docstring; tests/test_startup.py checks
that the listing `--help` prints is the one the loaded commands would print.
"""

from __future__ import annotations

import gc
import importlib

import click

from vassal_adj.cli.root import RootGroup, give_packs_dir

# name -> (module that registers the command on `main` when imported, first sentence of its help)
LAZY_COMMANDS: dict[str, tuple[str, str]] = {
    "batch": (
        "vassal_adj.cli.batch",
        "Judge every game of a tournament folder and write a summary table with evidence.",
    ),
    "check": ("vassal_adj.cli.check", "Check a saved game against a rule pack and print every finding with its rule."),
    "decode": ("vassal_adj.cli.files", "Print the decoded command stream of a save or log, one command a line."),
    "grid": ("vassal_adj.cli.grid", "Describe a map's grids in words: how to type labels, their range, how they run."),
    "hex": ("vassal_adj.cli.grid", "Print a hex's centre (map pixel) and its neighbours with their directions."),
    "inspect": (
        "vassal_adj.cli.files",
        "Describe a module: name, version, maps, boards, grids and numbering, zones, counts.",
    ),
    "lint": (
        "vassal_adj.cli.lint",
        "Check a module and its set-ups for defects before release, each with where, why and a fix.",
    ),
    "packs": (
        "vassal_adj.cli.packs",
        "Rule packs: the rules of one game each, under modules/<game>/ (docs/adding-a-rule-pack.md).",
    ),
    "pieces": ("vassal_adj.cli.files", "List every real piece of a saved game or log (stacks are not pieces)."),
    "terrain": (
        "vassal_adj.cli.terrain",
        "Terrain files of rule packs (docs/terrain.md): import, sample from the picture, paint, compare.",
    ),
    "verify": (
        "vassal_adj.cli.verify",
        "Replay a PBEM turn: every move, arrival, removal, change, chat line and die roll.",
    ),
    "vp": ("vassal_adj.cli.vp", "Count the victory points of a game from its saves or logs, given oldest first."),
    "where": ("vassal_adj.cli.grid", "Print the label VASSAL shows for a map pixel, with its board and zone."),
}


# The sections of `--help`, in order (issue 10): what a player, an explorer of files and a pack's
# author use. A command in no section (one added later without a place here) is listed under "Other".
SECTIONS: dict[str, tuple[str, ...]] = {
    "Playing": ("check", "verify", "vp"),
    "Refereeing": ("batch",),
    "Exploring": ("inspect", "pieces", "decode"),
    "Authoring": ("lint", "grid", "where", "hex", "terrain", "packs"),
}


class LazyGroup(RootGroup):
    """The `vassal-adj` group (RootGroup), whose LAZY_COMMANDS are imported when first asked for
    by name; a command imported so is given ``--packs-dir`` as RootGroup gives it to the others."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted(set(self.commands) | set(LAZY_COMMANDS))

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        if cmd_name in LAZY_COMMANDS and cmd_name not in self.commands:
            # the command's modules create their dataclasses with reused code (dataclass_code.py);
            # imported here, with the command: `--help` needs neither
            from vassal_adj.dataclass_code import install

            # What a command imports lives as long as the process and holds no garbage, but the
            # young generation fills over and over while its thousand classes and functions are
            # made: the collector pauses meanwhile, and `gc.freeze` sets them apart, so that no
            # later collection walks them again, nor the one at exit (issue 10: 15 ms of `check`).
            collecting = gc.isenabled()
            gc.disable()
            try:
                install()
                importlib.import_module(LAZY_COMMANDS[cmd_name][0])  # its decorators add it to self.commands
            finally:
                gc.freeze()
                if collecting:
                    gc.enable()
            give_packs_dir(self.commands[cmd_name])
        return super().get_command(ctx, cmd_name)

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        """The listing of `--help`, from the table for commands not imported yet (importing
        them all to print one line each would cost what the lazy group saves)."""
        names = [n for n in self.list_commands(ctx) if n in LAZY_COMMANDS or not self.commands[n].hidden]
        if not names:
            return
        limit = formatter.width - 6 - max(len(n) for n in names)

        def row(name: str) -> tuple[str, str]:
            # a stand-in with the table's summary shortens it as the command itself would
            cmd = self.commands.get(name) or click.Command(name, help=LAZY_COMMANDS[name][1])
            return name, cmd.get_short_help_str(limit)

        placed = {n for members in SECTIONS.values() for n in members}
        sections = [*SECTIONS.items(), ("Other", tuple(n for n in names if n not in placed))]
        for title, members in sections:
            rows = [row(n) for n in members if n in names]
            if rows:
                with formatter.section(title):
                    formatter.write_dl(rows)
