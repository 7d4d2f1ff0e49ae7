"""The registry of rule implementations a pack may name (STYLE.md 6.11, after OpenSpiel).

A rule pack is data: each ``[rules.<name>]`` table names an implementation registered here
(``impl = "supply.trace_to_network"``) and gives its parameters. An implementation declares
its parameters with their defaults, so the pack loader can reject unknown keys, demand the
``REQUIRED`` ones and check types, and a playthrough can print the effective values::

    @register("supply.trace_to_network",
              params={"max_path": 4, "network": ("road", "trail"), "sources": REQUIRED})
    def trace_to_network(state, terrain, side, p): ...

A parameter's type is taken from its default (``4`` is an int, ``("road", "trail")`` a list of
str). A REQUIRED parameter, or one whose default does not show its type, is declared with
`Param`: ``Param(REQUIRED, "list[str]", "supply source hex ranges")``.

Pure: no files. Built-in rule modules register on import; `load_builtin_rules` imports them.
"""

from __future__ import annotations

import importlib
import pkgutil
import re
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any, TypeVar

__all__ = ["REGISTRY", "REQUIRED", "TYPES", "Implementation", "Param", "Params", "Registry",
           "catalog", "check_value", "conformance_problems", "load_builtin_rules", "lookup",
           "register"]

F = TypeVar("F", bound=Callable[..., Any])


class _Required:
    """The sentinel default of a parameter the pack must give (one instance: `REQUIRED`)."""

    _instance: _Required | None = None

    def __new__(cls) -> _Required:
        if cls._instance is None:
            cls._instance = super().__new__(cls)
        return cls._instance

    def __repr__(self) -> str:
        return "REQUIRED"

    def __reduce__(self) -> str:
        return "REQUIRED"


REQUIRED: Any = _Required()

# The types a parameter may have: the TOML values a pack can write. "table" is a TOML table
# (kept as a read-only mapping); "any" accepts every value and is for REQUIRED parameters
# whose shape the implementation checks itself.
TYPES = ("int", "float", "str", "bool", "list[int]", "list[float]", "list[str]", "list", "table", "any")
_NAME = re.compile(r"[a-z][a-z0-9_]*(\.[a-z][a-z0-9_]*)*\Z")
_PARAM = re.compile(r"[a-z][a-z0-9_]*\Z")
# Keys of a [rules.<name>] table that are not parameters (pack.py reads them).
RESERVED = frozenset({"impl", "rule_ref", "enabled", "note"})


def _type_name(value: object) -> str:
    """The TOML-ish name of a value's type, as messages show it."""
    if isinstance(value, bool):
        return "bool"
    if isinstance(value, (list, tuple)):
        return "list"
    if isinstance(value, Mapping):
        return "table"
    return {int: "int", float: "float", str: "str"}.get(type(value), type(value).__name__)


def _infer(default: object) -> str:
    """The type a default implies ("list" when a sequence is empty or mixed)."""
    t = _type_name(default)
    if t == "list":
        kinds = {_type_name(v) for v in default}  # type: ignore[attr-defined]
        return f"list[{kinds.pop()}]" if len(kinds) == 1 and kinds <= {"int", "float", "str"} else "list"
    if t not in TYPES:
        raise TypeError(f"cannot infer a parameter type from default {default!r} ({t})")
    return t


def check_value(type_: str, value: object) -> object:
    """`value` as a parameter of type `type_`: lists become tuples, tables read-only mappings.

    Raises ValueError "expected list[str], got 4 (int)" when it does not fit. An int is a
    float too (TOML writes ``2`` for 2.0); a bool is never an int.
    """
    got = _type_name(value)
    fits = (type_ == "any" or got == type_ or (type_ == "float" and got == "int")
            or (type_.startswith("list") and got == "list"))
    if fits and type_.startswith("list[") and got == "list":
        inner = type_[5:-1]
        for i, v in enumerate(value):  # type: ignore[attr-defined]
            vt = _type_name(v)
            if not (vt == inner or (inner == "float" and vt == "int")):
                raise ValueError(f"expected {type_}, got {value!r} (item {i} is {v!r}, a {vt})")
    if not fits:
        raise ValueError(f"expected {type_}, got {value!r} ({got})")
    return _freeze(value)


def _freeze(value: object) -> object:
    if isinstance(value, (list, tuple)):
        return tuple(_freeze(v) for v in value)
    if isinstance(value, Mapping):
        return MappingProxyType({k: _freeze(v) for k, v in value.items()})
    return value


@dataclass(frozen=True)
class Param:
    """One declared parameter: its default (or `REQUIRED`), its type and what it means."""

    default: object = REQUIRED
    type: str | None = None  # inferred from the default when None
    doc: str = ""

    @property
    def required(self) -> bool:
        return self.default is REQUIRED


class Params(Mapping[str, Any]):
    """The effective parameters of one rule: read-only, by key or attribute (``p.max_path``)."""

    __slots__ = ("_data",)

    def __init__(self, data: Mapping[str, Any]) -> None:
        object.__setattr__(self, "_data", MappingProxyType(dict(data)))

    def __getitem__(self, key: str) -> Any:
        return self._data[key]

    def __iter__(self) -> Iterator[str]:
        return iter(self._data)

    def __len__(self) -> int:
        return len(self._data)

    def __getattr__(self, name: str) -> Any:
        try:
            return self._data[name]
        except KeyError:
            raise AttributeError(f"no parameter {name!r} (known: {', '.join(sorted(self._data))})") from None

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("Params are read-only")

    def __repr__(self) -> str:
        return f"Params({dict(self._data)!r})"


