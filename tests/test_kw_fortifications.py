"""Kesselring's War (seed 004): Fortification markers (25.1, 25.4) and the set-up's fortification
(27.1 Messina, 27.2 Reggio), worked from the seed's words on the example board."""

from kw_board import BOARD, errors, run, state, unit

from vassal_adj.model.pieces import Piece
from vassal_adj.rules.packs.unitmap import map_units

FORT = unit("Fortification", "Axis")
ALLIED_FORT = unit("Fortification", "Allied")
PZ16 = unit("16 Pz [GE armor XX] 7-5-5 *", "")
PZ26 = unit("26 Pz [GE armor XX] 7-5-5 *", "")
GARRISON = unit("Garrison 3 [AX garrison] 0-2 *", "")
US3 = unit("3 [US infantry XX] 6-5-4 *", "")


def test_25_4_a_fortification_stays_only_with_a_friendly_unit_in_its_hex():
    # 25.4 "A Fortification marker remains on the map until there are no friendly units in the hex,
    # either due to movement or combat results." "they are removed when vacated by friendly units."
    assert errors(run("fortifications", state({FORT: "2027", PZ16: "2027"}, 2, "action"))) == []
    assert errors(run("fortifications", state({FORT: "2027", GARRISON: "2027"}, 2, "action"))) == []
    (msg,) = errors(run("fortifications", state({FORT: "2027", PZ16: "2127"}, 2, "action")))
    assert msg == "Axis Fortification in 2027 stays on the map with no unit in its hex [25.4]"
    # "Fortifications may not be captured and reused": an enemy unit in the hex keeps nothing.
    (msg,) = errors(run("fortifications", state({FORT: "2027", US3: "2027"}, 2, "action")))
    assert "[25.4]" in msg
    assert errors(run("fortifications", state({ALLIED_FORT: "2027", US3: "2027"}, 5, "action"))) == []


def test_25_1_fortification_markers_do_not_count_for_stacking():
    # 25.1 "Fortification markers do not count for stacking." 10.1: three mobile units plus one
    # Garrison a hex; a Fortification on top is no fifth unit.
    full = {PZ16: "2027", PZ26: "2027", unit("HG [GE armor XX] 7-5-5 *", ""): "2027", GARRISON: "2027"}
    assert errors(run("stacking", state(full, 2, "action"))) == []
    assert errors(run("stacking", state({**full, FORT: "2027"}, 2, "action"))) == []


def test_a_fortification_without_a_side_is_not_guessed():
    # The marker's side comes from the module's prototype (property Side): none, and it is unmapped.
    units, unmapped = map_units([Piece("Fortification", "Fortification", "Main Map", 0, 0)], BOARD.loaded.unitmap)
    assert units == [] and len(unmapped) == 1


def test_27_1_the_set_up_fortification_is_at_messina():
    # 27.1 Axis Order of Battle "d) Fortifications: Messina (hex 2027)".
    assert errors(run("setup_fortification_1", state({FORT: "2027"}), "scenario-1")) == []
    found = errors(run("setup_fortification_1", state({FORT: "2026"}), "scenario-1"))
    assert len(found) == 2 and "set up in Messina: 0, but at least 1 must be [27.1]" in found[0]
    assert len(errors(run("setup_fortification_1", state({}), "scenario-1"))) == 1


def test_27_2_the_set_up_fortification_is_at_reggio_on_gt_3():
    # 27.2 "c) Fortifications: Reggio (hex 2028)"; the scenario begins on GT 3.
    assert errors(run("setup_fortification_2", state({FORT: "2028"}, 3), "scenario-2")) == []
    (msg,) = errors(
        run("setup_fortification_2", state({FORT: "2028", unit("Fortification 2", "Axis"): "2027"}, 3), "scenario-2")
    )
    assert "at most 0" in msg and "[27.2]" in msg
