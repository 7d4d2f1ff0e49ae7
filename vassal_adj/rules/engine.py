"""Run a pack's rules over a game state: `adjudicate(state, pack, context) -> Report`.

Each ``[rules.<name>]`` table of the pack names a registered implementation
(rules/mechanisms/implementations.py holds the built-in ones). The engine calls every enabled rule in
the order the pack declares them, as ``impl(state, context, params)`` with the context bound
to that rule, so that the implementation can cite it (``context.cite()`` gives
``"mygame:17.11"``) and turn labels into hexes without knowing the board.

Pure: the context is built elsewhere (vassal_adj/state_builder.py reads the module, the save
and the terrain file); a rule parameter that names a hex the board lacks is a `PackError`
naming the rule's key path, because it is the pack that is wrong, not the game.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from vassal_adj.errors import PackError, VassalAdjError, Where
from vassal_adj.model.geometry.hexes import Hex
from vassal_adj.model.geometry.layout import HexLayout
from vassal_adj.model.setups import SetupReference
from vassal_adj.model.state import GameState
from vassal_adj.model.terrain import TerrainMap
from vassal_adj.rules.mechanisms.regions import expand, is_region
from vassal_adj.rules.packs.pack import RuleConfig, RulePack
from vassal_adj.rules.packs.pack_options import NO_OPTIONS, OptionChoice, option_verdict
from vassal_adj.rules.packs.pack_scenarios import Scenario, scenario_verdict
from vassal_adj.rules.packs.unitmap import Unmapped
from vassal_adj.rules.registry import REGISTRY, Registry
from vassal_adj.rules.results import SEVERITY_RANK, Finding, Report, Severity
from vassal_adj.rules.scope import Situation, Verdict, in_force, phase_side

__all__ = ["RuleContext", "adjudicate", "rule_verdict", "situation", "unmapped_findings"]


@dataclass(frozen=True)
class RuleContext:
    """What a rule needs besides the state: the terrain, the board's hex layout (labels and
    ranges), the pack id for citations, and the rule being run (set by the engine).

    `layout` may be None for a module without a numbered hex grid: labels then fall back to
    raw grid indices and rules that take label ranges cannot run (they say so).
    """

    terrain: TerrainMap
    layout: HexLayout | None
    pack_id: str
    rule: RuleConfig | None = None
    unmapped: tuple[Unmapped, ...] = ()  # pieces the pack could not map (reported by the engine)
    notes: tuple[str, ...] = ()  # what the state builder could not do (copied to the report)
    scenario: Scenario | None = None  # the game's scenario (pack_scenarios.match_scenario); None: not known
    options: OptionChoice = NO_OPTIONS  # the pack's optional rules and those the game plays with (pack_options.py)
    # What a state shows of a named event, (status, why) (scope_events.py: outside, as the
    # schedule rule that defines events imports this module).
    events: Callable[[GameState, RuleContext, str], tuple[str, str]] | None = None
    turn_sequence: tuple[str, ...] = ()  # the pack's [state] turn labels in game order (N18): label k is turn k
    # The module's predefined set-ups the pack's rules name, by that name (setup_reference.py).
    setups: Mapping[str, SetupReference] = field(default_factory=dict)
    # The pack's rules by name, for a log rule that reads another rule's parameters (verify sets it).
    peers: Mapping[str, RuleConfig] = field(default_factory=dict)
    _hex_cache: dict[str, tuple[Hex, ...]] = field(default_factory=dict, compare=False, repr=False)

    def cite(self, rule: RuleConfig | None = None) -> str:
        """The citation of a finding: ``"<pack id>:<rule_ref>"`` of `rule` or the current rule."""
        r = rule or self.rule
        return f"{self.pack_id}:{r.rule_ref}" if r is not None else self.pack_id

    def label(self, h: Hex) -> str:
        """The label the module shows for `h` (raw column and row when it has none)."""
        name = self.layout.label_of(h) if self.layout is not None else None
        if name is not None:
            return name
        c, r = h.raw()
        return f"raw {c},{r}"

    def hexes(self, specs: Iterable[str], what: str = "hexes") -> tuple[Hex, ...]:
        """The hexes of label ranges ("0623-1423", "0312", "0101,0102"), named places of the
        terrain file or region expressions of them (rules/mechanisms/regions.py), in order, without
        repeats. ValueError names a spec that is none of these."""
        out: dict[Hex, None] = {}
        for spec in specs:
            if spec not in self._hex_cache:
                self._hex_cache[spec] = self._expand(spec, what)
            out.update(dict.fromkeys(self._hex_cache[spec]))
        return tuple(out)

    def _expand(self, spec: str, what: str) -> tuple[Hex, ...]:
        try:  # a place the terrain file names ("Allied supply", "Sbeitla") comes first
            return tuple(self.terrain.place(spec).hexes)
        except KeyError:
            pass
        if is_region(spec):  # "Fortress - terrain:minefield", "row<10" (rules/mechanisms/regions.py)
            return expand(spec, lambda term: self._expand(term, what), self.terrain, self.layout)
        if self.layout is None:
            raise ValueError(f"{what} {spec!r}: the board has no numbered hex grid, so labels name nothing")
        try:
            labels = self.layout.expand_range(spec)
        except VassalAdjError as e:
            raise ValueError(
                f"{what} {spec!r} is neither a place of the terrain file nor a hex range of the board: {e.message}"
            ) from None
        # Every label of a range is one of the layout's index, which `require` looks up; `hex_of`
        # would give the same hex by working out its centre and name again, label by label.
        return tuple(self.layout.require(lab) for lab in labels)


def unmapped_findings(pack_id: str, unmapped: Iterable[Unmapped]) -> list[Finding]:
    """One warning per piece the pack cannot map: it was not checked, and is never guessed."""
    out = []
    for u in unmapped:
        p = u.piece
        where = (p.location,) if p.location else ()
        out.append(
            Finding(
                f"{pack_id}:units",
                Severity.WARNING,
                f"piece {p.name!r} is not a unit of pack {pack_id!r}, so no rule checked it: {u.reason}",
                (p.id,),
                where,
            )
        )
    return out


def situation(state: GameState, rp: RulePack, context: RuleContext) -> Situation:
    """Where `state` stands for the rules' ``when`` (scope.py): its scenario, turn, phase, the
    side whose phase it is, weather, and the events it shows (`context.events`)."""

    def event(name: str) -> tuple[str, str]:
        if context.events is None:
            return "unknown", "the events were not read"
        return context.events(state, context, name)

    side = phase_side(rp.rules, rp.sides, state.phase)
    return Situation(
        context.scenario.id if context.scenario else None, state.turn, state.phase, side, state.weather, event
    )


def rule_verdict(
    rule: RuleConfig, scenario: Scenario | None, at: Situation, options: OptionChoice = NO_OPTIONS
) -> Verdict:
    """Whether `rule` is in force: its scenario's `rules` and `optional`, the game's optional
    rules (`options`), then its ``when``."""
    v = scenario_verdict(rule, scenario)
    if v.status == "yes":
        v = option_verdict(rule, options)
    return in_force(rule.when, at) if v.status == "yes" else v


def _plain(value: Any) -> Any:
    """Parameters as JSON-ready data: tuples and read-only mappings become lists and dicts."""
    if isinstance(value, Mapping):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple, frozenset, set)):
        items = [_plain(v) for v in value]
        return sorted(items) if isinstance(value, (set, frozenset)) else items
    return value


def _describe(
    pack: RulePack, rules: Iterable[RuleConfig], scenario: Scenario | None
) -> tuple[dict[str, dict[str, object]], dict[str, dict[str, object]]]:
    """The effective parameters of every rule and the assumptions the enabled rules use, with
    the scenario's values of its own."""
    params: dict[str, dict[str, object]] = {}
    used: dict[str, list[str]] = {}
    for r in rules:
        params[r.name] = {
            "impl": r.impl,
            "rule_ref": r.rule_ref,
            "enabled": r.enabled,
            "params": _plain(dict(r.params)),
            "assumed": dict(r.assumed),
        }
        if r.enabled:
            for key, name in r.assumed.items():
                used.setdefault(name, []).append(f"{r.name}.{key}")
    assumptions = {}
    for name, users in used.items():
        a = pack.assumptions[name]
        value = scenario.assumptions[name] if scenario and name in scenario.assumptions else a.value
        assumptions[name] = {
            "value": _plain(value),
            "source": a.source,
            "rule": a.rule,
            "note": a.note,
            "used_by": sorted(users),
        }
    return params, assumptions


