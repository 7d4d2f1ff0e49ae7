"""Registered weather, movement-allowance and ZOC rules (movement_rules.py), by the seed's words.

20.1: Good weather, nine Axis Ground Support Points; Fair, four; Poor, none. 20.2: in Poor
weather no unit moves or attacks across unbridged Stream hexsides and zones of control do
not extend across them. 20.3: allowances of eight or more lose five MP, seven or less lose
two: "a 2-3-11 ... becomes a 2-3-6; a 1-2-3/1-7 becomes a 1-2-3/1-5".
"""

from __future__ import annotations

from types import MappingProxyType
from typing import Any

from vassal_adj.model.geometry.hexes import Hex, hexside
from vassal_adj.model.state import GameState, Position
from vassal_adj.model.terrain import TerrainMap, TerrainVocabulary
from vassal_adj.model.units import Unit
from vassal_adj.rules.engine import RuleContext
from vassal_adj.rules.mechanisms.movement import legal_path
from vassal_adj.rules.mechanisms.movement_rules import (
    movement_allowance,
    movement_rules,
    weather_effects,
    zoc_engaged,
)
from vassal_adj.rules.registry import Params, load_builtin_rules

VOC = TerrainVocabulary(
    terrain=frozenset({"clear", "rough"}), features=frozenset({"road", "trail", "stream", "bridge"})
)
A, B, C = Hex.from_raw(5, 5), Hex.from_raw(5, 6), Hex.from_raw(5, 7)
STREAMS = TerrainMap(
    VOC, side_features={hexside(A, B): frozenset({"stream"}), hexside(B, C): frozenset({"stream", "bridge"})}
)
ARMOR = Unit("g1", "2-3-11 (1/6)", "Allied", "armor", 11, attack=2, defense=3, mechanized=True)
ART = Unit("a1", "1-2-3/1-7 (7)", "Allied", "artillery", 7, barrage=1, fpf=2, range=3, defense=1)
PANZER = Unit("x1", "5-3-12 (2/7)", "Axis", "armor", 12, attack=5, defense=3, mechanized=True)


def params(impl: str, **given: Any) -> Params:
    return Params({**load_builtin_rules().lookup(impl).defaults(), **given})


def ctx(terrain: TerrainMap = STREAMS) -> RuleContext:
    return RuleContext(terrain, None, "kasserine")


def state(
    *placed: tuple[Unit, Hex | None], weather: str | None = "poor", turn: int | None = 6, phase: str | None = None
) -> GameState:
    return GameState(
        {u.id: u for u, _ in placed},
        {u.id: Position(h) if h else Position(box="Turn 9") for u, h in placed},
        turn,
        phase,
        weather,
    )


POOR = MappingProxyType({"poor": ((8, -5), (0, -2))})


def test_20_3_rulebook_examples_2_3_11_becomes_2_3_6_and_1_7_becomes_1_5() -> None:
    found = movement_allowance(
        state((ARMOR, A), (ART, None)), ctx(), params("movement.allowance", weather_allowance=POOR, weather_rule="20.3")
    )
    assert [f.message for f in found] == [
        "Poor weather: movement allowances are reduced: 11->6 (1 unit), 7->5 (1 unit) [20.3]"
    ]


def test_20_3_good_weather_changes_nothing() -> None:
    assert (
        movement_allowance(
            state((ARMOR, A), weather="good"), ctx(), params("movement.allowance", weather_allowance=POOR)
        )
        == []
    )


def test_20_1_ground_support_points_by_weather_and_20_2_closed_streams() -> None:
    p = params(
        "weather.effects",
        ground_support={"good": 9, "fair": 4, "poor": 0},
        closed_hexsides={"poor": ["stream"]},
        table_rule="20.4",
        support_rule="20.1",
        hexside_rule="20.2",
    )
    poor = weather_effects(state(), ctx(), p)[0].message
    assert poor == (
        "Turn 6: poor weather [20.4]; Axis ground support points: 0 [20.1]; no movement, attack or "
        "zone of control across stream hexsides without a bridge (1 on this map) [20.2]"
    )
    good = weather_effects(state(weather="good", turn=2), ctx(), p)[0].message
    assert good == "Turn 2: good weather [20.4]; Axis ground support points: 9 [20.1]"
    assert (
        "fair weather [20.4]; Axis ground support points: 4"
        in weather_effects(state(weather="fair"), ctx(), p)[0].message
    )
    assert "not known" in weather_effects(state(weather=None), ctx(), p)[0].message


def test_20_2_movement_rules_close_unbridged_streams_in_poor_weather() -> None:
    rules = movement_rules(
        params(
            "movement.allowance", impassable_in_weather={"poor": ["stream"]}, weather_allowance=POOR, zoc_mode="none"
        )
    )
    poor = legal_path(state((ARMOR, A)), STREAMS, "g1", A, B, rules)
    assert poor.ok and poor.cost == 2 and len(poor.path) == 3  # around the stream, not across it
    assert legal_path(state((ARMOR, B)), STREAMS, "g1", B, C, rules).path == (B, C)  # the bridged stream
    good = legal_path(state((ARMOR, A), weather="good"), STREAMS, "g1", A, B, rules)
    assert (good.path, good.cost) == ((A, B), 1)


def test_standard_rules_units_in_enemy_zoc_must_attack_in_their_combat_phase() -> None:
    p = params(
        "zoc.engaged",
        combat_phases={"allied-combat": "Allied"},
        movement_phases={"allied-movement": "Allied"},
        withdrawal_rule="19.2",
    )
    near = state((ARMOR, B), (PANZER, C), weather="good", phase="allied-combat")
    found = zoc_engaged(near, ctx(), p)
    assert [f.message for f in found] == [
        "1 Allied unit in an enemy zone of control must attack this combat phase (standard rules; assumption "
        "zoc_mode): 2-3-11 (1/6) (raw 5,6)"
    ]
    moving = zoc_engaged(state((ARMOR, B), (PANZER, C), weather="good", phase="allied-movement"), ctx(), p)
    assert "may not leave it this movement phase unless the side withdraws (19.2)" in moving[0].message
    assert zoc_engaged(state((ARMOR, B), (PANZER, C), phase="axis-movement"), ctx(), p) == []


def test_20_2_no_zoc_across_an_unbridged_stream_in_poor_weather() -> None:
    p = params("zoc.engaged", combat_phases={"allied-combat": "Allied"}, zoc_blocked_in_weather={"poor": ["stream"]})
    across = state((ARMOR, A), (PANZER, B), phase="allied-combat")  # A|B is an unbridged stream
    assert zoc_engaged(across, ctx(), p) == []
    assert len(zoc_engaged(state((ARMOR, A), (PANZER, B), weather="good", phase="allied-combat"), ctx(), p)) == 1
