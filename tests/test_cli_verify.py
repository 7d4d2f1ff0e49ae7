"""`vassal-adj verify`: a log's events, save-to-save changes and the continuity finding."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner
from conftest import CORPUS, need_corpus
from test_replay import OPENING, PASSWORD, add, game, log, move

from vassal_adj.cli import main
from vassal_adj.codec.obfuscation import Codec
from vassal_adj.load import load_save
from vassal_adj.parse.commands import Node, encode, iter_nodes, log_steps, unlogged
from vassal_adj.savedgame import SavedGame


def write(tmp_path: Path, name: str, root: Node) -> str:
    path = tmp_path / name
    SavedGame.new(encode(root), codec=Codec(True, 7)).write(path)
    return str(path)


def run(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(main, ["verify", *args])
    return result.exit_code, result.output


TURN = game(
    OPENING,
    log(move("3", (350, 300), (300, 300)), log("CHAT* Scout moves *")),
    log("CHAT*** 2d6 = 3,5 *** &lt;Alice&gt;", log("MutableProperty\t2d6_result\t1,1\t3,5\tModule")),
    log("CHAT&lt;Alice&gt; - your move"),
    log("-/1"),
)


def test_one_log_lists_its_events_by_step_and_a_summary(tmp_path: Path) -> None:
    code, out = run(write(tmp_path, "turn.vlog", TURN))
    assert code == 0, out
    assert "step 1 (command" in out
    assert "move     Scout: Main Map @300,300 -> Main Map @350,300 (by Alice)" in out
    # The roll with its roller, read from its report (issue 11: every roll shows who rolled and what).
    assert "dice     2d6 = 8 [3,5] by Alice" in out and "remove   Tank from Main Map @100,100" in out
    assert "summary: 1 moves, 0 arrivals, 1 removals, 0 changes, 2 chat lines, 1 die rolls, 0 undos" in out
    assert PASSWORD not in out  # the mover is named, never by the password his move carries


def test_json_keeps_command_indices_steps_and_piece_ids(tmp_path: Path) -> None:
    code, out = run(write(tmp_path, "turn.vlog", TURN), "--format", "json")
    data = json.loads(out)
    assert code == 0 and data["schema_version"] == 1
    assert [f["rule"] for f in data["findings"]] == ["audit:dice-stats"]  # too few dice to test: an info
    assert [(r["player"], r["shown"]) for r in data["rolls"]] == [("Alice", "2d6 = 8 [3,5]")]
    (f,) = data["files"]
    first = f["steps"][0]["events"][0]
    assert first["kind"] == "move" and first["piece"] == "3" and first["undo"] is False
    assert isinstance(first["command"], int) and first["to"] == {"map": "Main Map", "x": 350, "y": 300, "label": None}
    assert f["counts"]["die rolls"] == 1 and PASSWORD not in out


def test_markdown(tmp_path: Path) -> None:
    code, out = run(write(tmp_path, "turn.vlog", TURN), "--format", "markdown")
    assert code == 0 and out.startswith("# verify") and "### step 1" in out and "- move" in out


def test_a_log_not_starting_where_the_previous_save_ended_is_a_finding(tmp_path: Path) -> None:
    before = write(tmp_path, "turn1.vsav", game(OPENING))
    moved = [add("1", "Tank", 100, 100), add("2", "Jeep", 100, 100), add("3", "Scout", 310, 300)]
    turn = write(tmp_path, "turn2.vlog", game(moved, log(move("3", (350, 300), (310, 300)))))
    code, out = run(before, turn)
    assert code == 0, out
    assert "findings: 1" in out
    assert "warning verify:continuity: " in out and "does not start where" in out and "1 piece(s) differ" in out
    assert "Scout: Main Map @300,300 -> Main Map @310,300" in out  # where turn1 left it -> where turn2 starts it
    assert "Main Map @300,300" in out and "Main Map @310,300" in out
    data = json.loads(run(before, turn, "--format", "json")[1])
    assert [(f["rule"], f["severity"], f["units"]) for f in data["findings"]] == [
        ("verify:continuity", "warning", ["3"])
    ]
    same = write(tmp_path, "turn2b.vlog", game(OPENING, log(move("3", (350, 300), (300, 300)))))
    assert "findings: 0" in run(before, same)[1]


def test_two_saves_give_each_piece_start_end_and_change(tmp_path: Path) -> None:
    before = write(tmp_path, "a.vsav", game(OPENING))
    after = write(
        tmp_path,
        "b.vsav",
        game([add("1", "Tank", 100, 100, level=1), add("2", "Jeep", 140, 100), add("4", "Gun", 5, 5)]),
    )
    code, out = run(before, after)
    assert code == 0, out
    assert "changes since the previous file: 4 piece(s)" in out
    assert "moved    Jeep Main Map @100,100 -> Main Map @140,100" in out
    assert "changed  Tank (flipped) (was Tank) at Main Map @100,100" in out
    assert "added    Gun at Main Map @5,5" in out and "removed  Scout from Main Map @300,300" in out


def test_a_single_save_is_a_usage_error(tmp_path: Path) -> None:
    code, out = run(write(tmp_path, "a.vsav", game(OPENING)))
    assert code == 2 and "a.vsav" in out and "no moves" in out


def test_unreadable_file_exits_2(tmp_path: Path) -> None:
    bad = tmp_path / "bad.vlog"
    bad.write_bytes(b"not a zip")
    assert run(str(bad))[0] == 2


def test_ccn_tutorial_with_module() -> None:
    need_corpus()
    case = CORPUS / "CommandsAndColorsNapoleonics"
    code, out = run(str(case / "CCNv4 Tutorial.vlog"), "--module", str(case / "CommandsAndColorsNapoleonics.vmod"))
    assert code == 0, out[-2000:]
    assert "summary: 295 moves, 31 arrivals, 189 removals, 462 changes, 238 chat lines, 0 die rolls, 1 undos" in out
    assert "step 169, undo of step 168" in out
    assert "move     Attacker: Main Map F03 -> Main Map H08" in out
    assert "hidden pieces shown" in out


LOGS = sorted(CORPUS.rglob("*.vlog")) if CORPUS.is_dir() else []


@pytest.mark.parametrize("path", LOGS, ids=[p.name for p in LOGS])
@pytest.mark.parametrize("fmt", ["text", "json"])
def test_every_corpus_log_verifies_with_every_move_and_no_password(path: Path, fmt: str) -> None:
    modules = sorted(path.parent.glob("*.vmod"))
    args = [str(path), "--format", fmt] + (["--module", str(modules[0])] if modules else [])
    code, out = run(*args)
    assert code == 0, out[-2000:]
    game = load_save(path)
    for secret in game.secrets():
        assert secret not in out
    if fmt == "json":
        counts = json.loads(out)["files"][0]["counts"]
        # Every MovePiece outside an undo is a move (a stack's members would count once each;
        # these logs move single pieces).
        inside, moves = False, 0
        for node in log_steps(game.root):
            for _, _, n in iter_nodes(node):
                text = unlogged(n.text)
                if text.startswith("UNDO\t"):
                    inside = text == "UNDO\ttrue"
                elif text.startswith("M/") and not inside:
                    moves += 1
        assert counts["moves"] == moves
