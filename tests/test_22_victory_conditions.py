"""Kasserine's 22.x parts that the general victory terms now express (victory_params.py):
points by a unit's value (`value`) and first entries scored only within a window of turns
(`turns`), each worked by hand from the seeds' words, with a second game for each.

Seed 000 22.11: "Each unit has a numerical Victory Point value equivalent to its total Combat
strengths (Attack plus Defense Strengths for non-Artillery units; Barrage, FPF and Defense
Strengths for Artillery units). Thus, a 5-3-12 armored battalion is worth 8 Victory Points."
22.12: "Victory Points are added ... when Allied units are eliminated. Victory Points are
subtracted ... when Axis units are eliminated." 22.41.1: "Thirty Victory Points (VP) the
instant the first Axis unit enters Sbeitla (hex 2714), if on or before Game-Turn Three."
22.41.3: "Five VP the instant the first Axis unit enters Sbeitla, if on Game-Turn Four
through Six."
"""

from __future__ import annotations

from typing import Any

import pytest
from test_22_victory import ART, INF, PZ, US, ctx, state
from test_victory_conditions import CTX, params, texts, u
from test_victory_conditions import state as plain_state

from vassal_adj.rules.history import History
from vassal_adj.rules.mechanisms.victory_conditions import judge, tally_of

VALUE = {"fields": ["attack", "defense"], "by_kind": {"artillery": ["barrage", "fpf", "defense"]}}
ELIMINATED = [
    {"box": "Eliminated", "units": {"sides": ["Allied"]}, "points": 1, "value": VALUE, "rule_ref": "22.41.5"},
    {"box": "Eliminated", "units": {"sides": ["Axis"]}, "points": -1, "value": VALUE, "rule_ref": "22.42.1"},
]
SBEITLA = [
    {"place": "2714", "name": "Sbeitla", "at": "first-entry", "turns": [1, 3], "points": 30, "rule_ref": "22.41.1"},
    {"place": "2714", "name": "Sbeitla", "at": "first-entry", "turns": [4, 6], "points": 5, "rule_ref": "22.41.3"},
]


def tally(*states: Any, items: list[dict[str, Any]]) -> list[str]:
    p = params("victory.tally", side="Axis", opponent="Allied", items=items)
    return texts(tally_of(History(states), ctx(), p))


def test_22_11_and_22_12_eliminated_units_score_their_value_for_and_against_the_axis() -> None:
    """The Axis 5-3-12 lost: -8 (22.12's example); the Allied 2-3-11: +5 (attack 2 + defense 3); the
    Allied artillery 1-2-3/2-10: barrage 1 + FPF 2 + defense 2 = +5, its range 3 not counted. Total 2."""
    found = tally(state(3, {PZ: "Eliminated", US: "Eliminated", ART: "Eliminated", INF: "2714"}), items=ELIMINATED)
    assert (
        "[22.41.5] 2 Allied units in Eliminated, value 10 (2-3-11 (1/6) attack 2 + defense 3; 1-2-3/2-10 (68) "
        "barrage 1 + fpf 2 + defense 2): +10 VP"
    ) in found
    assert "[22.42.1] 1 Axis units in Eliminated, value 8 (5-3-12 (2/7) attack 5 + defense 3): -8 VP" in found
    assert "Axis victory points: 2" in found


def test_nqos_sc2_a_french_step_eliminated_is_one_point_by_the_same_value() -> None:
    """Seed 003 Sc.2: "the Italian player receives 1 victory point for each French step eliminated": a
    two-step and a one-step French unit in the Eliminated box are worth 3, as their steps."""
    fr = [u("fr1", "French", steps=2), u("fr2", "French"), u("fr3", "French", steps=2)]
    s = plain_state(None, {fr[0]: "Eliminated", fr[1]: "Eliminated", fr[2]: "1501"})
    p = params(
        "victory.tally",
        side="Italian",
        items=[
            {
                "box": "Eliminated",
                "units": {"sides": ["French"]},
                "value": {"fields": ["steps"]},
                "points": 1,
                "rule_ref": "Sc.2",
            }
        ],
    )
    found = texts(tally_of(History((s,)), CTX, p))
    assert "[Sc.2] 2 French units in Eliminated, value 3 (fr1 steps 2; fr2 steps 1): +3 VP" in found
    assert "Italian victory points: 3" in found


