"""The readings of supply (17.11-17.13, 20.2) and movement the seed leaves open, made explicit (issue 9): each is a
parameter of the rule, a named `[assumptions]` entry of the Kasserine pack with its source, used by the code and
shown in reports.

- what obstructs a supply path ("unobstructed", 17.11/17.12): `supply_obstruction`;
- whether the initial path may pass through road or trail hexes that lead to no source (17.11 "traced from the
  unit ... to a Trail or Road hex"; 17.13): `supply_initial_crosses_network`;
- streams in poor weather (20.2 "No units may move or attack across unbridged Stream hexsides"; the pack README:
  closed to supply paths too): `supply_closed_hexsides`;
- the one-hex minimum move: `minimum_move`.
"""

from __future__ import annotations

from itertools import pairwise
from pathlib import Path

import pytest

import vassal_adj
from vassal_adj.model.geometry.hexes import Hex, hexside, neighbors
from vassal_adj.model.geometry.maps import board_hex_layouts
from vassal_adj.model.state import GameState, Position
from vassal_adj.model.terrain import Place, TerrainMap, TerrainVocabulary
from vassal_adj.model.units import Unit
from vassal_adj.packs import load_pack
from vassal_adj.rules.engine import RuleContext, adjudicate
from vassal_adj.rules.mechanisms.implementations import supply_trace
from vassal_adj.rules.mechanisms.movement_rules import movement_rules
from vassal_adj.rules.mechanisms.supply import SupplyRules, supply_field
from vassal_adj.rules.registry import Params, load_builtin_rules
from vassal_adj.rules.results import Severity

ROOT = Path(__file__).resolve().parents[1]
PACK = ROOT / "modules" / "kasserine"
VOC = TerrainVocabulary(terrain={"clear"}, features={"road", "trail", "stream", "bridge"})
US = Unit("a1", "1-2-7 (3/39)", "Allied", "infantry", 7, attack=1, defense=2)
PANZER = Unit("x1", "5-3-12 (2/7)", "Axis", "armor", 12, attack=5, defense=3, mechanized=True)
READINGS = ("supply_obstruction", "supply_initial_crosses_network", "supply_closed_hexsides", "minimum_move")


@pytest.fixture(scope="module")
def kasserine():
    lp = load_pack(PACK)
    module = vassal_adj.load_module(PACK / "example" / "Kasserine.vmod")
    layout = board_hex_layouts(module.maps["Main Map"].boards["Kasserine"])[0]
    return lp, RuleContext(lp.terrain(layout), layout, "kasserine")


def rule(lp, name: str):
    return next(r for r in lp.pack.rules if r.name == name)


def at(ctx: RuleContext, label: str) -> Position:
    return Position(ctx.layout.hex_of(label), label)


# -- each reading is an assumption of the pack, used by the rules, listed in reports ------------------------------
def test_each_reading_is_a_named_assumption_with_source_and_rule(kasserine) -> None:
    lp, _ = kasserine
    for name in READINGS:
        a = lp.pack.assumptions[name]
        assert a.source and a.rule, name
    for side in ("axis_supply", "allied_supply"):
        assumed = rule(lp, side).assumed
        assert assumed["obstruction"] == "supply_obstruction"
        assert assumed["initial_crosses_network"] == "supply_initial_crosses_network"
        assert assumed["closed_in_weather"] == "supply_closed_hexsides"
    assert rule(lp, "movement").assumed["minimum_move"] == "minimum_move"
    assert movement_rules(rule(lp, "movement").params).minimum_move is False


def test_reports_list_each_reading_and_the_rules_using_it(kasserine) -> None:
    lp, ctx = kasserine
    report = adjudicate(GameState({"a1": US}, {"a1": at(ctx, "0512")}, 3, "allied-movement", "good"), lp, ctx)
    used = {name: report.assumptions[name]["used_by"] for name in READINGS}
    assert used["supply_obstruction"] == ["allied_supply.obstruction", "axis_supply.obstruction"]
    assert used["supply_closed_hexsides"] == ["allied_supply.closed_in_weather", "axis_supply.closed_in_weather"]
    assert used["minimum_move"] == ["movement.minimum_move"]


