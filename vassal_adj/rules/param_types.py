"""The types a rule parameter may have, and the check of a value against its type.

A pack is TOML: a parameter's value is checked against the type its implementation declares
(registry.py `Param`), nested values included, and kept read-only (lists become tuples, tables
read-only mappings). Pure: no files.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

from vassal_adj.rules.select import Selector

__all__ = [
    "NAME_TYPES",
    "TABLE_TYPES",
    "TYPES",
    "VOCABULARIES",
    "ParamValueError",
    "check_value",
    "infer_type",
    "show",
    "type_name",
]

# The types a parameter may have: the TOML values a pack can write. "table" is a TOML table
# (kept as a read-only mapping); "any" accepts every value (a parameter of several forms, whose
# Param.shape says which, param_shape.py). "costs" is a table of movement costs: name ->
# a number of MP, or a table of numbers by unit class. "table[list[str]]" maps names to lists
# of names ({ poor = ["stream"] }); "list[list[str]]" is a list of names or of lists of names
# (networks: [["road"], ["trail"]]). "selector" is a unit selector table (select.py), checked here.
TYPES = (
    "int",
    "float",
    "str",
    "bool",
    "list[int]",
    "list[float]",
    "list[str]",
    "list",
    "table",
    "costs",
    "table[list[str]]",
    "list[list[str]]",
    "selector",
    "any",
)
# The pack vocabularies a parameter's names may be checked against: [terrain] types and
# features, and the weathers of [state] weather_by_turn.
VOCABULARIES = ("terrain", "features", "weather")
TABLE_TYPES = ("table", "costs", "table[list[str]]")  # the types whose keys may be names
NAME_TYPES = ("list[str]", "table[list[str]]", "list[list[str]]")  # the types whose values may be names


def type_name(value: object) -> str:
    """The TOML-ish name of a value's type, as messages show it."""
    if isinstance(value, bool):
        return "bool"
    if isinstance(value, (list, tuple)):
        return "list"
    if isinstance(value, Mapping):
        return "table"
    return {int: "int", float: "float", str: "str"}.get(type(value), type(value).__name__)


def infer_type(default: object) -> str:
    """The type a default implies ("list" when a sequence is empty or mixed)."""
    t = type_name(default)
    if t == "list":
        kinds = {type_name(v) for v in default}  # type: ignore[attr-defined]
        return f"list[{kinds.pop()}]" if len(kinds) == 1 and kinds <= {"int", "float", "str"} else "list"
    if t not in TYPES:
        raise TypeError(f"cannot infer a parameter type from default {default!r} ({t})")
    return t


class ParamValueError(ValueError):
    """A value that does not fit its type; `at` is where inside it (keys and list indexes)."""

    def __init__(self, message: str, at: tuple[str | int, ...] = ()) -> None:
        super().__init__(message)
        self.at = at


def show(value: object) -> str:
    """A value as TOML writes it: ``false``, ``"1"``, ``[1, 2]``."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(map(show, value)) + "]"
    if isinstance(value, Mapping):
        return "{ " + ", ".join(f"{k} = {show(v)}" for k, v in value.items()) + " }"
    return repr(value)


def _is_number(value: object) -> bool:
    # isinstance(False, int) is True: TOML's `false` must not pass for a number of MP.
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def _check_nested(type_: str, value: object) -> None:
    """The items of a "costs", "table[list[str]]" or "list[list[str]]" value (ParamValueError with `at`)."""

    def names(v: object, at: tuple[str | int, ...], what: str) -> None:
        if not isinstance(v, (list, tuple)):
            raise ParamValueError(f"expected {what}, got {show(v)} ({type_name(v)})", at)
        for i, name in enumerate(v):
            if not isinstance(name, str) or not name:
                raise ParamValueError(f"expected a name, got {show(name)} ({type_name(name)})", (*at, i))

    if type_ == "list[list[str]]":
        for i, group in enumerate(value):  # type: ignore[attr-defined]
            if not isinstance(group, str):
                names(group, (i,), "a name or a list of names")
                if not group:
                    raise ParamValueError("expected a name or a list of names, got []", (i,))
        return
    if type_ == "table[list[str]]":
        for k, v in value.items():  # type: ignore[attr-defined]
            names(v, (k,), "a list of names")
        return
    for k, v in value.items():  # type: ignore[attr-defined]
        if isinstance(v, Mapping):
            for cls, n in v.items():
                if not _is_number(n):
                    raise ParamValueError(f"expected a number of MP, got {show(n)} ({type_name(n)})", (k, cls))
        elif not _is_number(v):
            raise ParamValueError(
                f"expected a number of MP (or a table of them by unit class), got {show(v)} ({type_name(v)})", (k,)
            )


def check_value(type_: str, value: object) -> object:
    """`value` as a parameter of type `type_`: lists become tuples, tables read-only mappings.

    Raises ParamValueError (a ValueError) "expected list[str], got 4 (int)" when it does not
    fit, with `at` the place inside the value ("costs" ``{ stream = false }``: ``("stream",)``).
    An int is a float too (TOML writes ``2`` for 2.0); a bool is never an int.
    """
    if type_ == "selector":
        # A SelectorError (a ValueError) carries its own `at`; whether the rule reads the position
        # (formation_has) is the rule's to say as it builds the selector.
        Selector.from_mapping(value, position=True)
        return _freeze(value)  # plain data, as reports print it; rules build the Selector they match with
    if type_ in ("costs", "table[list[str]]", "list[list[str]]"):
        shape = "table" if type_ in TABLE_TYPES else "list"
        if type_name(value) != shape:
            raise ParamValueError(f"expected a {shape} ({type_}), got {show(value)} ({type_name(value)})")
        _check_nested(type_, value)
        return _freeze(value)
    got = type_name(value)
    fits = (
        type_ == "any"
        or got == type_
        or (type_ == "float" and got == "int")
        or (type_.startswith("list") and got == "list")
    )
    if fits and type_.startswith("list[") and got == "list":
        inner = type_[5:-1]
        for i, v in enumerate(value):  # type: ignore[attr-defined]
            vt = type_name(v)
            if not (vt == inner or (inner == "float" and vt == "int")):
                raise ParamValueError(f"expected {type_}, got {value!r} (item {i} is {v!r}, a {vt})")
    if not fits:
        raise ParamValueError(f"expected {type_}, got {value!r} ({got})")
    return _freeze(value)


def _freeze(value: object) -> object:
    if isinstance(value, (list, tuple)):
        return tuple(_freeze(v) for v in value)
    if isinstance(value, Mapping):
        return MappingProxyType({k: _freeze(v) for k, v in value.items()})
    return value
