"""The pack terrain file (`modules/<game>/terrain.csv`): read it into a `TerrainMap`, write one.

The format is documented in docs/terrain.md. One record a line, comma separated, in the
game's own hex labels; `#` starts a comment (outside double quotes) and blank lines are
ignored::

    hex,2714,clear town                      # terrain of one hex (or of several, or a range)
    hexside,0312/0413,road                   # features of a hexside
    path,0306 0406 0507 0607,road            # a feature on every side along a chain of hexes
    place,Sbeitla,town objective,2714        # a named place: name, kinds, hexes
    offmap,0101 0201                         # hexes off the playing area

The parser knows no grid. The caller gives it the board's label mapping as callables:

- ``resolve(label) -> Hex | None``: the hex of a label, None when the board has no such hex;
- ``expand(word) -> list[str]``: the labels a word stands for, e.g. a range "0623-1423"
  (all hexes of the row or column between the two, inclusive); a single label gives
  ``[label]``; raises ValueError for a malformed range;
- ``side(spec) -> (label, label)`` (optional): the two hexes of a hexside written "0312/0413"
  or "0312/N"; without it only the "label/label" form is understood;
- ``label_of(hex) -> str | None``: the label of a hex, used in messages and by the writer.

Every problem raises `PackError` naming the file, the line and the offending value.
"""

from __future__ import annotations

import csv
from collections.abc import Callable, Iterator
from itertools import pairwise

from vassal_adj.errors import PackError, VassalAdjError, Where
from vassal_adj.model.geometry.hexes import Hex, HexSide, distance, hexside
from vassal_adj.model.geometry.layout import HexLayout
from vassal_adj.model.terrain import Place, TerrainMap, TerrainVocabulary

__all__ = ["RECORDS", "read_terrain", "read_terrain_on", "write_terrain"]

Resolve = Callable[[str], Hex | None]
Expand = Callable[[str], list[str]]
SideOf = Callable[[str], tuple[str, str]]
LabelOf = Callable[[Hex], str | None]

# Record kind -> the fields it takes, in order (the usage shown in messages).
RECORDS: dict[str, tuple[str, ...]] = {
    "hex": ("hexes", "terrain types"),
    "hexside": ("hexsides", "features"),
    "path": ("hexes in order", "features"),
    "place": ("name", "kinds", "hexes"),
    "offmap": ("hexes",),
}


def _strip_comment(line: str) -> str:
    """The line up to a `#` that is outside double quotes."""
    quoted = False
    for i, ch in enumerate(line):
        if ch == '"':
            quoted = not quoted
        elif ch == "#" and not quoted:
            return line[:i]
    return line


def _records(text: str, path: str) -> Iterator[tuple[int, list[str], bool]]:
    """(line number, fields, had a comment) for each line that is not blank or a comment."""
    for n, raw in enumerate(text.removeprefix("\ufeff").split("\n"), 1):
        raw = raw.rstrip("\r")
        body = _strip_comment(raw)
        if not body.strip():
            continue
        if body.count('"') % 2:
            raise PackError(f"malformed line: unbalanced double quote in {raw.strip()!r}", Where(path=path, line=n))
        try:
            fields = [f.strip() for f in next(csv.reader([body], skipinitialspace=True))]
        except csv.Error as e:  # a carriage return inside the line (fuzzing, issue 17)
            raise PackError(f"malformed line: {e} in {raw.strip()!r}", Where(path=path, line=n)) from None
        while fields and not fields[-1]:  # spreadsheets pad short rows with commas
            fields.pop()
        if fields:  # a row of commas alone is a spreadsheet's blank row (fuzzing, issue 17)
            yield n, fields, body != raw


