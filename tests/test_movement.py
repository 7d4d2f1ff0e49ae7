"""Movement (rules/mechanisms/movement.py), each case drawn by hand from the rulebook's words.

Maps are tiny: most are a corridor down one column, H(5, 1), H(5, 2), ... (hex (c, r) touches
(c, r +- 1)), kept to that corridor with `area=` so no detour exists. Hex names in reasons are
`default_label`: raw column and row, "0506".

Terrain costs are NOT in the seed (they are on the standard rules' Terrain Effects Chart), so
these tests use explicit example values, not Kasserine's: clear 1 MP, rough 3 MP, stream
hexside +2 MP, road 1/2 MP a hex, trail 1 MP a hex.
"""

from __future__ import annotations

import dataclasses
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from kasserine_rules import KASSERINE_MOVEMENT

from vassal_adj.model.geometry.hexes import Hex, distance, hexside, neighbors
from vassal_adj.model.state import GameState, Position
from vassal_adj.model.terrain import TerrainMap, TerrainVocabulary
from vassal_adj.model.units import Unit
from vassal_adj.rules.mechanisms.movement import default_label, legal_path, reachable
from vassal_adj.rules.mechanisms.movement_params import MovementRules, allowance
from vassal_adj.rules.mechanisms.zoc import ZocRules, enemy_zoc

VOC = TerrainVocabulary(terrain={"clear", "rough", "town"}, features={"road", "trail", "stream", "bridge", "all-sea"})
EXAMPLE_COSTS = dict(
    terrain_costs={"clear": 1, "rough": 3}, hexside_costs={"stream": 2}, road_rates={"road": Fraction(1, 2), "trail": 1}
)
RULES = dataclasses.replace(KASSERINE_MOVEMENT, **EXAMPLE_COSTS)

PANZER = Unit("g1", "5-3-12 (2/7)", "Axis", "armor", 12, attack=5, defense=3, mechanized=True)
MECH_INF = Unit("g2", "2-2-9 (609)", "Axis", "mechanized-infantry", 9, attack=2, defense=2, mechanized=True)
GER_INF = Unit("g3", "2-1-7 (1/1)", "Axis", "infantry", 7, attack=2, defense=1)
US_INF = Unit("a1", "1-2-7 (1/26)", "Allied", "infantry", 7, attack=1, defense=2)
US_INF2 = Unit("a2", "1-3-7 (19)", "Allied", "infantry", 7, attack=1, defense=3)


def H(c: int, r: int) -> Hex:
    return Hex.from_raw(c, r)


COL = [H(5, r) for r in range(0, 12)]  # the corridor


def tmap(hexes: dict[Hex, set[str]] | None = None, sides: dict[tuple[Hex, Hex], set[str]] | None = None) -> TerrainMap:
    return TerrainMap(
        VOC, hex_terrain=hexes or {}, side_features={hexside(a, b): fs for (a, b), fs in (sides or {}).items()}
    )


def game(*placed: tuple[Unit, Hex], weather: str | None = None) -> GameState:
    return GameState({u.id: u for u, _ in placed}, {u.id: Position(h) for u, h in placed}, weather=weather)


def go(state: GameState, terrain: TerrainMap, unit: Unit, goal: Hex, rules: MovementRules = RULES, **kw):
    return legal_path(state, terrain, unit.id, None, goal, rules, area=COL, **kw)


def test_16_11_panzer_may_not_enter_rough() -> None:
    # 16.11: "No mechanized units, except Mechanized Infantry, may ever enter Rough terrain hexes."
    terrain = tmap({H(5, 3): {"rough"}})
    res = go(game((PANZER, H(5, 1))), terrain, PANZER, H(5, 3))
    assert not res.ok and res.rule_ref == "16.11"
    assert res.reason.startswith("rough hex 0503 prohibited to mechanized units")
    assert "16.12" in res.reason  # ... except through road or trail hexsides
    assert H(5, 3) not in reachable(game((PANZER, H(5, 2))), terrain, "g1", None, RULES, area=COL).costs


