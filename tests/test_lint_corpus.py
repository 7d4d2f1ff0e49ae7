"""vassal-adj lint over every module of the corpus (issue 16): it finishes on each, in reasonable
time, and the findings checked by hand in those real modules are there."""

from __future__ import annotations

import time
from pathlib import Path

import pytest
from conftest import corpus_files, need_corpus

from vassal_adj.lint import LintReport, lint, read_lint_input

MODULES = corpus_files(".vmod")


def _lint(path: Path, *setups: Path) -> LintReport:
    return lint(read_lint_input(str(path), [str(s) for s in setups]))


@pytest.mark.parametrize("path", MODULES or [None], ids=lambda p: p.parent.name if p else "no-corpus")
def test_lint_finishes_on_every_corpus_module(path: Path | None) -> None:
    need_corpus()
    assert path is not None
    start = time.perf_counter()
    report = _lint(path)
    assert time.perf_counter() - start < 30
    assert all(f.where and f.message for f in report.findings)


def test_commands_and_colors_renamed_prototype_and_custom_classes(corpus: Path) -> None:
    report = _lint(corpus / "CommandsAndColorsNapoleonics" / "CommandsAndColorsNapoleonics.vmod")
    undefined = {f.message.split("'")[1]: f for f in report.findings if f.check == "prototypes.undefined"}
    # 'Diag-Property Peek' was renamed 'Diag-Property Peek REMOVED'; 16 slots still name the old one
    peek = undefined["Diag-Property Peek"]
    assert "used 16 time(s)" in peek.message and "'Diag-Property Peek REMOVED'" in peek.fix
    # references written as notes ("# ...", "*** ... ***") are not missing prototypes
    assert not any(n.startswith(("#", "*")) for n in undefined)
    classes = {f.where.split("<")[1].rstrip(">"): f for f in report.findings if f.check == "buildfile.unknown_class"}
    assert "231 element(s)" in classes["napoleonics.Scenario"].message  # the module's jar is not in the corpus


def test_nevsky_setup_stacks_of_another_games_board(corpus: Path) -> None:
    report = _lint(corpus / "Nevsky" / "Nevsky.vmod")
    stacks = sorted(f.where.split("'")[1] for f in report.findings if f.check == "refs.owning_board")
    assert stacks == ["Bishops", "Crusaders"]  # owning board 'Almoravid', a board of another module


def test_kassala_default_setup_carries_a_password(corpus: Path) -> None:
    case = corpus / "Kassala"
    report = _lint(case / "Kassala.vmod", case / "Default Setup.vsav")
    checks = [f.check for f in report.findings]
    assert checks.count("setups.missing_file") == 1  # the corpus keeps the set-up beside the module
    (seat,) = [f for f in report.findings if f.check == "setups.seat_taken"]
    assert "observer 'William'" in seat.message
