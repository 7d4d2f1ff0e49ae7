"""The long fuzzing campaign (issue 17): mutate real files for N minutes per reader and report.

    python scripts/fuzz.py --minutes 30 [--reader archive] [--seed 1] [--out fuzz-failures]
                           [--all-seeds]

The readers and mutations are those of the test suite (scripts/fuzz_readers.py,
scripts/fuzz_mutate.py): raw bytes and zip structure of whole files, savedGame payloads
re-obfuscated in the !VCSK, VOBS and plain forms, the command stream, traits, buildFile XML,
pack TOML and terrain files. A case fails when the reader raises anything but VassalAdjError, or
takes more than --ratio times its seed's time (with a floor of 50 ms for the seed, and measured
twice before it counts). Each new failure (a new exception type and place, or a new slow seed)
is written to the --out folder as the input itself plus a `.txt` note of one line: reader,
seed, case, what happened. Every case is reproducible from --seed: case k of a reader uses
Random(f"{seed}:{reader}:{k}"). Prints, per reader: cases run, failures, the slowest ratio.
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import time
import traceback
import warnings
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
os.environ.setdefault("VASSAL_ADJ_NO_CACHE", "1")  # a pack's TOML read a million times: not cached

from fuzz_readers import READERS, InternalError, Reader, to_bytes  # noqa: E402

from vassal_adj.errors import VassalAdjError  # noqa: E402

FLOOR = 0.05


def run_once(reader: Reader, seed: str, value: object) -> tuple[float, BaseException | None]:
    start = time.perf_counter()
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            reader.run(seed, value)
    except VassalAdjError:
        pass
    except Exception as e:  # noqa: BLE001 - the failures the campaign is looking for
        return time.perf_counter() - start, e
    return time.perf_counter() - start, None


def _place(e: BaseException) -> str:
    if isinstance(e, InternalError):  # the command's own traceback says where
        return str(e).split(": ")[0]
    frames = traceback.extract_tb(e.__traceback__)
    last = frames[-1] if frames else None
    return f"{type(e).__name__} at {Path(last.filename).name}:{last.lineno}" if last else type(e).__name__


def campaign(reader: Reader, minutes: float, seed: int, out: Path, ratio: float, all_seeds: bool) -> dict:
    pool = reader.seeds(not all_seeds)
    base: dict[str, float] = {}
    for name, value in pool:
        run_once(reader, name, value)  # fills the caches the first run fills
        base[name] = max(min(run_once(reader, name, value)[0] for _ in range(3)), FLOOR)
    seen: set[str] = set()
    cases = failures = 0
    worst = (0.0, "")
    end = time.monotonic() + minutes * 60
    while time.monotonic() < end:
        rng = random.Random(f"{seed}:{reader.name}:{cases}")
        name, value = pool[rng.randrange(len(pool))]
        mutated = reader.mutate(rng, value)
        took, error = run_once(reader, name, mutated)
        if error is None and took > ratio * base[name]:
            took = min(took, run_once(reader, name, mutated)[0])
        if took / base[name] > worst[0]:
            worst = (took / base[name], f"case {cases} on {name}")
        if error is not None:
            key, what = _place(error), f"{_place(error)}: {str(error)[:200]!r}"
        elif took > ratio * base[name]:
            key, what = f"slow {name}", f"{took:.3f} s, {took / base[name]:.1f} x the seed's {base[name]:.3f} s"
        else:
            key = ""
        cases += 1
        if key:
            failures += 1
            if key not in seen:
                seen.add(key)
                stem = out / f"{reader.name}-{seed}-{cases - 1}"
                stem.with_suffix(".bin").write_bytes(to_bytes(mutated))
                note = f"reader {reader.name}, seed file {name}, --seed {seed} case {cases - 1}: {what}\n"
                stem.with_suffix(".txt").write_text(note, encoding="utf-8")
                print(f"  NEW {note}", end="", flush=True)
    return {"cases": cases, "failures": failures, "new": len(seen), "worst": worst, "seeds": len(pool)}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--minutes", type=float, required=True, help="minutes per reader")
    ap.add_argument("--reader", choices=sorted(READERS), action="append", help="repeatable; default: every reader")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--out", type=Path, default=Path("fuzz-failures"), help="folder for reproducers")
    ap.add_argument("--ratio", type=float, default=10.0, help="slowest allowed case / seed time")
    ap.add_argument("--all-seeds", action="store_true", help="every seed file, not only the small ones")
    args = ap.parse_args(argv)
    args.out.mkdir(parents=True, exist_ok=True)
    print(f"reproducers in {args.out.resolve()}")
    total = 0
    for name in args.reader or sorted(READERS):
        r = campaign(READERS[name], args.minutes, args.seed, args.out, args.ratio, args.all_seeds)
        total += r["new"]
        ratio, where = r["worst"]
        print(
            f"{name}: {r['cases']} cases over {r['seeds']} seeds, {r['failures']} failures "
            f"({r['new']} new), slowest ratio {ratio:.1f} ({where})",
            flush=True,
        )
    return 1 if total else 0


if __name__ == "__main__":
    sys.exit(main())
