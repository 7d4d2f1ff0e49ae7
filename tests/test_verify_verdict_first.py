"""`verify`: the verdict first, then the story (dice, units moved, steps); --summary, --errors-only,
-v; one continuity finding per file."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner
from test_cli_verify import write
from test_replay import OPENING, add, game, log, move

from vassal_adj.cli import main
from vassal_adj.report.markup import SUMMARY_CHARS, SUMMARY_LINES

REPO = Path(__file__).resolve().parent.parent
EXAMPLE = REPO / "modules" / "kasserine" / "example"
MODULE = str(EXAMPLE / "Kasserine.vmod")
AXIS = str(EXAMPLE / "turn4-axis.vlog")


def run(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(main, ["verify", *args])
    return result.exit_code, result.output


def test_the_first_lines_after_the_title_are_the_errors_then_the_warnings() -> None:
    code, out = run(AXIS, "--module", MODULE)
    assert code == 1
    lines = [x for x in out.splitlines() if x]
    assert lines[1] == "findings: 13 (4 error(s), 3 warning(s), 6 info)"
    assert [x.split()[0] for x in lines[2:9]] == ["error"] * 4 + ["warning"] * 3
    # 19.2: 501 starts in an enemy ZOC at 2613 and may not leave it; the rule and the unit in the line.
    assert lines[3].startswith("  error kasserine:19.2: Turn 4 axis-movement: Axis 6-5-10 (501) moved 2613 -> 2513")
    # Then the dice, the units moved, the steps, in that order.
    order = [out.index(x) for x in ("dice: 2 roll(s)", "units moved: 9", "step by step", "step 1 (command")]
    assert order == sorted(order)
    assert "Erwin: 1d6 = 6; undone: 1d6 = 2 (step 13, undone in step 14), rolled again as 6 (step 15)" in out
    assert "Axis 5-3-12 (2/5): 2711 -> 2010: NOT legal (kasserine:19.2), 14 of 12 MP" in out
    assert "Axis 3-2-16 (580): 3113 -> 2916: legal, 2.5 of 16 MP" in out  # 3113 -> 2916 costs 2.5 of 16
    # A legal move's information finding is its units-moved line, not a second line.
    assert "info kasserine:standard-movement" not in out


def test_markdown_opens_with_the_verdict_too() -> None:
    lines = [x for x in run(AXIS, "--module", MODULE, "--format", "markdown")[1].splitlines() if x]
    assert lines[0].startswith("# verify") and lines[1].startswith("## findings: 13")
    assert all(x.startswith("- **error** ") for x in lines[2:6])


def test_internal_changes_and_repeated_reports_are_hidden_unless_verbose() -> None:
    _, out = run(AXIS, "--module", MODULE)
    assert "property 1d6_summary" not in out and "report   2-2-11 (10) moves" not in out
    # The undo of the roll is one line: its echo and property records are that one roll taken back (5.4).
    assert "undo     1d6 = 2 taken back (* UNDO: *** 1d6 = 2 *** <Erwin>)" in out
    assert "13 internal change(s) and automatic report(s) repeating a listed action are hidden" in out
    _, verbose = run(AXIS, "--module", MODULE, "-v")
    assert "property 1d6_summary" not in verbose
    assert "report   2-2-11 (10) moves Turn 4 → 3920 *" in verbose and "are hidden" not in verbose


def test_a_pieces_old_position_and_layer_properties_are_hidden(corpus: Path) -> None:
    ccn = str(corpus / "CommandsAndColorsNapoleonics" / "CCNv4 Tutorial.vlog")
    _, out = run(ccn, "--no-rules")
    assert "OldX" not in out and "_Level" not in out and "property gTurn" not in out
    _, verbose = run(ccn, "--no-rules", "-v")
    assert "OldX (none) -> '1182'" in verbose and "property gTurn: '7' -> '8' (Module)" in verbose


def test_errors_only_is_the_title_and_the_verdict() -> None:
    code, out = run(AXIS, "--module", MODULE, "--errors-only")
    assert code == 1
    lines = [x for x in out.splitlines() if x]
    assert lines[1] == "findings: 7 (4 error(s), 3 warning(s), 0 info)" and len(lines) == 9
    data = json.loads(run(AXIS, "--module", MODULE, "--errors-only", "--format", "json")[1])
    assert {f["severity"] for f in data["findings"]} == {"error", "warning"} and len(data["findings"]) == 7


def _limits(out: str) -> None:
    assert len(out.splitlines()) <= SUMMARY_LINES and len(out) < 2000 and len(out) <= SUMMARY_CHARS


@pytest.mark.parametrize("fmt", ["text", "markdown", "bbcode"])
def test_summary_of_the_example_fits_a_post(fmt: str) -> None:
    code, out = run(AXIS, "--module", MODULE, "--summary", "--format", fmt)
    assert code == 1
    _limits(out)
    assert "findings: 13 (4 error(s), 3 warning(s), 6 info)" in out and "dice: 2 roll(s)" in out
    assert "kasserine:19.2" in out and "step by step" not in out


@pytest.mark.parametrize("fmt", ["text", "markdown", "bbcode"])
def test_summary_of_the_ccn_tutorial_fits_a_post(fmt: str, corpus: Path) -> None:
    code, out = run(
        str(corpus / "CommandsAndColorsNapoleonics" / "CCNv4 Tutorial.vlog"), "--no-rules", "--summary", "--format", fmt
    )
    assert code == 0
    _limits(out)
    assert "no error or warning" in out


def test_summary_is_for_the_text_formats() -> None:
    code, out = run(AXIS, "--module", MODULE, "--summary", "--format", "json")
    assert code == 2 and "--summary" in out


def test_one_continuity_finding_per_file_lists_every_piece(tmp_path: Path) -> None:
    before = write(tmp_path, "turn1.vsav", game(OPENING))
    # Two pieces not where turn1 left them: Jeep at 120,100 (was 100,100), Scout at 310,300 (was 300,300).
    moved = [add("1", "Tank", 100, 100), add("2", "Jeep", 120, 100), add("3", "Scout", 310, 300)]
    turn = write(tmp_path, "turn2.vlog", game(moved, log(move("3", (350, 300), (310, 300)))))
    data = json.loads(run(before, turn, "--format", "json")[1])
    found = [f for f in data["findings"] if f["rule"] == "verify:continuity"]
    assert len(found) == 1 and sorted(found[0]["units"]) == ["2", "3"]
    assert "2 piece(s) differ" in found[0]["message"]
    assert (
        "Jeep: Main Map @100,100 -> Main Map @120,100 | Scout: Main Map @300,300 -> Main Map @310,300"
        in found[0]["message"]
    )


def test_the_vp_change_follows_the_verdict() -> None:
    # 22.41.5: an Allied unit eliminated scores its attack + defense: 2-1-14 (1/13), 2 + 1 = +3 VP.
    _, out = run(AXIS, "--module", MODULE)
    lines = out.splitlines()
    at = lines.index("victory points")
    assert lines[at + 1] == (
        "  kasserine:22.4: +3 VP scored in these files; the total they show: 13 VP at the start, "
        "16 VP (Allied Decisive) at the end"
    )
    assert lines[at + 2] == "  [22.41.5] Allied 2-1-14 (1/13) eliminated (attack 2 + defense 1): +3 VP"
    assert lines.index("findings: 13 (4 error(s), 3 warning(s), 6 info)") < at < lines.index("dice: 2 roll(s)")
    # What a side may not see is not told: no VP under --as, nor in a pack-less listing.
    assert "victory points" not in run(AXIS, "--module", MODULE, "--as", "Allied")[1]
    assert "victory points" not in run(AXIS, "--module", MODULE, "--no-rules")[1]


def test_a_units_line_shows_every_drop_of_its_chain() -> None:
    """19.2: 3-4-11 (2/69) was dropped at 2213, in an enemy zone of control, then dragged on to
    2314 (LOG_FAULTS 'stop in zoc'): its line shows the drop it was judged by, not 2615 -> 2314."""
    _, out = run(AXIS, "--module", MODULE)
    moved = out[out.index("units moved:") :]
    assert "Axis 3-4-11 (2/69): 2615 -> 2213 -> 2314: NOT legal (kasserine:19.2)" in moved
    assert "Axis 2-2-11 (10): box 'Turn 4' -> 3920 -> 3718: legal, 4 of 11 MP" in moved
