"""The command line is reached the ways the README gives: the `vassal-adj` console script
(setup.cfg's entry point) and `python -m vassal_adj`, both running the group of vassal_adj/cli/."""

from __future__ import annotations

import configparser
import importlib
import subprocess
import sys

from conftest import REPO

from vassal_adj import __version__
from vassal_adj.cli import main


def test_the_console_script_entry_point_is_the_cli_group() -> None:
    setup = configparser.ConfigParser()
    setup.read(REPO / "setup.cfg", encoding="utf-8")
    scripts = dict(line.split(" = ") for line in setup["options.entry_points"]["console_scripts"].strip().splitlines())
    module, _, attr = scripts["vassal-adj"].partition(":")
    assert getattr(importlib.import_module(module), attr) is main


def test_python_m_vassal_adj_runs_the_command_line_under_the_program_name() -> None:
    run = subprocess.run([sys.executable, "-m", "vassal_adj", "--version"], capture_output=True, text=True, cwd=REPO)
    assert (run.returncode, run.stdout.strip()) == (0, f"vassal-adj {__version__}")
    usage = subprocess.run([sys.executable, "-m", "vassal_adj", "--help"], capture_output=True, text=True, cwd=REPO)
    assert usage.returncode == 0 and usage.stdout.startswith("Usage: vassal-adj [OPTIONS] COMMAND")


def test_python_m_vassal_adj_gives_the_usage_exit_status() -> None:
    run = subprocess.run(
        [sys.executable, "-m", "vassal_adj", "no-such-command"], capture_output=True, text=True, cwd=REPO
    )
    assert run.returncode == 2 and "No such command 'no-such-command'" in run.stderr
