"""Tunisia 1943 3 (zones of control) and 2.1 (crests), through the pack's rules `zoc` and `movement`
(modules/tunisia-1943/pack.toml), worked by hand from the seed's words
(../shared/seeds/001_9467744547cf47c5.txt) on the example board (terrain.csv), with its counters.

The hexes used: 2012-2314 is clear ground with no hexside feature; the Eastern Dorsal's crest runs
on the hexsides 1510/1409, 1510/1410 and 1510/1509; Lake Bizerte (2403) is impassable.
"""

from __future__ import annotations

from tunisia_board import LAYOUT, TERRAIN, H, controlled, move, state, unit

PZGR_69 = unit("5-5-8-8 PzGr 69 (10.Pz)", "Axis")
PZGR_104 = unit("5-5-8-8 PzGr 104 (21.Pz)", "Axis")
EM_10 = unit("EM 3-8 (10.Pz)", "Axis")
INF_133 = unit("4-5-5-7 133 Inf (34 ID)", "Allied")


def test_3_a_combat_unit_controls_its_six_neighbours() -> None:
    """3: "Each combat unit does exercise a zone of control (ZoC) into the six adjacent hex". An Axis
    regiment in 2213: the six hexes around it are in an enemy zone for the Allies; 2212's neighbour
    2211, two hexes away, is not; nor is the regiment's own hex an Axis player's concern."""
    st = state({PZGR_69: "2213"})
    assert sorted(LAYOUT.neighbors("2213")) == ["2113", "2114", "2212", "2214", "2313", "2314"]
    assert all(controlled(st, h, "Allied") for h in LAYOUT.neighbors("2213"))
    assert not controlled(st, "2211", "Allied")
    assert not controlled(st, "2212", "Axis")


def test_3_an_em_exerts_no_zone_of_control() -> None:
    """0.1: "the EM is not regarded as a combat unit"; 3: "Each combat unit does exercise a zone of
    control". The 10. Panzer's EM alone in 2213 controls none of its neighbours."""
    st = state({EM_10: "2213"})
    assert not any(controlled(st, h, "Allied") for h in LAYOUT.neighbors("2213"))


def test_2_1_no_zone_of_control_beyond_a_crest() -> None:
    """2.1: "a unit doesn't exercise a zone of control (see rule 3) beyond a crest of mountain". An Axis
    regiment in 1510: the three hexes across the crest (1409, 1410, 1509) are free; the other three
    (1511, 1609, 1610) are controlled."""
    assert all("crest" in TERRAIN.features_between(H("1510"), H(h)) for h in ("1409", "1410", "1509"))
    st = state({PZGR_69: "1510"})
    assert [h for h in sorted(LAYOUT.neighbors("1510")) if controlled(st, h, "Allied")] == ["1511", "1609", "1610"]


def test_3_no_zone_of_control_into_impassable_terrain() -> None:
    """3: a zone of control "into the six adjacent hex (except into impassable terrain)". A regiment
    next to Lake Bizerte (2403, impassable) controls its other neighbours, not the lake."""
    beside = next(h for h in LAYOUT.neighbors("2403") if "clear" in TERRAIN.terrain(H(h)))
    st = state({PZGR_69: beside})
    assert "impassable" in TERRAIN.terrain(H("2403"))
    assert not controlled(st, "2403", "Allied")
    assert any(controlled(st, h, "Allied") for h in LAYOUT.neighbors(beside) if h != "2403")


def test_3_a_unit_stops_when_it_enters_an_enemy_zone() -> None:
    """3: "An unit must stop its movement when it enters a hostile ZoC." The US 133rd (5 MP) from 2013
    to 2113 (in the zone of the regiment in 2213) is legal; on through 2113 to 2112 it is not, though
    2112 is free and the two hexes cost 2 MP."""
    st = state({PZGR_69: "2213", INF_133: "2013"})
    assert controlled(st, "2113", "Allied") and not controlled(st, "2112", "Allied")
    assert move("movement", st, INF_133, ["2013", "2113"]).ok
    r = move("movement", st, INF_133, ["2013", "2113", "2112"])
    assert not r.ok
    assert "zone of control" in r.reason


def test_3_no_move_from_one_enemy_zone_straight_into_another() -> None:
    """3: "An unit cannot move directly from enemy ZoC to enemy ZoC, whether it is a ZoC from one or
    several units." The 133rd in 2212 (in the zone of the regiment in 2213) may not step to 2312 (in the
    zone of another regiment, in 2411): not even the one-hex move of 4.1 allows it ("except ...
    movement from ZoC to ZoC")."""
    st = state({PZGR_69: "2213", PZGR_104: "2411", INF_133: "2212"})
    assert controlled(st, "2212", "Allied") and controlled(st, "2312", "Allied")
    assert not move("movement", st, INF_133, ["2212", "2312"]).ok


def test_3_leave_a_zone_to_a_free_hex_then_enter_another() -> None:
    """3: "It is on the other hand possible to leave a hostile ZoC into a free hex, and then enter another
    enemy ZoC during the same movement phase." The 133rd leaves 2212 (the zone of 2213) for 2112, free,
    then enters 2111, in the zone of the regiment in 2110: legal, 2 MP."""
    st = state({PZGR_69: "2213", PZGR_104: "2110", INF_133: "2212"})
    assert not controlled(st, "2112", "Allied") and controlled(st, "2111", "Allied")
    r = move("movement", st, INF_133, ["2212", "2112", "2111"])
    assert r.ok and r.cost == 2
