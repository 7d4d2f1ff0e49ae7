"""Starting AP of Kesselring's War (seed 004 27.1, 27.2) by `track.bounds` with `bounds`: a track's
bounds replaced while the rule is in force (its `when`).

27.1 (Scenario I): "Starting AP: 8 plus one die roll" (Axis), "14 plus one die roll" (Allies);
"Important: A normal AP check is not conducted on GT 1; the above AP plus the die roll result
comprise starting AP". 4.1: "The Events Segment is omitted in the first GT of each scenario". So
in GT 1 nothing adds AP: the Axis never show more than 8 + 6 = 14, the Allies 14 + 6 = 20.
27.2 (Scenario II): "Starting AP: 2, plus a normal AP check during the Command Phase of GT 3"
(Allies: 6): before the AP Segment of GT 3 the tracks show exactly 2 and 6.
A second parameter set, not shaped like KW: a morale track of 0-10 bounded 3-5 by a rule.
"""

from __future__ import annotations

import dataclasses

import pytest
from kw_board import LAYOUT, PACK, TERRAIN, run, state

from vassal_adj.model.state import GameState, Track
from vassal_adj.rules.engine import RuleContext
from vassal_adj.rules.mechanisms.track_bounds import track_bounds


def ap(axis: int, allied: int, turn: int, phase: str) -> GameState:
    tracks = {"axis_ap": Track("axis_ap", axis, 0, 30), "allied_ap": Track("allied_ap", allied, 0, 30)}
    return dataclasses.replace(state({}, turn, phase), tracks=tracks)


def said(rule: str, st: GameState, scenario: str) -> list[str]:
    return [f.message for f in run(rule, st, scenario) if f.severity != "info"]


def test_27_1_starting_ap_at_most_8_and_14_plus_one_die_roll_all_gt_1() -> None:
    assert said("starting_ap_1", ap(14, 20, 1, "action"), "scenario-1") == []
    assert said("starting_ap_1", ap(3, 0, 1, "action"), "scenario-1") == []  # AP spent since the set-up
    assert said("starting_ap_1", ap(15, 21, 1, "action"), "scenario-1") == [
        "track axis_ap shows 15, above its maximum 14 [27.1]",
        "track allied_ap shows 21, above its maximum 20 [27.1]",
    ]
    # GT 2's AP Segment adds a normal AP check: the start's bound no longer holds
    assert said("starting_ap_1", ap(15, 21, 2, "action"), "scenario-1") == []
    assert not any("27.1" in m for m in said("starting_ap_1", ap(15, 21, 1, "action"), "scenario-2"))


def test_27_2_starting_ap_2_and_6_before_the_ap_check_of_gt_3() -> None:
    assert said("starting_ap_2", ap(2, 6, 3, "events"), "scenario-2") == []
    assert said("starting_ap_2", ap(8, 6, 3, "events"), "scenario-2") == [
        "track axis_ap shows 8, above its maximum 2 [27.2]"
    ]
    assert said("starting_ap_2", ap(2, 5, 3, "events"), "scenario-2") == [
        "track allied_ap shows 5, below its minimum 6 [27.2]"
    ]
    assert said("starting_ap_2", ap(8, 12, 3, "ap"), "scenario-2") == []  # the AP check made: the ledger's


def morale(value: int, **params: object) -> list[str]:
    rule = PACK.rule("ap_bounds")
    st = dataclasses.replace(state({}), tracks={"morale": Track("morale", value, 0, 10)})
    ctx = RuleContext(TERRAIN, LAYOUT, PACK.id, rule=rule)
    return [f.message for f in track_bounds(st, ctx, {"tracks": ["morale"], "bounds": {}, **params})]


def test_bounds_replace_a_tracks_printed_bounds_second_parameter_set() -> None:
    assert morale(7) == []
    assert morale(7, bounds={"morale": [3, 5]}) == ["track morale shows 7, above its maximum 5 [5.2]"]
    assert morale(2, bounds={"morale": [3, 5]}) == ["track morale shows 2, below its minimum 3 [5.2]"]
    assert morale(11, bounds={"other": [3, 5]}) == ["track morale shows 11, above its maximum 10 [5.2]"]


@pytest.mark.parametrize("bad", [[5, 3], [3], "3-5", [3, 5.5]])
def test_bounds_must_be_min_max_pairs(bad: object) -> None:
    with pytest.raises(ValueError, match=r"bounds\.morale: expected \[min, max\]"):
        morale(4, bounds={"morale": bad})
