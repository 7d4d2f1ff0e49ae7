"""`vassal-adj packs ...`: list and validate rule packs (registered on the group of cli/__init__.py).

One command group of the cli/ package; the same rules hold: this is the command line, the only
place that prints or exits, with the exit statuses of cli/__init__.py.
"""

from __future__ import annotations

import json
import textwrap
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import click

from vassal_adj import pack_paths
from vassal_adj import packs as packs_io
from vassal_adj.cli import _emit_json, _guarded, _pick_map, main
from vassal_adj.cli.options import text_or_json
from vassal_adj.cli.output import output_option
from vassal_adj.errors import UsageError
from vassal_adj.load import load_module
from vassal_adj.model.geometry.maps import board_hex_layouts
from vassal_adj.report.describe import SCHEMA_VERSION
from vassal_adj.rules.registry import load_builtin_rules

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
@click.option(
    "--impls",
    is_flag=True,
    help="List the rule implementations a pack's [rules.<name>] can name (impl = ...), each with its "
    "parameters: type, default, whether required, what it means.",
)
@click.option(
    "--pack",
    "pack_name",
    help="With --impls: load this pack (an id or alias, or a pack directory) so the implementations its "
    "hooks.py registers are listed too.",
)
@text_or_json
@_guarded
@output_option
def list_command(modules_dir: str | None, impls: bool, pack_name: str | None, as_json: bool) -> None:
    """List the rule packs found: id, name, aliases, the module they fit, their rules (with
    when each is in force, if not always), their scenarios, where each was found.

    A pack that cannot be read is listed with the reason. When two places hold a pack with the
    same id or alias, the one found first is used and the other listed as not used.

    With --impls, list instead every rule implementation with its parameters (what a pack.toml
    may write in a [rules.<name>] table).

    \b
    Example:
      vassal-adj packs list --modules-dir modules
      vassal-adj packs list --impls --pack modules/mygame
    """
    if pack_name is not None and not impls:
        raise UsageError("--pack is used with --impls (to list the implementations its hooks.py registers)")
    if impls:
        if pack_name is not None:
            packs_io.find_pack(pack_name, modules_dir)  # loading it runs its hooks.py, which registers
        _list_impls(_implementations(), as_json)
        return
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
                        "options": list(r.options),
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
        for option in r.options:
            click.echo(f"  optional rule {option} (--option)")


def _implementations() -> list[dict[str, Any]]:
    """Every registered implementation (`packs.implementations()`, in its order) with the Python module
    defining it, `log` always given and each parameter's `required`; plain JSON values throughout.

    The built-ins, and those the hooks.py of every pack loaded so far registered."""
    out = []
    for listed, impl in zip(packs_io.implementations(), load_builtin_rules().catalog(), strict=True):
        row: dict[str, Any] = {**listed, "module": impl.func.__module__, "log": impl.log}
        row["params"] = {k: {**p, "required": impl.params[k].required} for k, p in row["params"].items()}
        out.append(_plain(row))
    return out


def _plain(value: Any) -> Any:
    """A registry value as JSON holds it: the read-only tables and tuples it freezes made dicts and lists."""
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    if isinstance(value, Mapping):
        return {k: _plain(v) for k, v in value.items()}
    return value


def _list_impls(impls: list[dict[str, Any]], as_json: bool) -> None:
    """Print `_implementations()`: JSON as it is, or text in blocks that fit 80 columns."""
    if as_json:
        _emit_json({"schema_version": SCHEMA_VERSION, "implementations": impls})
        return
    for n, impl in enumerate(impls):
        if n:
            click.echo()
        click.echo(_wrap(impl["name"] + (" (log rule: judges each segment of a log)" if impl["log"] else ""), ""))
        click.echo(_wrap(impl["doc"] or "(no description)", "  "))
        click.echo(_wrap(f"module: {impl['module']}", "  "))
        if not impl["params"]:
            click.echo("  no parameters")
        for key, p in impl["params"].items():
            given = "required" if p["required"] else f"default {_toml(p['default'])}"
            vocab = "".join(f", {v} of {p[v]}" for v in ("keys", "names") if p.get(v))
            click.echo(
                _wrap(f"{key} ({p['type']}, {given}{vocab}): {p['doc'] or '(no description)'}", "  - ", "      ")
            )


def _wrap(text: str, indent: str, then: str | None = None) -> str:
    """`text` filled to 80 columns; a word longer than a line (a long default) is broken."""
    return textwrap.fill(text, 80, initial_indent=indent, subsequent_indent=then or indent, break_on_hyphens=False)


def _toml(value: object) -> str:
    """A default as a pack.toml would write it."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return json.dumps(value, ensure_ascii=False)
    if isinstance(value, list):
        return "[" + ", ".join(_toml(v) for v in value) + "]"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{_toml_key(k)} = {_toml(v)}" for k, v in value.items()) + "}"
    return str(value)


def _toml_key(key: str) -> str:
    return key if key.replace("_", "").replace("-", "").isalnum() and key.isascii() else json.dumps(key)


@packs.command()
@click.argument("directory", type=click.Path(file_okay=False, exists=True))
@click.option(
    "--module",
    "module_path",
    type=click.Path(dir_okay=False),
    help="A module whose board numbering is used to check the terrain file's labels.",
)
@click.option("--map", "map_name", help="The map of that module (default: the first with a hex grid).")
@click.option(
    "--terrain",
    "terrain_path",
    type=click.Path(dir_okay=False, exists=True),
    help="A terrain file to check and run the worked examples on instead of the pack's (e.g. one drawn for the "
    "real map).",
)
@text_or_json
@_guarded
def validate(
    directory: str, module_path: str | None, map_name: str | None, terrain_path: str | None, as_json: bool
) -> None:
    """Check a pack: pack.toml keys and parameters, units.toml, and (with --module) the
    terrain file's labels on that module's board and the rulebook's worked examples
    ([[examples]]) run on that terrain through the rules `check` uses.

    Exit status 1 when there is an error or an example the terrain does not bear out, 2 when
    an example is malformed or names a hex or counter the board or units.toml lacks, 0 when
    there are only notes or nothing.

    \b
    Example:
      vassal-adj packs validate modules/_template --module game.vmod
      vassal-adj packs validate modules/mygame --module game.vmod --terrain my-map.csv
    """
    layout = None
    if module_path is not None:
        layouts = [
            lay for b in _pick_map(load_module(module_path), map_name).boards.values() for lay in board_hex_layouts(b)
        ]
        layout = layouts[0] if layouts else None
    problems = packs_io.validate(Path(directory), layout=layout, terrain=terrain_path)
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
