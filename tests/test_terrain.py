"""The terrain model: look-ups, places, and road networks over hexsides (rule 17.13)."""

from __future__ import annotations

import doctest
import itertools

import pytest
from hypothesis import given
from hypothesis import strategies as st

from vassal_adj.model import terrain as terrain_module
from vassal_adj.model.geometry.hexes import Hex, hexside, neighbors
from vassal_adj.model.terrain import Place, RoadNetwork, TerrainMap, TerrainVocabulary

VOC = TerrainVocabulary(terrain={"clear", "rough", "town"}, features={"road", "trail", "stream", "bridge"})


def H(label: str) -> Hex:
    """A Kasserine-style label "CCRR" (column, row from 01) as a hex: raw = label - 1."""
    return Hex.from_raw(int(label[:2]) - 1, int(label[2:]) - 1)


def chain(*labels: str) -> list:
    hs = [H(x) for x in labels]
    return [hexside(a, b) for a, b in itertools.pairwise(hs)]


def roads(*chains: tuple[str, ...], feature: str = "road") -> dict:
    return {s: {feature} for c in chains for s in chain(*c)}


def test_doctests() -> None:
    assert doctest.testmod(terrain_module).failed == 0


def test_the_fake_labels_follow_kasserine_stagger() -> None:
    # Even-numbered columns are half a hex lower: 0202 touches 0102 and 0103, not 0101.
    assert H("0102") in neighbors(H("0202")) and H("0103") in neighbors(H("0202"))
    assert H("0101") not in neighbors(H("0202"))
    # Odd-numbered columns are higher: 0302 touches 0201 and 0202.
    assert {H("0201"), H("0202")} <= set(neighbors(H("0302")))


def test_terrain_features_and_places_are_looked_up_by_hex_and_hexside() -> None:
    side = hexside(H("0312"), H("0412"))
    m = TerrainMap(
        VOC,
        {H("2714"): {"clear", "town"}, H("0312"): ["rough"]},
        {side: {"stream", "bridge"}},
        (
            Place("Sbeitla", {"town", "objective"}, (H("2714"),)),
            Place("Axis supply", {"supply-source"}, (H("0623"), H("0723"), H("0623"))),
        ),
    )
    assert m.terrain(H("2714")) == {"clear", "town"} and m.terrain(H("0101")) == frozenset()
    assert m.has_terrain(H("0312"), "rough") and not m.has_terrain(H("0312"), "clear")
    assert m.features(side) == {"stream", "bridge"}
    assert m.features_between(H("0412"), H("0312")) == {"stream", "bridge"}
    assert m.has_feature(H("0412"), H("0312"), "bridge") and not m.has_feature(H("0412"), H("0312"), "road")
    assert not m.has_feature(H("0312"), H("0912"), "stream")  # not adjacent: no side
    assert [p.name for p in m.places("town")] == ["Sbeitla"] == [p.name for p in m.places("objective")]
    assert m.place("Axis supply").hexes == (H("0623"), H("0723"))  # repeats dropped, order kept
    assert m.place_hexes("supply-source") == {H("0623"), H("0723")}
    assert m.places_at(H("2714")) == (m.place("Sbeitla"),) and H("2714") in m.place("Sbeitla")
    with pytest.raises(KeyError, match="no place named 'Tebessa'.*Sbeitla"):
        m.place("Tebessa")


def test_maps_are_frozen_hashable_and_compare_by_content() -> None:
    a = TerrainMap(VOC, {H("0101"): {"rough"}, H("0102"): set()}, roads(("0101", "0102")))
    b = TerrainMap(VOC, {H("0101"): frozenset({"rough"})}, roads(("0102", "0101")))
    assert a == b and hash(a) == hash(b) and len({a, b}) == 1
    assert a != TerrainMap(VOC, {H("0101"): {"clear"}})
    with pytest.raises(AttributeError):
        a.off_map = frozenset()  # type: ignore[misc]
    with pytest.raises(TypeError):
        a.hex_terrain[H("0101")] = frozenset()  # type: ignore[index]
    net = a.network("road")
    with pytest.raises(AttributeError):
        net.features = frozenset()  # type: ignore[misc]
    assert net == a.network("road") and hash(net) == hash(b.network("road"))


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"hex_terrain": {Hex(0, 0): {"swamp"}}}, r"unknown terrain types \['swamp'\]"),
        ({"hex_terrain": {Hex(0, 0): "rough"}}, "must be a set of names"),
        ({"side_features": {hexside(Hex(0, 0), Hex(0, 1)): {"rail"}}}, r"unknown hexside features \['rail'\]"),
        ({"side_features": {(Hex(0, 0), Hex(0, 1)): {"road"}}}, "keys must be HexSide"),
        ({"named_places": (Place("A", {"town"}, (Hex(0, 0),)), Place("A", {"town"}, (Hex(0, 1),)))}, "two places"),
        ({"named_places": (Place("A", {"capital"}, (Hex(0, 0),)),)}, r"unknown place kinds \['capital'\]"),
    ],
)
def test_bad_content_is_refused(kwargs: dict, message: str) -> None:
    with pytest.raises((ValueError, TypeError), match=message):
        TerrainMap(VOC, **kwargs)


