"""Marker and flag states that must hold, or be reset, at given moments (RULES-MAP N21).

A state is a flag a unit carries (units.toml reads it from a layer or a marker: ``Flipped`` ->
``em-flipped``). Two kinds of audit, on the units on the map:

- a reset: the flag must be gone at a moment of the turn. seed 001 0.1 "At the end of the turn,
  all the counters of EM are flipped, face up": no EM is flipped in the turn's first phase
  (``reset_at = "turn-start"``). seed 001 7.4 "*: the units in defense lose their ZoC for the
  exploitation phase that follows. Placing a Loss of ZoC marker": the flag stands only from the
  combat phase to the end of the exploitation phase after it (``set_from`` and
  ``reset_at = "after-phase:<id>"``). seed 003 S2.0: Counterbattery Fired markers "are all removed
  at the end of the turn" (``reset_at = "turn-start"``).
- a requirement: a unit stays on the map only while another unit of its side is in its formation
  or its hex. seed 001 6.3 "an EM is retired as soon as all the combat units under his command are
  destroyed"; seed 004 25.4 "A Fortification marker remains on the map until there are no friendly
  units" in its hex.
- an exclusion: a unit stays on the map only while no unit of a kind (of any side the selector
  takes) is in its hex. seed 004 34.2 "The Open City marker remains in effect until an Allied ground
  unit enters the hex, at which point it is permanently removed"; "A Fortification marker may not be
  placed on an Open City hex".

A moment is a phase of the turn's order (`phases`); a state whose phase is not known is not judged.

>>> window(("a-move", "a-combat", "a-exploit", "b-move"), "after-phase:a-exploit", "a-combat")[0]
frozenset({'a-combat', 'a-exploit'})
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass

from vassal_adj.model.geometry.hexes import Hex
from vassal_adj.model.state import GameState, Position
from vassal_adj.model.units import Unit
from vassal_adj.rules.mechanisms.alternates import in_boxes
from vassal_adj.rules.results import Finding, Severity
from vassal_adj.rules.select import Selector

__all__ = ["WITHIN", "MarkerState", "Requirement", "check_states", "window"]

WITHIN = ("formation", "hex")
TURN_START = "turn-start"
AFTER = "after-phase:"


def window(phases: tuple[str, ...], reset_at: str, set_from: str = "") -> tuple[frozenset[str], str]:
    """The phases in which a flag reset at `reset_at` may stand, and those words for findings.

    `reset_at` is ``"turn-start"`` (gone in the turn's first phase) or ``"after-phase:<id>"`` (gone
    in the phase after `<id>`, the first of the next turn after the last). Without `set_from` the flag
    may stand in any other phase; with it, only from phase `set_from` to the reset, in turn order
    (the next turn's phases after the last). ValueError names what does not fit `phases`."""
    if not phases:
        raise ValueError("phases: expected the phase ids of a turn, in order, for reset_at")
    if reset_at == TURN_START:
        until = len(phases) - 1
        words = "it is reset at the start of the turn"
    elif reset_at.startswith(AFTER) and reset_at[len(AFTER) :] in phases:
        until = phases.index(reset_at[len(AFTER) :])
        words = f"it is reset after phase {phases[until]}"
    else:
        raise ValueError(f"reset_at: expected 'turn-start' or 'after-phase:<one of {list(phases)}>', got {reset_at!r}")
    gone = (until + 1) % len(phases)
    if not set_from:
        return frozenset(p for i, p in enumerate(phases) if i != gone), words
    if set_from not in phases:
        raise ValueError(f"set_from: {set_from!r} is not one of phases {list(phases)}")
    start = phases.index(set_from)
    if start == gone:
        raise ValueError(f"set_from: {set_from!r} is the phase in which the flag must be gone ({reset_at})")
    span = (until - start) % len(phases) + 1
    allowed = frozenset(phases[(start + i) % len(phases)] for i in range(span))
    return allowed, f"it stands only from phase {set_from} to the end of phase {phases[until]}"


@dataclass(frozen=True)
class Requirement:
    """Another unit of the same side, one of `units`, must be in the unit's formation (`within`
    "formation") or its hex ("hex"): on the map, or (formation) in one of the off-map `boxes` (by
    [boxes] kind or name)."""

    units: Selector
    within: str
    boxes: tuple[str, ...] = ()
    what: str = ""  # what findings call the required units (default: the selector in words)

    def __post_init__(self) -> None:
        if self.within not in WITHIN:
            raise ValueError(f"within: expected one of {', '.join(WITHIN)}, got {self.within!r}")


@dataclass(frozen=True)
class MarkerState:
    """One audit: the units on the map that `units` selects (and that carry `flag`, when given).
    `allowed` (with `reset_words`): the phases in which `flag` may stand; None: no reset.
    `requires`: what must stay with each of them; None: nothing. `excludes` (within "hex"): what
    may never be in the hex with them, of any side its selector takes; None: nothing."""

    units: Selector
    rule_ref: str
    flag: str = ""
    phases: tuple[str, ...] = ()
    allowed: frozenset[str] | None = None
    reset_words: str = ""
    requires: Requirement | None = None
    severity: Severity = Severity.ERROR
    excludes: Requirement | None = None


Label = Callable[[Hex], str]


def _where(pos: Position, label: Label) -> str:
    return pos.label or (label(pos.hex) if pos.hex is not None else "?")


def _mates(state: GameState, unit: Unit, pos: Position, need: Requirement) -> bool:
    boxes = frozenset(b.strip().casefold() for b in need.boxes)
    for uid, other in state.units.items():
        if uid == unit.id or other.side != unit.side:
            continue
        at = state.positions.get(uid, Position())
        if not need.units.matches(other, at.box):
            continue
        if need.within == "hex":
            if at.hex is not None and at.hex == pos.hex:
                return True
        elif other.formation == unit.formation and (at.hex is not None or in_boxes(at, boxes)):
            return True
    return False


def _reset(
    state: GameState, s: MarkerState, on_map: list[tuple[Unit, Position]], cite: str, label: Label
) -> list[Finding]:
    flagged = [(u, pos) for u, pos in on_map if s.flag in u.flags]
    if not flagged or s.allowed is None:
        return []
    ref = f" [{s.rule_ref}]"
    if state.phase is None or state.phase not in s.phases:
        now = f"phase {state.phase}, none of the turn's phases {list(s.phases)}" if state.phase else "no phase"
        msg = f"{len(flagged)} unit(s) carry {s.flag}, and the state shows {now}: not judged ({s.reset_words}){ref}"
        return [Finding(cite, Severity.INFO, msg, tuple(u.id for u, _ in flagged))]
    if state.phase in s.allowed:
        return []
    return [
        Finding(
            cite,
            s.severity,
            f"{u.side} {u.name} in {_where(pos, label)} carries {s.flag} in phase {state.phase}: {s.reset_words}{ref}",
            (u.id,),
            (_where(pos, label),),
        )
        for u, pos in flagged
    ]


def _required(
    state: GameState, s: MarkerState, on_map: list[tuple[Unit, Position]], cite: str, label: Label
) -> list[Finding]:
    need = s.requires
    if need is None:
        return []
    out = []
    ref = f" [{s.rule_ref}]"
    for u, pos in on_map:
        if s.flag and s.flag not in u.flags:
            continue
        where = _where(pos, label)
        if need.within == "formation" and not u.formation:
            msg = f"{u.side} {u.name} in {where} has no formation: whether it may stay is not judged{ref}"
            out.append(Finding(cite, Severity.INFO, msg, (u.id,), (where,)))
        elif not _mates(state, u, pos, need):
            what = need.what or f"{u.side} {need.units.words()}"
            if need.within == "hex":
                scope = "in its hex"
            else:
                boxes = f" or in a {' or '.join(need.boxes)} box" if need.boxes else ""
                scope = f"of its formation ({u.formation}) on the map{boxes}"
            msg = f"{u.side} {u.name} in {where} stays on the map with no {what} {scope}{ref}"
            out.append(Finding(cite, s.severity, msg, (u.id,), (where,)))
    return out


def _excluded(
    state: GameState, s: MarkerState, on_map: list[tuple[Unit, Position]], cite: str, label: Label
) -> list[Finding]:
    bar = s.excludes
    if bar is None:
        return []
    out = []
    for u, pos in on_map:
        if s.flag and s.flag not in u.flags:
            continue
        there = [o for o in state.units_at(pos.hex) if o.id != u.id and bar.units.matches(o)] if pos.hex else []
        if there:
            where = _where(pos, label)
            what = bar.what or bar.units.words()
            who = ", ".join(f"{o.side} {o.name}" for o in there)
            msg = f"{u.side} {u.name} in {where} stays on the map with a {what} in its hex ({who}) [{s.rule_ref}]"
            out.append(Finding(cite, s.severity, msg, (u.id, *(o.id for o in there)), (where,)))
    return out


def check_states(
    state: GameState, states: Iterable[MarkerState], *, cite: Callable[[str], str], label: Label
) -> list[Finding]:
    """The findings of each audit on `state`, sorted: a flag standing when it must be gone, a unit
    left without what it requires. `cite(rule_ref)` is a finding's rule."""
    out: list[Finding] = []
    for s in states:
        on_map = [
            (u, pos)
            for uid, u in sorted(state.units.items())
            if (pos := state.positions.get(uid, Position())).hex is not None and s.units.matches(u)
        ]
        out += _reset(state, s, on_map, cite(s.rule_ref), label)
        out += _required(state, s, on_map, cite(s.rule_ref), label)
        out += _excluded(state, s, on_map, cite(s.rule_ref), label)
    return sorted(out, key=Finding.sort_key)