def test_16_11_mechanized_infantry_may() -> None:
    # 16.11: "... (except Mechanized Infantry) ..."; "Non-mechanized units may enter Rough
    # terrain hexes, paying the appropriate costs."
    terrain = tmap({H(5, 3): {"rough"}})
    for unit in (MECH_INF, GER_INF):
        res = go(game((unit, H(5, 1))), terrain, unit, H(5, 4))
        assert res.ok and res.cost == 1 + 3 + 1 and res.path == tuple(COL[1:5])


def test_16_12_rough_through_road_hexside() -> None:
    # 16.12: "All units may enter and exit Rough hexes through Road and Trail hexsides."
    rough = H(5, 3)
    terrain = tmap({rough: {"rough"}}, {(H(5, 2), rough): {"road"}, (rough, H(5, 4)): {"trail"}})
    res = go(game((PANZER, H(5, 2))), terrain, PANZER, H(5, 4))
    assert res.ok and res.cost == Fraction(1, 2) + 1
    # Out of the rough hex across a side with neither road nor trail: not allowed.
    terrain = tmap({rough: {"rough"}}, {(H(5, 2), rough): {"road"}})
    res = go(game((PANZER, rough)), terrain, PANZER, H(5, 4))
    assert not res.ok and res.rule_ref == "16.12"
    assert res.reason == "mechanized units leave rough hex 0503 only through road or trail hexsides [16.12]"


def test_17_13_road_needs_road_hexsides() -> None:
    # 17.13 reads "Road hexes connected by Road hexsides": hexes 0502 and 0503 both carry road
    # but the side between them does not, so that step is not a road move.
    a, b, c, d = COL[1:5]
    terrain = tmap(sides={(a, b): {"road"}, (c, d): {"road"}})
    res = go(game((GER_INF, a)), terrain, GER_INF, d)
    assert res.ok and res.cost == Fraction(1, 2) + 1 + Fraction(1, 2)
    connected = tmap(sides={(a, b): {"road"}, (b, c): {"road"}, (c, d): {"road"}})
    assert go(game((GER_INF, a)), connected, GER_INF, d).cost == Fraction(3, 2)


def test_road_negates_hexside_costs_and_terrain() -> None:
    a, b = COL[1:3]
    stream = tmap({b: {"rough"}}, {(a, b): {"stream"}})
    assert go(game((GER_INF, a)), stream, GER_INF, b).cost == 3 + 2  # hexside cost added
    bridged = tmap({b: {"rough"}}, {(a, b): {"stream", "road", "bridge"}})
    assert go(game((GER_INF, a)), bridged, GER_INF, b).cost == Fraction(1, 2)


def test_highest_single_cost_or_sum() -> None:
    a, b, terrain = COL[1], COL[2], tmap({COL[2]: {"rough", "town"}})
    rules = dataclasses.replace(RULES, terrain_costs={"rough": 3, "town": 2})
    assert go(game((GER_INF, a)), terrain, GER_INF, b, rules).cost == 3
    assert go(game((GER_INF, a)), terrain, GER_INF, b, dataclasses.replace(rules, combine="sum")).cost == 5


def test_costs_by_unit_class() -> None:
    a, b, terrain = COL[1], COL[2], tmap({COL[2]: {"rough"}})
    rules = dataclasses.replace(RULES, terrain_costs={"rough": {"mechanized": 4, "*": 2}}, prohibitions=())
    assert go(game((PANZER, a)), terrain, PANZER, b, rules).cost == 4
    assert go(game((GER_INF, a)), terrain, GER_INF, b, rules).cost == 2


