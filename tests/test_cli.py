"""The command line, as a user runs it: outputs, JSON, exit codes, help, secrets."""

from __future__ import annotations

import json
import zipfile
from pathlib import Path

import click
import pytest
from click.testing import CliRunner
from conftest import REPO, SAVES, ids, need_corpus

import vassal_adj
from vassal_adj import cli
from vassal_adj.cli import files as cli_files
from vassal_adj.savedgame import SavedGame

EXAMPLE = REPO / "modules" / "kasserine" / "example"
MODULE, SETUP = str(EXAMPLE / "Kasserine.vmod"), str(EXAMPLE / "setup.vsav")


def run(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(cli.main, list(args))
    return result.exit_code, result.stdout, result.stderr


def test_inspect_example_describes_map_board_grid_and_counts() -> None:
    code, out, _ = run("inspect", MODULE)
    assert code == 0
    assert "Kasserine version 0.2" in out
    assert "map 'Main Map'" in out and "board 'Kasserine': 2048x1588" in out
    assert "hex grid: dx 52, dy 60, origin (36, 28)" in out
    assert "columns numbers from 1, rows numbers from 1; not staggered" in out
    assert "piece slots: 99, card slots: 0, prototypes: 2" in out  # 96 counters and 3 markers
    assert "turn trackers: Game Turn" in out


def test_inspect_json_has_schema_and_grid_parameters() -> None:
    code, out, _ = run("inspect", MODULE, "--json")
    assert code == 0
    data = json.loads(out)
    assert data["schema_version"] == 1
    grid = data["maps"][0]["boards"][0]["grid"]
    assert (grid["kind"], grid["dx"], grid["dy"], grid["numbering"]["stagger"]) == ("hex", 52.0, 60.0, False)
    assert data["sides"] == ["Axis", "Allied"]


def test_pieces_of_the_example_stand_on_their_set_up_hexes() -> None:
    code, out, _ = run("pieces", SETUP, "--module", MODULE, "--json")
    assert code == 0
    every = json.loads(out)["pieces"]
    assert len(every) == 99  # the 96 counters of the order of battle and 3 markers
    pieces = {p["name"]: p for p in every if p["properties"].get("Side") == "Allied" and p["location"][0].isdigit()}
    assert len(pieces) == 21  # the Allied initial deployment of seed 000 (rule 23 lists), on the map
    # Units placed "in the hex listed" (seed 000, set-up lists):
    assert pieces["1-3-7 (2/168)"]["location"] == "3718"
    assert pieces["3-2-12 (3/1)"]["location"] == "3819"
    # The first unit of an "in or adjacent" group stands on the listed hex itself.
    assert pieces["2-1-14 (1/13)"]["location"] == "2714"
    assert all(p["properties"]["Side"] == "Allied" for p in pieces.values())
    assert len({p["location"] for p in pieces.values()}) == 21  # no stacking at set-up


def test_pieces_text_lists_a_table_and_a_count() -> None:
    code, out, _ = run("pieces", SETUP, "--module", MODULE)
    assert code == 0
    assert out.splitlines()[0].split() == ["id", "name", "map", "x", "y", "location"]
    assert "99 piece(s)" in out


def test_decode_shows_nesting_and_the_stream_end() -> None:
    code, out, _ = run("decode", SETUP)
    assert code == 0
    lines = out.splitlines()
    assert lines[0] == "begin_save" and lines[-1] == "  end_save"
    assert any(line.startswith("    +/") for line in lines)  # pieces nested two levels deep


@pytest.mark.parametrize(
    "path", [p for p in SAVES if p.suffix == ".vlog"], ids=ids([p for p in SAVES if p.suffix == ".vlog"])
)
def test_decode_never_prints_a_password(path: Path) -> None:
    game = vassal_adj.load_save(path)
    code, out, _ = run("decode", str(path))
    assert code == 0
    for secret in game.secrets():
        assert secret not in out.replace("********", "")


def test_decode_hides_a_password_vassal_stored_escaped(tmp_path: Path) -> None:
    # A password with '/' and ';' is written '\\/'-escaped in a MovePiece's last field and, one
    # level deeper, in nested commands; every encoded form must be redacted (reliability r12).
    password = "my/secret;pw"
    game = vassal_adj.load_save(EXAMPLE / "turn4-axis.vlog")
    text = game.text.replace("PLAYER\taxis-player-secret\t", f"PLAYER\t{password}\t")
    text = text.replace("/axis-player-secret", "/" + password.replace("/", "\\/").replace(";", "\\;"))
    text = text.replace("axis-player-secret", password.replace("/", "\\\\/"))
    assert "axis-player-secret" not in text and "secret" in text
    log = tmp_path / "escaped.vlog"
    SavedGame.new(text, codec=game.codec).write(log)
    assert password in vassal_adj.load_save(log).secrets()
    code, out, _ = run("decode", str(log))
    assert code == 0
    assert "secret" not in out and "********" in out


def test_corpus_logs_have_passwords_to_hide() -> None:
    need_corpus()
    assert any(vassal_adj.load_save(p).secrets() for p in SAVES if p.suffix == ".vlog")


def test_a_file_that_is_not_vassal_exits_2_naming_it(tmp_path: Path) -> None:
    bad = tmp_path / "notes.vsav"
    bad.write_text("hello")
    code, _, err = run("pieces", str(bad))
    assert code == 2
    assert str(bad) in err and "not a VASSAL file" in err


def test_a_corrupt_payload_exits_2_naming_entry_and_offset(tmp_path: Path) -> None:
    bad = tmp_path / "bad.vsav"
    with zipfile.ZipFile(bad, "w") as zf:
        zf.writestr("savedGame", b"!VCSK5a383fzz")
    code, _, err = run("decode", str(bad))
    assert code == 2
    assert f"{bad}!savedGame" in err and "offset" in err


def test_missing_file_exits_2() -> None:
    code, _, err = run("inspect", "/nonexistent/game.vmod")
    assert code == 2 and "/nonexistent/game.vmod" in err


def test_module_given_where_a_save_is_expected_exits_2() -> None:
    code, _, err = run("pieces", MODULE)
    assert code == 2 and "not a saved game" in err


def test_internal_error_exits_3_with_an_apology(monkeypatch: pytest.MonkeyPatch) -> None:
    def broken(path: str) -> None:
        raise KeyError("boom")

    monkeypatch.setattr(cli_files, "load_module", broken)
    code, _, err = run("inspect", MODULE)
    assert code == 3 and "bug in vassal-adj" in err and "KeyError" in err


@pytest.mark.parametrize("command", cli.main.list_commands(click.Context(cli.main)))
def test_every_command_has_help_with_an_example(command: str) -> None:
    code, out, _ = run(command, "--help")
    assert code == 0 and "Example" in out


def test_version() -> None:
    code, out, _ = run("--version")
    assert code == 0 and vassal_adj.__version__ in out


def test_decode_and_pieces_say_when_hidden_pieces_are_shown(corpus: Path) -> None:
    save = str(corpus / "AdvancedSquadLeader_VASL" / "hip-concealed.vsav")
    code, out, err = run("decode", save)
    assert code == 0 and "1 masked or invisible piece(s) shown in full (referee view)" in err
    code, out, _ = run("pieces", save)
    assert code == 0 and "[invisible]" in out and "shown as the referee sees them" in out
