"""17.15 applied: "If an Axis unit exits any Allied Supply hex, that hex and all Supply hexes east
of that hex may no longer be used as an Allied Supply Source."

The exit hex is the one a log shows (GameState.departures, recorded by pbem/log_state.py and by
verify's walk); a save alone shows the unit in the Exited box, not where it left from, and the
rule then says it cannot know. "East of" is read by column (exits.at_or_east_of): a source in
a column further east is lost; one in the same column (north or south of the exit) or further
west is kept.
"""

from __future__ import annotations

from vassal_adj.model.geometry.hexes import Hex, distance
from vassal_adj.model.state import Departure, GameState, Position
from vassal_adj.model.terrain import Place, TerrainMap, TerrainVocabulary
from vassal_adj.model.units import Unit
from vassal_adj.rules.engine import RuleContext
from vassal_adj.rules.mechanisms.exits import sources_after_exits
from vassal_adj.rules.mechanisms.implementations import supply_trace
from vassal_adj.rules.registry import Params, load_builtin_rules
from vassal_adj.rules.results import Severity

EXIT = Hex.from_raw(2, 0)  # the source hex the Axis unit leaves the map from
WEST, WEST2 = Hex.from_raw(1, 0), Hex.from_raw(0, 0)
EAST, EAST2 = Hex.from_raw(3, 0), Hex.from_raw(4, 0)
SAME_COLUMN = Hex.from_raw(2, 6)  # south of the exit hex, not east of it
SOURCES = (WEST2, WEST, EXIT, EAST, EAST2, SAME_COLUMN)
VOC = TerrainVocabulary(terrain=frozenset({"clear"}), features=frozenset({"road", "trail"}))
TERRAIN = TerrainMap(VOC, named_places=(Place("Allied supply", frozenset({"supply-source"}), SOURCES),))
US = Unit("a1", "1-2-7 (3/39)", "Allied", "infantry", 7, attack=1, defense=2)
PANZER = Unit("x1", "5-3-12 (2/7)", "Axis", "armor", 12, attack=5, defense=3, mechanized=True)
US_AT = Hex.from_raw(4, 1)  # next to EAST2 only: supplied through a source 17.15 takes away


def run(panzer: Position, departures: tuple[Departure, ...] = (), us_at: Hex = US_AT) -> list:
    p = Params(
        {
            **load_builtin_rules().lookup("supply.trace").defaults(),
            "side": "Allied",
            "initial": 1,
            "sources": ("Allied supply",),
            "sources_lost_on_exit_by": "Axis",
            "exit_rule": "17.15",
            "exit_box": "Exited",
        }
    )
    state = GameState(
        {"a1": US, "x1": PANZER},
        {"a1": Position(us_at), "x1": panzer},
        turn=5,
        phase="axis-movement",
        departures=departures,
    )
    return supply_trace(state, RuleContext(TERRAIN, None, "kasserine"), p)


def left(hex_: Hex, unit: str = "x1", box: str = "Exited") -> tuple[Departure, ...]:
    return (Departure(unit, box, hex_, None, 5, "axis-movement"),)


def test_17_15_the_allied_unit_is_supplied_by_an_eastern_source_before_any_exit() -> None:
    assert min(distance(US_AT, h) for h in SOURCES) == 1 == distance(US_AT, EAST2)
    assert min(distance(US_AT, h) for h in (WEST2, WEST, SAME_COLUMN)) > 1
    found = run(Position(Hex.from_raw(9, 9)))
    assert not [f for f in found if f.severity != Severity.INFO]
    assert "joined to 6 source hexes" in found[0].message


def test_17_15_exit_from_a_source_loses_it_and_every_source_east_of_it() -> None:
    assert sources_after_exits(SOURCES, [EXIT]) == {WEST2, WEST, SAME_COLUMN}


def test_17_15_same_column_and_west_are_kept_one_column_east_is_lost() -> None:
    kept = sources_after_exits(SOURCES, [EXIT])
    assert SAME_COLUMN in kept and WEST in kept  # same column (south of it), one column west
    assert EAST not in kept and EXIT not in kept  # one column east, the hex itself


def test_17_15_an_exit_from_a_hex_that_is_no_source_changes_nothing() -> None:
    assert sources_after_exits(SOURCES, [Hex.from_raw(2, 3)]) == frozenset(SOURCES)


def test_17_15_applied_the_allied_unit_supplied_only_through_a_lost_source_is_unsupplied() -> None:
    found = run(Position(box="Exited"), left(EXIT))
    out = [f for f in found if f.severity == Severity.WARNING]
    assert [f.units for f in out] == [("a1",)] and "is out of supply" in out[0].message
    lost = [f for f in found if "no longer Allied supply sources" in f.message]
    assert len(lost) == 1 and lost[0].message.endswith(
        "(3 in all) are no longer Allied supply sources; 3 remain [17.15]"
    )
    assert "joined to 3 source hexes" in found[0].message


def test_17_15_a_unit_supplied_from_the_west_keeps_its_supply() -> None:
    found = run(Position(box="Exited"), left(EXIT), us_at=Hex.from_raw(1, 1))
    assert not [f for f in found if f.severity == Severity.WARNING]


def test_17_15_the_loss_lasts_after_the_unit_comes_back() -> None:
    """The sources "may no longer be used": a unit that exited and returned does not restore them."""
    found = run(Position(Hex.from_raw(9, 9)), left(EXIT))
    assert [f.units for f in found if f.severity == Severity.WARNING] == [("a1",)]


def test_17_15_only_axis_exits_count() -> None:
    allied_left = left(EXIT, unit="a1")
    assert not [f for f in run(Position(Hex.from_raw(9, 9)), allied_left) if f.severity == Severity.WARNING]
    eliminated = left(EXIT, box="Eliminated")
    assert not [f for f in run(Position(box="Eliminated"), eliminated) if f.severity == Severity.WARNING]


def test_17_15_exit_hex_unknown_is_said_and_no_source_is_lost() -> None:
    """A save shows the unit in the Exited box, not the hex it left from: no source is taken away."""
    found = run(Position(box="Exited"))
    warned = [f for f in found if f.severity == Severity.WARNING]
    assert [f.units for f in warned] == [("x1",)]
    assert warned[0].message.startswith("1 Axis unit has exited the map, but no log given shows from which hex")
    assert warned[0].message.endswith("[17.15]: check the game's log")
    assert "joined to 6 source hexes" in found[0].message
