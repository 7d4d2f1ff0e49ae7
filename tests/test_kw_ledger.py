"""The AP ledger of Kesselring's War (RULES-MAP N19): `track.bounds` (5.2) on a save, and
`track.ledger` (5.2.1 gains, 6.1 costs) on the segments of a log, worked from the seed's words
(../shared/seeds/004_954644da5565c400.txt).

5.2: "A side can never have more AP than the maximum indicated on the AP Track, and may never have
less than zero." 5.2.1: "Roll 1d6 and then add to the result: a) Six for the Allied Staging Area,
plus b) One per Objective hex occupied by a friendly Garrison unit, plus c) Any AP from the Events
Table"; "Example: The Allies roll a 3 and control two Objective hexes with garrisons, added to the 6
for their Staging Area for a total of 11 AP." 7.2: "the declaring side expends one AP and rolls 1d6".

The segments are built by hand as verify makes them: the Segment's `ledger` holds the die rolls and
the AP markers' drags with the track's value before and after (pbem/verify.py records them).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from typing import Any

from kw_board import LAYOUT, PACK, REDUCED, TERRAIN, H, state, unit

from vassal_adj.model.state import GameState, Position, Track
from vassal_adj.model.units import Unit
from vassal_adj.position import named_box
from vassal_adj.rules.engine import RuleContext
from vassal_adj.rules.ledger_log import Logged
from vassal_adj.rules.mechanisms.ap_ledger import track_ledger
from vassal_adj.rules.mechanisms.ap_paid import ap_changes
from vassal_adj.rules.mechanisms.track_bounds import track_bounds
from vassal_adj.rules.results import Finding
from vassal_adj.rules.segments import Opened, Segment

US_3 = unit("3 [US infantry XX] 6-5-4 *", "Allied")
US_45 = unit("45 [US infantry XX] 6-5-4 *", "Allied")
GARRISON_A = unit("Garrison A1 [AL garrison] 0-2 *", "Allied")
GARRISON_B = unit("Garrison A2 [AL garrison] 0-2 *", "Allied")
AXIS_GARRISON = unit("Garrison 1 [AX garrison] 0-2 *", "Axis")
GE_3 = unit("3 PzGr [GE panzergrenadier XX] 6-5-5 *", "Axis")


def at(place: str) -> Position:
    return Position(H(place), place) if place.isdigit() else Position(box=place, named=named_box(place, PACK.boxes))


def tracked(st: GameState, allied: int | None = None, axis: int | None = None) -> GameState:
    tracks = {"allied_ap": Track("allied_ap", allied, 0, 30), "axis_ap": Track("axis_ap", axis, 0, 30)}
    return dataclasses.replace(st, tracks=tracks)


def segment(
    where: Mapping[Unit, str],
    ledger: Sequence[Logged],
    phase: str = "action",
    moves: Mapping[Unit, Sequence[str]] | None = None,
    turn: int = 4,
) -> Segment:
    """A segment of `phase` starting with units `where`, in which each of `moves` was dragged through its places."""
    start = tracked(state(where, turn, phase))
    end, drags = start, {}
    for u, stops in (moves or {}).items():
        drags[u.id] = [(at(a), at(b)) for a, b in zip(stops, stops[1:], strict=False)]
        end = end.with_position(u.id, at(stops[-1]))
    return Segment(turn, phase, Opened("segment"), start, end, drags, ledger=tuple(ledger))


def ledger(seg: Segment, scenario: str | None = None, **params: Any) -> list[Finding]:
    rule = PACK.rule("ap_ledger")
    sc = PACK.scenarios[scenario] if scenario else None
    ctx = RuleContext(TERRAIN, LAYOUT, PACK.id, rule=rule, scenario=sc)
    return track_ledger(seg, ctx, {**rule.params, **params})


def messages(found: list[Finding]) -> list[tuple[str, str]]:
    return [(f.severity, f.message) for f in found]


def roll(step: int, die: int) -> Logged:
    return Logged(step, button="1d6", die=die)


def allied(step: int, before: int, after: int) -> Logged:
    return Logged(step, "allied_ap", before, after)


# -- 5.2 bounds ---------------------------------------------------------------------------------


def bounds(st: GameState) -> list[str]:
    rule = PACK.rule("ap_bounds")
    return [f.message for f in track_bounds(st, RuleContext(TERRAIN, LAYOUT, PACK.id, rule=rule), rule.params)]


def test_5_2_never_more_ap_than_the_track_maximum_nor_less_than_zero() -> None:
    assert bounds(tracked(state({}), allied=30, axis=0)) == []
    assert bounds(tracked(state({}), allied=31, axis=-1)) == [
        "track allied_ap shows 31, above its maximum 30 [5.2]",
        "track axis_ap shows -1, below its minimum 0 [5.2]",
    ]


def test_5_2_a_track_the_save_does_not_show_is_not_judged() -> None:
    assert bounds(tracked(state({}), allied=None, axis=None)) == []


# -- 5.2.1 gains --------------------------------------------------------------------------------

# Two Objective hexes with Allied Garrisons: Palermo (1326) and Catania (1929); Messina (2027) held by the Axis.
HELD = {GARRISON_A: "1326", GARRISON_B: "1929", AXIS_GARRISON: "2027"}


def test_5_2_1_the_seed_example_roll_3_two_garrisoned_objectives_and_6_is_11() -> None:
    assert ledger(segment(HELD, [roll(1, 3), allied(2, 4, 15)], phase="ap")) == []


def test_5_2_1_a_gain_other_than_the_formula_is_an_error_quoting_the_sum() -> None:
    assert messages(ledger(segment(HELD, [roll(1, 3), allied(2, 4, 14)], phase="ap"))) == [
        (
            "error",
            "the Allied AP went from 4 to 14: 1d6 3 + 6 + 2 Objective hex(es) held (1326, 1929) = 11, to 15 [5.2.1]",
        )
    ]


def test_5_2_1_a_reduced_garrison_counts_and_the_axis_adds_two() -> None:
    reduced = unit("Garrison 1 [AX garrison] 0-2 *", "Axis", **REDUCED)
    assert "reduced" in reduced.flags
    seg = segment({reduced: "3112"}, [roll(1, 5), Logged(2, "axis_ap", 0, 8)], phase="ap")
    assert ledger(seg) == []  # 5 + 2 + Roma (3112) = 8


def test_5_2_the_gain_is_capped_at_the_track_maximum() -> None:
    assert ledger(segment(HELD, [roll(1, 6), allied(2, 20, 30)], phase="ap")) == []  # 20 + 14 capped at 30


def test_5_2_1_c_a_difference_an_event_could_give_is_not_judged() -> None:
    found = ledger(segment(HELD, [roll(1, 3), allied(2, 4, 19)], phase="ap"))  # SHAEF Support +4
    assert messages(found) == [
        (
            "info",
            "the Allied AP went from 4 to 19: 1d6 3 + 6 + 2 Objective hex(es) held (1326, 1929) = 11, to 15; "
            "the +4 an event could give (5.2.1 c): not judged [5.2.1]",
        )
    ]
    assert [f.severity for f in ledger(segment(HELD, [roll(1, 3), allied(2, 4, 18)], phase="ap"))] == ["error"]


def test_5_2_1_no_roll_before_the_marker_moved_is_not_judged() -> None:
    found = ledger(segment(HELD, [allied(2, 4, 15)], phase="ap"))
    assert messages(found) == [
        ("warning", "no die roll before the Allied AP marker moved: the Allied gain is not judged [5.2.1]")
    ]


def test_5_2_1_each_side_its_own_roll_in_one_segment() -> None:
    seg = segment(HELD, [roll(1, 3), allied(2, 4, 15), roll(3, 1), Logged(4, "axis_ap", 2, 6)], phase="ap")
    assert [(c.side, c.die) for c in ap_changes(seg, {"allied_ap": "Allied", "axis_ap": "Axis"})] == [
        ("Allied", 3),
        ("Axis", 1),
    ]
    assert ledger(seg) == []  # Axis: 1 + 2 + Messina (2027) = 4


def test_27_2_no_staging_area_ap_on_gt_3_of_scenario_ii() -> None:
    seg = segment(HELD, [roll(1, 3), allied(2, 6, 11)], phase="ap", turn=3)
    assert ledger(seg, scenario="scenario-2") == []  # 3 + 2 Objective hexes, no 6
    assert [f.severity for f in ledger(seg, scenario="scenario-1")] == ["error"]


# -- 6.1 costs ----------------------------------------------------------------------------------


def test_7_2_a_reinforcement_action_costs_one_ap() -> None:
    moves = {US_3: ["Allied Reinforcement Display", "1326"]}
    where = {US_3: "Allied Reinforcement Display", GARRISON_A: "1326"}
    assert ledger(segment(where, [allied(1, 5, 4), roll(2, 4)], moves=moves)) == []
    assert messages(ledger(segment(where, [allied(1, 5, 3), roll(2, 4)], moves=moves))) == [
        ("error", "the Allied AP marker went down by 2 (5 to 3), the reinforcement costs 1 [6.1]")
    ]


def test_7_5_a_garrison_deployed_is_its_own_kind_of_action() -> None:
    moves = {GARRISON_B: ["Allied Reinforcement Display", "1929"]}
    found = ledger(segment({GARRISON_B: "Allied Reinforcement Display", US_3: "1929"}, [allied(1, 5, 3)], moves=moves))
    assert messages(found) == [("error", "the Allied AP marker went down by 2 (5 to 3), the garrison costs 1 [6.1]")]


def test_13_1_a_move_action_costs_one_ap() -> None:
    moves = {GE_3: ["2916", "2917"]}
    seg = segment({GE_3: "2916"}, [Logged(1, "axis_ap", 3, 2)], moves=moves)
    assert ledger(seg) == []
    assert [f.severity for f in ledger(dataclasses.replace(seg, ledger=(Logged(1, "axis_ap", 3, 1),)))] == ["error"]


def test_6_1_a_segment_with_no_move_shows_no_action_kind_and_is_not_judged() -> None:
    assert ledger(segment({GE_3: "2916"}, [Logged(1, "axis_ap", 3, 0)])) == []


def test_6_1_the_opener_values_are_read_when_the_segment_has_no_ledger() -> None:
    """A segment whose opener is the AP marker's drag (before, after, side) and no ledger."""
    seg = segment({GE_3: "2916"}, [], moves={GE_3: ["2916", "2917"]})
    seg = dataclasses.replace(seg, opened=Opened("action", {"side": "Axis", "before": "3", "after": "1"}))
    assert messages(ledger(seg)) == [("error", "the Axis AP marker went down by 2 (3 to 1), the move costs 1 [6.1]")]


