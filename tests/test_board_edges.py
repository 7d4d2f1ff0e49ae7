"""No search leaves the board (issue 9): only the hexes VASSAL names on the board (the main map's
HexLayout) are in any search: movement, supply, zones of control, road and trail networks.

The Kasserine example board has columns 01-39 and rows 01-26; even columns are half a hex lower.
Column 00 and 40, row 00 and 27 do not exist. Each edge is tested with paths that the hexes just
off it would make cheaper or possible, so that a search walking off the board gives another
answer than one that keeps to it.
"""

from __future__ import annotations

from dataclasses import replace
from itertools import pairwise
from pathlib import Path

import pytest

import vassal_adj
from vassal_adj.model.geometry.hexes import Hex, distance, hexside, neighbors
from vassal_adj.model.geometry.maps import board_hex_layouts
from vassal_adj.model.state import GameState, Position
from vassal_adj.model.terrain import TerrainMap, TerrainVocabulary
from vassal_adj.model.units import Unit
from vassal_adj.packs import load_pack
from vassal_adj.rules.mechanisms.movement import legal_path, reachable
from vassal_adj.rules.mechanisms.movement_params import MovementRules
from vassal_adj.rules.mechanisms.supply import SupplyRules, supply_field
from vassal_adj.rules.mechanisms.zoc import ZocRules, enemy_zoc
from vassal_adj.rules.turn import turn_rules
from vassal_adj.state_builder import game_state

ROOT = Path(__file__).resolve().parents[1]
PACK = ROOT / "modules" / "kasserine"
VOC = TerrainVocabulary(terrain={"clear", "rough"}, features={"road", "trail", "stream"})
PANZER = Unit("g1", "5-3-12 (2/7)", "Axis", "armor", 12, attack=5, defense=3, mechanized=True)
INFANTRY = Unit("i1", "1-2-7 (1/26)", "Allied", "infantry", 7, attack=1, defense=2)
WALKER = Unit("w1", "1-2-20 (test)", "Allied", "infantry", 20, attack=1, defense=2)


@pytest.fixture(scope="module")
def layout():
    module = vassal_adj.load_module(PACK / "example" / "Kasserine.vmod")
    return board_hex_layouts(module.maps["Main Map"].boards["Kasserine"])[0]


@pytest.fixture(scope="module")
def board(layout) -> frozenset[Hex]:
    return frozenset(layout.hexes())


def H(layout, label: str) -> Hex:
    h = layout.hex_of(label)
    assert h is not None, label
    return h


def edge_labels(edge: str) -> list[str]:
    return {
        "north": [f"{c:02d}01" for c in range(1, 40)],
        "south": [f"{c:02d}26" for c in range(1, 40)],
        "west": [f"01{r:02d}" for r in range(1, 27)],
        "east": [f"39{r:02d}" for r in range(1, 27)],
    }[edge]


def test_the_board_is_0101_to_3926(layout, board) -> None:
    assert len(board) == 39 * 26
    assert {layout.label_of(h) for h in board} == {f"{c:02d}{r:02d}" for c in range(1, 40) for r in range(1, 27)}
    # The labels just past each edge name hexes (VASSAL's numbering formula), but not hexes of the board.
    for label in ("0100", "4018", "2027", "0012"):
        h = layout.hex_of(label)
        assert h is None or h not in board


# -- the issue's example --------------------------------------------------------------------------------------------
def test_issue_example_5_3_12_from_3918_to_3924_does_not_leave_the_board() -> None:
    # Game-Turn 1, the seed's Allied set-up (setup.vsav): 3922 1-2-7 (3/168), 3821 2-2-4/1-7 (2/17), 3819 3-2-12
    # (3/1), 3722 and 3721 ... An Axis 5-3-12 enters at 3918 (23: "3918-3920") and moves to 3924. Before the fix the
    # search went 3918 4018 4019 4020 4121 4122 4123 4023 3924, "legal, 8 of 12 MP": column 40 and 41 do not exist.
    module = vassal_adj.load_module(PACK / "example" / "Kasserine.vmod")
    game = vassal_adj.load_save(PACK / "example" / "setup.vsav")
    lp = load_pack(PACK)
    st, ctx, _ = game_state(module, game, lp, turn=1, phase="axis-movement")
    lay = ctx.layout
    st = GameState(
        {**st.units, "g1": PANZER},
        {**st.positions, "g1": Position(H(lay, "3918"), "3918")},
        st.turn,
        st.phase,
        st.weather,
        st.markers,
    )
    rules = turn_rules(lp.pack, ctx).movement
    res = legal_path(st, ctx.terrain, "g1", None, H(lay, "3924"), rules, label=ctx.label)
    assert not res.ok
    assert all(h in frozenset(lay.hexes()) for h in res.path)
    # On the board the legal way runs north-west round the Allied units and their zones of control: 15 MP (clear
    # 1, road 1/2, the pack's assumed costs) against 12; the way within 12 MP enters the zone of control of the
    # 3-2-12 at 3819 and of the 1-3-7 at 3718, both next to 3818 (19.2: entering an enemy zone of control stops
    # the move); the reason names both.
    assert res.cost == 15 and res.allowance == 12
    assert [ctx.label(h) for h in res.path][:2] == ["3918", "3917"]
    assert (
        "enemy zone of control at 3818 (of Allied 3-2-12 (3/1) in 3819 and Allied 1-3-7 (2/168) in 3718) stops "
        "movement [19.2]"
    ) in res.reason