class _Reader:
    """The state of one read: what each line gave, and where, for conflict messages."""

    def __init__(
        self,
        path: str,
        vocabulary: TerrainVocabulary,
        resolve: Resolve,
        expand: Expand,
        side: SideOf | None,
        label_of: LabelOf,
    ) -> None:
        self.path, self.voc = path, vocabulary
        self.resolve, self.expand, self.side, self.label_of = resolve, expand, side, label_of
        self.line = 0
        self.hexes: dict[Hex, frozenset[str]] = {}
        self.hex_line: dict[Hex, int] = {}
        self.sides: dict[HexSide, set[str]] = {}
        self.places: list[Place] = []
        self.place_line: dict[str, int] = {}
        self.off: set[Hex] = set()

    def error(self, message: str) -> PackError:
        return PackError(message, Where(path=self.path, line=self.line))

    def label(self, h: Hex, fallback: str) -> str:
        return self.label_of(h) or fallback

    # -- values --------------------------------------------------------------------------
    def hex_of(self, label: str, word: str) -> Hex:
        try:
            h = self.resolve(label)
        except (ValueError, KeyError):
            h = None
        if h is None:
            inside = f" (from {word!r})" if word != label else ""
            raise self.error(f"unknown hex label {label!r}{inside}")
        return h

    def hex_list(self, text: str) -> list[tuple[Hex, str]]:
        """The hexes of a space-separated list of labels and ranges, in order, with labels."""
        out: list[tuple[Hex, str]] = []
        for word in text.split():
            try:
                labels = list(self.expand(word))
            except (ValueError, KeyError) as e:
                raise self.error(f"bad hex range {word!r}: {e}") from None
            if not labels:
                raise self.error(f"{word!r} names no hex")
            out += [(self.hex_of(lab, word), lab) for lab in labels]
        if not out:
            raise self.error("no hex given")
        return out

    def names(self, text: str, known: frozenset[str], what: str) -> frozenset[str]:
        words = text.split()
        if not words:
            raise self.error(f"no {what} given (known: {', '.join(sorted(known))})")
        for w in words:
            if w not in known:
                raise self.error(f"unknown {what} {w!r} (known: {', '.join(sorted(known))})")
        return frozenset(words)

    def adjacent(self, a: Hex, b: Hex, la: str, lb: str, context: str) -> HexSide:
        if distance(a, b) != 1:
            raise self.error(f"hexes {self.label(a, la)!r} and {self.label(b, lb)!r} are not adjacent{context}")
        return hexside(a, b)

    def hexside_of(self, spec: str) -> HexSide:
        if self.side is not None:
            try:
                la, lb = self.side(spec)
            except (ValueError, KeyError) as e:
                raise self.error(f"bad hexside {spec!r}: {e}") from None
        else:
            parts = spec.split("/")
            if len(parts) != 2 or not all(parts):
                raise self.error(f"bad hexside {spec!r}: expected two hex labels joined by '/', e.g. '0312/0413'")
            la, lb = parts
        a, b = self.hex_of(la, spec), self.hex_of(lb, spec)
        return self.adjacent(a, b, la, lb, f" (hexside {spec!r})")

    # -- records -------------------------------------------------------------------------
    def record(self, kind: str, fields: list[str]) -> None:
        if kind == "hex":
            self.hex_record(fields[0], fields[1])
        elif kind == "hexside":
            specs = fields[0].split()
            if not specs:
                raise self.error("no hexside given")
            features = self.names(fields[1], self.voc.features, "hexside feature")
            for spec in specs:
                self.sides.setdefault(self.hexside_of(spec), set()).update(features)
        elif kind == "path":
            self.path_record(fields[0], fields[1])
        elif kind == "place":
            self.place_record(*fields)
        else:  # offmap
            self.off.update(h for h, _ in self.hex_list(fields[0]))

    def hex_record(self, where: str, what: str) -> None:
        hexes = self.hex_list(where)
        terrain = self.names(what, self.voc.terrain, "terrain type")
        for h, lab in hexes:
            before = self.hexes.get(h)
            if before is not None and before != terrain:
                raise self.error(
                    f"hex {self.label(h, lab)!r} given twice with different terrain: "
                    f"line {self.hex_line[h]} says {' '.join(sorted(before))!r}, "
                    f"this line says {' '.join(sorted(terrain))!r} (give each hex its terrain once)"
                )
            if before is None:
                self.hexes[h], self.hex_line[h] = terrain, self.line

    def path_record(self, where: str, what: str) -> None:
        hexes = self.hex_list(where)
        features = self.names(what, self.voc.features, "hexside feature")
        steps = [x for i, x in enumerate(hexes) if i == 0 or x[0] != hexes[i - 1][0]]
        if len(steps) < 2:
            raise self.error(f"a path needs at least two hexes, got {where!r}")
        for (a, la), (b, lb) in pairwise(steps):
            s = self.adjacent(a, b, la, lb, " (consecutive on the path)")
            self.sides.setdefault(s, set()).update(features)

    def place_record(self, name: str, kinds: str, where: str) -> None:
        if not name:
            raise self.error("place with no name")
        if name in self.place_line:
            raise self.error(f"place {name!r} already defined on line {self.place_line[name]}")
        kind_set = self.names(kinds, self.voc.place_kinds, "place kind")
        self.places.append(Place(name, kind_set, tuple(h for h, _ in self.hex_list(where))))
        self.place_line[name] = self.line