# -- 20.2: streams in poor weather ------------------------------------------------------------------------------------
def allied_supply_findings(lp, ctx, weather: str, label: str) -> list:
    state = GameState({"a1": US}, {"a1": at(ctx, label)}, 6 if weather == "poor" else 3, "allied-movement", weather)
    return [
        f
        for f in adjudicate(state, lp, ctx).findings
        if f.rule == "kasserine:17.12" and f.units == ("a1",) and f.hexes == (label,)
    ]


def test_20_2_no_supply_path_across_an_unbridged_stream_in_poor_weather(kasserine) -> None:
    # The example map: the trail 0312-0413-0414 crosses the Oued at the unbridged stream hexsides 0313/0413 and
    # 0413/0414. In good weather an Allied unit at 0413 traces 2 hexes (0413 0412 0312) to the Tebessa road and is
    # in supply (17.12: three hexes or fewer). In poor weather (turns 6 and 7, 20.4) "No units may move or attack
    # across unbridged Stream hexsides" (20.2), and the pack reads supply paths the same way (README): the nearest
    # way round is 4 hexes, so it is out of supply.
    lp, ctx = kasserine
    (good,) = allied_supply_findings(lp, ctx, "good", "0413")
    assert good.severity == Severity.INFO and "is in supply: 2 hexes (0413 0412 0312)" in good.message
    (poor,) = allied_supply_findings(lp, ctx, "poor", "0413")
    assert poor.severity == Severity.WARNING
    assert poor.message.endswith(
        "is out of supply: nearest road/trail hex connected to an Allied supply source "
        "(or a source hex) is 4 hexes away; rule allows 3 [17.12]"
    )


def test_a_bridge_keeps_a_stream_open_and_the_network_part_obeys_it_too() -> None:
    # A road from the source 0000 east along row 0; a stream crosses it between columns 3 and 4. The unit stands
    # on the road at column 6: in poor weather the road part may not cross the unbridged stream either.
    road = [Hex.from_raw(c, 0) for c in range(8)]
    cut = hexside(road[3], road[4])
    sides = {hexside(a, b): {"road"} for a, b in pairwise(road)}
    rules = SupplyRules(initial=2, closed_sides=frozenset({"stream"}), rule_ref="17.12")
    board = frozenset(Hex.from_raw(c, r) for c in range(8) for r in range(2))
    for bridged, supplied in ((False, False), (True, True)):
        feats = dict(sides)
        feats[cut] = {"road", "stream"} | ({"bridge"} if bridged else set())
        fld = supply_field(TerrainMap(VOC, side_features=feats, board=board), "Allied", rules, {road[0]}, frozenset())
        assert fld.supplied(road[6]) is supplied
    open_ = SupplyRules(initial=2, rule_ref="17.12")  # good weather: nothing closed
    feats = {**sides, cut: {"road", "stream"}}
    assert supply_field(
        TerrainMap(VOC, side_features=feats, board=board), "Allied", open_, {road[0]}, frozenset()
    ).supplied(road[6])


# -- 17.11 "unobstructed" -------------------------------------------------------------------------------------------
ROAD = [Hex.from_raw(c, 5) for c in range(10)]
ROAD_MAP = TerrainMap(
    VOC,
    side_features={hexside(a, b): {"road"} for a, b in pairwise(ROAD)},
    named_places=(Place("source", frozenset({"supply-source"}), (ROAD[0],)),),
)


def trace(state: GameState, terrain: TerrainMap = ROAD_MAP, **params) -> list:
    p = Params(
        {
            **load_builtin_rules().lookup("supply.trace").defaults(),
            "side": "Allied",
            "initial": 3,
            "sources": ("source",),
            **params,
        }
    )
    return supply_trace(state, RuleContext(terrain, None, "kasserine"), p)


