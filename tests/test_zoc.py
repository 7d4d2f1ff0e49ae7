"""Zones of control (rules/mechanisms/zoc.py), each case drawn by hand from the rulebook's words.

Hexes are built with `Hex.from_raw(column, row)`: VASSAL's raw index, odd columns half a hex
lower. Hex (c, r) touches (c, r-1) and (c, r+1) in its own column.
"""

from __future__ import annotations

import dataclasses

import pytest
from kasserine_rules import KASSERINE_ZOC

from vassal_adj.model.geometry.hexes import Hex, hexside, neighbors
from vassal_adj.model.state import GameState, Position
from vassal_adj.model.terrain import TerrainMap, TerrainVocabulary
from vassal_adj.model.units import Unit
from vassal_adj.rules.mechanisms.zoc import ZocRules, enemy_zoc, unit_classes

VOC = TerrainVocabulary(terrain={"clear", "rough"}, features={"road", "trail", "stream", "bridge", "crest", "all-sea"})


def H(c: int, r: int) -> Hex:
    return Hex.from_raw(c, r)


def tmap(
    hexes: dict[Hex, set[str]] | None = None,
    sides: dict[tuple[Hex, Hex], set[str]] | None = None,
    off_map: set[Hex] | None = None,
) -> TerrainMap:
    return TerrainMap(
        VOC,
        hex_terrain=hexes or {},
        side_features={hexside(a, b): fs for (a, b), fs in (sides or {}).items()},
        off_map=frozenset(off_map or ()),
    )


def game(*placed: tuple[Unit, Hex], weather: str | None = None) -> GameState:
    return GameState({u.id: u for u, _ in placed}, {u.id: Position(h) for u, h in placed}, weather=weather)


PANZER = Unit("g1", "5-3-12 (2/7)", "Axis", "armor", 12, attack=5, defense=3, mechanized=True)
US_INF = Unit("a1", "1-2-7 (1/26)", "Allied", "infantry", 7, attack=1, defense=2)
US_ART = Unit("a2", "1-2-3/2-10 (68)", "Allied", "artillery", 10, barrage=1, fpf=2, defense=3)


def test_every_unit_exerts_zoc_into_the_six_hexes_around_it() -> None:
    # Standard rules (1976 SPI quadrigame, as publicly described): every unit has a ZOC.
    state = game((PANZER, H(5, 5)))
    assert enemy_zoc(state, tmap(), "Allied", ZocRules()) == frozenset(neighbors(H(5, 5)))


def test_a_side_is_not_hindered_by_its_own_zoc() -> None:
    state = game((PANZER, H(5, 5)), (US_INF, H(9, 9)))
    assert enemy_zoc(state, tmap(), "Axis", ZocRules()) == frozenset(neighbors(H(9, 9)))


def test_16_13_zoc_extends_into_rough() -> None:
    # 16.13: "Zones of Control of all unit types extend into Rough terrain".
    rough = H(5, 6)
    state = game((US_INF, H(5, 5)))
    assert rough in enemy_zoc(state, tmap({rough: {"rough"}}), "Axis", KASSERINE_ZOC)
    # A game whose ZOC stops at rough says so with a parameter.
    blocked = ZocRules(blocked_terrain=frozenset({"rough"}))
    assert rough not in enemy_zoc(state, tmap({rough: {"rough"}}), "Axis", blocked)


def test_20_zoc_not_across_unbridged_stream_in_poor_weather() -> None:
    # 20.0, Poor weather: "Zones of Control do not extend across unbridged Stream hexsides
    # during any Phase of Poor Weather Game-Turns."
    at, over_stream, over_bridge = H(5, 5), H(5, 6), H(5, 4)
    terrain = tmap(sides={(at, over_stream): {"stream"}, (at, over_bridge): {"stream", "bridge"}})
    state = game((PANZER, at))
    poor = enemy_zoc(state, terrain, "Allied", KASSERINE_ZOC, weather="Poor")
    assert over_stream not in poor and over_bridge in poor
    assert len(poor) == 5
    for weather in ("good", "fair", None):
        assert over_stream in enemy_zoc(state, terrain, "Allied", KASSERINE_ZOC, weather=weather)
    # The state's own weather is used when none is given.
    assert over_stream not in enemy_zoc(game((PANZER, at), weather="poor"), terrain, "Allied", KASSERINE_ZOC)


