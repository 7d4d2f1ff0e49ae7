"""A finding that cites an enemy zone of control (19.2, 19.21) names and lists the enemy units
exerting it (issue 10, "the ZOC hex and the enemy unit exerting it are marked"): after the mover
in `Finding.units`, and in the message, "enemy zone of control at 2213 (of Allied 1-2-7 (-/168)
in 2212) stops movement". Who exerts a zone is `zoc.exerted_by`, drawn as `enemy_zoc` draws the
zones: the same terrain, hexside and weather limits (16.13, 20.0).

Hexes are `Hex.from_raw(column, row)` (odd columns half a hex lower): (c, r) touches (c, r-1) and
(c, r+1), and in the next column (c+1, r) and, for an odd c, (c+1, r+1), for an even c, (c+1, r-1).
"""

from __future__ import annotations

import json

from click.testing import CliRunner
from conftest import REPO
from kasserine_rules import KASSERINE_ZOC

from vassal_adj.cli import main
from vassal_adj.load import load_module, load_save
from vassal_adj.model.geometry.hexes import Hex, hexside
from vassal_adj.model.state import GameState, Position
from vassal_adj.model.terrain import TerrainMap, TerrainVocabulary
from vassal_adj.model.units import Unit
from vassal_adj.parse.builder import game_pieces
from vassal_adj.rules.mechanisms.movement import default_label
from vassal_adj.rules.mechanisms.zoc import ZocRules, enemy_zoc, exerted_by, zoc_sources

EXAMPLE = REPO / "modules" / "kasserine" / "example"
VOC = TerrainVocabulary(terrain={"clear", "rough"}, features={"stream", "bridge"})

PANZER = Unit("g1", "5-3-12 (2/7)", "Axis", "armor", 12, attack=5, defense=3, mechanized=True)
US_INF = Unit("a1", "1-2-7 (1/26)", "Allied", "infantry", 7, attack=1, defense=2)
US_INF2 = Unit("a2", "1-3-7 (19)", "Allied", "infantry", 7, attack=1, defense=3)
NO_ZOC = Unit("a3", "1-1-6 (Guinet)", "Allied", "infantry", 6, attack=1, defense=1, flags=frozenset({"no-zoc"}))


def H(c: int, r: int) -> Hex:
    return Hex.from_raw(c, r)


def game(*placed: tuple[Unit, Hex], weather: str | None = None) -> GameState:
    return GameState({u.id: u for u, _ in placed}, {u.id: Position(h) for u, h in placed}, weather=weather)


def test_19_2_both_units_around_a_hex_exert_its_zone_and_are_named() -> None:
    # 0505 touches 0504 and 0506 in its own column: an Allied unit in each controls it.
    state = game((PANZER, H(5, 2)), (US_INF, H(5, 4)), (US_INF2, H(5, 6)))
    assert H(5, 5) in enemy_zoc(state, TerrainMap(VOC), "Axis", ZocRules())
    assert exerted_by(state, TerrainMap(VOC), H(5, 5), "Axis", ZocRules()) == ("a1", "a2")
    whose = zoc_sources(state, TerrainMap(VOC), "Axis", ZocRules(), default_label)
    assert whose(H(5, 5)) == (("a1", "a2"), " (of Allied 1-2-7 (1/26) in 0504 and Allied 1-3-7 (19) in 0506)")
    # 0503 is next to 0504 only; the Axis panzer's own zone is not an enemy's to the Axis.
    assert whose(H(5, 3)) == (("a1",), " (of Allied 1-2-7 (1/26) in 0504)")
    assert exerted_by(state, TerrainMap(VOC), H(5, 3), "Allied", ZocRules()) == ("g1",)


def test_20_0_a_unit_across_an_unbridged_stream_in_poor_weather_is_not_named() -> None:
    # 20.0: "Zones of Control do not extend across unbridged Stream hexsides during any Phase of Poor
    # Weather Game-Turns": a1 beyond the stream does not control 0505 then; a2 beyond a bridged one does.
    terrain = TerrainMap(
        VOC, side_features={hexside(H(5, 4), H(5, 5)): {"stream"}, hexside(H(5, 6), H(5, 5)): {"stream", "bridge"}}
    )
    for weather, exerting in (("poor", ("a2",)), ("good", ("a1", "a2"))):
        state = game((US_INF, H(5, 4)), (US_INF2, H(5, 6)), weather=weather)
        assert exerted_by(state, terrain, H(5, 5), "Axis", KASSERINE_ZOC) == exerting, weather


def test_a_unit_that_exerts_no_zone_is_not_named() -> None:
    state = game((NO_ZOC, H(5, 4)), (US_INF, H(5, 6)))
    assert exerted_by(state, TerrainMap(VOC), H(5, 5), "Axis", ZocRules()) == ("a1",)
    assert exerted_by(state, TerrainMap(VOC), H(5, 3), "Axis", ZocRules()) == ()


def test_the_units_named_are_exactly_the_zones_drawn() -> None:
    # Over a 12 x 12 board with rough (16.13: zones extend into it), a stream in poor weather and
    # off-map hexes: a hex is enemy-controlled exactly when some enemy unit exerts a zone into it.
    board = [H(c, r) for c in range(1, 13) for r in range(1, 13)]
    terrain = TerrainMap(
        VOC,
        hex_terrain={H(6, 6): {"rough"}},
        side_features={hexside(H(6, 6), H(6, 7)): {"stream"}},
        off_map=frozenset({H(1, 1), H(1, 2)}),
    )
    state = game((US_INF, H(6, 7)), (US_INF2, H(2, 2)), (NO_ZOC, H(9, 9)), (PANZER, H(10, 3)), weather="poor")
    zones = enemy_zoc(state, terrain, "Axis", KASSERINE_ZOC)
    assert zones and {h for h in board if exerted_by(state, terrain, h, "Axis", KASSERINE_ZOC)} == zones & set(board)


def test_19_2_the_example_log_names_the_enemy_units_of_each_zone() -> None:
    # scripts/example_logs.py LOG_FAULTS: 2/69 dropped at 2213 in the zone of -/168 at 2212; 501 starts in
    # the zone of 1/13 at 2514; 2/5's short way stops in the zone of -/168 at 2211.
    log, module = EXAMPLE / "turn4-axis.vlog", EXAMPLE / "Kasserine.vmod"
    out = CliRunner().invoke(main, ["verify", str(log), "--module", str(module), "--format", "json"]).output
    names = {p.id: p.name for p in game_pieces(load_save(log).root, load_module(module), str(log))}
    zoc = {
        names[f["units"][0]]: f
        for f in json.loads(out)["findings"]
        if f["rule"] == "kasserine:19.2" and f["severity"] == "error"
    }
    assert {k: [names[u] for u in f["units"][1:]] for k, f in zoc.items()} == {
        "3-4-11 (2/69)": ["1-2-7 (-/168)"],
        "6-5-10 (501)": ["2-1-14 (1/13)"],
        "5-3-12 (2/5)": ["1-2-7 (-/168)"],
    }
    assert (
        "leg 2, 2213 -> 2314: enemy zone of control at 2213 (of Allied 1-2-7 (-/168) in 2212) stops movement"
        in zoc["3-4-11 (2/69)"]["message"]
    )
    assert "enemy zone of control at 2613 (of Allied 2-1-14 (1/13) in 2514)" in zoc["6-5-10 (501)"]["message"]
    assert "enemy zone of control at 2211 (of Allied 1-2-7 (-/168) in 2212)" in zoc["5-3-12 (2/5)"]["message"]
