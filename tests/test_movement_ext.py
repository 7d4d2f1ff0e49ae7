"""Movement extensions (RULES-MAP N7), each case worked by hand from a seed's words.

Impassable hexsides, cost modifiers by weather, the cost of leaving a hex, compound class keys
and allowance modifiers, given as `movement.allowance` parameters the way a pack writes them
and turned into `MovementRules` by `movement_rules`. Maps are a corridor down one column,
H(5, 1), H(5, 2), ... (searches kept to it with `area=`); hex names are `default_label`.
Costs the seeds do not print (they are on the games' terrain charts) are example values,
said so where used.
"""

from __future__ import annotations

from vassal_adj.model.geometry.hexes import Hex, hexside
from vassal_adj.model.state import GameState, Position
from vassal_adj.model.terrain import TerrainMap, TerrainVocabulary
from vassal_adj.model.units import Unit
from vassal_adj.rules.mechanisms.movement import legal_path
from vassal_adj.rules.mechanisms.movement_params import allowance
from vassal_adj.rules.mechanisms.movement_rules import movement_rules
from vassal_adj.rules.registry import load_builtin_rules

VOC = TerrainVocabulary(
    terrain={"clear", "desert", "minefield"}, features={"all-sea", "strait", "bridge", "wadi", "road"}
)
DEFAULTS = load_builtin_rules().lookup("movement.allowance").defaults()


def H(c: int, r: int) -> Hex:
    return Hex.from_raw(c, r)


COL = [H(5, r) for r in range(12)]


def rules(**given: object):
    """The MovementRules of a movement.allowance rule whose pack wrote `given` (ZOC off: no enemy here)."""
    return movement_rules({**DEFAULTS, "zoc_mode": "none", **given})


def tmap(hexes: dict[Hex, set[str]] | None = None, sides: dict[tuple[Hex, Hex], set[str]] | None = None) -> TerrainMap:
    return TerrainMap(
        VOC, hex_terrain=hexes or {}, side_features={hexside(a, b): fs for (a, b), fs in (sides or {}).items()}
    )


def move(unit: Unit, start: Hex, goal: Hex, terrain: TerrainMap, r, weather: str | None = None):
    state = GameState({unit.id: unit}, {unit.id: Position(start)}, weather=weather)
    return legal_path(state, terrain, unit.id, None, goal, r, area=COL)


INF = Unit("i1", "4-4-6", "Allied", "infantry", 6)
ARMOURED_CAR = Unit("w1", "AC 1", "Axis", "wheeled", 12)
IN_COLUMN = Unit("w2", "AC 2", "Axis", "wheeled", 12, flags=frozenset({"column"}))
LEG = Unit("l1", "Inf 1", "Axis", "leg", 4)


def test_kesselring_13_4_4_all_sea_hexside_never_crossed() -> None:
    """Kesselring's War 13.4.4 (4): "All-Sea Hexsides: ground units may not cross all-sea hexsides."
    Given as a high hexside cost, the minimum move ("a unit may always move one hex") crosses it
    (RULES-MAP 9); as `impassable_sides` no move does, not even with a bridge feature on the side."""
    terrain = tmap(sides={(H(5, 1), H(5, 2)): {"all-sea"}})
    as_cost = move(INF, H(5, 1), H(5, 2), terrain, rules(hexside_costs={"all-sea": 99}))
    assert as_cost.ok  # why a cost cannot say it
    res = move(INF, H(5, 1), H(5, 2), terrain, rules(impassable_sides=("all-sea",), impassable_rule="13.4.4"))
    assert not res.ok and res.rule_ref == "13.4.4"
    assert res.reason == "all-sea hexside 0501/0502 may not be crossed [13.4.4]"
    bridged = tmap(sides={(H(5, 1), H(5, 2)): {"all-sea", "bridge"}})
    assert not move(INF, H(5, 1), H(5, 2), bridged, rules(impassable_sides=("all-sea",))).ok
    # 13.4.4 (3): the Strait of Messina costs two more MP: a cost, and crossed.
    strait = tmap(sides={(H(5, 1), H(5, 2)): {"strait"}})
    crossed = move(INF, H(5, 1), H(5, 2), strait, rules(hexside_costs={"strait": 2}, impassable_sides=("all-sea",)))
    assert crossed.ok and crossed.cost == 3


