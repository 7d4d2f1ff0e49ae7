"""The registry of rule implementations a pack may name (STYLE.md 6.11, after OpenSpiel).

A rule pack is data: each ``[rules.<name>]`` table names an implementation registered here
(``impl = "supply.trace"``) and gives its parameters. An implementation declares its
parameters with their defaults, so the pack loader can reject unknown keys, demand the
``REQUIRED`` ones and check types, and a playthrough can print the effective values::

    @register("supply.trace",
              params={"initial": Param(REQUIRED, "int"), "direct_to_source": True, "sources": REQUIRED})
    def supply_trace(state, ctx, p): ...

A parameter's type is taken from its default (``4`` is an int, ``("road", "trail")`` a list of
str). A REQUIRED parameter, or one whose default does not show its type, is declared with
`Param`: ``Param(REQUIRED, "list[str]", "supply source hex ranges")``. A parameter that names
terrain types, hexside features or weathers says so (``Param((), "list[str]", names="features")``,
``Param({}, "costs", keys="terrain")``), and the pack loader checks every name it gives against
the pack's vocabulary: a misspelt name would otherwise silently match nothing. A list or table
parameter says what its entries hold (``Param((), "list", shape=Each(Table({...}, required=(...))))``,
param_shape.py), and the pack loader checks every key inside it.

The types and the check of a value against its type are param_types.py.

Pure: no files. Built-in rule modules register on import; `load_builtin_rules` imports them all,
and the package registry imports one when a pack names an implementation of it (builtin_impls.py).
"""

from __future__ import annotations

import importlib
import re
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any, TypeVar

from vassal_adj.rules.builtin_impls import BUILTIN_IMPLS
from vassal_adj.rules.param_shape import Each, Either, Keyed, Table, check_shape, describe_shape
from vassal_adj.rules.param_types import (
    NAME_TYPES,
    TABLE_TYPES,
    TYPES,
    VOCABULARIES,
    ParamValueError,
    check_value,
    infer_type,
)

__all__ = [
    "REGISTRY",
    "REQUIRED",
    "TYPES",
    "VOCABULARIES",
    "Implementation",
    "Param",
    "ParamValueError",
    "Params",
    "Registry",
    "catalog",
    "check_value",
    "conformance_problems",
    "load_builtin_rules",
    "lookup",
    "named",
    "register",
]

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

_NAME = re.compile(r"[a-z][a-z0-9_]*(\.[a-z][a-z0-9_]*)*\Z")
_PARAM = re.compile(r"[a-z][a-z0-9_]*\Z")
_SHAPED = ("list", "table", "any")  # the types whose inside a Param's shape may declare
# Keys of a [rules.<name>] table that are not parameters (pack.py reads them).
RESERVED = frozenset({"impl", "rule_ref", "enabled", "note", "when", "tags"})


def named(param: Param, type_: str, value: object) -> Iterator[tuple[tuple[str | int, ...], str, str]]:
    """The names a checked `value` of `param` gives, as (where inside it, vocabulary, name)."""
    if param.keys and isinstance(value, Mapping):
        yield from (((k,), param.keys, k) for k in value)
    if not param.names:
        return
    if type_ == "list[str]":
        yield from (((i,), param.names, v) for i, v in enumerate(value))  # type: ignore[arg-type]
    elif type_ == "list[list[str]]":
        for i, g in enumerate(value):  # type: ignore[arg-type]
            yield from (
                (((i,), param.names, g),) if isinstance(g, str) else (((i, j), param.names, v) for j, v in enumerate(g))
            )
    elif type_ == "table[list[str]]":
        yield from (((k, j), param.names, v) for k, vs in value.items() for j, v in enumerate(vs))  # type: ignore[attr-defined]


@dataclass(frozen=True)
class Param:
    """One declared parameter: its default (or `REQUIRED`), its type and what it means, the
    vocabulary (`VOCABULARIES`) of the table keys (`keys`) or the names (`names`) it gives, and
    what the entries of a list or table hold (`shape`, param_shape.py)."""

    default: object = REQUIRED
    type: str | None = None  # inferred from the default when None
    doc: str = ""
    keys: str = ""  # a table's keys are names of this vocabulary ("terrain" in terrain costs)
    names: str = ""  # the names in the value are of this vocabulary ("features" in networks)
    shape: Table | Each | Keyed | Either | None = None  # the inside of a "list", "table" or "any" value

    @property
    def required(self) -> bool:
        return self.default is REQUIRED

    def check(self, type_: str, value: object) -> object:
        """`value` checked against the type `type_` and the shape: `check_value` and `check_shape`
        (a ParamValueError whose `at` is the key path inside the value)."""
        out = check_value(type_, value)
        if self.shape is not None:
            check_shape(self.shape, value)
        return out


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
    # A log rule judges a segment of a log (`func(segment, ctx, params)`, rules/segments.py) as
    # `verify` closes it; a save has no segments, so `adjudicate` does not run it.
    log: bool = False

    def defaults(self) -> dict[str, object]:
        """The parameters with a default, and that default (REQUIRED ones are left out)."""
        return {k: p.default for k, p in self.params.items() if not p.required}

    def required(self) -> tuple[str, ...]:
        """The names of the parameters a pack must give, in declared order."""
        return tuple(k for k, p in self.params.items() if p.required)

    def describe(self) -> dict[str, object]:
        """A plain description for listings and playthroughs (``packs.implementations()``)."""
        return {
            "name": self.name,
            "doc": self.doc,
            **({"log": True} if self.log else {}),
            "params": {
                k: {
                    "type": self.types[k],
                    "default": "REQUIRED" if p.required else p.default,
                    "doc": p.doc,
                    **{v: getattr(p, v) for v in ("keys", "names") if getattr(p, v)},
                    **({"shape": describe_shape(p.shape)} if p.shape is not None else {}),
                }
                for k, p in self.params.items()
            },
        }


