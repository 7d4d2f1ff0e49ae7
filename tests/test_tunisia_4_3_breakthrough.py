"""Tunisia 1943 3, 4.3 and 12 (the armoured breakthrough), 4.1 (one unit at a time) and 4.2 (the EM
pushed back), through the pack's rules (modules/tunisia-1943/pack.toml: `movement*`
`zoc_exceptions`, `one_unit_at_a_time`, `em_pushed_back`), worked by hand from the seed's words
(../shared/seeds/001_9467744547cf47c5.txt) on the example board, as `verify` judges a log.

The hexes: 2012-2414 is clear ground with no hexside feature. An Axis regiment (PzGr 69) in 2213
controls 2113, 2114, 2212, 2214, 2313 and 2314; 2112 and 2012 are free. CC B (1 Armd, 9 MP, armour),
the 133rd Infantry (34 ID, 5 MP) and the 168th (5 MP) are Allied.
"""

from __future__ import annotations

from tunisia_board import state, unit
from tunisia_log import by_severity, cited, judged, logged

PZGR_69 = unit("5-5-8-8 PzGr 69 (10.Pz)", "Axis")
TIGER = unit("8-7-7-* sPzAbt 501/1", "Axis")
EM_34 = unit("EM 2-5 (34 ID)", "Allied")
CC_B = unit("6-4-9-7 CC B (1 Armd)", "Allied")
INF_133 = unit("4-5-5-7 133 Inf (34 ID)", "Allied")
INF_168 = unit("4-5-5-7 168 Inf (34 ID)", "Allied")
EM_10 = unit("EM 3-8 (10.Pz)", "Axis")

THROUGH = [("2013", "2113"), ("2113", "2112")]  # into the zone of 2213 at 2113, then on out of it to 2112


def test_4_3_an_armour_unit_crosses_a_zone_legal_only_if_the_breakthrough_succeeded() -> None:
    """3: "Armored breakthrough- special movement that allows a unit to cross a ZoC (see 4.3)-, is
    allowed only to units endowed with armor capacity"; 4.3: "the inactive player makes a cohesion
    test". CC B enters the zone at 2113 and goes on to 2112, with a die rolled between its two drags
    (step 7): not an error, a warning that the move is legal only if the breakthrough succeeded."""
    st = state({PZGR_69: "2213", CC_B: "2013"}, turn=2, phase="allied-movement")
    found = judged(st, [(CC_B.id, THROUGH[0]), (CC_B.id, THROUGH[1])], rolls=[(1, 7)])
    assert by_severity(found, "error") == []
    (warning,) = by_severity(found, "warning")
    assert "legal only if its breakthrough succeeded (die rolled at step 7)" in warning
    assert "enemy zone of control at 2113" in warning
    assert cited(found, "warning") == ["tunisia-1943:4.3"]


def test_4_3_a_breakthrough_without_a_roll_is_legal_only_if_the_enemy_let_it_pass() -> None:
    """4.3: "The inactive player can voluntarily let pass an opposing unit that declares an armor
    breakthrough." CC B crosses with no die rolled during its move: a warning that says so."""
    st = state({PZGR_69: "2213", CC_B: "2013"}, turn=2, phase="allied-movement")
    found = judged(st, [(CC_B.id, THROUGH[0]), (CC_B.id, THROUGH[1])], rolls=[(2, 9)])  # rolled after it
    (warning,) = by_severity(found, "warning")
    assert "no die was rolled during its move: legal only if the other player let it pass" in warning


def test_3_a_non_armour_unit_may_not_cross_a_zone() -> None:
    """3: the breakthrough "is allowed only to units endowed with armor capacity". The 133rd (no red
    square) does what CC B did, with a roll: an error, citing 3, naming who may cross."""
    st = state({PZGR_69: "2213", INF_133: "2013"}, turn=2, phase="allied-movement")
    found = judged(st, [(INF_133.id, THROUGH[0]), (INF_133.id, THROUGH[1])], rolls=[(1, 7)])
    (error,) = by_severity(found, "error")
    assert "enemy zone of control at 2113" in error and "may not move on [3]" in error
    assert "only units flagged armour may cross one [4.3]" in error
    assert cited(found, "error") == ["tunisia-1943:3"]


