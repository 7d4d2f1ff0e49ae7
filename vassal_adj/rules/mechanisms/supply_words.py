"""The words of a supply finding (``supply.trace``, implementations.py): the path in hexes,
what an exit from a source hex takes away (RULES-MAP E4, seed 000's 17.15) and when a unit's
supply turns on the reading of ``initial_crosses_network``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from vassal_adj.model.geometry.hexes import Hex
from vassal_adj.model.state import GameState
from vassal_adj.rules.engine import RuleContext
from vassal_adj.rules.mechanisms.exits import at_or_east_of, sources_after_exits
from vassal_adj.rules.mechanisms.supply import SupplyRules, SupplyStatus
from vassal_adj.rules.mechanisms.zoc import Sources
from vassal_adj.rules.results import Finding, Severity

__all__ = ["after_exits", "crossing_note", "obstructed_words", "route_words"]

# Obstructed hexes named in a finding (seed 001 9.1a, seed 004 12.3); the rest are counted.
_NAMED = 8


def after_exits(
    state: GameState, ctx: RuleContext, p: Mapping[str, Any], side: str, sources: tuple[Hex, ...]
) -> tuple[tuple[Hex, ...], list[Finding]]:
    """The sources still in use after the exits the state's history shows (17.15: an exit from
    a source hex takes it and every source east of it away, from that moment on), and findings
    saying which exits did that and which exited units no file shows leaving (a save alone)."""
    by = p["sources_lost_on_exit_by"]
    if not by:
        return sources, []
    if not p["exit_box"]:  # the engine knows no module's box names: the pack gives it
        raise ValueError("exit_box: sources_lost_on_exit_by needs the name of the off-map box of exited units")
    ref = f" [{p['exit_rule']}]" if p["exit_rule"] else ""
    exits, gone = state.exits(p["exit_box"], {by})
    kept = sources_after_exits(sources, (d.hex for d in exits))
    out, done = [], set()
    for d in exits:
        if d.hex not in sources or d.hex in done:
            continue
        done.add(d.hex)
        lost = [h for h in sources if at_or_east_of(h, d.hex)]
        when = f" on turn {d.turn}" if d.turn is not None else ""
        when += f" ({d.phase})" if d.phase else ""
        out.append(
            Finding(
                ctx.cite(),
                Severity.INFO,
                f"{by} {state.units[d.unit].name} exited the map from {side} supply hex "
                f"{d.label or ctx.label(d.hex)}{when}: that hex and every {side} supply hex east of it "
                f"({len(lost)} in all) are no longer {side} supply sources; {len(kept)} remain{ref}",
                (d.unit,),
                tuple(ctx.label(h) for h in lost),
            )
        )
    if gone:
        out.append(
            Finding(
                ctx.cite(),
                Severity.WARNING,
                f"{len(gone)} {by} unit{'s have' if len(gone) != 1 else ' has'} exited the map, but no log "
                f"given shows from which hex (a save does not record it), so no {side} source was taken "
                f"away for {'them' if len(gone) != 1 else 'it'}. An exit from a {side} supply hex removes "
                f"that source and every source east of it{ref}: check the game's log",
                gone,
            )
        )
    return tuple(h for h in sources if h in kept), out


def crossing_note(ctx: RuleContext, rules: SupplyRules, st: SupplyStatus, other: SupplyStatus) -> str:
    """Words for a unit whose supply turns on whether its initial path may pass through road or
    trail hexes that lead to no source ("" when both readings agree)."""
    if st.supplied == other.supplied:
        return ""
    lenient = st if st.supplied else other  # crossing allowed: the only one of the two that may supply it
    nets = [ctx.terrain.network(*g) for g in rules.networks]
    crossed = " ".join(ctx.label(h) for h in lenient.path[1 : lenient.distance] if any(h in n for n in nets))
    name = ctx.rule.assumed.get("initial_crosses_network") if ctx.rule is not None else None
    by = f"assumption {name}" if name else "parameter initial_crosses_network"
    words = rules.network_words()
    if st.supplied:
        return (
            f"; only because an initial path may pass through {words} hexes that lead to no source ({crossed}): "
            f"if it ended at the first one it enters, the unit would be out of supply ({by})"
        )
    return (
        f"; if an initial path could pass through {words} hexes that lead to no source, it would be in supply: "
        f"{route_words(ctx, rules, other.path, other.distance)}, through {crossed} ({by})"
    )


def route_words(ctx: RuleContext, rules: SupplyRules, path: tuple[Hex, ...], initial: int | None) -> str:
    """A supply path in words: the initial hexes, then the network to the source."""
    d = initial or 0
    lead = f"{d} hex{'es' if d != 1 else ''} ({' '.join(ctx.label(h) for h in path[: d + 1])}) to" if d else "on"
    rest = path[d:]
    if len(rest) < 2:
        return f"{lead} the source {ctx.label(path[-1])}"
    wanted = {f for g in rules.networks for f in g}
    feature = " or ".join(sorted(ctx.terrain.features_between(rest[0], rest[1]) & wanted)) or "network"
    return (
        f"{lead} the {feature} at {ctx.label(rest[0])}, then {len(rest) - 1} {feature} hexes "
        f"to the source {ctx.label(rest[-1])}"
    )


def obstructed_words(
    state: GameState, ctx: RuleContext, side: str, by: Sources, zoc: frozenset[Hex], hexes: tuple[Hex, ...]
) -> str:
    """`hexes` that obstruct a supply line of `side`, each with what obstructs it: the enemy units in
    it, or the enemy units whose zone of control covers it (`zoc`, exerted as `by` says)."""
    named = [f"{ctx.label(h)} ({_obstruction(state, side, by, zoc, h)})" for h in hexes[:_NAMED]]
    more = f" and {len(hexes) - _NAMED} more" if len(hexes) > _NAMED else ""
    return ", ".join(named) + more


def _obstruction(state: GameState, side: str, by: Sources, zoc: frozenset[Hex], h: Hex) -> str:
    enemy = [u for u in state.units_at(h) if u.side != side]
    if enemy:
        return "enemy " + " and ".join(f"{u.side} {u.name}" for u in enemy)
    if h not in zoc:
        return "obstructed"
    names = [f"{u.side} {u.name}" for u in (state.units[i] for i in by(h)[0])]
    return f"enemy zone of control of {' and '.join(names)}" if names else "enemy zone of control"
