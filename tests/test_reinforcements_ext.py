"""RULES-MAP N12 `returns` of `reinforcements.schedule` (rules/mechanisms/reinforcement_ext.py): units that
go to the turn track and come back some Game-Turns after the one in progress.

Worked by hand from the seeds' words, on the Kasserine board (the places do not matter here:
only the box a unit waits in and the Game-Turn of the state).
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest
from test_23_reinforcements import AXIS
from test_23_setup import layout, run
from test_turn_moves import RECCE, ctx, rules, state  # noqa: F401 (ctx, rules: fixtures)
from test_turn_moves import run as move

from vassal_adj.model.state import GameState, Position
from vassal_adj.model.units import Unit
from vassal_adj.rules.mechanisms.setup import DEFAULT_PHASES, Entry
from vassal_adj.rules.mechanisms.turn_rules import Reinforcements
from vassal_adj.rules.results import Finding, Severity

# A schedule of no entries but the returns: the side's own list is not what is checked here.
BARE = {"side": "Axis", "entries": [], "boxes": {"turn": "Turn {turn}"}}


def waiting(kind: str, box: str, turn: int, name: str = "X") -> GameState:
    """One Axis unit of `kind` in off-map `box` on Game-Turn `turn`."""
    return GameState({"u": Unit("u", name, "Axis", kind, 4)}, {"u": Position(box=box)}, turn)


def returns(st: GameState, params: dict[str, Any] = BARE, **ret: Any) -> list[Finding]:
    return [f for f in run("reinforcements.schedule", st, **params, returns=[ret]) if f.severity == Severity.ERROR]


def test_tunisia_6_3_a_destroyed_em_goes_two_turns_after_the_one_in_progress() -> None:
    """Seed 001 6.3: "When an EM is destroyed, he retired from the game and placed on the turn
    track, two turns after the one in progress (ex.: destroyed on turn 1, placed turn 3)." On turn
    4 an EM destroyed now is in the box of turn 6, one destroyed earlier in a box before it; the
    box of turn 7 is too far ahead."""
    em = {"units": {"kinds": ["em"]}, "after": 2, "rule_ref": "6.3"}
    assert returns(waiting("em", "Turn 3", 1), **em) == []
    assert returns(waiting("em", "Turn 6", 4), **em) == []
    assert returns(waiting("em", "Turn 5", 4), **em) == []  # destroyed on turn 3: cannot be told from turn 4
    found = returns(waiting("em", "Turn 7", 4), **em)
    assert [f.message for f in found] == [
        "Axis X is in box 'Turn 7' (Game-Turn 7) on Game-Turn 4: a returning unit "
        "is placed 2 Game-Turn(s) after the one it went in, so no later than "
        "Game-Turn 6 [6.3]"
    ]
    assert found[0].units == ("u",)
    # Only the picked units: an infantry unit in that box is not an EM.
    assert returns(waiting("infantry", "Turn 7", 4), **em) == []


def test_kesselring_8_1_1_a_replacement_is_placed_one_to_six_turns_later() -> None:
    """Seed 004 8.1.1: "When an air or ground unit is eliminated by a combat result, roll 1d6. The
    unit is then placed on the friendly TRT that number of turns later ... A unit is eliminated on
    GT 3 and the owning player rolls a 2, so the unit would be placed on the TRT for GT 5." On GT 3
    the boxes of GT 4 to 9 may hold one; GT 10 would need a roll of 7."""
    repl = {"units": {"sides": ["Axis"]}, "after_range": [1, 6], "rule_ref": "8.1.1"}
    for k in (4, 5, 9):
        assert returns(waiting("infantry", f"Turn {k}", 3), **repl) == []
    found = returns(waiting("infantry", "Turn 10", 3), **repl)
    assert len(found) == 1 and "placed 1-6 Game-Turn(s) after" in found[0].message
    assert "no later than Game-Turn 9 [8.1.1]" in found[0].message


def test_kesselring_8_3_amphibious_units_recycle_two_turns_later_to_their_own_track() -> None:
    """Seed 004 8.3: "After an Air, Amphibious or Naval Gunfire unit is used, it is removed from the
    map and placed on the respective TRT per the below: 1) Air, Naval Gunfire: next GT. 2)
    Amphibious: two GT later." Each side's TRT has its own boxes (`to`); the schedule's turn boxes
    ("Turn {turn}") are not read for that return."""
    amphib = {"units": {"kinds": ["amphibious"]}, "after": 2, "to": "Axis TRT {turn}", "rule_ref": "8.3"}
    air = {"units": {"kinds": ["air"]}, "after": 1, "to": "Axis TRT {turn}", "rule_ref": "8.3"}
    assert returns(waiting("amphibious", "Axis TRT 7", 5), **amphib) == []
    assert len(returns(waiting("amphibious", "Axis TRT 8", 5), **amphib)) == 1
    assert returns(waiting("amphibious", "Turn 8", 5), **amphib) == []
    assert returns(waiting("air", "Axis TRT 6", 5), **air) == []
    assert len(returns(waiting("air", "Axis TRT 7", 5), **air)) == 1


def test_no_question_of_surrender_s5_1_units_removed_from_an_entry_hex_return_two_turns_later() -> None:
    """Seed 003 S5.1: units that stay in a Reinforcement entry hex "may be removed from the map at
    the end of the turn. Two turns later, they come back into the game". Removed at the end of
    turn 2, one waits for turn 4; in the box of turn 5 it was placed too far ahead."""
    stay = {"units": {"sides": ["Axis"]}, "after": 2, "rule_ref": "S5.1"}
    assert returns(waiting("infantry", "Turn 4", 2), **stay) == []
    assert len(returns(waiting("infantry", "Turn 5", 2), **stay)) == 1


def test_kasserine_23_a_unit_waiting_for_its_first_entry_is_not_a_return() -> None:
    """Kasserine 23: "2-2-11 (10)" is listed for Game-Turn Four. In the box of turn 4 on turn 1 it
    waits for its first entry, which the schedule judges, not a return placed too far ahead; an
    unlisted unit in that box is one. A unit listed for an event's turn is not judged either (its
    turn depends on the event: "the Game-Turn after both an Axis 5-3-12 and an Axis 6-5-10 have
    exited")."""
    back = {"units": {"sides": ["Axis"]}, "after": 2}
    assert returns(waiting("infantry", "Turn 4", 1, "2-2-11 (10)"), AXIS, **back) == []
    assert returns(waiting("infantry", "Turn 6", 1, "3-4-11 (1/47)"), AXIS, **back) == []
    found = returns(waiting("infantry", "Turn 4", 1, "9-9-9 (Z)"), AXIS, **back)
    assert [f.message.split(":")[0] for f in found] == [
        "Axis 9-9-9 (Z) is in box 'Turn 4' (Game-Turn 4) on Game-Turn 1"
    ]
    # The same 2-2-11 in the box of turn 5 is not where its entry puts it: as a return it is too far ahead.
    assert len(returns(waiting("infantry", "Turn 5", 1, "2-2-11 (10)"), AXIS, **back)) == 1


