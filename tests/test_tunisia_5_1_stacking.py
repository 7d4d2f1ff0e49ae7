"""Tunisia 1943 5.1 and 12 (stacking) and Campaign I's Allied limit, through the pack's rules
`stacking` and `allied_stacking_opening` (modules/tunisia-1943/pack.toml), worked by hand from the
seed's words (../shared/seeds/001_9467744547cf47c5.txt) on the example board, with its counters.
"""

from __future__ import annotations

from tunisia_board import errors, run, state, unit

PZGR_69 = unit("5-5-8-8 PzGr 69 (10.Pz)", "Axis")
PZGR_86 = unit("5-5-8-8 PzGr 86 (10.Pz)", "Axis")
K_10 = unit("3-2-10-7 K 10 (10.Pz)", "Axis")
EM_10 = unit("EM 3-8 (10.Pz)", "Axis")
TIGER_1 = unit("8-7-7-* sPzAbt 501/1", "Axis")
TIGER_2 = unit("8-7-7-* sPzAbt 501/2", "Axis")
INF_133 = unit("4-5-5-7 133 Inf (34 ID)", "Allied")
INF_135 = unit("4-5-5-7 135 Inf (34 ID)", "Allied")
EM_34 = unit("EM 2-5 (34 ID)", "Allied")


def test_5_1_two_combat_units_an_em_and_a_tiger_stack_at_set_up() -> None:
    """5.1: "Two combat units maximum can stacked together on a hex ... This limitation applies also at
    the time of initial placement"; "the following do not influence stacking: ... the EM counters; the
    Tiger units". Two regiments of the 10. Panzer, their EM and a Tiger in Medjez el Bab (1706) at
    set-up (no turn, no phase): legal."""
    st = state({PZGR_69: "1706", PZGR_86: "1706", EM_10: "1706", TIGER_1: "1706"})
    assert errors(run("stacking", st)) == []


def test_5_1_a_third_combat_unit_overstacks_at_set_up() -> None:
    """5.1 "Two combat units maximum": a third regiment in the hex at set-up is one too many."""
    st = state({PZGR_69: "1706", PZGR_86: "1706", K_10: "1706"})
    assert errors(run("stacking", st)) == ["3 Axis units of pool 'combat units' in 1706 exceed its limit of 2 [5.1]"]


def test_5_1_overstack_at_the_end_of_the_movement_phase() -> None:
    """5.1: "they cannot be voluntarily stacked more than two at the end of the movement phase". Three
    Axis units in 1706, two Allied regiments and their EM in 1806, at the end of the Axis movement phase
    of turn 3: only the Axis hex breaks the limit (the EM does not count)."""
    st = state(
        {PZGR_69: "1706", PZGR_86: "1706", K_10: "1706", INF_133: "1806", INF_135: "1806", EM_34: "1806"},
        turn=3,
        phase="axis-movement",
    )
    found = errors(run("stacking", st))
    assert len(found) == 1 and "in 1706" in found[0]


def test_12_two_tigers_in_one_hex_overstack() -> None:
    """12: "A Tiger counter (and one only) can stack in addition of the limit of two units per hex":
    two Tigers with one regiment are three counters, within 2 + 1, but the second Tiger is not allowed."""
    st = state({PZGR_69: "1706", TIGER_1: "1706", TIGER_2: "1706"}, turn=2, phase="axis-movement")
    found = [f for f in run("stacking", st) if f.severity == "error"]
    assert [f.message for f in found] == ["2 Axis units of pool 'Tiger' in 1706 exceed its limit of 1 [5.1]"]
    assert set(found[0].units) == {TIGER_1.id, TIGER_2.id}


def test_campaign_i_allied_stacking_one_unit_a_hex_on_turns_1_and_2() -> None:
    """Campaign I: "the Allied stacking is limited to one unit per hex during the first two turns". Two
    Allied regiments in 1806 (an EM with them does not count, 5.1) on turn 2: an error; the same on
    turn 3, or in Campaign II, is legal (5.1's two units)."""
    two = {INF_133: "1806", INF_135: "1806", EM_34: "1806"}
    assert len(errors(run("allied_stacking_opening", state(two, 2, "allied-movement"), "campaign-1"))) == 1
    assert errors(run("allied_stacking_opening", state(two, 3, "allied-movement"), "campaign-1")) == []
    assert errors(run("allied_stacking_opening", state(two, 1, "allied-movement"), "campaign-2")) == []
    assert errors(run("stacking", state(two, 2, "allied-movement"), "campaign-1")) == []


def test_campaign_i_allied_limit_leaves_the_axis_alone() -> None:
    """The Campaign I limit is "the Allied stacking": two Axis regiments in a hex on turn 1 are legal."""
    st = state({PZGR_69: "1706", PZGR_86: "1706"}, 1, "axis-movement")
    assert errors(run("allied_stacking_opening", st, "campaign-1")) == []
