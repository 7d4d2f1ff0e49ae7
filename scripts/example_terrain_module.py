"""Kasserine-terrain.vmod: the example module as a module author using the Terrain extension would ship it.

Brent Easton's Terrain extension (VASSAL-FORMATS.md section 11) keeps a board's terrain in the
module: the buildFile defines the terrain types under `terrain.TerrainDefinitions`, the board's
grid becomes the extension's `terrain.TerrainHexGrid` (VASSAL's HexGrid with the same attributes),
and `terrainMaps/<board>.txt` holds one record a line. This writes that module from
Kasserine.vmod and modules/kasserine/terrain.csv, so that `vassal-adj terrain import` can be
run on the example, and the name table (terrain-names.toml) that maps the extension's names
to the pack's words.

The records are the inverse of what the import does: each hex's raw (column, row) comes from
the board's hex layout (`Hex.raw`, swapped on a sideways grid), never from its label.
- `h,column,row,name`: one a hex. Towns are one type, "Town" (the pack's "clear town").
- `e,c1,r1,c2,r2,name`: one a hexside, written once with (c1, r1) <= (c2, r2). The extension
  keeps one edge terrain a hexside, so a stream crossed by a road is "Bridge" ("stream bridge").
- `l,c1,r1,c2,r2,name`: a road or trail from one hex centre to the next, written from each end
  (the extension does not deduplicate lines by direction). The one hexside that has both a
  road and a trail (1319/1320) gets a line of each: section 11 does not say whether the
  extension keeps two line terrains between one pair of hexes; the import takes both.
Kasserine.vmod itself is not changed: VASSAL without the extension installed strips the
extension's classes (TerrainDefinitions, and TerrainHexGrid with the board's hex labels).
"""

from __future__ import annotations

import re
import zipfile
from pathlib import Path

from vassal_adj.model.geometry.hexes import Hex, HexSide
from vassal_adj.model.geometry.layout import HexLayout
from vassal_adj.model.terrain import TerrainMap
from vassal_adj.parse.tokens import join

PACKAGE = "terrain."  # the GTS series' package of the extension's classes
HEX_GRID = "VASSAL.build.module.map.boardPicker.board.HexGrid"
# The extension's names, as a module author would call them -> the pack's words (pack.toml [terrain]).
HEX_NAMES = {"Clear": "clear", "Rough": "rough", "Town": "clear town"}
EDGE_NAMES = {"Stream": "stream", "Bridge": "stream bridge"}
LINE_NAMES = {"Road": "road", "Trail": "trail"}
COLOURS = {
    "Clear": "230,220,170",
    "Rough": "150,110,70",
    "Town": "200,60,60",
    "Stream": "60,120,220",
    "Bridge": "90,90,90",
    "Road": "200,30,30",
    "Trail": "120,60,20",
}


def _by_words(table: dict[str, str]) -> dict[frozenset[str], str]:
    return {frozenset(words.split()): name for name, words in table.items()}


def definitions() -> str:
    """The buildFile's `TerrainDefinitions` element, with the attributes the extension writes (11.1)."""
    p = PACKAGE

    def terrain(kind: str, name: str) -> str:
        return f'<{p}{kind} PossBlocking="false" blocking="false" color="{COLOURS[name]}" name="{name}"/>'

    hexes = "".join(terrain("HexTerrain", n) for n in HEX_NAMES)
    edges = "".join(terrain("EdgeTerrain", n) for n in EDGE_NAMES)
    lines = "".join(f'<{p}LineTerrain color="{COLOURS[n]}" name="{n}" style="Solid" width="3"/>' for n in LINE_NAMES)
    return (
        f"    <{p}TerrainDefinitions>\n"
        f"        <{p}HexTerrainDefinitions>{hexes}</{p}HexTerrainDefinitions>\n"
        f"        <{p}EdgeTerrainDefinitions>{edges}</{p}EdgeTerrainDefinitions>\n"
        f"        <{p}LineTerrainDefinitions>{lines}</{p}LineTerrainDefinitions>\n"
        f"        <{p}AttributeTerrainDefinitions/>\n"
        f"    </{p}TerrainDefinitions>\n"
    )


