"""Moves of a Tunisia 1943 log, judged by hand-built segments: the pack's movement rules through
`rules.turn.check_phase` (as `verify` closes a phase) and its log rules on the `Segment`, on the
example board of tests/tunisia_board.py. Not a test module: a helper."""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence

from tunisia_board import LAYOUT, PACK, TERRAIN, H

from vassal_adj.model.state import GameState, Position
from vassal_adj.rules.engine import RuleContext
from vassal_adj.rules.registry import REGISTRY
from vassal_adj.rules.results import Finding
from vassal_adj.rules.segments import Opened, Segment
from vassal_adj.rules.turn import check_phase, turn_rules

Plan = Sequence[tuple[str, Sequence[str]]]  # (unit id, the hexes of one drag: from, to), in log order


def ctx(scenario: str | None = "campaign-1") -> RuleContext:
    return RuleContext(TERRAIN, LAYOUT, PACK.id, scenario=PACK.scenarios[scenario] if scenario else None)


def drags(plan: Plan) -> dict[str, list[tuple[Position, Position]]]:
    moves: dict[str, list[tuple[Position, Position]]] = {}
    for uid, (a, b) in plan:
        moves.setdefault(uid, []).append((Position(H(a), a), Position(H(b), b)))
    return moves


def moved(st: GameState, plan: Plan) -> GameState:
    """`st` after the drags of `plan`."""
    where = dict(st.positions)
    for uid, (_, b) in plan:
        where[uid] = Position(H(b), b)
    return dataclasses.replace(st, positions=where)


def judged(
    st: GameState, plan: Plan, rolls: Sequence[tuple[int, int]] = (), scenario: str | None = "campaign-1"
) -> list[Finding]:
    """The findings of the pack's movement rules on the moves of `plan` in `st`'s phase; `rolls`:
    (drags before, step) of each die roll."""
    c = ctx(scenario)
    order = tuple(uid for uid, _ in plan)
    return list(check_phase(st, st.phase, drags(plan), turn_rules(PACK, c), c, timing=(order, tuple(rolls))).findings)


def logged(
    rule: str, st: GameState, plan: Plan, end: GameState | None = None, scenario: str | None = "campaign-1"
) -> list[Finding]:
    """The findings of the pack's log rule `rule` on the segment of `plan` in `st`'s phase."""
    r = PACK.rule(rule)
    seg = Segment(
        st.turn,
        st.phase,
        Opened("phase"),
        st,
        end if end is not None else moved(st, plan),
        drags(plan),
        tuple(uid for uid, _ in plan),
    )
    return REGISTRY.lookup(r.impl).func(seg, dataclasses.replace(ctx(scenario), rule=r), r.params)


def by_severity(found: Sequence[Finding], severity: str) -> list[str]:
    return [f.message for f in found if f.severity == severity]


def cited(found: Sequence[Finding], severity: str) -> list[str]:
    return [f.rule for f in found if f.severity == severity]
