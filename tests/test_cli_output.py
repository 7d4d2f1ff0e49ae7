"""Issue 10: `-o/--output FILE` on every report command (atomic, a new file, never an input),
severities coloured only on a terminal, and a progress line only on a terminal."""

from __future__ import annotations

import io
import json
import time
from pathlib import Path

import pytest
from click.testing import CliRunner
from conftest import REPO

from vassal_adj import cli
from vassal_adj.cli.output import working

EXAMPLE = REPO / "modules" / "kasserine" / "example"
MODULE = str(EXAMPLE / "Kasserine.vmod")
FAULTS, SETUP, LOG = str(EXAMPLE / "turn3-faults.vsav"), str(EXAMPLE / "setup.vsav"), str(EXAMPLE / "turn4-axis.vlog")
ESC = "\x1b["


def run(*args: str, color: bool = False, env: dict[str, str] | None = None) -> tuple[int, str, str]:
    result = CliRunner().invoke(cli.main, list(args), color=color, env=env)
    return result.exit_code, result.stdout, result.stderr


# Every command that prints a report, with arguments that make one.
REPORTS = {
    "check": ["check", FAULTS, "--module", MODULE],
    "verify": ["verify", LOG, "--module", MODULE],
    "vp": ["vp", SETUP, FAULTS, "--module", MODULE],
    "inspect": ["inspect", MODULE],
    "pieces": ["pieces", SETUP],
    "decode": ["decode", SETUP],
    "grid": ["grid", MODULE],
    "hex": ["hex", MODULE, "0312"],
    "where": ["where", MODULE, "140", "696"],
    "packs list": ["packs", "list"],
}


@pytest.mark.parametrize("name", sorted(REPORTS))
def test_o_writes_the_report_that_would_be_printed_to_a_new_file(name: str, tmp_path: Path) -> None:
    code, printed, _ = run(*REPORTS[name])
    out = tmp_path / "report.txt"
    code_o, shown, _ = run(*REPORTS[name], "-o", str(out))
    assert code_o == code and shown == ""  # exit status 1 (errors found) still writes the report
    assert out.read_text(encoding="utf-8") == printed
    assert [p.name for p in tmp_path.iterdir()] == ["report.txt"]  # no temporary file left beside it


def test_o_refuses_an_existing_file_before_any_work(tmp_path: Path) -> None:
    out = tmp_path / "old.txt"
    out.write_text("keep me", encoding="utf-8")
    code, stdout, err = run(*REPORTS["check"], "--output", str(out))
    assert code == 2 and stdout == "" and "the file exists" in err
    assert out.read_text(encoding="utf-8") == "keep me"


@pytest.mark.parametrize("name", ["check", "inspect", "vp"])
def test_o_refuses_an_input(name: str) -> None:
    argv = REPORTS[name]
    for given in [a for a in argv[1:] if a.endswith((".vmod", ".vsav"))]:
        before = Path(given).read_bytes()
        code, _, err = run(*argv, "-o", given)
        assert code == 2 and "never over an input" in err and given in err
        assert Path(given).read_bytes() == before


def test_o_refuses_an_input_named_another_way(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(EXAMPLE)
    code, _, err = run("pieces", "setup.vsav", "-o", "../example/setup.vsav")
    assert code == 2 and "the same file as SAVE setup.vsav" in err


def test_o_and_annotate_may_not_be_the_same_file(tmp_path: Path) -> None:
    out = str(tmp_path / "marked.vsav")
    code, _, err = run(*REPORTS["check"], "--annotate", out, "-o", out)
    assert code == 2 and "the same file as --annotate" in err
    assert not Path(out).exists()


def test_o_into_a_missing_directory_is_refused_before_any_work(tmp_path: Path) -> None:
    code, _, err = run(*REPORTS["inspect"], "-o", str(tmp_path / "nowhere" / "r.txt"))
    assert code == 2 and "no directory" in err


def test_a_failing_command_writes_no_file_and_errors_go_to_stderr(tmp_path: Path) -> None:
    out = tmp_path / "r.txt"
    code, _, err = run("inspect", SETUP, "-o", str(out))  # a save is no module
    assert code == 2 and err.startswith("error:") and not out.exists()


def test_o_with_json_writes_json(tmp_path: Path) -> None:
    out = tmp_path / "r.json"
    assert run("inspect", MODULE, "--format", "json", "-o", str(out))[0] == 0
    assert json.loads(out.read_text(encoding="utf-8"))["name"] == "Kasserine"


@pytest.mark.parametrize("name", ["check", "verify"])
def test_severities_are_coloured_on_a_terminal_only(name: str, tmp_path: Path) -> None:
    _, piped, _ = run(*REPORTS[name])
    assert ESC not in piped and "  error " in piped
    _, tty, _ = run(*REPORTS[name], color=True)  # click's test runner as a colour terminal
    assert "\x1b[31m\x1b[1merror\x1b[0m" in tty and "\x1b[33mwarning\x1b[0m" in tty
    assert run(*REPORTS[name], color=True, env={"NO_COLOR": "1"})[1] == piped
    out = tmp_path / "r.txt"
    run(*REPORTS[name], "-o", str(out), color=True)
    assert out.read_text(encoding="utf-8") == piped


@pytest.mark.parametrize("fmt", ["markdown", "bbcode", "json"])
def test_no_colour_in_markup_or_json(fmt: str) -> None:
    assert ESC not in run(*REPORTS["check"], "--format", fmt, color=True)[1]


class _Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def _until(screen: io.StringIO, text: str) -> bool:
    """Wait (up to 5 s) for the progress thread to show `text`."""
    deadline = time.monotonic() + 5
    while text not in screen.getvalue() and time.monotonic() < deadline:
        time.sleep(0.01)
    return text in screen.getvalue()


def test_working_shows_what_the_work_says_on_a_terminal_and_wipes_its_line() -> None:
    screen = _Terminal()
    with working("replaying", after=0, every=0.01, stream=screen) as say:
        assert _until(screen, "\rreplaying (0 s)")
        for n in (1, 2, 3):
            say(f"replaying {n}/3")
            assert _until(screen, f"replaying {n}/3 (")  # the new text, drawn by the next tick at the latest
    text = screen.getvalue()
    assert text.startswith("\rreplaying (0 s)") and text.endswith("\r")
    assert text.rsplit("\r", 2)[-2].strip() == ""  # the last thing written blanks the line


def test_working_shows_the_seconds_of_one_long_call() -> None:
    screen = _Terminal()
    with working("sampling", after=0, every=0.01, stream=screen):
        assert _until(screen, "\rsampling (0 s)")
    assert screen.getvalue().rsplit("\r", 2)[-2].strip() == ""


def test_progress_is_silent_before_two_seconds_and_off_a_terminal() -> None:
    screen, pipe = _Terminal(), io.StringIO()
    with working("work", stream=screen) as say:  # quick work: nothing shown
        say("work 1/2")
        say("work 2/2")
    with working("work", after=0, every=0.01, stream=pipe) as say:
        say("work 1/2")
        time.sleep(0.05)
    assert screen.getvalue() == "" and pipe.getvalue() == ""
