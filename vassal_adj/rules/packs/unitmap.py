"""How a pack turns VASSAL pieces into units: the ``units.toml`` file (pure: parsed mappings in).

A piece becomes a `Unit` in four layers, later ones overriding earlier ones:

1. the first ``[[pattern]]`` whose regex matches the whole piece name gives the printed
   numbers (named groups ``attack``, ``defense``, ``movement``, ``barrage``, ``fpf``,
   ``range``, ``steps``, and ``designation``) and the pattern's own fields (e.g. ``kind``); any
   other named group becomes a unit attribute (``Unit.attrs``: ``(?P<size>[XIV]+)``, an int when
   it is all digits, e.g. seed 004's arrival turn printed on the counter, 7.1);
2. ``[properties]`` reads fields from piece properties (markers, prototypes: ``Side=Allied``);
3. every ``[[group]]`` whose ``match`` fits, in file order (e.g. all ``Side=Axis`` are German);
4. the one ``[[unit]]`` for that counter, selected by ``designation`` (and ``match`` where
   designations repeat: the example module has an Axis ``2-1-7 (1/1)`` and an Allied ``2-1-14(1/1)``).

A piece is never guessed: a name no pattern matches, two ``[[unit]]`` entries for one piece,
a side or class not known, are all returned as `Unmapped` with the reason, and the engine
reports them. Pieces named by ``ignore`` (markers, the turn counter) are neither.

Every layer may also set ``attrs = { size = 3 }`` and ``groups = { army = "1st British" }`` (fields:
``GROUP_FIELDS``); these merge key by key, later layers overriding earlier ones, as flags add up.
``[properties]`` may read them from piece properties too: ``attrs = { strength = "Step_Level" }``.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from types import MappingProxyType
from typing import Any

from vassal_adj.model.pieces import Piece
from vassal_adj.model.units import GROUP_FIELDS, Unit
from vassal_adj.parse.tokens import whole_number
from vassal_adj.rules.packs.pack import UnitClass
from vassal_adj.rules.packs.units_file import FIELDS, INT_FIELDS, STR_FIELDS, Entry, Pattern, UnitsReader, norm

__all__ = ["FIELDS", "INT_FIELDS", "UnitMap", "Unmapped", "map_units", "printed_units"]

_MERGED = ("flags", "attrs", "groups")  # fields every layer adds to rather than replaces


@dataclass(frozen=True)
class Unmapped:
    """A piece the pack cannot make a unit of, and why (reported as a finding)."""

    piece: Piece
    reason: str


@dataclass(frozen=True)
class UnitMap:
    """A validated units.toml. Build it with `UnitMap.from_mapping`; apply it with `map_units`."""

    patterns: tuple[Pattern, ...]
    properties: Mapping[str, str]  # unit field -> piece property it is read from
    groups: tuple[Entry, ...]
    units: tuple[Entry, ...]
    ignore: tuple[re.Pattern[str], ...]
    defaults: Mapping[str, Any]
    classes: Mapping[str, UnitClass] = field(default_factory=dict)
    sides: tuple[str, ...] = ()
    source: str = field(default="units.toml", compare=False)
    # [properties] attrs / groups: attribute or group field -> the piece property it is read from
    attr_properties: Mapping[str, str] = field(default_factory=dict)
    group_properties: Mapping[str, str] = field(default_factory=dict)

    @classmethod
    def from_mapping(
        cls,
        data: Mapping[str, Any],
        *,
        source: str = "units.toml",
        classes: Mapping[str, UnitClass] | None = None,
        sides: Sequence[str] = (),
    ) -> UnitMap:
        """Validate a parsed units.toml. `classes` and `sides` come from the pack (checked when given).

        Raises PackError naming `source` and the key path, e.g. ``units.toml: pattern[1].regex``.
        """
        v = UnitsReader(source, classes or {}, tuple(sides))
        v.keys(data, "", {"pattern", "properties", "group", "unit", "ignore", "defaults"})
        patterns = tuple(v.pattern(p, f"pattern[{i}]") for i, p in enumerate(v.array(data, "pattern")))
        if not patterns:
            raise v.error("pattern", "missing required key: at least one [[pattern]] is needed")
        props = dict(v.table(data.get("properties", {}), "properties"))
        read = {k: v.property_names(props.pop(k, {}), f"properties.{k}") for k in ("attrs", "groups")}
        for k in read["groups"]:
            if k not in GROUP_FIELDS:
                raise v.error(f"properties.groups.{k}", f"unknown group field (known: {', '.join(GROUP_FIELDS)})")
        for k, prop in props.items():
            if k not in STR_FIELDS and k not in INT_FIELDS:
                known = ", ".join((*STR_FIELDS, *INT_FIELDS, "attrs", "groups"))
                raise v.error(f"properties.{k}", f"unknown key (known here: {known})")
            if not isinstance(prop, str):
                raise v.error(f"properties.{k}", f"expected str (a piece property name), got {prop!r}")
        groups = tuple(v.entry(g, f"group[{i}]", need_designation=False) for i, g in enumerate(v.array(data, "group")))
        units = tuple(v.entry(u, f"unit[{i}]", need_designation=True) for i, u in enumerate(v.array(data, "unit")))
        ignore = []
        for i, text in enumerate(v.typed(data, "ignore", list, [])):
            ignore.append(v.regex(text, f"ignore[{i}]"))
        defaults = v.sets(v.table(data.get("defaults", {}), "defaults"), "defaults", set())
        return cls(
            patterns,
            MappingProxyType(props),
            groups,
            units,
            tuple(ignore),
            defaults,
            MappingProxyType(dict(classes or {})),
            tuple(sides),
            source,
            read["attrs"],
            read["groups"],
        )

    @cached_property
    def _units_by_match(self) -> tuple[tuple[tuple[str, ...], dict[tuple[str | None, ...], list[int]]], ...]:
        """The unit entries (their places in `units`) by the keys their ``match`` names and the
        values it wants for them."""
        index: dict[tuple[str, ...], dict[tuple[str | None, ...], list[int]]] = {}
        for i, u in enumerate(self.units):
            keys = tuple(u.match)
            index.setdefault(keys, {}).setdefault(tuple(u.match[k] for k in keys), []).append(i)
        return tuple(index.items())

    def map_piece(self, piece: Piece) -> Unit | Unmapped | None:
        """The unit a piece is, why it is none (`Unmapped`), or None for an ignored piece."""
        name = norm(piece.name)
        if any(r.fullmatch(name) for r in self.ignore):
            return None
        for pat in self.patterns:
            m = pat.regex.fullmatch(name)
            if m:
                break
        else:
            return Unmapped(piece, f"name {piece.name!r} matches no pattern of {self.source}")
        found: dict[str, Any] = {"pattern": pat.name}
        found.update((k, norm(v)) for k, v in m.groupdict().items() if v is not None)
        values: dict[str, Any] = {}
        flags: set[str] = set()
        attrs: dict[str, int | str] = {}
        groups: dict[str, str] = {}

        def apply(sets: Mapping[str, Any]) -> None:
            flags.update(sets.get("flags", ()))
            attrs.update(sets.get("attrs", {}))
            groups.update(sets.get("groups", {}))
            values.update({k: v for k, v in sets.items() if k not in _MERGED})

        apply(self.defaults)
        apply(pat.sets)
        for k, v in found.items():
            if k in INT_FIELDS or k == "designation":
                values[k] = v
            elif k != "pattern":
                attrs[k] = v if (n := whole_number(v)) is None else n
        for k, prop in self.properties.items():
            if prop in piece.properties and piece.properties[prop] != "":
                values[k] = piece.properties[prop]
        for k, prop in self.attr_properties.items():
            if (text := norm(piece.properties.get(prop, ""))) != "":
                attrs[k] = int(text) if text.isdigit() else text
        for k, prop in self.group_properties.items():
            if (text := norm(piece.properties.get(prop, ""))) != "":
                groups[k] = text

        normed: dict[str, str | None] = {}  # each key's value read once: every entry asks (startup time)

        def value(k: str) -> str | None:
            if k not in normed:
                have = found.get(k, piece.properties.get(k))
                normed[k] = None if have is None else norm(have)
            return normed[k]

        def fits(entry: Entry) -> bool:
            for k, want in entry.match.items():
                have = value(k)
                if have is None or have != want:
                    return False
            return True

        for g in self.groups:
            if fits(g):
                apply(g.sets)
        # the entries that fit, in file order: looked up by the values each set of match keys
        # wants, as `fits` would find them one by one (startup time, issue 10)
        at: list[int] = []
        for keys, entries in self._units_by_match:
            at += entries.get(tuple(value(k) for k in keys), ())
        hits = [self.units[i] for i in sorted(at)]
        if len(hits) > 1:
            return Unmapped(
                piece,
                f"name {piece.name!r} fits {len(hits)} unit entries of {self.source}: "
                f"{', '.join(u.where for u in hits)} (add a 'match' to tell them apart)",
            )
        if hits:
            apply(hits[0].sets)
        return self._unit(piece, values, flags, attrs, groups)

    def _unit(
        self, piece: Piece, values: dict[str, Any], flags: set[str], attrs: dict[str, int | str], groups: dict[str, str]
    ) -> Unit | Unmapped:
        for k in INT_FIELDS:
            if k in values and not isinstance(values[k], int):
                text = str(values[k]).strip()
                number = whole_number(text)
                if number is None:
                    return Unmapped(piece, f"{k} {values[k]!r} of {piece.name!r} is not a whole number")
                values[k] = number
        for k in ("side", "kind", "movement"):
            if k not in values:
                return Unmapped(
                    piece,
                    f"no {k} for {piece.name!r}: neither its name, its properties "
                    f"nor an entry of {self.source} gives one",
                )
        if self.sides and values["side"] not in self.sides:
            return Unmapped(
                piece,
                f"side {values['side']!r} of {piece.name!r} is not a side of the pack (known: {', '.join(self.sides)})",
            )
        cls = self.classes.get(values["kind"])
        if self.classes and cls is None:
            return Unmapped(
                piece,
                f"class {values['kind']!r} of {piece.name!r} is not a unit class of the pack "
                f"(known: {', '.join(sorted(self.classes))})",
            )
        mechanized = values.get("mechanized", cls.mechanized if cls else False)
        if cls:
            flags |= cls.flags
        return Unit(
            id=piece.id,
            name=piece.name,
            side=values["side"],
            kind=values["kind"],
            movement=values["movement"],
            attack=values.get("attack"),
            defense=values.get("defense"),
            barrage=values.get("barrage"),
            fpf=values.get("fpf"),
            range=values.get("range"),
            steps=values.get("steps", 1),
            mechanized=mechanized,
            designation=values.get("designation", ""),
            formation=values.get("formation", ""),
            nationality=values.get("nationality", ""),
            flags=frozenset(flags),
            attrs=MappingProxyType(attrs),
            groups=MappingProxyType(groups),
            properties=piece.properties,
        )


def map_units(pieces: Iterable[Piece], unitmap: UnitMap) -> tuple[list[Unit], list[Unmapped]]:
    """The units of `pieces` and the pieces the pack cannot map (never guessed), in piece order."""
    units: list[Unit] = []
    unmapped: list[Unmapped] = []
    for piece in pieces:
        got = unitmap.map_piece(piece)
        if isinstance(got, Unit):
            units.append(got)
        elif got is not None:
            unmapped.append(got)
    return units, unmapped


# A printed unit in a set-up list: strengths (two to five numbers, one '/' at most), then the
# designation in parentheses, with or without a space before it ("2-1-14(1/1)").
_PRINTED = re.compile(r"(\d+(?:-\d+)+(?:/\d+-\d+)?)\s*\(([^)]*)\)")


def printed_units(text: str) -> list[str]:
    """The units a rulebook set-up entry lists, one a counter, as ``"strengths (designation)"``.

    An entry may stand for several counters: ``2-1-11 (894 and 805)`` is two units,
    ``2-1-11 (894)`` and ``2-1-11 (805)``. This is for building set-ups and examples from the
    printed lists; a VASSAL piece is always one unit and is never split.

    >>> printed_units("0306     2-1-11 (894 and 805), 1-2-3/1-7 (7), 2-2-9(3/90 and 1/90)")
    ['2-1-11 (894)', '2-1-11 (805)', '1-2-3/1-7 (7)', '2-2-9 (3/90)', '2-2-9 (1/90)']
    """
    out = []
    for m in _PRINTED.finditer(text):
        for designation in re.split(r"\s+and\s+", m.group(2).strip()):
            out.append(f"{m.group(1)} ({norm(designation)})")
    return out
