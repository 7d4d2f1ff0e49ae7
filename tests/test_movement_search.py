"""`MoveSearch.search` (rules/mechanisms/movement_search.py) keeps every step's verdict for the
searches after it (a failed move's diagnosis runs up to seven on one `MoveSearch`, each relaxing
other rules): a search run after others must find what it finds on a `MoveSearch` of its own, and
a changed game state must not be served the verdicts of another.

The board: every hex within 5 of S = (0, 0), clear unless rough; a panzer (9 MP, 16.11 keeps it
out of rough) goes towards G = (0, 5) past rough hexes and an Allied unit's zone of control.
"""

from __future__ import annotations

import dataclasses

from kasserine_rules import KASSERINE_MOVEMENT, KASSERINE_ZOC

from vassal_adj.model.geometry.hexes import Hex, within
from vassal_adj.model.state import GameState, Position
from vassal_adj.model.terrain import TerrainMap, TerrainVocabulary
from vassal_adj.model.units import Unit
from vassal_adj.rules.mechanisms.movement import legal_path
from vassal_adj.rules.mechanisms.movement_search import PENALTY, MoveSearch

VOC = TerrainVocabulary(terrain={"clear", "rough"}, features={"road", "trail"})
RULES = dataclasses.replace(
    KASSERINE_MOVEMENT, terrain_costs={"clear": 1, "rough": 3}, zoc=dataclasses.replace(KASSERINE_ZOC, rule_ref="19.2")
)
S, G = Hex(0, 0), Hex(0, 5)
AREA = within(S, 5)
ROUGH = {Hex(0, 2), Hex(1, 2), Hex(-1, 3), Hex(2, 1)}
PANZER = Unit("g1", "5-3-12 (2/5)", "Axis", "armor", 9, attack=5, defense=3, mechanized=True)
ALLIED = Unit("a1", "1-2-7 (-/168)", "Allied", "infantry", 7, attack=1, defense=2)
ZOC_RULES = {("zoc-stop", "19.2")}
ROUGH_RULES = {("terrain", "16.11"), ("enter", "16.11"), ("exit", "16.12")}
SEARCHES = [  # (limit, relax, goal, penalty, strict): as legal_path runs them, and more
    (9, False, G, PENALTY, frozenset()),
    (None, False, G, PENALTY, frozenset()),
    (9, True, G, 0, frozenset()),
    (9, True, G, 0, frozenset(ZOC_RULES)),
    (9, True, G, 0, frozenset(ROUGH_RULES)),
    (None, True, G, PENALTY, frozenset()),
    (9, False, None, PENALTY, frozenset()),
]


def _move(enemy_at: Hex, rough: set[Hex] = ROUGH) -> MoveSearch:
    state = GameState({u.id: u for u in (PANZER, ALLIED)}, {PANZER.id: Position(S), ALLIED.id: Position(enemy_at)})
    terrain = TerrainMap(VOC, hex_terrain={h: {"rough"} for h in rough})
    return MoveSearch(state, terrain, PANZER.id, None, RULES, None, None, False, AREA)


def test_a_search_after_others_finds_what_it_finds_alone() -> None:
    for order in (SEARCHES, SEARCHES[::-1]):
        shared = _move(Hex(2, 2))
        for args in order:
            alone = _move(Hex(2, 2))
            assert shared.hex_maps(*shared.search(*args)) == alone.hex_maps(*alone.search(*args)), args


def test_the_searches_differ_so_a_verdict_kept_for_the_wrong_one_would_show() -> None:
    found = [(m := _move(Hex(2, 2))).hex_maps(*m.search(*args))[0] for args in SEARCHES]
    legal, relaxed, zoc_kept, rough_kept = found[0], found[2], found[3], found[4]
    assert len({tuple(d.items()) for d in (legal, relaxed, zoc_kept, rough_kept)}) == 4


def _cost(enemy_at: Hex) -> int | None:
    state = GameState({u.id: u for u in (PANZER, ALLIED)}, {PANZER.id: Position(S), ALLIED.id: Position(enemy_at)})
    terrain = TerrainMap(VOC, hex_terrain={h: {"rough"} for h in ROUGH})
    return legal_path(state, terrain, PANZER.id, None, G, RULES, area=AREA).cost


def test_a_changed_state_is_judged_afresh() -> None:
    # the enemy at (-1, 2) controls the cheapest way west of the rough (8 MP round it); moved to (1, 3), 7 MP
    assert [_cost(Hex(-1, 2)), _cost(Hex(1, 3)), _cost(Hex(-1, 2))] == [8, 7, 8]
