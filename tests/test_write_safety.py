"""Writes are all or nothing, and a folder that takes no file is a clean error (issue 17, "Writes").

A command killed while it writes (kill -9, a power cut) leaves its target absent or complete,
never a partial file: the atomic writer (codec/atomic.py) fills a temp file named
'<target>.vassal-adj-<pid>-<hex>.partial' beside it and renames it at the end; the next write of
that target removes the temp files of processes that are gone.
"""

from __future__ import annotations

import errno
import os
import random
import signal
import subprocess
import sys
import time
import zipfile
from pathlib import Path

import click
import pytest
from click.testing import CliRunner
from conftest import REPO

import vassal_adj
from vassal_adj.cli import main

EXAMPLE = REPO / "modules" / "kasserine" / "example"
MODULE = str(EXAMPLE / "Kasserine.vmod")
TRIALS = 12


@pytest.fixture(scope="module")
def large_save(tmp_path_factory: pytest.TempPathFactory) -> Path:
    # The example's turn 3 save with a 24 MiB incompressible entry beside savedGame (a save
    # carries the module's images, say): the annotated copy repeats every entry, so writing it
    # takes most of the run and a kill at a random moment often lands mid-write.
    path = tmp_path_factory.mktemp("large") / "large.vsav"
    with zipfile.ZipFile(EXAMPLE / "turn3-faults.vsav") as src, zipfile.ZipFile(path, "w") as out:
        for info in src.infolist():
            out.writestr(info, src.read(info))
        out.writestr("images/screenshot.bin", random.Random(17).randbytes(24 * 1024 * 1024))
    return path


def check_args(save: Path, report: Path, copy: Path) -> list[str]:
    return [
        *(sys.executable, "-m", "vassal_adj", "check", str(save), "--module", MODULE, "--pack", "kasserine"),
        *("-o", str(report), "--annotate", str(copy)),
    ]


def partials(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir() if p.name.endswith(".partial"))


def test_a_killed_write_leaves_its_target_absent_or_complete(large_save: Path, tmp_path: Path) -> None:
    reference = tmp_path / "reference"
    reference.mkdir()
    started = time.monotonic()
    done = subprocess.run(check_args(large_save, reference / "r.txt", reference / "a.vsav"), capture_output=True)
    whole = time.monotonic() - started
    assert done.returncode in (0, 1), done.stderr
    want_report = (reference / "r.txt").read_bytes()
    want_text = vassal_adj.load_save(reference / "a.vsav").text
    rng = random.Random(2026)
    folder = tmp_path / "out"
    folder.mkdir()
    report, copy = folder / "r.txt", folder / "a.vsav"
    killed_mid_write = 0
    for trial in range(TRIALS):
        report.unlink(missing_ok=True)
        copy.unlink(missing_ok=True)
        before = set(partials(folder))
        proc = subprocess.Popen(
            check_args(large_save, report, copy), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
        )
        if trial % 2:
            # at a random moment of the run, a few after its end
            time.sleep(rng.uniform(0.2, 1.05) * whole)
        else:
            # at a random moment once a temp file is open: inside the write, or just after it
            deadline = time.monotonic() + 10 * whole
            while not set(partials(folder)) - before and proc.poll() is None and time.monotonic() < deadline:
                time.sleep(0.001)
            time.sleep(rng.uniform(0, 0.05))
        proc.send_signal(signal.SIGKILL)
        proc.wait()
        left = set(partials(folder)) - before
        killed_mid_write += bool(left)
        assert all(n.startswith((f"r.txt.vassal-adj-{proc.pid}-", f"a.vsav.vassal-adj-{proc.pid}-")) for n in left), (
            left
        )
        if report.exists():
            assert report.read_bytes() == want_report, trial
        if copy.exists():
            assert vassal_adj.load_save(copy).text == want_text, trial
    assert killed_mid_write, "no kill landed while a file was being written: the test proved nothing"
    # the next write of the same targets removes the temp files the killed processes left
    report.unlink(missing_ok=True)
    copy.unlink(missing_ok=True)
    rerun = subprocess.run(check_args(large_save, report, copy), capture_output=True)
    assert rerun.returncode in (0, 1), rerun.stderr
    assert partials(folder) == []
    assert report.read_bytes() == want_report and vassal_adj.load_save(copy).text == want_text


COMMANDS = [
    ["check", str(EXAMPLE / "turn3-faults.vsav"), "--module", MODULE, "--pack", "kasserine", "-o", "{out}"],
    ["check", str(EXAMPLE / "turn3-faults.vsav"), "--module", MODULE, "--pack", "kasserine", "--annotate", "{out}"],
    ["verify", str(EXAMPLE / "turn4-axis.vlog"), "--module", MODULE, "--no-rules", "-o", "{out}"],
    ["verify", str(EXAMPLE / "turn4-axis.vlog"), "--module", MODULE, "--no-rules", "--annotate", "{out}"],
    ["decode", str(EXAMPLE / "setup.vsav"), "-o", "{out}"],
    ["inspect", MODULE, "-o", "{out}"],
]


@pytest.mark.parametrize("args", COMMANDS, ids=lambda a: f"{a[0]}-{a[-2]}")
def test_writing_into_a_read_only_folder_is_a_clean_error(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, args: list[str]
) -> None:
    folder = tmp_path / "read-only"
    folder.mkdir()
    folder.chmod(0o555)
    try:
        if os.access(folder, os.W_OK):
            # root writes anywhere: make the system answer as it does any other user
            real_open = os.open

            def denied(path: str, *a: object, **k: object) -> int:
                if os.path.dirname(os.path.abspath(path)) == str(folder):
                    raise PermissionError(errno.EACCES, os.strerror(errno.EACCES), path)
                return real_open(path, *a, **k)

            monkeypatch.setattr(os, "open", denied)
        result = CliRunner().invoke(main, [a.replace("{out}", str(folder / "out")) for a in args])
        monkeypatch.undo()
        assert result.exit_code == 2, result.output
        assert f"cannot write into folder {str(folder)!r}: permission denied" in result.output
        assert "Traceback" not in result.output
        assert list(folder.iterdir()) == []
    finally:
        folder.chmod(0o755)


def test_a_command_that_changes_its_input_fails_the_test(tmp_path: Path) -> None:
    # The autouse guard (input_guard.py) around every CliRunner command of the suite.
    @click.command()
    @click.argument("path")
    def spoil(path: str) -> None:
        with open(path, "ab") as f:
            f.write(b"!")

    given = tmp_path / "in.vsav"
    given.write_bytes(b"data")
    with pytest.raises(AssertionError, match="changed its input"):
        CliRunner().invoke(spoil, [str(given)])
    # a file the command makes is no input
    assert CliRunner().invoke(spoil, [str(tmp_path / "new.txt")]).exit_code == 0
