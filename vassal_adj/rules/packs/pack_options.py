"""The ``[options.<id>]`` tables of a pack: optional rules that each game plays with or without.

An option has a `name`, the rules in force only when a game plays with it (`rules`: rule names or
tags), the rules it puts out of force then (`replaces`: seed 004 30.0, an optional rule that
"replaces the Scenario I ... special rule"), and how a save shows it
(`match = { property, value }`: a global property of the save). A game plays with the options the
user names (``--option ID`` on check and verify) and those whose property its save holds. A rule
an option lists is out of force unless the game plays with it (a rule several options list, unless
with them all), and says which option would put it in.

A scenario's `optional` switches (pack_scenarios.py) are the scenario's; an option is the game's.
Pure: no files.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType

from vassal_adj.errors import UsageError
from vassal_adj.rules.packs.pack_ctx import PackContext, join
from vassal_adj.rules.packs.pack_rules import RuleConfig
from vassal_adj.rules.scope import Verdict

__all__ = ["NO_OPTIONS", "Option", "OptionChoice", "chosen_options", "option_verdict", "read_options"]

_KEYS = ({"name"}, {"rules", "replaces", "match", "note"})


@dataclass(frozen=True)
class Option:
    """One ``[options.<id>]`` table."""

    id: str
    name: str
    rules: tuple[str, ...] = ()
    replaces: tuple[str, ...] = ()
    match: tuple[str, str] | None = None  # (global property, value)
    note: str = ""

    def describe(self) -> str:
        """One line for `packs list` and `packs validate`."""
        parts = [
            f"rules {', '.join(self.rules)}" if self.rules else "",
            f"replaces {', '.join(self.replaces)}" if self.replaces else "",
            f"saves with {self.match[0]} = {self.match[1]!r}" if self.match else "",
            self.note,
        ]
        return f"{self.id}: {self.name}" + "".join(f"; {p}" for p in parts if p)


@dataclass(frozen=True)
class OptionChoice:
    """A pack's options (`table`) and those a game plays with (`chosen`)."""

    table: Mapping[str, Option] = field(default_factory=dict)
    chosen: frozenset[str] = frozenset()


NO_OPTIONS = OptionChoice()


def read_options(ctx: PackContext, data: object, rules: tuple[RuleConfig, ...]) -> dict[str, Option]:
    """The options of the pack; PackError (with the key path) for an unknown key, a rule or tag
    that no rule has, or a bad `match`."""
    selectors = {r.name for r in rules} | {t for r in rules for t in r.tags}
    out = {}
    for oid, spec in ctx.table(data, "options").items():
        path = join("options", oid)
        spec = ctx.table(spec, path)
        ctx.keys(spec, path, _KEYS)
        lists = {key: ctx.words(spec, path, key) for key in ("rules", "replaces")}
        for key, names in lists.items():
            for n in names:
                if n not in selectors:
                    raise ctx.error(
                        join(path, key),
                        f"{n!r} is neither a rule nor a tag of one (known: {', '.join(sorted(selectors)) or 'none'})",
                    )
        if not lists["rules"] and not lists["replaces"]:
            raise ctx.error(path, "an option needs 'rules' (in force with it), 'replaces' (out of force), or both")
        match = None
        if "match" in spec:
            mpath = join(path, "match")
            m = ctx.table(spec["match"], mpath)
            ctx.keys(m, mpath, ({"property", "value"}, set()))
            match = (ctx.typed(m, mpath, "property", "str"), ctx.typed(m, mpath, "value", "str"))
        out[oid] = Option(
            oid,
            ctx.typed(spec, path, "name", "str"),
            lists["rules"],
            lists["replaces"],
            match,
            ctx.typed(spec, path, "note", "str", ""),
        )
    return out


def chosen_options(
    options: Mapping[str, Option], given: Iterable[str], properties: Mapping[str, str], notes: list[str]
) -> OptionChoice:
    """The options a game plays with: those `given` (``--option``) and those whose global property
    the save holds; what chose each is added to `notes`. UsageError for an id the pack lacks."""
    chosen = set()
    for oid in given:
        if oid not in options:
            known = ", ".join(options) or "none"
            raise UsageError(f"--option {oid!r}: the pack has no such optional rule (known: {known})")
        chosen.add(oid)
        notes.append(f"optional rule {oid} ({options[oid].name}): given by --option")
    for o in options.values():
        if o.id not in chosen and o.match and properties.get(o.match[0]) == o.match[1]:
            chosen.add(o.id)
            notes.append(f"optional rule {o.id} ({o.name}): the save's global property {o.match[0]} is {o.match[1]!r}")
    return OptionChoice(MappingProxyType(dict(options)), frozenset(chosen))


def option_verdict(rule: RuleConfig, choice: OptionChoice) -> Verdict:
    """Whether the game's options leave `rule` in force: not when a chosen option replaces it, nor
    when it belongs to options not all of which are chosen."""
    names = {rule.name, *rule.tags}
    for oid in sorted(choice.chosen):
        o = choice.table.get(oid)
        if o is not None and names & set(o.replaces):
            return Verdict("no", f"the game plays with optional rule {o.id} ({o.name}), which replaces it")
    # A rule several options list needs them all (seed 004 37.2 "If both Optional Rules 36.0 AND 37.0
    # are in use").
    owners = [o for o in choice.table.values() if names & set(o.rules)]
    if owners and not all(o.id in choice.chosen for o in owners):
        how = " and ".join(
            f"{o.id} ({o.name}: --option {o.id}"
            + (f" or the save's global property {o.match[0]} = {o.match[1]!r}" if o.match else "")
            + ")"
            for o in owners
        )
        return Verdict("no", f"it is an optional rule the game does not play with: {how}")
    return Verdict("yes")
