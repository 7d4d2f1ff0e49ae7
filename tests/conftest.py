"""Shared fixtures: where the corpus is, and whether its absence is a failure."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest
from input_guard import inputs_unchanged  # noqa: F401 (autouse: every test's CLI inputs hashed before and after)

CORPUS = Path(os.environ.get("VASSAL_ADJ_CORPUS", Path(__file__).resolve().parents[2] / "shared" / "corpus"))
SPEC = CORPUS.parent / "spec"
REPO = Path(__file__).resolve().parents[1]


def corpus_files(*suffixes: str) -> list[Path]:
    """Corpus files with the given suffixes, sorted; empty when the corpus is absent."""
    if not CORPUS.is_dir():
        return []
    return sorted(p for p in CORPUS.rglob("*") if p.suffix in suffixes)


def need_corpus() -> Path:
    """The corpus directory; skips the test when it is absent, or fails under REQUIRE_CORPUS=1."""
    if CORPUS.is_dir():
        return CORPUS
    if os.environ.get("REQUIRE_CORPUS") == "1":
        pytest.fail(f"corpus not found at {CORPUS} (REQUIRE_CORPUS=1)")
    pytest.skip(f"corpus not found at {CORPUS}")


@pytest.fixture
def corpus() -> Path:
    return need_corpus()


@pytest.fixture(autouse=True, scope="session")
def _user_cache(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    """The command line's cache (user_cache.py) in a directory of this test run, never the user's;
    commands run in subprocesses inherit it."""
    mp = pytest.MonkeyPatch()
    mp.setenv("VASSAL_ADJ_CACHE", str(tmp_path_factory.mktemp("user-cache")))
    mp.delenv("VASSAL_ADJ_NO_CACHE", raising=False)
    yield
    mp.undo()


SAVES = corpus_files(".vsav", ".vlog")
MODULES = corpus_files(".vmod")


def ids(paths: list[Path]) -> list[str]:
    return [f"{p.parent.name}/{p.name}" for p in paths]