def test_zoc_never_crosses_blocked_hexsides() -> None:
    # Other games: "not across a mountain crest", "not across an all-sea hexside".
    at = H(5, 5)
    terrain = tmap(sides={(at, H(5, 6)): {"crest"}, (at, H(5, 4)): {"all-sea"}})
    rules = ZocRules(blocked_features=frozenset({"crest", "all-sea"}))
    zoc = enemy_zoc(game((PANZER, at)), terrain, "Allied", rules)
    assert H(5, 6) not in zoc and H(5, 4) not in zoc and len(zoc) == 4


def test_which_units_exert_zoc_is_a_parameter() -> None:
    state = game((US_ART, H(5, 5)), (US_INF, H(20, 20)))
    no_art = ZocRules(no_zoc_kinds=frozenset({"artillery"}))
    assert enemy_zoc(state, tmap(), "Axis", no_art) == frozenset(neighbors(H(20, 20)))
    only_inf = ZocRules(exert_kinds=frozenset({"infantry"}))
    assert enemy_zoc(state, tmap(), "Axis", only_inf) == frozenset(neighbors(H(20, 20)))
    flagged = dataclasses.replace(US_INF, flags=frozenset({"no-zoc"}))
    assert enemy_zoc(game((flagged, H(5, 5))), tmap(), "Axis", ZocRules()) == frozenset()


def test_friendly_units_negate_enemy_zoc_only_for_the_purposes_named() -> None:
    friend_at = H(5, 6)
    state = game((US_INF, H(5, 5)), (PANZER, friend_at))
    rules = ZocRules(negated_for=frozenset({"supply"}))
    assert friend_at not in enemy_zoc(state, tmap(), "Axis", rules, purpose="supply")
    assert friend_at in enemy_zoc(state, tmap(), "Axis", rules, purpose="movement")
    assert friend_at in enemy_zoc(state, tmap(), "Axis", ZocRules(), purpose="supply")


def test_zoc_does_not_extend_off_the_map() -> None:
    state = game((US_INF, H(5, 5)))
    assert H(5, 4) not in enemy_zoc(state, tmap(off_map={H(5, 4)}), "Axis", ZocRules())


def test_units_that_ignore_zoc() -> None:
    rules = ZocRules(ignore_kinds=frozenset({"hq"}))
    assert rules.ignores(dataclasses.replace(US_INF, kind="hq"))
    assert ZocRules().ignores(dataclasses.replace(US_INF, flags=frozenset({"ignores-zoc"})))
    assert not ZocRules().ignores(US_INF)


def test_unit_classes_most_specific_first() -> None:
    mi = Unit("m", "2-2-9 (609)", "Axis", "mechanized-infantry", 9, mechanized=True, flags=frozenset({"elite"}))
    assert unit_classes(mi) == ("mechanized-infantry", "elite", "mechanized", "*")
    assert unit_classes(US_INF) == ("infantry", "non-mechanized", "*")


def test_zoc_rules_are_checked_frozen_and_hashable() -> None:
    with pytest.raises(ValueError, match="unknown ZOC mode 'locked'"):
        ZocRules(mode="locked")
    a = ZocRules(blocked_in_weather={"Poor": {"stream"}})
    assert a == KASSERINE_ZOC and hash(a) == hash(KASSERINE_ZOC)
    assert a.side_blocked("POOR") == frozenset({"stream"}) and a.side_blocked("good") == frozenset()
    with pytest.raises(dataclasses.FrozenInstanceError):
        a.mode = "stop"  # type: ignore[misc]
