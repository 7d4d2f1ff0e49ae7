"""modules/kasserine/terrain.csv: the invented terrain of the example board.

It must load on the example board, cover every hex, put the towns where the seed says, keep the
set-up and entry hexes open to every unit, put every Allied set-up unit in supply (17.12), and be
what the board picture shows (sampling the picture gives it back).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import REPO

import vassal_adj
from vassal_adj.model.geometry.maps import board_hex_layouts
from vassal_adj.model.state import GameState, Position
from vassal_adj.model.units import Unit
from vassal_adj.packs import load_pack
from vassal_adj.parse.builder import game_pieces
from vassal_adj.rules.mechanisms.supply import SupplyRules, obstructed_hexes, supply_status
from vassal_adj.terrain_sample import sample_module

PACK = REPO / "modules" / "kasserine"
EXAMPLE = PACK / "example"
TOWNS = {
    "0306": "Tebessa",
    "0312": "El Ma el Abiod",
    "1319": "Thelepte",
    "1704": "Thala",
    "2706": "Sbiba",
    "2714": "Sbeitla",
}


@pytest.fixture(scope="module")
def module():
    return vassal_adj.load_module(EXAMPLE / "Kasserine.vmod")


@pytest.fixture(scope="module")
def layout(module):
    return board_hex_layouts(module.maps["Main Map"].boards["Kasserine"])[0]


@pytest.fixture(scope="module")
def terrain(layout):
    return load_pack(PACK).terrain(layout)


def test_the_file_says_it_is_invented() -> None:
    head = (PACK / "terrain.csv").read_text(encoding="utf-8").splitlines()[:8]
    assert any("INVENTED FOR THE EXAMPLE: NOT THE REAL KASSERINE MAP" in line for line in head)


def test_every_hex_of_the_board_has_one_terrain(terrain, layout) -> None:
    labels = layout.labels()
    assert len(labels) == 1014 and labels[0] == "0101" and labels[-1] == "3926"
    assert {layout.label_of(h) for h in terrain.hexes()} == set(labels)
    kinds = {frozenset(terrain.terrain(layout.require(lab))) for lab in labels}
    assert kinds == {frozenset({"clear"}), frozenset({"rough"}), frozenset({"clear", "town"})}


def test_towns_and_objectives_where_the_seed_puts_them(terrain, layout) -> None:
    towns = {layout.label_of(h) for h in terrain.place_hexes("town")}
    assert towns == set(TOWNS)
    for label, name in TOWNS.items():
        assert [layout.label_of(h) for h in terrain.place(name).hexes] == [label]
        assert terrain.has_terrain(layout.require(label), "town")
    # 22.41: Victory Points for Sbeitla, Thelepte and Tebessa.
    assert {layout.label_of(h) for h in terrain.place_hexes("objective")} == {"2714", "1319", "0306"}


def test_supply_sources_as_17_11_and_17_12_list_them(terrain, layout) -> None:
    def labels(*ranges: str) -> set[str]:
        return {lab for r in ranges for lab in layout.expand_range(r)}

    axis = {layout.label_of(h) for h in terrain.place("Axis supply").hexes}
    allied = {layout.label_of(h) for h in terrain.place("Allied supply").hexes}
    assert axis == labels("0623-1423", "2126-3926", "3926-3916")
    assert allied == labels("0107-0101", "0101-0901", "1301-1901", "2401-3001")


def test_set_up_and_entry_hexes_are_not_rough(terrain, layout) -> None:
    exact = ["3718", "3922", "3722", "3721", "3821", "3819"]
    entries = [
        "3918",
        "3919",
        "3920",
        "3726",
        "3225",
        "2526",
        "3911",
        "3910",
        "3909",
        "1023",
        "2701",
        "1601",
        "0105",
        "0104",
    ]
    entries += layout.expand_range("0623-1423") + layout.expand_range("2126-2926")
    for label in exact + entries:
        assert not terrain.has_terrain(layout.require(label), "rough"), label


def test_roads_reach_both_sides_sources_and_the_towns(terrain, layout) -> None:
    net = terrain.network("road")
    tebessa = layout.require("0306")
    for label in TOWNS:
        assert net.connected(tebessa, layout.require(label)), label
    assert net.connected(tebessa, layout.require("0104"))  # Allied source, west edge
    assert net.connected(tebessa, layout.require("3919"))  # Axis source, east edge
    assert terrain.sides_with("bridge") and terrain.sides_with("stream")
    assert all("road" in terrain.features(s) and "stream" in terrain.features(s) for s in terrain.sides_with("bridge"))


def test_a_road_leads_into_kasserine_pass(terrain, layout) -> None:
    # 16.12: mechanized units may enter rough through road hexsides.
    pass_hex = layout.require("1813")
    assert terrain.has_terrain(pass_hex, "rough")
    around = [layout.require(n) for n in layout.neighbors("1813")]
    assert sum("road" in terrain.features_between(pass_hex, n) for n in around) >= 2


def test_every_allied_set_up_unit_is_in_supply(module, terrain, layout) -> None:
    game = vassal_adj.load_save(EXAMPLE / "setup.vsav")
    units, positions = {}, {}
    for p in game_pieces(game.root, module):
        if p.map == "Main Map":
            units[p.id] = Unit(p.id, p.name, "Allied", "unit", 1)
            positions[p.id] = Position(layout.require(p.location), p.location)
    assert len(units) == 21
    state = GameState(units, positions)
    rules = SupplyRules(initial=3, rule_ref="17.12")  # no Axis unit on the map: nothing obstructs
    sources = set(terrain.place("Allied supply").hexes)
    status = supply_status(state, terrain, "Allied", rules, sources, obstructed_hexes(state, "Allied", rules))
    assert len(status) == 21
    assert {units[u].name: s.reason for u, s in status.items() if not s.supplied} == {}


def test_sampling_the_board_picture_gives_the_terrain_back(terrain, layout, tmp_path: Path) -> None:
    s = sample_module(str(EXAMPLE / "Kasserine.vmod"), "Main Map", str(PACK / "palette.toml"), str(tmp_path / "t.csv"))
    right = sum(g.terrain in terrain.terrain(layout.require(s.layout.label_of(h))) for h, g in s.hexes.items())
    assert len(s.hexes) == 1014
    assert right / len(s.hexes) >= 0.95
