"""The rulebook's worked examples of a pack (``[[examples]]`` in pack.toml): their schema.

An example is a position, a question and the rulebook's answer: "a 2-3-11 during a Poor
Weather Game-Turn becomes a 2-3-6" (seed 000 20.3) is a unit, a weather and an allowance.
`packs validate` runs each through the same rule code `check` uses (rules/packs/example_runs.py),
so a terrain file drawn for a real map is checked against the rulebook before it judges a game.

Each ``[[examples]]`` table: ``rule`` (as printed), ``kind``, ``units`` (the first is the one
asked about), ``expect``; optional ``quote`` (the rulebook's words), ``uses`` (the
``[rules.<name>]`` it runs; default: the pack's one rule of the kind), ``weather``, ``move``
(hex labels in order: the path of a movement example), ``turn``, ``phase`` and ``scenario`` (the
moment of the position, for rules that read it: 7.1's "available on GT 6"), ``note``. Errors name
the key path.
Pure: no files.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from vassal_adj.errors import PackError
from vassal_adj.rules.packs.pack import RuleConfig, RulePack
from vassal_adj.rules.packs.pack_ctx import PackContext, join

__all__ = ["KINDS", "Example", "ExampleUnit", "Kind", "bad_example", "read_examples"]


@dataclass(frozen=True)
class Kind:
    """What an example kind asks: the implementations it runs (the pack's rules of the first it has,
    unless `uses` names one) and the verdicts it may expect (key -> type)."""

    impls: tuple[str, ...]
    expect: Mapping[str, str]
    needs_hex: bool  # whether the unit asked about must stand on the map (`at`)


KINDS: Mapping[str, Kind] = {
    # the allowance `check` and `verify` give the unit in the weather (movement_params.allowance)
    "allowance": Kind(("movement.allowance",), {"allowance": "int"}, False),
    # the cheapest legal path over `move` (movement.legal_path): legal or not, its MP, the rule a refusal cites
    "movement": Kind(("movement.allowance",), {"legal": "bool", "cost": "number", "cites": "str"}, False),
    # the supply rule run on the position: is the unit in supply
    "supply": Kind(("supply.trace", "supply.loc"), {"supplied": "bool"}, True),
    # enemy zones of control as movement draws them (zoc.enemy_zoc): is the unit's hex in one
    "zoc": Kind(("zoc.engaged", "movement.allowance"), {"controlled": "bool"}, True),
    # the stacking rule run on the position: does the unit's hex break it
    "stacking": Kind(("stacking.limit", "stacking.pools"), {"legal": "bool"}, True),
    # any save rule `uses` names, run on the position: does no finding name the unit (a reinforcement
    # on the map before its turn, an air unit beyond its range); no default rule, so `uses` is required
    "position": Kind((), {"legal": "bool"}, True),
}

_KEYS = (
    {"rule", "kind", "units", "expect"},
    {"quote", "uses", "weather", "move", "note", "turn", "phase", "scenario"},
)
_UNIT_KEYS = ({"name"}, {"at", "side", "kind", "movement", "mechanized", "flags"})
_INLINE = ("side", "kind", "movement")  # a unit given by its values, not by units.toml


@dataclass(frozen=True)
class ExampleUnit:
    """A unit of an example: a counter name units.toml maps, or (`movement` given) the values themselves."""

    name: str
    at: str | None = None  # a hex label; None: off the map
    side: str = ""
    kind: str = ""
    movement: int | None = None  # None: mapped from units.toml by `name`
    mechanized: bool | None = None  # None: the class's
    flags: tuple[str, ...] = ()


@dataclass(frozen=True)
class Example:
    """One worked example: `units[0]` is the unit asked about; `expect` the rulebook's verdicts."""

    index: int
    rule: str
    kind: str
    units: tuple[ExampleUnit, ...]
    expect: Mapping[str, Any]
    rules: tuple[RuleConfig, ...]  # the rule named by `uses`, else every enabled rule of the kind
    quote: str = ""
    weather: str | None = None
    move: tuple[str, ...] = ()
    note: str = ""
    turn: int | None = None  # the position's Game-Turn (None: unknown, as a save without a turn counter)
    phase: str | None = None
    scenario: str | None = None  # a [scenarios] id, for rules in force in one scenario only

    @property
    def path(self) -> str:
        return f"examples[{self.index}]"

    @property
    def on_board(self) -> bool:
        """Whether running it needs the board and its terrain (a hex in it); an allowance alone does not."""
        return bool(self.move) or any(u.at is not None for u in self.units)

    @property
    def title(self) -> str:
        return f"{self.path} ({self.rule}, {self.kind})"


