"""Output is UTF-8 whatever the console's locale (issue 10, "Runs where users are").

VASSAL's logs hold arrows: `decode` shows TAB as U+21E5 and `verify` reports moves as
"3920 → 3718". On a Windows cp1252 console, or a redirect in a non-UTF-8 locale, printing them
raised UnicodeEncodeError and the command exited with status 3 (internal error).
"""

from __future__ import annotations

import io
import os
import subprocess
import sys

import pytest
from conftest import REPO

from vassal_adj.cli import root as cli_root

LOG = REPO / "modules" / "kasserine" / "example" / "turn4-axis.vlog"
TAB_ARROW = "\u21e5".encode()  # decode's TAB sign, in UTF-8
MOVE_ARROW = "\u2192".encode()  # verify's "from → to", in UTF-8


def run_in_cp1252(*args: str) -> subprocess.CompletedProcess[bytes]:
    """The command in a child process whose standard streams are cp1252, output redirected."""
    env = {**os.environ, "PYTHONIOENCODING": "cp1252", "PYTHONUTF8": "0"}
    code = "import sys; from vassal_adj.cli import main; sys.exit(main())"
    return subprocess.run([sys.executable, "-c", code, *args], capture_output=True, env=env, timeout=120, check=False)


@pytest.mark.parametrize(
    ("args", "arrow"),
    [
        (("decode", str(LOG)), TAB_ARROW),
        (("verify", "-v", str(LOG)), MOVE_ARROW),  # -v shows VASSAL's own move reports, with their arrow
        (("decode", "--help"), TAB_ARROW),  # the help text itself names the sign
    ],
    ids=["decode", "verify", "decode-help"],
)
def test_a_cp1252_redirect_gets_utf8_and_no_crash(args: tuple[str, ...], arrow: bytes) -> None:
    done = run_in_cp1252(*args)
    assert done.returncode in (0, 1), done.stderr.decode("utf-8", "replace")
    assert arrow in done.stdout
    done.stdout.decode("utf-8")  # the whole output is UTF-8, not a mix


def test_utf8_streams_reencodes_a_cp1252_stream(monkeypatch: pytest.MonkeyPatch) -> None:
    raw = io.BytesIO()
    stream = io.TextIOWrapper(raw, encoding="cp1252")
    monkeypatch.setattr(sys, "stdout", stream)
    cli_root.utf8_streams()
    print("3920 \u2192 3718", end="")
    stream.flush()
    assert raw.getvalue() == "3920 \u2192 3718".encode()


def test_utf8_streams_escapes_what_utf8_cannot_hold(monkeypatch: pytest.MonkeyPatch) -> None:
    """A lone surrogate (an undecodable byte of a file name) is escaped, not a crash."""
    raw = io.BytesIO()
    stream = io.TextIOWrapper(raw, encoding="utf-8")
    monkeypatch.setattr(sys, "stderr", stream)
    cli_root.utf8_streams()
    print("game\udce9.vsav", end="", file=sys.stderr)
    stream.flush()
    assert raw.getvalue() == b"game\\udce9.vsav"
