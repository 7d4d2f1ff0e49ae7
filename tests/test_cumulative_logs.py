"""A log that contains an earlier log of the game (spec 5.6): VASSAL keeps the steps of a log it
replays, so a player who steps through the opponent's log and plays on writes a log with the
same opening and all of its steps, then more. It is reported as "contains <file> and
continues", its rolls counted once, with no per-piece continuity warning and no restart.

The cumulative logs are built here: the Kasserine example's Axis log followed by the Allied
log's steps, and the CCN tutorial log of the corpus cut in two (its first steps as the earlier
log, the whole as the cumulative one).
"""

from __future__ import annotations

import dataclasses
import json
import re
from pathlib import Path

from click.testing import CliRunner
from conftest import CORPUS, REPO, need_corpus

from vassal_adj.cli import main
from vassal_adj.load import load_module, load_save
from vassal_adj.parse.commands import Node, log_steps
from vassal_adj.parse.log_contains import contained_steps, continuation
from vassal_adj.pbem.replay import replay

EXAMPLE = REPO / "modules" / "kasserine" / "example"
MODULE = EXAMPLE / "Kasserine.vmod"
AXIS, RESTART, ALLIED = (str(EXAMPLE / n) for n in ("turn4-axis.vlog", "turn4-restart.vlog", "turn4-wrong-start.vlog"))
CCN = CORPUS / "CommandsAndColorsNapoleonics" / "CCNv4 Tutorial.vlog"


def _write(source: str | Path, root: Node, out: Path) -> str:
    dataclasses.replace(load_save(source), root=root).write(out)
    return str(out)


def axis_continued(tmp_path: Path) -> str:
    """The Axis log with the Allied log's steps after its own: what the Allied player's VASSAL
    writes after replaying the Axis log and playing on."""
    axis, allied = load_save(AXIS), load_save(ALLIED)
    root = Node(axis.root.text, [*axis.root.children, *log_steps(allied.root)])
    return _write(AXIS, root, tmp_path / "turn4-both.vlog")


def cut(log: Path, steps: int, out: Path) -> str:
    """The log as it was after its first `steps` steps: its saved part and those steps."""
    game = load_save(log)
    kids = game.root.children
    return _write(log, Node(game.root.text, kids[: len(kids) - len(log_steps(game.root)) + steps]), out)


def verify_json(*args: str) -> dict:
    result = CliRunner().invoke(main, ["verify", *args, "--format", "json"])
    assert result.exit_code in (0, 1), result.output
    return json.loads(result.output)


def rules(data: dict, severity: str | None = None) -> list[str]:
    return [f["rule"] for f in data["findings"] if severity in (None, f["severity"])]


def unread(data: dict) -> int:
    """The chat lines that look like dice reports, over every file."""
    return sum(
        int(f["message"].split(": ", 1)[1].split(" ")[0]) for f in data["findings"] if f["rule"] == "audit:dice-unread"
    )


def test_5_6_a_log_repeating_all_steps_of_another_from_its_opening_contains_it(tmp_path: Path) -> None:
    module = load_module(MODULE)
    axis, both = (replay(load_save(p).root, module) for p in (AXIS, axis_continued(tmp_path)))
    restart = replay(load_save(RESTART).root, module)
    assert contained_steps(axis, both) == 18 and len(both.steps) == 21
    assert contained_steps(both, axis) is None  # the shorter one does not contain the longer
    # The first log the Axis player threw away has the same opening and moves, then another roll.
    assert contained_steps(restart, axis) is None and contained_steps(axis, restart) is None
    rest = continuation(both, ("turn4-axis.vlog", axis, 18))
    assert [s.number for s in rest.steps] == [19, 20, 21] and rest.opening == axis.final and rest.final == both.final


def test_verify_says_contains_and_continues_with_no_continuity_warning_and_rolls_counted_once(tmp_path: Path) -> None:
    both = axis_continued(tmp_path)
    alone = verify_json(AXIS, "--module", str(MODULE))
    data = verify_json(AXIS, both, "--module", str(MODULE))
    (info,) = [f for f in data["findings"] if f["rule"] == "verify:continuity"]
    assert info["severity"] == "info"
    assert info["message"].startswith(f"{both} contains {AXIS} and continues: the same opening and all 18 step(s)")
    assert "steps 19-21" in info["message"]
    assert "audit:restart" not in rules(data)
    # The Axis log's two rolls (one undone) are the game's two rolls: once, not once per file.
    assert [r["shown"] for r in data["rolls"]] == [r["shown"] for r in alone["rolls"]] and len(alone["rolls"]) == 2
    assert rules(data).count("audit:undo-reroll") == 1
    # The repeated steps are listed with the Axis log only; the continuation starts where it ends.
    steps = [[s["number"] for s in f["steps"]] for f in data["files"]]
    assert steps[0] == list(range(1, 19)) and steps[1] == [19, 20, 21]
    # Every move is judged once: the Axis log's verdicts, then the two Allied moves.
    errors = [f["message"] for f in data["findings"] if f["severity"] == "error"]
    assert len(errors) == len(set(errors))
    before = [f["message"] for f in alone["findings"] if f["severity"] == "error"]
    assert errors[: len(before)] == before and len(errors) == len(before) + 1  # 2516 still overstacked
    assert errors[-1].startswith("end of Turn 4 allied-movement: 2 Axis units in 2516")