def test_22_41_1_sbeitla_entered_on_turn_2_is_30_and_not_5() -> None:
    found = tally(state(2, {PZ: "2714"}), items=SBEITLA)
    assert "[22.41.1] Axis first entered Sbeitla (2714) (state 1, turn 2), within turns 1-3: +30 VP" in found
    assert "[22.41.3] Axis first entered Sbeitla (2714) (state 1, turn 2), outside turns 4-6: +0 VP" in found
    assert "Axis victory points: 30" in found


def test_22_41_3_entered_between_the_saves_of_turns_3_and_5_counts_5_and_says_why() -> None:
    """Not in Sbeitla on turn 3, in it on turn 5: entered on turn 4 or 5, both in 22.41.3's window, or on
    (the end of) turn 3, in 22.41.1's: the entry is dated to turn 5, and both say the doubt."""
    found = tally(state(3, {PZ: "3920"}), state(5, {PZ: "2714"}), items=SBEITLA)
    assert (
        "[22.41.3] Axis first entered Sbeitla (2714) (state 2, turn 5), within turns 4-6: +5 VP; cannot be "
        "told: it was entered after the state of turn 3: counted as entered on turn 5"
    ) in found
    assert (
        "[22.41.1] Axis first entered Sbeitla (2714) (state 2, turn 5), outside turns 1-3: +0 VP; cannot be "
        "told: it was entered after the state of turn 3: counted as entered on turn 5"
    ) in found
    assert "Axis victory points: 5" in found


def test_22_32_an_entry_after_turn_6_scores_nothing_and_the_condition_is_not_met() -> None:
    p = params("victory.conditions", conditions={"early": {"side": "Axis", **SBEITLA[1]}})
    found = texts(judge(History((state(7, {PZ: "3920"}), state(8, {PZ: "2714"}))), ctx(), p))
    assert found[0] == "[22.41.3] Axis first entered Sbeitla (2714) (state 2, turn 8), outside turns 4-6: not met"


def test_a_first_entry_whose_turn_is_unknown_cannot_be_told() -> None:
    found = tally(state(None, {PZ: "2714"}), items=SBEITLA[:1])
    assert (
        "[22.41.1] Axis first entered Sbeitla (2714) (state 1, turn None): its turn is unknown: +0 VP; cannot be "
        "told: whether it was within turns 1-3 cannot be told"
    ) in found


@pytest.mark.parametrize(
    "item, error",
    [
        ({"place": "2714", "turns": [1, 3], "points": 30}, r"items\[0\].turns: a window of turns applies to at = "),
        ({"place": "2714", "at": "first-entry", "turns": [3], "points": 30}, r"items\[0\].turns: expected \[first, "),
        ({"place": "2714", "value": VALUE, "points": 1}, r"items\[0\].value: only a box or exited item takes it"),
        ({"box": "Eliminated", "turns": [1, 3]}, r"items\[0\].turns: only a place item takes it"),
        ({"box": "Eliminated", "value": {"fields": ["strength"]}}, r"items\[0\].value.fields: expected a list of "),
        (
            {"box": "Eliminated", "value": {"fields": ["attack"], "by_kind": {"artillery": []}}},
            r"items\[0\].value.by_kind.artillery: expected a list of",
        ),
        ({"exited": {"box": "Exited", "count": 3}, "value": VALUE}, r"items\[0\].value: points by value go per unit"),
    ],
)
def test_a_bad_value_or_window_names_its_key(item: dict[str, Any], error: str) -> None:
    with pytest.raises(ValueError, match=error):
        tally(state(2, {PZ: "2714"}), items=[item])


def test_nqos_sc4_a_declaration_window_is_read_as_a_first_entry_window() -> None:
    """Seed 003 Sc.4 "on June 7th or earlier" (declared.turns) and 22.41.1's window are one reader."""
    p = params(
        "victory.conditions",
        conditions={"w": {"side": "French", "declared": {"marker": "Withdrawal", "box": r"June (\d+)", "turns": [7]}}},
    )
    with pytest.raises(ValueError, match=r"conditions.w.declared.turns: expected \[first, last\], got \[7\]"):
        judge(History((plain_state(None, {}),)), CTX, p)
