"""The inside of a list or table parameter: the keys its entries may hold, and their types.

A parameter of type "list", "table" or "any" is checked by its type only as a whole; its
`Param.shape` says what is inside, so that the pack loader (and so ``packs validate``) finds
a misspelt key in an entry, with its key path, before any rule runs:
``rules.stacking.pools[1].unit: unknown key (known here: capacity_from, limit, measure, name, units)``.

- `Table(keys, required)`: a table whose keys are known; each key's value has a shape, a type of
  param_types.TYPES ("int", "selector", ...) or a nested `Table` or `Each`.
- `Each(shape)`: every item of a list, or every value of a table keyed by the pack's own names
  (events, conditions, phases), has `shape`.
- `Keyed(shape)`: every value of a table keyed by the pack's own names has `shape`; unlike `Each`, a
  table only, so that an `Either` tells it apart from a list: ``returns_after = "roll"``, or
  ``{ "1-4" = [0, "roll"] }``, or ``{ Axis = { "1-4" = 1 } }``.
- `Either(a, b, ...)`: one of several shapes, told apart by the kind of the value (a name, a list,
  a table, a number): ``by = "phase"`` or ``by = { track = "Action" }``.

What an entry means (which keys go together, ranges of numbers) is the implementation's to
check as it reads the entry; the shape is what can be told from the pack alone. Pure: no files.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Union

from vassal_adj.rules.param_types import TYPES, ParamValueError, check_value, show, type_name
from vassal_adj.rules.select import KEYS as SELECTOR_KEYS

__all__ = ["Each", "Either", "Keyed", "Shape", "Table", "check_shape", "describe_shape", "selector_keys", "shaped"]

Shape = Union[str, "Table", "Each", "Keyed", "Either"]  # noqa: UP007 (a string forward reference cannot be joined by |)


@dataclass(frozen=True)
class Table:
    """A table whose keys are `keys` (key -> its shape); `required` are the keys it must hold,
    unless `or_empty` and the table is empty (a parameter whose default ``{}`` means "not used")."""

    keys: Mapping[str, Shape]
    required: tuple[str, ...] = field(default=())
    or_empty: bool = False

    def __post_init__(self) -> None:
        if missing := [k for k in self.required if k not in self.keys]:
            raise ValueError(f"required keys {missing} are not among the keys {sorted(self.keys)}")
        for k, s in self.keys.items():
            _check_declared(s, k)


@dataclass(frozen=True)
class Each:
    """Every item of a list, or every value of a table keyed by the pack's names, has `shape`."""

    shape: Shape

    def __post_init__(self) -> None:
        _check_declared(self.shape, "each")


@dataclass(frozen=True)
class Keyed:
    """A table keyed by the pack's names (sides, rolls, scenarios), every value of which has `shape`."""

    shape: Shape

    def __post_init__(self) -> None:
        _check_declared(self.shape, "keyed")


@dataclass(frozen=True)
class Either:
    """One of `shapes`, each of a different kind of value (`_kind`): the one of the value's kind applies."""

    shapes: tuple[Shape, ...]

    def __init__(self, *shapes: Shape) -> None:
        object.__setattr__(self, "shapes", shapes)
        for s in shapes:
            _check_declared(s, "either")
        kinds = [_kind(s) for s in shapes]
        if len(set(kinds)) != len(kinds):
            raise ValueError(f"Either needs shapes of different kinds, got {kinds}")


def _kind(shape: Shape) -> str:
    """The kind of value a shape takes: "table", "list", or the type name ("str", "int", ...)."""
    if isinstance(shape, (Table, Keyed)):
        return "table"
    if isinstance(shape, Each):
        return "list"  # in an Either, an Each is a list's: a table of entries is told apart as a table
    if shape in ("table", "costs", "table[list[str]]", "selector"):
        return "table"
    return "list" if shape.startswith("list") else shape


def _check_declared(shape: Shape, where: str) -> None:
    if isinstance(shape, str) and shape not in TYPES:
        raise ValueError(f"{where}: unknown type {shape!r} (known: {', '.join(TYPES)})")


def selector_keys(**more: Shape) -> dict[str, Shape]:
    """The keys of an entry that holds a unit selector's keys (select.KEYS) beside its own (`more`)."""
    return {**dict.fromkeys(SELECTOR_KEYS, "any"), **more}


def check_shape(shape: Shape, value: object, at: tuple[str | int, ...] = ()) -> None:
    """Whether `value` has `shape`; ParamValueError whose `at` is the key path inside the value."""
    if isinstance(shape, str):
        try:
            check_value(shape, value)
        except ValueError as e:
            raise ParamValueError(str(e), (*at, *getattr(e, "at", ()))) from None
        return
    if isinstance(shape, Either):
        got = type_name(value)
        fit = [s for s in shape.shapes if _kind(s) in (got, "any") or (_kind(s), got) == ("float", "int")]
        if not fit:
            wanted = " or ".join(str(describe_shape(s)) if isinstance(s, str) else _kind(s) for s in shape.shapes)
            raise ParamValueError(f"expected {wanted}, got {show(value)} ({got})", at)
        check_shape(fit[0], value, at)
        return
    if isinstance(shape, Each):
        if isinstance(value, Mapping):
            items = list(value.items())
        elif isinstance(value, (list, tuple)):
            items = list(enumerate(value))
        else:
            raise ParamValueError(f"expected a list or a table, got {show(value)} ({type_name(value)})", at)
        for k, v in items:
            check_shape(shape.shape, v, (*at, k))
        return
    if isinstance(shape, Keyed):
        if not isinstance(value, Mapping):
            raise ParamValueError(f"expected a table, got {show(value)} ({type_name(value)})", at)
        for k, v in value.items():
            check_shape(shape.shape, v, (*at, k))
        return
    if not isinstance(value, Mapping):
        raise ParamValueError(
            f"expected a table {{ {', '.join(shape.keys)} }}, got {show(value)} ({type_name(value)})", at
        )
    for k in value:
        if k not in shape.keys:
            raise ParamValueError(f"unknown key (known here: {', '.join(sorted(shape.keys))})", (*at, k))
    for k in () if shape.or_empty and not value else shape.required:
        if k not in value:
            raise ParamValueError("missing required key", (*at, k))
    for k, v in value.items():
        check_shape(shape.keys[k], v, (*at, k))


def shaped(shape: Shape, value: object, path: str) -> None:
    """`check_shape` for a mechanism reading a parameter at `path` itself: a ValueError whose message
    starts with the full key path (``pools[1].unit: unknown key ...``), as parameter readers raise."""
    try:
        check_shape(shape, value)
    except ParamValueError as e:
        where = path + "".join(f"[{k}]" if isinstance(k, int) else f".{k}" for k in e.at)
        raise ValueError(f"{where}: {e}") from None


def describe_shape(shape: Shape) -> object:
    """A shape as plain data, for listings (``packs list --impls``) and the guide's test."""
    if isinstance(shape, str):
        return shape
    if isinstance(shape, Each):
        return {"each": describe_shape(shape.shape)}
    if isinstance(shape, Keyed):
        return {"keyed": describe_shape(shape.shape)}
    if isinstance(shape, Either):
        return {"either": [describe_shape(s) for s in shape.shapes]}
    return {"keys": {k: describe_shape(s) for k, s in shape.keys.items()}, "required": list(shape.required)}
