"""What the benchmark scripts share: where the corpus is, and best-of-N timing."""

from __future__ import annotations

import os
import time
from collections.abc import Callable
from pathlib import Path

DEFAULT_CORPUS = Path(os.environ.get("VASSAL_ADJ_CORPUS", Path(__file__).resolve().parents[2] / "shared" / "corpus"))


def best(func: Callable[[], object], runs: int) -> float:
    """The fastest of `runs` timings of `func`, in seconds (the least disturbed run)."""
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        func()
        times.append(time.perf_counter() - start)
    return min(times)
