"""The Terrain extension's terrain types in a buildFile (VASSAL-FORMATS.md 11.1).

They sit under an element of class `TerrainDefinitions`, in the package of whichever module
copied the extension (`terrain.`, `avl.`, `rsr.`), so classes are matched on their simple
names: `HexTerrain`, `EdgeTerrain`, `LineTerrain` and `AttributeTerrain`, each with a `name`;
an attribute terrain also has a `default` value.
"""

from __future__ import annotations

from lxml import etree

from vassal_adj.errors import Where
from vassal_adj.model.terrain_ext import TerrainDefinitions
from vassal_adj.parse.buildfile_grids import short
from vassal_adj.parse.buildfile_xml import safe_xml_root

__all__ = ["parse_terrain_definitions"]

_KINDS = {"HexTerrain": "hex", "EdgeTerrain": "edge", "LineTerrain": "line", "AttributeTerrain": "attribute"}


def parse_terrain_definitions(xml: bytes, where: Where) -> TerrainDefinitions | None:
    """The terrain types the buildFile defines; None when it has no `TerrainDefinitions`."""
    root = safe_xml_root(xml, where)
    containers = [el for el in root.iter(etree.Element) if short(str(el.tag)) == "TerrainDefinitions"]
    if not containers:
        return None
    names: dict[str, set[str]] = {"hex": set(), "edge": set(), "line": set()}
    defaults: dict[str, str] = {}
    for container in containers:
        for el in container.iter(etree.Element):
            kind = _KINDS.get(short(str(el.tag)))
            if kind == "attribute":
                defaults.setdefault(el.get("name", ""), el.get("default", ""))
            elif kind is not None:
                names[kind].add(el.get("name", ""))
    return TerrainDefinitions(
        hex=frozenset(names["hex"]), edge=frozenset(names["edge"]), line=frozenset(names["line"]), attribute=defaults
    )