# -- movement along every edge --------------------------------------------------------------------------------------
def rough_everywhere(board: frozenset[Hex]) -> TerrainMap:
    """Every hex of the board rough (2 MP): a hex off the board, having no terrain, would cost 1."""
    return TerrainMap(VOC, hex_terrain={h: {"rough"} for h in board}, board=board)


ROUGH_2 = MovementRules(terrain_costs={"rough": 2}, zoc=None)


@pytest.mark.parametrize(
    ("edge", "first"),
    [("north", 0), ("north", 1), ("south", 0), ("south", 1), ("west", 0), ("west", 1), ("east", 0), ("east", 1)],
)
def test_a_move_along_an_edge_stays_on_the_board(layout, board, edge: str, first: int) -> None:
    # A move of four hexes along the edge (starting in an odd column, then an even one, for north and south): on
    # the board every step is a rough hex (2 MP); the hexes just off the edge would cost 1 and make it 6 MP or less.
    labels = edge_labels(edge)
    a, b = H(layout, labels[first]), H(layout, labels[first + 4])
    assert distance(a, b) == 4
    st = GameState({"w1": WALKER}, {"w1": Position(a)})
    res = legal_path(st, rough_everywhere(board), "w1", None, b, ROUGH_2)
    assert res.ok and res.cost == 8 and len(res.path) == 5
    assert set(res.path) <= board


@pytest.mark.parametrize("edge", ["north", "south", "west", "east"])
def test_reachable_hexes_from_every_edge_hex_are_on_the_board(layout, board, edge: str) -> None:
    terrain = TerrainMap(VOC, board=board)
    for label in edge_labels(edge):
        h = H(layout, label)
        reach = reachable(GameState({"i1": INFANTRY}, {"i1": Position(h)}), terrain, "i1", None, ROUGH_2)
        assert set(reach.costs) <= board, label
        assert set(reach.costs) == {x for x in board if distance(h, x) <= 7}, label


def test_the_minimum_move_does_not_step_off_the_board(layout, board) -> None:
    # A unit whose allowance pays for no hex may still move one (minimum_move), but only onto the board.
    slow = Unit("s1", "1-1-1 (test)", "Allied", "infantry", 1, attack=1, defense=1)
    corner = H(layout, "0101")
    st = GameState({"s1": slow}, {"s1": Position(corner)})
    reach = reachable(st, rough_everywhere(board), "s1", None, ROUGH_2)
    assert set(reach.costs) == {corner} | {n for n in neighbors(corner) if n in board}


# -- zones of control -------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("edge", ["north", "south", "west", "east"])
def test_zones_of_control_end_at_the_edge(layout, board, edge: str) -> None:
    # A unit on every hex of the edge: its zone of control is the board's hexes round it, none beyond the edge.
    hexes = [H(layout, x) for x in edge_labels(edge)]
    units = {f"e{i}": Unit(f"e{i}", "1-2-7 (x)", "Axis", "infantry", 7) for i in range(len(hexes))}
    st = GameState(units, {f"e{i}": Position(h) for i, h in enumerate(hexes)})
    zoc = enemy_zoc(st, TerrainMap(VOC, board=board), "Allied", ZocRules())
    assert zoc == {n for h in hexes for n in neighbors(h) if n in board}