def test_20_poor_weather_allowances_rulebook_examples() -> None:
    # 20.0: "allowances of all units with unmodified Movement Allowances of eight or more are
    # reduced by five ... seven or less are reduced by two ... Thus, a 2-3-11 during a Poor
    # Weather Game-Turn becomes a 2-3-6; a 1-2-3/1-7 becomes a 1-2-3/1-5."
    tank = Unit("t", "2-3-11 (1/6)", "Allied", "armor", 11, attack=2, defense=3, mechanized=True)
    gun = Unit("g", "1-2-3/1-7 (7)", "Allied", "artillery", 7, barrage=1, fpf=2, defense=3, range=1)
    assert allowance(tank, "poor", RULES) == 6 and allowance(gun, "Poor", RULES) == 5
    assert [allowance(dataclasses.replace(tank, movement=m), "poor", RULES) for m in (8, 7, 2, 1)] == [3, 5, 0, 0]
    for weather in ("good", "fair", None):
        assert allowance(tank, weather, RULES) == 11


def test_20_poor_weather_allowance_limits_the_path() -> None:
    # A 2-3-11 (6 MP in poor weather) cannot go 9 clear hexes.
    tank = Unit("t", "2-3-11 (1/6)", "Allied", "armor", 11, mechanized=True)
    state = game((tank, COL[1]), weather="poor")
    res = go(state, tmap(), tank, COL[10])
    assert not res.ok and res.cost == 9 and res.allowance == 6
    assert res.reason == "needs 9 MP, allowance 6 in poor weather [20.0]" and res.rule_ref == "20.0"
    assert go(state, tmap(), tank, COL[7]).ok
    assert go(game((tank, COL[1])), tmap(), tank, COL[10]).ok  # good weather: 11 MP


def test_20_no_moving_across_unbridged_stream_in_poor_weather() -> None:
    # 20.0, Poor: "No units may move or attack across unbridged Stream hexsides at any time."
    a, b, c = COL[1:4]
    terrain = tmap(sides={(a, b): {"stream", "bridge"}, (b, c): {"stream"}})
    res = go(game((GER_INF, a), weather="Poor"), terrain, GER_INF, c)
    assert not res.ok and res.rule_ref == "20.0"
    assert res.reason == "unbridged stream hexside 0502/0503 may not be crossed in poor weather [20.0]"
    assert go(game((GER_INF, a), weather="Poor"), terrain, GER_INF, b).ok  # the bridged one is fine
    assert go(game((GER_INF, a), weather="fair"), terrain, GER_INF, c).cost == 1 + 2 + 1 + 2


def test_20_zoc_not_across_unbridged_stream_in_poor_weather() -> None:
    # 20.0: "Zones of Control do not extend across unbridged Stream hexsides during any Phase
    # of Poor Weather Game-Turns": moving past an enemy across a stream does not stop the unit.
    a, b, c, d = COL[1:5]
    enemy_at = H(6, 3)  # touches b (0502) and c (0503) of the corridor, both across streams
    terrain = tmap(sides={(b, enemy_at): {"stream"}, (c, enemy_at): {"stream"}})
    poor = game((GER_INF, a), (US_INF, enemy_at), weather="poor")
    assert go(poor, terrain, GER_INF, d).ok
    fair = game((GER_INF, a), (US_INF, enemy_at), weather="fair")
    res = go(fair, terrain, GER_INF, d)
    assert not res.ok and res.reason == (
        "enemy zone of control at 0502 (of Allied 1-2-7 (1/26) in 0603) stops movement [standard-zoc]"
    )
    assert res.units == ("a1",)  # the unit exerting the zone the reason names


def test_16_13_zoc_extends_into_rough() -> None:
    # 16.13: ZOC "of all unit types extend into Rough terrain": a unit entering a rough hex
    # next to an enemy stops there.
    a, b, c = COL[1:4]
    state = game((GER_INF, a), (US_INF, H(6, 3)))
    res = go(state, tmap({b: {"rough"}}), GER_INF, c)
    assert not res.ok and res.reason == (
        "enemy zone of control at 0502 (of Allied 1-2-7 (1/26) in 0603) stops movement [standard-zoc]"
    )
    assert go(state, tmap({b: {"rough"}}), GER_INF, b).ok


