"""The commands that name map places: grid (a map's grids in words), where (a pixel's label), hex."""

from __future__ import annotations

from typing import Any

import click

from vassal_adj.cli import F, _emit_json, _guarded, _pick_map, main
from vassal_adj.cli.options import text_or_json
from vassal_adj.cli.output import output_option
from vassal_adj.errors import UsageError
from vassal_adj.load import load_module, load_save
from vassal_adj.model.geometry import hexes
from vassal_adj.model.geometry.edge_hexes import edge_hex
from vassal_adj.model.geometry.maps import PlacedMap, board_hex_layouts, describe_layout, module_map, place_map
from vassal_adj.model.geometry.zones import find_zone
from vassal_adj.model.module import BoardDef, HexGridDef, MapDef, Module, ZonedGridDef
from vassal_adj.report.describe import SCHEMA_VERSION


def _place(mod: Module, mdef: MapDef, save: str | None, board: str | None) -> PlacedMap:
    """The map laid out with one --board, a --save's boards, or the default layout."""
    if board is not None:
        mdef.board(board)  # unknown board: UsageError listing the map's boards
        return place_map(mdef, [(board, False, 0, 0)])
    placed = module_map(mod, mdef.name, save=load_save(save)) if save else place_map(mdef)
    if not placed.placed:
        raise UsageError(
            f"map {mdef.name!r} has no default board layout (its boards are chosen "
            f"when a game starts): give --save GAME.vsav or --board NAME (boards: "
            f"{', '.join(repr(n) for n in mdef.boards)})"
        )
    return placed


def _grid_words(d: dict[str, Any]) -> list[str]:
    where = f"board {d['board']!r}" + (f", zone {d['zone']!r}" if d["zone"] else "")
    where += " (background grid of its zones)" if d["background"] else ""
    tops = "pointy-topped hexes in rows (sideways grid)" if d["sideways"] else "flat-topped hexes in columns"
    if not d["numbered"]:
        return [f"hex grid on {where}: {d['hexes']} hexes, {tops}; no numbering, so VASSAL shows no labels"]
    if "first_label" not in d:
        return [f"hex grid on {where}: {tops}; no labelled hex lies on the board"]
    out = [
        f"hex grid on {where}: {d['hexes']} hexes, labels {d['first_label']} to {d['last_label']}",
        f"  {tops}; directions {' '.join(d['directions'])}",
    ]
    sep = repr(d["separator"]) if d["separator"] else "no separator"
    out.append(
        f"  labels: {d['label_order']}, {sep}, e.g. {d['first_label']!r}"
        + (f"; format {d['location_format']!r}" if d["location_format"] != "$gridLocation$" else "")
        + (f"; zone format {d['zone_format']!r}" if d["zone_format"] not in (None, "$gridLocation$") else "")
    )
    for key in ("columns", "rows"):
        p = d[key]
        kind = "letters" if p["type"] == "letters" else f"{p['digits']}-digit numbers"
        desc = " (descending numbering)" if d["descending"][key] else ""
        out.append(f"  {key}: {kind} {p['first']} to {p['last']} ({p['count']}), {p['runs']}{desc}")
    if d["shift"]:
        how = " (VASSAL 3.8 oblique numbering)" if d["oblique"] else " (VASSAL stagger on)" if d["stagger"] else ""
        out.append(f"  {d['shift']}{how}")
    return out


def _other_grid_words(board: BoardDef) -> list[str]:
    g, name = board.grid, repr(board.name)
    if g is None:
        return [f"board {name}: no grid (VASSAL names no location on it)"]
    if isinstance(g, ZonedGridDef):
        zones = [z for z in g.zones if not isinstance(z.grid, HexGridDef)]
        bg = (
            ""
            if g.background is None or isinstance(g.background, HexGridDef)
            else f", background {g.background.kind} grid"
        )
        return [f"board {name}: {len(zones)} zone(s) without a hex grid{bg}"] if zones or bg else []
    if isinstance(g, HexGridDef):
        return []
    return [f"board {name}: {g.kind} grid"]


@main.command()
@click.argument("module", type=click.Path(dir_okay=False))
@click.option("--map", "map_name", help="The map (default: the first map with a hex grid).")
@text_or_json
@_guarded
@output_option
def grid(module: str, map_name: str | None, as_json: bool) -> None:
    """Describe a map's grids in words: how to type labels, their range, how they run.

    \b
    Example:
      vassal-adj grid game.vmod
      vassal-adj grid game.vmod --map "Main Map" --format json
    """
    mod = load_module(module)
    mdef = _pick_map(mod, map_name)
    layouts = [describe_layout(lay) for b in mdef.boards.values() for lay in board_hex_layouts(b)]
    others = [line for b in mdef.boards.values() for line in _other_grid_words(b)]
    if as_json:
        _emit_json({"schema_version": SCHEMA_VERSION, "map": mdef.name, "hex_grids": layouts, "other_grids": others})
        return
    click.echo(f"map {mdef.name!r}: {len(mdef.boards)} board(s)")
    for d in layouts:
        click.echo("\n".join(_grid_words(d)))
    for line in others:
        click.echo(line)
    if not layouts:
        click.echo("no hex grid on this map")


_LAYOUT_OPTIONS = [
    click.option("--map", "map_name", help="The map (default: the first map with a hex grid)."),
    click.option("--save", type=click.Path(dir_okay=False), help="Lay the boards out as this saved game does."),
    click.option("--board", help="Lay the map out with only this board, at the top left."),
]


