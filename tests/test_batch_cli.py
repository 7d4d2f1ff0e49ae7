"""`vassal-adj batch` (issue 16) on a generated tournament with a broken and a foreign file:
exit statuses, the four summary formats, each game's report, resumption."""

from __future__ import annotations

import csv
import io
import json
import shutil

import pytest
from batch_games import EXAMPLE, MODULE, tournament
from click.testing import CliRunner

import vassal_adj.batch.run as batch_run
from vassal_adj.cli import main


def _batch(*args: str) -> tuple[int, str]:
    r = CliRunner().invoke(main, ["batch", *args])
    return r.exit_code, r.output


@pytest.fixture(scope="module")
def judged(tmp_path_factory):
    root = tmp_path_factory.mktemp("batch")
    games, out = tournament(root / "games"), root / "out"
    code, text = _batch(str(games), "--module", str(MODULE), "-o", str(out), "-j", "1")
    return code, text, out, json.loads((out / "summary.json").read_text())


def test_a_broken_and_a_foreign_file_are_findings_of_their_games_not_the_end(judged):
    code, text, _, data = judged
    assert code == 1 and "3 games, 3 with errors" in text
    rows = {r["game"]: r for r in data["games"]}
    assert [f["rule"] for f in rows["broken"]["findings"] if f["rule"].startswith("batch:")] == ["batch:unreadable"]
    foreign = [f for f in rows["foreign"]["findings"] if f["rule"].startswith("batch:")]
    assert [f["rule"] for f in foreign] == ["batch:foreign"] and "Tunisia 1943" in foreign[0]["message"]
    # the foreign game's other files were still judged: the log's turn, VP and roll
    assert rows["foreign"]["last_turn"] == 4 and rows["foreign"]["vp"] == rows["clean"]["vp"] == 16
    assert rows["foreign"]["files"][1]["of"] == "savedGame" and rows["broken"]["files"][1]["of"] == "bytes"


def test_the_row_of_a_game_holds_what_the_commands_found(judged):
    rows = {r["game"]: r for r in judged[3]["games"]}
    clean = rows["clean"]
    assert clean["last_turn"] == 4 and clean["level"] == "Allied Decisive"
    assert clean["undone_rolls"] == 1  # the example log's roll taken back by an undo
    assert clean["severity"]["error"] > 0 and all(f["severity"] != "info" for f in clean["findings"])
    assert [d["player"] for d in clean["dice"]] == ["Erwin"]
    assert clean["gaps"] == {"Erwin": [1.0]}  # the log was saved an hour after the set-up
    assert clean["chain"] == clean["files"][-1]["link"]


def _alone(*argv: str) -> str:
    r = CliRunner().invoke(main, list(argv))
    assert r.exit_code in (0, 1), r.output
    return r.output


def test_a_game_judged_in_the_batch_is_what_each_command_says_alone(judged):
    """The worker reads and judges each file once (verify shown as JSON and as Markdown, check
    and vp from the positions verify worked out): what the referee gets typing each command."""
    _, _, out, data = judged
    row = next(r for r in data["games"] if r["game"] == "foreign")
    files = [f["path"] for f in row["files"] if not f["path"].endswith("other.vsav")]  # the foreign save left out
    common = ["--module", str(MODULE)]
    report = (out / row["report"]).read_text(encoding="utf-8")
    assert report == _alone("verify", *files, *common, "--format", "markdown")
    alone = json.loads(_alone("verify", *files, *common, "--format", "json"))
    assert [f for f in row["findings"] if "from" not in f and not f["rule"].startswith("batch:")] == [
        f for f in alone["findings"] if f["severity"] != "info"
    ]
    checked = json.loads(_alone("check", files[-1], *common, "--format", "json"))
    assert [{k: v for k, v in f.items() if k != "from"} for f in row["findings"] if f.get("from") == "check"] == [
        f for f in checked["findings"] if f["severity"] != "info"
    ]
    assert row["last_turn"] == checked["turn"] == 4
    vp = json.loads(_alone("vp", *files, *common, "--format", "json"))
    assert (row["vp"], row["level"]) == (vp["total"], vp["level"]) == (16, "Allied Decisive")


def test_each_row_links_to_the_games_own_report(judged):
    _, _, out, data = judged
    for row in data["games"]:
        if row["report"]:
            assert (out / row["report"]).read_text().startswith("#")
    assert {r["game"]: bool(r["report"]) for r in data["games"]} == {"broken": False, "clean": True, "foreign": True}
    assert "[clean](games/clean.md)" in (out / "summary.md").read_text()
    assert '<a href="games/clean.md">clean</a>' in (out / "summary.html").read_text()


def test_the_csv_has_a_row_per_game_with_the_markdowns_cells(judged):
    out = judged[2]
    rows = list(csv.DictReader(io.StringIO((out / "summary.csv").read_text())))
    assert [r["game"] for r in rows] == ["broken", "clean", "foreign"]
    assert rows[1]["errors"] != "0" and rows[1]["report"] == "games/clean.md" and len(rows[1]["chain"]) == 12


def test_an_interrupted_batch_resumes_without_redoing_finished_games(judged, tmp_path, monkeypatch):
    _, _, out, data = judged
    copy = tmp_path / "out"
    shutil.copytree(out, copy)
    state = copy / "batch-state.jsonl"
    lines = state.read_text().split("\n")
    state.write_text("\n".join(lines[:3]) + "\n" + lines[3][:40])  # the third row cut by the interruption
    judged_now = []
    real = batch_run.judge
    monkeypatch.setattr(batch_run, "judge", lambda g, out_dir: judged_now.append(g.name) or real(g, out_dir))
    games = data["games"][0]["files"][0]["path"].rsplit("/", 2)[0]
    code, _ = _batch(games, "--module", str(MODULE), "-o", str(copy), "-j", "1")
    assert code == 1 and len(judged_now) == 1
    assert json.loads((copy / "summary.json").read_text())["games"] == data["games"]


def test_a_batch_of_clean_games_exits_0_and_two_jobs_give_the_same_rows(tmp_path):
    for name in ("a", "b", "c"):
        (tmp_path / "g" / name).mkdir(parents=True)
        shutil.copy(EXAMPLE / "setup.vsav", tmp_path / "g" / name / "setup.vsav")
    code, _ = _batch(str(tmp_path / "g"), "--module", str(MODULE), "-o", str(tmp_path / "one"), "-j", "1")
    assert code == 0
    code, _ = _batch(str(tmp_path / "g"), "--module", str(MODULE), "-o", str(tmp_path / "two"), "-j", "2")
    assert code == 0
    one, two = (json.loads((tmp_path / d / "summary.json").read_text())["games"] for d in ("one", "two"))
    assert one == two and len(one) == 3


def test_no_games_or_no_module_is_exit_2(tmp_path):
    code, text = _batch(str(tmp_path), "--module", str(MODULE), "-o", str(tmp_path / "out"))
    assert code == 2 and "no saves or logs" in text
    shutil.copy(EXAMPLE / "setup.vsav", tmp_path / "a-1.vsav")
    code, text = _batch(str(tmp_path), "--module", str(tmp_path / "none.vmod"), "-o", str(tmp_path / "out"))
    assert code == 2 and "none.vmod" in text