def test_4_3_a_non_armour_unit_moving_with_armour_from_its_hex_may_cross() -> None:
    """4.3: "An armor unit, which moves alone or stacked with another unit, itself not armor, could
    execute an armored breakthrough. If a non armored unit wishes to move with an armor unit, the two
    units must be on the same hex at the beginning of their movement phase". The 133rd and CC B begin
    in 2013 and both cross: two warnings, no error. Begun apart (the 133rd in 2012), the 133rd's
    crossing is an error."""
    st = state({PZGR_69: "2213", CC_B: "2013", INF_133: "2013"}, turn=2, phase="allied-movement")
    plan = [(CC_B.id, THROUGH[0]), (INF_133.id, THROUGH[0]), (CC_B.id, THROUGH[1]), (INF_133.id, THROUGH[1])]
    found = judged(st, plan, rolls=[(2, 5)])
    assert by_severity(found, "error") == []
    assert len(by_severity(found, "warning")) == 2
    apart = state({PZGR_69: "2213", CC_B: "2013", INF_133: "2012"}, turn=2, phase="allied-movement")
    plan = [(CC_B.id, THROUGH[0]), (CC_B.id, THROUGH[1]), (INF_133.id, ("2012", "2113")), (INF_133.id, THROUGH[1])]
    found = judged(apart, plan, rolls=[(1, 5), (3, 6)])
    (error,) = by_severity(found, "error")
    assert error.startswith("Allied 4-5-5-7 133 Inf (34 ID) moved 2012 -> 2113 -> 2112")


def test_12_the_zone_of_a_tiger_hex_is_not_passed_by_breakthrough() -> None:
    """12: "Its presence immunizes all the units of the hex on which it is stacked, against an armor
    breakthrough." With a Tiger stacked with the regiment in 2213, CC B's crossing of 2113 is an
    error citing 12, roll or not."""
    st = state({PZGR_69: "2213", TIGER: "2213", CC_B: "2013"}, turn=2, phase="allied-movement")
    found = judged(st, [(CC_B.id, THROUGH[0]), (CC_B.id, THROUGH[1])], rolls=[(1, 7)])
    (error,) = by_severity(found, "error")
    assert "no crossing may pass the zone of control of a hex holding units flagged tiger" in error
    assert cited(found, "error") == ["tunisia-1943:12"]


def test_10_no_breakthrough_in_the_exploitation_phase() -> None:
    """10: "No unit can enter the ZoC of an enemy unit during this phase". CC B (its division's EM
    sustained or not: the path alone) entering 2113 in the exploitation phase is an error citing 10,
    with a roll or not: the breakthrough is a movement-phase move."""
    st = state({PZGR_69: "2213", CC_B: "2013"}, turn=2, phase="allied-exploitation")
    found = judged(st, [(CC_B.id, THROUGH[0]), (CC_B.id, THROUGH[1])], rolls=[(1, 7)])
    (error,) = by_severity(found, "error")
    assert "may not enter enemy zone of control at 2113" in error
    assert cited(found, "error") == ["tunisia-1943:10"]


def test_4_1_one_unit_moves_at_a_time() -> None:
    """4.1: "The movement of every unit must be ended before passing to another". The 133rd moves
    2013 -> 2012, the 168th moves, then the 133rd moves on: an error citing 4.1."""
    st = state({INF_133: "2014", INF_168: "2015"}, turn=2, phase="allied-movement")
    plan = [(INF_133.id, ("2014", "2013")), (INF_168.id, ("2015", "2115")), (INF_133.id, ("2013", "2012"))]
    (error,) = by_severity(logged("one_unit_at_a_time", st, plan), "error")
    assert "133 Inf (34 ID) moved again" in error and "after 4-5-5-7 168 Inf (34 ID) moved" in error
    one_by_one = [(INF_133.id, ("2014", "2013")), (INF_133.id, ("2013", "2012")), (INF_168.id, ("2015", "2115"))]
    assert logged("one_unit_at_a_time", st, one_by_one) == []


