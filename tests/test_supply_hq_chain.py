"""`supply.hq_chain` (RULES-MAP N9, rules/mechanisms/supply_chain.py) with a parameter set unlike
the Tunisia pack's: HQs by flag, units tied to them by the group field `division`, a unit within
4 hexes of its HQ (`unit_range = 4`), sources by side, a unit with no division out of supply,
a unit whose HQ is in a box not judged, enemy zones of control not obstructing, water impassable,
and a wrong marker an error.

The board: raw columns 0-11, rows 0-7, all clear, but for a wall of water down column 6 with one
gap at (6, 3). Allied sources: column 0 ("west"); Axis: column 11 ("east"). Along a row, the
distance between two hexes is the difference of their columns (a path zigzags between the rows r
and r +/- 1/2 of the offset grid).
"""

from __future__ import annotations

import pytest

from vassal_adj.model.geometry.hexes import Hex, distance
from vassal_adj.model.state import GameState, Position
from vassal_adj.model.terrain import Place, TerrainMap, TerrainVocabulary
from vassal_adj.model.units import Unit
from vassal_adj.rules.engine import RuleContext
from vassal_adj.rules.mechanisms.supply_chain_rules import supply_hq_chain
from vassal_adj.rules.registry import Params, load_builtin_rules
from vassal_adj.rules.results import Finding, Severity

BOARD = frozenset(Hex.from_raw(c, r) for c in range(12) for r in range(8))
WALL = frozenset(Hex.from_raw(6, r) for r in range(8) if r != 3)
GAP = Hex.from_raw(6, 3)
TERRAIN = TerrainMap(
    TerrainVocabulary(terrain=frozenset({"clear", "water"}), features=frozenset()),
    hex_terrain={h: frozenset({"water" if h in WALL else "clear"}) for h in BOARD},
    named_places=(
        Place("west", frozenset({"supply-source"}), tuple(Hex.from_raw(0, r) for r in range(8))),
        Place("east", frozenset({"supply-source"}), tuple(Hex.from_raw(11, r) for r in range(8))),
    ),
    board=BOARD,
)
CTX = RuleContext(TERRAIN, None, "test")


def hq(uid: str, side: str, division: str) -> Unit:
    return Unit(uid, f"HQ {division}", side, "hq", 6, flags=frozenset({"hq"}), groups={"division": division})


def inf(uid: str, side: str, division: str = "", *flags: str) -> Unit:
    return Unit(
        uid,
        f"Inf {uid}",
        side,
        "infantry",
        4,
        flags=frozenset(flags),
        groups={"division": division} if division else {},
    )


def run(side: str, placed: dict[Unit, Hex | str], terrain: TerrainMap = TERRAIN, **over: object) -> list[Finding]:
    p = Params(
        {
            **load_builtin_rules().lookup("supply.hq_chain").defaults(),
            "side": side,
            "hq": {"flags": ["hq"]},
            "link": "division",
            "unit_range": 4,
            "sources_group": "side",
            "sources_by": {"Allied": ["west"], "Axis": ["east"]},
            "without_hq": "out",
            "hq_absent": "not-judged",
            "hq_missing": "out",
            "obstruction": {"enemy_zoc": False},
            "impassable_terrain": ["water"],
            "marker_flag": "oos",
            "marker_severity": "error",
            **over,
        }
    )
    positions = {u.id: Position(x) if isinstance(x, Hex) else Position(box=x) for u, x in placed.items()}
    state = GameState({u.id: u for u in placed}, positions)
    return supply_hq_chain(state, RuleContext(terrain, None, "test"), p)


def of(found: list[Finding], uid: str) -> list[Finding]:
    return [f for f in found if f.units and f.units[0] == uid and f.hexes]


def status(found: list[Finding], uid: str) -> Finding:
    (f,) = [f for f in of(found, uid) if "marker" not in f.message]
    return f


def test_a_unit_within_range_of_its_own_hq_is_supplied_and_one_beyond_is_not() -> None:
    """HQ A in (2, 3), 2 hexes from the west edge; a unit 4 hexes east of it (in the gap) is in supply,
    one 5 hexes east is not, and the finding says how far its HQ is against the 4 allowed."""
    h = Hex.from_raw(2, 3)
    assert distance(h, Hex.from_raw(6, 3)) == 4 and distance(h, Hex.from_raw(7, 3)) == 5
    found = run(
        "Allied", {hq("h", "Allied", "A"): h, inf("a", "Allied", "A"): GAP, inf("b", "Allied", "A"): Hex.from_raw(7, 3)}
    )
    assert "(4 hexes)" in status(found, "a").message and status(found, "a").severity == Severity.INFO
    b = status(found, "b")
    assert b.severity == Severity.WARNING
    assert "its HQ is 5 hexes away by unobstructed hexes; the rule allows 4" in b.message
    assert "to the source raw 0," in status(found, "h").message and "(2 hexes)" in status(found, "h").message


