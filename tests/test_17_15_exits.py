"""17.15 in `check`: "If an Axis unit exits any Allied Supply hex, that hex and all Supply hexes
east of that hex may no longer be used as an Allied Supply Source." A save shows that a unit
is in the Exited box, not where it left from, so the supply rule warns instead of guessing."""

from __future__ import annotations

from vassal_adj.model.hexes import Hex
from vassal_adj.model.state import GameState, Position
from vassal_adj.model.terrain import Place, TerrainMap, TerrainVocabulary
from vassal_adj.model.units import Unit
from vassal_adj.rules.engine import RuleContext
from vassal_adj.rules.implementations import supply_trace
from vassal_adj.rules.registry import Params, load_builtin_rules
from vassal_adj.rules.results import Severity

VOC = TerrainVocabulary(terrain=frozenset({"clear"}), features=frozenset({"road", "trail"}))
SOURCE = Hex.from_raw(0, 5)
TERRAIN = TerrainMap(VOC, named_places=(Place("Allied supply", frozenset({"supply-source"}), (SOURCE,)),))
US = Unit("a1", "1-2-7 (3/39)", "Allied", "infantry", 7, attack=1, defense=2)
PANZER = Unit("x1", "5-3-12 (2/7)", "Axis", "armor", 12, attack=5, defense=3, mechanized=True)


def run(box: str | None) -> list:
    p = Params({**load_builtin_rules().lookup("supply.trace").defaults(), "side": "Allied", "initial": 3,
                "sources": ("Allied supply",), "sources_lost_on_exit_by": "Axis", "exit_rule": "17.15"})
    state = GameState({"a1": US, "x1": PANZER}, {"a1": Position(Hex.from_raw(1, 5)),
                                                 "x1": Position(box=box) if box else Position(Hex.from_raw(9, 9))})
    return supply_trace(state, RuleContext(TERRAIN, None, "kasserine"), p)


def test_17_15_an_exited_axis_unit_is_a_warning_naming_the_rule() -> None:
    warned = [f for f in run("Exited") if f.severity == Severity.WARNING]
    assert len(warned) == 1 and warned[0].units == ("x1",)
    assert warned[0].message.startswith("1 Axis unit has exited the map; a save does not record from which hex")
    assert warned[0].message.endswith("[17.15]: check the game's log")


def test_17_15_no_exit_no_warning() -> None:
    assert not [f for f in run(None) if f.severity == Severity.WARNING]
    assert not [f for f in run("Eliminated") if f.severity == Severity.WARNING]
