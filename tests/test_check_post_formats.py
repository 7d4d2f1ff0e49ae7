"""`check` as a forum post: --format bbcode, --errors-only, --summary, and free text escaped in
every text format (report/findings.py, report/markup.py)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from vassal_adj.cli import main
from vassal_adj.report.findings import report_bbcode, report_markdown, report_text
from vassal_adj.report.markup import SUMMARY_CHARS, SUMMARY_LINES
from vassal_adj.rules.results import Finding, Report, Severity

REPO = Path(__file__).resolve().parent.parent
EXAMPLE = REPO / "modules" / "kasserine" / "example"
FAULTS = str(EXAMPLE / "turn3-faults.vsav")


def check(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(main, ["check", FAULTS, "--module", str(EXAMPLE / "Kasserine.vmod"), *args])
    return result.exit_code, result.output


def _report() -> Report:
    # A unit named as a player might name it in VASSAL, and VASSAL's HTML in a name.
    odd = Finding(
        "pack:17.11",
        Severity.WARNING,
        "<Erwin> [b]x[/b] <b>3/39</b> in 0105 is out of supply [17.11]",
        units=("u1",),
        hexes=("0105",),
    )
    return Report("pack", (odd,), {}, {}, {"u1": "<Erwin>"})


def test_free_text_is_escaped_per_format() -> None:
    assert "<Erwin> [b]x[/b] 3/39 in 0105" in report_text(_report())
    assert r"\<Erwin> \[b\]x\[/b\] 3/39 in 0105 is out of supply \[17.11\]" in report_markdown(_report())
    bb = report_bbcode(_report())
    assert "\u2039Erwin> (b)x(/b) 3/39 in 0105 is out of supply (17.11)" in bb
    assert not re.search(r"<[A-Za-z]", bb)


def test_bbcode_has_no_table_bold_headings_and_the_information_in_a_spoiler() -> None:
    code, out = check("--format", "bbcode")
    assert code == 1
    lines = out.splitlines()
    assert not any(x.startswith("|") for x in lines)
    assert lines[0] == f"[b]Referee check: {FAULTS}[/b]"
    # 16.11: the armored 5-3-12 (1/5) in rough 2309; the errors before the spoiler.
    errors = lines.index("[b]Errors and warnings[/b]")
    assert lines[errors + 2].startswith("[b]error[/b] kasserine:16.11: Axis 5-3-12 (1/5) (armor) is in rough hex 2309")
    assert errors < lines.index("[o]") < lines.index("[/o]") == len(lines) - 1
    assert {m.group(1) for m in re.finditer(r"\[/?(\w+)", out)} == {"b", "o"}


def test_errors_only_shows_the_verdict_and_keeps_the_exit_status() -> None:
    code, out = check("--errors-only")
    assert code == 1
    assert "(information)" not in out and "assumptions used" not in out
    assert [x.split()[0] for x in out.splitlines()[4:]] == ["error", "error", "warning"]
    code, out = check("--errors-only", "--format", "json")
    data = json.loads(out)
    assert code == 1 and [f["severity"] for f in data["findings"]] == ["error", "error", "warning"]
    assert data["counts"] == {"error": 2, "warning": 1, "info": 59}  # the counts stay the whole report's


@pytest.mark.parametrize("fmt", ["text", "markdown", "bbcode"])
def test_summary_fits_a_post(fmt: str) -> None:
    code, out = check("--summary", "--format", fmt)
    assert code == 1
    assert len(out.splitlines()) <= SUMMARY_LINES and len(out) <= SUMMARY_CHARS < 2000
    assert "2 error(s), 1 warning(s), 59 info" in out and "kasserine:16.11" in out and "in supply:" not in out


def test_summary_is_for_the_text_formats() -> None:
    code, out = check("--summary", "--format", "html")
    assert code == 2 and "--summary" in out
