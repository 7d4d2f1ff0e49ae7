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

Run it with the interpreter of a regular install (`pip install .` into a venv, as a user
installs): an editable install (`pip install -e .`) puts a path finder in front of every start,
the bare one included, which adds about 10 ms to each and flatters every ratio. The script
says so when it is run that way.

The CPU time of each command (user + system, from the child's resource usage) is shown beside
its wall-clock time: on a machine shared with other work the wall clock swings from run to
run, the CPU time much less.

Each command is timed three ways with the user cache (vassal_adj/user_cache.py: the compiled
code of dataclass methods, the parsed module, a board's hex index, the pack's TOML and terrain):
off (VASSAL_ADJ_NO_CACHE=1), cold (an empty cache directory for every run, so each run also
writes its entries) and warm (the entries a first run wrote: what a user sees from the second
run on). The cache used is a temporary directory, never the user's. The targets are judged on
the warm figures, and the cold and off ones are printed beside them.

With --breakdown, each command is also run once (warm) with its time split: importing
`vassal_adj.cli`, importing the command's module, running it (which imports what the command
loads lazily), and, across all of that, the time spent creating dataclasses (Python 3.11
compiles each generated method separately: the largest single cost of importing this package),
with the modules that spend most of it, and the heavy libraries the command loaded.

    python scripts/bench_startup.py [--runs 5] [--breakdown]
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import tempfile
from pathlib import Path

from benchkit import best

from vassal_adj.cli.lazy import LAZY_COMMANDS

EXAMPLE = Path(__file__).resolve().parents[1] / "modules" / "kasserine" / "example"
MODULE = str(EXAMPLE / "Kasserine.vmod")
ENTRY = "import sys; from vassal_adj.cli import main; sys.exit(main())"  # what the vassal-adj script runs
HEAVY = ("numpy", "shapely", "PIL", "lxml")
COMMANDS: list[tuple[str, list[str], float | None]] = [  # (label, arguments, target ratio)
    ("--help", ["--help"], 5.0),
    ("check", ["check", str(EXAMPLE / "turn3-faults.vsav"), "--module", MODULE], 8.0),
    ("verify", ["verify", str(EXAMPLE / "turn4-axis.vlog"), "--module", MODULE], None),
]
# The commands run in the interpreter's own directory: `python -c` puts the working directory
# first on sys.path, so run from the checkout they would import its vassal_adj, not the installed
# one; the `vassal-adj` script has that directory first on sys.path too.
AWAY = os.path.dirname(sys.executable)
ENV = {
    k: v
    for k, v in os.environ.items()
    if k not in ("PYTHONDONTWRITEBYTECODE", "VASSAL_ADJ_CACHE", "VASSAL_ADJ_NO_CACHE")
}


# Run in the child by --breakdown: times the phases of one command and the dataclasses made
# on the way (the decorator is wrapped before any module of the package imports it).
BREAKDOWN = """
import dataclasses, json, sys, time
start, made, where = time.perf_counter(), [0, 0.0], {}
real = dataclasses.dataclass
def timed(cls=None, /, **options):
    def wrap(c):
        t = time.perf_counter()
        out = real(**options)(c)
        made[0] += 1
        made[1] += time.perf_counter() - t
        where[c.__module__] = where.get(c.__module__, 0.0) + time.perf_counter() - t
        return out
    return wrap if cls is None else wrap(cls)
dataclasses.dataclass = timed
from vassal_adj.cli import main
cli = time.perf_counter()
main.get_command(None, sys.argv[2])  # imports the command's module as a run does (cli/lazy.py)
command = time.perf_counter()
try:
    main(sys.argv[2:])
except SystemExit:
    pass
done = time.perf_counter()
print(json.dumps({"cli": cli - start, "command": command - cli, "run": done - command, "total": done - start,
                  "dataclasses": made[0], "dataclass_time": made[1], "modules": len(sys.modules),
                  "dataclasses_by_module": where, "heavy": [m for m in HEAVY if m in sys.modules]}), file=sys.stderr)
"""