# -- a second parameter set, not shaped like Kesselring's War ------------------------------------


def test_a_supply_point_ledger_with_no_places_and_its_own_costs() -> None:
    """One track for one side, gains of the die plus 1 and no places, a move costing 2 and entries
    of any unit costing 3, read in a phase called "logistics"."""
    params = {
        "tracks": {"axis_ap": "Axis"},
        "costs": {"move": 2, "deploy": 3},
        "entry_kind": "deploy",
        "entry_kinds": [],
        "gain_phases": ["logistics"],
        "gain_constant": {"Axis": 1},
        "gain_places": "",
        "gain_events": {},
        "no_constant": [],
    }
    gain = segment({}, [roll(1, 4), Logged(2, "axis_ap", 0, 5)], phase="logistics")
    assert ledger(gain, **params) == []
    assert [
        f.severity for f in ledger(dataclasses.replace(gain, ledger=(roll(1, 4), Logged(2, "axis_ap", 0, 7))), **params)
    ] == ["error"]
    move = segment({GE_3: "2916"}, [Logged(1, "axis_ap", 5, 3)], moves={GE_3: ["2916", "2917"]})
    assert ledger(move, **params) == []
    entry = segment(
        {GE_3: "Axis Reinforcement Display"},
        [Logged(1, "axis_ap", 5, 4)],
        moves={GE_3: ["Axis Reinforcement Display", "2917"]},
    )
    assert messages(ledger(entry, **params)) == [
        ("error", "the Axis AP marker went down by 1 (5 to 4), the deploy costs 3 [6.1]")
    ]


def test_6_1_two_drags_down_with_no_roll_between_are_one_payment_and_the_opener_pays() -> None:
    """An invasion's 2 AP dragged a box at a time is one spending; an AP the defender loses in the
    segment (21.2.2 "defender loses one AP") is not the action's payment."""
    moves = {GE_3: ["2916", "2917"]}
    two = [Logged(1, "axis_ap", 5, 4), Logged(2, "axis_ap", 4, 3)]
    assert messages(ledger(segment({GE_3: "2916"}, two, moves=moves))) == [
        ("error", "the Axis AP marker went down by 2 (5 to 3), the move costs 1 [6.1]")
    ]
    seg = segment({GE_3: "2916"}, [Logged(1, "axis_ap", 5, 4), allied(2, 7, 6)], moves=moves)
    assert ledger(dataclasses.replace(seg, opened=Opened("action", {"side": "Axis"}))) == []