# An Allied unit at 0604 controls 0503 and 0504 of the corridor.
WATCH = H(6, 4)


def test_zoc_stop_on_entering() -> None:
    # Standard rules: a unit entering an enemy zone of control must stop there.
    state = game((PANZER, COL[1]), (US_INF, WATCH))
    zoc = enemy_zoc(state, tmap(), "Axis", RULES.zoc)
    assert zoc & set(COL) == {COL[3], COL[4]}
    assert go(state, tmap(), PANZER, COL[3], zoc=zoc).ok
    res = go(state, tmap(), PANZER, COL[6], zoc=zoc)
    assert not res.ok and res.reason == (
        "enemy zone of control at 0503 (of Allied 1-2-7 (1/26) in 0604) stops movement [standard-zoc]"
    )
    assert res.units == ("a1",)
    assert res.path[-1] == COL[6]  # the attempt shown breaks only that rule


def test_sticky_zoc_may_not_leave() -> None:
    # 19.2 implies units may not normally leave an enemy ZOC ("sticky", the default mode).
    state = game((PANZER, COL[4]), (US_INF, WATCH))
    res = go(state, tmap(), PANZER, COL[7])
    assert not res.ok and res.rule_ref == "standard-zoc"
    assert res.reason.startswith(
        "unit starts in enemy zone of control at 0504 (of Allied 1-2-7 (1/26) in 0604) and may not leave it"
    )
    assert set(reachable(state, tmap(), "g1", None, RULES, area=COL).costs) == {COL[4]}


def test_no_zoc_to_zoc() -> None:
    # Mode "stop": may leave an enemy ZOC, but not straight into another enemy-controlled hex.
    rules = dataclasses.replace(RULES, zoc=ZocRules(mode="stop"))
    state = game((PANZER, COL[4]), (US_INF, WATCH))
    res = go(state, tmap(), PANZER, COL[3], rules)
    assert not res.ok and res.reason == (
        "may not move from enemy zone of control at 0504 (of Allied 1-2-7 (1/26) in "
        "0604) directly into another at 0503 (of Allied 1-2-7 (1/26) in 0604) "
        "[standard-zoc]"
    )
    assert res.units == ("a1",)  # named at both hexes, listed once
    assert go(state, tmap(), PANZER, COL[7], rules).ok
    assert go(state, tmap(), PANZER, COL[1], dataclasses.replace(rules, zoc=ZocRules(mode="none"))).ok


def test_19_2_withdrawal_may_leave_ezoc() -> None:
    # 19.2: during a Withdrawal "any and all of the Phasing Player's units may exit from Enemy
    # Zones of Control."
    state = game((PANZER, COL[4]), (US_INF, WATCH))
    assert not go(state, tmap(), PANZER, COL[7]).ok
    res = go(state, tmap(), PANZER, COL[7], withdrawal=True)
    assert res.ok and res.path == tuple(COL[4:8])


def test_19_21_may_not_reenter() -> None:
    # 19.21: "subsequent to exiting the Enemy-controlled hex, they may not re-enter an
    # Enemy-controlled hex during the Withdrawal Movement Phase. Units which do not begin the
    # Withdrawal Movement Phase in an Enemy-controlled hex may enter an Enemy-controlled hex."
    state = game((PANZER, COL[2]), (US_INF, H(6, 2)), (US_INF2, H(6, 7)))  # ZOC 0501-0502, 0506-0507
    res = go(state, tmap(), PANZER, COL[6], withdrawal=True)
    assert not res.ok and res.rule_ref == "19.21"
    assert res.reason == (
        "withdrawing unit left enemy zone of control and may not re-enter one at 0506 (of Allied "
        "1-3-7 (19) in 0607) [19.21]"
    )
    assert res.units == ("a2",)  # not a1, whose zone the unit left
    assert go(state, tmap(), PANZER, COL[5], withdrawal=True).ok
    assert not go(state, tmap(), PANZER, COL[1], withdrawal=True).ok  # 0501 is enemy-controlled too
    free = game((PANZER, COL[4]), (US_INF2, H(6, 7)))
    assert go(free, tmap(), PANZER, COL[6], withdrawal=True).ok


