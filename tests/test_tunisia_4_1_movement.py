"""Tunisia 1943 movement: 2.1 (roads, rivers, wadis flooded in Campaign I), 4.1, 4.2, 9.2 and Campaign
II's fuel shortage, through the pack's rules `movement`, `movement_flooded` and
`movement_fuel_shortage` (modules/tunisia-1943/pack.toml), worked by hand from the seed's words
(../shared/seeds/001_9467744547cf47c5.txt) on the example board, with its counters.

Costs are the pack's assumptions (the seed prints no terrain table): clear 1, mountain 3, a river or
dry wadi hexside +1, a flooded wadi +2, a road step 1. Hexes: 2012-2612 clear, no hexside feature;
1013/1014 a wadi hexside; 0914-1014 a main road across a wadi; 1305/1306 a river hexside; 1414 a
mountain; 2403 impassable.
"""

from __future__ import annotations

from tunisia_board import OUT_OF_SUPPLY, PACK, TERRAIN, H, move, state, unit

from vassal_adj.rules.mechanisms.movement_params import allowance
from vassal_adj.rules.mechanisms.movement_rules import movement_rules
from vassal_adj.rules.scope import Situation, in_force

PZGR_69 = unit("5-5-8-8 PzGr 69 (10.Pz)", "Axis")
EM_10 = unit("EM 3-8 (10.Pz)", "Axis")
INF_133 = unit("4-5-5-7 133 Inf (34 ID)", "Allied")
INF_133_OOS = unit("4-5-5-7 133 Inf (34 ID)", "Allied", **OUT_OF_SUPPLY)
EM_34 = unit("EM 2-5 (34 ID)", "Allied")
ARMD_22 = unit("7-5-9-8 22 Armd Bde (7 Armd)", "Allied")
ROW = ["2012", "2112", "2212", "2312", "2412", "2512", "2612"]


def mp(rule: str, who) -> int:
    return allowance(who, None, movement_rules(PACK.rule(rule).params))


def test_4_1_a_unit_moves_up_to_its_movement_points() -> None:
    """4.1: "the active player could move his units up to their maximum movement points". The US
    133rd (movement 5) goes five clear hexes (5 MP), not six."""
    st = state({INF_133: "2012"})
    five = move("movement", st, INF_133, ROW[:6])
    assert five.ok and five.cost == 5
    assert not move("movement", st, INF_133, ROW).ok


def test_4_1_one_hex_always_except_into_impassable_terrain() -> None:
    """4.1: "Whatever the cost of movement into a terrain type, an unit can always move one hex. (except
    impassable terrain ...)". The 133rd out of supply (1 MP, 9.2) enters the mountain 1414 (3 MP) from
    1314; no unit enters Lake Bizerte (2403), however many MP it has."""
    assert "mountain" in TERRAIN.terrain(H("1414"))
    assert move("movement", state({INF_133_OOS: "1314"}), INF_133_OOS, ["1314", "1414"]).ok
    r = move("movement", state({INF_133: "2404"}), INF_133, ["2404", "2403"])
    assert not r.ok and r.rule_ref == "4.1"


def test_2_1_a_wadi_costs_more_when_flooded_and_a_road_nullifies_it() -> None:
    """2.1: "wadis ... are considered as flooded during the first three turns of the 1st Campaign. Two
    modifiers are therefore given on the table for this terrain"; "The utilization of a road nullifies
    the cost in movement points of a river or of a wadi." Across the wadi 1013/1014: 1 + 1 = 2 MP dry,
    1 + 2 = 3 MP flooded; along the main road 0914-1014 over the same wadi: 1 MP either way."""
    st = state({INF_133: "1013"})
    assert move("movement", st, INF_133, ["1013", "1014"]).cost == 2
    assert move("movement_flooded", st, INF_133, ["1013", "1014"]).cost == 3
    by_road = state({INF_133: "0914"})
    assert "main-road" in TERRAIN.features_between(H("0914"), H("1014"))
    assert move("movement", by_road, INF_133, ["0914", "1014"]).cost == 1
    assert move("movement_flooded", by_road, INF_133, ["0914", "1014"]).cost == 1


