"""The rules `verify` (pbem/verify.py) runs on the position a phase of a log leaves, and how a unit's
state follows the log.

At the end of a movement phase: stacking (stacking.limit, stacking.pools), prohibited terrain,
supply and alternate counters (`END_CHECKS`). At the end of every phase: the marker and flag states
(`PHASE_CHECKS`, marker.state), since a state is judged by the phase it stands in (seed 001 0.1: no
EM face down in a turn's first phase; 7.4: a Loss of ZoC marker gone after the exploitation phase),
and supply through each formation's HQ, which a pack puts in force in the phases its supply is
checked in (seed 001 9.3: "at the end of the phase for each player, but solely for the units of
player who has just acted"; its `when` keeps it silent in the others).
A finding already reported at the previous phase's end is not repeated while it lasts.

A unit's layers change in a log (a ChangePiece: an EM flipped, a marker layer shown): `changed_unit`
maps the piece anew with its new name and properties, so that its flags follow.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import replace

from vassal_adj.model.events import Changed
from vassal_adj.model.pieces import Piece
from vassal_adj.model.state import GameState, Position
from vassal_adj.model.units import Unit
from vassal_adj.rules.engine import RuleContext, adjudicate
from vassal_adj.rules.packs.pack import RulePack
from vassal_adj.rules.packs.unitmap import Unmapped
from vassal_adj.rules.results import Finding, Severity

__all__ = ["END_CHECKS", "PHASE_CHECKS", "PhaseEndChecks", "changed_unit"]

# The rules run on the position a movement phase leaves (stacking and stacking pools, 16.11,
# 17.11/17.12, alternate counters: seed 001 0.1).
END_CHECKS = frozenset({"stacking.limit", "stacking.pools", "terrain.prohibited", "supply.trace", "units.alternates"})
# The rules run on the position every phase leaves (each in force only in its own phases).
PHASE_CHECKS = frozenset({"marker.state", "supply.hq_chain"})


def changed_unit(unit: Unit, e: Changed, mapped: Callable[[Piece], Unit | Unmapped | None]) -> Unit:
    """`unit` after the change `e` of its piece: mapped anew (`mapped`, the pack's units.toml) with the
    piece's new name and properties; unchanged when the new piece maps to no unit (never guessed)."""
    props = dict(unit.properties)
    for c in e.properties:
        if c.after is None:
            props.pop(c.name, None)
        else:
            props[c.name] = c.after
    got = mapped(Piece(e.piece, e.name, e.at.map, e.at.x, e.at.y, location=e.at.label, properties=props))
    return got if isinstance(got, Unit) else unit


class PhaseEndChecks:
    """The end-of-phase checks of one pack for one walk of a log."""

    def __init__(self, pack: RulePack, ctx: RuleContext) -> None:
        self.ctx = ctx
        self.movement = replace(pack, rules=tuple(r for r in pack.rules if r.impl in END_CHECKS))
        self.every = replace(pack, rules=tuple(r for r in pack.rules if r.impl in PHASE_CHECKS))
        self.checked: Mapping[str, Position] | None = None  # the position the movement checks last ran on
        self.reported: frozenset[Finding] = frozenset()  # the phase checks' findings at the last phase's end

    def findings(self, end: GameState, movement: bool, title: str) -> list[Finding]:
        """The findings on `end`, the position the phase `title` leaves (`movement`: a movement phase),
        each message starting "end of <title>: "."""
        found: list[Finding] = []
        if movement and end.positions != self.checked:
            # An unchanged position would give the last check's findings again.
            self.checked = end.positions
            found += [
                f
                for f in adjudicate(end, self.movement, self.ctx, scenario_span=False).findings
                if f.severity != Severity.INFO
            ]
        if self.every.rules:
            now = [
                f
                for f in adjudicate(end, self.every, self.ctx, scenario_span=False).findings
                if f.severity != Severity.INFO
            ]
            found += [f for f in now if f not in self.reported]
            self.reported = frozenset(now)
        return [replace(f, message=f"end of {title}: {f.message}") for f in found]