def test_minimum_move_one_hex() -> None:
    # A unit may always move one hex, whatever it costs, unless that step is prohibited.
    slow = Unit("s", "1-1-2/1-7 (75/27)", "Axis", "artillery", 2)
    terrain = tmap({COL[2]: {"rough"}, COL[3]: {"rough"}})
    res = go(game((slow, COL[1])), terrain, slow, COL[2])
    assert res.ok and res.cost == 3
    assert not go(game((slow, COL[1])), terrain, slow, COL[3]).ok
    assert not go(game((PANZER, COL[1])), terrain, PANZER, COL[2]).ok  # prohibited: no minimum move
    off = dataclasses.replace(RULES, minimum_move=False)
    assert go(game((slow, COL[1])), terrain, slow, COL[2], off).reason == "needs 3 MP, allowance 2 [standard-movement]"
    stuck = dataclasses.replace(slow, movement=1)  # 1 - 2 = 0 MP in poor weather: no move at all
    assert not go(game((stuck, COL[1]), weather="poor"), terrain, stuck, COL[2]).ok


def test_enemy_units_block_and_friendly_units_do_not() -> None:
    state, rules = game((GER_INF, COL[1]), (MECH_INF, COL[2]), (US_INF, COL[8])), dataclasses.replace(RULES, zoc=None)
    assert go(state, tmap(), GER_INF, COL[3], rules).ok
    res = go(state, tmap(), GER_INF, COL[8], rules)
    assert not res.ok and res.reason == "hex 0508 is occupied by enemy unit 1-2-7 (1/26) [standard-movement]"
    assert not go(state, tmap(), GER_INF, COL[9], rules).ok


def test_impassable_hexside_and_off_map() -> None:
    a, b = COL[1:3]
    rules = dataclasses.replace(RULES, hexside_costs={"all-sea": None})
    res = go(game((GER_INF, a)), tmap(sides={(a, b): {"all-sea"}}), GER_INF, b, rules)
    assert not res.ok and res.reason == "all-sea hexside 0501/0502 may not be crossed [standard-movement]"
    off = TerrainMap(VOC, off_map=frozenset({b}))
    assert go(game((GER_INF, a)), off, GER_INF, b).reason == "hex 0502 is off the map [standard-movement]"


def test_units_that_ignore_zoc_and_precomputed_zoc() -> None:
    scout = dataclasses.replace(PANZER, flags=frozenset({"ignores-zoc"}))
    assert go(game((scout, COL[1]), (US_INF, WATCH)), tmap(), scout, COL[6]).ok
    assert go(game((PANZER, COL[1]), (US_INF, WATCH)), tmap(), PANZER, COL[6], zoc=frozenset()).ok  # caller's set


def test_reachable_costs_and_paths() -> None:
    terrain = tmap({COL[3]: {"rough"}}, {(COL[1], COL[2]): {"road"}})
    reach = reachable(game((GER_INF, COL[1])), terrain, "g3", None, RULES, area=COL)
    assert reach.costs == {
        COL[1]: 0,
        COL[2]: Fraction(1, 2),
        COL[3]: Fraction(7, 2),
        COL[4]: Fraction(9, 2),
        COL[5]: Fraction(11, 2),
        COL[6]: Fraction(13, 2),
        COL[0]: 1,
    }
    assert reach.path_to(COL[4]) == tuple(COL[1:5]) and reach.path_to(COL[9]) == ()
    assert reach.allowance == 7
    assert legal_path(game((GER_INF, COL[1])), terrain, "g3", COL[1], COL[1], RULES).cost == 0


