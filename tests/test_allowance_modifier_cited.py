"""A move over an allowance that an allowance modifier set cites the rule that imposes it, not the
weather: seed 001 (Tunisia 1943), Campaign II: "To the turns 6 and 7, all the units of player
Italio-German are reduced to 3 movement points (or less according to the counter)".

Worked by hand on the example board (tests/tunisia_board.py): 5-5-8-8 PzGr 69 (10.Pz) prints 8 MP;
on turn 6 of Campaign II it has 3. From 2106 to 2506 along the main road (2106 2205 2306 2405
2506) is four clear hexes, 4 MP: one more than 3. The pack's rule in force is
movement_fuel_shortage (rule_ref "Campaign II"), and verify builds its movement rules with
turn_rules, which cite that rule for what its modifiers set.
"""

from __future__ import annotations

import dataclasses

from tunisia_board import LAYOUT, PACK, TERRAIN, H, state, unit

from vassal_adj.rules.engine import RuleContext
from vassal_adj.rules.mechanisms.movement import legal_path
from vassal_adj.rules.mechanisms.movement_rules import movement_rules
from vassal_adj.rules.mechanisms.turn_rules import turn_rules

PZGR_69 = unit("5-5-8-8 PzGr 69 (10.Pz)", "Axis")


def _move(rules) -> object:
    st = state({PZGR_69: "2106"}, turn=6, phase="axis-movement")
    return legal_path(st, TERRAIN, PZGR_69.id, H("2106"), H("2506"), rules, label=LAYOUT.label_of)


def test_campaign_ii_turn_6_four_mp_over_the_cap_of_three_cites_campaign_ii() -> None:
    ctx = RuleContext(TERRAIN, LAYOUT, PACK.id, scenario=PACK.scenarios["campaign-2"])
    tr = turn_rules(PACK, ctx)
    rules = tr.choices[("movement_fuel_shortage", "zoc")]
    assert rules.modifier_ref == "Campaign II"
    res = _move(rules)
    assert not res.ok and res.cost == 4 and res.rule_ref == "Campaign II"
    assert res.reason.startswith("needs 4 MP, allowance 3 (printed 8) [Campaign II]")


def test_within_the_cap_the_move_is_legal() -> None:
    rules = dataclasses.replace(movement_rules(PACK.rule("movement_fuel_shortage").params), modifier_ref="Campaign II")
    st = state({PZGR_69: "2106"}, turn=6, phase="axis-movement")
    res = legal_path(st, TERRAIN, PZGR_69.id, H("2106"), H("2405"), rules, label=LAYOUT.label_of)
    assert res.ok and res.cost == 3


def test_without_a_modifier_rule_the_movement_rule_is_cited() -> None:
    res = _move(movement_rules(PACK.rule("movement_fuel_shortage").params))
    assert not res.ok and res.rule_ref == "standard-movement"
    assert res.reason.startswith("needs 4 MP, allowance 3 (printed 8) [standard-movement]")
