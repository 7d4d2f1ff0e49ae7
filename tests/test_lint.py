"""The lint contract (issue 12, 'The house'): ruff, configured in pyproject.toml, passes on the
files brought under it. The tree is brought under it as a whole after the branches merge; until
then these are the files already clean, and a file listed here stays clean."""

from __future__ import annotations

import subprocess
import sys

from conftest import REPO

# ruff check: every rule of [tool.ruff.lint]
LINTED = [
    "vassal_adj/cli",
    "vassal_adj/__main__.py",
    "tests/test_entry_points.py",
    "tests/test_engine_names_no_game.py",
    "tests/test_lint.py",
]
# ruff format: the files already in its layout
FORMATTED = ["vassal_adj/__main__.py", "tests/test_entry_points.py", "tests/test_engine_names_no_game.py",
             "tests/test_lint.py",
             *(f"vassal_adj/cli/{m}.py" for m in ("__init__", "files", "grid", "lazy", "output", "packs", "root",
                                                  "terrain", "vp"))]  # fmt: skip


def _ruff(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "ruff", *args], capture_output=True, text=True, cwd=REPO)


def test_ruff_check_passes_on_the_linted_files() -> None:
    run = _ruff("check", "--no-cache", *LINTED)
    assert run.returncode == 0, run.stdout + run.stderr


def test_ruff_format_leaves_the_formatted_files_unchanged() -> None:
    run = _ruff("format", "--check", "--no-cache", *FORMATTED)
    assert run.returncode == 0, run.stdout + run.stderr


def _check_stdin(source: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "ruff", "check", "--no-cache", "--stdin-filename", "probe.py", "-"],
                          input=source, capture_output=True, text=True, cwd=REPO)  # fmt: skip


def test_ruff_reads_the_project_configuration() -> None:
    # E501 is not among ruff's default rules, and its default length is 88: a line of 120
    # passing and one of 121 failing is pyproject.toml's configuration at work.
    fits, too_long = "x = " + repr("a" * 114), "x = " + repr("a" * 115)
    assert (len(fits), len(too_long)) == (120, 121)
    assert _check_stdin(fits + "\n").returncode == 0
    run = _check_stdin(too_long + "\n")
    assert run.returncode == 1 and "E501" in run.stdout
