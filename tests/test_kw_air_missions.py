"""20.4 air unit stacking of Kesselring's War (seed 004), on a log's action segment: "Up to two air
units may conduct a single mission. Air units of the same Contingent can be combined in the same
mission. Air units of different Contingents may not be combined in the same mission."

A mission's air units fly in one action (6.1), so 13.2's "Units of different contingents may not move
in the same Action" ([rules.action_segments] one_contingent) refuses a German and an Italian air unit
flown together; two German ones may fly; a third air unit in the target hex breaks the air pool of
[rules.stacking] (10.1 "Two air units of any type may stack in a hex when flying a mission"), checked
as each action segment closes.
"""

from __future__ import annotations

from kw_board import run, state
from test_kw_action_segments import JG_53, UK_5, action, logged, segment, unit

KG_26 = unit("Kg 26 [GE saf] 4-2 r12 *", "")  # German
ZG_1 = unit("Zg 1 [GE tac] 2-3 r8 GT2", "")  # German
ADS = unit("AdS [IT tac] 2-2 r6 *", "")  # Italian

TARGET = "2915"  # the British 5th Division's hex
ST = state({UK_5: TARGET, JG_53: "3111", KG_26: "3111", ADS: "3111"})  # the air units near Roma


def test_20_4_air_units_of_different_contingents_may_not_fly_one_mission() -> None:
    seg = segment(action("Axis", 5, 4, 12), ST, [(JG_53, "3111", TARGET), (ADS, "3111", TARGET)])
    (f,) = logged("action_segments", seg)
    assert f.severity == "error" and f.rule == "kesselrings-war:13.2"
    assert "German: Jg 53" in f.message and "Italian: AdS" in f.message


def test_20_4_two_air_units_of_one_contingent_may_fly_one_mission() -> None:
    seg = segment(action("Axis", 5, 4, 12), ST, [(JG_53, "3111", TARGET), (KG_26, "3111", TARGET)])
    assert logged("action_segments", seg) == []


def test_20_4_up_to_two_air_units_a_mission() -> None:
    three = state({UK_5: TARGET, JG_53: TARGET, KG_26: TARGET, ZG_1: TARGET}, 4, "action")
    (f,) = [f for f in run("stacking", three, "scenario-2") if f.severity == "error"]
    assert f.rule == "kesselrings-war:10.1" and "air" in f.message
    two = state({UK_5: TARGET, JG_53: TARGET, KG_26: TARGET}, 4, "action")
    assert [f for f in run("stacking", two, "scenario-2") if f.severity == "error"] == []
