"""Kasserine 23 reinforcements and 23.71 (rules/mechanisms/setup.py, adapter `reinforcements.schedule`).

Worked from the seed's lists: "The following unit appears on Game-Turn Two. 2526 3-2-16(580)";
"...appear on Game-Turn Four if there is an Allied unit within seven hexes of hex 1023;
otherwise, they appear on Game-Turn Five"; "...appear during the Movement Phase of the Allied
Withdrawal"; "...during the third Game Turn after Allied Withdrawal"; "...during the first
Allied Movement Phase after any Axis unit has moved within nine hexes of Thala (1704) or
Tebessa (0306), even if that Axis unit no longer occupied the hex"; "If Axis units exit the
map from any hex, Allied units scheduled to enter that hex or any hex east of that hex are no
longer available". 23.71: "The Axis Player is the First Player".
"""

from __future__ import annotations

import re
from typing import Any

import pytest
from test_23_setup import PACK, layout, run

from vassal_adj.model.geometry.hexes import distance
from vassal_adj.model.state import GameState, Position
from vassal_adj.model.units import Unit
from vassal_adj.rules.results import Finding, Severity

AXIS = {k: v for k, v in PACK["rules"]["axis_reinforcements"].items() if k not in ("impl", "rule_ref")}
ALLIED = {k: v for k, v in PACK["rules"]["allied_reinforcements"].items() if k not in ("impl", "rule_ref")}
# The events of /tmp/frag-setup.toml, for as long as pack.toml does not carry them yet.
EVENTS = {
    "Axis": {
        "axis-5-3-12-and-6-5-10-exited-3911-3909": {
            "unknown": "a save does not record the hexes units exited by, nor when"
        }
    },
    "Allied": {
        "allied-withdrawal": {"marker": "Allied Withdrawal"},
        "axis-within-9-of-thala-or-tebessa": {"side": "Axis", "within": 9, "of": ["1704", "0306"]},
        "axis-within-1-of-sbiba-thala-or-tebessa": {"side": "Axis", "within": 1, "of": ["2706", "1704", "0306"]},
    },
}


def state(
    *units: tuple[str, str, str],
    turn: int | None = None,
    phase: str | None = None,
    markers: dict[str, tuple[Position, ...]] | None = None,
) -> GameState:
    """Units as (side, printed name, label or 'box:NAME')."""
    us, pos = {}, {}
    for i, (side, name, where) in enumerate(units):
        uid = f"u{i}"
        us[uid] = Unit(uid, name, side, "infantry", 7)
        pos[uid] = Position(box=where[4:]) if where.startswith("box:") else Position(layout().require(where), where)
    return GameState(us, pos, turn, phase, markers=markers or {})


def axis(st: GameState, **over: Any) -> list[Finding]:
    return run("reinforcements.schedule", st, **{"events": EVENTS["Axis"], "phase_rule": "23.71", **AXIS, **over})


def allied(st: GameState, **over: Any) -> list[Finding]:
    return run("reinforcements.schedule", st, **{"events": EVENTS["Allied"], "phase_rule": "23.71", **ALLIED, **over})


def judged(found: list[Finding]) -> list[tuple[Severity, str]]:
    """The findings but the note on units absent from the save."""
    return [(f.severity, f.message) for f in found if "not in the save" not in f.message]


def at_distance(centre: str, d: int) -> str:
    c = layout().require(centre)
    return next(lab for lab in layout().labels() if distance(layout().require(lab), c) == d)


def withdrawal(box: str) -> dict[str, tuple[Position, ...]]:
    return {"Allied Withdrawal": (Position(box=box),)}


def test_23_the_pack_lists_75_reinforcement_counters() -> None:
    assert sum(len(e["units"]) for r in (AXIS, ALLIED) for e in r["entries"]) == 75


def test_23_no_axis_unit_begins_the_game_on_the_map() -> None:
    # "No Axis units begin the game on the map": a set-up state (no turn, no phase) is before turn 1.
    found = judged(axis(state(("Axis", "5-3-12 (2/7)", "3919"))))
    assert found == [
        (
            Severity.ERROR,
            ("Axis 5-3-12 (2/7) (3919) is in play at set-up: it arrived early; it enters on Game-Turn 1 [23]"),
        )
    ]


