"""`vassal-adj terrain ...`: the terrain commands of the command line (registered on the group of cli/__init__.py).

One command group of the cli/ package; the same rules hold: this is the command line, the only
place that prints or exits, with the exit statuses of cli/__init__.py.
"""

from __future__ import annotations

import click

from vassal_adj.cli import _emit_json, _guarded, _pick_map, main, require_new_file
from vassal_adj.cli.options import text_or_json
from vassal_adj.cli.output import working
from vassal_adj.report.describe import SCHEMA_VERSION


@main.group()
def terrain() -> None:
    """Terrain files of rule packs (docs/terrain.md): import, sample from the picture, paint, compare.

    From a module to a checked terrain file: import the terrain the module carries, or draft it
    from the board picture; paint the corrections on the board; then `packs validate` runs the
    rulebook's worked examples on it.

    \b
    Example:
      vassal-adj terrain import game.vmod -o terrain.csv
      vassal-adj terrain sample game.vmod --palette palette.toml -o terrain.csv --preview check.png
      vassal-adj terrain edit game.vmod --pack mygame --terrain terrain.csv -o editor.html
      vassal-adj packs validate modules/mygame --module game.vmod --terrain terrain.csv
    """


@terrain.command()
@click.argument("module", type=click.Path(dir_okay=False))
@click.option("--map", "map_name", help="The map (default: the first map with a hex grid).")
@click.option("--board", help="The board to sample, when the map has several with hex grids.")
@click.option(
    "--palette",
    "palette_path",
    required=True,
    type=click.Path(dir_okay=False),
    help="Palette TOML: the colours of terrain types and hexside features.",
)
@click.option(
    "-o",
    "--output",
    required=True,
    type=click.Path(dir_okay=False),
    help="The terrain file to write (never one of the inputs).",
)
@click.option(
    "--preview", type=click.Path(dir_okay=False), help="Also write a PNG of the board with the result drawn over it."
)
@click.option(
    "--compare",
    "reference",
    type=click.Path(dir_okay=False),
    help="A reference terrain file of this board (e.g. the pack's terrain.csv): print how many hexes and hexside "
    "features the sampling got right, per type; --preview marks the hexes and hexsides that differ.",
)
@text_or_json
@_guarded
def sample(
    module: str,
    map_name: str | None,
    board: str | None,
    palette_path: str,
    output: str,
    preview: str | None,
    reference: str | None,
    as_json: bool,
) -> None:
    """Draft a terrain file from the board picture: terrain by colour around each hex centre.

    Each hex gets the terrain whose palette colour most of its samples are nearest to; the
    share that agrees is its confidence. Hexsides get a feature (road, river, ...) when
    enough of a patch at their midpoint has its colour. Lines below the palette's
    min_confidence carry a '# low confidence' comment; --preview tints the hexes and marks
    those with an X. The file is a draft for the author to correct, not a reading of the map.

    With --compare T, the result is also checked against the terrain file T: hexes right (the
    sampled type is one of T's for the hex) and hexsides right (exactly T's features), with a
    table per terrain type and per feature of the reference's count, found, missed and extra.

    \b
    Example:
      vassal-adj terrain sample game.vmod --palette palette.toml \\
          -o terrain.csv --preview terrain.png
      vassal-adj terrain sample game.vmod --palette palette.toml \\
          -o draft.csv --compare terrain.csv --preview differences.png
    """
    require_new_file(output, "-o")  # a hand-corrected terrain file is never replaced (reliability r14)
    if preview is not None:
        require_new_file(preview, "--preview")
    from vassal_adj.codec.atomic import write_bytes_atomic
    from vassal_adj.report.terrain_preview import preview_png
    from vassal_adj.terrain_accuracy import accuracy_table
    from vassal_adj.terrain_sample import sample_module, summary

    with working("terrain sample: classifying the board's hexes"):
        sampled = sample_module(module, map_name, palette_path, output, board, _pick_map, reference)
        if preview is not None:
            inputs = [module, palette_path, output, *([reference] if reference else [])]
            write_bytes_atomic(preview, preview_png(sampled), protect=inputs)
        data = summary(sampled)
    if as_json:
        _emit_json({"schema_version": SCHEMA_VERSION, "output": output, "preview": preview, **data})
        return
    where = f"board {data['board']!r}" + (f", zone {data['zone']!r}" if data["zone"] else "")
    click.echo(
        f"sampled {data['hexes']} hexes on {where} in {data['seconds']:.2f}s: "
        + ", ".join(f"{n} {t}" for t, n in data["terrain"].items())
    )  # type: ignore[union-attr]
    if data["hexsides"]:
        click.echo("hexsides: " + ", ".join(f"{n} {f}" for f, n in data["hexsides"].items()))  # type: ignore[union-attr]
    low = data["low_confidence"]
    click.echo(
        f"{len(low)} hex(es) below confidence {data['min_confidence']:.2f}"  # type: ignore[arg-type]
        + (": " + " ".join(low) if low and len(low) <= 20 else "")
    )  # type: ignore[arg-type]
    if sampled.accuracy is not None:
        for line in accuracy_table(sampled.accuracy):
            click.echo(line)
    click.echo(f"wrote {output}" + (f" and {preview}" if preview else ""))


