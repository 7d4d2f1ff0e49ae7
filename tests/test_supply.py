"""Supply (Kasserine 17.1), each rule worked by hand on a small drawn map.

Hexes are written as Kasserine labels "CCRR" (column, row from 01; even columns half a hex
lower, as on the Kasserine map). A "row" of equal row numbers is a connected chain of hexes.
"""

from __future__ import annotations

import doctest
import itertools
from collections import deque

from hypothesis import given, settings
from hypothesis import strategies as st

from vassal_adj.model.geometry.hexes import Hex, distance, hexside, neighbors
from vassal_adj.model.state import GameState, Position
from vassal_adj.model.terrain import TerrainMap, TerrainVocabulary
from vassal_adj.model.units import Unit
from vassal_adj.rules.mechanisms import supply as supply_module
from vassal_adj.rules.mechanisms.exits import sources_after_exits
from vassal_adj.rules.mechanisms.supply import SupplyRules, obstructed_hexes, supply_field, supply_status

VOC = TerrainVocabulary(terrain={"clear", "rough", "marsh"}, features={"road", "trail", "stream", "bridge"})
AXIS = SupplyRules(initial=4, rule_ref="17.11")
ALLIED = SupplyRules(initial=3, rule_ref="17.12")


def H(label: str) -> Hex:
    return Hex.from_raw(int(label[:2]) - 1, int(label[2:]) - 1)


def row(first: int, last: int, r: int) -> list[str]:
    """Labels of a row of hexes, columns `first`..`last` (a connected chain)."""
    return [f"{c:02d}{r:02d}" for c in range(first, last + 1)]


def features(*chains: tuple[str, list[str]]) -> dict:
    """Hexside features along chains of labels: ("road", ["0110", "0210", ...])."""
    out: dict = {}
    for feature, labels in chains:
        for a, b in itertools.pairwise(labels):
            out.setdefault(hexside(H(a), H(b)), set()).add(feature)
    return out


def state(*units: tuple[str, str, str]) -> GameState:
    """Units given as (id, side, label)."""
    us = {uid: Unit(uid, uid, side, "infantry", 7) for uid, side, _ in units}
    return GameState(us, {uid: Position(H(lab), lab) for uid, _, lab in units})


def status(
    terrain: TerrainMap,
    st_: GameState,
    side: str,
    rules: SupplyRules,
    sources: list[str],
    enemy_zoc: set[Hex] | frozenset[Hex] = frozenset(),
):
    blocked = obstructed_hexes(st_, side, rules, enemy_zoc)
    return supply_status(st_, terrain, side, rules, {H(x) for x in sources}, blocked)


# A road along row 10 from 0110 (the source) to 1010.
ROAD_MAP = TerrainMap(VOC, side_features=features(("road", row(1, 10, 10))))


def test_doctests() -> None:
    assert doctest.testmod(supply_module).failed == 0


def test_17_11_four_hexes_to_road_connected_to_source() -> None:
    # 17.11: "An Axis unit is in supply if an unobstructed initial path of four or fewer hexes
    # can be traced from the unit in question to a Trail or Road hex, which is connected by a
    # contiguous, connected line of unobstructed Trail or Road hexes to any Axis Supply Source."
    assert min(distance(H("0514"), H(x)) for x in row(1, 10, 10)) == 4
    s = status(ROAD_MAP, state(("u", "Axis", "0514")), "Axis", AXIS, ["0110"])["u"]
    assert s.supplied and s.distance == 4 and s.reason == "" and s.rule_ref == "17.11"
    path = s.path
    assert path[0] == H("0514") and path[-1] == H("0110")
    assert all(distance(a, b) == 1 for a, b in itertools.pairwise(path))
    road = {H(x) for x in row(1, 10, 10)}
    assert not road & set(path[:4]) and set(path[4:]) <= road  # 4 hexes, the 4th on the road


def test_17_11_five_hexes_is_unsupplied() -> None:
    # 17.11: "... four or fewer hexes ... An Axis unit which cannot trace such a path is unsupplied."
    s = status(ROAD_MAP, state(("u", "Axis", "0515")), "Axis", AXIS, ["0110"])["u"]
    assert not s.supplied and s.distance == 5 and s.path == ()
    assert s.reason == (
        "nearest road/trail hex connected to an Axis supply source (or a source hex) "
        "is 5 hexes away; rule allows 4 [17.11]"
    )


def test_17_12_allied_three_hexes() -> None:
    # 17.12: "An Allied unit is in Supply if an unobstructed initial path of three or fewer hexes
    # can be traced from the unit in question to a Trail or Road hex ..."
    got = status(ROAD_MAP, state(("near", "Allied", "0513"), ("far", "Allied", "0514")), "Allied", ALLIED, ["0110"])
    assert got["near"].supplied and got["near"].distance == 3
    assert not got["far"].supplied and got["far"].distance == 4
    assert got["far"].reason.endswith("is 4 hexes away; rule allows 3 [17.12]")