def test_23_turn_2_unit_on_the_map_on_turn_1_arrived_early() -> None:
    assert judged(axis(state(("Axis", "3-2-16(580)", "2526"), turn=1, phase="axis-combat"))) == [
        (
            Severity.ERROR,
            ("Axis 3-2-16(580) (2526) is in play on Game-Turn 1: it arrived early; it enters on Game-Turn 2 [23]"),
        )
    ]
    assert judged(axis(state(("Axis", "3-2-16 (580)", "2526"), turn=2, phase="axis-movement"))) == []
    # Eliminated before its turn: it has been in play, so early too.
    assert len(judged(axis(state(("Axis", "3-2-16 (580)", "box:Eliminated"), turn=1, phase="allied-combat")))) == 1


def test_23_71_allied_turn_2_unit_in_the_axis_player_turn_is_early() -> None:
    # 23.71: the Axis Player-Turn comes first, so Allied reinforcements of turn 2 are not yet on the map.
    found = judged(allied(state(("Allied", "3-2-12 (2/13)", "2701"), turn=2, phase="axis-combat")))
    assert found == [
        (
            Severity.ERROR,
            (
                "Allied 3-2-12 (2/13) (2701) is in play in the axis-combat phase of "
                "Game-Turn 2, before the allied-movement phase it enters in [23.71]"
            ),
        )
    ]
    assert judged(allied(state(("Allied", "3-2-12 (2/13)", "2701"), turn=2, phase="allied-movement"))) == []


def test_23_late_reinforcement_still_in_its_turn_box() -> None:
    waiting = ("Axis", "3-2-16 (580)", "box:Turn 2")
    assert judged(axis(state(waiting, turn=2, phase="axis-movement"))) == []  # entering now
    found = judged(axis(state(waiting, turn=2, phase="allied-movement")))
    assert found == [
        (
            Severity.INFO,
            (
                "Axis 3-2-16 (580) still off the map after the axis-movement phase of "
                "Game-Turn 2: late or held back (it enters on Game-Turn 2) [23]"
            ),
        )
    ]
    # Somewhere that is not a waiting box (a side map, a box the pack does not name): not judged.
    assert judged(axis(state(("Axis", "3-2-16 (580)", "box:Side map"), turn=5, phase="allied-movement"))) == []


def test_23_axis_turn_4_conditional_needs_allied_within_7_of_1023() -> None:
    italians = ("Axis", "3-2-11 (31)", "2126")
    seven, eight = at_distance("1023", 7), at_distance("1023", 8)
    ok = state(italians, ("Allied", "1-3-7 (3/26)", seven), turn=4, phase="axis-movement")
    assert judged(axis(ok)) == []
    early = judged(axis(state(italians, ("Allied", "1-3-7 (3/26)", eight), turn=4, phase="axis-movement")))
    assert early == [
        (
            Severity.ERROR,
            (
                "Axis 3-2-11 (31) (2126) is in play on Game-Turn 4: it arrived early; it enters "
                "on Game-Turn 4 if any Allied unit is within 7 hexes of 1023, otherwise on "
                "Game-Turn 5 (no Allied unit is within 7 hexes of 1023) [23]"
            ),
        )
    ]
    assert judged(axis(state(italians, turn=3, phase="allied-combat")))[0][0] == Severity.ERROR
    assert judged(axis(state(italians, turn=5, phase="axis-movement"))) == []


def test_23_axis_turn_4_conditional_in_a_later_phase_cannot_be_told() -> None:
    # By the Allied phases the Allied units may have moved: the condition of the turn's start is gone.
    found = judged(axis(state(("Axis", "3-2-11 (31)", "2126"), turn=4, phase="allied-movement")))
    assert [f[0] for f in found] == [Severity.INFO]
    assert "one save cannot tell" in found[0][1] and "no Allied unit is within 7 hexes of 1023" in found[0][1]


def test_23_axis_turn_4_conditional_late_depends_on_the_condition() -> None:
    waiting = ("Axis", "3-2-11 (31)", "box:Turn 4")
    near = ("Allied", "1-3-7 (3/26)", at_distance("1023", 3))
    assert judged(axis(state(waiting, near, turn=4, phase="axis-movement"))) == []
    assert judged(axis(state(waiting, turn=5, phase="axis-combat")))[0][1].startswith("Axis 3-2-11 (31) still off")


