"""Whether a unit may move at this time, whatever its path: the sequence of play (a side moves in
its own movement phase; retreats and advances in a combat phase), units of the initial
deployment held still on a turn (23.72-style), and a reinforcement's turn of entry.

Pure: findings from the phase's state and the pack's turn rules (turn_rules.py).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from vassal_adj.model.geometry.hexes import Hex, distance
from vassal_adj.model.state import GameState, Position
from vassal_adj.rules.mechanisms.setup import Entry, entry_due, moment, printed_key
from vassal_adj.rules.mechanisms.turn_rules import Reinforcements, TurnRules
from vassal_adj.rules.results import Finding, Severity

__all__ = ["MoveWords", "entry_turn", "frozen", "out_of_phase"]


@dataclass(frozen=True)
class MoveWords:
    """A move as its findings name it: the unit, what it did ("Axis 21 Pz moved 0304 -> 0506"),
    the hexes, and the pack whose rules are cited."""

    uid: str
    what: str
    hexes: tuple[str, ...]
    pack_id: str

    def finding(self, ref: str, severity: Severity, message: str) -> Finding:
        return Finding(f"{self.pack_id}:{ref}", severity, message, (self.uid,), self.hexes)


def out_of_phase(state: GameState, phase: str | None, rules: TurnRules, mover: str | None, m: MoveWords) -> Finding:
    """A unit moved in a phase that is not its side's movement phase (`mover`: the side that moves then)."""
    side, ref = state.units[m.uid].side, rules.phase_rule or "sequence of play"
    if mover is not None:
        return m.finding(
            ref,
            Severity.ERROR,
            f"{m.what} in the {phase} phase: {side} units move only in the {side} movement phase [{ref}]",
        )
    if phase in rules.combat_phases:
        # Retreats and advances after combat move units then; the log cannot tell them apart.
        return m.finding(
            ref,
            Severity.WARNING,
            f"{m.what} in the {phase} phase: only a retreat or an advance after "
            f"combat moves a unit then; which it was, and whether the combat "
            f"allowed it, is not checked [{ref}]",
        )
    return m.finding(
        ref,
        Severity.INFO,
        f"{m.what} in phase {phase!r}, which the pack names as no movement or combat phase: not checked",
    )


def frozen(state: GameState, rules: TurnRules, start: Position, m: MoveWords) -> list[Finding]:
    """A unit of the initial deployment moved on a turn that holds it still, with no enemy near enough."""
    unit, out = state.units[m.uid], []
    for fr in rules.frozen:
        if fr.side != unit.side or state.turn != fr.turn or start.hex is None or printed_key(unit.name) not in fr.names:
            continue
        near = min(
            (
                distance(start.hex, h)
                for h, ids in state.occupied().items()
                if any(state.units[i].side != unit.side for i in ids)
            ),
            default=None,
        )
        if near is None or near > fr.exempt_range:
            nearest = "no enemy unit is on the map" if near is None else f"the nearest enemy unit is {near} hexes away"
            out.append(
                m.finding(
                    fr.rule_ref,
                    Severity.ERROR,
                    f"{m.what} on Game-Turn {fr.turn}: units of the initial deployment may not be "
                    f"moved then unless within {fr.exempt_range} hexes of an enemy unit, and "
                    f"{nearest} [{fr.rule_ref}]",
                )
            )
    return out


def entry_turn(
    seen: GameState, rs: Reinforcements, e: Entry, label: Callable[[Hex], str], m: MoveWords
) -> list[Finding]:
    """A reinforcement entering too early, late (held back), or when the files cannot tell."""
    turn, ref = seen.turn, rs.rule_ref
    if turn is None:
        return [
            m.finding(
                ref,
                Severity.INFO,
                f"{m.what}: no Game-Turn is known, so the turn it enters on (it "
                f"enters {e.words()}) is not checked [{ref}]",
            )
        ]
    lo, hi, why, known = entry_due(e, seen, moment(seen, rs.phases), rs.phases.index(rs.movement_phase), label)
    because = f" ({why})" if why else ""
    if known == "no":
        return [
            m.finding(ref, Severity.ERROR, f"{m.what} on Game-Turn {turn}, but it enters {e.words()} and {why} [{ref}]")
        ]
    if lo is not None and turn < lo:
        return [
            m.finding(
                ref, Severity.ERROR, f"{m.what} on Game-Turn {turn}: too early, it enters {e.words()}{because} [{ref}]"
            )
        ]
    if known in ("unknown", "undated") or (why and lo is not None and hi is not None and lo < hi and turn < hi):
        return [
            m.finding(
                ref,
                Severity.INFO,
                f"{m.what} on Game-Turn {turn}: whether it may enter now is not "
                f"known; it enters {e.words()}{because} [{ref}]",
            )
        ]
    if hi is not None and turn > hi:
        return [
            m.finding(
                ref, Severity.INFO, f"{m.what} on Game-Turn {turn}: late (held back); it enters {e.words()} [{ref}]"
            )
        ]
    return []