def test_nqos_3_2_sand_storm_doubles_terrain_costs() -> None:
    """No Question of Surrender 3.2: "Sand storms ... terrain costs are doubled." and 4.1: "Wheeled
    Units can enter the hex for 5 movement points if not in Column". Two desert hexes cost an
    armoured car 10 MP in clear weather, 20 in a sand storm (more than its 12)."""
    desert = tmap({H(5, 2): {"desert"}, H(5, 3): {"desert"}})
    r = rules(terrain_costs={"desert": {"wheeled": 5}}, cost_modifiers=({"weather": ["Sandstorm"], "multiply": 2},))
    assert move(ARMOURED_CAR, H(5, 1), H(5, 3), desert, r, "clear").cost == 10
    storm = move(ARMOURED_CAR, H(5, 1), H(5, 3), desert, r, "sandstorm")
    assert not storm.ok and storm.reason.startswith("needs 20 MP, allowance 12")


def test_nqos_4_3_leaving_a_minefield_doubles_the_next_hex_plus_one_in_mist() -> None:
    """No Question of Surrender 4.3: "The movement cost for all Units to enter a minefield is the
    same as desert terrain." and "When leaving a minefield, the costs ... to enter the next hex are
    doubled (and if the weather is mist, increase the movement cost by 1 before doubling ...)".
    The rulebook's example: the armoured car enters the minefield for 5 MP, then the next hex "for a
    cost of 10MP (5 MP doubled for leaving a minefield)": 15 in all; in mist (5 + 1) x 2 = 12: 17."""
    terrain = tmap({H(5, 2): {"minefield"}, H(5, 3): {"desert"}})
    r = rules(
        terrain_costs={"desert": {"wheeled": 5}, "minefield": {"wheeled": 5}},
        exit_multiplier={"minefield": 2},
        cost_modifiers=({"weather": ["mist"], "leaving": ["minefield"], "add": 1},),
    )
    fast = Unit("w3", "AC 3", "Axis", "wheeled", 20)
    assert move(fast, H(5, 1), H(5, 2), terrain, r).cost == 5
    assert move(fast, H(5, 1), H(5, 3), terrain, r, "clear").cost == 15
    assert move(fast, H(5, 1), H(5, 3), terrain, r, "mist").cost == 17
    assert move(fast, H(5, 3), H(5, 1), terrain, r, "clear").cost == 5 + 1 * 2  # into the minefield, then out to clear


def test_nqos_4_1_in_column_costs_by_compound_class() -> None:
    """No Question of Surrender 4.1: "A Leg Unit can enter the hex for 2 movement points if not in
    Column, or 1 movement point if in Column. Wheeled Units ... 5 movement points if not in Column,
    3 movement points if in Column." Keyed "wheeled&column", the unit in Column pays 3, the other 5."""
    desert = {"leg": 2, "leg&column": 1, "wheeled": 5, "wheeled&column": 3}
    r = rules(terrain_costs={"desert": desert})
    terrain = tmap({H(5, 2): {"desert"}})
    assert move(ARMOURED_CAR, H(5, 1), H(5, 2), terrain, r).cost == 5
    assert move(IN_COLUMN, H(5, 1), H(5, 2), terrain, r).cost == 3
    assert move(LEG, H(5, 1), H(5, 2), terrain, r).cost == 2


def test_tunisia_2_1_flooded_wadi_costs_more_but_a_road_nullifies_it() -> None:
    """Tunisia 1943, 2.1: wadis "are considered as flooded during the first three turns of the 1st
    Campaign. Two modifiers are therefore given on the table for this terrain" and "The utilization
    of a road nullifies the cost in movement points of a river or of a wadi." The table's two
    values are not in the seed: example values +1 MP dry, +3 flooded (a `set` in that weather)."""
    terrain = tmap(sides={(H(5, 1), H(5, 2)): {"wadi"}})
    r = rules(
        hexside_costs={"wadi": 1},
        road_rates={"road": 1},
        cost_modifiers=({"weather": ["flooded"], "features": ["wadi"], "set": 3},),
    )
    assert move(INF, H(5, 1), H(5, 2), terrain, r, "dry").cost == 2
    assert move(INF, H(5, 1), H(5, 2), terrain, r, "flooded").cost == 4
    on_road = tmap(sides={(H(5, 1), H(5, 2)): {"wadi", "road"}})
    assert move(INF, H(5, 1), H(5, 2), on_road, r, "flooded").cost == 1


