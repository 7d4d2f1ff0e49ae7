"""Region expressions in a pack's hex specs (RULES-MAP N15): sets of hexes said the way
rulebooks say them, wherever a pack gives hexes (`RuleContext.hexes`).

An expression is terms joined by operators, read left to right (no brackets):

- a term is a hex, a label range ("0623-1423"), a comma list, or a place of the terrain file
  (as before); or a predicate: ``row<10``, ``row>=17``, ``col>23``, ``col=12`` (by the
  numbers the layout's labels show: seed 003 Sc.1 "north of row xx.10"
  is ``row<10``), ``place-kind:port`` (every place of that kind), ``terrain:minefield``
  (every hex of that terrain type);
- ``A - B`` is A without B, ``A + B`` is A or B, ``A & B`` is both. The operators need a
  space on each side, since "0623-1423" is a range.

Pure: the terrain and layout come in; a term that names nothing is a ValueError naming it.

>>> from vassal_adj.model.terrain import TerrainMap, TerrainVocabulary
>>> a, b = Hex.from_raw(1, 1), Hex.from_raw(1, 2)
>>> t = TerrainMap(TerrainVocabulary(frozenset({"minefield"}), frozenset()), hex_terrain={b: {"minefield"}})
>>> expand("Box - terrain:minefield", lambda s: (a, b), t, None) == (a,)
True
"""

from __future__ import annotations

import operator
import re
from collections.abc import Callable

from vassal_adj.model.geometry.hexes import Hex
from vassal_adj.model.geometry.layout import HexLayout
from vassal_adj.model.terrain import TerrainMap

__all__ = ["expand", "is_region"]

_OPS = {"+": "or", "-": "without", "&": "and"}
_SPLIT = re.compile(r"\s+([-+&])\s+")
_LINE = re.compile(r"(row|col)\s*(<=|>=|<|>|=)\s*(\d+)\Z")
_KIND = re.compile(r"(place-kind|terrain):\s*(\S.*)\Z")
_COMPARE = {"<": operator.lt, "<=": operator.le, ">": operator.gt, ">=": operator.ge, "=": operator.eq}

Atom = Callable[[str], tuple[Hex, ...]]


def is_region(spec: str) -> bool:
    """Whether `spec` is an expression (an operator or a predicate), not a plain hex spec."""
    s = spec.strip()
    return bool(_SPLIT.search(s) or _LINE.match(s) or _KIND.match(s))


def expand(spec: str, atom: Atom, terrain: TerrainMap, layout: HexLayout | None) -> tuple[Hex, ...]:
    """The hexes of `spec`, in the order of its terms. `atom` expands a plain term (a label
    range or a place); ValueError names the term that names nothing."""
    parts = _SPLIT.split(spec.strip())
    out = dict.fromkeys(_term(parts[0], atom, terrain, layout))
    for op, term in zip(parts[1::2], parts[2::2], strict=True):
        hexes = _term(term, atom, terrain, layout)
        if op == "+":
            out.update(dict.fromkeys(hexes))
        else:
            keep = set(hexes)
            out = {h: None for h in out if (h in keep) == (op == "&")}
    return tuple(out)


def _term(term: str, atom: Atom, terrain: TerrainMap, layout: HexLayout | None) -> tuple[Hex, ...]:
    term = term.strip()
    if m := _LINE.match(term):
        return _line(term, m.group(1), _COMPARE[m.group(2)], int(m.group(3)), terrain, layout)
    if m := _KIND.match(term):
        what, name = m.group(1), m.group(2).strip()
        if what == "place-kind":
            if terrain.vocabulary.unknown_place_kinds([name]):
                raise ValueError(
                    f"region term {term!r}: {name!r} is not a place kind of the pack "
                    f"(known: {', '.join(sorted(terrain.vocabulary.place_kinds))})"
                )
            return tuple(h for p in terrain.places(name) for h in p.hexes)
        if terrain.vocabulary.unknown_terrain([name]):
            raise ValueError(
                f"region term {term!r}: {name!r} is not a terrain type of the pack "
                f"(known: {', '.join(sorted(terrain.vocabulary.terrain))})"
            )
        return tuple(sorted((h for h in terrain.hexes() if terrain.has_terrain(h, name)), key=Hex.raw))
    return atom(term)


def _line(
    term: str, axis: str, compare: Callable[[int, int], bool], n: int, terrain: TerrainMap, layout: HexLayout | None
) -> tuple[Hex, ...]:
    """The board's hexes whose numbered row (or column), as its labels show it, compares with `n`."""
    if layout is None or not layout.numbered:
        raise ValueError(
            f"region term {term!r}: the board has no numbered hex grid, so rows and columns have no numbers"
        )
    out = []
    for h in layout.hexes():
        col, row = layout.colrow(h)
        name = layout.row_name(row) if axis == "row" else layout.column_name(col)
        if not name.isdigit():
            raise ValueError(f"region term {term!r}: the board's {axis}s are named by letters ({name!r}), not numbers")
        if compare(int(name), n) and terrain.on_board(h):
            out.append(h)
    return tuple(out)