def build_file(original: bytes, board: str) -> bytes:
    """The example's buildFile with the board's grid made a TerrainHexGrid and the definitions added."""
    text = original.decode("utf-8")
    found = re.search(rf'<VASSAL\.build\.module\.map\.boardPicker\.Board [^>]*name="{re.escape(board)}"', text)
    assert found is not None, board
    head, tail = text[: found.start()], text[found.start() :]
    assert tail.index(f"<{HEX_GRID} ") < tail.index("</VASSAL.build.module.map.boardPicker.Board>"), board
    tail = tail.replace(f"<{HEX_GRID} ", f"<{PACKAGE}TerrainHexGrid ", 1)
    tail = tail.replace(f"</{HEX_GRID}>", f"</{PACKAGE}TerrainHexGrid>", 1)
    end = "</VASSAL.build.GameModule>"
    assert tail.count(end) == 1
    return (head + tail.replace(end, definitions() + end)).encode("utf-8")


def _index(layout: HexLayout, h: Hex) -> tuple[int, int]:
    """The (column, row) the extension writes for `h`: the raw index, swapped on a sideways grid (11.3)."""
    i, j = h.raw()
    return (j, i) if layout.grid.sideways else (i, j)


def records(terrain: TerrainMap, layout: HexLayout) -> list[list[str]]:
    """The terrainMaps records of `terrain` on `layout`: hexes, then edges, then lines."""
    hex_name, edge_name = _by_words(HEX_NAMES), _by_words(EDGE_NAMES)
    line_names = {words: name for name, words in LINE_NAMES.items()}
    edge_words = frozenset(w for words in EDGE_NAMES.values() for w in words.split())
    # Every feature the pack's file may hold has an extension name, so no hexside is left out.
    assert terrain.vocabulary.features <= edge_words | set(line_names), terrain.vocabulary.features
    out: list[list[str]] = []
    for h in sorted(terrain.hexes(), key=lambda h: _index(layout, h)):
        out.append(["h", *map(str, _index(layout, h)), hex_name[terrain.terrain(h)]])
    sides: list[tuple[tuple[int, int], tuple[int, int], HexSide]] = []
    for side in terrain.sides_with(*edge_words, *line_names):
        a, b = sorted((_index(layout, side.a), _index(layout, side.b)))
        sides.append((a, b, side))
    sides.sort(key=lambda s: s[:2])
    for a, b, side in sides:
        edge = terrain.features(side) & edge_words
        if edge:
            out.append(["e", *map(str, a), *map(str, b), edge_name[edge]])
    for a, b, side in sides:
        for word in sorted(terrain.features(side) & set(line_names)):
            out.append(["l", *map(str, a), *map(str, b), line_names[word]])
            out.append(["l", *map(str, b), *map(str, a), line_names[word]])
    return out


def names_toml() -> str:
    """modules/kasserine/example/terrain-names.toml: `terrain import --map-names`'s table for this module."""
    head = [
        "# The Terrain extension's names in Kasserine-terrain.vmod -> the Kasserine pack's words",
        '# (`vassal-adj terrain import ... --map-names terrain-names.toml`; docs/terrain.md "Import").',
        "# Generated by scripts/make_example.py (scripts/example_terrain_module.py): edit that, not this.",
    ]
    body = []
    for table, names in (("hex", HEX_NAMES), ("edge", EDGE_NAMES), ("line", LINE_NAMES)):
        body += ["", f"[{table}]", *(f'{name} = "{words}"' for name, words in names.items())]
    return "\n".join(head + body) + "\n"


def write(module: Path, out: Path, names: Path, board: str, terrain: TerrainMap, layout: HexLayout) -> None:
    """Write `out` (a copy of `module` carrying the terrain of `board`) and the name table `names`."""
    text = "".join(join(fields, ",") + "\n" for fields in records(terrain, layout))
    tmp = out.with_suffix(".tmp")
    with zipfile.ZipFile(module) as src, zipfile.ZipFile(tmp, "w") as zf:
        for info in src.infolist():
            data = src.read(info)
            if info.filename == "buildFile.xml":
                data = build_file(data, board)
            zf.writestr(info, data)
        entry = zipfile.ZipInfo(f"terrainMaps/{board}.txt", date_time=(2026, 1, 1, 0, 0, 0))
        entry.compress_type = zipfile.ZIP_DEFLATED
        zf.writestr(entry, text.encode("utf-8"))
    tmp.replace(out)
    names.write_text(names_toml(), encoding="utf-8")