def test_no_returns_by_default_and_none_judged_without_a_game_turn() -> None:
    """Today's behaviour stays when the pack gives no `returns`; a set-up (no Game-Turn) has no
    turn in progress to count from."""
    st = waiting("infantry", "Turn 12", 1)
    assert [f for f in run("reinforcements.schedule", st, **BARE) if f.severity == Severity.ERROR] == []
    setup = GameState({"u": Unit("u", "X", "Axis", "infantry", 4)}, {"u": Position(box="Turn 12")})
    assert returns(setup, units={}, after=1) == []


@pytest.mark.parametrize(
    ("ret", "match"),
    [
        ({"units": {}}, r"returns\[0\]: expected exactly one of 'after'"),
        ({"units": {}, "after": 1, "after_range": [1, 2]}, r"returns\[0\]: expected exactly one of 'after'"),
        ({"units": {}, "after_range": [3, 1]}, r"returns\[0\]\.after_range: expected \[lo, hi\]"),
        ({"units": {}, "after": -1}, r"returns\[0\]\.after: expected a whole number"),
        ({"units": {}, "after": 1, "to": "Axis TRT"}, r"returns\[0\]\.to: expected a box name with '\{turn\}'"),
        ({"after": 1}, r"returns\[0\]\.units: missing required key"),
        ({"units": {"colour": ["red"]}, "after": 1}, r"returns\[0\]\.units\.colour: unknown key"),
        ({"units": {}, "after": 1, "when": 2}, r"returns\[0\]\.when: unknown key"),
    ],
)
def test_a_return_that_does_not_fit_names_its_key(ret: dict[str, Any], match: str) -> None:
    with pytest.raises(ValueError, match=match):
        run("reinforcements.schedule", waiting("infantry", "Turn 2", 1), **BARE, returns=[ret])