def test_bad_names_and_places_are_refused() -> None:
    with pytest.raises(ValueError, match="bad terrain type name 'light woods'"):
        TerrainVocabulary(terrain={"light woods"}, features=set())
    with pytest.raises(ValueError, match="no hex"):
        Place("Nowhere", {"town"}, ())
    with pytest.raises(ValueError, match="padded"):
        Place(" Sbeitla", {"town"}, (Hex(0, 0),))
    with pytest.raises(ValueError, match="unknown hexside features"):
        TerrainMap(VOC).network("railway")


def test_road_in_two_hexes_side_by_side_is_not_a_connection() -> None:
    # Rule 17.13: a road runs 0101-0102-0103 and another 0203-0204; 0103 and 0203 are
    # adjacent and both hold road, but no road crosses their common side.
    assert H("0203") in neighbors(H("0103"))
    m = TerrainMap(VOC, side_features=roads(("0101", "0102", "0103"), ("0203", "0204")))
    net = m.network("road")
    assert H("0103") in net and H("0203") in net
    assert not net.connected(H("0103"), H("0203"))
    assert net.connected(H("0101"), H("0103")) and net.connected(H("0204"), H("0203"))
    assert net.path(H("0101"), H("0204")) is None
    assert len(net.components()) == 2


def test_a_road_trail_junction_joins_only_the_combined_network() -> None:
    sides = roads(("0101", "0102", "0103"))
    sides.update(roads(("0103", "0203", "0303"), feature="trail"))
    m = TerrainMap(VOC, side_features=sides)
    assert not m.network("road").connected(H("0101"), H("0303"))
    assert H("0303") not in m.network("road") and H("0303") in m.network("trail")
    both = m.network("road", "trail")
    assert both.connected(H("0101"), H("0303"))
    assert both.path(H("0101"), H("0303")) == [H(x) for x in ("0101", "0102", "0103", "0203", "0303")]
    assert m.network("trail", "road") is both  # cached by the set of features


def test_a_stream_on_a_road_side_leaves_the_road_intact() -> None:
    sides = roads(("0101", "0102"))
    sides[hexside(H("0101"), H("0102"))] = {"road", "stream", "bridge"}
    m = TerrainMap(VOC, side_features=sides)
    assert m.network("road").connected(H("0101"), H("0102"))
    assert m.network("stream").hexes() == {H("0101"), H("0102")}


def test_reachable_from_several_sources_in_one_search() -> None:
    m = TerrainMap(VOC, side_features=roads(("0101", "0102", "0103"), ("0501", "0502"), ("0801", "0802")))
    net = m.network("road")
    want = {H(x) for x in ("0101", "0102", "0103", "0501", "0502")}
    assert net.reachable([H("0102"), H("0502"), H("1010")]) == want  # 1010 is off the network
    assert net.reachable([]) == frozenset()
    # Blocking the middle of the first road cuts it; a blocked source gives nothing.
    assert net.reachable([H("0101"), H("0501")], blocked={H("0102")}) == {H("0101"), H("0501"), H("0502")}
    assert net.reachable([H("0102")], blocked={H("0102")}) == frozenset()
    assert net.component(H("0103")) == {H(x) for x in ("0101", "0102", "0103")}
    assert net.component(H("1010")) == frozenset()
    assert not net.connected(H("1010"), H("1010"))
    assert net.connected(H("0101"), H("0101"))