def test_tunisia_9_2_out_of_supply_one_mp_em_two() -> None:
    """Tunisia 1943, 9.2: an out of supply unit "cannot use more than one movement point." and "An
    out of supply EM ... may only use two movement points." The first modifier that matches applies,
    so the EM's row comes first; a unit in supply keeps its printed allowance."""
    r = rules(
        allowance_modifiers=(
            {"kinds": ["em"], "flags": ["out-of-supply"], "cap": 2},
            {"flags": ["out-of-supply"], "cap": 1},
        )
    )
    cut = frozenset({"out-of-supply"})
    assert allowance(Unit("u1", "2-2-8", "Axis", "infantry", 8, flags=cut), None, r) == 1
    assert allowance(Unit("e1", "EM", "Axis", "em", 8, flags=cut), None, r) == 2
    assert allowance(Unit("u2", "2-2-8", "Axis", "infantry", 8), None, r) == 8
    state = GameState({"u1": Unit("u1", "2-2-8", "Axis", "infantry", 8, flags=cut)}, {"u1": Position(H(5, 1))})
    assert not legal_path(state, tmap(), "u1", None, H(5, 3), r, area=COL).ok


def test_tunisia_campaign_ii_axis_units_reduced_to_3_mp() -> None:
    """Tunisia 1943, Campaign II: "To the turns 6 and 7, all the units of player Italio-German are
    reduced to 3 movement points (or less according to the counter)." A cap by side (the turns
    are the rule's `when`, RULES-MAP N1): an Axis 8 becomes 3, an Axis 2 stays 2, the Allies keep 8."""
    r = rules(allowance_modifiers=({"sides": ["Axis"], "cap": 3},))
    assert allowance(Unit("g", "x", "Axis", "armor", 8), None, r) == 3
    assert allowance(Unit("g2", "x", "Axis", "infantry", 2), None, r) == 2
    assert allowance(Unit("a", "x", "Allied", "armor", 8), None, r) == 8


def test_tunisia_4_2_a_combat_unit_enters_a_lone_enemy_em_for_two_more_mp() -> None:
    """Tunisia 1943, 4.1: "It is forbidden to move onto an hex occupied by a hostile unit, except if it
    was an EM (see 4.2)." 4.2: "Consuming two of it movement points in addition of cost of terrain, a
    combat unit could enter a hex occupied by a hostile EM not stacked with an enemy combat unit."
    Infantry two clear hexes from a lone Axis EM: 1 + (1 + 2) = 4 MP. With Axis infantry stacked on
    the EM the hex is closed; an Allied EM (no combat unit) may not enter either."""
    r = rules(enterable_enemy={"kinds": ["em"], "extra_cost": 2, "not_by": ["em"]})
    em = Unit("e1", "EM 10 Pz", "Axis", "em", 8)
    guard = Unit("g1", "3-3-6", "Axis", "infantry", 6)
    allied_em = Unit("e2", "EM 1 Arm", "Allied", "em", 8)

    def go(mover: Unit, *enemy: Unit):
        state = GameState(
            {u.id: u for u in (mover, *enemy)},
            {mover.id: Position(H(5, 1)), **{u.id: Position(H(5, 3)) for u in enemy}},
        )
        return legal_path(state, tmap(), mover.id, None, H(5, 3), r, area=COL)

    alone = go(INF, em)
    assert alone.ok and alone.cost == 4
    stacked = go(INF, em, guard)
    assert not stacked.ok and stacked.reason.startswith("hex 0503 is occupied by enemy unit")
    assert not go(allied_em, em).ok
    assert not legal_path(
        GameState({"i1": INF, "e1": em}, {"i1": Position(H(5, 1)), "e1": Position(H(5, 3))}),
        tmap(),
        "i1",
        None,
        H(5, 3),
        rules(),
        area=COL,
    ).ok  # without the parameter: 4.1's ban
