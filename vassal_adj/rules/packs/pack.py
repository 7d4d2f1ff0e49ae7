"""A validated rule pack: `RulePack.from_mapping(parsed pack.toml)` (pure: no files).

The format is in docs/adding-a-rule-pack.md and modules/_template/pack.toml. Every problem is
a `PackError` naming the file and the key path, e.g. ``pack.toml: rules.axis_supply.max_pathh:
unknown key``: tomllib gives no line numbers for keys, so the path is how a referee finds it.

Values the rulebook does not give live in ``[assumptions]``, each with its source; a rule
parameter can refer to one (``max_stack = { assumption = "stacking_limit" }``), so changing
the assumption changes every rule that uses it, and a report can say which values were assumed.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from types import MappingProxyType
from typing import Any

from vassal_adj.model.terrain import DEFAULT_PLACE_KINDS, TerrainVocabulary
from vassal_adj.rules.packs.pack_ctx import Assumption, PackContext, join
from vassal_adj.rules.packs.pack_dice import ChatDice, read_dice
from vassal_adj.rules.packs.pack_options import Option, read_options
from vassal_adj.rules.packs.pack_rules import RuleConfig, read_rules
from vassal_adj.rules.packs.pack_scenarios import Scenario, check_references, read_scenarios
from vassal_adj.rules.packs.pack_state import STATE_KEYS, BoxSpec, StateExtras, read_boxes, read_state_extras
from vassal_adj.rules.registry import REGISTRY, Registry, check_value

__all__ = ["PACK_FORMAT", "Assumption", "RuleConfig", "RulePack", "StateSource", "UnitClass"]

PACK_FORMAT = 1
_ID = re.compile(r"[a-z][a-z0-9_-]*\Z")

# Which keys each section accepts: (required, optional). Anything else is an unknown key.
_PACK_KEYS = ({"id", "name"}, {"aliases", "rulebook", "description", "format", "module", "hooks"})
_MODULE_KEYS = ({"name"}, {"version"})
_TERRAIN_KEYS = ({"types", "features"}, {"place_kinds", "file"})
_UNITS_KEYS = ({"sides", "classes"}, {"file"})
_CLASS_KEYS = (set(), {"mechanized", "flags", "description"})
_ASSUMPTION_KEYS = ({"value", "source"}, {"rule", "note"})
_STATE_KEYS = (
    set(),
    {"tracker", "turn_level", "phase_level", "phases", "weather_rule", "weather_by_turn", "turns"} | STATE_KEYS,
)
# "examples": the rulebook's worked examples, read and run by `packs validate` (rules/packs/examples.py)
_TOP_KEYS = (
    {"pack"},
    {"terrain", "units", "state", "rules", "assumptions", "dice", "scenarios", "options", "boxes", "examples"},
)


@dataclass(frozen=True)
class UnitClass:
    """A unit class of the pack ("armor", "mechanized-infantry", ...) and what the rules ask of it."""

    name: str
    mechanized: bool = False  # 16.11-style terrain prohibitions ask this
    flags: frozenset[str] = frozenset()
    description: str = ""


@dataclass(frozen=True)
class StateSource:
    """Where the game turn, phase and weather come from (``[state]``): the module's turn
    tracker, its turn and phase levels, the phase ids the pack's rules use for the tracker's
    phase names, a weather table by turn (weather_by_turn[0] is turn 1), one entry per
    Game-Turn, and the number of Game-Turns (`turns`, by default the table's length)."""

    tracker: str = ""  # the TurnTracker's name; "" when the pack reads none
    turn_level: str = "Turn"
    phase_level: str = ""
    phases: Mapping[str, str] = field(default_factory=dict)  # tracker item -> phase id
    weather_rule: str = ""
    weather_by_turn: tuple[str, ...] = ()
    turns: int = 0  # the Game-Turns of the game; 0 when the pack does not say

    @property
    def game_turns(self) -> int | None:
        """How many Game-Turns the game has: `turns`, else the weather table's length (None: unknown)."""
        return self.turns or len(self.weather_by_turn) or None

    def weather(self, turn: int | None) -> str | None:
        """The weather of `turn` by the table; None when the table does not say."""
        if turn is None or not 1 <= turn <= len(self.weather_by_turn):
            return None
        return self.weather_by_turn[turn - 1]


@dataclass(frozen=True)
class RulePack:
    """A validated pack: identity, the module it fits, vocabulary, unit classes, rules, assumptions."""

    id: str
    name: str
    aliases: tuple[str, ...]
    module_name: str  # a regular expression matched against the whole module name
    module_version: str  # the same for the module version (".*" when any)
    rulebook: str
    description: str
    vocabulary: TerrainVocabulary
    sides: tuple[str, ...]
    unit_classes: Mapping[str, UnitClass]
    rules: tuple[RuleConfig, ...]  # in the order the pack declares them
    assumptions: Mapping[str, Assumption]
    terrain_file: str = "terrain.csv"
    units_file: str = "units.toml"
    hooks: str | None = None
    state: StateSource = field(default_factory=StateSource)
    dice: tuple[ChatDice, ...] = ()  # chat dice patterns ([[dice.chat]], pack_dice.py)
    boxes: tuple[BoxSpec, ...] = ()  # [boxes]: named off-map boxes (pack_state.py)
    extras: StateExtras = field(default_factory=StateExtras)  # [state] keys of N18 (pack_state.py)
    source: str = field(default="pack.toml", compare=False)
    scenarios: Mapping[str, Scenario] = field(default_factory=dict)  # [scenarios.<id>] (pack_scenarios.py)
    options: Mapping[str, Option] = field(default_factory=dict)  # [options.<id>] (pack_options.py)

    @classmethod
    def from_mapping(
        cls, data: Mapping[str, Any], *, source: str = "pack.toml", registry: Registry | None = None
    ) -> RulePack:
        """Validate a parsed pack.toml. Raises PackError naming `source` and the key path.

        `registry` defaults to the package registry, which imports the built-in rules the pack names.
        """
        return _build(PackContext(source), data, registry or REGISTRY)

    @property
    def names(self) -> tuple[str, ...]:
        """The id and the aliases: every name the pack can be found by."""
        return (self.id, *self.aliases)

    def fits(self, module_name: str, module_version: str = "") -> bool:
        """Whether a module with this name and version is one the pack is written for."""
        return (
            re.fullmatch(self.module_name, module_name) is not None
            and re.fullmatch(self.module_version, module_version) is not None
        )

    def rule(self, name: str) -> RuleConfig:
        """The rule called `name` (KeyError naming the known rules otherwise)."""
        for r in self.rules:
            if r.name == name:
                return r
        raise KeyError(f"pack {self.id!r} has no rule {name!r} (known: {', '.join(r.name for r in self.rules)})")

    def rules_using(self, impl: str) -> tuple[RuleConfig, ...]:
        """The enabled rules that use implementation `impl`, in pack order."""
        return tuple(r for r in self.rules if r.impl == impl and r.enabled)

    def cite(self, rule: str | RuleConfig) -> str:
        """The citation a finding carries: ``"<pack id>:<rule number>"``, e.g. ``"mygame:17.11"``."""
        r = rule if isinstance(rule, RuleConfig) else self.rule(rule)
        return f"{self.id}:{r.rule_ref}"

    def effective_parameters(self) -> dict[str, dict[str, object]]:
        """Every rule's effective parameters (printed in playthroughs, as OpenSpiel does)."""
        return {r.name: {"impl": r.impl, "rule_ref": r.rule_ref, **dict(r.params)} for r in self.rules}


# -- validation ---------------------------------------------------------------------------
def _build(ctx: PackContext, data: Mapping[str, Any], registry: Registry) -> RulePack:
    ctx.keys(ctx.table(data, ""), "", _TOP_KEYS)
    p = ctx.table(data["pack"], "pack")
    ctx.keys(p, "pack", _PACK_KEYS)
    fmt = ctx.typed(p, "pack", "format", "int", PACK_FORMAT)
    if fmt != PACK_FORMAT:
        raise ctx.error("pack.format", f"unsupported pack format {fmt!r} (this version reads {PACK_FORMAT})")
    pid = ctx.typed(p, "pack", "id", "str")
    if not _ID.match(pid):
        raise ctx.error(
            "pack.id", f"bad pack id {pid!r}: lowercase letters, digits, '-' or '_', starting with a letter"
        )
    aliases = ctx.words(p, "pack", "aliases")
    folded = [pid.casefold()]
    for a in aliases:
        if a.casefold() in folded:
            raise ctx.error("pack.aliases", f"alias {a!r} repeats the id or another alias (names ignore case)")
        folded.append(a.casefold())
    module = ctx.table(p.get("module", {"name": ".*"}), "pack.module")
    ctx.keys(module, "pack.module", _MODULE_KEYS)
    mname = _regex(ctx, module, "pack.module", "name")
    mversion = _regex(ctx, module, "pack.module", "version") if "version" in module else ".*"
    hooks = ctx.typed(p, "pack", "hooks", "str")

    vocabulary, terrain_file = _terrain(ctx, data.get("terrain"))
    sides, classes, units_file = _units(ctx, data.get("units"))
    assumptions = _assumptions(ctx, data.get("assumptions", {}))
    state = _state(ctx, data.get("state", {}))
    extras = read_state_extras(ctx, ctx.table(data.get("state", {}), "state"), state.turns)
    vocabularies = {
        "terrain": vocabulary.terrain,
        "features": vocabulary.features,
        "weather": frozenset(w.strip().lower() for w in (*state.weather_by_turn, *extras.weather_values.values())),
        "sides": frozenset(sides),
        "phases": frozenset(state.phases.values()),
    }
    rules = read_rules(ctx, data.get("rules", {}), registry, assumptions, vocabularies)

    def reread(values: Mapping[str, object]) -> tuple[RuleConfig, ...]:  # a scenario's own assumption values
        own = {k: replace(a, value=check_value("any", values[k])) if k in values else a for k, a in assumptions.items()}
        return read_rules(ctx, data.get("rules", {}), registry, own, vocabularies)

    scenarios = read_scenarios(ctx, data.get("scenarios", {}), rules, sides, assumptions, reread)
    check_references(ctx, rules, scenarios)
    return RulePack(
        id=pid,
        name=ctx.typed(p, "pack", "name", "str"),
        aliases=aliases,
        module_name=mname,
        module_version=mversion,
        rulebook=ctx.typed(p, "pack", "rulebook", "str", ""),
        description=ctx.typed(p, "pack", "description", "str", ""),
        vocabulary=vocabulary,
        sides=sides,
        unit_classes=MappingProxyType(classes),
        rules=rules,
        assumptions=MappingProxyType(assumptions),
        terrain_file=terrain_file,
        units_file=units_file,
        hooks=hooks,
        state=state,
        dice=read_dice(ctx, data.get("dice")),
        boxes=read_boxes(ctx, data.get("boxes", {})),
        extras=extras,
        source=ctx.source,
        scenarios=MappingProxyType(scenarios),
        options=MappingProxyType(read_options(ctx, data.get("options", {}), rules)),
    )


def _regex(ctx: PackContext, data: Mapping[str, Any], path: str, key: str) -> str:
    text: str = ctx.typed(data, path, key, "str")
    try:
        re.compile(text)
    except re.error as e:
        raise ctx.error(join(path, key), f"bad regular expression {text!r}: {e}") from None
    return text


def _terrain(ctx: PackContext, data: object) -> tuple[TerrainVocabulary, str]:
    if data is None:  # a pack with no map rules (yet): an empty vocabulary
        return TerrainVocabulary(frozenset(), frozenset()), "terrain.csv"
    t = ctx.table(data, "terrain")
    ctx.keys(t, "terrain", _TERRAIN_KEYS)
    names = {k: ctx.words(t, "terrain", k) for k in ("types", "features")}
    kinds = ctx.words(t, "terrain", "place_kinds", tuple(sorted(DEFAULT_PLACE_KINDS)))
    for key, values in (*names.items(), ("place_kinds", kinds)):
        for v in values:
            if any(ch in v for ch in ' \t,"#/'):
                raise ctx.error(f"terrain.{key}", f"bad name {v!r}: one word, no spaces, commas, '#', '/' or quotes")
    voc = TerrainVocabulary(frozenset(names["types"]), frozenset(names["features"]), frozenset(kinds))
    return voc, ctx.typed(t, "terrain", "file", "str", "terrain.csv")


def _units(ctx: PackContext, data: object) -> tuple[tuple[str, ...], dict[str, UnitClass], str]:
    if data is None:
        return (), {}, "units.toml"
    u = ctx.table(data, "units")
    ctx.keys(u, "units", _UNITS_KEYS)
    sides = ctx.words(u, "units", "sides")
    raw = u["classes"]
    classes: dict[str, UnitClass] = {}
    if isinstance(raw, list):  # the short form: classes = ["armor", "infantry"]
        for name in ctx.words(u, "units", "classes"):
            classes[name] = UnitClass(name)
    else:
        for name, spec in ctx.table(raw, "units.classes").items():
            path = join("units.classes", name)
            spec = ctx.table(spec, path)
            ctx.keys(spec, path, _CLASS_KEYS)
            classes[name] = UnitClass(
                name,
                ctx.typed(spec, path, "mechanized", "bool", False),
                frozenset(ctx.words(spec, path, "flags")),
                ctx.typed(spec, path, "description", "str", ""),
            )
    return sides, classes, ctx.typed(u, "units", "file", "str", "units.toml")


def _state(ctx: PackContext, data: object) -> StateSource:
    t = ctx.table(data, "state")
    ctx.keys(t, "state", _STATE_KEYS)
    phases = ctx.table(t.get("phases", {}), "state.phases")
    for k, v in phases.items():
        if not isinstance(v, str) or not v.strip():
            raise ctx.error(join("state.phases", k), f"expected a phase id (str), got {v!r}")
    turns, weathers = ctx.typed(t, "state", "turns", "int", 0), ctx.words_any(t, "state", "weather_by_turn")
    if "turns" in t and turns < 1:
        raise ctx.error("state.turns", f"expected the number of Game-Turns (1 or more), got {turns}")
    if turns and weathers and len(weathers) != turns:
        raise ctx.error(
            "state.weather_by_turn",
            f"{len(weathers)} entries, but state.turns says the game has {turns} Game-Turns (one entry per Game-Turn)",
        )
    return StateSource(
        tracker=ctx.typed(t, "state", "tracker", "str", ""),
        turn_level=ctx.typed(t, "state", "turn_level", "str", "Turn"),
        phase_level=ctx.typed(t, "state", "phase_level", "str", ""),
        phases=MappingProxyType(dict(phases)),
        weather_rule=ctx.typed(t, "state", "weather_rule", "str", ""),
        weather_by_turn=weathers,
        turns=turns,
    )


def _assumptions(ctx: PackContext, data: object) -> dict[str, Assumption]:
    out = {}
    for name, spec in ctx.table(data, "assumptions").items():
        path = join("assumptions", name)
        spec = ctx.table(spec, path)
        ctx.keys(spec, path, _ASSUMPTION_KEYS)
        source = ctx.typed(spec, path, "source", "str")
        if not source.strip():  # the point of an assumption is that a referee can check it
            raise ctx.error(join(path, "source"), "empty source: say where the value comes from")
        out[name] = Assumption(
            name,
            check_value("any", spec["value"]),
            source,
            ctx.typed(spec, path, "rule", "str", ""),
            ctx.typed(spec, path, "note", "str", ""),
        )
    return out
