"""What is wrong with a position of the example: overstacks, units out of supply, units in rough
hexes that no road or trail enters. Used by make_example.py to keep turn3-faults.vsav at exactly
its FAULTS (and setup.vsav at none), and by the tests.

This checks the position with the rule mechanisms of vassal_adj (rules/mechanisms/supply.py, rules/mechanisms/zoc.py),
not through the pack, so that it needs no units.toml: every unit counts as mechanized for the
rough-terrain check (stricter than 16.11, which exempts mechanized infantry and foot units).
"""

from __future__ import annotations

from vassal_adj.model.geometry.hexes import neighbors
from vassal_adj.model.geometry.layout import HexLayout
from vassal_adj.model.state import GameState, Position
from vassal_adj.model.terrain import TerrainMap
from vassal_adj.model.units import Unit
from vassal_adj.rules.mechanisms.supply import SupplyRules, obstructed_hexes, supply_status
from vassal_adj.rules.mechanisms.zoc import ZocRules, enemy_zoc

# The seed's 20.0: no zone of control across unbridged streams in poor weather (the example is good weather).
ZOC = ZocRules(blocked_in_weather={"poor": frozenset({"stream"})})
SUPPLY = {"Axis": SupplyRules(initial=4, rule_ref="17.11"), "Allied": SupplyRules(initial=3, rule_ref="17.12")}
SOURCES = {"Axis": "Axis supply", "Allied": "Allied supply"}


def game_state(units_on_map: dict[tuple[str, str], str], lay: HexLayout) -> GameState:
    """A state of the units on the map: (side, name) -> hex label."""
    units, positions = {}, {}
    for n, ((side, name), label) in enumerate(sorted(units_on_map.items())):
        uid = f"u{n:03d}"
        units[uid] = Unit(uid, name, side, "unit", 1)
        positions[uid] = Position(lay.require(label), label)
    return GameState(units, positions, weather="good")


def unsupplied(state: GameState, terrain: TerrainMap, side: str) -> dict[str, str]:
    """Name -> reason, for each unit of `side` out of supply (17.11-17.14; enemy units and ZOC obstruct)."""
    rules = SUPPLY[side]
    zoc = enemy_zoc(state, terrain, side, ZOC)
    blocked = obstructed_hexes(state, side, rules, zoc)
    sources = set(terrain.place(SOURCES[side]).hexes)
    status = supply_status(state, terrain, side, rules, sources, blocked)
    return {state.units[uid].name: s.reason for uid, s in status.items() if not s.supplied}


def faults(units_on_map: dict[tuple[str, str], str], terrain: TerrainMap, lay: HexLayout) -> list[tuple]:
    """(kind, hexes, units) for every overstack, unsupplied unit and unit in rough off the roads."""
    state = game_state(units_on_map, lay)
    out = []
    for h, ids in sorted(state.occupied().items(), key=lambda kv: lay.label_of(kv[0])):
        if len(ids) > 1:
            out.append(("overstack", (lay.label_of(h),), tuple(sorted(state.units[i].name for i in ids))))
    for side in ("Axis", "Allied"):
        for name in sorted(unsupplied(state, terrain, side)):
            out.append(("unsupplied", (units_on_map[(side, name)],), (name,)))
    for (_side, name), label in sorted(units_on_map.items(), key=lambda kv: kv[1]):
        h = lay.require(label)
        if "rough" in terrain.terrain(h) and not any(
            terrain.features_between(h, n) & {"road", "trail"} for n in neighbors(h)
        ):
            out.append(("mechanized in rough", (label,), (name,)))
    return out
