"""When the stacking limit is checked: the `phases` parameter of stacking.limit (issue 4:
"when it is checked (end of movement phase, set-up, arrival of reinforcements)")."""

from __future__ import annotations

from vassal_adj.model.geometry.hexes import Hex
from vassal_adj.model.state import GameState, Position
from vassal_adj.model.terrain import TerrainMap, TerrainVocabulary
from vassal_adj.model.units import Unit
from vassal_adj.rules.engine import RuleContext
from vassal_adj.rules.mechanisms.stacking_rules import stacking_limit
from vassal_adj.rules.registry import Params, load_builtin_rules
from vassal_adj.rules.results import Severity

CTX = RuleContext(TerrainMap(TerrainVocabulary(frozenset(), frozenset())), None, "kasserine")
UNITS = {i: Unit(i, f"1-2-7 ({i})", "Allied", "infantry", 7) for i in ("a", "b")}


def found(phase: str | None, turn: int | None = 2, **given: object) -> list:
    p = Params({**load_builtin_rules().lookup("stacking.limit").defaults(), **given})
    state = GameState(UNITS, {i: Position(Hex.from_raw(3, 3)) for i in UNITS}, turn, phase)
    return stacking_limit(state, CTX, p)


def test_always_checked_by_default() -> None:
    assert [f.severity for f in found("allied-movement")] == [Severity.ERROR]


def test_checked_only_in_the_phases_named() -> None:
    phases = ("axis-combat", "allied-combat", "setup")
    assert [f.severity for f in found("allied-combat", phases=phases)] == [Severity.ERROR]
    skipped = found("allied-movement", phases=phases)
    assert [f.severity for f in skipped] == [Severity.INFO]
    assert skipped[0].message.startswith(
        "stacking is checked in axis-combat, allied-combat, setup, not in phase allied-movement"
    )
    assert [f.severity for f in found(None, turn=None, phases=phases)] == [Severity.ERROR]  # a set-up
