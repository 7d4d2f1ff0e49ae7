"""Tunisia 1943 0.1 (4-step units), through the pack's rule `four_step_units` (impl `units.alternates`,
modules/tunisia-1943/pack.toml), worked by hand from the seed's words
(../shared/seeds/001_9467744547cf47c5.txt) on the example board, with the pack's counters.

0.1: "Some others have four steps. They are not therefore destroyed until a fourth step loss, but
they reduced in ability each time. The units with four steps are represented by two counters, used
alternately (and not simultaneously)." Panzer-Regiment 7 of the 10. Panzer is the counters
"9-6-8-9 Pz.Rgt 7 (4-3) (10.Pz)" (steps 4 and 3) and "5-3-8-8 Pz.Rgt 7 (2-1) (10.Pz)" (steps 2 and 1).
"""

from __future__ import annotations

from tunisia_board import errors, run, state, unit

PZRGT7_FRONT = unit("9-6-8-9 Pz.Rgt 7 (4-3) (10.Pz)", "Axis")
PZRGT7_BACK = unit("5-3-8-8 Pz.Rgt 7 (2-1) (10.Pz)", "Axis")
PZRGT5_FRONT = unit("8-6-8-9 Pz.Rgt 5 (4-3) (21.Pz)", "Axis")
PZRGT5_BACK = unit("4-3-8-8 Pz.Rgt 5 (2-1) (21.Pz)", "Axis")
CCA_FRONT = unit("8-5-9-8 CC A (4-3) (1 Armd)", "Allied")
CCA_BACK = unit("4-3-9-7 CC A (2-1) (1 Armd)", "Allied")
PZGR_69 = unit("5-5-8-8 PzGr 69 (10.Pz)", "Axis")


def test_0_1_the_two_counters_of_a_4_step_unit_share_one_group() -> None:
    """units.toml gives both counters of Pz.Rgt 7 one `alternates` value, and a 2-step regiment none."""
    assert PZRGT7_FRONT.attrs["alternates"] == PZRGT7_BACK.attrs["alternates"] == "10pz-pzrgt7"
    assert "alternates" not in PZGR_69.attrs


def test_0_1_the_unit_at_full_strength_on_the_map_and_its_other_counter_unused() -> None:
    """Pz.Rgt 7 at 4 steps: its (4-3) counter in Kasserine-side hex 1706, its (2-1) counter in the Unused
    box: one counter in play, legal. Once reduced to 2 steps it is the other way round: legal too."""
    assert (
        errors(run("four_step_units", state({PZRGT7_FRONT: "1706", PZRGT7_BACK: "Unused"}, 2, "axis-movement"))) == []
    )
    assert (
        errors(run("four_step_units", state({PZRGT7_FRONT: "Unused", PZRGT7_BACK: "1706"}, 2, "axis-movement"))) == []
    )


def test_0_1_both_counters_on_the_map_is_an_error() -> None:
    """0.1 "used alternately (and not simultaneously)": the (4-3) counter in 1706 and the (2-1) counter in
    1807 at once are one unit twice over."""
    st = state({PZRGT7_FRONT: "1706", PZRGT7_BACK: "1807", PZGR_69: "1706"}, 3, "axis-combat")
    found = [f for f in run("four_step_units", st) if f.severity == "error"]
    assert [f.message for f in found] == [
        "2 counters of one unit (alternates '10pz-pzrgt7') are in play: 9-6-8-9 Pz.Rgt 7 (4-3) (10.Pz) in 1706 "
        "and 5-3-8-8 Pz.Rgt 7 (2-1) (10.Pz) in 1807; they are used alternately, one at a time in play, the others "
        "in eliminated or unused boxes [0.1]"
    ]
    assert set(found[0].units) == {PZRGT7_FRONT.id, PZRGT7_BACK.id}
    assert found[0].hexes == ("1706", "1807")
    assert found[0].rule == "tunisia-1943:0.1"


def test_0_1_a_counter_waiting_in_a_turn_box_is_in_play() -> None:
    """A counter due to arrive (turn box "Turn 4", rule 11) is the unit: with its other counter on the
    map, the unit would be on the map and on its way at once."""
    st = state({CCA_FRONT: "Turn 4", CCA_BACK: "0912"}, 2, "allied-movement")
    (error,) = errors(run("four_step_units", st))
    assert "in box 'Turn 4'" in error and "in 0912" in error


def test_0_1_a_unit_destroyed_has_both_counters_eliminated() -> None:
    """ "They are not therefore destroyed until a fourth step loss": once destroyed, both counters are in
    the Eliminated box, neither in play; with one eliminated and one on the map, also legal (the box of
    a destroyed unit is no place of play)."""
    assert errors(run("four_step_units", state({CCA_FRONT: "Eliminated", CCA_BACK: "Eliminated"}, 5))) == []
    assert errors(run("four_step_units", state({CCA_FRONT: "Eliminated", CCA_BACK: "0912"}, 5))) == []


def test_0_1_counters_of_two_different_4_step_units_do_not_mix() -> None:
    """Pz.Rgt 7 (4-3) and Pz.Rgt 5 (2-1) are two units: both on the map is legal; each one's other counter unused."""
    st = state({PZRGT7_FRONT: "1706", PZRGT5_BACK: "1807", PZRGT7_BACK: "Unused", PZRGT5_FRONT: "Unused"}, 1)
    assert errors(run("four_step_units", st)) == []