def test_2_1_a_river_hexside_costs_one_more() -> None:
    """2.1 and the terrain table (assumed: a river hexside +1 MP): 1305 to 1306 across the Medjerda,
    with no road, costs 2 MP."""
    assert move("movement", state({INF_133: "1305"}), INF_133, ["1305", "1306"]).cost == 2


def test_4_1_no_entry_into_an_enemy_combat_unit_hex() -> None:
    """4.1: "It is forbidden to move onto an hex occupied by a hostile unit, except if it was an EM"."""
    st = state({PZGR_69: "2212", INF_133: "2312"})
    assert not move("movement", st, PZGR_69, ["2212", "2312"]).ok


def test_4_2_a_combat_unit_enters_a_lone_enemy_em_for_two_more_mp() -> None:
    """4.2: "Consuming two of it movement points in addition of cost of terrain, a combat unit could enter
    a hex occupied by a hostile EM not stacked with an enemy combat unit." The PzGr 69 enters 2312, clear,
    holding the 34th's EM alone: 1 + 2 = 3 MP. With the 133rd there too, it may not; nor may an EM."""
    alone = state({PZGR_69: "2212", EM_34: "2312"})
    r = move("movement", alone, PZGR_69, ["2212", "2312"])
    assert r.ok and r.cost == 3
    assert not move("movement", state({PZGR_69: "2212", EM_34: "2312", INF_133: "2312"}), PZGR_69, ["2212", "2312"]).ok
    assert not move("movement", state({EM_10: "2212", EM_34: "2312"}), EM_10, ["2212", "2312"]).ok


def test_9_2_out_of_supply_one_movement_point_an_em_two() -> None:
    """9.2: an out of supply unit "cannot use more than one movement point"; "An out of supply EM ... may
    only use two movement points." Read from the module's Out of Supply layer (units.toml)."""
    assert mp("movement", INF_133) == 5
    assert mp("movement", INF_133_OOS) == 1
    assert mp("movement", unit("EM 2-5 (34 ID)", "Allied", **OUT_OF_SUPPLY)) == 2
    assert move("movement", state({INF_133_OOS: "2012"}), INF_133_OOS, ROW[:2]).ok
    assert not move("movement", state({INF_133_OOS: "2012"}), INF_133_OOS, ROW[:3]).ok


def test_campaign_ii_axis_units_reduced_to_3_mp_on_turns_6_and_7() -> None:
    """Campaign II: "To the turns 6 and 7, all the units of player Italio-German are reduced to 3 movement
    points (or less according to the counter)." An Axis regiment (8) and EM (8) have 3; an out-of-supply
    one keeps 9.2's 1; the Allied 22nd Armoured Brigade keeps its 9."""
    assert mp("movement_fuel_shortage", PZGR_69) == 3
    assert mp("movement_fuel_shortage", EM_10) == 3
    assert mp("movement_fuel_shortage", unit("5-5-8-8 PzGr 69 (10.Pz)", "Axis", **OUT_OF_SUPPLY)) == 1
    assert mp("movement_fuel_shortage", ARMD_22) == 9


def first_movement_rule(scenario: str, turn: int, phase: str) -> str:
    """The movement rule `verify` judges a phase's moves by: the first in pack order in force."""
    at = Situation(scenario, turn, phase, phase.split("-")[0].title())
    mover = [r for r in PACK.rules if r.impl == "movement.allowance"]
    return next(r.name for r in mover if in_force(r.when, at).status == "yes")


def test_which_movement_rule_judges_each_turn() -> None:
    """The fuel shortage holds in Campaign II on turns 6-7 only; the flood in Campaign I on turns 1-3
    only ("during the first three turns of the 1st Campaign"); the general rule otherwise."""
    assert first_movement_rule("campaign-2", 6, "axis-movement") == "movement_fuel_shortage"
    assert first_movement_rule("campaign-2", 7, "allied-movement") == "movement_fuel_shortage"
    assert first_movement_rule("campaign-2", 5, "axis-movement") == "movement"
    assert first_movement_rule("campaign-1", 3, "allied-movement") == "movement_flooded"
    assert first_movement_rule("campaign-1", 4, "axis-movement") == "movement"
    assert first_movement_rule("campaign-2", 2, "axis-movement") == "movement"
