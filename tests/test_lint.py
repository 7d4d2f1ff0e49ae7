"""The lint contract (issue 12, 'The house'): ruff, configured in pyproject.toml, passes on the
whole tree: the package, its tests, the scripts and the packs' hooks, lint and format alike."""

from __future__ import annotations

import subprocess
import sys

from conftest import REPO

TREE = ["vassal_adj", "tests", "scripts", "modules"]


def _ruff(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "ruff", *args], capture_output=True, text=True, cwd=REPO)


def test_ruff_check_passes_on_the_whole_tree() -> None:
    run = _ruff("check", "--no-cache", *TREE)
    assert run.returncode == 0, run.stdout + run.stderr


def test_ruff_format_leaves_the_whole_tree_unchanged() -> None:
    run = _ruff("format", "--check", "--no-cache", *TREE)
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
