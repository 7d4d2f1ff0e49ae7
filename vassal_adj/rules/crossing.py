"""A move that crosses an enemy zone of control by one of the movement rule's `zoc_exceptions`
(rules/mechanisms/breakthrough.py, RULES-MAP N6): seed 001's armoured breakthrough (3, 4.3) and
the Tiger's hex immune to it (12).

When a unit's move breaks the zone of control rules, it is judged again with the zones it may
cross ignored: every enemy unit's, except those of units in a hex holding a `not_past` unit. A
move then legal crossed by the exception: "legal only if the breakthrough succeeded", a warning,
as the files never record the outcome (the die roll during the unit's move is named, or its
absence). A move legal only if `not_past` zones were crossed too is an error citing
`not_past_rule`. A unit no exception picks keeps the error, which then says who may cross.

Pure: the phase's position and rules in, a `Crossing` out.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

from vassal_adj.model.state import GameState
from vassal_adj.model.units import Unit
from vassal_adj.rules.engine import RuleContext
from vassal_adj.rules.mechanisms.breakthrough import ZocException
from vassal_adj.rules.mechanisms.legs import Chain, Leg, judge_legs
from vassal_adj.rules.mechanisms.turn_rules import TurnRules
from vassal_adj.rules.move_paths import Paths
from vassal_adj.rules.results import Finding, Severity
from vassal_adj.rules.select import Selector

__all__ = ["Crossing", "crossing", "passed", "refused", "rolls_during"]

# The flag the judged-again position gives the enemy units whose zones of control may be crossed.
CROSSED = "zoc-crossed"


@dataclass(frozen=True)
class Crossing:
    """`ex`: the exception that lets the unit cross (None: none picks it); `chain`: its move judged
    with the zones it may cross ignored (ok), or with only the `not_past` zones kept (`immune`)."""

    ex: ZocException | None
    chain: Chain
    immune: bool = False


def _relaxed(state: GameState, side: str, kept: Selector | None) -> GameState:
    """`state` with the enemy units flagged as exerting no zone, but those in a hex holding a unit `kept` picks."""
    held = {
        h
        for uid, u in state.units.items()
        if u.side != side and kept is not None and kept.matches(u)
        if (h := state.hex_of(uid)) is not None
    }
    units = {
        uid: u if u.side == side or state.hex_of(uid) in held else replace(u, flags=u.flags | {CROSSED})
        for uid, u in state.units.items()
    }
    return replace(state, units=units)


def crossing(
    state: GameState,
    seen: GameState,
    rules: TurnRules,
    ctx: RuleContext,
    uid: str,
    legs: Sequence[Leg],
    exact: bool,
    partners: Sequence[Unit],
) -> Crossing | None:
    """The move of `uid` along `legs` judged with the zones of control it may cross ignored;
    None when the pack names no exception or the move is illegal however the zones are crossed.
    `partners`: the units that moved from the hex it began in (`joint`)."""
    m = rules.movement
    zr = m.zoc
    if zr is None or not m.zoc_exceptions:
        return None
    unit = state.units[uid]
    ex = next((e for e in m.zoc_exceptions if e.picks(unit, partners)), None)
    relaxed = replace(rules, movement=replace(m, zoc=replace(zr, no_zoc_flags=zr.no_zoc_flags | {CROSSED})))

    def judged(kept: Selector | None) -> Chain:
        return judge_legs(legs, Paths(_relaxed(state, unit.side, kept), seen, relaxed, ctx).mover(uid, exact))

    free = judged(None)
    if not free.ok:
        return None
    if ex is None or ex.not_past is None:
        return Crossing(ex, free)
    kept = judged(ex.not_past)
    return Crossing(ex, kept) if kept.ok else Crossing(ex, kept, immune=True)


def rolls_during(uid: str, order: Sequence[str], rolls: Sequence[tuple[int, int]]) -> tuple[int, ...]:
    """The steps of the die rolls made during the move of `uid` (after the drags before its first,
    before its last drag): `order` the units of the segment's drags, `rolls` (drags before, step)."""
    at = [k for k, u in enumerate(order) if u == uid]
    if not at:
        return ()
    return tuple(step for before, step in rolls if at[0] <= before <= at[-1])


def refused(cx: Crossing, first: ZocException, f: Finding, pack_id: str) -> Finding:
    """The error `f` on a move no exception lets cross (then `first` says who may), or one that
    crossed a zone a `not_past` unit's hex exerts (cited by its rule)."""
    if cx.ex is None:
        return replace(f, message=f"{f.message}; only {first.units.words()} may cross one [{first.rule_ref}]")
    ex = cx.ex
    assert ex.not_past is not None
    ref = ex.not_past_ref or ex.rule_ref
    return replace(
        f,
        rule=f"{pack_id}:{ref}",
        message=f"{f.message}; no crossing may pass the zone of control of a hex holding "
        f"{ex.not_past.words()}: {cx.chain.reason} [{ref}]",
    )


def passed(
    ex: ZocException, unit: Unit, what: str, broken: str, ok: Finding, rolled: tuple[int, ...] | None, pack_id: str
) -> Finding:
    """The warning on a move legal if its crossing (`broken`: the zone rule it broke) succeeded:
    `ok` the verdict with the zones crossed, `rolled` the steps of the die rolls during the move
    (None: not known)."""
    proof = (
        "the files do not show its outcome"
        if ex.proof == "none"
        else "whether a die was rolled during its move is not known"
        if rolled is None
        else f"die rolled at step {', '.join(map(str, rolled))}"
        if rolled
        else "no die was rolled during its move: legal only if the other player let it pass"
    )
    return Finding(
        f"{pack_id}:{ex.rule_ref}",
        Severity.WARNING,
        f"{what}: {unit.side} {unit.name} crossed an enemy zone of control ({broken}): legal only if "
        f"its breakthrough succeeded ({proof}); {ok.message.split(': ', 1)[-1]} [{ex.rule_ref}]",
        ok.units,
        ok.hexes,
    )
