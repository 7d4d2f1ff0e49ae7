"""`vassal-adj terrain edit`: write the terrain painter page (report/terrain_editor.py) for a board.

Registered on the `terrain` group by cli/terrain.py. The same rules hold as in the rest of cli/:
this is the command line, the only place that prints or exits.
"""

from __future__ import annotations

import os
from pathlib import Path

import click

from vassal_adj.cli import _guarded, _pick_map, require_new_file
from vassal_adj.cli.options import pack_option
from vassal_adj.cli.output import working
from vassal_adj.errors import UsageError, Where


@click.command("edit")
@click.argument("module", type=click.Path(dir_okay=False))
@pack_option
@click.option(
    "--terrain",
    "terrain_path",
    type=click.Path(dir_okay=False),
    help="The terrain file to start from, e.g. a `terrain sample` draft (default: the pack's own terrain file).",
)
@click.option("--map", "map_name", help="The map (default: the first map with a hex grid).")
@click.option("--board", help="The board to paint, when the map has several with hex grids.")
@click.option(
    "-o",
    "--output",
    required=True,
    type=click.Path(dir_okay=False),
    help="The HTML page to write (never one of the inputs).",
)
@_guarded
def edit(
    module: str,
    pack_name: str | None,
    terrain_path: str | None,
    map_name: str | None,
    board: str | None,
    output: str,
) -> None:
    """Write a page to paint the pack's terrain file on the board picture, in a browser.

    The page is one file that works offline: the board picture with the hex grid as VASSAL
    places it. Click a hex to give it a terrain type of the pack, click near a hexside to set
    or clear a feature (road, river, ...), mark places (towns, supply sources, entry hexes)
    and off-map hexes; undo and redo; "Save" downloads the terrain file in the pack's format
    (docs/terrain.md). A draft from `terrain sample` (--terrain) shows its low-confidence
    hexes until they are painted.

    \b
    Example:
      vassal-adj terrain sample game.vmod --palette palette.toml -o draft.csv
      vassal-adj terrain edit game.vmod --pack mygame --terrain draft.csv -o editor.html
    """
    require_new_file(output, "-o")
    from vassal_adj import packs as packs_io
    from vassal_adj.codec.atomic import write_bytes_atomic
    from vassal_adj.load import load_image, load_module
    from vassal_adj.model.terrain import TerrainMap
    from vassal_adj.parse.terrain_file import read_terrain_on
    from vassal_adj.report.terrain_editor import doubtful_sides, editor_data, editor_html, low_confidence
    from vassal_adj.terrain_sample import pick_layout

    with working("terrain edit: building the painter page"):
        mod = load_module(module)
        lp = packs_io.pack_for(pack_name, mod.name, mod.version)
        mdef = _pick_map(mod, map_name)
        layout = pick_layout(mdef, board)
        source = Path(terrain_path) if terrain_path is not None else lp.terrain_path
        text = ""
        if source is not None:
            try:
                text = source.read_text(encoding="utf-8")
            except FileNotFoundError:
                raise UsageError("terrain file not found", Where(path=str(source))) from None
            except (OSError, UnicodeDecodeError) as e:
                raise UsageError(f"cannot read the terrain file: {e}", Where(path=str(source))) from None
        voc = lp.pack.vocabulary
        if not voc.terrain:
            raise UsageError(
                f"pack {lp.id!r} names no terrain types ([terrain] types in {lp.pack.source}): "
                f"there is nothing to paint with"
            )
        tmap = read_terrain_on(layout, text, path=str(source), vocabulary=voc) if text else TerrainMap(voc)
        described = {
            "module": os.path.basename(module),
            "where": f"map {mdef.name!r}, {layout.where}",
            "terrain": str(source) if source is not None else "",
            "save_as": lp.pack.terrain_file,
            "pack": lp.id,
        }
        try:
            data = editor_data(layout, tmap, low=low_confidence(text), doubts=doubtful_sides(text), source=described)
        except ValueError as e:
            raise UsageError(str(e), Where(path=str(source) if source is not None else module)) from None
        image = load_image(module, layout.board.image, board=layout.board.name) if layout.board.image else None
        page = editor_html(
            data, image, f"Terrain of {layout.board.name} ({lp.pack.name})", f"{module}!images/{layout.board.image}"
        )
        protect = [module] + ([str(source)] if source is not None else [])
        write_bytes_atomic(output, page.encode("utf-8"), protect=protect)
    click.echo(
        f"wrote {output}: {len(data['hexes'])} hexes of {layout.where}, terrain from "
        f"{source if source is not None else 'nothing yet'}; open it in a browser"
    )