def _run(argv: list[str], env: dict[str, str]) -> float:
    """Run a command, output discarded; its CPU time (user + system) in seconds."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env, check=False, cwd=AWAY)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def _env(cache: str) -> dict[str, str]:
    """The environment of a run: `cache` "off", or the user cache directory to use."""
    return {**ENV, "VASSAL_ADJ_NO_CACHE": "1"} if cache == "off" else {**ENV, "VASSAL_ADJ_CACHE": cache}


def _time(argv: list[str], runs: int, mode: str = "off", root: str = "") -> tuple[float, float]:
    """Best wall-clock time and best CPU time of `runs` runs, in seconds; `mode` off, cold or warm
    (the user cache; `root` the directory its temporary cache directories go in)."""
    warm = tempfile.mkdtemp(dir=root or None)
    _run(argv, _env("off" if mode == "off" else warm))  # untimed: writes the bytecode cache (and warms `warm`)
    cpu: list[float] = []

    def once() -> None:
        cache = "off" if mode == "off" else warm if mode == "warm" else tempfile.mkdtemp(dir=root or None)
        cpu.append(_run(argv, _env(cache)))

    wall = best(once, runs)
    return wall, min(cpu)


def _breakdown(argv: list[str], root: str) -> str:
    module = LAZY_COMMANDS[argv[0]][0]
    env = _env(tempfile.mkdtemp(dir=root))
    code = [sys.executable, "-c", f"HEAVY = {HEAVY!r}\n{BREAKDOWN}", module, *argv]
    subprocess.run(code, capture_output=True, env=env, check=False, cwd=AWAY)  # warms the cache
    done = subprocess.run(code, capture_output=True, text=True, env=env, check=False, cwd=AWAY)
    t = json.loads(done.stderr.strip().splitlines()[-1])
    ms = {k: f"{t[k] * 1000:.0f} ms" for k in ("cli", "command", "run", "total", "dataclass_time")}
    return (
        f"  import vassal_adj.cli {ms['cli']}, import {module} {ms['command']}, run {ms['run']} "
        f"(total {ms['total']}, {t['modules']} modules); {t['dataclasses']} dataclasses made in "
        f"{ms['dataclass_time']}, most in "
        + ", ".join(
            f"{m} {v * 1000:.0f} ms" for m, v in sorted(t["dataclasses_by_module"].items(), key=lambda kv: -kv[1])[:5]
        )
        + f"; heavy libraries loaded: {', '.join(t['heavy']) or 'none'}"
    )


def _editable() -> bool:
    """Whether vassal_adj is installed editable in this interpreter (PEP 660 direct_url.json)."""
    from importlib.metadata import PackageNotFoundError, distribution

    try:
        url = distribution("vassal-adj").read_text("direct_url.json") or "{}"
    except PackageNotFoundError:
        return False
    return bool(json.loads(url).get("dir_info", {}).get("editable"))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--breakdown", action="store_true", help="also split each command's time into its phases")
    args = ap.parse_args()
    if _editable():
        print(
            "note: vassal-adj is installed editable here; its path finder slows every start, the bare one "
            "too, so the ratios below are lower than a user's (run this with a `pip install .` interpreter)"
        )
    bare, bare_cpu = _time([sys.executable, "-c", "pass"], args.runs)
    print(f"python -c pass: {bare * 1000:.0f} ms (1.0x), CPU {bare_cpu * 1000:.0f} ms")
    imported, imported_cpu = _time([sys.executable, "-c", "import vassal_adj.cli"], args.runs)
    print(
        f"import vassal_adj.cli: {imported * 1000:.0f} ms ({imported / bare:.1f}x), "
        f"CPU {imported_cpu * 1000:.0f} ms ({imported_cpu / bare_cpu:.1f}x)"
    )
    probe = f"import sys, vassal_adj.cli; print(' '.join(m for m in {HEAVY!r} if m in sys.modules))"
    loaded = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, check=True, cwd=AWAY
    ).stdout.split()
    print(f"  heavy libraries loaded at startup: {', '.join(loaded) or 'none'}")
    with tempfile.TemporaryDirectory(prefix="bench-startup-cache-") as root:
        for label, argv, target in COMMANDS:
            for mode in ("warm", "cold", "off"):
                t, cpu = _time([sys.executable, "-c", ENTRY, *argv], args.runs, mode, root)
                goal = ""
                if target is not None and mode == "warm":
                    goal = f", target within {target:.0f}x: {'met' if t / bare <= target else 'NOT met'}"
                print(
                    f"vassal-adj {label} (cache {mode}): {t * 1000:.0f} ms ({t / bare:.1f}x{goal}), "
                    f"CPU {cpu * 1000:.0f} ms ({cpu / bare_cpu:.1f}x)"
                )
            if args.breakdown and argv[0] in LAZY_COMMANDS:
                print(_breakdown(argv, root))


if __name__ == "__main__":
    main()