def test_23_allied_withdrawal_units_before_the_withdrawal_are_an_error() -> None:
    # The marker not in a Game-Turn box: no Allied Withdrawal yet.
    st = state(
        ("Allied", "1-2-7 (1/133)", "3909"),
        turn=6,
        phase="allied-movement",
        markers=withdrawal("Allied Withdrawal box"),
    )
    found = judged(allied(st))
    assert [f[0] for f in found] == [Severity.ERROR]
    assert "the 'Allied Withdrawal' marker is in no Game-Turn box (box 'Allied Withdrawal box')" in found[0][1]


def test_23_third_game_turn_after_the_allied_withdrawal() -> None:
    # Withdrawal on turn 6 (marker in box "Turn 6"): 1-2-7 (2/16) appears on turn 9.
    unit = "1-2-7(2/16)"
    early = judged(allied(state(("Allied", unit, "0105"), turn=8, phase="allied-combat", markers=withdrawal("Turn 6"))))
    assert early == [
        (
            Severity.ERROR,
            (
                "Allied 1-2-7(2/16) (0105) is in play on Game-Turn 8: it arrived early; it "
                "enters 3 Game-Turn(s) after event 'allied-withdrawal' (the 'Allied "
                "Withdrawal' marker is in the box of Game-Turn 6) [23]"
            ),
        )
    ]
    assert (
        judged(allied(state(("Allied", unit, "0105"), turn=9, phase="allied-movement", markers=withdrawal("Turn 6"))))
        == []
    )
    late = judged(
        allied(
            state(
                ("Allied", unit, "box:Allied Conditional"), turn=9, phase="allied-combat", markers=withdrawal("Turn 6")
            )
        )
    )
    assert [f[0] for f in late] == [Severity.INFO] and "late or held back" in late[0][1]


def test_23_withdrawal_units_appear_in_the_withdrawal_movement_phase() -> None:
    st = state(("Allied", "2-5-7 (18)", "2701"), turn=6, phase="allied-movement", markers=withdrawal("Turn 6"))
    assert judged(allied(st)) == []


def test_23_no_withdrawal_marker_in_the_save_cannot_be_judged() -> None:
    found = judged(allied(state(("Allied", "2-5-7 (18)", "2701"), turn=6, phase="allied-movement")))
    assert [f[0] for f in found] == [Severity.INFO] and "the save has no 'Allied Withdrawal' marker" in found[0][1]


def test_23_british_after_axis_within_9_of_thala_or_tebessa() -> None:
    british = ("Allied", "2-2-12 (16/5)", "1601")
    nine = at_distance("1704", 9)
    ten = next(
        lab
        for lab in layout().labels()
        if distance(layout().require(lab), layout().require("1704")) == 10
        and distance(layout().require(lab), layout().require("0306")) > 9
    )
    assert judged(allied(state(british, ("Axis", "5-3-12 (2/7)", nine), turn=5, phase="allied-movement"))) == []
    found = judged(allied(state(british, ("Axis", "5-3-12 (2/7)", ten), turn=5, phase="allied-movement")))
    # "even if that Axis unit no longer occupied the hex": none there now proves nothing.
    assert [f[0] for f in found] == [Severity.INFO] and "whether one has been a single save cannot show" in found[0][1]
    # Before the game begins no Axis unit has moved anywhere.
    assert judged(allied(state(british)))[0][0] == Severity.ERROR


def test_23_sherman_after_axis_within_1_of_sbiba() -> None:
    assert (
        judged(
            allied(
                state(
                    ("Allied", "3-2-12 (Shrmn)", "0104"),
                    ("Axis", "5-3-12 (2/7)", "2707"),
                    turn=7,
                    phase="allied-combat",
                )
            )
        )
        == []
    )


def test_23_axis_exit_event_is_never_shown_by_one_save() -> None:
    found = judged(axis(state(("Axis", "3-4-11 (1/47)", "3911"), turn=6, phase="axis-combat")))
    assert found == [
        (
            Severity.INFO,
            (
                "whether Axis 3-4-11 (1/47) may be in play on Game-Turn 6 one save cannot tell: "
                "it enters 1 Game-Turn(s) after event 'axis-5-3-12-and-6-5-10-exited-3911-3909'; "
                "a save does not record the hexes units exited by, nor when (the exited units also return when "
                "the 1/47 and 2/47 appear) [23]"
            ),
        )
    ]