@dataclass(frozen=True)
class Implementation:
    """A registered rule implementation: its name, function and parameter specification."""

    name: str
    func: Callable[..., Any] = field(compare=False)
    params: Mapping[str, Param]
    types: Mapping[str, str]  # parameter -> its type, declared or inferred
    doc: str = ""

    def defaults(self) -> dict[str, object]:
        """The parameters with a default, and that default (REQUIRED ones are left out)."""
        return {k: p.default for k, p in self.params.items() if not p.required}

    def required(self) -> tuple[str, ...]:
        """The names of the parameters a pack must give, in declared order."""
        return tuple(k for k, p in self.params.items() if p.required)

    def describe(self) -> dict[str, object]:
        """A plain description for listings and playthroughs (``packs list --impls``)."""
        return {"name": self.name, "doc": self.doc,
                "params": {k: {"type": self.types[k], "default": "REQUIRED" if p.required else p.default,
                               "doc": p.doc} for k, p in self.params.items()}}


class Registry:
    """Implementations by name. The package uses one (`REGISTRY`); tests may make their own."""

    def __init__(self) -> None:
        self._impls: dict[str, Implementation] = {}

    def register(self, name: str, params: Mapping[str, object] | None = None) -> Callable[[F], F]:
        """Decorator: register the function as implementation `name` with these parameters.

        Registering the same function again (a pack's hooks.py loaded twice) replaces it; a
        different function under a taken name is a ValueError, so two rule modules cannot
        silently shadow each other.
        """
        if not _NAME.match(name):
            raise ValueError(f"bad implementation name {name!r}: dotted lowercase words, e.g. 'supply.trace'")
        spec: dict[str, Param] = {}
        types: dict[str, str] = {}
        for key, raw in (params or {}).items():
            if not _PARAM.match(key) or key in RESERVED:
                raise ValueError(f"{name}: bad parameter name {key!r} "
                                 f"(a lowercase word, not one of {sorted(RESERVED)})")
            p = raw if isinstance(raw, Param) else Param(raw)
            t = p.type or ("any" if p.required else _infer(p.default))
            if t not in TYPES:
                raise ValueError(f"{name}: parameter {key!r} has unknown type {t!r} (known: {', '.join(TYPES)})")
            if not p.required:
                try:
                    p = Param(check_value(t, p.default), t, p.doc)
                except ValueError as e:
                    raise ValueError(f"{name}: default of {key!r}: {e}") from None
            spec[key], types[key] = p, t

        def decorate(func: F) -> F:
            old = self._impls.get(name)
            if old is not None and (_where(old.func) != _where(func)):
                raise ValueError(f"implementation {name!r} is already registered by {_where(old.func)}")
            doc = (func.__doc__ or "").strip().split("\n")[0]
            self._impls[name] = Implementation(name, func, MappingProxyType(spec), MappingProxyType(types), doc)
            return func

        return decorate

    def lookup(self, name: str) -> Implementation:
        """The implementation called `name`; KeyError listing the known names otherwise."""
        try:
            return self._impls[name]
        except KeyError:
            known = ", ".join(sorted(self._impls)) or "none registered"
            raise KeyError(f"unknown implementation {name!r} (known: {known})") from None

    def __contains__(self, name: object) -> bool:
        return name in self._impls

    def catalog(self) -> tuple[Implementation, ...]:
        """Every registered implementation, sorted by name."""
        return tuple(self._impls[k] for k in sorted(self._impls))


def _where(func: Callable[..., Any]) -> str:
    return f"{getattr(func, '__module__', '?')}.{getattr(func, '__qualname__', '?')}"


REGISTRY = Registry()
register = REGISTRY.register
lookup = REGISTRY.lookup
catalog = REGISTRY.catalog

# Modules of this package that hold no rule implementations: not imported by
# load_builtin_rules (and the registry must not import the pack loader, which imports it).
_NOT_RULES = frozenset({"registry", "pack", "results", "unitmap"})


def load_builtin_rules() -> Registry:
    """Import every rule module of `vassal_adj.rules` so their ``@register`` calls run.

    Rule modules register on import; a pack can only name what has been imported. An import
    error in a rule module is a bug and propagates.
    """
    from . import __path__ as here, __name__ as package

    for info in sorted(pkgutil.iter_modules(here), key=lambda i: i.name):
        if not info.name.startswith("_") and info.name not in _NOT_RULES:
            importlib.import_module(f"{package}.{info.name}")
    return REGISTRY


def conformance_problems(registry: Registry | None = None) -> list[str]:
    """What is wrong with the registered implementations (empty when all conform).

    The conformance test runs this over every built-in: each implementation has a docstring
    (listings show its first line) and each parameter a valid type and default.
    """
    reg = registry or REGISTRY
    problems = []
    for impl in reg.catalog():
        if not impl.doc:
            problems.append(f"{impl.name}: no docstring ({_where(impl.func)})")
        if not callable(impl.func):
            problems.append(f"{impl.name}: not callable")
        for key, p in impl.params.items():
            if not p.required:
                try:
                    check_value(impl.types[key], p.default)
                except ValueError as e:
                    problems.append(f"{impl.name}: parameter {key!r}: {e}")
    return problems
