#!/usr/bin/env python3
"""How fast `vassal-adj batch` judges a tournament (issue 16), and where the time goes.

Generates GAMES games (default 200) from the Kasserine example (scripts/make_example.py's
files): each a set-up save then one of the example's turn-4 logs, saved an hour or more apart,
with faults sprinkled at random from a fixed seed (a log cut short, a foreign Tunisia save
added, the set-up left out, a log saved before the set-up). Then it prints:

- process start: a Python process importing the batch worker (what each extra job pays);
- module load and pack load, once per worker (worker.start);
- rule work: verify, check and vp of one game, the mean over the first games, in process;
- the whole batch, as `vassal-adj batch` runs it, with 1 and 2 jobs: games per second.

The machine's load average is printed with the figures: on a shared machine they vary.

    python scripts/bench_batch.py [GAMES]
"""

from __future__ import annotations

import os
import random
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))
sys.path.insert(0, str(ROOT / "scripts"))

from batch_games import EXAMPLE, FOREIGN, MODULE, redated  # noqa: E402

HOUR = 3_600_000
LOGS = ("turn4-axis.vlog", "turn4-restart.vlog", "turn4-wrong-start.vlog")


def generate(root: Path, games: int, seed: int = 16) -> None:
    rnd = random.Random(seed)
    for n in range(games):
        d = root / f"game-{n:03d}"
        d.mkdir(parents=True)
        start = rnd.randrange(1000) * HOUR
        fault = rnd.choice([None, None, None, "cut", "foreign", "no-setup", "early-log"])
        if fault != "no-setup":
            redated(EXAMPLE / "setup.vsav", d / "setup.vsav", start)
        log = rnd.choice(LOGS)
        later = start + (-HOUR if fault == "early-log" else rnd.randrange(1, 72) * HOUR)
        redated(EXAMPLE / log, d / log, later)
        if fault == "cut":
            (d / log).write_bytes((d / log).read_bytes()[: rnd.randrange(200, 2000)])
        elif fault == "foreign":
            shutil.copy(FOREIGN, d / "other.vsav")


def _timed(func) -> tuple[float, object]:
    t = time.perf_counter()
    out = func()
    return time.perf_counter() - t, out


def main(games: int = 200) -> None:
    from vassal_adj.batch import worker
    from vassal_adj.batch.discovery import find_games

    print(f"load average (1, 5, 15 min): {' '.join(f'{x:.2f}' for x in os.getloadavg())}; cpus {os.cpu_count()}")
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp) / "games"
        generate(root, games)
        spent, _ = _timed(lambda: subprocess.run([sys.executable, "-c", "import vassal_adj.batch.worker"], check=True))
        print(f"process start (python importing the worker): {spent * 1000:.0f} ms")
        spent, _ = _timed(lambda: worker.start(str(MODULE), None))
        print(f"module and pack load (worker.start, module from the user cache): {spent * 1000:.0f} ms")
        found = find_games(str(root))
        sample = found[:20]
        spent, _ = _timed(lambda: [worker.judge(g, str(Path(tmp) / "warm")) for g in sample])
        what = "verify judged once, check and vp from its positions"
        print(f"rule work: {spent / len(sample) * 1000:.0f} ms a game ({what}; {len(sample)} games)")
        for jobs in (1, 2):
            out = Path(tmp) / f"out{jobs}"
            cmd = [sys.executable, "-m", "vassal_adj", "batch", str(root), "--module", str(MODULE), "-o", str(out)]
            spent, done = _timed(
                lambda cmd=cmd, jobs=jobs: subprocess.run([*cmd, "-j", str(jobs)], capture_output=True)
            )
            assert done.returncode in (0, 1), done.stderr  # type: ignore[attr-defined]
            print(f"batch of {games} games, {jobs} job(s): {spent:.1f} s, {games / spent:.1f} games a second")
    print(f"load average after: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 200)