def read_examples(data: object, pack: RulePack) -> tuple[Example, ...]:
    """The ``[[examples]]`` of a parsed pack.toml; PackError naming the pack file and key path."""
    ctx = PackContext(pack.source)
    if data is None:
        return ()
    if not isinstance(data, list):
        raise ctx.error("examples", f"expected an array of tables ([[examples]]), got {type(data).__name__}")
    return tuple(_example(ctx, pack, ctx.table(e, f"examples[{i}]"), i) for i, e in enumerate(data))


def _example(ctx: PackContext, pack: RulePack, e: Mapping[str, Any], i: int) -> Example:
    path = f"examples[{i}]"
    ctx.keys(e, path, _KEYS)
    rule = ctx.typed(e, path, "rule", "str")
    kind_name = ctx.typed(e, path, "kind", "str")
    if kind_name not in KINDS:
        raise ctx.error(join(path, "kind"), f"unknown kind {kind_name!r} (known: {', '.join(KINDS)})")
    kind = KINDS[kind_name]
    units = e["units"]
    if not isinstance(units, list) or not units:
        raise ctx.error(join(path, "units"), "expected a non-empty array of tables ({ name = ..., at = ... })")
    read = tuple(
        _unit(ctx, pack, ctx.table(u, join(path, "units", j)), join(path, "units", j)) for j, u in enumerate(units)
    )
    expect = ctx.table(e["expect"], join(path, "expect"))
    if not expect:
        raise ctx.error(join(path, "expect"), f"no verdict given (known here: {', '.join(kind.expect)})")
    ctx.keys(expect, join(path, "expect"), (set(), set(kind.expect)))
    for key, type_ in kind.expect.items():
        if key in expect:
            _check_type(ctx, join(path, "expect", key), expect[key], type_)
    weather = ctx.typed(e, path, "weather", "str")
    weathers = {w.strip().lower() for w in pack.state.weather_by_turn}
    if weather is not None and weathers and weather.strip().lower() not in weathers:
        known = ", ".join(sorted(weathers))
        raise ctx.error(join(path, "weather"), f"unknown weather {weather!r} (the pack's: {known})")
    move = ctx.typed(e, path, "move", "list[str]", ())
    if kind_name == "movement":
        if len(move) < 2:
            raise ctx.error(
                join(path, "move"),
                "a movement example needs the hexes of the move, from the first to the last (at least two)",
            )
        if read[0].at is not None and read[0].at != move[0]:
            raise ctx.error(
                join(path, "units", 0, "at"),
                f"the unit moving stands at {read[0].at!r} but the move starts at {move[0]!r}",
            )
    elif move:
        raise ctx.error(join(path, "move"), f"only a movement example has a move (this is {kind_name!r})")
    if kind.needs_hex and read[0].at is None:
        raise ctx.error(join(path, "units", 0, "at"), f"a {kind_name} example needs the hex of the unit asked about")
    turn = ctx.typed(e, path, "turn", "int")
    if turn is not None and turn < 1:
        raise ctx.error(join(path, "turn"), f"expected a Game-Turn >= 1, got {turn}")
    scenario = ctx.typed(e, path, "scenario", "str")
    if scenario is not None and scenario not in pack.scenarios:
        known = ", ".join(pack.scenarios) or "none"
        raise ctx.error(join(path, "scenario"), f"unknown scenario {scenario!r} (the pack's: {known})")
    return Example(
        i,
        rule,
        kind_name,
        read,
        dict(expect),
        _rules(ctx, pack, e, path, kind),
        ctx.typed(e, path, "quote", "str", ""),
        weather,
        tuple(move),
        ctx.typed(e, path, "note", "str", ""),
        turn,
        ctx.typed(e, path, "phase", "str"),
        scenario,
    )