def of(found: list, uid: str):
    (f,) = [f for f in found if f.units == (uid,) and f.hexes]
    return f


def test_17_11_obstruction_reading_enemy_zoc_negated_by_a_friendly_unit() -> None:
    # An Axis panzer next to the road controls the road hexes round it (its zone of control, the six hexes round
    # it). A US unit on the road at its east end traces west along it to the source; US units stand in every road
    # hex the panzer controls. SPI reading (supply_obstruction): a friendly unit negates enemy zones of control for
    # tracing supply, so the road stays open; without that reading it is cut, and the unit is 6 hexes or more from
    # the part of the road still joined to the source (17.12 allows 3).
    panzer_at = Hex.from_raw(4, 6)
    held = [h for h in ROAD if h in neighbors(panzer_at)]
    assert held and ROAD[9] not in held
    friends = {f"f{i}": Unit(f"f{i}", f"1-2-7 ({i})", "Allied", "infantry", 7) for i in range(len(held))}
    state = GameState(
        {"a1": US, "x1": PANZER, **friends},
        {"a1": Position(ROAD[9]), "x1": Position(panzer_at), **{f"f{i}": Position(h) for i, h in enumerate(held)}},
    )
    assert of(trace(state), "a1").severity == Severity.INFO
    strict = of(trace(state, obstruction={"friendly_negates_zoc": False}), "a1")
    assert strict.severity == Severity.WARNING and "out of supply" in strict.message
    assert (
        of(trace(state, obstruction={"enemy_zoc": False, "friendly_negates_zoc": False}), "a1").severity
        == Severity.INFO
    )


def test_the_obstruction_table_names_a_bad_key() -> None:
    state = GameState({"a1": US}, {"a1": Position(ROAD[2])})
    with pytest.raises(ValueError, match=r"obstruction\.enemy_unit: unknown key"):
        trace(state, obstruction={"enemy_unit": True})
    with pytest.raises(ValueError, match=r"obstruction\.enemy_zoc: expected true or false"):
        trace(state, obstruction={"enemy_zoc": "yes"})


# -- 17.11/17.13: may the initial path pass through road or trail hexes that lead to no source? ---------------------
def test_17_13_an_initial_path_across_a_trail_that_leads_nowhere_names_the_reading() -> None:
    # The road along row 5 leads to the source. A short trail 3,7-4,7-5,7 (joined to nothing) lies between it and a
    # US unit at 4,8. The shortest initial path, 4,8 -> 4,7 -> 4,6 -> road 4,5, is 3 hexes and enters the trail at
    # 4,7; every other way round the trail is longer than 3.
    trail = [Hex.from_raw(c, 7) for c in (2, 3, 4, 5, 6)]
    sides = {**ROAD_MAP.side_features, **{hexside(a, b): {"trail"} for a, b in pairwise(trail)}}
    terrain = TerrainMap(VOC, side_features=sides, named_places=ROAD_MAP.named_places)
    state = GameState({"a1": US}, {"a1": Position(Hex.from_raw(4, 8))})
    lenient = of(trace(state, terrain), "a1")
    assert lenient.severity == Severity.INFO and "is in supply: 3 hexes (raw 4,8 raw 4,7 " in lenient.message
    assert "only because an initial path may pass through road/trail hexes that lead to no source (" in lenient.message
    assert lenient.message.endswith("the unit would be out of supply (parameter initial_crosses_network)")
    literal = of(trace(state, terrain, initial_crosses_network=False), "a1")
    assert literal.severity == Severity.WARNING and "is out of supply" in literal.message
    assert (
        "if an initial path could pass through road/trail hexes that lead to no source, it would be in supply"
        in literal.message
    )
    # A unit with a way round the trail that is short enough is in supply by either reading, and says nothing.
    near = GameState({"a1": US}, {"a1": Position(Hex.from_raw(0, 7))})
    for cross in (True, False):
        f = of(trace(near, terrain, initial_crosses_network=cross), "a1")
        assert f.severity == Severity.INFO and "lead to no source" not in f.message
