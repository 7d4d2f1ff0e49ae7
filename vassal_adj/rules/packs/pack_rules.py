"""The ``[rules.<name>]`` tables of a pack: the implementation, the rule cited, the parameters.

Each parameter is checked against the type its implementation declares (registry.py), nested
values included (a cost of ``false`` or ``"1"`` is no number of MP), the keys inside a list or
table parameter against its shape (param_shape.py: ``rules.stacking.pools[1].unit: unknown key``),
and every terrain type, hexside feature or weather it names against the pack's vocabulary: a name the pack does not
know would silently match nothing, so it is a PackError with the key path, e.g.
``rules.rough.prohibited.swamp: unknown terrain type 'swamp' (...)``.

A rule the rulebook leaves to other rules (the standard rules it refers to) cites the
assumption that stands for it, ``rule_ref = { assumption = "stacking_limit" }``: its findings
cite ``<pack>:assumption stacking_limit`` and their messages name the assumption's source.

``when`` (scope.py) says when a rule is in force, ``tags`` the names a scenario's ``rules`` and
``optional`` switches select it by (pack_scenarios.py).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

from vassal_adj.rules.packs.pack_ctx import Assumption, PackContext, join
from vassal_adj.rules.registry import RESERVED, Implementation, Params, Registry, named
from vassal_adj.rules.scope import Scope, read_when

__all__ = ["RuleConfig", "read_rules"]

# How an unknown name is reported, by vocabulary: what it is, and where the pack lists them.
_WHAT = {
    "terrain": ("terrain type", "[terrain] types"),
    "features": ("hexside feature", "[terrain] features"),
    "weather": ("weather", "[state] weather_by_turn"),
}


@dataclass(frozen=True)
class RuleConfig:
    """One ``[rules.<name>]`` table: the implementation, its rule number and effective parameters."""

    name: str
    impl: str
    rule_ref: str  # as the rulebook prints it, e.g. "17.11"; "assumption <name>" for an assumed rule
    params: Params  # given values, then the implementation's defaults
    given: frozenset[str]  # the parameters the pack wrote (the rest are defaults)
    assumed: Mapping[str, str]  # parameter -> the assumption it takes its value from
    enabled: bool = True
    note: str = ""
    implementation: Implementation | None = field(default=None, compare=False, repr=False)
    ref_source: str = ""  # the source of the assumption cited as the rule, when rule_ref is one
    when: Scope = field(default_factory=Scope)  # when the rule is in force (scope.py); empty: always
    tags: tuple[str, ...] = ()  # names a scenario's `rules` and `optional` switches can select it by

    @property
    def cited(self) -> str:
        """The rule as a finding's message cites it: the number, or the assumption with its source."""
        return f"{self.rule_ref}: {self.ref_source}" if self.ref_source else self.rule_ref


def _rule_ref(
    ctx: PackContext, spec: Mapping[str, Any], path: str, assumptions: Mapping[str, Assumption]
) -> tuple[str, str]:
    """The rule number as printed, or ("assumption <name>", its source) for ``{ assumption = name }``."""
    rule_ref, rpath = spec["rule_ref"], join(path, "rule_ref")
    if isinstance(rule_ref, Mapping) and set(rule_ref) == {"assumption"}:
        ref = rule_ref["assumption"]
        if ref not in assumptions:
            raise ctx.error(rpath, f"unknown assumption {ref!r} (known: {', '.join(sorted(assumptions)) or 'none'})")
        return f"assumption {ref}", assumptions[ref].source
    if not isinstance(rule_ref, str):
        # TOML would read 17.10 as the float 17.1: the number must be written as printed.
        raise ctx.error(
            rpath, f"expected str (the rule number as printed, quoted), got {rule_ref!r} ({type(rule_ref).__name__})"
        )
    if not rule_ref.strip() or rule_ref != rule_ref.strip():
        raise ctx.error(rpath, f"bad rule number {rule_ref!r}")
    return rule_ref, ""