def past_scenario(pack_id: str, turn: int | None, scenario: Scenario | None) -> list[Finding]:
    """A warning when the game's turn lies outside its scenario's Game-Turns (seed 001 Campaign II:
    "The game lasts 7 turns"): a save of Game-Turn 8 is a game played past its end."""
    if scenario is None or scenario.turns is None or turn is None:
        return []
    first, last = scenario.turns
    if first <= turn <= last:
        return []
    when = f"the game ends with Game-Turn {last}" if turn > last else f"the game starts on Game-Turn {first}"
    return [
        Finding(
            f"{pack_id}:{scenario.name}",
            Severity.WARNING,
            f"Game-Turn {turn} is outside {scenario.name} (Game-Turns {first}-{last}): {when}",
        )
    ]


def adjudicate(
    state: GameState,
    pack: Any,
    context: RuleContext,
    *,
    registry: Registry | None = None,
    scenario_span: bool = True,
) -> Report:
    """Every enabled rule of `pack` (a RulePack, or anything with a ``.pack`` such as a
    LoadedPack) run over `state`, in declared order; the findings of each cite it.

    Findings are ordered by rule (unmapped pieces first, then the pack's order), then
    severity, then the order the rule gave them in (rules are deterministic, so reports and
    golden tests are stable). A rule
    whose parameters do not fit this board (a range naming a missing hex) raises PackError
    with the key path ``rules.<name>``; a rule that is broken (a bug) propagates.
    `scenario_span`: also say when the turn lies outside the scenario's Game-Turns (off where a
    caller runs some rules again on many positions of one game, as `verify` at each phase's end).
    """
    rp: RulePack = getattr(pack, "pack", pack)
    reg = registry or REGISTRY
    keyed: list[tuple[tuple[int, int, int], Finding]] = []
    counts: list[tuple[str, str, int]] = []

    def add(order: int, found: Iterable[Finding]) -> int:
        # Within a rule, the rule's own order: it knows whether hex order or a total first reads best.
        before = len(keyed)
        for n, f in enumerate(found):
            keyed.append(((order, SEVERITY_RANK[Severity(f.severity)], n), f))
        return len(keyed) - before

    add(-1, unmapped_findings(rp.id, context.unmapped))
    at = situation(state, rp, context)
    scenario = context.scenario
    # A context built without the pack's options (a test, a script) still keeps its optional rules out.
    choice = context.options if context.options.table else replace(context.options, table=rp.options)
    if scenario_span:
        add(-1, past_scenario(rp.id, state.turn, scenario))
    # The pack's rules (or those a caller kept), each with the scenario's assumption values.
    own = {r.name: r for r in (scenario.rule_configs if scenario else ())}
    rules = tuple(own.get(r.name, r) for r in rp.rules)
    for order, rule in enumerate(rules):
        if not rule.enabled:
            continue
        impl = rule.implementation or reg.lookup(rule.impl)
        if impl.log:  # judges a log's segments, in `verify`
            continue
        ctx = replace(context, rule=rule)
        verdict = rule_verdict(rule, scenario, at, choice)
        if verdict.status != "yes":  # once per rule: said, never guessed
            out = verdict.status == "no"
            add(
                order,
                [
                    Finding(
                        ctx.cite(),
                        Severity.INFO if out else Severity.WARNING,
                        f"rule {rule.name} ({rule.cited}) {'is not in force' if out else 'was not checked'}: "
                        f"{verdict.why}",
                    )
                ],
            )
            continue
        try:
            found = impl.func(state, ctx, rule.params)
        except ValueError as e:  # parameters that do not fit this board or each other
            raise PackError(f"rules.{rule.name}: {e}", Where(path=rp.source)) from None
        counts.append((rule.name, ctx.cite(), add(order, found)))
    keyed.sort(key=lambda kf: kf[0])
    params, assumptions = _describe(rp, rules, scenario)
    names = {uid: u.name for uid, u in state.units.items()}
    names.update((u.piece.id, u.piece.name) for u in context.unmapped)
    return Report(
        pack=rp.id,
        findings=tuple(f for _, f in keyed),
        parameters=params,
        assumptions=assumptions,
        unit_names=names,
        turn=state.turn,
        phase=state.phase,
        weather=state.weather,
        notes=context.notes,
        checked=tuple(counts),
    )
