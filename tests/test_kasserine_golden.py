"""Golden reports: `check` with the Kasserine pack on the example saves, in every format.

The expected outputs are in tests/golden/. After a deliberate change to a rule or a renderer,
regenerate them with `UPDATE_GOLDEN=1 python -m pytest tests/test_kasserine_golden.py` and
read the diff before committing it.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from click.testing import CliRunner
from conftest import REPO, need_corpus

from vassal_adj.cli import main

EXAMPLE = REPO / "modules" / "kasserine" / "example"
GOLDEN = Path(__file__).resolve().parent / "golden"
SAVES = ("setup.vsav", "turn3-faults.vsav")
FORMATS = {"text": "txt", "markdown": "md", "json": "json"}


def run_check(save: str, fmt: str) -> tuple[int, str]:
    # Relative paths, as the README writes them, so the reports do not depend on the checkout.
    old = Path.cwd()
    os.chdir(REPO)
    try:
        result = CliRunner().invoke(
            main,
            [
                "check",
                f"modules/kasserine/example/{save}",
                "--module",
                "modules/kasserine/example/Kasserine.vmod",
                "--pack",
                "kasserine",
                "--format",
                fmt,
            ],
        )
    finally:
        os.chdir(old)
    assert result.exception is None or isinstance(result.exception, SystemExit), result.output
    return result.exit_code, result.output


@pytest.mark.parametrize("fmt", sorted(FORMATS))
@pytest.mark.parametrize("save", SAVES)
def test_report_matches_golden(save: str, fmt: str) -> None:
    code, out = run_check(save, fmt)
    golden = GOLDEN / f"{Path(save).stem}.{FORMATS[fmt]}"
    if os.environ.get("UPDATE_GOLDEN") == "1":
        golden.parent.mkdir(exist_ok=True)
        golden.write_text(out, encoding="utf-8")
    assert out == golden.read_text(encoding="utf-8"), f"{golden.name} differs: see the module doc"
    assert code == (1 if save.startswith("turn3") else 0)


def test_the_readme_example_of_check_is_the_golden_report() -> None:
    # The README gives the runnable command on the example (the command's --help names no game).
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    line = next(x for x in readme.splitlines() if "vassal-adj check modules/kasserine/example/" in x)
    args = line[line.index("vassal-adj check") :].split()
    assert args[args.index("--pack") + 1] == "kasserine" and args[args.index("--module") + 1].endswith("Kasserine.vmod")
    save = Path(args[2]).name
    fmt = args[args.index("--format") + 1] if "--format" in args else "text"
    code, out = run_check(save, fmt)
    assert code == 1 and out == (GOLDEN / f"{Path(save).stem}.{FORMATS[fmt]}").read_text(encoding="utf-8")


def test_check_html_and_annotate(tmp_path: Path) -> None:
    out = tmp_path / "annotated.vsav"
    result = CliRunner().invoke(
        main,
        [
            "check",
            str(EXAMPLE / "turn3-faults.vsav"),
            "--module",
            str(EXAMPLE / "Kasserine.vmod"),
            "--pack",
            "kasserine",
            "--format",
            "html",
            "--annotate",
            str(out),
        ],
    )
    assert result.exit_code == 1  # the errors of the example
    page = result.stdout
    assert page.startswith("<!DOCTYPE html>") and page.count("<img") >= 4  # three findings and the map
    assert "2615" in page and "16.11" in page
    assert "3 marker(s) written to" in result.stderr and out.is_file()
    again = CliRunner().invoke(
        main,
        [
            "check",
            str(EXAMPLE / "turn3-faults.vsav"),
            "--module",
            str(EXAMPLE / "Kasserine.vmod"),
            "--pack",
            "kasserine",
            "--annotate",
            str(out),
        ],
    )
    assert again.exit_code == 2  # an existing file is never replaced


def test_without_pack_the_pack_that_fits_the_module_is_used() -> None:
    args = [
        "check",
        str(EXAMPLE / "turn3-faults.vsav"),
        "--module",
        str(EXAMPLE / "Kasserine.vmod"),
        "--format",
        "json",
    ]
    result = CliRunner().invoke(main, args)
    assert result.exit_code == 1 and '"pack": "kasserine"' in result.output


def test_without_pack_a_module_no_pack_fits_is_a_usage_error() -> None:
    case = need_corpus() / "CommandsAndColorsNapoleonics"
    result = CliRunner().invoke(
        main, ["check", str(case / "B015 - Waterloo.vsav"), "--module", str(case / "CommandsAndColorsNapoleonics.vmod")]
    )
    assert result.exit_code == 2 and "no rule pack fits module 'Commands & Colors: Napoleonics" in result.output


@pytest.mark.parametrize(
    ("option", "value", "known"),
    [("--weather", "sunny", "fair, good, poor"), ("--phase", "axis-move", "allied-combat, allied-movement")],
)
def test_a_phase_or_weather_the_pack_does_not_know_is_a_usage_error(option: str, value: str, known: str) -> None:
    result = CliRunner().invoke(
        main, ["check", str(EXAMPLE / "setup.vsav"), "--module", str(EXAMPLE / "Kasserine.vmod"), option, value]
    )
    assert result.exit_code == 2 and f"{option} {value!r}: pack 'kasserine' knows {known}" in result.output
