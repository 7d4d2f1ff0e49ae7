"""A test helper: modules written to the Terrain extension's format (VASSAL-FORMATS.md section 11).

`write_terrain_module` writes a zip with a buildFile (a map, one board, its hex grid and the
extension's `TerrainDefinitions`) and `terrainMaps/<board>.txt`, whose records are encoded
with VASSAL's SequenceEncoder (`parse.tokens.join`), so a comma in a name is written `\\,`.
"""

from __future__ import annotations

import zipfile
from dataclasses import dataclass, field
from pathlib import Path

from vassal_adj.parse.tokens import join

HEX_TERRAIN = ("Clear", "Woods", "Rough")
EDGE_TERRAIN = ("River",)
LINE_TERRAIN = ("Road",)
ATTRIBUTES = {"Elevation": "0"}


@dataclass
class TerrainModule:
    """One module: its board and grid, the extension's package prefix and the records."""

    grid: dict[str, str]  # HexGrid attributes
    numbering: dict[str, str]  # HexGridNumbering attributes
    records: list[list[str]]  # each record's fields, e.g. ["h", "0", "0", "Woods"]
    width: int = 500
    height: int = 400
    package: str = "terrain."  # the extension's classes: terrain., avl., rsr.
    grid_class: str = "TerrainHexGrid"  # or VASSAL's own "HexGrid"
    board: str = "Main"
    crlf: bool = False
    attributes: dict[str, str] = field(default_factory=lambda: dict(ATTRIBUTES))

    def grid_tag(self) -> str:
        if self.grid_class == "HexGrid":
            return "VASSAL.build.module.map.boardPicker.board.HexGrid"
        return self.package + self.grid_class

    def definitions(self) -> str:
        p = self.package
        hexes = "".join(
            f'<{p}HexTerrain name="{n}" color="0,0,0" blocking="false" PossBlocking="false"/>' for n in HEX_TERRAIN
        )
        edges = "".join(
            f'<{p}EdgeTerrain name="{n}" color="0,0,255" blocking="false" PossBlocking="false"/>' for n in EDGE_TERRAIN
        )
        lines = "".join(f'<{p}LineTerrain name="{n}" color="255,0,0" width="3" style="Solid"/>' for n in LINE_TERRAIN)
        attrs = "".join(
            f'<{p}AttributeTerrain name="{n}" color="0,0,0" type="Integer" list="" default="{d}" '
            'blocking="false" PossBlocking="false"/>'
            for n, d in self.attributes.items()
        )
        return (
            f"<{p}TerrainDefinitions><{p}HexTerrainDefinitions>{hexes}</{p}HexTerrainDefinitions>"
            f"<{p}EdgeTerrainDefinitions>{edges}</{p}EdgeTerrainDefinitions>"
            f"<{p}LineTerrainDefinitions>{lines}</{p}LineTerrainDefinitions>"
            f"<{p}AttributeTerrainDefinitions>{attrs}</{p}AttributeTerrainDefinitions>"
            f"</{p}TerrainDefinitions>"
        )

    def build_file(self) -> bytes:
        grid = " ".join(f'{k}="{v}"' for k, v in self.grid.items())
        numbering = " ".join(f'{k}="{v}"' for k, v in self.numbering.items())
        tag = self.grid_tag()
        return f"""<?xml version="1.0" encoding="UTF-8" standalone="no"?>
<VASSAL.build.GameModule name="TerrainTest" version="1.0" VassalVersion="3.6.7">
  <VASSAL.build.module.BasicCommandEncoder/>
  <VASSAL.build.module.Documentation/>
  <VASSAL.build.module.Map mapName="Main Map" edgeHeight="0" edgeWidth="0">
    <VASSAL.build.module.map.BoardPicker>
      <setup>Main MapBoardPicker\t{self.board}\t0\t0</setup>
      <VASSAL.build.module.map.boardPicker.Board name="{self.board}" width="{self.width}" height="{self.height}">
        <{tag} {grid}>
          <VASSAL.build.module.map.boardPicker.board.mapgrid.HexGridNumbering {numbering}/>
        </{tag}>
      </VASSAL.build.module.map.boardPicker.Board>
    </VASSAL.build.module.map.BoardPicker>
  </VASSAL.build.module.Map>
  {self.definitions()}
</VASSAL.build.GameModule>
""".encode()

    def terrain_text(self) -> bytes:
        end = "\r\n" if self.crlf else "\n"
        return "".join(join(fields, ",") + end for fields in self.records).encode()


def write_terrain_module(path: Path, module: TerrainModule) -> Path:
    with zipfile.ZipFile(path, "w") as zf:
        zf.writestr("buildFile.xml", module.build_file())
        zf.writestr("moduledata", b'<?xml version="1.0"?><data version="1"><name>TerrainTest</name></data>')
        zf.writestr(f"terrainMaps/{module.board}.txt", module.terrain_text())
    return path