def test_labels_and_bad_calls() -> None:
    assert default_label(H(12, 5)) == "1205"
    res = go(game((PANZER, COL[1])), tmap({COL[2]: {"rough"}}), PANZER, COL[2], label=lambda h: "X")
    assert res.reason.startswith("rough hex X prohibited")
    with pytest.raises(KeyError):
        legal_path(game(), tmap(), "nobody", COL[1], COL[2], RULES)
    with pytest.raises(ValueError, match="not on the map"):
        legal_path(GameState({"g1": PANZER}, {}), tmap(), "g1", None, COL[2], RULES)


def test_movement_rules_are_checked_and_hashable() -> None:
    with pytest.raises(ValueError, match="positive"):
        MovementRules(terrain_costs={"rough": 0})
    with pytest.raises(ValueError, match="combine"):
        MovementRules(combine="max")  # "highest" or "sum"
    assert dataclasses.replace(KASSERINE_MOVEMENT, **EXAMPLE_COSTS) == RULES
    assert hash(RULES) == hash(dataclasses.replace(KASSERINE_MOVEMENT, **EXAMPLE_COSTS))
    assert RULES.scale == 2 and MovementRules(road_rates={"road": 1 / 3}).scale == 3


# -- properties: the search against a brute force over every simple path ------------------------
AREA = [H(c, r) for c in range(2, 6) for r in range(1, 4)]  # 12 hexes
SIDES = sorted({hexside(a, b) for a in AREA for b in neighbors(a) if b in AREA})
SIDE_CHOICES = [set(), set(), {"stream"}, {"road"}, {"trail"}, {"stream", "bridge"}, {"stream", "road"}]


def reference_step(
    terrain: TerrainMap,
    unit: Unit,
    a: Hex,
    b: Hex,
    start: Hex,
    zoc: frozenset[Hex],
    enemy: set[Hex],
    poor: bool,
    withdrawal: bool,
) -> Fraction | None:
    """The cost of one step straight from the rules' words (None: not allowed)."""
    if b not in AREA or b in enemy:
        return None
    fs = terrain.features_between(a, b)
    if a in zoc and a != start:  # entering an enemy ZOC ends movement
        return None
    if a == start and start in zoc and not withdrawal:  # may not leave (19.2 implies it)
        return None
    if withdrawal and start in zoc and b in zoc:  # 19.21
        return None
    if poor and "stream" in fs and "bridge" not in fs:  # 20.0
        return None
    rough = "rough" in terrain.terrain(a) or "rough" in terrain.terrain(b)
    if unit.mechanized and unit.kind != "mechanized-infantry" and rough and not fs & {"road", "trail"}:
        return None  # 16.11, 16.12
    cost = Fraction(3 if "rough" in terrain.terrain(b) else 1) + (2 if "stream" in fs else 0)
    if "road" in fs:
        cost = min(cost, Fraction(1, 2))
    if "trail" in fs:
        cost = min(cost, Fraction(1))
    return cost


def brute_force(step, start: Hex, allow: int) -> dict[Hex, Fraction]:
    """The cheapest cost to every hex over all simple paths within `allow` (bar a minimum move)."""
    best = {start: Fraction(0)}

    def walk(h: Hex, spent: Fraction, seen: frozenset[Hex]) -> None:
        for n in neighbors(h):
            c = step(h, n)
            if n in seen or c is None:
                continue
            total = spent + c
            if total > allow and not (h == start and allow >= 1):
                continue
            best[n] = min(best.get(n, total), total)
            if total <= allow:
                walk(n, total, seen | {n})

    walk(start, Fraction(0), frozenset({start}))
    return best


