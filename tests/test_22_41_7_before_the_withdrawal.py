"""A first entry, or an exit, that counts only before a side declares an event (victory_terms.py
`closed_by`, read from ``before_declared = { marker, box }``), worked by hand from seed 000.

22.41.7: "Sixty-Five VP at the instant the first Axis unit enters Tebessa (hex 0306) on any
Game-Turn preceeding the Axis Withdrawal." 22.43.1: "Triple Point Value for each Axis unit
exited from any Allied Supply Source hex preceding an Axis Withdrawal". 19.0: the withdrawal is
declared by putting the marker in the Game-Turn box of its turn.

The same reader takes a window of turns with an open end: 22.41.1 "if on or before Game-Turn
Three" and seed 003 Sc.4 "on June 7th or earlier" are both one edge of a window.
"""

from __future__ import annotations

from typing import Any

import pytest
from test_22_victory import PZ, US, ctx, state
from test_victory_conditions import params, texts

from vassal_adj.rules.history import History
from vassal_adj.rules.mechanisms.victory_conditions import judge, tally_of

WITHDRAWAL = {"marker": "Axis Withdrawal", "box": r"Turn (\d+)"}
TEBESSA = {
    "place": "0306",
    "name": "Tebessa",
    "at": "first-entry",
    "points": 65,
    "rule_ref": "22.41.7",
    "before_declared": WITHDRAWAL,
}
SOURCES = ["0101"]  # a stand-in Allied supply source hex
EXIT = {
    "exited": {"box": "Exited", "via": SOURCES},
    "rule_ref": "22.43.1",
    "value": {"fields": ["attack", "defense"]},
    "before_declared": WITHDRAWAL,
}


def tally(*states: Any, items: list[dict[str, Any]]) -> list[str]:
    p = params("victory.tally", side="Axis", opponent="Allied", items=items)
    return texts(tally_of(History(states), ctx(), p))


def test_22_41_7_tebessa_entered_on_turn_5_before_a_turn_6_withdrawal_is_65() -> None:
    found = tally(
        state(4, {PZ: "2020"}),
        state(5, {PZ: "0306"}),
        state(6, {PZ: "0306"}, {"Axis Withdrawal": "Turn 6"}),
        items=[TEBESSA],
    )
    assert (
        "[22.41.7] Axis first entered Tebessa (0306) (state 2, turn 5), within the turns before Axis "
        "Withdrawal (declared on turn 6): +65 VP"
    ) in found


def test_22_41_7_tebessa_entered_on_the_withdrawal_turn_is_not_preceding_it() -> None:
    """Declared on turn 6 and Tebessa first shown on turn 6 (the save of turn 5 shows the unit
    elsewhere): turn 6 does not precede the withdrawal, so nothing."""
    found = tally(state(5, {PZ: "2020"}), state(6, {PZ: "0306"}, {"Axis Withdrawal": "Turn 6"}), items=[TEBESSA])
    assert (
        "[22.41.7] Axis first entered Tebessa (0306) (state 2, turn 6), outside the turns before Axis "
        "Withdrawal (declared on turn 6): +0 VP; cannot be told: it was entered after the state of turn 5: "
        "counted as entered on turn 6"
    ) in found
    assert "Axis victory points: 0" in found


def test_22_41_7_with_no_withdrawal_declared_the_window_is_open() -> None:
    found = tally(state(11, {PZ: "0306"}, {"Axis Withdrawal": "Axis pool"}), items=[TEBESSA])
    assert "Axis victory points: 65" in found


def test_22_41_7_with_no_withdrawal_marker_in_the_states_it_is_counted_and_said() -> None:
    found = tally(state(5, {PZ: "0306"}), items=[TEBESSA])
    assert (
        "[22.41.7] Axis first entered Tebessa (0306) (state 1, turn 5), within the turns before Axis Withdrawal "
        "(not declared): +65 VP; cannot be told: no piece named 'Axis Withdrawal' is in the state(s) given: "
        "counted as not declared"
    ) in found


