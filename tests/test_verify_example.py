"""`verify --pack` on the example PBEM logs (scripts/example_logs.py LOG_FAULTS): every fault
the generator wrote is reported, citing its rule, in every format; exit 1 for the errors."""

from __future__ import annotations

import importlib
import json
import sys
from pathlib import Path

from click.testing import CliRunner
from conftest import REPO

from vassal_adj.cli import main

EXAMPLE = REPO / "modules" / "kasserine" / "example"
ARGS = ["--module", str(EXAMPLE / "Kasserine.vmod"), "--pack", "kasserine"]
sys.path.insert(0, str(REPO / "scripts"))
ILLEGAL_PATH = next(f for f in importlib.import_module("example_logs").LOG_FAULTS if f["kind"] == "illegal path")


def verify(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(main, ["verify", *args, *ARGS])
    return result.exit_code, result.output


def test_every_fault_of_the_axis_log_is_found_with_its_rule() -> None:
    code, out = verify(str(EXAMPLE / "turn4-axis.vlog"), "--format", "json")
    assert code == 1  # errors
    findings = json.loads(out)["findings"]

    def one(rule: str, severity: str, text: str) -> str:
        (msg,) = [
            f["message"] for f in findings if (f["rule"], f["severity"]) == (rule, severity) and text in f["message"]
        ]
        return msg

    # the zone-of-control fault (19.2): 6-5-10 (501) may not leave an enemy zone of control
    assert "no legal path: unit starts in enemy zone of control at 2613 (of Allied 2-1-14 (1/13) in 2514)" in one(
        "kasserine:19.2", "error", "(501)"
    )
    # the illegal path: 5-3-12 (2/5) 2711 -> 2010 is legal only the long way round, beyond its allowance; the
    # ways within it are closed by an enemy zone of control (19.2, on the cheapest, cited) and by rough (16.11)
    msg = one(ILLEGAL_PATH["rule"], "error", "(2/5) moved 2711 -> 2010")
    assert "the legal way needs 14 MP, allowance 12 [standard-movement]; every way within the allowance breaks" in msg
    assert (
        "2711 2611 2512 2411 2311 2211 2111 2010 (8 MP): enemy zone of control at 2211 (of Allied 1-2-7 (-/168) "
        "in 2212) stops movement [19.2], rough hex 2111 prohibited to mechanized units"
    ) in msg
    assert (
        "2711 2611 2512 2411 2311 2210 2110 2010 (9 MP): rough hex 2210 prohibited to mechanized units except "
        "through road or trail hexsides (16.12) [16.11]"
    ) in msg
    # the overstack at the end of the movement phase
    assert one("kasserine:assumption stacking_limit", "error", "2516").endswith(
        "2 Axis units in 2516 exceed the limit of 1 [assumption stacking_limit: 1976 SPI quadrigame rules "
        "(Four Battles "
        "in North Africa), as publicly described: units may not stack]"
    )
    # the reroll after an undo
    # the drop in a zone of control (19.2): 2/69 stopped at 2213 and was dragged on, though one drag
    # 2615 -> 2314 round the zone would have been legal
    assert (
        "moved 2615 -> 2213 -> 2314: leg 2, 2213 -> 2314: enemy zone of control at 2213 (of Allied 1-2-7 (-/168) "
        "in 2212) stops movement: the unit entered it this phase and may not move on [19.2]"
    ) in one("kasserine:19.2", "error", "(2/69)")
    assert "was undone in step 14" in one("audit:undo-reroll", "warning", "roll 1")
    assert sum(f["severity"] == "error" for f in findings) == 4
    assert "axis-player-secret" not in out


def test_the_restarted_and_the_wrong_start_logs() -> None:
    _, out = verify(str(EXAMPLE / "turn4-axis.vlog"), str(EXAMPLE / "turn4-restart.vlog"), "--format", "json")
    rules = [f["rule"] for f in json.loads(out)["findings"]]
    assert "audit:restart" in rules
    _, out = verify(str(EXAMPLE / "turn4-axis.vlog"), str(EXAMPLE / "turn4-wrong-start.vlog"))
    assert "does not start where" in out and "5-3-12 (2/7): Main Map 2515 -> Main Map 2714" in out


def test_html_draws_the_moves_and_annotate_writes_the_logs_end(tmp_path: Path) -> None:
    code, page = verify(str(EXAMPLE / "turn4-axis.vlog"), "--format", "html")
    assert code == 1 and page.startswith("<!DOCTYPE html>") and "<img" in page and "2513" in page
    code, out = verify(str(EXAMPLE / "turn4-axis.vlog"), "--annotate", str(tmp_path / "a.vsav"))
    assert code == 1 and "marker(s) written to" in out and (tmp_path / "a.vsav").exists()  # test_annotate_log.py


def test_html_without_a_module_is_a_usage_error() -> None:
    result = CliRunner().invoke(main, ["verify", str(EXAMPLE / "turn4-axis.vlog"), "--format", "html"])
    assert result.exit_code == 2 and "needs --module" in result.output