def test_17_13_path_stays_on_trail() -> None:
    # 17.13: "once a Supply Path is traced into a Trail hex, all remaining hexes must be Trail
    # hexes connected by Trail hexsides". A trail 0110-0610 meets a road 0610-1210 that runs to
    # the source 1210: entering the trail and leaving it by the road is not a supply path.
    m = TerrainMap(VOC, side_features=features(("trail", row(1, 6, 10)), ("road", row(6, 12, 10))))
    assert distance(H("0114"), H("0110")) == 4 and distance(H("0114"), H("0610")) > 4
    s = status(m, state(("u", "Axis", "0114")), "Axis", AXIS, ["1210"])["u"]
    assert not s.supplied and s.distance == distance(H("0114"), H("0610"))
    # A pack whose roads and trails form one network (not Kasserine) would allow it.
    mixed = SupplyRules(initial=4, networks=(("road", "trail"),), rule_ref="x")
    s = status(m, state(("u", "Axis", "0114")), "Axis", mixed, ["1210"])["u"]
    assert s.supplied and s.path[4] == H("0110") and s.path[-1] == H("1210")


def test_17_13_road_hexes_must_be_connected_by_road_hexsides() -> None:
    # 17.13: "all remaining hexes must be Road hexes connected by Road hexsides". Two roads end
    # side by side at 0710 and 0810, but the hexside 0710/0810 carries no road.
    west, east = ("road", row(1, 7, 10)), ("road", row(8, 12, 10))
    m = TerrainMap(VOC, side_features=features(west, east))
    assert H("0810") in neighbors(H("0710"))
    s = status(m, state(("u", "Axis", "0114")), "Axis", AXIS, ["1210"])["u"]
    assert not s.supplied
    joined = TerrainMap(VOC, side_features=features(west, east, ("road", ["0710", "0810"])))
    s = status(joined, state(("u", "Axis", "0114")), "Axis", AXIS, ["1210"])["u"]
    assert s.supplied and s.distance == 4 and s.path[-1] == H("1210")


def test_17_14_direct_trace_to_source() -> None:
    # 17.14: "each Player may trace his initial hexes directly to a Supply Source." No roads.
    m = TerrainMap(VOC)
    s = status(m, state(("u", "Allied", "0113")), "Allied", ALLIED, ["0110"])["u"]
    assert s.supplied and s.path == (H("0113"), H("0112"), H("0111"), H("0110"))
    without = SupplyRules(initial=3, direct_to_source=False, rule_ref="17.12")
    s = status(m, state(("u", "Allied", "0113")), "Allied", without, ["0110"])["u"]
    assert not s.supplied
    assert s.reason == (
        "no road/trail hex is connected to an Allied supply source by unobstructed road/trail hexes [17.12]"
    )


def test_17_15_sources_east_of_exit_lost() -> None:
    # 17.15: "If an Axis unit exits any Allied Supply hex, that hex and all Supply hexes east of
    # that hex may no longer be used as an Allied Supply Source."
    # 17.12: Allied sources 0107-0101, 0101-0901 (printed "0101.0901"), 1301-1901, 2401-3001.
    labels = [f"01{r:02d}" for r in range(1, 8)] + row(1, 9, 1) + row(13, 19, 1) + row(24, 30, 1)
    sources = frozenset(H(x) for x in labels)
    after = sources_after_exits(sources, [H("1501")])
    assert after == sources - {H(x) for x in row(15, 19, 1) + row(24, 30, 1)}
    # The west edge is one column: an exit at 0104 loses 0104 and every column east of it.
    after_west = sources_after_exits(sources, [H("0104")])
    assert after_west == {H(f"01{r:02d}") for r in (1, 2, 3, 5, 6, 7)}
    assert sources_after_exits(sources, [H("2010"), H("3926")]) == sources  # not source hexes
    # A unit at 1803 traces directly to 1801 (17.14); after the exit at 1501 it cannot: the
    # nearest source left, 1401, is 4 hexes away.
    assert distance(H("1803"), H("1401")) == 4
    m, st_ = TerrainMap(VOC), state(("u", "Allied", "1803"))
    assert status(m, st_, "Allied", ALLIED, labels)["u"].supplied
    got = supply_status(st_, m, "Allied", ALLIED, after, frozenset())["u"]
    assert not got.supplied and got.reason.endswith("is 4 hexes away; rule allows 3 [17.12]")


