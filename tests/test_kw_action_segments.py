"""Kesselring's War (seed 004) action segments: the Action phase cut by spendings on the AP tracks
and passes (6.1), whose turn each is (6.1, 5.3), what one action may move (13.2, 12.5/13.1) and the
zones of control of each action (11.2/13.2), worked from the seed's words on the example board
(tests/kw_board.py) with segments built by hand as `verify` closes them.

6.1's example: "A unit can move, attack, regroup, move again, etc, as long as AP are expended for
each Action"; 13.2: "A unit may move more than once in an Action Phase, if each move is made in
different Action Segments".
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence

import pytest
from kw_board import LAYOUT, PACK, REDUCED, TERRAIN, H, state, unit

from vassal_adj.model.events import ChatLine, Moved, Place
from vassal_adj.model.state import GameState, Position
from vassal_adj.model.units import Unit
from vassal_adj.rules.engine import RuleContext
from vassal_adj.rules.registry import REGISTRY
from vassal_adj.rules.results import Finding
from vassal_adj.rules.segments import Opened, Segment, opened_by, segmenting
from vassal_adj.rules.track_openers import merged, track_openers
from vassal_adj.rules.turn import check_phase, turn_rules

ARMD_4 = unit("4 Armd [UK armor X] 3-2-6 *", "")  # Commonwealth, MF 6
UK_5 = unit("5 [UK infantry XX] 5-5-4 *", "")  # Commonwealth, MF 4
GARRISON_A1 = unit("Garrison A1 [AL garrison] 0-2 *", "")
GARRISON_A2 = unit("Garrison A2 [AL garrison] 0-2 *", "")
PZ_16 = unit("16 Pz [GE armor XX] 7-5-5 *", "")  # German contingent, MF 5
LIV_4 = unit("4 Liv [IT infantry XX] 3-4-4 *", "")  # Italian contingent
PZ_26 = unit("26 Pz [GE armor XX] 7-5-5 *", "")
JG_53 = unit("Jg 53 [GE tac] 3-3 r8 *", "")  # an Axis air unit

CUT = segmenting(PACK)


def ctx(rule: str, peers: bool = False) -> RuleContext:
    c = RuleContext(TERRAIN, LAYOUT, PACK.id, scenario=PACK.scenarios["scenario-1"], rule=PACK.rule(rule))
    return dataclasses.replace(c, peers={r.name: r for r in PACK.rules}) if peers else c


def action(side: str, before: int, after: int, at: int) -> Opened:
    track = "axis_ap" if side == "Axis" else "allied_ap"
    return Opened("action", {"side": side, "track": track, "before": str(before), "after": str(after)}, at)


def passed(side: str, at: int) -> Opened:
    return Opened("pass", {"side": side}, at)


def segment(
    opened: Opened,
    st: GameState,
    plan: Sequence[tuple[Unit, str, str]] = (),
    earlier: Sequence[tuple[Opened, Sequence[Unit]]] = (),
) -> Segment:
    moves: dict[str, list[tuple[Position, Position]]] = {}
    for u, a, b in plan:
        moves.setdefault(u.id, []).append((Position(H(a), a), Position(H(b), b)))
    order = tuple(u.id for u, _, _ in plan)
    return Segment(1, "action", opened, st, st, moves, order, earlier=tuple((o, tuple(us)) for o, us in earlier))


def logged(rule: str, seg: Segment) -> list[Finding]:
    r = PACK.rule(rule)
    return REGISTRY.lookup(r.impl).func(seg, ctx(rule, peers=True), r.params)


def ap_drag(side: str, a: int, b: int) -> Moved:
    return Moved(
        piece="ap",
        name=f"{side} Action Points",
        origin=Place("Main Map", 0, 0, f"{side} AP {a}"),
        to=Place("Main Map", 0, 0, f"{side} AP {b}"),
        command=1,
        step=1,
    )


def label(place: Place) -> str:
    return place.label or ""


# -- the openers (6.1, 5.2.1) ---------------------------------------------------------------------


def test_6_1_an_ap_marker_dragged_down_in_the_action_phase_opens_an_action_of_its_side() -> None:
    # 6.1 "If an Action is taken ... the appropriate number of AP are expended": Axis AP 7 -> 6.
    got = opened_by(CUT, [ap_drag("Axis", 7, 6)], "action", label)
    assert got == Opened("action", {"side": "Axis", "track": "axis_ap", "before": "7", "after": "6"})


def test_5_2_1_ap_gained_in_the_command_phase_open_no_action() -> None:
    # 5.2.1 "The total is added to each respective AP track": a drag up, in the AP Segment.
    assert opened_by(CUT, [ap_drag("Allied", 3, 9)], "ap", label) is None
    # the same drag down outside the Action phase opens nothing either
    assert opened_by(CUT, [ap_drag("Allied", 9, 8)], "ap", label) is None
    # and a drag up within the Action phase is no spending
    assert opened_by(CUT, [ap_drag("Allied", 8, 9)], "action", label) is None


def test_6_1_a_pass_line_opens_a_pass_segment() -> None:
    got = opened_by(CUT, [ChatLine(text="Allied passes", command=1, step=1)], "action", label)
    assert got == Opened("pass", {"side": "Allied"})
    report = ChatLine(text="Allied passes", report=True, command=1, step=1)
    assert opened_by(CUT, [report], "action", label) is None


def test_18_3_two_ap_dragged_one_box_at_a_time_are_one_spending() -> None:
    # 18.3 an invasion "expending two AP": 8 -> 7 then 7 -> 6 with nothing between is one action.
    first = {"side": "Allied", "track": "allied_ap", "before": "8", "after": "7"}
    assert merged(first, {**first, "before": "7", "after": "6"}) == {**first, "after": "6"}
    assert merged(first, {**first, "before": "5", "after": "4"}) is None


# -- whose turn (6.1, 5.3) ------------------------------------------------------------------------

ST = state({ARMD_4: "2913", UK_5: "2915", PZ_16: "3111", LIV_4: "3110", PZ_26: "3110", JG_53: "Axis Staging Area"})


def test_5_3_the_allies_hold_the_initiative_and_begin() -> None:
    assert logged("action_turns", segment(action("Allied", 9, 8, 10), ST)) == []


def test_5_3_an_axis_first_segment_is_not_judged_since_ob_sudwest_is_not_read() -> None:
    # 5.3 "The Allies have the Initiative on all GTs unless the Axis roll the OB SudWest Event"
    (f,) = logged("action_turns", segment(action("Axis", 5, 4, 10), ST))
    assert f.severity == "warning" and f.rule == "kesselrings-war:6.1"
    assert "Axis spent 5 -> 4 (log step 10)" in f.message and "Allied holds the initiative" in f.message
    assert "OB SudWest" in f.message and "not judged" in f.message


def test_6_1_the_sides_alternate_segments() -> None:
    seg = segment(action("Axis", 5, 4, 12), ST, [(PZ_16, "3111", "3211")], [(action("Allied", 9, 8, 10), [ARMD_4])])
    assert logged("action_turns", seg) == []


def test_6_1_one_action_a_segment_a_side_may_not_act_twice_in_a_row() -> None:
    # 6.1 "Only one Action may be taken during an Action Segment"; "sides alternating segments"
    earlier = [(action("Allied", 9, 8, 10), [ARMD_4]), (action("Allied", 8, 7, 14), [UK_5])]
    (f,) = logged("action_turns", segment(action("Allied", 7, 6, 18), ST, [(ARMD_4, "2913", "2914")], earlier[:1]))
    assert f.severity == "error"
    assert f.message == (
        "Allied spent 7 -> 6 (log step 18) right after Allied spent 9 -> 8 (log step 10): "
        "the sides alternate segments, one action a segment [6.1]"
    )


def test_21_3_1_an_axis_spending_with_only_air_units_moved_may_be_an_interception() -> None:
    # 21.3.1 "Conducting an Interception does not count as the next action for that side"
    earlier = [(action("Allied", 9, 8, 10), [ARMD_4]), (action("Axis", 5, 4, 12), [JG_53])]
    (f,) = logged("action_turns", segment(action("Axis", 4, 3, 16), ST, [(PZ_16, "3111", "3211")], earlier))
    assert f.severity == "warning" and "Interception (21.3.1)" in f.message and "not judged" in f.message
    # with a ground unit moved in the first spending it was an action: an error
    earlier[1] = (action("Axis", 5, 4, 12), [PZ_16])
    (f,) = logged("action_turns", segment(action("Axis", 4, 3, 16), ST, [(LIV_4, "3110", "3010")], earlier))
    assert f.severity == "error"


def test_6_1_a_side_acts_again_when_the_other_has_no_ap_left() -> None:
    # 6.1 "until either both sides consecutively pass or expend all AP": the Axis, at 0 AP, cannot act.
    st = dataclasses.replace(ST, tracks={"axis_ap": dataclasses.replace(_track("axis_ap"), value=0)})
    seg = segment(action("Allied", 7, 6, 18), st, [(ARMD_4, "2913", "2914")], [(action("Allied", 8, 7, 14), [UK_5])])
    assert logged("action_turns", seg) == []


def _track(name: str):  # type: ignore[no-untyped-def]
    from vassal_adj.model.state import Track

    return Track(name, 5, 0, 30)


def test_6_1_after_both_sides_pass_in_a_row_the_phase_has_ended() -> None:
    # 6.1 "If both sides pass sequentially, the phase ends"
    earlier = [(action("Allied", 9, 8, 10), [ARMD_4]), (passed("Axis", 12), []), (passed("Allied", 13), [])]
    (f,) = logged("action_turns", segment(action("Axis", 5, 4, 15), ST, [(PZ_16, "3111", "3211")], earlier))
    assert f.severity == "error"
    assert f.message == (
        "Axis spent 5 -> 4 (log step 15) after Axis passed (log step 12) and Allied passed (log step 13): "
        "both sides passed in a row, the phase has ended [6.1]"
    )


def test_6_1_a_side_may_pass_then_act_when_the_other_acts_between() -> None:
    # 6.1 "A side may pass during a segment but then conduct an Action during a subsequent segment
    # provided the other side does not also pass"
    earlier = [(passed("Allied", 10), []), (action("Axis", 5, 4, 12), [PZ_16])]
    assert logged("action_turns", segment(action("Allied", 9, 8, 15), ST, [(ARMD_4, "2913", "2914")], earlier)) == []


# -- what one action moves (13.2, 12.5, 13.1) ----------------------------------------------------


def test_13_2_units_of_different_contingents_may_not_move_in_the_same_action() -> None:
    # 2.5 "all German and Italian units, each of which is referred to as a contingent"
    seg = segment(action("Axis", 5, 4, 12), ST, [(PZ_16, "3111", "3211"), (LIV_4, "3110", "3010")])
    (f,) = logged("action_segments", seg)
    assert f.severity == "error" and f.rule == "kesselrings-war:13.2"
    assert "German: 16 Pz" in f.message and "Italian: 4 Liv" in f.message


def test_13_2_a_unit_moving_again_after_another_unit_moved_in_one_action_moved_twice() -> None:
    # 13.2 "A unit may move more than once in an Action Phase, if each move is made in different
    # Action Segments": 16 Pz, then 26 Pz, then 16 Pz again in one move action.
    plan = [(PZ_16, "3111", "3211"), (PZ_26, "3110", "3010"), (PZ_16, "3211", "3212")]
    (f,) = logged("action_segments", segment(action("Axis", 5, 4, 12), ST, plan))
    assert f.severity == "error" and f.rule == "kesselrings-war:13.2"
    assert f.message.startswith("Axis 16 Pz") and "moved again in" in f.message and "after 26 Pz" in f.message
    # one unit dragged hex by hex is one move
    legs = [(PZ_16, "3111", "3211"), (PZ_16, "3211", "3212"), (PZ_26, "3110", "3010")]
    assert logged("action_segments", segment(action("Axis", 5, 4, 12), ST, legs)) == []


def test_13_1_drags_after_the_actions_combat_roll_are_no_second_move() -> None:
    # 13.1 "At the completion of the movement ... the unit(s) involved may engage in combat": after
    # the roll, 16 Pz advances into the hex the defender left (17.2 pursuit).
    plan = [(PZ_16, "3111", "3211"), (PZ_26, "3110", "3010"), (PZ_16, "3211", "3212")]
    seg = dataclasses.replace(segment(action("Axis", 5, 4, 12), ST, plan), rolls=((2, 14),))
    assert logged("action_segments", seg) == []


def test_12_5_units_tracing_a_loc_to_one_source_move_together() -> None:
    # 12.2's example: Anzio (2913) traces by road to the Garrison in Gaeta (2916); 2915 is next to it.
    st = state({ARMD_4: "2913", UK_5: "2915", GARRISON_A1: "2916"})
    seg = segment(action("Allied", 9, 8, 10), st, [(ARMD_4, "2913", "2914"), (UK_5, "2915", "3015")])
    assert logged("one_source", seg) == []


def test_12_5_units_tracing_to_two_different_sources_do_not_move_in_one_action() -> None:
    # 12.5 "all mobile ground units of a single contingent which can trace a LOC to a single supply
    # source": one reaches Gaeta (2916) only, the other Palermo (1326) only.
    st = state({ARMD_4: "2913", UK_5: "1426", GARRISON_A1: "2916", GARRISON_A2: "1326"})
    seg = segment(action("Allied", 9, 8, 10), st, [(ARMD_4, "2913", "2914"), (UK_5, "1426", "1427")])
    (f,) = logged("one_source", seg)
    assert f.severity == "error" and f.rule == "kesselrings-war:12.5"
    assert (
        "no single supply source (4 Armd [UK armor X] 3-2-6 *: Gaeta; 5 [UK infantry XX] 5-5-4 *: Palermo)" in f.message
    )


def test_13_1_a_unit_out_of_supply_moves_alone() -> None:
    # 13.1 "one mobile ground unit which is Out of Supply or all mobile ground units of one
    # contingent which can trace a LOC": 5 UK at 1426 reaches no garrisoned port.
    st = state({ARMD_4: "2913", UK_5: "1426", GARRISON_A1: "2916"})
    seg = segment(action("Allied", 9, 8, 10), st, [(ARMD_4, "2913", "2914"), (UK_5, "1426", "1427")])
    (f,) = logged("one_source", seg)
    assert f.severity == "error" and "5 [UK infantry XX] 5-5-4 *, out of supply" in f.message
    assert "moves alone" in f.message
    alone = segment(action("Allied", 9, 8, 10), st, [(UK_5, "1426", "1427")])
    assert logged("one_source", alone) == []


# -- each action's own zones of control (11.2, 13.2) ------------------------------------------------


def judged(seg: Segment) -> list[Finding]:
    c = ctx("movement")
    rules = turn_rules(PACK, c)
    rules = dataclasses.replace(rules, movement_phases={**rules.movement_phases, "action": seg.opened.side or ""})
    return list(check_phase(seg.start, "action", seg.moves, rules, c, timing=(seg.order, seg.rolls)).findings)


def test_11_2_entering_an_ezoc_ends_the_move_for_that_action() -> None:
    # 11.2 "Ground units must halt all movement when entering an EZOC and may move no further during
    # that Action": the 16. Panzer at 3113 puts 3013 in its zone; 4 Armd goes on to 3012 in one action.
    st = state({ARMD_4: "2913", PZ_16: "3113"})
    found = judged(segment(action("Allied", 9, 8, 10), st, [(ARMD_4, "2913", "3013"), (ARMD_4, "3013", "3012")]))
    (f,) = [f for f in found if f.severity == "error"]
    assert "2913 -> 3013 -> 3012" in f.message and "3013" in f.message


def test_13_2_a_unit_moves_on_in_another_action() -> None:
    # 13.2 "A unit may move more than once in an Action Phase, if each move is made in different
    # Action Segments": from 3013 (in the EZOC) to 3012, out of it, in the next Allied action.
    st = state({ARMD_4: "3013", PZ_16: "3113"})
    found = judged(segment(action("Allied", 8, 7, 14), st, [(ARMD_4, "3013", "3012")]))
    assert [f.message for f in found] == [
        "Allied 4 Armd [UK armor X] 3-2-6 * moved 3013 -> 3012: legal, 0.5 of 6 MP by 3013 3012"  # 13.5 road: 0.5 MP
    ]


def test_14_2_1_an_allied_spending_of_two_ap_with_a_roll_and_no_move_is_an_interdiction() -> None:
    """14.2.1 "The Allies declare an Interdiction attempt and pay two AP, Roll one 1d6": the log shows
    no declaration, so an Allied action of 2 AP with a roll and no unit moved is read as one; an
    invasion (2 AP, units move), an attack (1 AP, a roll) or an Axis spending of 2 stays an action."""
    assert CUT.tracks is not None

    def kind(side: str, before: int, after: int, moved: bool, rolled: bool) -> str:
        values = {"side": side, "before": str(before), "after": str(after)}
        return CUT.tracks.kind("action", values, moved, rolled)  # type: ignore[union-attr]

    assert kind("Allied", 5, 3, moved=False, rolled=True) == "interdiction"
    assert kind("Allied", 5, 3, moved=True, rolled=False) == "action"  # 18.3 an invasion
    assert kind("Allied", 5, 4, moved=False, rolled=True) == "action"  # 15.2 an attack
    assert kind("Axis", 5, 3, moved=False, rolled=True) == "action"
    assert CUT.tracks.kind("pass", {"side": "Allied"}, False, False) == "pass"


@pytest.mark.parametrize(
    ("actions", "message"),
    [
        ([{"side": "Allied"}], r"by.actions\[0\]: expected a table with a kind"),
        ([{"kind": "x", "paid": "2"}], r"by.actions\[0\].paid: expected int, got '2'"),
        ([{"kind": "x", "cost": 2}], r"by.actions\[0\].cost: unknown key \(known: kind, side, paid, moved, rolled\)"),
    ],
)
def test_a_bad_action_kind_names_the_entry(actions: list[dict[str, object]], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        track_openers({"tracks": {"axis_ap": "Axis"}, "actions": actions}, PACK.extras.tracks)


def _regroup(st: GameState, restored: Sequence[Unit]) -> Segment:
    """A Regrouping Action (8.2.1): Allied AP 9 -> 8, no move, the `restored` units flipped to full strength."""
    end = dataclasses.replace(
        st, units={**st.units, **{u.id: dataclasses.replace(u, flags=u.flags - {"reduced"}) for u in restored}}
    )
    return dataclasses.replace(segment(action("Allied", 9, 8, 10), st), end=end)


def test_8_2_1_units_of_one_contingent_tracing_to_one_source_regroup_together() -> None:
    # 8.2.1 "All reduced mobile ground units of a single contingent currently on the map ... which can
    # trace a LOC to one supply source (12.4) are restored to full-strength": both reach Gaeta (2916).
    armd, uk5 = unit("4 Armd [UK armor X] 3-2-6 *", "", **REDUCED), unit("5 [UK infantry XX] 5-5-4 *", "", **REDUCED)
    st = state({armd: "2913", uk5: "2915", GARRISON_A1: "2916"})
    assert {"reduced"} <= armd.flags and logged("one_source", _regroup(st, [armd, uk5])) == []


def test_8_2_1_a_regroup_restores_units_of_one_source_and_one_contingent_only() -> None:
    # one reaches Gaeta (2916) only, the other Palermo (1326) only: no single source; and a US unit
    # restored with a Commonwealth one: two contingents.
    armd, uk5 = unit("4 Armd [UK armor X] 3-2-6 *", "", **REDUCED), unit("5 [UK infantry XX] 5-5-4 *", "", **REDUCED)
    st = state({armd: "2913", uk5: "1426", GARRISON_A1: "2916", GARRISON_A2: "1326"})
    (f,) = logged("one_source", _regroup(st, [armd, uk5]))
    assert f.rule == "kesselrings-war:12.5" and "no single supply source" in f.message
    us3 = unit("3 [US infantry XX] 6-5-4 *", "", **REDUCED)
    st = state({armd: "2913", us3: "2915", GARRISON_A1: "2916"})
    (g,) = logged("one_source", _regroup(st, [armd, us3]))
    assert g.severity == "error" and "restored in the Allied action" in g.message
    assert "Commonwealth: 4 Armd" in g.message and "US: 3 [US infantry XX]" in g.message
