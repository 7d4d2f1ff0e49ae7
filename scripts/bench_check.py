#!/usr/bin/env python3
"""How long `check` takes with the Kasserine pack (issue 4 targets: under 50 ms of rule work on
the example; under 2 s on a 200x200-hex map with 2,000 units), and where the time goes.

1. The example (modules/kasserine/example/turn3-faults.vsav, about 100 units, 39x26 hexes):
   reading the files, building the game state, then every rule of the pack, each timed alone
   (best of R), and the whole of `adjudicate`.
2. A generated 200x200-hex map: roads down every 8th column and along every 8th row, trails
   between them, 10% rough; Axis sources on the east edge, Allied on the west; 1,000 units a
   side on distinct random hexes, poor weather so that every weather rule has work. Only the
   map rules run (weather, stacking, rough, supply, movement, ZOC): the set-up, reinforcement
   and victory rules name Kasserine's own hexes, which that map does not have.

The share of supply is the two supply rules; the share of ZOC is the zones of control
computed inside them plus the ZOC rule.

    python scripts/bench_check.py [--runs R] [--size N] [--units U] [--seed S]
"""

from __future__ import annotations

import argparse
import random
import sys
import tomllib
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_supply import make_map  # noqa: E402
from benchkit import best  # noqa: E402

from vassal_adj.load import load_module, load_save  # noqa: E402
from vassal_adj.model.geometry.hexes import Hex  # noqa: E402
from vassal_adj.model.state import GameState, Position  # noqa: E402
from vassal_adj.model.terrain import Place, TerrainMap  # noqa: E402
from vassal_adj.model.units import Unit  # noqa: E402
from vassal_adj.packs import find_pack  # noqa: E402
from vassal_adj.rules.engine import RuleContext, adjudicate  # noqa: E402
from vassal_adj.rules.mechanisms.zoc import ZocRules, enemy_zoc  # noqa: E402
from vassal_adj.rules.packs.pack import RulePack  # noqa: E402
from vassal_adj.state_builder import game_state  # noqa: E402

REPO = Path(__file__).resolve().parents[1]
EXAMPLE = REPO / "modules" / "kasserine" / "example"
MAP_RULES = {
    "weather.effects",
    "stacking.limit",
    "terrain.prohibited",
    "supply.trace",
    "movement.allowance",
    "zoc.engaged",
}


def rule_times(state: GameState, pack: RulePack, ctx: RuleContext, runs: int) -> dict[str, float]:
    """Seconds per enabled rule, each run alone (best of `runs`)."""
    out = {}
    for rule in pack.rules:
        if rule.enabled and rule.implementation is not None:
            impl, bound = rule.implementation, replace(ctx, rule=rule)
            out[rule.name] = best(lambda impl=impl, bound=bound, rule=rule: impl.func(state, bound, rule.params), runs)
    return out


def shares(times: dict[str, float], pack: RulePack, zoc: float) -> str:
    total = sum(times.values())
    supply = sum(t for name, t in times.items() if pack.rule(name).impl == "supply.trace")
    zoc_total = zoc + sum(t for name, t in times.items() if pack.rule(name).impl == "zoc.engaged")
    return f"supply {supply / total:.0%}, zones of control {zoc_total / total:.0%} (inside supply and the ZOC rule)"


def zoc_time(state: GameState, ctx: RuleContext, runs: int) -> float:
    return best(lambda: [enemy_zoc(state, ctx.terrain, s, ZocRules()) for s in ("Axis", "Allied")], runs)


def report(title: str, times: dict[str, float], whole: float, target: float, pack: RulePack, zoc: float) -> None:
    print(title)
    for name, t in sorted(times.items(), key=lambda kv: -kv[1]):
        print(f"  {name:24s} {t * 1000:9.2f} ms  ({pack.rule(name).impl})")
    print(
        f"  {'adjudicate (all rules)':24s} {whole * 1000:9.2f} ms; target {target * 1000:.0f} ms: "
        f"{'met' if whole < target else 'MISSED'} ({whole / target:.0%} of it)"
    )
    print(f"  share: {shares(times, pack, zoc)}")