def _check_type(ctx: PackContext, path: str, value: object, type_: str) -> None:
    fits = {
        "bool": isinstance(value, bool),
        "str": isinstance(value, str),
        "int": isinstance(value, int) and not isinstance(value, bool),
        "number": isinstance(value, (int, float)) and not isinstance(value, bool),
    }[type_]
    if not fits:
        raise ctx.error(path, f"expected {type_}, got {value!r}")


def _unit(ctx: PackContext, pack: RulePack, u: Mapping[str, Any], path: str) -> ExampleUnit:
    ctx.keys(u, path, _UNIT_KEYS)
    name = ctx.typed(u, path, "name", "str")
    at = ctx.typed(u, path, "at", "str")
    given = [k for k in _INLINE if k in u]
    if not given:
        return ExampleUnit(name, at)
    if missing := [k for k in _INLINE if k not in u]:
        raise ctx.error(
            join(path, missing[0]),
            f"a unit given by its values needs {', '.join(_INLINE)} (or only `name`, mapped by units.toml)",
        )
    side, kind = ctx.typed(u, path, "side", "str"), ctx.typed(u, path, "kind", "str")
    if side not in pack.sides:
        raise ctx.error(join(path, "side"), f"unknown side {side!r} (the pack's: {', '.join(pack.sides)})")
    if kind not in pack.unit_classes:
        raise ctx.error(join(path, "kind"), f"unknown unit class {kind!r} (the pack's: {', '.join(pack.unit_classes)})")
    movement = ctx.typed(u, path, "movement", "int")
    if movement < 0:
        raise ctx.error(join(path, "movement"), f"expected a printed allowance >= 0, got {movement}")
    return ExampleUnit(
        name, at, side, kind, movement, ctx.typed(u, path, "mechanized", "bool"), ctx.words(u, path, "flags")
    )


def _rules(ctx: PackContext, pack: RulePack, e: Mapping[str, Any], path: str, kind: Kind) -> tuple[RuleConfig, ...]:
    """The rule `uses` names, or the enabled rules of the kind's first implementation the pack has
    (one is chosen by side when run)."""
    impls = " or ".join(kind.impls)
    if not kind.impls and "uses" not in e:
        raise ctx.error(join(path, "uses"), "this kind runs the rule `uses` names: name one ([rules.<name>])")
    if "uses" in e:
        name = ctx.typed(e, path, "uses", "str")
        try:
            rule = pack.rule(name)
        except KeyError as err:
            raise ctx.error(join(path, "uses"), str(err.args[0])) from None
        if kind.impls and rule.impl not in kind.impls:
            raise ctx.error(join(path, "uses"), f"rule {name!r} is {rule.impl!r}, not {impls}")
        if rule.implementation is not None and rule.implementation.log:  # it judges a log's segments
            raise ctx.error(join(path, "uses"), f"rule {name!r} is {rule.impl!r}, a log rule: it judges no position")
        return (rule,)
    found = next((rules for impl in kind.impls if (rules := pack.rules_using(impl))), ())
    if not found:
        raise ctx.error(join(path, "kind"), f"the pack has no enabled rule of {impls} to run this example with")
    return found


def bad_example(example: Example, source: str, message: str, *key: str | int) -> PackError:
    """A PackError for an example that cannot be run on this board (a hex it lacks, a unit units.toml cannot map)."""
    return PackContext(source).error(join(example.path, *key), message)