@terrain.command("import")
@click.argument("module", type=click.Path(dir_okay=False))
@click.option("--board", help="The board whose terrain to import, when the module has terrain for several.")
@click.option(
    "--map-names",
    "names_path",
    type=click.Path(dir_okay=False),
    help="TOML table from the module's terrain names to the pack's words ([hex], [edge], [line], [attribute.NAME]).",
)
@click.option(
    "-o",
    "--output",
    required=True,
    type=click.Path(dir_okay=False),
    help="The terrain file to write (never one of the inputs).",
)
@text_or_json
@_guarded
def import_(module: str, board: str | None, names_path: str | None, output: str, as_json: bool) -> None:
    """Import the terrain a module carries (the Terrain extension's terrainMaps/<board>.txt).

    Raw grid indices become the labels VASSAL shows, through the board's hex grid. Hex
    terrain gives terrain types; edge and line terrain (rivers, roads) give hexside features;
    attributes (an elevation) give terrain types through the name table. Records naming a
    terrain the module does not define, hexes off the grid or off the board, and names the
    table does not map are listed on stderr and in the file's header, never dropped silently.

    \b
    Example:
      vassal-adj terrain import game.vmod --board Main --map-names names.toml -o terrain.csv

    \b
    names.toml (the module's names -> the pack's words; "" = no terrain):
      [hex]
      Clear = "clear"
      Woods = "forest"
      [edge]
      River = "river"
      [line]
      Road = "road"
      [attribute.Elevation]
      "0" = ""
      "2" = "hill"
    """
    require_new_file(output, "-o")
    from vassal_adj.terrain_import import import_module_terrain, write_import

    with working("terrain import: reading the module's terrain map"):
        run = import_module_terrain(module, board, names_path)
        write_import(run, output, [module, *([names_path] if names_path else [])])
    for line in run.warnings + tuple(f"unmapped: {u}" for u in run.unmapped):
        click.echo(f"warning: {line}", err=True)
    imp = run.imported
    if as_json:
        _emit_json(
            {
                "schema_version": SCHEMA_VERSION,
                "output": output,
                "board": run.board,
                "entry": run.entry,
                "records": imp.records,
                "used": imp.used,
                "hexes": len(imp.terrain.hex_terrain),
                "hexsides": len(imp.terrain.side_features),
                "warnings": list(run.warnings),
                "unmapped": list(run.unmapped),
            }
        )
        return
    click.echo(
        f"imported board {run.board!r}: {imp.records} records, {imp.used} used; {len(imp.terrain.hex_terrain)} hexes "
        f"with terrain, {len(imp.terrain.side_features)} hexsides with features; {len(run.warnings)} warning(s), "
        f"{len(run.unmapped)} unmapped name(s)"
    )
    click.echo(f"wrote {output}")


from vassal_adj.cli.terrain_edit import edit  # noqa: E402  (registered on the group defined above)

terrain.add_command(edit)