def _check_names(
    ctx: PackContext,
    path: str,
    impl: Implementation,
    values: Mapping[str, object],
    vocabularies: Mapping[str, frozenset[str]],
    via: Mapping[str, str],
) -> None:
    """Every name a given parameter uses is in the pack's vocabulary of its kind."""
    for key, value in values.items():
        for at, vocabulary, name in named(impl.params[key], impl.types[key], value):
            known = vocabularies[vocabulary]
            if vocabulary == "weather":
                if not known:  # no weather table: the pack names no weathers to check against
                    continue
                name = name.strip().lower()
            if name not in known:
                what, where = _WHAT[vocabulary]
                from_ = f" (from assumptions.{via[key]})" if key in via else ""
                raise ctx.error(
                    join(path, key, *at),
                    f"unknown {what} {name!r} (the pack's {where}: {', '.join(sorted(known)) or 'none'}){from_}",
                )


def read_rules(
    ctx: PackContext,
    data: object,
    registry: Registry,
    assumptions: Mapping[str, Assumption],
    vocabularies: Mapping[str, frozenset[str]],
) -> tuple[RuleConfig, ...]:
    """The ``[rules]`` tables in pack order. `vocabularies`: the names of each of
    registry.VOCABULARIES the pack declares (weathers in lower case), and its "sides" and
    "phases" (which ``when`` may name)."""
    out = []
    for name, spec in ctx.table(data, "rules").items():
        path = join("rules", name)
        spec = ctx.table(spec, path)
        for k in ("impl", "rule_ref"):
            if k not in spec:
                raise ctx.error(join(path, k), "missing required key")
        impl_name = ctx.typed(spec, path, "impl", "str")
        try:
            impl = registry.lookup(impl_name)
        except KeyError as e:
            raise ctx.error(join(path, "impl"), str(e.args[0])) from None
        rule_ref, ref_source = _rule_ref(ctx, spec, path, assumptions)
        values: dict[str, object] = {}
        assumed: dict[str, str] = {}
        for key, value in spec.items():
            if key in RESERVED:
                continue
            kpath = join(path, key)
            if key not in impl.params:
                known = ", ".join(sorted(impl.params)) or "none"
                raise ctx.error(
                    kpath, f"unknown key: {impl.name!r} takes no parameter {key!r} (its parameters: {known})"
                )
            if isinstance(value, Mapping) and set(value) == {"assumption"}:
                ref = value["assumption"]
                if ref not in assumptions:
                    known = ", ".join(sorted(assumptions)) or "none"
                    raise ctx.error(kpath, f"unknown assumption {ref!r} (known: {known})")
                assumed[key] = ref
                value = assumptions[ref].value
            try:
                values[key] = impl.params[key].check(impl.types[key], value)
            except ValueError as e:
                via = f" (from assumptions.{assumed[key]})" if key in assumed else ""
                raise ctx.value_error(kpath, e, via) from None
        for key in impl.required():
            if key not in values:
                raise ctx.error(join(path, key), f"missing required parameter of {impl.name!r}")
        _check_names(ctx, path, impl, values, vocabularies, assumed)
        params = Params({**impl.defaults(), **values})
        enabled = ctx.typed(spec, path, "enabled", "bool", True)
        note = ctx.typed(spec, path, "note", "str", "")
        when = (
            read_when(
                ctx,
                spec["when"],
                join(path, "when"),
                tuple(sorted(vocabularies["sides"])),
                vocabularies["phases"],
                vocabularies["weather"],
            )
            if "when" in spec
            else Scope()
        )
        out.append(
            RuleConfig(
                name,
                impl.name,
                rule_ref,
                params,
                frozenset(values),
                MappingProxyType(assumed),
                enabled,
                note,
                impl,
                ref_source,
                when,
                ctx.words(spec, path, "tags"),
            )
        )
    return tuple(out)
