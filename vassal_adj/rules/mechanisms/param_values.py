"""Readers of the values inside rule parameters the order-of-battle rules share: a table with
known keys, a whole number, a word, a list of names, one hex (what keys an entry may hold is
its shape, rules/param_shape.py, checked as the pack is read). Each raises a ValueError naming the key path
(e.g. ``groups[3].distance: expected a whole number >= 0, got -1``), which the engine makes a
PackError. Pure.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from vassal_adj.model.geometry.hexes import Hex
from vassal_adj.rules.engine import RuleContext

__all__ = ["names", "one_hex", "table", "whole", "word"]


def table(value: Any, path: str, allowed: set[str], required: Iterable[str] = ()) -> Mapping[str, Any]:
    if not isinstance(value, Mapping):
        # ValueError, as for every bad parameter: the engine makes it a PackError
        raise ValueError(f"{path}: expected a table, got {value!r}")  # noqa: TRY004
    for k in value:
        if k not in allowed:
            raise ValueError(f"{path}.{k}: unknown key (known here: {', '.join(sorted(allowed))})")
    for k in sorted(required):
        if k not in value:
            raise ValueError(f"{path}.{k}: missing required key")
    return value


def whole(value: Any, path: str, least: int = 0) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < least:
        raise ValueError(f"{path}: expected a whole number >= {least}, got {value!r}")
    return value


def word(value: Any, path: str) -> str:
    if not isinstance(value, str) or not value.strip():
        raise ValueError(f"{path}: expected a non-empty string, got {value!r}")
    return value


def names(value: Any, path: str) -> tuple[str, ...]:
    if isinstance(value, str) or not isinstance(value, (list, tuple)) or not value:
        raise ValueError(f"{path}: expected a non-empty list of strings, got {value!r}")
    return tuple(word(v, f"{path}[{i}]") for i, v in enumerate(value))


def one_hex(ctx: RuleContext, spec: str, path: str) -> Hex:
    hexes = ctx.hexes([spec], path)
    if len(hexes) != 1:
        raise ValueError(f"{path}: expected one hex, got {spec!r} ({len(hexes)} hexes)")
    return hexes[0]
