"""Terrain extension records -> the pack's `TerrainMap`, on the board's hex layout.

Each record's raw (column, row) becomes a `Hex` of the layout (swapped back on a sideways
grid, VASSAL-FORMATS.md 11.3), so its label is the one VASSAL shows: the numbering is never
re-derived here. Nothing is dropped without a word: a record naming a terrain the module
does not define, a hex off the grid or off the board, an edge or line between hexes that are
not neighbours, becomes a `Note` with its line; a name the table does not map is `Unmapped`.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

from vassal_adj.model.geometry import hexes as hx
from vassal_adj.model.geometry.hexes import Hex, HexSide
from vassal_adj.model.geometry.layout import HexLayout
from vassal_adj.model.terrain import TerrainMap, TerrainVocabulary
from vassal_adj.model.terrain_ext import KINDS, NameMap, TerrainDefinitions, TerrainRecord

__all__ = ["Imported", "Note", "Unmapped", "import_terrain", "is_word"]

_WHAT = {"hex": "hex terrain", "edge": "edge terrain", "line": "line terrain", "attribute": "attribute"}


@dataclass(frozen=True)
class Note:
    """A record (or part of one) the import could not use, and why."""

    line: int
    message: str


@dataclass
class Unmapped:
    """A module name the name table does not map: its records (lines) or hexes were left out."""

    what: str
    count: int = 0
    lines: list[int] = field(default_factory=list)


@dataclass(frozen=True)
class Imported:
    terrain: TerrainMap
    notes: tuple[Note, ...]
    unmapped: tuple[Unmapped, ...]
    records: int  # records read
    used: int  # records that gave the pack something (or said "no terrain")


def is_word(name: str) -> bool:
    """Whether `name` can be written in a pack terrain file as it is (one word)."""
    try:
        TerrainVocabulary(terrain=frozenset({name}), features=frozenset())
    except ValueError:
        return False
    return True


@dataclass
class _Import:
    records: list[TerrainRecord]
    defs: TerrainDefinitions
    layout: HexLayout
    names: NameMap | None
    notes: list[Note] = field(default_factory=list)
    unmapped: dict[str, Unmapped] = field(default_factory=dict)
    terrain: dict[Hex, set[str]] = field(default_factory=dict)
    sides: dict[HexSide, set[str]] = field(default_factory=dict)
    used: int = 0
    label: dict[Hex, str] = field(init=False)  # the board's hexes: those the pack's map has
    last: tuple[int, int] = field(init=False)  # the last (column, row) as the extension writes them

    def __post_init__(self) -> None:
        lay = self.layout
        self.label = {h: lab for h in lay.hexes() if (lab := lay.label_of(h)) is not None}
        raw = [self.file_index(h) for h in self.label] or [(0, 0)]
        # The extension writes indices from -1 to the last column/row + 1 (hexes cut by the edge).
        self.last = (max(c for c, _ in raw), max(r for _, r in raw))

    def file_index(self, h: Hex) -> tuple[int, int]:
        """The (column, row) the extension writes for `h`: the raw index, swapped when sideways."""
        i, j = h.raw()
        return (j, i) if self.layout.grid.sideways else (i, j)

    def hex_at(self, rec: TerrainRecord, index: tuple[int, int]) -> Hex | None:
        c, r = index
        h = Hex.from_raw(r, c) if self.layout.grid.sideways else Hex.from_raw(c, r)
        if h in self.label:
            return h
        if not (-1 <= c <= self.last[0] + 1 and -1 <= r <= self.last[1] + 1):
            self.note(
                rec,
                f"hex ({c},{r}) is off the grid (the extension writes columns -1..{self.last[0] + 1}, "
                f"rows -1..{self.last[1] + 1})",
            )
            return None
        lab = self.layout.label_of(h)
        named = f" (VASSAL names it {lab!r})" if lab else ""
        self.note(rec, f"hex ({c},{r}){named} has its centre off the board: the pack's map has no such hex")
        return None

    def note(self, rec: TerrainRecord, message: str) -> None:
        self.notes.append(Note(rec.line, message))

    def words(self, rec: TerrainRecord, kind: str, count: int = 1, default: bool = False) -> frozenset[str] | None:
        """The pack's words for a record's name (or an attribute's value), None when unmapped.

        `count`: the records or hexes it stands for; `default`: an attribute's default value."""
        if rec.name == "" and kind != "attribute":  # the extension's "no terrain"
            return frozenset()
        if kind == "attribute":
            table = None if self.names is None else self.names.attribute.get(rec.name)
            found = None if table is None else table.get(rec.value)
            what = f"attribute {rec.name!r} value {rec.value!r}" + (" (its default)" if default else "")
            what += " (attributes need a --map-names table)" if self.names is None else ""
        elif self.names is None:
            found = frozenset({rec.name}) if is_word(rec.name) else None
            what = f"{_WHAT[kind]} {rec.name!r} (not one word: map it with --map-names)"
        else:
            found = getattr(self.names, kind).get(rec.name)
            what = f"{_WHAT[kind]} {rec.name!r}"
        if found is None:
            entry = self.unmapped.setdefault(what, Unmapped(what))
            entry.count += count
            if not default:
                entry.lines.append(rec.line)
        return found

    def defined(self, rec: TerrainRecord, kind: str) -> bool:
        known = self.defs.names(kind)
        if rec.name in known:
            return True
        listed = ", ".join(repr(n) for n in sorted(known)) or "none"
        self.note(
            rec,
            f"{_WHAT[kind]} {rec.name!r} is not defined in the module's TerrainDefinitions "
            f"(defined {_WHAT[kind]}: {listed})",
        )
        return False

    def run(self) -> Imported:
        hex_lines: dict[Hex, TerrainRecord] = {}
        values: dict[tuple[Hex, str], TerrainRecord] = {}
        for rec in self.records:
            kind = KINDS[rec.kind]
            if (rec.name != "" or kind == "attribute") and not self.defined(rec, kind):
                continue
            h = self.hex_at(rec, rec.a)
            if h is None:
                continue
            if kind == "hex":
                self.hex_record(rec, h, hex_lines)
            elif kind == "attribute":
                self.attribute_record(rec, h, values)
            else:
                self.side_record(rec, h, kind)
        self.attributes(values)
        return self.result()

    def hex_record(self, rec: TerrainRecord, h: Hex, seen: dict[Hex, TerrainRecord]) -> None:
        before = seen.get(h)
        if before is not None and before.name != rec.name:
            self.note(
                rec,
                f"hex {self.label[h]} given twice: line {before.line} says {before.name!r}, this line "
                f"says {rec.name!r}; this line wins, as in the extension",
            )
        seen[h] = rec
        words = self.words(rec, "hex")
        if words is not None:
            self.terrain[h] = set(words)
            self.used += 1
        else:
            self.terrain.pop(h, None)

    def attribute_record(self, rec: TerrainRecord, h: Hex, values: dict[tuple[Hex, str], TerrainRecord]) -> None:
        before = values.get((h, rec.name))
        if before is not None and before.value != rec.value:
            self.note(
                rec,
                f"attribute {rec.name!r} of hex {self.label[h]} given twice: line {before.line} says "
                f"{before.value!r}, this line says {rec.value!r}; this line wins, as in the extension",
            )
        values[(h, rec.name)] = rec

    def side_record(self, rec: TerrainRecord, h: Hex, kind: str) -> None:
        assert rec.b is not None
        other = self.hex_at(rec, rec.b)
        if other is None:
            return
        if hx.direction_to(h, other) is None:
            self.note(
                rec,
                f"{kind} {rec.name!r} joins hexes {self.label[h]} and {self.label[other]}, which are not "
                "neighbours: a hexside lies between two neighbouring hexes",
            )
            return
        words = self.words(rec, kind)
        if words is not None:
            self.sides.setdefault(hx.hexside(h, other), set()).update(words)
            self.used += 1

    def attributes(self, values: dict[tuple[Hex, str], TerrainRecord]) -> None:
        """Every hex takes each attribute's value, or the definition's default (11.2)."""
        for name, default in sorted(self.defs.attribute.items()):
            for (h, n), rec in sorted(values.items(), key=lambda item: item[1].line):
                if n == name and rec.value != "":
                    words = self.words(rec, "attribute")
                    self.used += words is not None
                    self.terrain.setdefault(h, set()).update(words or ())
            bare = [h for h in self.label if (h, name) not in values]
            if bare and default != "":
                rec = TerrainRecord(0, "a", (0, 0), name, value=default)
                words = self.words(rec, "attribute", len(bare), default=True)
                for h in bare:
                    self.terrain.setdefault(h, set()).update(words or ())

    def result(self) -> Imported:
        words = self.names.terrain_words() if self.names else frozenset()
        features = self.names.feature_words() if self.names else frozenset()
        voc = TerrainVocabulary(
            terrain=words | _union(self.terrain.values()), features=features | _union(self.sides.values())
        )
        tmap = TerrainMap(
            voc,
            {h: frozenset(ts) for h, ts in self.terrain.items()},
            {s: frozenset(fs) for s, fs in self.sides.items()},
            board=frozenset(self.label),
        )
        notes = tuple(sorted(self.notes, key=lambda n: n.line))
        return Imported(tmap, notes, tuple(self.unmapped.values()), len(self.records), self.used)


def _union(sets: Iterable[set[str]]) -> frozenset[str]:
    return frozenset(w for s in sets for w in s)


def import_terrain(
    records: list[TerrainRecord], defs: TerrainDefinitions, layout: HexLayout, names: NameMap | None = None
) -> Imported:
    """The `TerrainMap` the records give on `layout`, with what could not be used.

    Without `names`, each module name is written as it is when it is one word; attributes
    always need a table (their values are not terrain types).
    """
    return _Import(list(records), defs, layout, names).run()