def test_sources_by_side_the_axis_hq_traces_east() -> None:
    """`sources_group = "side"`: an Axis HQ in (9, 5) traces to column 11, 2 hexes, not to the west."""
    f = status(run("Axis", {hq("x", "Axis", "X"): Hex.from_raw(9, 5)}), "x")
    assert "to the source raw 11," in f.message and "(2 hexes)" in f.message


def test_another_divisions_hq_does_not_supply_and_a_unit_with_no_division_is_out() -> None:
    """A unit of division B stands next to HQ A: B has no HQ in the files (`hq_missing = "out"`), so it
    is out; a unit with no division at all (`without_hq = "out"`) is out too."""
    found = run(
        "Allied",
        {
            hq("h", "Allied", "A"): Hex.from_raw(2, 3),
            inf("b", "Allied", "B"): Hex.from_raw(3, 3),
            inf("n", "Allied"): Hex.from_raw(2, 4),
        },
    )
    assert status(found, "b").message.endswith("is out of supply: no HQ of B is in the files")
    assert status(found, "n").message.endswith("is out of supply: it has no division, so no HQ")


def test_a_unit_whose_hq_is_in_a_box_is_not_judged_here() -> None:
    """`hq_absent = "not-judged"`: HQ A in the box "Eliminated"; its unit is reported not judged, and its
    marker is not checked."""
    found = run("Allied", {hq("h", "Allied", "A"): "Eliminated", inf("a", "Allied", "A"): Hex.from_raw(2, 3)})
    (f,) = of(found, "a")
    assert f.severity == Severity.WARNING and "supply not judged, it is not on the map but in Eliminated" in f.message


def test_enemy_units_obstruct_and_their_zones_do_not() -> None:
    """`obstruction = { enemy_zoc = false }`: an Allied HQ in (9, 3), east of the wall, traces through
    the gap (6, 3). An Axis unit next to the gap (its zone covers it) does not cut the line; an Axis unit
    in the gap does, and the finding names that hex."""
    allied_hq, near_gap = hq("h", "Allied", "A"), Hex.from_raw(7, 3)
    assert GAP in {h for h in TERRAIN.board or () if distance(h, near_gap) == 1}
    f = status(run("Allied", {allied_hq: Hex.from_raw(9, 3), inf("e", "Axis"): near_gap}), "h")
    assert f.severity == Severity.INFO and " raw 6,3 " in f.message
    f = status(run("Allied", {allied_hq: Hex.from_raw(9, 3), inf("e", "Axis"): GAP}), "h")
    assert f.severity == Severity.WARNING and "no unobstructed path reaches a supply source of Allied" in f.message
    assert "raw 6,3 (enemy Axis Inf e)" in f.message and f.hexes[1:] == ("raw 6,3",)


def test_a_wrong_marker_has_the_packs_severity() -> None:
    """`marker_severity = "error"`: a unit out of supply without its marker flag `oos` is an error; the
    same unit with it is nothing more than its status."""
    placed = {hq("h", "Allied", "A"): Hex.from_raw(2, 3)}
    bare = run("Allied", {**placed, inf("a", "Allied", "A"): Hex.from_raw(9, 3)})
    (m,) = [f for f in of(bare, "a") if "marker" in f.message]
    assert m.severity == Severity.ERROR and "carries no out-of-supply marker (oos)" in m.message
    marked = run("Allied", {**placed, inf("a", "Allied", "A", "oos"): Hex.from_raw(9, 3)})
    assert [f.severity for f in of(marked, "a")] == [Severity.WARNING]


def test_out_of_supply_is_never_an_error() -> None:
    with pytest.raises(ValueError, match="severity: out of supply is a status"):
        run("Allied", {}, severity="error")


def test_a_board_of_unknown_extent_is_not_judged() -> None:
    """With no board (a module without a numbered grid) no search can be bounded: not judged, said."""
    unbounded = TerrainMap(TERRAIN.vocabulary, named_places=TERRAIN.named_places)
    (f,) = of(run("Allied", {hq("h", "Allied", "A"): Hex.from_raw(2, 3)}, unbounded), "h")
    assert f.severity == Severity.WARNING and "the board's hexes are not known" in f.message
