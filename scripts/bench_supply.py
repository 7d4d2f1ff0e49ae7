#!/usr/bin/env python3
"""How long supply takes for 2,000 units on a 200x200-hex map (issue 4: under 2 s in all).

A generated map: roads down every 8th column and along every 8th row, trails down the
columns between them, rough hexes sprinkled about; Axis sources on the east edge, Allied on
the west edge (as in Kasserine). 1,000 units a side on distinct random hexes. Enemy zones of
control are the six neighbours of every enemy unit (computed here; rules/mechanisms/zoc.py does it for
real), and friendly units negate them (the default). Timed, best of R runs:

- network build: the road and trail graphs of the map (once per map; `TerrainMap` caches it);
- obstructed: `obstructed_hexes` for both sides;
- supply: `supply_status` for both sides (the one search per side, plus a look-up and, for
  each unsupplied unit, its reason);
- paths: rebuilding the supply path of every supplied unit (on demand in reports).

    python scripts/bench_supply.py [--size N] [--units U] [--seed S] [--runs R]
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Callable
from itertools import pairwise

from vassal_adj.model.geometry.hexes import Hex, hexside, neighbors
from vassal_adj.model.state import GameState, Position
from vassal_adj.model.terrain import TerrainMap, TerrainVocabulary
from vassal_adj.model.units import Unit
from vassal_adj.rules.mechanisms.supply import SupplyRules, obstructed_hexes, supply_status

TARGET = 2.0
AXIS = SupplyRules(initial=4, rule_ref="17.11")
ALLIED = SupplyRules(initial=3, rule_ref="17.12")


def best(func: Callable[[], object], runs: int) -> tuple[float, object]:
    times, out = [], None
    for _ in range(runs):
        start = time.perf_counter()
        out = func()
        times.append(time.perf_counter() - start)
    return min(times), out


def make_map(size: int, rng: random.Random) -> tuple[TerrainMap, frozenset[Hex]]:
    board = frozenset(Hex.from_raw(c, r) for c in range(size) for r in range(size))
    sides: dict = {}

    def lay(feature: str, chain: list[Hex]) -> None:
        for a, b in pairwise(chain):
            sides.setdefault(hexside(a, b), set()).add(feature)

    for c in range(0, size, 8):
        lay("road", [Hex.from_raw(c, r) for r in range(size)])
        if c + 4 < size:
            lay("trail", [Hex.from_raw(c + 4, r) for r in range(size)])
    for r in range(0, size, 8):
        lay("road", [Hex.from_raw(c, r) for c in range(size)])
    rough = {h: {"rough"} for h in board if rng.random() < 0.1}
    voc = TerrainVocabulary(terrain={"clear", "rough"}, features={"road", "trail"})
    return TerrainMap(voc, hex_terrain=rough, side_features=sides, board=board), board


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--size", type=int, default=200)
    ap.add_argument("--units", type=int, default=2000)
    ap.add_argument("--seed", type=int, default=1943)
    ap.add_argument("--runs", type=int, default=3)
    args = ap.parse_args()
    rng = random.Random(args.seed)
    terrain, board = make_map(args.size, rng)
    hexes = rng.sample(sorted(board), args.units)
    units = {f"u{i}": Unit(f"u{i}", f"u{i}", "Axis" if i % 2 else "Allied", "infantry", 7) for i in range(args.units)}
    state = GameState(units, {uid: Position(h) for uid, h in zip(units, hexes, strict=False)})
    sources = {
        "Axis": frozenset(Hex.from_raw(args.size - 1, r) for r in range(args.size)),
        "Allied": frozenset(Hex.from_raw(0, r) for r in range(args.size)),
    }
    rules = {"Axis": AXIS, "Allied": ALLIED}
    zoc = {
        side: frozenset(
            n for u in state.side_units("Allied" if side == "Axis" else "Axis") for n in neighbors(state.hex_of(u.id))
        )  # type: ignore[arg-type]
        for side in rules
    }

    t_net, _ = best(lambda: [terrain.network("road"), terrain.network("trail")], 1)

    def obstructed() -> dict:
        return {side: obstructed_hexes(state, side, rules[side], zoc[side]) for side in rules}

    t_obs, blocked = best(obstructed, args.runs)
    assert isinstance(blocked, dict)

    def supply() -> dict:
        return {side: supply_status(state, terrain, side, rules[side], sources[side], blocked[side]) for side in rules}

    t_sup, result = best(supply, args.runs)
    assert isinstance(result, dict)
    statuses = [s for side in result.values() for s in side.values()]
    t_path, _ = best(lambda: [s.path for s in statuses if s.supplied], 1)
    supplied = sum(s.supplied for s in statuses)
    total = t_obs + t_sup
    print(
        f"map {args.size}x{args.size} hexes, {len(terrain.side_features)} road/trail hexsides, "
        f"{args.units} units ({supplied} supplied, {len(statuses) - supplied} not)"
    )
    print(f"network build (once per map) {t_net * 1000:8.1f} ms")
    print(f"obstructed hexes, both sides {t_obs * 1000:8.1f} ms")
    print(f"supply status, both sides    {t_sup * 1000:8.1f} ms")
    print(f"paths of supplied units      {t_path * 1000:8.1f} ms (on demand)")
    print(
        f"whole check                  {total * 1000:8.1f} ms; target {TARGET:.0f} s: "
        f"{'met' if total < TARGET else 'MISSED'} ({total / TARGET:.0%} of it)"
    )


if __name__ == "__main__":
    main()
