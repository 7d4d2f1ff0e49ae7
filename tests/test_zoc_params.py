"""Zones of control as pack parameters (RULES-MAP N5), each case worked by hand from a seed's words.

The `zoc_*` parameters of `movement.allowance`, `zoc.engaged` and `supply.trace` are read by one
function (`movement_rules.zoc_rules`), so movement and supply see the same zone. Maps are tiny:
a unit at H(5, 5) and its six neighbours; hex names are `default_label` ("0506").
"""

from __future__ import annotations

from vassal_adj.model.geometry.hexes import Hex, hexside, neighbors
from vassal_adj.model.state import GameState, Position
from vassal_adj.model.terrain import TerrainMap, TerrainVocabulary
from vassal_adj.model.units import Unit
from vassal_adj.rules.mechanisms.movement import legal_path
from vassal_adj.rules.mechanisms.movement_rules import movement_rules, zoc_rules
from vassal_adj.rules.mechanisms.zoc import enemy_zoc
from vassal_adj.rules.registry import load_builtin_rules

VOC = TerrainVocabulary(terrain={"clear", "impassable"}, features={"crest", "all-sea", "strait", "road"})
REG = load_builtin_rules()


def H(c: int, r: int) -> Hex:
    return Hex.from_raw(c, r)


def params(impl: str, **given: object) -> dict[str, object]:
    """A rule's parameters as the pack loader gives them: the defaults, then what the pack wrote."""
    return {**REG.lookup(impl).defaults(), **given}


def tmap(hexes: dict[Hex, set[str]] | None = None, sides: dict[tuple[Hex, Hex], set[str]] | None = None) -> TerrainMap:
    return TerrainMap(
        VOC, hex_terrain=hexes or {}, side_features={hexside(a, b): fs for (a, b), fs in (sides or {}).items()}
    )


def game(*placed: tuple[Unit, Hex]) -> GameState:
    return GameState({u.id: u for u, _ in placed}, {u.id: Position(h) for u, h in placed})


AXIS = Unit("g1", "3-3-6", "Axis", "infantry", 6)
AXIS_EM = Unit("g9", "EM 10 Pz", "Axis", "em", 6)
ALLIED = Unit("a1", "2-2-6", "Allied", "infantry", 6)
CENTRE = H(5, 5)
NORTH, SOUTH = H(5, 4), H(5, 6)


def test_tunisia_2_1_no_zoc_beyond_a_mountain_crest() -> None:
    """Tunisia 1943, 2.1: "mountains: a unit doesn't exercise a zone of control (see rule 3) beyond
    a crest of mountain." A crest hexside between the Axis unit and its northern neighbour: that
    hex is not in its zone, the five others are."""
    terrain = tmap(sides={(CENTRE, NORTH): {"crest"}})
    z = enemy_zoc(
        game((AXIS, CENTRE)), terrain, "Allied", zoc_rules(params("zoc.engaged", zoc_blocked_features=("crest",)))
    )
    assert z == frozenset(neighbors(CENTRE)) - {NORTH}
    assert NORTH in enemy_zoc(game((AXIS, CENTRE)), terrain, "Allied", zoc_rules(params("zoc.engaged")))


def test_tunisia_3_em_is_no_combat_unit_and_no_zoc_into_impassable_terrain() -> None:
    """Tunisia 1943, 3: "Each combat unit does exercise a zone of control (ZoC) into the six adjacent
    hex (except into impassable terrain)"; EMs (divisional HQs) are not combat units. The EM alone
    controls nothing; the infantry unit controls its neighbours but the impassable one."""
    p = params("zoc.engaged", zoc_not_exert=("em",), zoc_blocked_terrain=("impassable",))
    terrain = tmap({SOUTH: {"impassable"}})
    assert enemy_zoc(game((AXIS_EM, CENTRE)), terrain, "Allied", zoc_rules(p)) == frozenset()
    assert enemy_zoc(game((AXIS, CENTRE)), terrain, "Allied", zoc_rules(p)) == frozenset(neighbors(CENTRE)) - {SOUTH}
    only_infantry = zoc_rules(params("zoc.engaged", zoc_exert=("infantry",)))  # the same said as who exerts one
    assert enemy_zoc(game((AXIS_EM, CENTRE)), terrain, "Allied", only_infantry) == frozenset()


def test_kesselring_11_1_zoc_not_across_all_sea_or_strait_and_never_negated() -> None:
    """Kesselring's War 11.1: "ZOCs extend across all hexsides with the exception of all-sea or
    strait hexsides." and "Enemy zones of control (EZOC) are never negated by other friendly units
    for any purpose." An Allied unit in the Axis unit's zone stays in it (zoc_negated_for empty);
    a pack that lets friendly units negate it for movement removes that hex."""
    terrain = tmap(sides={(CENTRE, NORTH): {"all-sea"}, (CENTRE, SOUTH): {"strait"}})
    p = params("zoc.engaged", zoc_blocked_features=("all-sea", "strait"))
    east = next(n for n in neighbors(CENTRE) if n not in (NORTH, SOUTH))
    state = game((AXIS, CENTRE), (ALLIED, east))
    z = enemy_zoc(state, terrain, "Allied", zoc_rules(p))
    assert NORTH not in z and SOUTH not in z and east in z and len(z) == 4
    negating = zoc_rules({**p, "zoc_negated_for": ("movement",)})
    assert east not in enemy_zoc(state, terrain, "Allied", negating)


def test_tunisia_10_exploitation_may_leave_but_not_enter_a_zoc() -> None:
    """Tunisia 1943, 10: "No unit can enter the ZoC of an enemy unit during this phase (one can on
    the other hand leave a ZoC at the beginning of the phase)." Allied unit at 0507, two hexes
    south of the Axis unit: moving north into 0506 (in its zone) is illegal, even by the minimum
    move; an Allied unit starting in 0506 may move south out of it."""
    rules = movement_rules(params("movement.allowance", zoc_mode="no-entry", zoc_to_zoc=False))
    far = H(5, 7)
    res = legal_path(game((AXIS, CENTRE), (ALLIED, far)), tmap(), "a1", None, SOUTH, rules)
    assert not res.ok and res.reason.startswith("may not enter enemy zone of control at 0506")
    assert "Axis 3-3-6 in 0505" in res.reason and res.units == ("g1",)
    assert legal_path(game((AXIS, CENTRE), (ALLIED, SOUTH)), tmap(), "a1", None, far, rules).ok
    stop = movement_rules(params("movement.allowance", zoc_mode="stop"))
    assert legal_path(game((AXIS, CENTRE), (ALLIED, far)), tmap(), "a1", None, SOUTH, stop).ok  # 3: stop, not barred


def test_supply_and_movement_read_one_zoc_definition() -> None:
    """Kesselring's War 11.1 (no ZOC across all-sea hexsides) written once as zoc_* parameters:
    supply.trace's zone and movement's zone are the same set, and both differ from the zone the
    default rules draw (so the parameters reach supply)."""
    terrain = tmap(sides={(CENTRE, NORTH): {"all-sea"}})
    given = {"zoc_blocked_features": ("all-sea",)}
    state = game((AXIS, CENTRE))
    supply = params("supply.trace", **given)
    movement = movement_rules(params("movement.allowance", **given)).zoc
    assert movement is not None
    z = enemy_zoc(state, terrain, "Allied", zoc_rules(supply), purpose="supply")
    assert z == enemy_zoc(state, terrain, "Allied", movement) and NORTH not in z
    assert z != enemy_zoc(state, terrain, "Allied", zoc_rules(params("supply.trace")), purpose="supply")
