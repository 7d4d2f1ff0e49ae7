"""Supply through an HQ (issue 4: "or trace to an HQ that traces to a source"): the hq_kinds /
hq_range parameters of supply.trace and the one-search mechanism of rules/mechanisms/supply_hq.py.

The map: a road down raw column 0, which is the source column; everything else clear. An HQ
two hexes from the road is in supply by the network (initial path 3); a unit seven hexes from
the road is not, but it is three hexes from the HQ."""

from __future__ import annotations

from itertools import pairwise

from vassal_adj.model.geometry.hexes import Hex, hexside, neighbors
from vassal_adj.model.state import GameState, Position
from vassal_adj.model.terrain import Place, TerrainMap, TerrainVocabulary
from vassal_adj.model.units import Unit
from vassal_adj.rules.engine import RuleContext
from vassal_adj.rules.mechanisms.implementations import supply_trace
from vassal_adj.rules.registry import Params, load_builtin_rules
from vassal_adj.rules.results import Severity

VOC = TerrainVocabulary(terrain=frozenset({"clear"}), features=frozenset({"road", "trail"}))
ROAD = [Hex.from_raw(0, r) for r in range(12)]
TERRAIN = TerrainMap(
    VOC,
    side_features={hexside(a, b): frozenset({"road"}) for a, b in pairwise(ROAD)},
    named_places=(Place("source", frozenset({"supply-source"}), (ROAD[0],)),),
)
HQ = Unit("hq", "HQ (II Corps)", "Allied", "hq", 6)
INF = Unit("inf", "1-2-7 (3/39)", "Allied", "infantry", 7, attack=1, defense=2)


def run(*placed: tuple[Unit, Hex], hq_range: int = 3) -> dict[str, list]:
    p = Params(
        {
            **load_builtin_rules().lookup("supply.trace").defaults(),
            "side": "Allied",
            "initial": 3,
            "sources": ("source",),
            "hq_kinds": ("hq",),
            "hq_range": hq_range,
            "hq_rule": "HQ rule",
            "obstruction": {"enemy_zoc": False},
        }
    )
    state = GameState({u.id: u for u, _ in placed}, {u.id: Position(h) for u, h in placed})
    out: dict[str, list] = {}
    for f in supply_trace(state, RuleContext(TERRAIN, None, "test"), p):
        if f.units and f.hexes:
            out.setdefault(f.units[0], []).append(f)
    return out


def test_a_unit_beyond_the_network_is_supplied_through_a_supplied_hq() -> None:
    found = run((HQ, Hex.from_raw(2, 5)), (INF, Hex.from_raw(5, 5)))
    assert found["hq"][0].severity == Severity.INFO and "is in supply: 2 hexes" in found["hq"][0].message
    (inf,) = found["inf"]
    assert inf.severity == Severity.INFO and inf.units == ("inf", "hq")
    assert "is in supply through HQ HQ (II Corps): 3 hexes" in inf.message and inf.message.endswith(
        "within 3 [HQ rule]"
    )


def test_out_of_hq_range_is_out_of_supply() -> None:
    found = run((HQ, Hex.from_raw(2, 5)), (INF, Hex.from_raw(5, 5)), hq_range=2)
    assert found["inf"][0].severity == Severity.WARNING and "out of supply" in found["inf"][0].message


def test_an_hq_out_of_supply_passes_none_on() -> None:
    found = run((HQ, Hex.from_raw(5, 4)), (INF, Hex.from_raw(7, 5)))
    assert all(f.severity == Severity.WARNING for f in found["hq"] + found["inf"])


def test_enemy_units_block_the_path_to_the_hq() -> None:
    unit_at, hq_at = Hex.from_raw(4, 9), Hex.from_raw(2, 9)
    free = run((HQ, hq_at), (INF, unit_at), hq_range=2)
    assert "through HQ" in free["inf"][0].message
    # Every two-hex path runs through a hex next to both: hold them all.
    between = sorted(set(neighbors(unit_at)) & set(neighbors(hq_at)))
    assert len(between) == 2
    enemies = [(Unit(f"x{i}", f"5-3-12 ({i})", "Axis", "armor", 12), h) for i, h in enumerate(between)]
    blocked = run((HQ, hq_at), (INF, unit_at), *enemies, hq_range=2)
    assert blocked["inf"][0].severity == Severity.WARNING and "through HQ" not in blocked["inf"][0].message
