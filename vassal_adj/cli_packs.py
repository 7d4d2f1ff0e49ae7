"""`vassal-adj packs ...`: list and validate rule packs (cli.py registers the group).

Kept apart from cli.py only for size; the same rules hold: this is the command line, the only
place that prints or exits, with the exit statuses of cli.py.
"""

from __future__ import annotations

from pathlib import Path

import click

from vassal_adj import packs as packs_io
from vassal_adj.cli import _emit_json, _guarded, _pick_map, main
from vassal_adj.load import load_module
from vassal_adj.report.describe import SCHEMA_VERSION

_modules_dir = click.option(
    "--modules-dir", type=click.Path(file_okay=False),
    help="Where packs live (default: $VASSAL_ADJ_MODULES, else ./modules).")


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
@click.option("--json", "as_json", is_flag=True, help="Print JSON (with schema_version).")
@_guarded
def list_command(modules_dir: str | None, as_json: bool) -> None:
    """List the rule packs found: id, name, aliases, the module they fit, their rules.

    A pack that cannot be read is listed with the reason.

    \b
    Example:
      vassal-adj packs list --modules-dir modules
    """
    rows = packs_io.list_packs(modules_dir)
    if as_json:
        _emit_json({"schema_version": SCHEMA_VERSION, "packs": [
            {"directory": str(r.directory), "id": r.id, "name": r.name, "aliases": list(r.aliases),
             "module": r.module, "rulebook": r.rulebook, "rules": list(r.rules), "error": r.error}
            for r in rows]})
        return
    if not rows:
        click.echo(f"no packs in {packs_io.default_modules_dir() if modules_dir is None else modules_dir}")
    for r in rows:
        if r.error:
            click.echo(f"{r.directory.name}: cannot be read: {r.error}")
            continue
        aliases = f" (also {', '.join(r.aliases)})" if r.aliases else ""
        click.echo(f"{r.id}: {r.name}{aliases}; fits module {r.module!r}; {len(r.rules)} rule(s)")
        for rule in r.rules:
            click.echo(f"  {rule}")


@packs.command()
@click.argument("directory", type=click.Path(file_okay=False, exists=True))
@click.option("--module", "module_path", type=click.Path(dir_okay=False),
              help="A module whose board numbering is used to check the terrain file's labels.")
@click.option("--map", "map_name", help="The map of that module (default: the first with a hex grid).")
@click.option("--json", "as_json", is_flag=True, help="Print JSON (with schema_version).")
@_guarded
def validate(directory: str, module_path: str | None, map_name: str | None, as_json: bool) -> None:
    """Check a pack: pack.toml keys and parameters, units.toml, and (with --module) the
    terrain file's labels on that module's board.

    Exit status 1 when there is an error, 0 when there are only notes or nothing.

    \b
    Example:
      vassal-adj packs validate modules/_template \\
          --module modules/kasserine/example/Kasserine.vmod
    """
    layout = None
    if module_path is not None:
        layouts = [lay for b in _pick_map(load_module(module_path), map_name).boards.values()
                   for lay in b.hex_layouts()]
        layout = layouts[0] if layouts else None
    problems = packs_io.validate(Path(directory), layout=layout)
    errors = [p for p in problems if p.level == "error"]
    if as_json:
        _emit_json({"schema_version": SCHEMA_VERSION, "directory": directory, "valid": not errors,
                    "problems": [{"where": p.where, "level": p.level, "message": p.message} for p in problems]})
    else:
        for p in problems:
            click.echo(str(p))
        click.echo(f"{directory}: {'valid' if not errors else f'{len(errors)} error(s)'}"
                   + (f", {len(problems) - len(errors)} note(s)" if len(problems) > len(errors) else ""))
    if errors:
        raise click.exceptions.Exit(1)