def test_verify_of_the_cumulative_log_alone_and_after_the_log_it_contains_count_the_same_vp(tmp_path: Path) -> None:
    both = axis_continued(tmp_path)
    lines = {}
    for files in ((both,), (AXIS, both)):
        out = CliRunner().invoke(main, ["verify", *files, "--module", str(MODULE)]).output
        lines[len(files)] = [ln for ln in out.splitlines() if "VP" in ln]
    # 1/13's elimination scores once: the positions the repeated steps pass through are the Axis log's.
    assert lines[1] == lines[2] and any("+3 VP scored" in ln for ln in lines[2])


def test_a_log_restarted_from_the_same_opening_is_still_a_restart() -> None:
    data = verify_json(RESTART, AXIS, "--module", str(MODULE))
    assert "audit:restart" in rules(data) and "verify:continuity" in rules(data, "warning")
    assert not any("contains" in f["message"] for f in data["findings"])


def test_the_ccn_tutorial_log_cut_in_two_is_its_own_first_part_continued(tmp_path: Path) -> None:
    need_corpus()
    first = cut(CCN, 120, tmp_path / "first.vlog")
    alone = verify_json(str(CCN))
    data = verify_json(first, str(CCN))
    (info,) = [f for f in data["findings"] if f["rule"] == "verify:continuity"]
    assert info["severity"] == "info" and "contains" in info["message"] and "steps 121-237" in info["message"]
    assert "audit:restart" not in rules(data)
    # Its dice reports are chat lines no reader knows: counted once each, as in the whole log alone.
    assert unread(data) == unread(alone) > 0
    assert rules(data).count("audit:undo") == rules(alone).count("audit:undo") == 1
    numbers = [[s["number"] for s in f["steps"]] for f in data["files"]]
    assert max(numbers[0]) <= 120 and min(numbers[1]) >= 121


def test_the_history_of_a_cumulative_log_starts_where_the_log_it_contains_ends(tmp_path: Path) -> None:
    from vassal_adj.pbem.log_state import log_history

    module = load_module(MODULE)
    axis = log_history(module, load_save(AXIS), "kasserine")
    both = log_history(module, load_save(axis_continued(tmp_path)), "kasserine", after_step=18)
    assert both.states[0].positions == axis.end.positions != axis.states[0].positions
    # Then one position per Allied move and the turn change to Allied Combat, which is the end.
    assert len(both.states) == 4 and both.end.phase == "allied-combat" and both.end.positions != axis.end.positions


def test_an_undo_in_the_continuation_takes_back_a_repeated_roll_and_the_reroll_is_reported(tmp_path: Path) -> None:
    """The Axis log sent after its first 13 steps (the last the roll of 2), then whole: its step
    14 undoes step 13, one of the repeated steps, and step 15 rolls again (LOG_FAULTS' reroll)."""
    first = cut(Path(AXIS), 13, tmp_path / "turn4-axis-13.vlog")
    data = verify_json(first, AXIS, "--module", str(MODULE))
    assert any(f["message"].startswith(f"{AXIS} contains {first} and continues") for f in data["findings"])
    (reroll,) = [f for f in data["findings"] if f["rule"] == "audit:undo-reroll"]
    assert "roll 1 (1d6 = 2) by Erwin in step 13 was undone in step 14" in reroll["message"]
    assert "was 6" in reroll["message"] and "audit:undo" not in rules(data)  # never "an undo of no die roll"
    assert [(r["shown"], r["undone_in"]) for r in data["rolls"]] == [("1d6 = 2", 14), ("1d6 = 6", None)]


def test_5_6_the_saved_part_written_afresh_with_a_new_player_is_still_the_same_opening(tmp_path: Path) -> None:
    """VASSAL writes the saved part of the new log from the game as it stands: the roster has the
    player who replayed the log; the pieces are where the contained log opened them."""
    axis, allied = load_save(AXIS), load_save(ALLIED)
    kids = axis.root.children
    end = len(kids) - len(log_steps(axis.root))
    saved = [*kids[: end - 1], Node("PLAYER\tobserver-secret\tRommel\t<observer>"), kids[end - 1]]
    both = _write(AXIS, Node(axis.root.text, [*saved, *kids[end:], *log_steps(allied.root)]), tmp_path / "b.vlog")
    assert contained_steps(replay(axis.root), replay(load_save(both).root)) == 18
    # A stack placed a pixel lower in the saved part is another opening: not contained.
    pieces = list(kids[1].children)
    k = next(k for k, t in enumerate(pieces) if "/stack/Main Map;" in t.text)
    pieces[k] = Node(re.sub(r"(Main Map;-?\d+;)(-?\d+)", lambda m: f"{m[1]}{int(m[2]) + 1}", pieces[k].text))
    moved = [Node(kids[1].text, pieces), *kids[2:]]
    other = _write(AXIS, Node(axis.root.text, [kids[0], *moved]), tmp_path / "c.vlog")
    assert contained_steps(replay(axis.root), replay(load_save(other).root)) is None


def test_a_log_given_twice_adds_nothing_and_its_rolls_count_once() -> None:
    data = verify_json(AXIS, AXIS)
    (info,) = [f for f in data["findings"] if f["rule"] == "verify:continuity"]
    assert info["message"].startswith(f"{AXIS} contains {AXIS} and adds nothing: the same opening and the same 18")
    assert len(data["rolls"]) == 2 and "audit:restart" not in rules(data)
    assert [len(f["steps"]) for f in data["files"]][1] == 0
