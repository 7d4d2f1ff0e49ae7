"""The post-withdrawal conditions (19.3) and their points (22.21-22.23, 22.41.6, 22.42.2).

19.3: "All units of the U.S. 1st Armored Division still in play during the Withdrawal Movement
Phase, must end the Allied Movement Phase within three hexes of El Mae! Aboid (hex 0312) three
Game-Turns after the Allied Withdrawal Phase." and "Three Game-Turns after the Axis Withdrawal
Player-Turn, all Axis units must exit the map from an Axis Supply Source hex." 22.21: double
value added per Allied unit that fails; 22.22: full value subtracted per Axis unit; 22.23: "these
units are not eliminated. If any of the above units are eliminated subsequent to Friendly
Withdrawal, adjustment to the Victory Point Total is again made."
"""

from __future__ import annotations

from test_22_victory import INF, LAYOUT, PZ, US, H, run, state, unit

from vassal_adj.model.geometry.hexes import distance, ring

HOLD = "19.3/22.21/22.41.6"
EXIT = "19.3/22.22/22.42.2"
US2 = unit("us2", "5-3-12 (2/13)", "Allied", formation="US 1st Armored Division")
BRIT = unit("gb", "2-2-12 (16/5)", "Allied", formation="British 6th Armoured Division")


def at_distance(n: int, of: str = "0312") -> str:
    """A hex label exactly `n` hexes from `of`."""
    label = next(LAYOUT.label_of(h) for h in ring(H(of), n) if LAYOUT.on_map(h))
    assert distance(H(label), H(of)) == n
    return label


def test_19_3_allied_1st_armored_beyond_3_hexes_of_0312_adds_double_value() -> None:
    w = {"Allied Withdrawal": "Turn 4"}
    t = run(
        state(4, {US: at_distance(2), US2: at_distance(1), BRIT: at_distance(8)}, w),
        state(7, {US: at_distance(3), US2: at_distance(4), BRIT: at_distance(8)}, w),
    )
    # 5-3-12: 2 x 8; the 2-3-11 is 3 hexes away (within), the British unit is not 1st Armored.
    assert [(i.rule_ref, i.points, i.turn, i.units) for i in t.items] == [(HOLD, 16, 7, ("us2",))]
    assert "is 4 hexes from 0312 on turn 7, more than 3" in t.items[0].text


def test_19_3_is_judged_three_turns_after_the_withdrawal_not_before() -> None:
    t = run(state(6, {US2: at_distance(9)}, {"Allied Withdrawal": "Turn 4"}))
    assert t.items == ()
    assert any("withdrawal declared on turn 4 is judged on turn 7, after the last save" in u for u in t.unknowns)


def test_19_3_marker_outside_a_turn_box_means_no_withdrawal() -> None:
    t = run(state(10, {US2: at_distance(9), PZ: "2020"}, {"Allied Withdrawal": "Allied box", "Axis Withdrawal": "x"}))
    assert [i.rule_ref for i in t.items] == ["22.42.3"]  # turn 9 ended with no Axis withdrawal; 19.3: nothing


def test_19_3_a_unit_arriving_after_the_withdrawal_was_not_in_play() -> None:
    w = {"Allied Withdrawal": "Turn 4"}
    t = run(state(4, {US: at_distance(2), US2: "Turn 6"}, w), state(7, {US: at_distance(2), US2: at_distance(9)}, w))
    assert t.items == ()


def test_22_22_axis_unit_still_on_the_map_subtracts_full_value() -> None:
    w = {"Axis Withdrawal": "Turn 5"}
    t = run(state(5, {PZ: "2020", INF: "3920"}, w), state(8, {PZ: "2020", INF: "Exited"}, w))
    # the 5-3-12 is still on the map (-8); the 2-2-9 left from 3920, an Axis supply source (3926-3916)
    assert [(i.rule_ref, i.points) for i in t.items] == [(EXIT, -8)]
    assert t.items[0].text == "Axis 5-3-12 (2/7) is still on the map on turn 8"