def test_23_void_east_of_an_axis_exit() -> None:
    # An Axis unit exited at 2701: entries at 2701 and east (3909, 3911) are void, 1601 and 0105 are not.
    waiting = [("Allied", name, "box:Allied Conditional") for name in ("2-5-7 (18)", "1-2-7 (1/133)", "1-2-7 (2/16)")]
    st = state(
        *waiting, ("Axis", "5-3-12 (2/7)", "box:Exited"), turn=12, phase="allied-combat", markers=withdrawal("Turn 3")
    )
    found = judged(allied(st, exit_hexes=["2701"]))
    void = [m for s, m in found if "no longer available" in m]
    assert len(void) == 2 and any("2-5-7 (18) (entering at 2701)" in m for m in void)
    assert any("1-2-7 (1/133) (entering at 3909)" in m for m in void)
    assert any(m.startswith("Allied 1-2-7 (2/16) still off the map") for _, m in found)
    # Without the exit hexes a save cannot say which entries are void.
    note = [m for _, m in judged(allied(st)) if "exited box" in m]
    assert len(note) == 1 and note[0].startswith("1 enemy units are in the exited box")
    assert not any("exited box" in m for _, m in judged(allied(st, void_east_of_axis_exit=False)))


def test_23_a_state_with_a_phase_but_no_turn_is_not_judged() -> None:
    found = axis(state(("Axis", "5-3-12 (2/7)", "3919"), phase="axis-movement"))
    assert [f.severity for f in found] == [Severity.INFO] and "no Game-Turn" in found[0].message


def test_23_units_absent_from_the_save_are_counted_once() -> None:
    notes = [f.message for f in axis(state(turn=1, phase="axis-movement"))]
    assert len(notes) == 1 and notes[0].startswith("37 Axis units of the schedule are not in the save")


def test_23_the_pack_entries_fit_the_board() -> None:
    # Every entry hex and event hex of the pack exists on the example board (no ValueError).
    assert axis(state()) and allied(state())


@pytest.mark.parametrize(
    ("over", "message"),
    [
        (
            {"entries": [{"turn": 1, "after": "x", "at": ["3911"], "units": ["u"]}]},
            "entries[0]: expected exactly one of 'turn' (a Game-Turn) or 'after' (an event)",
        ),
        ({"entries": [{"turn": 1, "at": ["3911"], "units": ["u"], "when": 2}]}, "entries[0].when: unknown key"),
        ({"entries": [{"after": "nope", "at": ["3911"], "units": ["u"]}]}, "entries[0].after: unknown event 'nope'"),
        (
            {"entries": [{"turn": 4, "otherwise_turn": 5, "at": ["3911"], "units": ["u"]}]},
            "entries[0]: 'otherwise_turn' and 'if_side_within' go together",
        ),
        (
            {"entries": [{"turn": 1, "turns_after": 2, "at": ["3911"], "units": ["u"]}]},
            "entries[0].turns_after: only an entry with 'after' takes it",
        ),
        (
            {
                "entries": [
                    {
                        "turn": 4,
                        "otherwise_turn": 5,
                        "if_side_within": {"side": "Allied", "hex": "1023"},
                        "at": ["3911"],
                        "units": ["u"],
                    }
                ]
            },
            "entries[0].if_side_within.distance: missing required key",
        ),
        ({"entries": [{"turn": 0, "at": ["3911"], "units": ["u"]}]}, "entries[0].turn: expected a whole number >= 1"),
        ({"entries": [{"turn": 1, "at": ["4911"], "units": ["u"]}]}, "entries[0].at '4911'"),
        ({"events": {"e": {"marker": "M", "within": 2}}}, "events.e: expected exactly one of"),
        ({"events": {"e": {"side": "Axis", "within": 2}}}, "events.e.of: missing required key"),
        ({"events": {"e": {"marker": "M", "box": "Box"}}}, "events.e.box: expected a name with '{turn}' in it"),
        ({"boxes": {"turn": "Turn"}}, "boxes.turn: expected a name with '{turn}' in it"),
        ({"boxes": {"dead": "Eliminated"}}, "boxes.dead: unknown key"),
        ({"movement_phase": "allied-march"}, "movement_phase: 'allied-march' is not one of phases"),
    ],
)
def test_23_bad_schedules_name_the_key_path(over: dict[str, Any], message: str) -> None:
    with pytest.raises(ValueError, match="^" + re.escape(message)):
        allied(state(), **over)