def read_terrain(
    text: str,
    *,
    path: str,
    vocabulary: TerrainVocabulary,
    resolve: Resolve,
    expand: Expand,
    side: SideOf | None = None,
    label_of: LabelOf,
) -> TerrainMap:
    """Read a terrain file into a `TerrainMap` (see the module docstring and docs/terrain.md).

    A hex's terrain is given once: a hex on two lines with different terrain is an error
    naming both lines (the same terrain twice is allowed). Hexside features add up: a side
    named by several `hexside` or `path` lines carries all their features.
    """
    r = _Reader(path, vocabulary, resolve, expand, side, label_of)
    for line, fields, commented in _records(text, path):
        r.line = line
        kind = fields[0].lower()
        usage = RECORDS.get(kind)
        if usage is None:
            raise r.error(f"unknown record {fields[0]!r} (expected one of: {', '.join(RECORDS)})")
        args = fields[1:]
        if len(args) != len(usage):
            shape = ",".join([kind, *(f"<{u}>" for u in usage)])
            hint = " ('#' starts a comment: quote a field that holds one)" if commented else ""
            raise r.error(f"a {kind!r} line needs {len(usage) + 1} fields ({shape}), got {len(fields)}{hint}")
        r.record(kind, args)
    try:
        return TerrainMap(
            vocabulary, r.hexes, {s: frozenset(f) for s, f in r.sides.items()}, tuple(r.places), frozenset(r.off)
        )
    except ValueError as e:  # not reachable through the checks above; kept as a safety net
        raise PackError(str(e), Where(path=path)) from e


# -- writing ------------------------------------------------------------------------------
def _field(text: str) -> str:
    """A CSV field, quoted when a comma, quote, `#` or edge space would change its meaning."""
    if any(ch in text for ch in ',"#') or text != text.strip():
        return '"' + text.replace('"', '""') + '"'
    return text


def _labeller(label_of: LabelOf) -> Callable[[Hex], str]:
    def label(h: Hex) -> str:
        lab = label_of(h)
        if not lab:
            raise ValueError(f"hex {h} has no label on this board")
        if any(ch.isspace() for ch in lab) or "/" in lab:
            raise ValueError(f"label {lab!r} cannot be written in a terrain file (space or '/')")
        return lab

    return label


def write_terrain(terrain_map: TerrainMap, label_of: LabelOf) -> str:
    """The terrain file for `terrain_map`, one hex or hexside a line, sorted by label.

    Made for a module author to read and correct (the terrain bootstrap writes it);
    ``read_terrain(write_terrain(m, label_of), ...) == m`` with the same vocabulary and
    labels. ValueError when a hex has no label.
    """
    label = _labeller(label_of)
    voc = terrain_map.vocabulary
    out = [
        "# vassal-adj terrain file: see docs/terrain.md",
        f"# terrain types: {' '.join(sorted(voc.terrain))}",
        f"# hexside features: {' '.join(sorted(voc.features))}",
        f"# place kinds: {' '.join(sorted(voc.place_kinds))}",
    ]
    hexes = sorted((label(h), ts) for h, ts in terrain_map.hex_terrain.items())
    if hexes:
        out += ["", "# hex,<hexes>,<terrain types>"]
        out += [f"hex,{_field(lab)},{' '.join(sorted(ts))}" for lab, ts in hexes]
    sides = sorted((*sorted((label(s.a), label(s.b))), fs) for s, fs in terrain_map.side_features.items())
    if sides:
        out += ["", "# hexside,<hex>/<hex>,<features>"]
        out += [f"hexside,{_field(a + '/' + b)},{' '.join(sorted(fs))}" for a, b, fs in sides]
    if terrain_map.named_places:
        out += ["", "# place,<name>,<kinds>,<hexes>"]
        out += [
            f"place,{_field(p.name)},{' '.join(sorted(p.kinds))},{_field(' '.join(label(h) for h in p.hexes))}"
            for p in terrain_map.named_places
        ]
    off = sorted(label(h) for h in terrain_map.off_map)
    if off:
        out += ["", "# offmap,<hexes>"]
        out += [f"offmap,{_field(' '.join(off[i : i + 12]))}" for i in range(0, len(off), 12)]
    return "\n".join(out) + "\n"


def read_terrain_on(layout: HexLayout, text: str, *, path: str, vocabulary: TerrainVocabulary) -> TerrainMap:
    """`read_terrain` with the label mapping of a board's hex layout (the usual way in)."""

    def resolve(label: str) -> Hex | None:
        try:
            return layout.require(label)  # an index lookup for the labels of the map
        except VassalAdjError:
            return None

    def expand(word: str) -> list[str]:
        try:
            return layout.expand_range(word)
        except VassalAdjError as e:
            raise ValueError(e.message) from None

    def side(spec: str) -> tuple[str, str]:
        try:
            a, b = layout.hexside(spec).hexes()
        except VassalAdjError as e:
            raise ValueError(e.message) from None
        return layout.label_of(a) or str(a), layout.label_of(b) or str(b)

    return read_terrain(
        text, path=path, vocabulary=vocabulary, resolve=resolve, expand=expand, side=side, label_of=layout.label_of
    )