# -- turns = [first, last]: an entry on any Game-Turn of a window --------------------------------------
WINDOW = {
    "side": "Axis",
    "boxes": {"turn": "Turn {turn}"},
    "entries": [{"turns": [1, 2], "at": ["3918"], "units": ["2-2-9 (It)"]}],
}


def italian(where: str, turn: int | None, phase: str | None = None) -> list[tuple[Severity, str]]:
    pos = Position(box=where[4:]) if where.startswith("box:") else Position(layout().require(where), where)
    st = GameState({"u": Unit("u", "2-2-9 (It)", "Axis", "infantry", 9)}, {"u": pos}, turn, phase)
    return [(f.severity, f.message) for f in run("reinforcements.schedule", st, "Sc.2", **WINDOW)]


def test_no_question_of_surrender_sc_2_italians_may_be_withheld_to_the_last_turn_of_the_window() -> None:
    """Seed 003 Sc.2: "Italians may withhold any units to 1300" (their first turn 0900, here
    Game-Turn 1; 1300, Game-Turn 2). In play on either turn is legal, with nothing left unsure;
    before the first it arrived early; still off the map after the movement of the last it is
    late or held back (said, not judged an error)."""
    assert italian("3918", 1, "allied-movement") == []
    assert italian("3918", 2, "allied-movement") == []
    assert italian("box:Turn 2", 1, "allied-movement") == []
    assert italian("box:Turn 2", 2, "axis-movement") == []  # it may still come in this movement phase
    early = italian("3918", None)
    assert early == [
        (
            Severity.ERROR,
            "Axis 2-2-9 (It) (3918) is in play at set-up: it arrived early; it enters on Game-Turn 1 to 2 [Sc.2]",
        )
    ]
    assert [sev for sev, _ in italian("box:Turn 2", 2, "axis-combat")] == [Severity.INFO]
    late = italian("box:Turn 2", 3, "allied-movement")
    assert late == [
        (
            Severity.INFO,
            "Axis 2-2-9 (It) still off the map after the axis-movement phase of Game-Turn 2: "
            "late or held back (it enters on Game-Turn 1 to 2) [Sc.2]",
        )
    ]


@pytest.mark.parametrize(
    ("turns", "match"),
    [
        ([2, 2], r"entries\[0\]\.turns: expected the last Game-Turn after the first"),
        ([2], r"entries\[0\]\.turns: expected \[first, last\]"),
        ([0, 2], r"entries\[0\]\.turns\[0\]: expected a whole number >= 1"),
    ],
)
def test_a_window_that_does_not_fit_names_its_key(turns: list[int], match: str) -> None:
    with pytest.raises(ValueError, match=match):
        run(
            "reinforcements.schedule",
            waiting("infantry", "Turn 2", 1),
            side="Axis",
            boxes=BARE["boxes"],
            entries=[{"turns": turns, "at": ["3918"], "units": ["X"]}],
        )


