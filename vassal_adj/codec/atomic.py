"""Atomic writes that never replace an input: temp file beside the target, fsync, rename."""

from __future__ import annotations

import contextlib
import os
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
    tmp = ""
    fd = -1
    try:
        while True:
            tmp = os.path.join(directory, f".{base}.{os.urandom(6).hex()}.tmp")
            try:
                # 0o666 and the umask, like any new file; mkstemp would force 0o600.
                fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_BINARY", 0), 0o666)
                break
            except FileExistsError:
                continue
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