# -- supply ----------------------------------------------------------------------------------------------------------
# A unit and a source on the same edge, a wall of obstructed hexes across the whole board between them (a column
# for north and south, odd and even; a row for west and east). On the board the wall cannot be passed; off the
# board its end could be walked round in two hexes.
WALLS = [
    ("north", "0501", "0901", [f"07{r:02d}" for r in range(1, 27)]),
    ("north", "0601", "1001", [f"08{r:02d}" for r in range(1, 27)]),
    ("south", "0526", "0926", [f"07{r:02d}" for r in range(1, 27)]),
    ("south", "0626", "1026", [f"08{r:02d}" for r in range(1, 27)]),
    ("west", "0108", "0112", [f"{c:02d}10" for c in range(1, 40)]),
    ("east", "3908", "3912", [f"{c:02d}10" for c in range(1, 40)]),
]


@pytest.mark.parametrize(("edge", "unit", "source", "wall"), WALLS)
def test_a_supply_path_does_not_walk_round_a_wall_off_the_board(layout, board, edge, unit, source, wall) -> None:
    rules = SupplyRules(initial=6, rule_ref="17.12")
    blocked = frozenset(H(layout, x) for x in wall)
    fld = supply_field(TerrainMap(VOC, board=board), "Allied", rules, {H(layout, source)}, blocked, horizon=4)
    u = H(layout, unit)
    assert fld.distance(u) is None and not fld.supplied(u) and fld.path(u) == ()
    # Without the wall the unit traces straight along the edge, four hexes (17.14).
    open_ = supply_field(TerrainMap(VOC, board=board), "Allied", rules, {H(layout, source)}, frozenset())
    assert open_.distance(u) == 4 and set(open_.path(u)) <= board


@pytest.mark.parametrize("edge", ["north", "south", "west", "east"])
def test_a_road_along_the_edge_is_a_network_of_board_hexes(layout, board, edge: str) -> None:
    # A road along the edge, and road hexsides leading off the board from every edge hex: the network is the edge.
    hexes = [H(layout, x) for x in edge_labels(edge)]
    sides = {hexside(a, b): {"road"} for a, b in pairwise(hexes)}
    sides.update({hexside(h, n): {"road"} for h in hexes for n in neighbors(h) if n not in board})
    net = TerrainMap(VOC, side_features=sides, board=board).network("road")
    assert net.hexes() == set(hexes) and len(net.components()) == 1


# -- a small generic grid ---------------------------------------------------------------------------------------------
SMALL = frozenset(Hex.from_raw(c, r) for c in range(4) for r in range(3))


def test_a_small_board_bounds_movement_zoc_and_supply() -> None:
    # A 4 x 3 board, every hex rough: from one corner to the other along the top edge costs 2 MP a hex on the board.
    terrain = rough_everywhere(SMALL)
    a, b = Hex.from_raw(0, 0), Hex.from_raw(3, 0)
    res = legal_path(GameState({"w1": WALKER}, {"w1": Position(a)}), terrain, "w1", None, b, ROUGH_2)
    assert res.ok and set(res.path) <= SMALL and res.cost == 2 * distance(a, b)
    # Without a board (no layout known) the same map lets the search use the cheaper hexes beyond.
    loose = replace(terrain, board=None)
    assert legal_path(GameState({"w1": WALKER}, {"w1": Position(a)}), loose, "w1", None, b, ROUGH_2).cost < res.cost
    assert not terrain.on_board(Hex.from_raw(4, 0)) and loose.on_board(Hex.from_raw(4, 0))
    st = GameState({"e": INFANTRY}, {"e": Position(a)})
    assert enemy_zoc(st, terrain, "Axis", ZocRules()) == {n for n in neighbors(a) if n in SMALL}
    fld = supply_field(terrain, "Allied", SupplyRules(initial=9), {b, Hex.from_raw(9, 9)}, frozenset())
    assert fld.sources == {b} and fld.distance(a) == distance(a, b)


def test_without_a_terrain_file_the_board_still_bounds_every_search() -> None:
    module = vassal_adj.load_module(PACK / "example" / "Kasserine.vmod")
    game = vassal_adj.load_save(PACK / "example" / "setup.vsav")
    lp = replace(load_pack(PACK), terrain_path=None)
    _, ctx, _ = game_state(module, game, lp)
    assert ctx.terrain.board == frozenset(ctx.layout.hexes()) and not ctx.terrain.hex_terrain
    assert any("no terrain" in n for n in ctx.notes)


def test_the_pack_terrain_knows_the_board(layout, board) -> None:
    terrain = load_pack(PACK).terrain(layout)
    assert terrain.board == board and terrain.on_board(H(layout, "3926")) and terrain.is_off_map(H(layout, "4018"))