def test_enemy_unit_obstructs_path() -> None:
    # 17.11 "unobstructed": an Axis unit on the road at 0510 cuts the road east of it.
    st_ = state(("u", "Allied", "1012"), ("enemy", "Axis", "0510"))
    s = status(ROAD_MAP, st_, "Allied", SupplyRules(initial=4, rule_ref="17.11"), ["0110"])["u"]
    assert not s.supplied and s.distance == distance(H("1012"), H("0410"))
    free = status(ROAD_MAP, state(("u", "Allied", "1012")), "Allied", ALLIED, ["0110"])["u"]
    assert free.supplied and free.distance == 2
    # Nor does the initial path go through an enemy unit: a wall of units between unit and road.
    wall = [(f"e{i}", "Axis", f"{c:02d}11") for i, c in enumerate(range(1, 11))]
    s = status(ROAD_MAP, state(("u", "Allied", "0512"), *wall), "Allied", ALLIED, ["0110"])["u"]
    assert not s.supplied


def test_enemy_zoc_obstructs_unless_friendly_occupied() -> None:
    # "unobstructed" read as: no enemy zone of control either, unless a friendly unit is there
    # (the default, SupplyRules.friendly_negates_zoc); each part is a parameter.
    zoc = {H("0310")}
    alone = state(("u", "Axis", "0812"))
    assert not status(ROAD_MAP, alone, "Axis", AXIS, ["0110"], zoc)["u"].supplied
    held = state(("u", "Axis", "0812"), ("f", "Axis", "0310"))
    assert status(ROAD_MAP, held, "Axis", AXIS, ["0110"], zoc)["u"].supplied
    strict = SupplyRules(initial=4, friendly_negates_zoc=False, rule_ref="17.11")
    assert not status(ROAD_MAP, held, "Axis", strict, ["0110"], zoc)["u"].supplied
    lax = SupplyRules(initial=4, enemy_zoc_obstructs=False, rule_ref="17.11")
    assert status(ROAD_MAP, alone, "Axis", lax, ["0110"], zoc)["u"].supplied


def test_unit_in_enemy_zoc_traces_out_of_its_own_hex() -> None:
    # The unit's own hex starts the path and is not part of it: in an enemy zone of control,
    # even where friendly units do not negate it, a unit on the road still traces along it.
    strict = SupplyRules(initial=4, friendly_negates_zoc=False, rule_ref="17.11")
    zoc = {H("0510"), H("0511")}
    s = status(ROAD_MAP, state(("u", "Axis", "0510")), "Axis", strict, ["0110"], zoc)["u"]
    assert s.supplied and s.distance == 0 and s.path[:2] == (H("0510"), H("0410"))
    assert s.path[-1] == H("0110")
    s = status(ROAD_MAP, state(("u", "Axis", "0511")), "Axis", strict, ["0110"], zoc)["u"]
    assert s.supplied and s.distance == 1


def test_no_source_and_obstructed_sources_are_reported() -> None:
    st_ = state(("u", "Axis", "0512"))
    assert status(ROAD_MAP, st_, "Axis", AXIS, [])["u"].reason == "no Axis supply source is in use [17.11]"
    st_ = state(("u", "Axis", "0512"), ("e", "Allied", "0110"))
    assert status(ROAD_MAP, st_, "Axis", AXIS, ["0110"])["u"].reason == (
        "every Axis supply source hex (1) is obstructed [17.11]"
    )


def test_impassable_sides_and_terrain_bend_the_initial_path() -> None:
    m = TerrainMap(
        VOC,
        hex_terrain={H("0111"): {"marsh"}},
        side_features={**features(("road", row(1, 10, 10))), hexside(H("0111"), H("0110")): {"stream"}},
    )
    free = status(m, state(("u", "Axis", "0112")), "Axis", AXIS, ["0110"])["u"]
    assert free.distance == 2
    rules = SupplyRules(initial=4, impassable_terrain=frozenset({"marsh"}), rule_ref="17.11")
    assert status(m, state(("u", "Axis", "0112")), "Axis", rules, ["0110"])["u"].distance == 2
    assert H("0111") not in status(m, state(("u", "Axis", "0112")), "Axis", rules, ["0110"])["u"].path


def test_off_map_units_and_other_sides_have_no_status() -> None:
    us = {"a": Unit("a", "a", "Axis", "infantry", 7), "b": Unit("b", "b", "Allied", "infantry", 7)}
    st_ = GameState(us, {"a": Position(box="eliminated"), "b": Position(H("0512"), "0512")})
    assert dict(supply_status(st_, ROAD_MAP, "Axis", AXIS, {H("0110")}, frozenset())) == {}


# --- the one search agrees with a naive search per unit ------------------------------------

BOARD = frozenset(Hex.from_raw(c, r) for c in range(6) for r in range(6))
PAIRS = sorted({hexside(a, b) for a in BOARD for b in neighbors(a) if b in BOARD})


