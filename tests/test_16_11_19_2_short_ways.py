"""A move whose legal way is longer than the allowance names every rule that closes a way within it
(rules/mechanisms/movement.py `legal_path`, rules/mechanisms/path_faults.py), each case worked by hand from the
Kasserine
rulebook (seed 000):

16.11: "No mechanized units, except Mechanized Infantry, may ever enter Rough terrain hexes."
16.12: "All units may enter and exit Rough hexes through Road and Trail hexsides."
19.2 (with the standard rules): a unit entering an enemy zone of control stops there; "In all other
respects, the effects of Enemy Zones of Control fully apply."

The board, built here in axial hexes (q, r), kept to three corridors with `area=` (every hex clear,
1 MP, unless made rough; rough costs 3 MP; no road, trail or stream). A panzer with 9 MP goes from
S = (0, 0) to G = (0, 6):

- way W, straight down q = 0: S w1 w2 w3 w4 w5 G, 6 hexes (w3 = (0, 3));
- way V, down q = 2: S v1 v2 v3 v4 v5 v6 v7 v8 G, 9 hexes, 9 MP (v4 = (2, 2), v5 = (2, 3));
- way U, round by q = -3: S u1 ... u10 G, 11 hexes, 11 MP: legal, but 2 MP over the allowance.

The corridors touch only next to S and G (v1 touches w1, u10 touches w5), so no way mixes their
middles. An Allied unit at (3, 2), off the corridors, controls v4 and v5 (its neighbours
(2, 2) and (2, 3)); one at (-1, 2) controls w1 and w2 (its neighbours (0, 1) and (0, 2)).
"""

from __future__ import annotations

import dataclasses

from kasserine_rules import KASSERINE_MOVEMENT, KASSERINE_ZOC

from vassal_adj.model.geometry.hexes import Hex
from vassal_adj.model.state import GameState, Position
from vassal_adj.model.terrain import TerrainMap, TerrainVocabulary
from vassal_adj.model.units import Unit
from vassal_adj.rules.mechanisms.movement import legal_path
from vassal_adj.rules.mechanisms.movement_params import MovementRules

VOC = TerrainVocabulary(terrain={"clear", "rough"}, features={"road", "trail"})
RULES = dataclasses.replace(
    KASSERINE_MOVEMENT, terrain_costs={"clear": 1, "rough": 3}, zoc=dataclasses.replace(KASSERINE_ZOC, rule_ref="19.2")
)

S, G = Hex(0, 0), Hex(0, 6)
W = [Hex(0, r) for r in range(1, 6)]
V = [Hex(1, 0), Hex(2, 0), Hex(2, 1), Hex(2, 2), Hex(2, 3), Hex(2, 4), Hex(2, 5), Hex(1, 6)]
U = [Hex(-1, 0), Hex(-2, 0), *(Hex(-3, r) for r in range(1, 7)), Hex(-2, 6), Hex(-1, 6)]
AT_V, AT_W = Hex(3, 2), Hex(-1, 2)  # where the Allied units controlling v4 and v5, w1 and w2 stand
NAMES = {S: "S", G: "G", AT_V: "x", AT_W: "y"} | {
    h: f"{way}{n}" for way, hexes in (("w", W), ("v", V), ("u", U)) for n, h in enumerate(hexes, 1)
}
WAY_W, WAY_V = "S w1 w2 w3 w4 w5 G", "S v1 v2 v3 v4 v5 v6 v7 v8 G"

PANZER = Unit("g1", "5-3-12 (2/5)", "Axis", "armor", 9, attack=5, defense=3, mechanized=True)
BY_V = Unit("a1", "1-2-7 (-/168)", "Allied", "infantry", 7, attack=1, defense=2)
BY_W = Unit("a2", "1-2-7 (1/26)", "Allied", "infantry", 7, attack=1, defense=2)


def move(rough: set[Hex], enemies: dict[Unit, Hex], ways: list[list[Hex]], rules: MovementRules = RULES):
    placed = {PANZER: S} | enemies
    state = GameState({u.id: u for u in placed}, {u.id: Position(h) for u, h in placed.items()})
    terrain = TerrainMap(VOC, hex_terrain={h: {"rough"} for h in rough})
    area = {S, G, *(h for way in ways for h in way)}
    return legal_path(state, terrain, PANZER.id, None, G, rules, area=area, label=NAMES.get)


def test_the_board_is_as_drawn() -> None:
    # all clear, no enemy: W is legal (6 MP); without W, V (9 MP); with U alone, 11 MP over the allowance
    assert (move(set(), {}, [W, V, U]).cost, " ".join(map(NAMES.get, move(set(), {}, [W, V, U]).path))) == (6, WAY_W)
    assert move(set(), {}, [V, U]).ok and move(set(), {}, [V, U]).cost == 9
    res = move(set(), {}, [U])
    assert not res.ok and res.cost == 11 and res.reason == "needs 11 MP, allowance 9 [standard-movement]"


