"""What the Terrain extension stores in a module (VASSAL-FORMATS.md section 11), as records.

`TerrainDefinitions` are the terrain types of the buildFile's `TerrainDefinitions` element;
`TerrainRecord` is one line of a `terrainMaps/<board>.txt` entry, its hexes still the raw
(column, row) indices the extension writes; `NameMap` is the referee's table from the
module's terrain names to the pack's vocabulary (`--map-names`). `parse.terrain_maps` and
`parse.terrain_defs` build them; `model.terrain_import` turns them into a `TerrainMap`.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

__all__ = ["KINDS", "NameMap", "TerrainDefinitions", "TerrainRecord"]

# Record letter -> the kind of terrain it names, as the definitions and the name table call it.
KINDS = {"h": "hex", "e": "edge", "l": "line", "a": "attribute"}


@dataclass(frozen=True)
class TerrainDefinitions:
    """The terrain names a module defines, by kind; an attribute maps to its default value."""

    hex: frozenset[str] = frozenset()
    edge: frozenset[str] = frozenset()
    line: frozenset[str] = frozenset()
    attribute: Mapping[str, str] = field(default_factory=dict)

    def names(self, kind: str) -> frozenset[str]:
        """The defined names of one kind ("hex", "edge", "line" or "attribute")."""
        found = getattr(self, kind)
        return frozenset(found) if kind == "attribute" else found


@dataclass(frozen=True)
class TerrainRecord:
    """One record of a terrainMaps file: `kind` is h, e, l or a (section 11.2).

    `a` is the (column, row) of the hex, `b` the second hex of an edge or a line; `value`
    the value of an attribute. Indices are raw and, on a sideways grid, swapped (11.3).
    """

    line: int
    kind: str
    a: tuple[int, int]
    name: str
    b: tuple[int, int] | None = None
    value: str = ""


@dataclass(frozen=True)
class NameMap:
    """The module's terrain names -> the pack's words, per kind (`--map-names`).

    `hex` and `attribute` values give terrain types, `edge` and `line` values hexside
    features; an empty set means "no terrain". `attribute` maps an attribute's name to a
    table from each of its values to words. A name absent from its table is unmapped.
    """

    hex: Mapping[str, frozenset[str]] = field(default_factory=dict)
    edge: Mapping[str, frozenset[str]] = field(default_factory=dict)
    line: Mapping[str, frozenset[str]] = field(default_factory=dict)
    attribute: Mapping[str, Mapping[str, frozenset[str]]] = field(default_factory=dict)

    def terrain_words(self) -> frozenset[str]:
        """Every pack terrain type the table can give."""
        words = [w for ws in self.hex.values() for w in ws]
        words += [w for table in self.attribute.values() for ws in table.values() for w in ws]
        return frozenset(words)

    def feature_words(self) -> frozenset[str]:
        """Every pack hexside feature the table can give."""
        return frozenset(w for table in (self.edge, self.line) for ws in table.values() for w in ws)
