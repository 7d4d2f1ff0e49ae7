"""Reading a pack's ``units.toml``: each table checked, with its key path, into the patterns and
entries `UnitMap` (unitmap.py) applies to pieces. Pure: parsed mappings in, PackError out.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any

from vassal_adj.errors import PackError, Where
from vassal_adj.model.units import GROUP_FIELDS
from vassal_adj.rules.packs.pack import UnitClass

__all__ = ["FIELDS", "INT_FIELDS", "STR_FIELDS", "Entry", "Pattern", "UnitsReader", "norm"]

INT_FIELDS = ("attack", "defense", "movement", "barrage", "fpf", "range", "steps")
STR_FIELDS = ("side", "kind", "formation", "nationality", "designation")
FIELDS = (*STR_FIELDS, *INT_FIELDS, "mechanized", "flags", "attrs", "groups")
_SET_TYPES = {
    **{k: int for k in INT_FIELDS},
    **{k: str for k in STR_FIELDS},
    "mechanized": bool,
    "flags": list,
    "attrs": Mapping,
    "groups": Mapping,
}


def norm(text: str) -> str:
    """Whitespace collapsed: the printed '3-2-11    (31)' and '3-2-11 (31)' are one name."""
    return " ".join(str(text).split())


@dataclass(frozen=True)
class Pattern:
    """A name pattern of units.toml: its regular expression and the values a match sets."""

    name: str
    regex: re.Pattern[str]
    sets: Mapping[str, Any]


@dataclass(frozen=True)
class Entry:
    """A unit or group entry of units.toml: the values it wants (`match`) and those it sets."""

    where: str  # "unit[3]", for messages
    match: Mapping[str, str]
    sets: Mapping[str, Any]


class UnitsReader:
    """Checks of units.toml, each raising PackError with the key path."""

    def __init__(self, source: str, classes: Mapping[str, UnitClass], sides: tuple[str, ...]) -> None:
        self.source, self.classes, self.sides = source, classes, sides

    def error(self, path: str, message: str) -> PackError:
        return PackError(f"{path}: {message}", Where(path=self.source))

    def keys(self, data: Mapping[str, Any], path: str, allowed: set[str]) -> None:
        for k in data:
            if k not in allowed:
                known = ", ".join(sorted(allowed))
                raise self.error(f"{path}.{k}" if path else k, f"unknown key (known here: {known})")

    def table(self, data: object, path: str) -> Mapping[str, Any]:
        if not isinstance(data, Mapping):
            raise self.error(path, f"expected a table, got {data!r}")
        return data

    def array(self, data: Mapping[str, Any], key: str) -> list[Mapping[str, Any]]:
        items = data.get(key, [])
        if not isinstance(items, list):
            raise self.error(key, f"expected an array of tables ([[{key}]]), got {items!r}")
        return [self.table(x, f"{key}[{i}]") for i, x in enumerate(items)]

    def typed(self, data: Mapping[str, Any], key: str, type_: type, default: Any = None, path: str = "") -> Any:
        value = data.get(key, default)
        if not isinstance(value, type_) or (type_ is int and isinstance(value, bool)):
            where = f"{path}.{key}" if path else key
            raise self.error(where, f"expected {type_.__name__}, got {value!r} ({type(value).__name__})")
        return value

    def regex(self, text: object, path: str) -> re.Pattern[str]:
        if not isinstance(text, str):
            raise self.error(path, f"expected str (a regular expression), got {text!r}")
        try:
            return re.compile(text)
        except re.error as e:
            raise self.error(path, f"bad regular expression {text!r}: {e}") from None

    def pattern(self, data: Mapping[str, Any], path: str) -> Pattern:
        self.keys(data, path, {"name", "regex", *FIELDS} - {"designation"})
        if "regex" not in data:
            raise self.error(f"{path}.regex", "missing required key")
        rx = self.regex(data["regex"], f"{path}.regex")
        sets = self.sets(data, path, {"name", "regex"})
        if "movement" not in rx.groupindex and "movement" not in sets:
            # Every unit has a movement allowance; a pattern that cannot give one maps nothing.
            raise self.error(
                f"{path}.regex", f"{rx.pattern!r} has no (?P<movement>...) group and the pattern sets no movement"
            )
        return Pattern(self.typed(data, "name", str, path, path), rx, sets)

    def entry(self, data: Mapping[str, Any], path: str, *, need_designation: bool) -> Entry:
        # a group may match on a designation but cannot set one
        self.keys(data, path, {"match", "designation", *FIELDS} - (set() if need_designation else {"designation"}))
        match = {k: norm(str(v)) for k, v in self.table(data.get("match", {}), f"{path}.match").items()}
        if need_designation:
            if "designation" not in data:
                raise self.error(f"{path}.designation", "missing required key")
            match["designation"] = norm(self.typed(data, "designation", str, path=path))
        elif not match:
            raise self.error(f"{path}.match", "missing required key: a group applies to the pieces it matches")
        for k, v in data.get("match", {}).items():
            if isinstance(v, (list, Mapping, bool)):
                raise self.error(f"{path}.match.{k}", f"expected str or int, got {v!r}")
        return Entry(path, MappingProxyType(match), self.sets(data, path, {"match", "designation"}))

    def sets(self, data: Mapping[str, Any], path: str, skip: set[str]) -> Mapping[str, Any]:
        out: dict[str, Any] = {}
        for k, v in data.items():
            if k in skip:
                continue
            if k not in _SET_TYPES:
                raise self.error(f"{path}.{k}", f"unknown key (known here: {', '.join(FIELDS)})")
            out[k] = self.typed(data, k, _SET_TYPES[k], path=path)
            if k == "flags" and not all(isinstance(f, str) for f in v):
                raise self.error(f"{path}.flags", f"expected list of str, got {v!r}")
            if k == "attrs":
                out[k] = self.attrs(v, f"{path}.attrs")
            if k == "groups":
                out[k] = self.groups(v, f"{path}.groups")
            if k == "side" and self.sides and v not in self.sides:
                raise self.error(f"{path}.side", f"unknown side {v!r} (known: {', '.join(self.sides)})")
            if k == "kind" and self.classes and v not in self.classes:
                known = ", ".join(sorted(self.classes))
                raise self.error(f"{path}.kind", f"unknown unit class {v!r} (known: {known})")
        if "flags" in out:
            out["flags"] = tuple(out["flags"])
        return MappingProxyType(out)

    def property_names(self, data: object, path: str) -> Mapping[str, str]:
        table = self.table(data, path)
        for k, prop in table.items():
            if not isinstance(prop, str) or not prop:
                raise self.error(f"{path}.{k}", f"expected str (a piece property name), got {prop!r}")
        return MappingProxyType(dict(table))

    def attrs(self, data: Mapping[str, Any], path: str) -> Mapping[str, int | str]:
        for k, v in data.items():
            if isinstance(v, bool) or not isinstance(v, (int, str)):
                raise self.error(f"{path}.{k}", f"expected a whole number or a word, got {v!r}")
        return MappingProxyType(dict(data))

    def groups(self, data: Mapping[str, Any], path: str) -> Mapping[str, str]:
        for k, v in data.items():
            if k not in GROUP_FIELDS:
                raise self.error(f"{path}.{k}", f"unknown group field (known: {', '.join(GROUP_FIELDS)})")
            if not isinstance(v, str) or not v.strip():
                raise self.error(f"{path}.{k}", f"expected a name, got {v!r}")
        return MappingProxyType({k: norm(v) for k, v in data.items()})
