"""Size and time of `vassal-adj verify FILE --module MOD --format html` on large logs (issue 10).

Two pages, each made as a user makes it (the command line, in a new process, so start-up,
decoding and the pictures all count):

* the CCN tutorial log of the corpus (2,236 logged steps, 295 moves; no rule pack), and
* a generated Kasserine log of --moves moves judged by the pack (scripts/bench_verify.py's
  log: every Allied unit moves two hexes and back, phase after phase), which gives a page
  with many phases, moves and findings.

Printed for each: the page's size in MB and the best of --runs timings, and the ratio to the
figures the issue reports for the page of a 3,000-step log before this work (65 MB, 33 s).

    python scripts/bench_html.py [--runs 3] [--moves 3000]

Measured (best of 1-2, two shared cores): before (main 99922cd) the CCN page was 1.78 MB in
1.85 s and the 3,000-move page 19.92 MB in 17.07 s; after, 1.88 MB in 1.35 s (the counters
add little: the corpus module has no piece images) and 2.60 MB in 5.59 s, of which the
pack's checks take most (the page itself: some 1.5 s).
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from bench_verify import EXAMPLE, make_log
from benchkit import DEFAULT_CORPUS

OLD_MB, OLD_S = 65.0, 33.0  # the figures for a 3,000-step log's page before
CCN = DEFAULT_CORPUS / "CommandsAndColorsNapoleonics"


def page(args: list[str], runs: int) -> tuple[float, float]:
    """(size in MB, best time in s) of the verify page for `args`."""
    best, size = float("inf"), 0
    for _ in range(runs):
        start = time.perf_counter()
        out = subprocess.run(
            [sys.executable, "-c", "from vassal_adj.cli import main; main()", "verify", *args, "--format", "html"],
            capture_output=True,
            check=False,
        )
        best = min(best, time.perf_counter() - start)
        if out.returncode not in (0, 1):  # 1: the page reports errors
            raise SystemExit(f"verify failed ({out.returncode}): {out.stderr.decode(errors='replace')}")
        size = len(out.stdout)
    return size / 1e6, best


def show(name: str, mb: float, seconds: float) -> None:
    print(
        f"{name}: {mb:.2f} MB in {seconds:.2f} s; {mb / OLD_MB:.3f} x the old {OLD_MB:g} MB, "
        f"{seconds / OLD_S:.3f} x the old {OLD_S:g} s"
    )


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--moves", type=int, default=3000)
    args = ap.parse_args()
    log = CCN / "CCNv4 Tutorial.vlog"
    if log.exists():
        show(
            "CCN tutorial log", *page([str(log), "--module", str(CCN / "CommandsAndColorsNapoleonics.vmod")], args.runs)
        )
    else:
        print(f"CCN tutorial log: not found at {log} (set VASSAL_ADJ_CORPUS)")
    _, game = make_log(args.moves)
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "bench.vlog"
        game.write(path)
        show(
            f"Kasserine log of {args.moves} moves, --pack kasserine",
            *page([str(path), "--module", str(EXAMPLE / "Kasserine.vmod"), "--pack", "kasserine"], args.runs),
        )


if __name__ == "__main__":
    main()
