"""A game's history from its logs (pbem/log_state.py) and the rules that read it, on logs of the
example module: `check` on a log judges its end; 17.15 applies from the moment of an exit on
in `check`, `verify` and `vp`; `vp` counts a log's own eliminations (22.41.5, 22.42.1 at 22.11's
values: "a 5-3-12 armored battalion is worth 8 Victory Points"); a withdrawal declared twice
is an error (19.0: "Once (and only once) during the course of the game, each Player may
announce and execute a Withdrawal")."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner
from kasserine_logs import EXAMPLE, MODULE, write_log

import vassal_adj
from vassal_adj.cli import main
from vassal_adj.pbem.log_state import log_history

ARGS = ["--module", str(MODULE), "--pack", "kasserine"]
TO_2401_THEN_EXIT = [
    ("move", "Axis", "5-3-12 (2/7)", "2401"),
    ("turn", "Axis", "Axis Combat"),
    ("move", "Axis", "5-3-12 (2/7)", "Exited"),
    ("turn", "Axis", "Allied Movement"),
    ("move", "Allied", "2-3-11 (1/6)", "2115"),
    ("turn", "Allied", "Allied Combat"),
]
# 1/26 at 3103 is 1 hex from source 3001 and 4 from any road or trail joined to a source west of 2401.
CUT_OFF = {"1-2-7 (1/26)": "3103"}


def cli(*args: str) -> tuple[int, str]:
    r = CliRunner().invoke(main, list(args))
    return r.exit_code, r.output


def findings(*args: str) -> list[dict]:
    code, out = cli(*args, "--format", "json")
    assert code in (0, 1), out
    return json.loads(out)["findings"]


def test_the_history_records_the_hex_a_unit_left_from_and_when() -> None:
    game = vassal_adj.load_save(EXAMPLE / "turn4-axis.vlog")
    h = log_history(vassal_adj.load_module(MODULE), game, "kasserine")
    d = h.end.departures
    assert [(x.box, x.label, x.turn, x.phase) for x in d] == [("Eliminated", "2514", 4, "axis-combat")]
    assert h.end.units[d[0].unit].name == "2-1-14 (1/13)"
    assert (h.end.turn, h.end.phase) == (4, "allied-movement")
    assert (h.states[0].turn, h.states[0].phase) == (4, "axis-movement")


def test_check_on_a_log_judges_its_end_position_turn_and_phase() -> None:
    found = findings("check", str(EXAMPLE / "turn4-axis.vlog"), *ARGS)
    errors = [(f["rule"], f["message"]) for f in found if f["severity"] == "error"]
    assert [(r, m.split(" [")[0]) for r, m in errors] == [
        ("kasserine:assumption stacking_limit", "2 Axis units in 2516 exceed the limit of 1")
    ]
    warned = [f["message"] for f in found if f["severity"] == "warning"]
    assert any(m.startswith("Axis 5-3-12 (2/5) in 2010 is out of supply") for m in warned)


def test_check_on_a_log_finds_the_end_of_phase_errors_verify_finds() -> None:
    verified = findings("verify", str(EXAMPLE / "turn4-axis.vlog"), *ARGS)
    end = {
        f["message"].split(": ", 1)[1]
        for f in verified
        if f["message"].startswith("end of ") and f["severity"] == "error"
    }
    checked = {
        f["message"] for f in findings("check", str(EXAMPLE / "turn4-axis.vlog"), *ARGS) if f["severity"] == "error"
    }
    assert end and end <= checked


def test_17_15_check_on_a_log_applies_the_exit(tmp_path: Path) -> None:
    log = write_log(tmp_path / "exit.vlog", TO_2401_THEN_EXIT, moved=CUT_OFF)
    found = findings("check", str(log), *ARGS)
    lost = [f["message"] for f in found if "no longer Allied supply sources" in f["message"]]
    assert lost == [
        (
            "Axis 5-3-12 (2/7) exited the map from Allied supply hex 2401 on turn 4 (axis-combat): that hex "
            "and every Allied supply hex east of it (7 in all) are no longer Allied supply sources; 22 remain "
            "[17.15]"
        )
    ]
    assert any(f["message"].startswith("Allied 1-2-7 (1/26) in 3103 is out of supply") for f in found)


def test_17_15_verify_uses_the_reduced_sources_from_the_exit_on(tmp_path: Path) -> None:
    log = write_log(tmp_path / "exit.vlog", TO_2401_THEN_EXIT, moved=CUT_OFF)
    cut = [f["message"] for f in findings("verify", str(log), *ARGS) if "1-2-7 (1/26)" in f["message"]]
    # Supplied at the end of the Axis movement phase (2/7 still on the map), not after it exited.
    assert len(cut) == 1 and cut[0].startswith(
        "end of Turn 4 allied-movement: Allied 1-2-7 (1/26) in 3103 is out of supply"
    )


def test_17_15_without_the_exit_the_unit_stays_in_supply(tmp_path: Path) -> None:
    log = write_log(tmp_path / "stay.vlog", TO_2401_THEN_EXIT[:2] + TO_2401_THEN_EXIT[3:], moved=CUT_OFF)
    assert not [f for f in findings("verify", str(log), *ARGS) if "1-2-7 (1/26)" in f["message"]]


def vp(*files: Path) -> tuple[int, dict]:
    code, out = cli("vp", *map(str, files), *ARGS, "--format", "json")
    return code, json.loads(out)


def test_vp_on_a_log_counts_its_own_eliminations_at_full_value(tmp_path: Path) -> None:
    log = write_log(
        tmp_path / "elim.vlog",
        [("move", "Axis", "5-3-12 (2/7)", "Eliminated"), ("move", "Axis", "2-1-14 (1/13)", "Eliminated")],
    )
    _, data = vp(log)
    items = {(i["rule"], i["text"], i["points"]) for i in data["items"]}
    assert ("22.42.1", "Axis 5-3-12 (2/7) eliminated (attack 5 + defense 3)", -8) in items
    assert ("22.41.5", "Allied 2-1-14 (1/13) eliminated (attack 2 + defense 1)", 3) in items


def test_vp_on_the_example_log_counts_the_elimination_of_1_13() -> None:
    _, data = vp(EXAMPLE / "turn4-axis.vlog")
    assert [(i["rule"], i["points"], i["turn"]) for i in data["items"] if "(1/13)" in i["text"]] == [("22.41.5", 3, 4)]


def test_22_43_1_vp_counts_an_exit_from_an_allied_source_the_log_shows(tmp_path: Path) -> None:
    log = write_log(tmp_path / "exit.vlog", TO_2401_THEN_EXIT, moved=CUT_OFF)
    _, data = vp(log)
    award = data["options"][0]
    # The exit from 2401 is known and judged: Allied units block every road or trail route from
    # 2401 to an Axis source in the example's position, so it scores nothing, and says why.
    assert award["rule"] == "22.43.1" and award["text"].endswith("; 1 more have no route free of Allied units")
    assert "exited, but no log given shows" not in " ".join(data["unknowns"])


@pytest.mark.parametrize(("boxes", "errors"), [(["Turn 4"], 0), (["Turn 4", "Turn 6"], 1)])
def test_19_0_a_second_withdrawal_declaration_is_an_error(tmp_path: Path, boxes: list[str], errors: int) -> None:
    log = write_log(tmp_path / "w.vlog", [("move", "Axis", "Axis Withdrawal", b) for b in boxes])
    code, data = vp(log)
    assert len(data["errors"]) == errors and code == errors
    if errors:
        assert data["errors"][0].startswith(
            "the Axis withdrawal is declared more than once: the 'Axis Withdrawal' "
            "marker is in the box of turn 4, then turn 6"
        )
        assert data["errors"][0].endswith("once and only once [19.0]")


def test_check_on_a_log_refuses_pictures_of_a_moment_it_does_not_judge() -> None:
    # --annotate writes the log's end, the moment check judges (tests/test_annotate_log.py).
    code, out = cli("check", str(EXAMPLE / "turn4-axis.vlog"), *ARGS, "--format", "html")
    assert code == 2 and "use `vassal-adj verify" in out


def test_17_15_a_unit_added_during_the_log_leaves_from_where_it_was_added_and_moved(tmp_path: Path) -> None:
    """A piece added by the log (an AddPiece step) stands where it was added until it moves:
    added at 2401, moved to the Exited box, it left the map from 2401."""
    log = write_log(
        tmp_path / "added.vlog",
        [("add", "Axis", "5-3-12 (2/7)", "2401", "9001"), ("move", "Axis", "9001", "Exited")],
        moved=CUT_OFF,
    )
    h = log_history(vassal_adj.load_module(MODULE), vassal_adj.load_save(log), "kasserine")
    assert [(d.unit, d.box, d.label) for d in h.end.departures] == [("9001", "Exited", "2401")]
    assert [s.positions["9001"].label for s in h.states if "9001" in s.positions] == ["2401", None]
