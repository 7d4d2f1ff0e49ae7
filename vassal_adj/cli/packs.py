"""`vassal-adj packs ...`: list and validate rule packs (registered on the group of cli/__init__.py).

One command group of the cli/ package; the same rules hold: this is the command line, the only
place that prints or exits, with the exit statuses of cli/__init__.py.
"""

from __future__ import annotations

from pathlib import Path

import click

from vassal_adj import pack_paths
from vassal_adj import packs as packs_io
from vassal_adj.cli import _emit_json, _guarded, _pick_map, main
from vassal_adj.cli.options import text_or_json
from vassal_adj.cli.output import output_option
from vassal_adj.load import load_module
from vassal_adj.model.maps import board_hex_layouts
from vassal_adj.report.describe import SCHEMA_VERSION

_modules_dir = click.option(
    "--modules-dir",
    type=click.Path(file_okay=False),
    help="List only the packs in this directory (default: every place packs are looked for, in order: "
    "--packs-dir, $VASSAL_ADJ_PACKS, your packs folder, the packs shipped with vassal-adj).",
)


@main.group()
def packs() -> None:
    """Rule packs: the rules of one game each, under modules/<game>/ (docs/adding-a-rule-pack.md).

    \b
    Example:
      vassal-adj packs list
      vassal-adj packs validate modules/_template
    """


@packs.command("list")
@_modules_dir
@text_or_json
@_guarded
@output_option
def list_command(modules_dir: str | None, as_json: bool) -> None:
    """List the rule packs found: id, name, aliases, the module they fit, their rules (with
    when each is in force, if not always), their scenarios, where each was found.

    A pack that cannot be read is listed with the reason. When two places hold a pack with the
    same id or alias, the one found first is used and the other listed as not used.

    \b
    Example:
      vassal-adj packs list --modules-dir modules
    """
    rows = packs_io.list_packs(modules_dir)
    if as_json:
        _emit_json(
            {
                "schema_version": SCHEMA_VERSION,
                "packs": [
                    {
                        "directory": str(r.directory),
                        "origin": r.origin,
                        "id": r.id,
                        "name": r.name,
                        "aliases": list(r.aliases),
                        "module": r.module,
                        "rulebook": r.rulebook,
                        "rules": list(r.rules),
                        "scenarios": list(r.scenarios),
                        "error": r.error,
                        "shadowed_by": r.shadowed_by or None,
                    }
                    for r in rows
                ],
            }
        )
        return
    if not rows:
        looked = pack_paths.where_looked() if modules_dir is None else modules_dir
        click.echo(f"no packs found; looked in {looked}; {pack_paths.how_to_add()}")
    for r in rows:
        if r.shadowed_by:
            click.echo(f"{r.directory.name}: not used: {r.shadowed_by} ({r.directory}, {r.origin})")
            continue
        if r.id is None:
            click.echo(f"{r.directory.name}: cannot be read: {r.error}")
            continue
        aliases = f" (also {', '.join(r.aliases)})" if r.aliases else ""
        click.echo(
            f"{r.id}: {r.name}{aliases}; fits module {r.module!r}; {len(r.rules)} rule(s); "
            f"in {r.directory} ({r.origin})" + (f"; {r.error}" if r.error else "")
        )
        for rule in r.rules:
            click.echo(f"  {rule}")
        for scenario in r.scenarios:
            click.echo(f"  scenario {scenario}")


@packs.command()
@click.argument("directory", type=click.Path(file_okay=False, exists=True))
@click.option(
    "--module",
    "module_path",
    type=click.Path(dir_okay=False),
    help="A module whose board numbering is used to check the terrain file's labels.",
)
@click.option("--map", "map_name", help="The map of that module (default: the first with a hex grid).")
@text_or_json
@_guarded
def validate(directory: str, module_path: str | None, map_name: str | None, as_json: bool) -> None:
    """Check a pack: pack.toml keys and parameters, units.toml, and (with --module) the
    terrain file's labels on that module's board.

    Exit status 1 when there is an error, 0 when there are only notes or nothing.

    \b
    Example:
      vassal-adj packs validate modules/_template --module game.vmod
    """
    layout = None
    if module_path is not None:
        layouts = [
            lay for b in _pick_map(load_module(module_path), map_name).boards.values() for lay in board_hex_layouts(b)
        ]
        layout = layouts[0] if layouts else None
    problems = packs_io.validate(Path(directory), layout=layout)
    errors = [p for p in problems if p.level == "error"]
    if as_json:
        _emit_json(
            {
                "schema_version": SCHEMA_VERSION,
                "directory": directory,
                "valid": not errors,
                "problems": [{"where": p.where, "level": p.level, "message": p.message} for p in problems],
            }
        )
    else:
        for p in problems:
            click.echo(str(p))
        click.echo(
            f"{directory}: {'valid' if not errors else f'{len(errors)} error(s)'}"
            + (f", {len(problems) - len(errors)} note(s)" if len(problems) > len(errors) else "")
        )
    if errors:
        raise click.exceptions.Exit(1)