def closed(terrain, rules, a, b):
    """Whether the hexside a/b is closed to every part of a supply path (unbridged `closed_sides`)."""
    fs = terrain.features_between(a, b)
    return bool(fs & rules.closed_sides) and not fs & rules.bridge_features


def naive_distance(terrain, rules, sources, blocked, origin, max_depth):
    """Per-unit search, written from the rule's words: the fewest initial hexes, or None."""
    nets = [terrain.network(*g) for g in rules.networks]
    imp_t, imp_s = rules.impassable_terrain, rules.impassable_sides
    sources = {h for h in sources if h in BOARD}

    def net_reaches_source(net, start):
        seen, queue = {start}, deque([start])
        while queue:
            h = queue.popleft()
            if h in sources:
                return True
            for n in net.neighbors(h):
                if n not in seen and n not in blocked and not closed(terrain, rules, h, n):
                    seen.add(n)
                    queue.append(n)
        return False

    def ok(h):
        if h in sources and (rules.direct_to_source or any(h in net for net in nets)):
            return True
        return any(h in net and net_reaches_source(net, h) for net in nets)

    def passes(h):  # may the initial path go on from h? (17.13 read literally: not from a road or trail)
        return h == origin or rules.initial_crosses_network or not any(h in net for net in nets)

    seen, layer = {origin}, [origin]
    for k in range(max_depth + 1):
        if any(ok(h) for h in layer):
            return k
        nxt = []
        for h in layer:
            if not passes(h):
                continue
            for n in neighbors(h):
                if n in seen or n not in BOARD or n in blocked or terrain.terrain(n) & imp_t:
                    continue
                if terrain.features_between(h, n) & imp_s or closed(terrain, rules, h, n):
                    continue
                seen.add(n)
                nxt.append(n)
        layer = nxt
    return None


def valid_path(terrain, rules, sources, blocked, path, d):
    initial, rest = path[: d + 1], path[d:]
    if any(distance(a, b) != 1 for a, b in itertools.pairwise(path)):
        return False
    if any(h in blocked for h in path[1:]) or path[-1] not in sources or not set(path) <= BOARD:
        return False
    if any(closed(terrain, rules, a, b) for a, b in itertools.pairwise(path)):
        return False
    nets = [terrain.network(*g) for g in rules.networks]
    if not rules.initial_crosses_network and any(h in net for h in initial[1:-1] for net in nets):
        return False
    if len(rest) == 1:
        return True
    return (
        any(
            all(h in net for h in rest) and all(b in net.neighbors(a) for a, b in itertools.pairwise(rest))
            for net in (terrain.network(*g) for g in rules.networks)
        )
        and initial[-1] == rest[0]
    )


@settings(max_examples=150, deadline=None)
@given(data=st.data())
def test_one_search_matches_a_naive_search_per_unit(data) -> None:
    sides: dict = {}
    for feature, most in (("road", 40), ("trail", 25), ("stream", 15), ("bridge", 5)):
        for side in data.draw(st.sets(st.sampled_from(PAIRS), max_size=most)):
            sides.setdefault(side, set()).add(feature)
    marsh = data.draw(st.sets(st.sampled_from(sorted(BOARD)), max_size=5))
    # The search may not leave the board: the map's features run past it, and a source lies off it.
    for r in range(6):
        sides.setdefault(hexside(Hex.from_raw(5, r), Hex.from_raw(6, r)), set()).add("road")
    terrain = TerrainMap(VOC, hex_terrain={h: {"marsh"} for h in marsh}, side_features=sides, board=BOARD)
    sources = frozenset(data.draw(st.sets(st.sampled_from(sorted(BOARD | {Hex.from_raw(6, 2)})), max_size=4)))
    blocked = frozenset(data.draw(st.sets(st.sampled_from(sorted(BOARD)), max_size=10)))
    rules = SupplyRules(
        initial=data.draw(st.integers(0, 3)),
        networks=data.draw(st.sampled_from([(("road",), ("trail",)), (("road", "trail"),), (("road",),)])),
        direct_to_source=data.draw(st.booleans()),
        impassable_terrain=data.draw(st.sampled_from([frozenset(), frozenset({"marsh"})])),
        impassable_sides=data.draw(st.sampled_from([frozenset(), frozenset({"stream"})])),
        initial_crosses_network=data.draw(st.booleans()),
        closed_sides=data.draw(st.sampled_from([frozenset(), frozenset({"stream"})])),
    )
    horizon = 3
    fld = supply_field(terrain, "Axis", rules, sources, blocked, horizon=horizon)
    for h in sorted(BOARD):
        want = naive_distance(terrain, rules, sources, blocked, h, rules.initial + horizon)
        assert fld.distance(h) == want, h
        if fld.supplied(h):
            assert valid_path(terrain, rules, sources, blocked, fld.path(h), want), (h, fld.path(h))
        else:
            assert fld.reason(h)