def _layout_options(func: F) -> F:
    for option in reversed(_LAYOUT_OPTIONS):
        func = option(func)
    return text_or_json(func)


# Negative pixels (left of or above the first board) are coordinates, not options.
@main.command(context_settings={"ignore_unknown_options": True})
@click.argument("module", type=click.Path(dir_okay=False))
@click.argument("x", type=int)
@click.argument("y", type=int)
@click.option(
    "--board-coords", is_flag=True, help="X Y are pixels of the board (--board, or the first one), not of the map."
)
@_layout_options
@_guarded
@output_option
def where(
    module: str,
    x: int,
    y: int,
    board_coords: bool,
    map_name: str | None,
    save: str | None,
    board: str | None,
    as_json: bool,
) -> None:
    """Print the label VASSAL shows for a map pixel, with its board and zone.

    Off every board the answer is "offboard", as in VASSAL.

    \b
    Example:
      vassal-adj where game.vmod 140 696
      vassal-adj where game.vmod 944 585 --save turn1.vsav --format json
    """
    mod = load_module(module)
    mdef = _pick_map(mod, map_name)
    placed = _place(mod, mdef, save, board)
    if board_coords:
        pb = placed.board(board) if board else placed.placed[0]
        mx, my = pb.to_map(x, y)
    else:
        mx, my = x, y
    pb = placed.board_at(mx, my)
    label = placed.location_name(mx, my)
    zone = None
    if pb is not None:
        lx, ly = pb.to_local(mx, my)
        zone = find_zone(pb.board.grid, lx, ly) if isinstance(pb.board.grid, ZonedGridDef) else None
    data = {
        "schema_version": SCHEMA_VERSION,
        "map": mdef.name,
        "map_xy": [mx, my],
        "board": pb.board.name if pb else None,
        "board_xy": list(pb.to_local(mx, my)) if pb else None,
        "zone": zone.name if zone else None,
        "label": label,
        "offboard": pb is None,
    }
    if as_json:
        _emit_json(data)
        return
    if pb is None:
        click.echo(f"offboard (map {mdef.name!r} pixel {mx},{my} is on no board)")
        return
    text = label if label is not None else "(no name: VASSAL shows nothing here)"
    bx, by = data["board_xy"]
    zone_text = f", zone {zone.name!r}" if zone else ""
    click.echo(f"{text}  (board {pb.board.name!r} pixel {bx:g},{by:g}{zone_text}; map pixel {mx},{my})")


@main.command(name="hex")
@click.argument("module", type=click.Path(dir_okay=False))
@click.argument("label")
@_layout_options
@_guarded
@output_option
def hex_(module: str, label: str, map_name: str | None, save: str | None, board: str | None, as_json: bool) -> None:
    """Print a hex's centre (map pixel) and its neighbours with their directions.

    Every label `where` gives is a hex, including a part hex at a board's edge, whose centre
    lies off the board (VASSAL names the strip of it that is on the board).

    \b
    Example:
      vassal-adj hex game.vmod 0312
      vassal-adj hex game.vmod C11 --save turn1.vsav --format json
    """
    mod = load_module(module)
    mdef = _pick_map(mod, map_name)
    placed = _place(mod, mdef, save, board)
    layouts = [lay for lay in placed.hex_layouts() if lay.numbered]
    if not layouts:
        raise UsageError(f"map {mdef.name!r} has no numbered hex grid: VASSAL gives its hexes no labels")
    found = next(((lay, lay.require(label)) for lay in layouts if label in lay.labels()), None)
    if found is None:  # a part hex at the board's edge: `where` names it, its centre is off the board
        found = next(((lay, h) for lay in layouts if (h := edge_hex(lay, label)) is not None), None)
    if found is None:
        spans = "; ".join(f"{la.labels()[0]} to {la.labels()[-1]} on {la.where}" for la in layouts if la.labels())
        raise UsageError(f"no hex {label!r} on map {mdef.name!r} (hexes: {spans or 'none'})")
    lay, h = found
    neighbours = []
    for n in sorted(hexes.neighbors(h), key=lambda n: lay.directions.index(lay.direction_name(h, n))):
        name = lay.label_of(n)
        edge = name is not None and not lay.on_map(n) and edge_hex(lay, name) is not None
        shown = name is not None and (lay.on_map(n) or edge)
        neighbours.append(
            {
                "direction": lay.direction_name(h, n),
                "label": name if shown else None,
                "center": list(lay.center(n, off_map=True)) if shown else None,
                "edge": edge,
            }
        )
    data = {
        "schema_version": SCHEMA_VERSION,
        "map": mdef.name,
        "label": label,
        "board": lay.board.name,
        "zone": lay.zone.name if lay.zone else None,
        "center": list(lay.center(h, off_map=True)),
        "edge": not lay.on_map(h),
        "neighbors": neighbours,
    }
    if as_json:
        _emit_json(data)
        return
    cx, cy = data["center"]
    edge_words = " (a part hex at the edge: its centre lies outside, VASSAL names the part of it inside)"
    click.echo(
        f"{label}: centre {cx},{cy} (map {mdef.name!r} pixel) on {lay.where}" + (edge_words if data["edge"] else "")
    )
    for n in neighbours:
        if n["label"] is None:
            where_n = "off the map"
        elif n["edge"]:
            where_n = f"off the map (part hex {n['label']} at the edge, centre {n['center'][0]},{n['center'][1]})"
        else:
            where_n = f"{n['label']}  centre {n['center'][0]},{n['center'][1]}"
        click.echo(f"  {n['direction']:<2} {where_n}")
