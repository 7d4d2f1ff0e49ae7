"""``setup.reference`` (RULES-MAP N11): a game's opening position compared with a predefined
set-up of the module, the scenario save VASSAL opens from File > New Game.

A rulebook that prints "see setup" (seed 001's Campaign II) leaves the set-up to the module's
scenario save; the loading layer reads that save into the rule's context (setup_reference.py at
the package root, `RuleContext.setups`), and this rule compares the game with it, unit by unit.
Units are paired by name (two counters of one name are interchangeable: a game set up by hand
has other piece ids than the module's save); each unit not where the set-up puts it (its hex,
within `within` hexes, or its box), each unit the set-up has and the game lacks, and each the
game has and the set-up lacks is an error. `free` units (placed at the player's choice) are
counted, never placed. A set-up the module lacks, that opens no save, or whose save the module
does not hold is "not judged" (INFO), never a finding against the game.

Pure: states in, findings out.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from vassal_adj.model.geometry.hexes import distance
from vassal_adj.model.state import GameState, Position
from vassal_adj.rules.engine import RuleContext
from vassal_adj.rules.mechanisms.param_values import names, whole
from vassal_adj.rules.param_shape import Either
from vassal_adj.rules.registry import REQUIRED, Param, register
from vassal_adj.rules.results import Finding, Severity
from vassal_adj.rules.select import Selector, selector_at

__all__ = ["COMPARED", "reference"]

COMPARED = ("hex", "flags")  # what `compare` may name: the unit's place, its pack flags


def _setup_name(value: Any, ctx: RuleContext) -> str | None:
    """The set-up of the game's scenario: the one name, or the scenario's entry of the table."""
    if isinstance(value, str):
        return value
    if not isinstance(value, Mapping) or not all(isinstance(v, str) for v in value.values()):
        raise ValueError(f"setup: expected a set-up name or a table scenario id -> name, got {value!r}")
    return value.get(ctx.scenario.id) if ctx.scenario is not None else None


def _where(pos: Position, ctx: RuleContext) -> str:
    if pos.hex is not None:
        return pos.label or ctx.label(pos.hex)
    return f"box {pos.box!r}" if pos.box else "nowhere known"


def _same(a: Position, b: Position, within: int) -> bool:
    if a.hex is not None and b.hex is not None:
        return distance(a.hex, b.hex) <= within
    if a.hex is not None or b.hex is not None:
        return False
    return (a.box or "").strip().casefold() == (b.box or "").strip().casefold()


def _by_name(state: GameState, pick: Selector) -> dict[str, list[str]]:
    out: dict[str, list[str]] = {}
    for uid in sorted(state.units):
        if pick.matches(state.units[uid]):
            out.setdefault(state.units[uid].name, []).append(uid)
    return out


@register(
    "setup.reference",
    params={
        "setup": Param(
            REQUIRED,
            "any",
            "the module's predefined set-up (its name in File > New Game, or its save's file), or a "
            "table scenario id -> set-up",
            shape=Either("str", "table"),
        ),
        "compare": Param(["hex"], "list[str]", "what is compared: 'hex' (the hex or box), 'flags' (the pack's flags)"),
        "units": Param({}, "selector", "the units compared (empty: every unit)"),
        "free": Param({}, "selector", "units the scenario leaves free: counted, not placed (empty: none)"),
        "within": Param(0, "int", "a unit within this many hexes of its set-up hex is where the set-up puts it"),
        "setup_turn": Param(0, "int", "a Game-Turn whose states in `setup_phases` (or with no phase) are a set-up"),
        "setup_phases": Param((), "list[str]", "phase ids of `setup_turn` before any move (the set-up still stands)"),
    },
)
def reference(state: GameState, ctx: RuleContext, p: Mapping[str, Any]) -> list[Finding]:
    """Each unit where the module's predefined set-up puts it; units missing or extra."""
    ref = ctx.rule.rule_ref if ctx.rule is not None else ""
    rule, cite = ctx.cite(), f"[{ref}]"
    unknown = sorted(set(names(p["compare"], "compare")) - set(COMPARED))
    if unknown:
        raise ValueError(f"compare: {', '.join(map(repr, unknown))} is not one of {', '.join(COMPARED)}")
    within, turn = whole(p["within"], "within"), whole(p["setup_turn"], "setup_turn")
    pick, free = selector_at(p["units"], "units"), selector_at(p["free"], "free")
    name = _setup_name(p["setup"], ctx)
    phases = set(p["setup_phases"])
    if state.turn not in (None, turn or None) or (state.phase is not None and state.phase not in phases):
        return []
    if name is None:
        why = (
            "the game's scenario is not known, and `setup` names the set-up by scenario"
            if ctx.scenario is None
            else f"scenario {ctx.scenario.id!r} has no set-up in `setup`"
        )
        return [Finding(rule, Severity.INFO, f"set-up not judged: {why} {cite}")]
    found = ctx.setups.get(name)
    if found is None or found.state is None:
        why = found.why if found is not None else f"the module's set-ups were not read for {name!r}"
        return [Finding(rule, Severity.INFO, f"set-up not judged: {why} {cite}")]
    setup, out = found.state, []
    game_units, setup_units = _by_name(state, pick), _by_name(setup, pick)
    for unit_name in sorted(set(game_units) | set(setup_units)):
        ours, theirs = game_units.get(unit_name, []), setup_units.get(unit_name, [])
        loose = [u for u in ours if p["free"] and free.matches(state.units[u])]
        left, astray, pairs = list(theirs), [], []
        for u in (u for u in ours if u not in loose):  # first, each unit where the set-up puts one of its name
            spot = state.positions.get(u, Position())
            hit = next((t for t in left if _same(spot, setup.positions.get(t, Position()), within)), None)
            if hit is None:
                astray.append(u)
            else:
                left.remove(hit)
                pairs.append((u, hit))
        extra = astray[len(left) :]
        for u in astray[: len(left)]:
            spot = _where(state.positions.get(u, Position()), ctx)
            where = " or ".join(dict.fromkeys(_where(setup.positions.get(t, Position()), ctx) for t in left))
            whom = "it" if len(left) == 1 else "the units of this name"
            pairs.append((u, left.pop(0)))
            msg = f"{state.units[u].side} {unit_name} is in {spot}, but set-up {name!r} puts {whom} in {where}"
            out.append(Finding(rule, Severity.ERROR, f"{msg} {cite}", (u,), (spot,)))
        taken = min(len(loose), len(left))  # free units stand for any of their name, wherever they are
        del left[:taken]
        for u in (*extra, *loose[taken:]):
            spot = _where(state.positions.get(u, Position()), ctx)
            msg = f"{state.units[u].side} {unit_name} ({spot}) is one more than set-up {name!r} has ({len(theirs)})"
            out.append(Finding(rule, Severity.ERROR, f"{msg} {cite}", (u,), (spot,)))
        if left:
            spots = tuple(dict.fromkeys(_where(setup.positions.get(t, Position()), ctx) for t in left))
            msg = (
                f"{setup.units[left[0]].side} {unit_name} is missing: set-up {name!r} puts "
                f"{'one' if len(left) == 1 else len(left)} more in {', '.join(spots)}"
            )
            out.append(Finding(rule, Severity.ERROR, f"{msg} {cite}", (), spots))
        if "flags" in p["compare"]:
            out += _flags(state, setup, pairs, name, rule, cite, ctx)
    return out


def _flags(
    state: GameState,
    setup: GameState,
    pairs: list[tuple[str, str]],
    name: str,
    rule: str,
    cite: str,
    ctx: RuleContext,
) -> list[Finding]:
    out = []
    for u, t in pairs:
        ours, theirs = state.units[u].flags, setup.units[t].flags
        if ours != theirs:
            spot = _where(state.positions.get(u, Position()), ctx)
            shown = ", ".join(sorted(ours)) or "none"
            msg = (
                f"{state.units[u].side} {state.units[u].name} ({spot}) has flags {shown}, but set-up {name!r} "
                f"gives it {', '.join(sorted(theirs)) or 'none'}"
            )
            out.append(Finding(rule, Severity.ERROR, f"{msg} {cite}", (u,), (spot,)))
    return out