def test_19_3_axis_unit_exited_elsewhere_than_a_source_fails() -> None:
    w = {"Axis Withdrawal": "Turn 5"}
    t = run(state(5, {INF: "3911"}, w), state(8, {INF: "Exited"}, w, left={INF: ("3911", 7)}))
    assert [(i.rule_ref, i.points) for i in t.items] == [(EXIT, -4)]
    assert "exited from 3911, not from a hex it must leave from" in t.items[0].text


def test_22_23_failing_then_eliminated_counts_both_ways() -> None:
    w = {"Axis Withdrawal": "Turn 5"}
    t = run(state(5, {PZ: "2020"}, w), state(8, {PZ: "2020"}, w), state(9, {PZ: "Eliminated"}, w))
    assert sorted((i.rule_ref, i.points) for i in t.items) == sorted([("22.42.1", -8), (EXIT, -8)])


def test_22_23_eliminated_before_the_check_counts_as_eliminated_only() -> None:
    w = {"Allied Withdrawal": "Turn 4"}
    t = run(state(4, {US2: at_distance(1)}, w), state(6, {US2: "Eliminated"}, w), state(7, {US2: "Eliminated"}, w))
    assert [(i.rule_ref, i.points) for i in t.items] == [("22.41.5", 8)]


def test_19_3_without_a_save_of_the_check_turn_the_next_one_is_used_and_said() -> None:
    w = {"Allied Withdrawal": "Turn 4"}
    t = run(state(4, {US2: at_distance(1)}, w), state(9, {US2: at_distance(5)}, w))
    assert [(i.rule_ref, i.points, i.turn) for i in t.items] == [(HOLD, 16, 9)]
    assert any("no save of turn 7 was given" in u for u in t.unknowns)


def test_19_3_all_axis_units_count_also_those_that_arrived_after_the_withdrawal() -> None:
    """ "all Axis units must exit the map": the 5-3-12 is not on the map on turn 5, when the
    withdrawal is declared, but it is on turn 8: it fails too (full value, 22.22)."""
    w = {"Axis Withdrawal": "Turn 5"}
    t = run(state(5, {INF: "2020", PZ: "Turn 6"}, w), state(8, {INF: "2020", PZ: "2121"}, w))
    assert sorted((i.rule_ref, i.points, i.units) for i in t.items) == [(EXIT, -8, ("pz",)), (EXIT, -4, ("inf",))]


def test_19_3_exit_hex_from_the_log_a_source_is_no_fault() -> None:
    w = {"Axis Withdrawal": "Turn 5"}
    t = run(state(5, {INF: "3926"}, w), state(8, {INF: "Exited"}, w, left={INF: ("3926", 6)}))
    assert t.items == ()


def test_19_3_exit_hex_unknown_charges_nothing_and_says_so() -> None:
    """The save of turn 5 shows the unit at 3911 (not a source); a later save shows it exited.
    It may have moved to a source before leaving: no log shows the hex, so nothing is charged."""
    w = {"Axis Withdrawal": "Turn 5"}
    t = run(state(5, {INF: "3911"}, w), state(8, {INF: "Exited"}, w))
    assert t.items == ()
    assert any(
        u.startswith(f"[{EXIT}] Axis 2-2-9 (609) has exited, but no log given shows the hex it left from")
        for u in t.unknowns
    )


def test_19_0_a_marker_seen_in_two_turn_boxes_is_a_second_declaration() -> None:
    t = run(
        state(5, {INF: "2020"}, {"Allied Withdrawal": "Turn 5"}),
        state(7, {INF: "2020"}, {"Allied Withdrawal": "Turn 7"}),
    )
    assert t.faults == (
        (
            "the Allied withdrawal is declared more than once: the 'Allied Withdrawal' marker is in the "
            "box of turn 5, then turn 7; each player may declare a withdrawal once and only once"
        ),
    )
    once = run(
        state(5, {INF: "2020"}, {"Allied Withdrawal": "Turn 5"}),
        state(7, {INF: "2020"}, {"Allied Withdrawal": "Turn 5"}),
    )
    assert once.faults == ()
