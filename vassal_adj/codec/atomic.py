"""Atomic writes that never replace an input: temp file beside the target, fsync, rename.

A write killed midway (power cut, kill -9) leaves its temp file behind: it is named after the
target, the tool and the writing process (``turn5.vsav.vassal-adj-1234-0a1b2c3d4e5f.partial``)
so a user finds it, and the next write of the same target removes those whose process is gone.
"""

from __future__ import annotations

import contextlib
import os
import re
from collections.abc import Callable, Iterable
from typing import BinaryIO

from vassal_adj.errors import UsageError, VassalAdjError, Where

StrPath = str | os.PathLike[str]


def write_bytes_atomic(path: StrPath, data: bytes, protect: Iterable[StrPath] = ()) -> None:
    """Write `data` to `path` atomically (temp file beside it, fsync, rename).

    Refuses, with a `UsageError`, to write onto any path in `protect`.
    """
    write_atomic(path, lambda f: f.write(data), protect)


def _same_file(a: str, b: str) -> bool:
    try:
        if os.path.exists(a) and os.path.exists(b):
            return os.path.samefile(a, b)
    except OSError:
        pass
    return os.path.realpath(a) == os.path.realpath(b)


def write_atomic(path: StrPath, fill: Callable[[BinaryIO], object], protect: Iterable[StrPath]) -> None:
    target = os.fspath(path)
    for guarded in protect:
        g = os.fspath(guarded)
        if _same_file(target, g):
            raise UsageError(
                f"refusing to write onto input file {g!r}: inputs are never modified",
                Where(path=target),
            )
    directory = os.path.dirname(os.path.abspath(target))
    base = os.path.basename(target)
    _remove_stale(directory, base)
    tmp = ""
    fd = -1
    try:
        while True:
            tmp = os.path.join(directory, f"{base}{_PARTIAL}{os.getpid()}-{os.urandom(6).hex()}.partial")
            try:
                # 0o666 and the umask, like any new file; mkstemp would force 0o600.
                fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_BINARY", 0), 0o666)
                break
            except FileExistsError:
                continue
            except OSError as e:
                tmp = ""
                # No file can be made there at all (read-only, not ours, gone): the folder is
                # what the user must change, so name it.
                reason = (e.strerror or str(e)).lower()
                raise VassalAdjError(f"cannot write into folder {directory!r}: {reason}", Where(path=target)) from None
        with os.fdopen(fd, "wb") as f:
            fd = -1
            fill(f)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, target)
        tmp = ""
        _fsync_dir(directory)
    except OSError as e:
        reason = (e.strerror or str(e)).lower()
        raise VassalAdjError(f"cannot write file: {reason}", Where(path=target)) from None
    finally:
        if fd >= 0:
            os.close(fd)
        if tmp:
            with contextlib.suppress(OSError):
                os.unlink(tmp)


_PARTIAL = ".vassal-adj-"


def _remove_stale(directory: str, base: str) -> None:
    """Remove the temp files of earlier writes of `base` whose process no longer runs.

    Only where a process can be asked whether it runs without harm (POSIX signal 0; on
    Windows os.kill would end it): elsewhere the files stay, found by their name.
    """
    if os.name != "posix":
        return
    pattern = re.compile(re.escape(base + _PARTIAL) + r"(\d+)-[0-9a-f]{12}\.partial")
    try:
        names = os.listdir(directory)
    except OSError:
        return
    for name in names:
        m = pattern.fullmatch(name)
        if m is None or _running(int(m.group(1))):
            continue
        with contextlib.suppress(OSError):
            os.unlink(os.path.join(directory, name))


def _running(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except (PermissionError, OverflowError, OSError):
        return True  # another user's process, or a number the system cannot ask about
    return True


def _fsync_dir(directory: str) -> None:
    # Makes the rename itself durable; not possible on every platform, hence best effort.
    try:
        dfd = os.open(directory, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(dfd)
    except OSError:
        pass
    finally:
        os.close(dfd)
