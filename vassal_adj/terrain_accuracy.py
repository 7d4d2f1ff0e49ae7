"""How right a sampled terrain is: `terrain sample --compare T` against a reference terrain file.

A hex is right when the terrain the sampling gave it is one of the reference's types for it
(a "clear town" hex sampled "clear" is right; hexes the reference gives no terrain are left
out and counted). A hexside is right when the sampling found exactly the reference's features
on it. Per terrain type and per feature the table counts the reference's hexes (hexsides),
those the sampling found, those it missed and those it gave the type where the reference does
not (extra). The hexes and hexsides that differ are kept for the preview to mark.
"""

from __future__ import annotations

import csv
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path

from vassal_adj.errors import UsageError, Where
from vassal_adj.model.geometry.hexes import Hex, HexSide
from vassal_adj.model.geometry.layout import HexLayout
from vassal_adj.model.terrain import DEFAULT_PLACE_KINDS, TerrainMap, TerrainVocabulary
from vassal_adj.parse.terrain_file import read_terrain_on

__all__ = ["Accuracy", "Tally", "accuracy_table", "compare", "read_reference"]


@dataclass(frozen=True)
class Tally:
    """One terrain type or feature: how many hexes (hexsides) the reference gives it, how many
    of those the sampling gave it too, and how many the sampling gave it that the reference does not."""

    name: str
    reference: int
    found: int
    extra: int

    @property
    def missed(self) -> int:
        return self.reference - self.found


@dataclass(frozen=True)
class Accuracy:
    """A sampling compared with a reference terrain."""

    reference: str  # the reference file
    hexes: int  # hexes compared (the reference gives them terrain)
    hexes_right: int
    terrain: tuple[Tally, ...]
    unlisted: int  # sampled hexes the reference gives no terrain (not compared)
    sides: int  # hexsides compared (every one between two labelled hexes)
    sides_right: int
    features: tuple[Tally, ...]
    wrong_hexes: frozenset[Hex]
    wrong_sides: frozenset[HexSide]

    def as_dict(self) -> dict[str, object]:
        def rows(tallies: tuple[Tally, ...]) -> dict[str, dict[str, int]]:
            return {
                t.name: {"reference": t.reference, "found": t.found, "missed": t.missed, "extra": t.extra}
                for t in tallies
            }

        return {
            "reference": self.reference,
            "hexes": self.hexes,
            "hexes_right": self.hexes_right,
            "unlisted": self.unlisted,
            "terrain": rows(self.terrain),
            "hexsides": self.sides,
            "hexsides_right": self.sides_right,
            "features": rows(self.features),
        }


def _tallies(pairs: Iterable[tuple[frozenset[str], frozenset[str]]]) -> tuple[Tally, ...]:
    """Per name, from (reference names, sampled names) of each hex or hexside."""
    ref: dict[str, int] = {}
    found: dict[str, int] = {}
    extra: dict[str, int] = {}
    for want, got in pairs:
        for n in want:
            ref[n] = ref.get(n, 0) + 1
            found[n] = found.get(n, 0) + (n in got)
        for n in got - want:
            extra[n] = extra.get(n, 0) + 1
    return tuple(Tally(n, ref.get(n, 0), found.get(n, 0), extra.get(n, 0)) for n in sorted({*ref, *extra}))


def compare(
    sampled: Mapping[Hex, str],
    sides: Iterable[HexSide],
    features: Mapping[HexSide, frozenset[str]],
    reference: TerrainMap,
    name: str,
) -> Accuracy:
    """The sampling (`sampled`: hex -> the terrain it gave; `features`: what it found on each of
    `sides`, the hexsides it looked at) against `reference`."""
    listed = {h: t for h, t in sampled.items() if reference.terrain(h)}
    wrong_hexes = frozenset(h for h, t in listed.items() if t not in reference.terrain(h))
    terrain = _tallies((reference.terrain(h), frozenset({t})) for h, t in listed.items())
    all_sides = list(dict.fromkeys(sides))
    got = {s: features.get(s, frozenset()) for s in all_sides}
    want = {s: reference.side_features.get(s, frozenset()) for s in all_sides}
    wrong_sides = frozenset(s for s in all_sides if got[s] != want[s])
    return Accuracy(
        name,
        len(listed),
        len(listed) - len(wrong_hexes),
        terrain,
        len(sampled) - len(listed),
        len(all_sides),
        len(all_sides) - len(wrong_sides),
        _tallies((want[s], got[s]) for s in all_sides),
        wrong_hexes,
        wrong_sides,
    )


def _names(text: str) -> TerrainVocabulary:
    """The names a terrain file uses (its own vocabulary: the reference may name types the palette has not)."""
    terrain: set[str] = set()
    features: set[str] = set()
    kinds: set[str] = set()
    by_record = {"hex": terrain, "hexside": features, "path": features, "place": kinds}
    for line in text.splitlines():
        # a "#" inside a quoted place name cuts the line short here: at worst a name is missing,
        # and reading the file then says which
        fields = next(csv.reader([line.split("#", 1)[0]]), [])
        if len(fields) < 3:
            continue
        by_record.get(fields[0].strip(), set()).update(fields[2].split())
    return TerrainVocabulary(frozenset(terrain), frozenset(features), frozenset(kinds) | DEFAULT_PLACE_KINDS)


def read_reference(path: str, layout: HexLayout) -> TerrainMap:
    """The reference terrain file on the sampled board (PackError naming the file and line when it does not read)."""
    try:
        text = Path(path).read_text(encoding="utf-8-sig")
    except FileNotFoundError:
        raise UsageError("reference terrain file not found", Where(path=path)) from None
    except (OSError, UnicodeDecodeError) as e:
        raise UsageError(f"cannot read the reference terrain file: {e}", Where(path=path)) from None
    return read_terrain_on(layout, text, path=path, vocabulary=_names(text))


def _share(right: int, total: int) -> str:
    return f"{right}/{total} right ({100 * right / total:.1f}%)" if total else "none compared"


def accuracy_table(a: Accuracy) -> list[str]:
    """The accuracy as the command line prints it: totals, then a table per terrain type and per feature."""
    out = [
        f"against {a.reference}: hexes {_share(a.hexes_right, a.hexes)}"
        + (f", {a.unlisted} with no terrain in the reference not compared" if a.unlisted else "")
        + f"; hexsides {_share(a.sides_right, a.sides)}"
    ]
    for title, rows in (("terrain", a.terrain), ("feature", a.features)):
        if not rows:
            continue
        width = max(len(title), *(len(t.name) for t in rows))
        out.append(f"  {title:<{width}}  reference  found  missed  extra")
        out += [f"  {t.name:<{width}}  {t.reference:>9}  {t.found:>5}  {t.missed:>6}  {t.extra:>5}" for t in rows]
    return out