def test_16_11_and_19_2_each_close_a_short_way_and_both_are_named() -> None:
    # W crosses rough w3 (3 MP: 8 MP in all, 16.11 and 16.12); V goes on from v4 in the zone of control of
    # the unit at (3, 2) (9 MP, 19.2). The legal way is U, 11 MP. W is the cheaper short way: 16.11 is cited.
    res = move({W[2]}, {BY_V: AT_V}, [W, V, U])
    assert not res.ok and res.cost == 11 and res.rule_ref == "16.11"
    assert res.reason == (
        "the legal way needs 11 MP, allowance 9 [standard-movement]; every way within the allowance breaks a rule: "
        f"{WAY_W} (8 MP): rough hex w3 prohibited to mechanized units except through road or trail hexsides (16.12) "
        "[16.11], mechanized units leave rough hex w3 only through road or trail hexsides [16.12]; "
        f"{WAY_V} (9 MP): enemy zone of control at v4 (of Allied 1-2-7 (-/168) in x) stops movement [19.2]"
    )
    assert res.units == ("a1",)  # the unit exerting the zone the reason names, to be marked with the mover


def test_16_11_alone_is_named_when_only_rough_closes_the_short_way() -> None:
    res = move({W[2]}, {}, [W, U])
    assert not res.ok and res.rule_ref == "16.11"
    assert "[16.11]" in res.reason and "[19.2]" not in res.reason and "zone of control" not in res.reason
    assert res.reason.startswith(
        "the legal way needs 11 MP, allowance 9 [standard-movement]; every way within the "
        f"allowance breaks a rule (16.11 closes them all): {WAY_W} (8 MP): rough hex w3"
    )


def test_19_2_alone_is_named_when_only_a_zone_of_control_closes_the_short_way() -> None:
    res = move(set(), {BY_V: AT_V}, [V, U])
    assert not res.ok and res.rule_ref == "19.2"
    assert res.reason == (
        "the legal way needs 11 MP, allowance 9 [standard-movement]; every way within the allowance "
        f"breaks a rule (19.2 closes them all): {WAY_V} (9 MP): enemy zone of control at v4 (of "
        "Allied 1-2-7 (-/168) in x) stops movement [19.2]"
    )


def test_a_rule_that_closes_every_short_way_is_cited_though_the_cheapest_breaks_another_first() -> None:
    # Rough at 1 MP (a pack value; the seed gives no costs). W (6 MP) goes on from w1 in the zone of control of
    # the unit at (-1, 2) (19.2), then crosses rough w3 (16.11); V (9 MP) crosses rough v5 (16.11). Every way
    # within 9 MP enters rough off the roads, so 16.11 is the fault whichever way was meant; both are named.
    cheap_rough = dataclasses.replace(RULES, terrain_costs={"clear": 1, "rough": 1})
    res = move({W[2], V[4]}, {BY_W: AT_W}, [W, V, U], cheap_rough)
    assert not res.ok and res.rule_ref == "16.11"
    assert "every way within the allowance breaks a rule (16.11 closes them all): " in res.reason
    assert (
        f"{WAY_W} (6 MP): enemy zone of control at w1 (of Allied 1-2-7 (1/26) in y) stops movement [19.2], "
        "rough hex w3 prohibited to "
        "mechanized units"
    ) in res.reason
    assert f"; {WAY_V} (9 MP): rough hex v5 prohibited to mechanized units" in res.reason


def test_19_2_cited_when_the_zone_of_control_way_is_cheaper_and_no_rule_closes_all() -> None:
    # The obstacles swapped, rough at 1 MP: W (6 MP) goes on from w1 in the zone of control of the unit at
    # (-1, 2) (19.2); V (9 MP) crosses rough v5 (16.11). Neither rule closes both: the cheaper W's is cited.
    cheap_rough = dataclasses.replace(RULES, terrain_costs={"clear": 1, "rough": 1})
    res = move({V[4]}, {BY_W: AT_W}, [W, V, U], cheap_rough)
    assert not res.ok and res.rule_ref == "19.2"
    assert res.reason == (
        "the legal way needs 11 MP, allowance 9 [standard-movement]; every way within the allowance breaks a rule: "
        f"{WAY_W} (6 MP): enemy zone of control at w1 (of Allied 1-2-7 (1/26) in y) stops movement [19.2]; "
        f"{WAY_V} (9 MP): rough hex v5 "
        "prohibited to mechanized units except through road or trail hexsides (16.12) [16.11], mechanized units "
        "leave rough hex v5 only through road or trail hexsides [16.12]"
    )