def test_an_entry_has_one_of_turn_turns_or_after() -> None:
    with pytest.raises(ValueError, match=r"entries\[0\]: expected exactly one of 'turn'.*'after'.*'turns'"):
        run(
            "reinforcements.schedule",
            waiting("infantry", "Turn 2", 1),
            side="Axis",
            boxes=BARE["boxes"],
            entries=[{"turn": 1, "turns": [1, 2], "at": ["3918"], "units": ["X"]}],
        )


# -- box names come from the pack ----------------------------------------------------------------------
def test_kasserine_23_the_box_names_are_the_packs_not_the_engines() -> None:
    """Kasserine 23: "No Axis units begin the game on the map"; an Axis unit of the turn-1 list in
    the pack's eliminated box at set-up has been in play, so it arrived early. The engine knows
    that box only by the name the pack gives (`boxes.eliminated`, "Eliminated" in the example
    module); a module calling it "Dead Pile" is read by that name, and a schedule naming no
    eliminated box does not read one. Without `boxes.turn` (or `turn_box_kind`) the schedule has
    no turn boxes to read, and says so."""

    def early(boxes: dict[str, str], box: str) -> list[str]:
        st = GameState({"u": Unit("u", "5-3-12 (2/7)", "Axis", "armor", 12)}, {"u": Position(box=box)})
        params = {**AXIS, "boxes": boxes}
        return [f.message for f in run("reinforcements.schedule", st, **params) if f.severity == Severity.ERROR]

    assert early(AXIS["boxes"], "Eliminated") == [
        "Axis 5-3-12 (2/7) (box 'Eliminated') is in play at set-up: it arrived early; it enters on Game-Turn 1 [23]"
    ]
    assert len(early({"turn": "Turn {turn}", "eliminated": "Dead Pile"}, "Dead Pile")) == 1
    assert early({"turn": "Turn {turn}", "eliminated": "Dead Pile"}, "Eliminated") == []
    assert early({"turn": "Turn {turn}"}, "Eliminated") == []
    with pytest.raises(ValueError, match=r"^boxes\.turn: missing required key"):
        early({}, "Eliminated")
    by_kind = GameState({"u": Unit("u", "5-3-12 (2/7)", "Axis", "armor", 12)}, {"u": Position(box="Eliminated")})
    run("reinforcements.schedule", by_kind, **{**AXIS, "boxes": {}, "turn_box_kind": "turn"})  # no ValueError


def test_sc_2_a_unit_entering_within_its_window_is_legal_in_a_log_too(ctx: Any, rules: Any) -> None:  # noqa: F811
    """Seed 003 Sc.2 ("Italians may withhold any units to 1300"), judged on a move from the turn
    box onto the map (turn.py): entering on the first turn of the window is legal, with no "whether
    it may enter now is not known"; before it, too early. The example module's 580 stands in for
    an Italian unit, its entry made the window of Game-Turns 2 to 3."""
    entry = Entry(("3-2-16 (580)",), ("2526",), (ctx.layout.hex_of("2526"),), turn=2, otherwise_turn=3)
    axis = Reinforcements("Axis", (entry,), "axis-movement", DEFAULT_PHASES, "Sc.2")
    windowed = replace(rules, reinforcements=(axis,))
    on_time = move(ctx, windowed, state(ctx, {RECCE: "box:Turn 2"}, 2, "axis-movement"), (RECCE, "box:Turn 2", "2526"))
    assert [f.severity for f in on_time.findings] == [Severity.INFO] and "legal" in on_time.findings[0].message
    early = move(ctx, windowed, state(ctx, {RECCE: "box:Turn 2"}, 1, "axis-movement"), (RECCE, "box:Turn 2", "2526"))
    assert [f.message for f in early.findings if f.severity == Severity.ERROR] == [
        "Axis 3-2-16 (580) moved box 'Turn 2' -> 2526 on Game-Turn 1: too early, it enters on Game-Turn 2 to 3 [Sc.2]"
    ]
