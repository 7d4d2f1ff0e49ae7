"""The ``[scenarios.<id>]`` tables of a pack, and which scenario a save is.

A scenario has a `name`, its Game-Turns (`turns = [first, last]`), the side that plays first
(`first_player`), the rules in force (`rules`: rule names or tags; none given: all), optional
rule switches (`optional = { <tag or rule> = true/false }`: a rule so named or tagged is in
force, or not, whatever `rules` says), assumption values of its own (`[scenarios.<id>.assumptions]`
``name = value``: every rule using the assumption takes that value in this scenario), and how a
save shows it (`match = { property = "<global property>", value = "<its value>" }`).

`match_scenario` picks the scenario of a save: the one the user names (``--scenario``), else
the one whose global property the save holds, else the one whose turns hold the save's turn
when exactly one does; otherwise none, and a rule scoped by scenario says it could not be told.
Pure: no files.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

from vassal_adj.errors import PackError, UsageError
from vassal_adj.rules.packs.pack_ctx import PackContext, join
from vassal_adj.rules.packs.pack_rules import RuleConfig
from vassal_adj.rules.scope import Verdict

__all__ = ["Scenario", "check_references", "match_scenario", "read_scenarios", "scenario_verdict"]

_KEYS = ({"name"}, {"turns", "first_player", "rules", "optional", "assumptions", "match", "note"})


@dataclass(frozen=True)
class Scenario:
    """One ``[scenarios.<id>]`` table; `rule_configs`: the pack's rules with this scenario's
    assumption values (the pack's own rules when it overrides none)."""

    id: str
    name: str
    turns: tuple[int, int] | None = None
    first_player: str = ""
    rules: tuple[str, ...] = ()
    optional: Mapping[str, bool] = field(default_factory=dict)
    assumptions: Mapping[str, object] = field(default_factory=dict)
    match: tuple[str, str] | None = None  # (global property, value)
    note: str = ""
    rule_configs: tuple[RuleConfig, ...] = ()

    def describe(self) -> str:
        """One line for `packs list` and reports."""
        parts = [
            f"Game-Turns {self.turns[0]}-{self.turns[1]}" if self.turns else "",
            f"{self.first_player} first" if self.first_player else "",
            f"rules {', '.join(self.rules)}" if self.rules else "",
            ", ".join(f"{k} {'on' if v else 'off'}" for k, v in self.optional.items()),
            ", ".join(f"{k} = {v!r}" for k, v in self.assumptions.items()),
            f"saves with {self.match[0]} = {self.match[1]!r}" if self.match else "",
        ]
        return f"{self.id}: {self.name}" + "".join(f"; {p}" for p in parts if p)


def read_scenarios(
    ctx: PackContext,
    data: object,
    rules: tuple[RuleConfig, ...],
    sides: tuple[str, ...],
    assumptions: Mapping[str, Any],
    reread: Callable[[Mapping[str, object]], tuple[RuleConfig, ...]],
) -> dict[str, Scenario]:
    """The scenarios of the pack. `reread(values)` reads the rules again with these assumption
    values (raising PackError for one that does not fit)."""
    selectors = {r.name for r in rules} | {t for r in rules for t in r.tags}
    out = {}
    for sid, spec in ctx.table(data, "scenarios").items():
        path = join("scenarios", sid)
        spec = ctx.table(spec, path)
        ctx.keys(spec, path, _KEYS)
        turns = ctx.turn_range(spec, path)
        first = ctx.typed(spec, path, "first_player", "str", "")
        if first and sides and first not in sides:
            raise ctx.error(join(path, "first_player"), f"unknown side {first!r} (the pack's: {', '.join(sides)})")
        chosen = ctx.words(spec, path, "rules")
        optional = ctx.table(spec.get("optional", {}), join(path, "optional"))
        for n, on in optional.items():
            if not isinstance(on, bool):
                raise ctx.error(join(path, "optional", n), f"expected true or false (the switch), got {on!r}")
        for key, names in (("rules", chosen), ("optional", tuple(optional))):
            for n in names:
                if n not in selectors:
                    raise ctx.error(
                        join(path, key),
                        f"{n!r} is neither a rule nor a tag of one (known: {', '.join(sorted(selectors)) or 'none'})",
                    )
        values = dict(ctx.table(spec.get("assumptions", {}), join(path, "assumptions")))
        for name in values:
            if name not in assumptions:
                raise ctx.error(
                    join(path, "assumptions", name),
                    f"unknown assumption {name!r} (known: {', '.join(sorted(assumptions)) or 'none'})",
                )
        try:
            own = reread(values) if values else rules
        except PackError as e:
            raise ctx.error(join(path, "assumptions"), f"with this scenario's values, {e.message}") from None
        match = None
        if "match" in spec:
            m = ctx.table(spec["match"], join(path, "match"))
            ctx.keys(m, join(path, "match"), ({"property", "value"}, set()))
            mpath = join(path, "match")
            match = (ctx.typed(m, mpath, "property", "str"), ctx.typed(m, mpath, "value", "str"))
        out[sid] = Scenario(
            sid,
            ctx.typed(spec, path, "name", "str"),
            turns,
            first,
            chosen,
            MappingProxyType(dict(optional)),
            MappingProxyType(values),
            match,
            ctx.typed(spec, path, "note", "str", ""),
            own,
        )
    return out


def check_references(ctx: PackContext, rules: tuple[RuleConfig, ...], scenarios: Mapping[str, Scenario]) -> None:
    """Every scenario and event a rule's ``when`` names exists: a misspelt one would silently
    switch the rule off. Events are those of the ``events`` tables of reinforcements.schedule rules."""
    events = {e for r in rules if r.impl == "reinforcements.schedule" for e in r.params["events"]}
    for r in rules:
        path = join("rules", r.name, "when")
        for s in r.when.scenarios:
            if s not in scenarios:
                raise ctx.error(
                    join(path, "scenario"),
                    f"unknown scenario {s!r} (the pack's [scenarios]: {', '.join(scenarios) or 'none'})",
                )
        for key, event in (("after", r.when.after), ("before", r.when.before)):
            if event and event not in events:
                raise ctx.error(
                    join(path, key),
                    f"unknown event {event!r} (the events of the pack's "
                    f"reinforcements.schedule rules: {', '.join(sorted(events)) or 'none'})",
                )


def scenario_verdict(rule: RuleConfig, scenario: Scenario | None) -> Verdict:
    """Whether `scenario` (None: none known) puts `rule` in force by its `rules` and `optional`."""
    if scenario is None:
        return Verdict("yes")
    names = (rule.name, *rule.tags)
    switched = [scenario.optional[n] for n in names if n in scenario.optional]
    if switched:
        return (
            Verdict("yes")
            if all(switched)
            else Verdict("no", f"scenario {scenario.id} ({scenario.name}) does not use this optional rule")
        )
    if scenario.rules and not set(names) & set(scenario.rules):
        return Verdict("no", f"it is not among the rules of scenario {scenario.id} ({scenario.name})")
    return Verdict("yes")


def match_scenario(
    scenarios: Mapping[str, Scenario],
    chosen: str | None,
    properties: Mapping[str, str],
    turn: int | None,
    notes: list[str],
) -> Scenario | None:
    """The scenario of a save (see the module docstring); what decided it is added to `notes`.
    UsageError for a `chosen` id the pack does not have, listing those it has."""
    if chosen is not None:
        if chosen not in scenarios:
            raise UsageError(f"--scenario {chosen!r}: unknown scenario (known: {', '.join(scenarios) or 'none'})")
        notes.append(f"scenario {chosen} ({scenarios[chosen].name}): given by --scenario")
        return scenarios[chosen]
    if not scenarios:
        return None
    by_property = [(s, m) for s in scenarios.values() if (m := s.match) and properties.get(m[0]) == m[1]]
    if len(by_property) == 1:
        s, (prop, value) = by_property[0]
        notes.append(f"scenario {s.id} ({s.name}): the save's global property {prop} is {value!r}")
        return s
    by_turn = [(s, t) for s in scenarios.values() if turn is not None and (t := s.turns) and t[0] <= turn <= t[1]]
    if not by_property and len(by_turn) == 1:
        s, (first, last) = by_turn[0]
        notes.append(f"scenario {s.id} ({s.name}): Game-Turn {turn} lies only in its turns {first}-{last}")
        return s
    could = [s for s, _ in by_property] or [s for s, _ in by_turn] or list(scenarios.values())
    notes.append(f"no scenario: the save could be {' or '.join(s.id for s in could)} (give --scenario)")
    return None