def test_22_41_1_an_open_first_edge_and_the_withdrawal_close_one_window() -> None:
    """22.41.1's "on or before Game-Turn Three" as turns [1, 3] and a withdrawal on turn 2 together:
    an entry on turn 3 is inside the turns but not before the withdrawal."""
    item = {**TEBESSA, "turns": [1, 3]}
    found = tally(state(2, {PZ: "2020"}, {"Axis Withdrawal": "Turn 2"}), state(3, {PZ: "0306"}), items=[item])
    assert (
        "[22.41.7] Axis first entered Tebessa (0306) (state 2, turn 3), outside turns 1-3 and the turns "
        "before Axis Withdrawal (declared on turn 2): +0 VP"
    ) in found


def test_22_43_1_exits_count_only_before_the_withdrawal() -> None:
    """Two 5-3-12s: one leaves 0101 on turn 4, the other on turn 6, the withdrawal is declared on
    turn 5: 3 x 8 = 24 for the first only."""
    pz2 = type(PZ)("pz2", "5-3-12 (3/7)", "Axis", "armor", 12, attack=5, defense=3)
    item = {**EXIT, "points": 3}
    found = tally(
        state(4, {PZ: "Exited", pz2: "0101"}, left={PZ: ("0101", 4)}),
        state(6, {PZ: "Exited", pz2: "Exited"}, {"Axis Withdrawal": "Turn 5"}, left={pz2: ("0101", 6)}),
        items=[item],
    )
    assert (
        "[22.43.1] 1 Axis units exited into Exited by the given hexes before Axis Withdrawal, value 8 "
        "(5-3-12 (2/7) attack 5 + defense 3): +24 VP"
    ) in found


def test_22_43_1_an_exit_on_an_unknown_turn_cannot_be_told_before_the_withdrawal() -> None:
    """A log shows the 5-3-12 leaving 0101 but not on which turn, and the state has no turn: it
    is not counted, and the item says that it may be."""
    found = tally(
        state(None, {PZ: "Exited"}, {"Axis Withdrawal": "Turn 5"}, left={PZ: ("0101", None)}),
        items=[{**EXIT, "points": 3}],
    )
    assert (
        "[22.43.1] 0 Axis units exited into Exited by the given hexes before Axis Withdrawal, value 0: +0 VP; "
        "cannot be told: 1 more exited on a turn not known: whether before Axis Withdrawal cannot be told"
    ) in found


def test_nqos_sc4_a_declaration_on_or_before_june_7_is_the_same_kind_of_window() -> None:
    """Seed 003 Sc.4: "If the Withdrawal is taking place on June 7th or earlier, the game is an Axis
    victory": declared.turns [1, 7], with the marker in the June 6 box: met."""
    cond = {"side": "Axis", "declared": {"marker": "French Withdrawal", "box": r"June (\d+)", "turns": [1, 7]}}
    p = params("victory.conditions", conditions={"early": cond}, end=[{"result": "Axis victory", "all": ["early"]}])
    found = texts(judge(History((state(6, {US: "2020"}, {"French Withdrawal": "June 6"}),)), ctx(), p))
    assert found[0] == "French Withdrawal declared on turn 6 (turns 1-7): met"
    assert found[-1] == "if the game ended with this state: Axis victory (all of early)"


@pytest.mark.parametrize(
    "item, error",
    [
        ({**TEBESSA, "at": "end"}, r"items\[0\].before_declared: a window of turns applies to at = 'first-entry'"),
        ({"box": "Eliminated", "before_declared": WITHDRAWAL}, r"items\[0\].before_declared: only a place or exited"),
        ({**TEBESSA, "before_declared": {"marker": "Axis Withdrawal"}}, r"items\[0\].before_declared: missing box"),
    ],
)
def test_a_bad_before_declared_names_its_key(item: dict[str, Any], error: str) -> None:
    with pytest.raises(ValueError, match=error):
        tally(state(2, {PZ: "0306"}), items=[item])
