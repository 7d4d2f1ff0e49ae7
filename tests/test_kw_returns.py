"""Kesselring's War (seed 004): units that come back through the Turn Record Track (8.1.1, 8.3, 23.4)
and those that never wait there (8.1.2 Garrisons, 8.1.3 Italian units), worked from the seed's words
on the example board: the pack's reinforcements.schedule `returns` and [rules.never_on_the_trt]."""

from kw_board import errors, run, state, unit


def u(name):
    return unit(name, "")


PZ16 = u("16 Pz [GE armor XX] 7-5-5 *")
JG53 = u("Jg 53 [GE tac] 3-3 r8 *")
ADS = u("AdS [IT tac] 2-2 r6 *")
LIV = u("4 Liv [IT infantry XX] 3-4-4 *")
NEM = u("Nem [IT airborne XX] 3-4-4 GT2")
GARRISON = u("Garrison 3 [AX garrison] 0-2 *")
US3 = u("3 [US infantry XX] 6-5-4 *")
DAF = u("I/DAF [UK tac] 3-3 r8 *")
NGF = u("NGF 1 [UK naval-gunfire] 3-3 *")
AMPHIB = u("Amphib 1 [UK amphibious] 0-0 *")
PATTON = u("Patton [US ssu] 1-1 *")


def axis(where, turn):
    return errors(run("axis_reinforcements", state(where, turn, "action"), "scenario-1"))


def allied(where, turn):
    return errors(run("allied_reinforcements", state(where, turn, "action"), "scenario-1"))


def test_8_1_1_an_eliminated_unit_goes_on_the_trt_one_to_six_gt_later():
    # 8.1.1 "roll 1d6. The unit is then placed on the friendly TRT that number of turns later";
    # "A unit is eliminated on GT 3 and the owning player rolls a 2, so the unit would be placed on
    # the TRT for GT 5". On GT 2: boxes 3..8 are rolls of 1..6; none is beyond GT 8.
    assert axis({PZ16: "Axis TRT 5"}, 3) == []
    assert axis({PZ16: "Axis TRT 8"}, 2) == []  # a 6 on GT 2
    assert allied({US3: "Allied TRT 7"}, 1) == []  # a 6 on GT 1
    # On GT 1 a roll of 6 reaches GT 7 at most: box 8 is no roll of 1d6.
    (msg,) = axis({PZ16: "Axis TRT 8"}, 1)
    assert "no later than Game-Turn 7 [8.1.1]" in msg and "16 Pz" in msg
    (msg,) = allied({US3: "Allied TRT 8"}, 1)
    assert "placed 1-6 Game-Turn(s) after" in msg


def test_8_1_1_a_return_after_the_end_of_the_game_goes_to_withdrawn():
    # 8.1.1 "If the die roll results in a GT after the end of the scenario, the unit is placed in
    # the Withdrawn display (9.1)." Scenario I ends with GT 8 (27.1): eliminated on GT 5 with a 4,
    # the unit is due on GT 9, and a box 9 of the TRT is not where it goes; Withdrawn is.
    (msg,) = axis({PZ16: "Axis TRT 9"}, 5)
    assert "the game ends with Game-Turn 8" in msg and "[8.1.1]" in msg
    assert axis({PZ16: "Axis Withdrawn"}, 5) == []


def test_8_3_used_air_and_naval_gunfire_next_gt_amphibs_two_gt_later():
    # 8.3 "After an Air, Amphibious or Naval Gunfire unit is used, it is removed from the map and
    # placed on the respective TRT per the below: 1) Air, Naval Gunfire: next GT. 2) Amphibious:
    # two GT later." (18.5 "An Amphib used on GT 1 would become available again on GT 3".)
    assert allied({NGF: "Allied TRT 4", AMPHIB: "Allied TRT 5"}, 3) == []
    (msg,) = allied({NGF: "Allied TRT 5"}, 3)
    assert "NGF 1" in msg and "no later than Game-Turn 4 [8.3]" in msg
    (msg,) = allied({AMPHIB: "Allied TRT 4"}, 1)
    assert "Amphib 1" in msg and "no later than Game-Turn 3 [8.3]" in msg
    # An air unit may also have been eliminated (8.1.1, 20.2.2): up to six GT later, not seven.
    assert allied({DAF: "Allied TRT 8"}, 2) == []
    assert axis({JG53: "Axis TRT 7"}, 1) == []
    (msg,) = allied({DAF: "Allied TRT 8"}, 1)
    assert "I/DAF" in msg and "[8.1.1]" in msg


def test_8_1_3_an_italian_air_unit_returns_only_when_recycled():
    # 8.1.3: "All Italian units" eliminated are permanently eliminated; a used one is recycled to the
    # next GT (8.3). So an Italian air unit two GT ahead was no recycling.
    assert axis({ADS: "Axis TRT 3"}, 2) == []
    (msg,) = axis({ADS: "Axis TRT 4"}, 2)
    assert "AdS" in msg and "no later than Game-Turn 3 [8.3]" in msg


def test_23_4_an_ssu_waits_only_until_the_following_gt():
    # 23.4 "4-6: the SSU is not available for use until the following GT and is placed in the
    # appropriate box on the friendly TRT."
    assert allied({PATTON: "Allied TRT 3"}, 2) == []
    (msg,) = allied({PATTON: "Allied TRT 4"}, 2)
    assert "Patton" in msg and "[23.4]" in msg


def test_8_1_3_no_italian_ground_unit_on_the_axis_trt():
    # 8.1.3 "The following units cannot be replaced and are placed in their respective Permanently
    # Eliminated Units display: ... All Italian units."
    assert errors(run("never_on_the_trt", state({LIV: "Axis Permanently Eliminated"}, 2), "scenario-1")) == []
    (msg,) = errors(run("never_on_the_trt", state({LIV: "Axis TRT 4"}, 2), "scenario-1"))
    assert "4 Liv" in msg and "[8.1.3]" in msg
    # Nembo arrives on GT 2 (order-of-battle.csv): it waits there then, but never after.
    assert errors(run("never_on_the_trt", state({NEM: "Axis TRT 2"}, 1), "scenario-1")) == []
    (msg,) = errors(run("never_on_the_trt", state({NEM: "Axis TRT 5"}, 3), "scenario-1"))
    assert "Nem" in msg
    # An Italian air unit recycled after a mission is on the TRT lawfully (8.3).
    assert errors(run("never_on_the_trt", state({ADS: "Axis TRT 3"}, 2), "scenario-1")) == []


def test_8_1_2_an_eliminated_garrison_goes_to_the_reinforcement_display():
    # 8.1.2 "Eliminated Garrisons are placed in the Reinforcement display and each can be rebuilt
    # immediately as an action (7.5)."
    assert errors(run("never_on_the_trt", state({GARRISON: "Axis Reinforcement Display"}, 2), "scenario-1")) == []
    (msg,) = errors(run("never_on_the_trt", state({GARRISON: "Axis TRT 3"}, 2), "scenario-1"))
    assert "Garrison 3" in msg and "[8.1.2]" in msg
