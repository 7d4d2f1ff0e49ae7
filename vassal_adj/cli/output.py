"""Where a report goes and how it looks on a terminal (issue 10).

- ``-o/--output FILE`` (`output_option`): the report is written to FILE instead of standard
  output, atomically, and only to a new file that is none of the command's inputs. What the
  command echoes is captured and written when it ends; errors still go to standard error, and a
  command that fails (exit status 2 or 3) writes nothing.
- `severity_colours`: errors red and warnings yellow in a text report, only on a terminal
  (click drops the codes on a pipe), never with NO_COLOR set, nor in a file written by -o.
- `working`: a "what (N s)" line on standard error for work that has run over two seconds, which
  the work may update ("verify: log 1/1, step 1200/3000"), only when standard error is a
  terminal, wiped when the work ends.
"""

from __future__ import annotations

import contextlib
import functools
import io
import os
import re
import sys
import threading
import time
from collections.abc import Callable, Iterator
from contextvars import ContextVar
from typing import Any, TextIO, TypeVar

import click

from vassal_adj.cli import require_new_file
from vassal_adj.codec.atomic import write_bytes_atomic
from vassal_adj.errors import UsageError, Where

__all__ = ["output_option", "severity_colours", "working"]

F = TypeVar("F", bound=Callable[..., Any])

# True while a command's report is being captured for -o: the file gets no colour codes.
_capturing: ContextVar[bool] = ContextVar("capturing", default=False)
# The clock of the progress line (a test sets its own, to pass two seconds at once).
_clock = time.monotonic


def _paths_given(ctx: click.Context, kwargs: dict[str, Any]) -> list[tuple[str, str]]:
    """(option or argument name, path) for every file path the command was given: its inputs,
    and its other outputs (--annotate), none of which -o may write over."""
    out = []
    for param in ctx.command.params:
        if not isinstance(param.type, click.Path) or param.name not in kwargs:
            continue
        value = kwargs[param.name]
        name = param.opts[-1] if isinstance(param, click.Option) else param.human_readable_name
        for v in value if isinstance(value, tuple) else (value,):
            if v is not None:
                out.append((name, str(v)))
    return out


def _same_path(a: str, b: str) -> bool:
    with contextlib.suppress(OSError):
        if os.path.exists(a) and os.path.exists(b):
            return os.path.samefile(a, b)
    return os.path.realpath(a) == os.path.realpath(b)


def _check_output(output: str, given: list[tuple[str, str]]) -> None:
    for name, path in given:
        if _same_path(output, path):
            raise UsageError(
                f"-o {output}: the same file as {name} {path}; the report goes to a new file, "
                "never over an input or another output",
                Where(path=output),
            )
    require_new_file(output, "-o")
    folder = os.path.dirname(os.path.abspath(output))
    if not os.path.isdir(folder):  # found now, not after the work
        raise UsageError(f"-o {output}: no directory {folder}", Where(path=output))


def output_option(func: F) -> F:
    """``-o/--output FILE``: write the report to FILE. Goes under ``@_guarded`` (nearer the
    function), so a refused FILE is a usage error like any other (exit status 2)."""

    @functools.wraps(func)
    def run(*args: Any, output: str | None = None, **kwargs: Any) -> Any:
        if output is None:
            return func(*args, **kwargs)
        given = _paths_given(click.get_current_context(), kwargs)
        _check_output(output, given)
        captured = io.StringIO()

        def write() -> None:
            _check_output(output, given)  # again: a file made there meanwhile is not replaced either
            write_bytes_atomic(output, captured.getvalue().encode("utf-8"), protect=[p for _, p in given])

        token = _capturing.set(True)
        try:
            with contextlib.redirect_stdout(captured):
                func(*args, **kwargs)
        except click.exceptions.Exit as e:
            if e.exit_code in (0, 1):  # a report was made (1: it holds errors): it is written all the same
                write()
            raise
        finally:
            _capturing.reset(token)
        write()
        return None

    return click.option(
        "-o",
        "--output",
        type=click.Path(dir_okay=False),
        metavar="FILE",
        help="Write the report to FILE (a new file, never an input) instead of standard output.",
    )(run)  # type: ignore[return-value]


# A finding's severity opens its line in the text reports (report/findings.py, report/verify_text.py).
_SEVERITY = re.compile(r"^(\s*)(error|warning)(?= )", re.MULTILINE)
_COLOURS = {"error": "red", "warning": "yellow"}


def severity_colours(text: str, fmt: str) -> str:
    """`text` with its severities coloured, when it is a text report bound for the screen."""
    if fmt != "text" or _capturing.get() or os.environ.get("NO_COLOR"):
        return text
    return _SEVERITY.sub(lambda m: m[1] + click.style(m[2], fg=_COLOURS[m[2]], bold=m[2] == "error" or None), text)


class _Ticker:
    """Rewrites one line of a terminal's standard error with `text(seconds elapsed)` once `after`
    seconds have passed: every `every` seconds from a thread, so that one long call (a board
    sampled at once) shows too, and when the work calls `tick` as it advances (a log's steps), at
    most as often. Off a terminal it does nothing."""

    def __init__(self, text: Callable[[float], str], after: float, every: float, stream: TextIO | None) -> None:
        self.out = stream if stream is not None else sys.stderr
        self.text, self.after, self.every = text, after, every
        self.start = self.drawn = _clock()
        self.stopped = threading.Event()
        self.lock = threading.Lock()  # the thread and `tick` both draw
        self.shown = 0
        self.thread = threading.Thread(target=self._run, daemon=True) if self.out.isatty() else None
        if self.thread is not None:
            self.thread.start()

    def _run(self) -> None:
        while not self.stopped.is_set():
            self._draw(_clock())
            self.stopped.wait(self.every)

    def _draw(self, now: float) -> None:
        if now - self.start < self.after:
            return
        with self.lock:
            line = self.text(now - self.start)
            self.out.write("\r" + line.ljust(self.shown))
            self.out.flush()
            self.shown, self.drawn = len(line), now

    def tick(self) -> None:
        if self.thread is not None and (now := _clock()) - self.drawn >= self.every:
            self._draw(now)

    def stop(self) -> None:
        self.stopped.set()
        if self.thread is not None:
            self.thread.join()
        if self.shown:  # wipe the line: what follows on the terminal starts clean
            self.out.write("\r" + " " * self.shown + "\r")
            self.out.flush()


@contextlib.contextmanager
def working(
    what: str, *, after: float = 2.0, every: float = 0.5, stream: TextIO | None = None
) -> Iterator[Callable[[str], None]]:
    """Show "what (N s)" on a terminal's standard error while long work runs, after `after`
    seconds. The work may say how far it is by calling what this yields with a new text (e.g.
    "verify: log 1/1, step 1200/3000"): cheap, it draws only when the line is due. An error
    message may come before the line is wiped."""
    text = what  # the ticker's thread reads it: one str assignment at a time

    def say(now: str) -> None:
        nonlocal text
        text = now
        ticker.tick()

    ticker = _Ticker(lambda seconds: f"{text} ({seconds:.0f} s)", after, every, stream)
    try:
        yield say
    finally:
        ticker.stop()
