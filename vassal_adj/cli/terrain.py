"""`vassal-adj terrain ...`: the terrain commands of the command line (registered on the group of cli/__init__.py).

One command group of the cli/ package; the same rules hold: this is the command line, the only
place that prints or exits, with the exit statuses of cli/__init__.py.
"""

from __future__ import annotations

import click

from vassal_adj.cli import _emit_json, _guarded, _pick_map, main
from vassal_adj.cli.options import text_or_json
from vassal_adj.cli.output import working
from vassal_adj.report.describe import SCHEMA_VERSION


@main.group()
def terrain() -> None:
    """Terrain files of rule packs (docs/terrain.md): bootstrap one from a board picture.

    \b
    Example:
      vassal-adj terrain sample game.vmod --palette palette.toml -o terrain.csv --preview check.png
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
@text_or_json
@_guarded
def sample(
    module: str,
    map_name: str | None,
    board: str | None,
    palette_path: str,
    output: str,
    preview: str | None,
    as_json: bool,
) -> None:
    """Draft a terrain file from the board picture: terrain by colour around each hex centre.

    Each hex gets the terrain whose palette colour most of its samples are nearest to; the
    share that agrees is its confidence. Hexsides get a feature (road, river, ...) when
    enough of a patch at their midpoint has its colour. Lines below the palette's
    min_confidence carry a '# low confidence' comment; --preview tints the hexes and marks
    those with an X. The file is a draft for the author to correct, not a reading of the map.

    \b
    Example:
      vassal-adj terrain sample game.vmod --palette palette.toml \\
          -o terrain.csv --preview terrain.png
    """
    from vassal_adj.codec.atomic import write_bytes_atomic
    from vassal_adj.report.terrain_preview import preview_png
    from vassal_adj.terrain_sample import sample_module, summary

    with working("terrain sample: classifying the board's hexes"):
        sampled = sample_module(module, map_name, palette_path, output, board, _pick_map)
        if preview is not None:
            write_bytes_atomic(preview, preview_png(sampled), protect=[module, palette_path, output])
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
    click.echo(f"wrote {output}" + (f" and {preview}" if preview else ""))


from vassal_adj.cli.terrain_edit import edit  # noqa: E402  (registered on the group defined above)

terrain.add_command(edit)
