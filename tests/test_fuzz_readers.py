"""Fuzzing every reader (issue 17, "Proved, not hoped"): real files from the shipped examples and
the corpus, mutated (raw bytes, zip structure, savedGame payloads re-obfuscated in the !VCSK,
VOBS and plain forms, the command stream, traits, buildFile XML, pack TOML, terrain files), must
give a result or a `VassalAdjError`, nothing else, and no case may take more than 10 times its
seed's time (the seed's time is measured here, with a floor of 50 ms so that timing noise on a
loaded machine does not fail a tiny seed). Deterministic (derandomized hypothesis); the long
campaign over the same readers and mutations is scripts/fuzz.py.
"""

from __future__ import annotations

import sys
import time
import warnings

import pytest
from conftest import REPO
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

sys.path.insert(0, str(REPO / "scripts"))
from fuzz_readers import READERS, Reader  # noqa: E402

from vassal_adj.errors import VassalAdjError  # noqa: E402

CASES = 200  # per reader
FLOOR = 0.05  # seconds: a seed's time counts as at least this
RATIO = 10

_seeds: dict[str, list[tuple[str, object]]] = {}
_seed_time: dict[tuple[str, str], float] = {}


def seeds(reader: Reader) -> list[tuple[str, object]]:
    if reader.name not in _seeds:
        _seeds[reader.name] = reader.seeds(True)
    return _seeds[reader.name]


def timed(reader: Reader, seed: str, value: object) -> float:
    """Seconds `reader` takes on `value`; anything but a VassalAdjError escapes (the failure)."""
    start = time.perf_counter()
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # zipfile's "Duplicate name" on mutated archives
            reader.run(seed, value)
    except VassalAdjError:
        pass
    return time.perf_counter() - start


def seed_time(reader: Reader, seed: str, value: object) -> float:
    if (reader.name, seed) not in _seed_time:
        timed(reader, seed, value)  # the first run fills caches (a module's prototypes, a pack)
        _seed_time[reader.name, seed] = min(timed(reader, seed, value) for _ in range(3))
    return _seed_time[reader.name, seed]


# "command" (check or verify over a mutated example, about a second a case) is the campaign's only
SUITE = sorted(set(READERS) - {"command"})


@pytest.mark.parametrize("name", SUITE)
def test_fuzz_reader_raises_only_its_errors_in_bounded_time(name: str) -> None:
    reader = READERS[name]
    pool = seeds(reader)
    assert pool, f"no seed for {name}"

    @settings(
        max_examples=CASES,
        derandomize=True,
        deadline=None,
        database=None,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
    )
    @given(st.integers(0, len(pool) - 1), st.randoms(use_true_random=False))
    def case(index: int, rng: object) -> None:
        seed, value = pool[index]
        base = max(seed_time(reader, seed, value), FLOOR)
        mutated = reader.mutate(rng, value)  # type: ignore[arg-type]
        took = timed(reader, seed, mutated)
        if took > RATIO * base:  # timed again: one slow run may be the machine, two are the input
            took = min(took, timed(reader, seed, mutated))
        assert took <= RATIO * base, f"{name} on a mutation of {seed}: {took:.3f} s, seed {base:.3f} s"

    case()
