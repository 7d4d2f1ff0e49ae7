#!/usr/bin/env python3
"""How fast pixels become labels and labels become centres, on the Commands & Colors grid.

Board "Inland" of CommandsAndColorsNapoleonics.vmod: a ZonedGrid whose zone "Battlefield"
holds a sideways hex grid with letter columns and descending rows, and four zones with
region grids. For N seeded random points over the board: `grid.board_location_name` one
call at a time, and `batch.location_names` on the whole array (its first call also builds
the zone index, timed apart); the two must agree on every point. Then label -> centre for
every hex of the board, one `board_hex_center` call at a time and with `batch.hex_centers`.
Targets (issue 3): 100,000 single calls per second, 2,000,000 points per second in batch.

    python scripts/bench_grid.py [MODULE] [--points N] [--seed S] [--runs R]
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

import numpy as np
from benchkit import DEFAULT_CORPUS, best

import vassal_adj
from vassal_adj.model.geometry.batch import hex_centers, location_names
from vassal_adj.model.geometry.grid import board_hex_center, board_location_name
from vassal_adj.model.geometry.regions import zone_index
from vassal_adj.model.module import BoardDef, HexGridDef, ZonedGridDef

DEFAULT_MODULE = DEFAULT_CORPUS / "CommandsAndColorsNapoleonics" / "CommandsAndColorsNapoleonics.vmod"
SINGLE_TARGET = 100_000
BATCH_TARGET = 2_000_000


def report(what: str, count: int, seconds: float, target: int | None = None) -> None:
    rate = count / seconds
    ratio = f"  {rate / target:6.2f} x target ({target:,}/s)" if target else ""
    print(f"{what:44} {count:>10,} in {seconds:8.3f} s  {rate:>13,.0f} /s{ratio}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("module", nargs="?", type=Path, default=DEFAULT_MODULE)
    parser.add_argument("--map", default="Main Map")
    parser.add_argument("--board", default="Inland")
    parser.add_argument("--points", type=int, default=1_000_000)
    parser.add_argument("--seed", type=int, default=20240601)
    parser.add_argument("--runs", type=int, default=3, help="batch runs; the best is shown")
    args = parser.parse_args()

    board = vassal_adj.load_module(args.module).maps[args.map].boards[args.board]
    rng = np.random.default_rng(args.seed)
    xs = rng.uniform(0, board.width, args.points)
    ys = rng.uniform(0, board.height, args.points)
    print(
        f"{args.module.name}: board {board.name!r} {board.width}x{board.height}, "
        f"{args.points:,} points (seed {args.seed})"
    )

    px, py = xs.tolist(), ys.tolist()
    start = time.perf_counter()
    single = [board_location_name(board, x, y) for x, y in zip(px, py, strict=True)]
    report("pixel -> label, single calls", args.points, time.perf_counter() - start, SINGLE_TARGET)

    if isinstance(board.grid, ZonedGridDef):
        start = time.perf_counter()
        zone_index(board.grid)
        print(f"{'zone index built once (shapely)':44} {time.perf_counter() - start:25.3f} s")
    batch = location_names(board, xs, ys)
    seconds = best(lambda: location_names(board, xs, ys), args.runs)
    report("pixel -> label, batch API", args.points, seconds, BATCH_TARGET)
    agree = sum(a == b for a, b in zip(single, batch, strict=True))
    print(f"{'batch agrees with single calls':44} {agree:>10,} of {args.points:,}")

    labels = hex_labels(board, single)
    reps = max(1, 200_000 // max(len(labels), 1))
    many = labels * reps
    start = time.perf_counter()
    for label in many:
        board_hex_center(board, label)
    report(f"label -> centre, single ({len(labels)} hexes x{reps})", len(many), time.perf_counter() - start)
    seconds = best(lambda: hex_centers(board, many), args.runs)
    report(f"label -> centre, batch ({len(labels)} hexes x{reps})", len(many), seconds)
    back = sum(
        board_location_name(board, *c) == n for n, c in zip(labels, hex_centers(board, labels), strict=True) if c
    )
    print(f"{'round trips label -> centre -> label':44} {back:>10,} of {len(labels):,}")


def hex_labels(board: BoardDef, names: list[str | None]) -> list[str]:
    """The distinct names that are hexes: their centre lies on a hex grid (a zone's or the board's)."""
    out = []
    for name in sorted({n for n in names if n is not None}):
        centre = board_hex_center(board, name)
        if centre is None:
            continue
        grid = board.grid
        if isinstance(grid, ZonedGridDef):
            zone = zone_index(grid).zone_at(*centre)
            grid = zone.grid if zone is not None else grid.background
        if isinstance(grid, HexGridDef):
            out.append(name)
    return out


if __name__ == "__main__":
    main()