def test_path_goes_round_a_blocked_hex_when_the_road_forks() -> None:
    # A loop: 0101-0102-0103 and 0101-0201-0202-0103 (0201 is beside 0101 and 0102, 0202 beside 0103).
    m = TerrainMap(VOC, side_features=roads(("0101", "0102", "0103"), ("0101", "0201", "0202", "0103")))
    net = m.network("road")
    assert net.path(H("0101"), H("0103")) == [H("0101"), H("0102"), H("0103")]
    assert net.path(H("0101"), H("0103"), blocked={H("0102")}) == [H(x) for x in ("0101", "0201", "0202", "0103")]
    assert net.path(H("0101"), H("0103"), blocked={H("0102"), H("0202")}) is None
    assert net.path(H("0101"), H("0101")) == [H("0101")]
    assert net.path(H("0101"), H("0909")) is None
    assert set(net.neighbors(H("0101"))) == {H("0102"), H("0201")} and net.neighbors(H("0909")) == ()


def test_networks_leave_out_off_map_hexes() -> None:
    m = TerrainMap(VOC, side_features=roads(("0101", "0102", "0103")), off_map=frozenset({H("0102")}))
    assert m.is_off_map(H("0102"))
    assert not m.network("road").connected(H("0101"), H("0103"))
    assert m.has_feature(H("0101"), H("0102"), "road")  # the hexside itself keeps its feature


coords = st.tuples(st.integers(0, 7), st.integers(0, 7)).map(lambda cr: Hex.from_raw(*cr))


@given(
    st.lists(st.tuples(coords, st.integers(0, 5)), max_size=30),
    st.lists(coords, max_size=4),
    st.frozensets(coords, max_size=4),
)
def test_networks_agree_with_a_naive_flood_fill(steps: list, sources: list, blocked: frozenset) -> None:
    sides = {hexside(h, neighbors(h)[d]) for h, d in steps}
    net = RoadNetwork({"road"}, sides)
    adj: dict[Hex, set[Hex]] = {}
    for s in sides:
        adj.setdefault(s.a, set()).add(s.b)
        adj.setdefault(s.b, set()).add(s.a)

    def flood(starts: list) -> set:
        seen = {h for h in starts if h in adj and h not in blocked}
        todo = list(seen)
        while todo:
            for n in adj[todo.pop()]:
                if n not in seen and n not in blocked:
                    seen.add(n)
                    todo.append(n)
        return seen

    assert net.reachable(sources, blocked) == flood(sources)
    for a in sources:
        mine = flood([a])
        for b in flood(sources):
            p = net.path(a, b, blocked)
            assert (p is not None) == (b in mine)
            if p is not None:
                assert p[0] == a and p[-1] == b and not set(p) & blocked
                assert all(y in adj[x] for x, y in itertools.pairwise(p))
    assert sum(len(c) for c in net.components()) == len(net) == len(adj)


def test_a_map_on_a_board_is_the_map_replace_makes_with_a_network_of_its_own() -> None:
    # with_board shares the checked tables instead of checking them again (startup time); the
    # road net, cached per map, follows each map's board
    from dataclasses import replace

    m = TerrainMap(VOC, side_features=roads(("0101", "0102", "0103")), off_map=frozenset({H("0204")}))
    assert len(m.network("road")) == 3
    board = [H("0101"), H("0102"), H("0203")]
    on = m.with_board(board)
    assert on == replace(m, board=frozenset(board)) and hash(on) == hash(replace(m, board=frozenset(board)))
    assert on.board == frozenset(board) and m.board is None
    assert len(on.network("road")) == 2 and len(m.network("road")) == 3  # 0103 is off this board
    assert not on.on_board(H("0103")) and not on.on_board(H("0204")) and on.on_board(H("0101"))
    with pytest.raises(AttributeError):
        on.board = None  # type: ignore[misc]


def test_the_int_keyed_lookups_agree_with_the_map_and_follow_its_board() -> None:
    # KeyedTerrain (movement's search loop) is built once per map and cached: each map, a with_board copy
    # included, answers from its own board
    side = hexside(H("0312"), H("0412"))
    m = TerrainMap(VOC, {H("2714"): {"clear", "town"}, H("0312"): ["rough"]}, {side: {"stream"}}, off_map={H("0101")})
    on = m.with_board([H("0312"), H("0412"), H("2714")])
    for tm in (m, on, m):
        kt = tm.keyed()
        assert kt is tm.keyed()
        for h in (H("2714"), H("0312"), H("0412"), H("0101"), H("0909")):
            assert kt.terrain.get((h.q, h.r), frozenset()) == tm.terrain(h)
            assert kt.on_board((h.q, h.r)) == tm.on_board(h)
            for n in neighbors(h):
                assert kt.sides.get((h.q, h.r, n.q, n.r), frozenset()) == tm.features_between(h, n)
    assert m.keyed().on_board((H("0909").q, H("0909").r)) and not on.keyed().on_board((H("0909").q, H("0909").r))
