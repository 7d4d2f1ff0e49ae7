"""Time `vassal-adj --help`, `check` and `verify` on the Kasserine example against a bare Python start.

What a user waits for on a short command is mostly the interpreter starting and importing.
Each command runs in a fresh process (the same interpreter as this script), best of N runs;
printed are the times and their ratios to `python -c pass`, with the targets of issue 10:
`--help` within 5x, `check` on the example within 8x. `verify` is shown for comparison.
Also printed: the import time of `vassal_adj.cli` alone and whether it loads numpy, shapely,
Pillow or lxml (it should load none of them).

The commands run as an installed program does, with its bytecode cached: PYTHONDONTWRITEBYTECODE
is dropped from their environment and each is run once untimed first (that run writes the
__pycache__ files; without them every start compiles the package again, a cost users never pay).

    python scripts/bench_startup.py [--runs 5]
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
from pathlib import Path

from benchkit import best

EXAMPLE = Path(__file__).resolve().parents[1] / "modules" / "kasserine" / "example"
MODULE = str(EXAMPLE / "Kasserine.vmod")
ENTRY = "import sys; from vassal_adj.cli import main; sys.exit(main())"  # what the vassal-adj script runs
HEAVY = ("numpy", "shapely", "PIL", "lxml")
COMMANDS: list[tuple[str, list[str], float | None]] = [  # (label, arguments, target ratio)
    ("--help", ["--help"], 5.0),
    ("check", ["check", str(EXAMPLE / "turn3-faults.vsav"), "--module", MODULE], 8.0),
    ("verify", ["verify", str(EXAMPLE / "turn4-axis.vlog"), "--module", MODULE], None),
]
ENV = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}


def _run(argv: list[str]) -> None:
    subprocess.run(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=ENV, check=False)


def _time(argv: list[str], runs: int) -> float:
    _run(argv)  # untimed: writes the bytecode cache
    return best(lambda: _run(argv), runs)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=5)
    args = ap.parse_args()
    bare = _time([sys.executable, "-c", "pass"], args.runs)
    print(f"python -c pass: {bare * 1000:.0f} ms (1.0x)")
    imported = _time([sys.executable, "-c", "import vassal_adj.cli"], args.runs)
    print(f"import vassal_adj.cli: {imported * 1000:.0f} ms ({imported / bare:.1f}x)")
    probe = f"import sys, vassal_adj.cli; print(' '.join(m for m in {HEAVY!r} if m in sys.modules))"
    loaded = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True).stdout.split()
    print(f"  heavy libraries loaded at startup: {', '.join(loaded) or 'none'}")
    for label, argv, target in COMMANDS:
        t = _time([sys.executable, "-c", ENTRY, *argv], args.runs)
        goal = f", target within {target:.0f}x: {'met' if t / bare <= target else 'NOT met'}" if target else ""
        print(f"vassal-adj {label}: {t * 1000:.0f} ms ({t / bare:.1f}x{goal})")


if __name__ == "__main__":
    main()
