"""`vassal-adj --help` is as wide as click would make it, found without importing shutil
(cli/root.py `_terminal_columns`: shutil imports zlib, bz2, lzma and fnmatch, issue 10)."""

from __future__ import annotations

import os
import shutil
import struct
import subprocess
import sys

import pytest
from conftest import REPO

from vassal_adj.cli import root

fcntl = pytest.importorskip("fcntl", reason="a terminal of a given width is made with POSIX calls")
termios = pytest.importorskip("termios", reason="a terminal of a given width is made with POSIX calls")

HELP = "from vassal_adj.cli import main\ntry:\n    main(['--help'])\nexcept SystemExit:\n    pass\n"


@pytest.mark.parametrize("columns", [None, "", "x", "0", "-3", "45", "60", "79", "100", "300"])
def test_the_columns_are_what_shutil_gives(monkeypatch: pytest.MonkeyPatch, columns: str | None) -> None:
    if columns is None:
        monkeypatch.delenv("COLUMNS", raising=False)
    else:
        monkeypatch.setenv("COLUMNS", columns)
    assert root._terminal_columns() == shutil.get_terminal_size().columns


def _on_terminal(code: str, columns: int, env: dict[str, str]) -> str:
    """Run `code` with its standard output a terminal `columns` wide; what it printed."""
    leader, follower = os.openpty()
    fcntl.ioctl(follower, termios.TIOCSWINSZ, struct.pack("HHHH", 24, columns, 0, 0))
    with subprocess.Popen([sys.executable, "-c", code], stdout=follower, cwd=REPO, env=env):
        os.close(follower)
        out = b""
        while True:
            try:
                chunk = os.read(leader, 65536)
            except OSError:  # the terminal closed with the child
                break
            if not chunk:
                break
            out += chunk
    os.close(leader)
    return out.decode().replace("\r\n", "\n")


@pytest.mark.parametrize("columns", [50, 64, 72, 120])
def test_help_on_a_terminal_is_as_wide_as_clicks_own_width(columns: int) -> None:
    env = {k: v for k, v in os.environ.items() if k not in ("COLUMNS", "LINES")}
    ours = _on_terminal(HELP + "import sys\nprint('shutil' in sys.modules)", columns, env)
    # the same help, the width click works out with shutil (its formatter class put back)
    clicks = _on_terminal(
        "import click\nfrom vassal_adj.cli import root\nroot._Context.formatter_class = click.HelpFormatter\n" + HELP,
        columns,
        env,
    )
    assert ours.endswith("False\n")  # shutil was not imported
    assert ours.removesuffix("False\n") == clicks


def test_the_help_follows_the_terminal_width() -> None:
    env = {k: v for k, v in os.environ.items() if k not in ("COLUMNS", "LINES")}
    narrow, wide = _on_terminal(HELP, 50, env), _on_terminal(HELP, 120, env)
    assert len(narrow.splitlines()) > len(wide.splitlines())  # narrower: more lines