class Registry:
    """Implementations by name. The package uses one (`REGISTRY`); tests may make their own.

    `homes` (implementation name -> the module that registers it) and `import_all` let a registry
    import its modules on demand: a name asked for and not registered yet imports its home, or
    else everything `import_all` imports, before it is called unknown.
    """

    def __init__(self, homes: Mapping[str, str] | None = None, import_all: Callable[[], object] | None = None) -> None:
        self._impls: dict[str, Implementation] = {}
        self._homes = dict(homes or {})
        self._import_all = import_all

    def register(self, name: str, params: Mapping[str, object] | None = None, *, log: bool = False) -> Callable[[F], F]:
        """Decorator: register the function as implementation `name` with these parameters;
        `log`: a log rule, called by `verify` on each segment of a log (a pack's hooks.py may
        register one as it registers a save rule).

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
                raise ValueError(
                    f"{name}: bad parameter name {key!r} (a lowercase word, not one of {sorted(RESERVED)})"
                )
            p = raw if isinstance(raw, Param) else Param(raw)
            t = p.type or ("any" if p.required else infer_type(p.default))
            if t not in TYPES:
                raise ValueError(f"{name}: parameter {key!r} has unknown type {t!r} (known: {', '.join(TYPES)})")
            for what, vocabulary, holders in (("keys", p.keys, TABLE_TYPES), ("names", p.names, NAME_TYPES)):
                if vocabulary and (vocabulary not in VOCABULARIES or t not in holders):
                    raise ValueError(
                        f"{name}: parameter {key!r}: {what}={vocabulary!r} needs one of "
                        f"{', '.join(VOCABULARIES)} and a type of {', '.join(holders)} (it is {t})"
                    )
            if p.shape is not None and t not in _SHAPED:
                raise ValueError(f"{name}: parameter {key!r}: a shape needs a type of {', '.join(_SHAPED)} (it is {t})")
            if not p.required:
                try:
                    p = Param(p.check(t, p.default), t, p.doc, p.keys, p.names, p.shape)
                except ValueError as e:
                    raise ValueError(f"{name}: default of {key!r}: {e}") from None
            spec[key], types[key] = p, t

        def decorate(func: F) -> F:
            home = self._homes.get(name)
            if name not in self._impls and home is not None and home != func.__module__:
                importlib.import_module(home)  # the built-in first, so that a clash is found as when all were imported
            old = self._impls.get(name)
            if old is not None and (_where(old.func) != _where(func)):
                raise ValueError(f"implementation {name!r} is already registered by {_where(old.func)}")
            doc = (func.__doc__ or "").strip().split("\n")[0]
            self._impls[name] = Implementation(name, func, MappingProxyType(spec), MappingProxyType(types), doc, log)
            return func

        return decorate

    def lookup(self, name: str) -> Implementation:
        """The implementation called `name`; KeyError listing the known names otherwise."""
        if name not in self._impls:
            if name in self._homes:
                importlib.import_module(self._homes[name])
            if name not in self._impls and self._import_all is not None:
                self._import_all()
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


# The modules of this package that register built-in implementations. Only these are imported
# by load_builtin_rules: the others are mechanisms those import as they need them, and importing
# every module of the package cost `check` a sixth of its start (scripts/bench_startup.py).
# tests/test_registry.py imports every module and fails when one outside this list registers.
RULE_MODULES = (
    "mechanisms.action_loc",
    "mechanisms.action_turns",
    "mechanisms.air_range",
    "mechanisms.alternates",
    "mechanisms.ap_ledger",
    "mechanisms.dice_table",
    "mechanisms.displacement",
    "mechanisms.implementations",
    "mechanisms.marker_state_rules",
    "mechanisms.movement_rules",
    "mechanisms.placement",
    "mechanisms.quota",
    "mechanisms.restricted",
    "segments",
    "mechanisms.setup_constraints",
    "mechanisms.setup_deploy_rules",
    "mechanisms.setup_reference",
    "mechanisms.setup_rules",
    "mechanisms.stacking_rules",
    "mechanisms.supply_chain_rules",
    "mechanisms.supply_loc_rules",
    "mechanisms.track_bounds",
    "mechanisms.transport_rules",
    "mechanisms.victory_conditions",
    "mechanisms.victory_rules",
    "mechanisms.withdrawals",
)


def load_builtin_rules() -> Registry:
    """Import the rule modules of `vassal_adj.rules` (RULE_MODULES) so their ``@register`` calls run.

    Rule modules register on import; a pack can only name what has been imported. An import
    error in a rule module is a bug and propagates.
    """
    for name in RULE_MODULES:
        importlib.import_module(f"{__package__}.{name}")
    return REGISTRY


# The package registry: a rule module is imported when a pack first names one of its
# implementations (builtin_impls.py), every one by load_builtin_rules.
REGISTRY = Registry({name: f"{__package__}.{module}" for name, module in BUILTIN_IMPLS.items()}, load_builtin_rules)
register = REGISTRY.register
lookup = REGISTRY.lookup
catalog = REGISTRY.catalog


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
                    p.check(impl.types[key], p.default)
                except ValueError as e:
                    problems.append(f"{impl.name}: parameter {key!r}: {e}")
    return problems