def example(runs: int) -> None:
    lp = find_pack("kasserine")
    module_path, save_path = EXAMPLE / "Kasserine.vmod", EXAMPLE / "turn3-faults.vsav"
    t_read = best(lambda: (load_module(module_path), load_save(save_path)), runs)
    module, game = load_module(module_path), load_save(save_path)
    t_state = best(lambda: game_state(module, game, lp), runs)
    state, ctx, _ = game_state(module, game, lp)
    times = rule_times(state, lp.pack, ctx, runs)
    whole = best(lambda: adjudicate(state, lp, ctx), runs)
    print(f"example: {save_path.name}, {len(state.units)} units, turn {state.turn}, {state.phase}, {state.weather}")
    print(f"  read module and save       {t_read * 1000:9.2f} ms (I/O, not rule work)")
    print(f"  build the game state       {t_state * 1000:9.2f} ms (pieces to units, terrain file)")
    report("  rules:", times, whole, 0.050, lp.pack, zoc_time(state, ctx, runs))


def large_pack() -> RulePack:
    """The Kasserine pack's map rules with sources named as places of the generated map."""
    data = tomllib.loads((REPO / "modules" / "kasserine" / "pack.toml").read_text(encoding="utf-8"))
    data["rules"] = {k: v for k, v in data["rules"].items() if v["impl"] in MAP_RULES}
    data["rules"]["axis_supply"]["sources"] = ["Axis supply"]
    data["rules"]["allied_supply"]["sources"] = ["Allied supply"]
    return RulePack.from_mapping(data, source="pack.toml (map rules)")


def large(size: int, count: int, seed: int, runs: int) -> None:
    rng = random.Random(seed)
    roads, board = make_map(size, rng)
    east = tuple(Hex.from_raw(size - 1, r) for r in range(size))
    west = tuple(Hex.from_raw(0, r) for r in range(size))
    pack = large_pack()
    terrain = TerrainMap(
        pack.vocabulary,
        roads.hex_terrain,
        roads.side_features,
        (
            Place("Axis supply", frozenset({"supply-source"}), east),
            Place("Allied supply", frozenset({"supply-source"}), west),
        ),
    )
    kinds = (("armor", 12, True), ("infantry", 7, False), ("mechanized-infantry", 11, True), ("artillery", 7, False))
    units = {}
    for i in range(count):
        kind, ma, mech = kinds[i % len(kinds)]
        units[f"u{i}"] = Unit(
            f"u{i}", f"2-2-{ma} ({i})", "Axis" if i % 2 else "Allied", kind, ma, attack=2, defense=2, mechanized=mech
        )
    state = GameState(
        units,
        {u: Position(h) for u, h in zip(units, rng.sample(sorted(board), count), strict=False)},
        turn=6,
        phase="axis-combat",
        weather="poor",
    )
    ctx = RuleContext(terrain, None, pack.id)
    times = rule_times(state, pack, ctx, runs)
    whole = best(lambda: adjudicate(state, pack, ctx), runs)
    report(
        f"generated map {size}x{size} hexes, {count} units, poor weather, axis combat phase:",
        times,
        whole,
        2.0,
        pack,
        zoc_time(state, ctx, runs),
    )


def main() -> None:
    ap = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--size", type=int, default=200)
    ap.add_argument("--units", type=int, default=2000)
    ap.add_argument("--seed", type=int, default=1943)
    args = ap.parse_args()
    sections: list[Callable[[], None]] = [
        lambda: example(args.runs),
        lambda: large(args.size, args.units, args.seed, max(1, args.runs // 2)),
    ]
    for section in sections:
        section()
        print()


if __name__ == "__main__":
    main()
