#!/usr/bin/env python3
"""How fast files load, against the floor of unzipping and de-obfuscating alone.

For every save and log of the corpus: the floor (read the savedGame entry, bytes.fromhex, one
bytes.translate with the XOR table, UTF-8 decode), `load_save` alone, and `load_save` plus
reading every real piece's traits (`game_pieces`), each the best of several runs, with the
ratio to the floor. Modules: `load_module` time. The target (issue 2) is a ratio of at most 3
for load + pieces on the largest save, CCN "B015 - Waterloo.vsav".

    python scripts/bench_load.py [CORPUS_DIR] [--runs N] [--match TEXT]
"""

from __future__ import annotations

import argparse
import zipfile
from pathlib import Path

from benchkit import DEFAULT_CORPUS, best

import vassal_adj
from vassal_adj.parse.builder import game_pieces
from vassal_adj.parse.chains import type_owns
from vassal_adj.parse.traits import make_trait  # traits.py loads every trait class


def floor(path: Path) -> str:
    data = zipfile.ZipFile(path).read("savedGame")
    if data[:5] != b"!VCSK":
        return data.decode("utf-8")
    raw = bytes.fromhex(data[5:].decode("ascii"))
    key = raw[0]
    return raw[1:].translate(bytes(b ^ key for b in range(256))).decode("utf-8")


def cold_caches() -> None:
    """Forget parsed traits between runs, so that every run pays for them as a first load does."""
    make_trait.cache_clear()
    type_owns.cache_clear()


def load_and_pieces(path: Path) -> int:
    cold_caches()
    game = vassal_adj.load_save(path)
    return len(game_pieces(game.root, None, game.path))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("corpus", nargs="?", type=Path, default=DEFAULT_CORPUS)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--match", default="", help="only files whose path contains this text")
    args = parser.parse_args()
    saves = sorted(p for p in args.corpus.rglob("*") if p.suffix in (".vsav", ".vlog") and args.match in str(p))
    modules = sorted(p for p in args.corpus.rglob("*.vmod") if args.match in str(p))
    print(
        f"{'save or log':48} {'MB text':>8} {'floor ms':>9} {'load ms':>8} {'x':>5} "
        f"{'+pieces ms':>11} {'x':>5} {'pieces':>7}"
    )
    for path in saves:
        size = len(floor(path).encode("utf-8")) / 1e6
        f = best(lambda path=path: floor(path), args.runs)
        load = best(lambda path=path: vassal_adj.load_save(path), args.runs)
        full = best(lambda path=path: load_and_pieces(path), args.runs)
        name = f"{path.parent.name}/{path.name}"[:48]
        print(
            f"{name:48} {size:8.2f} {f * 1e3:9.1f} {load * 1e3:8.1f} {load / f:5.2f} "
            f"{full * 1e3:11.1f} {full / f:5.2f} {load_and_pieces(path):7d}"
        )
    print()
    print(f"{'module':48} {'MB file':>8} {'load ms':>9}")
    for path in modules:
        t = best(lambda path=path: vassal_adj.load_module(path), max(1, args.runs // 2))
        print(f"{path.parent.name + '/' + path.name:48.48} {path.stat().st_size / 1e6:8.2f} {t * 1e3:9.1f}")


if __name__ == "__main__":
    main()