@st.composite
def scenarios(draw):
    rough = draw(st.sets(st.sampled_from(AREA), max_size=5))
    sides = {s: draw(st.sampled_from(SIDE_CHOICES)) for s in SIDES}
    terrain = TerrainMap(
        VOC, hex_terrain={h: {"rough"} for h in rough}, side_features={s: fs for s, fs in sides.items() if fs}
    )
    kind = draw(st.sampled_from([PANZER, MECH_INF, GER_INF]))
    unit = dataclasses.replace(kind, movement=draw(st.integers(1, 6)))
    start = draw(st.sampled_from(AREA))
    enemies = draw(st.lists(st.sampled_from([h for h in AREA if h != start]), max_size=2, unique=True))
    placed = [(unit, start)] + [(dataclasses.replace(US_INF, id=f"e{i}"), h) for i, h in enumerate(enemies)]
    weather = draw(st.sampled_from(["good", "poor"]))
    return terrain, unit, start, game(*placed, weather=weather), draw(st.booleans()), draw(st.sampled_from(AREA))


@settings(max_examples=200, deadline=None)
@given(scenarios())
def test_search_matches_brute_force(scenario) -> None:
    terrain, unit, start, state, withdrawal, goal = scenario
    zoc = enemy_zoc(state, terrain, unit.side, RULES.zoc)
    enemy, poor = {h for h in state.occupied() if h != start}, state.weather == "poor"

    def step(a: Hex, b: Hex) -> Fraction | None:
        return reference_step(terrain, unit, a, b, start, zoc, enemy, poor, withdrawal)

    allow = allowance(unit, state.weather, RULES)
    best = brute_force(step, start, allow)
    reach = reachable(state, terrain, unit.id, None, RULES, withdrawal=withdrawal, area=AREA)
    assert dict(reach.costs) == best
    res = legal_path(state, terrain, unit.id, None, goal, RULES, withdrawal=withdrawal, area=AREA)
    assert res.ok == (goal in best)
    if not res.ok:
        assert res.reason and res.rule_ref and f"[{res.rule_ref}]" in res.reason  # a reason may name several
        return
    path = res.path
    assert path[0] == start and path[-1] == goal
    assert all(distance(a, b) == 1 for a, b in zip(path, path[1:], strict=False))  # connected
    steps = [step(a, b) for a, b in zip(path, path[1:], strict=False)]
    assert None not in steps and sum(steps, Fraction(0)) == res.cost == best[goal]  # no cheaper path exists
    assert reach.path_to(goal)[-1] == goal


def test_16_11_a_shortcut_through_rough_is_named_when_the_way_round_is_too_long() -> None:
    # A wall of rough across a 3-wide strip, open at one end: the panzer's straight line crosses it
    # (16.11 bars that), the legal way round costs more than its allowance. The finding names the
    # rule the short way breaks, not only the allowance.
    strip = [H(c, r) for c in (4, 5, 6) for r in range(0, 12)]
    wall = {H(c, 5): {"rough"} for c in (4, 5)}  # (6, 5) stays open
    slow = dataclasses.replace(PANZER, movement=6)
    cheap_rough = dataclasses.replace(RULES, terrain_costs={"clear": 1, "rough": 1})
    res = legal_path(game((slow, H(4, 2))), tmap(wall), "g1", None, H(4, 8), cheap_rough, area=strip)
    assert not res.ok and res.rule_ref == "16.11"
    assert res.reason.startswith("the legal way needs ")
    # the only way within 6 MP crosses the wall at 0405 (entering and leaving rough off the roads)
    assert res.reason.endswith(
        "; every way within the allowance breaks a rule (16.11 closes them all): "
        "0402 0403 0404 0405 0406 0407 0408 (6 MP): rough hex 0405 prohibited to mechanized "
        "units except through road or trail hexsides (16.12) [16.11], mechanized units leave "
        "rough hex 0405 only through road or trail hexsides [16.12]"
    )


def test_movement_params_doctest() -> None:
    """The module's own example (a 20.3-style weather bracket: 11 MP in Poor weather is 6) runs."""
    import doctest

    from vassal_adj.rules.mechanisms import movement_params

    result = doctest.testmod(movement_params)
    assert result.attempted > 0 and result.failed == 0