def test_4_1_except_a_joint_move_of_armour_and_a_unit_of_its_hex() -> None:
    """4.1: "(except joint movement in one armor breakthrough, see 4.3)"; 4.3: "the two units must be on
    the same hex at the beginning of their movement phase". CC B and the 133rd, both in 2013, drag by
    turns: not an error. The 133rd and the 168th (no armour), both in 2014, may not."""
    st = state({CC_B: "2013", INF_133: "2013", INF_168: "2014"}, turn=2, phase="allied-movement")
    joint = [(CC_B.id, THROUGH[0]), (INF_133.id, THROUGH[0]), (CC_B.id, THROUGH[1]), (INF_133.id, THROUGH[1])]
    assert logged("one_unit_at_a_time", st, joint) == []
    st2 = state({INF_133: "2014", INF_168: "2014"}, turn=2, phase="allied-movement")
    infantry = [
        (INF_133.id, ("2014", "2013")),
        (INF_168.id, ("2014", "2013")),
        (INF_133.id, ("2013", "2012")),
        (INF_168.id, ("2013", "2012")),
    ]
    assert len(by_severity(logged("one_unit_at_a_time", st2, infantry), "error")) == 2


def test_4_2_the_em_entered_moves_back_one_hex_in_the_movers_phase() -> None:
    """4.2: "a combat unit could enter a hex occupied by a hostile EM not stacked with an enemy combat
    unit. In this case, the EM has to move back one hex (at the choice of inactive player)". In the
    Axis movement phase, PzGr 69 enters 2113 (the 34th's EM alone, 2 MP more) and the EM moves back to
    2013: no out-of-phase error, and the regiment's move is legal; the regiment going on after the EM
    moved is still one move (4.1). Two hexes back, or an Allied regiment moving then, is an error
    citing 4.2."""
    st = state({PZGR_69: "2313", EM_34: "2113"}, turn=2, phase="axis-movement")
    plan = [(PZGR_69.id, ("2313", "2113")), (EM_34.id, ("2113", "2013"))]
    found = judged(st, plan)
    assert by_severity(found, "error") == []
    pushed = logged("em_pushed_back", st, plan)
    assert by_severity(pushed, "error") == [] and by_severity(pushed, "warning") == []
    assert "EM 2-5 (34 ID) moved 2113 -> 2013" in by_severity(pushed, "info")[0]
    on = [*plan, (PZGR_69.id, ("2113", "2013"))]  # and the regiment goes on: its move, not interleaved (4.1)
    assert logged("one_unit_at_a_time", st, on) == []
    far = [(PZGR_69.id, ("2313", "2113")), (EM_34.id, ("2113", "1913"))]
    (error,) = by_severity(logged("em_pushed_back", st, far), "error")
    assert "2113 -> 1913" in error
    assert cited(logged("em_pushed_back", st, far), "error") == ["tunisia-1943:4.2"]
    st3 = state({PZGR_69: "2313", INF_133: "2013"}, turn=2, phase="axis-movement")
    (error,) = by_severity(logged("em_pushed_back", st3, [(INF_133.id, ("2013", "2012"))]), "error")
    assert "never displaced in this phase [4.2]" in error


def test_4_2_the_em_is_pushed_back_in_the_exploitation_phase_too() -> None:
    """4.2: "This movement onto an EM can be executed in either movement phase or in exploitation
    phase." The 10. Panzer's EM pushed one hex in the Allied exploitation phase: no error; two hexes:
    an error."""
    st = state({EM_10: "2113", CC_B: "2313"}, turn=2, phase="allied-exploitation")
    assert by_severity(logged("em_pushed_back", st, [(EM_10.id, ("2113", "2112"))]), "error") == []
    assert by_severity(logged("em_pushed_back", st, [(EM_10.id, ("2113", "2111"))]), "error")
