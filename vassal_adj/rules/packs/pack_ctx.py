"""Where a pack's values come from: `PackContext` builds the PackErrors that name the pack file
and the key path (``pack.toml: rules.movement.hexside_costs.stream: ...``), as pack.py and
pack_rules.py read the tables; `Assumption` is a value the pack itself supplies, which both of
them read. Pure: no files.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from vassal_adj.errors import PackError, Where
from vassal_adj.rules.registry import check_value

__all__ = ["Assumption", "PackContext", "join"]

_KEY = re.compile(r"[A-Za-z][A-Za-z0-9_-]*\Z")


@dataclass(frozen=True)
class Assumption:
    """A value the rulebook does not give: what it is, where it comes from, which rule needs it."""

    name: str
    value: object
    source: str  # e.g. "1976 SPI quadrigame rules, as publicly described"
    rule: str = ""  # the seed rule that implies it, if any, e.g. "19.2"
    note: str = ""


def join(path: str, *parts: str | int) -> str:
    """`path` with keys and list indexes appended: ``join("rules.x", "a b", 0)`` is ``rules.x."a b"[0]``."""
    for part in parts:
        if isinstance(part, int):
            path = f"{path}[{part}]"
        else:
            # Keys that are not bare TOML keys are quoted, as TOML writes them: units.classes."mech inf"
            key = part if _KEY.match(part) else f'"{part}"'
            path = f"{path}.{key}" if path else key
    return path


class PackContext:
    """The pack file being read: builds PackErrors that name it and the key path."""

    def __init__(self, source: str) -> None:
        self.source = source

    def error(self, path: str, message: str) -> PackError:
        return PackError(f"{path}: {message}" if path else message, Where(path=self.source))

    def value_error(self, path: str, e: ValueError, via: str = "") -> PackError:
        """The PackError of a value that does not fit its type, at the place inside it."""
        return self.error(join(path, *getattr(e, "at", ())), f"{e}{via}")

    def table(self, data: object, path: str) -> Mapping[str, Any]:
        if not isinstance(data, Mapping):
            raise self.error(path, f"expected a table, got {data!r} ({type(data).__name__})")
        return data

    def keys(self, data: Mapping[str, Any], path: str, keys: tuple[set[str], set[str]]) -> None:
        required, optional = keys
        for k in data:
            if k not in required and k not in optional:
                known = ", ".join(sorted(required | optional))
                raise self.error(join(path, k), f"unknown key (known here: {known})")
        for k in sorted(required):
            if k not in data:
                raise self.error(join(path, k), "missing required key")

    def typed(self, data: Mapping[str, Any], path: str, key: str, type_: str, default: object = None) -> Any:
        if key not in data:
            return default
        try:
            return check_value(type_, data[key])
        except ValueError as e:
            raise self.value_error(join(path, key), e) from None

    def words(self, data: Mapping[str, Any], path: str, key: str, default: tuple[str, ...] = ()) -> tuple[str, ...]:
        values: tuple[str, ...] = self.typed(data, path, key, "list[str]", default)
        seen: set[str] = set()
        for v in values:
            if not v.strip():
                raise self.error(join(path, key), f"empty name in {list(values)!r}")
            if v in seen:
                raise self.error(join(path, key), f"{v!r} given twice")
            seen.add(v)
        return values

    def words_any(self, data: Mapping[str, Any], path: str, key: str) -> tuple[str, ...]:
        """A list of non-empty names that may repeat (a table by turn)."""
        values: tuple[str, ...] = self.typed(data, path, key, "list[str]", ())
        for v in values:
            if not v.strip():
                raise self.error(join(path, key), f"empty name in {list(values)!r}")
        return values

    def turn_range(self, data: Mapping[str, Any], path: str) -> tuple[int, int] | None:
        """``turns = [first, last]``: a range of Game-Turns (None when not given)."""
        if "turns" not in data:
            return None
        pair = self.typed(data, path, "turns", "list[int]")
        if len(pair) != 2 or not 1 <= pair[0] <= pair[1]:
            raise self.error(
                join(path, "turns"), f"expected [first, last] Game-Turns, 1 <= first <= last, got {list(pair)}"
            )
        return pair[0], pair[1]
