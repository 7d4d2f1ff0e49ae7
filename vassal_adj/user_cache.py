"""The per-user cache of the command line (issue 10, startup time): files that only save time.

Where: ``$VASSAL_ADJ_CACHE`` when set, else ``$XDG_CACHE_HOME/vassal-adj`` (default
``~/.cache/vassal-adj``; ``%LOCALAPPDATA%\\vassal-adj\\cache`` on Windows). Set
``VASSAL_ADJ_NO_CACHE=1`` to neither read nor write it.

A cache is never required and never changes an output: every entry is keyed by the package
version, the Python version and what its content was made from (the size and mtime_ns of each
file read, dataclass_code.py and pack_cache.py), and a missing, unreadable, corrupt or stale
entry is ignored and rebuilt. Writes are atomic (a temporary file beside the entry, then a
rename), so a reader never sees half an entry; a failed write is ignored.
"""

from __future__ import annotations

import contextlib
import marshal
import os
import sys
import zlib
from collections.abc import Callable
from typing import Any

from vassal_adj import __version__

__all__ = ["ENV_CACHE", "ENV_NO_CACHE", "cache_dir", "code_stamp", "parsed", "read_entry", "tag", "write_entry"]

ENV_CACHE = "VASSAL_ADJ_CACHE"
ENV_NO_CACHE = "VASSAL_ADJ_NO_CACHE"


def cache_dir() -> str | None:
    """The cache directory, or None when caching is turned off."""
    env = os.environ
    if env.get(ENV_NO_CACHE, "") not in ("", "0"):
        return None
    if env.get(ENV_CACHE):
        return env[ENV_CACHE]
    if sys.platform.startswith("win"):
        base = env.get("LOCALAPPDATA") or os.path.join(os.path.expanduser("~"), "AppData", "Local")
        found = os.path.join(base, "vassal-adj", "cache")
    else:
        base = env.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
        found = os.path.join(base, "vassal-adj")
    # no home directory known ("~" left as it is): no cache, rather than one in the working directory
    return found if os.path.isabs(found) else None


def tag() -> str:
    """What every entry's name carries: an entry written by another version of vassal-adj or of
    Python (whose marshal and pickle forms may differ) is another file, never read."""
    impl = sys.implementation
    return f"{__version__}-{impl.cache_tag or impl.name}"


def code_stamp(paths: tuple[str, ...]) -> str:
    """The size and modification time of each file of `paths` (a directory: its .py files), for
    keys of entries that hold what that code computes: a checkout whose code changes without a
    new version number is another key."""
    stamps = []
    for path in paths:
        try:
            files = sorted(os.path.join(path, n) for n in os.listdir(path) if n.endswith(".py"))
        except NotADirectoryError:
            files = [path]
        except OSError:
            files = []
        for file in files:
            try:
                st = os.stat(file)
            except OSError:
                continue
            stamps.append(f"{os.path.basename(file)}:{st.st_size}:{st.st_mtime_ns}")
    return " ".join(stamps)


def read_entry(name: str) -> bytes | None:
    """The bytes of entry `name`; None when caching is off or the entry cannot be read."""
    root = cache_dir()
    if root is None:
        return None
    try:
        with open(os.path.join(root, name), "rb") as f:
            return f.read()
    except OSError:
        return None


def write_entry(name: str, data: bytes) -> None:
    """Write entry `name` atomically; nothing when caching is off or the directory is not writable."""
    root = cache_dir()
    if root is None:
        return
    target = os.path.join(root, name)
    tmp = f"{target}.{os.getpid()}.{os.urandom(4).hex()}.tmp"
    try:
        os.makedirs(root, exist_ok=True)
        with open(tmp, "wb") as f:
            f.write(data)
        os.replace(tmp, target)
    except OSError:
        with contextlib.suppress(OSError):
            os.unlink(tmp)


def parsed(kind: str, where: str, text: str, parse: Callable[[str], Any]) -> Any:
    """`parse(text)`, from the entry of file `where` when it holds the result for this very text
    (the entry keeps the text: any change to the file is a miss). Results marshal cannot hold
    (a TOML date) are not kept. `parse` raising (a syntax error) keeps nothing."""
    if cache_dir() is None:
        return parse(text)
    name = f"{kind}-{tag()}-{zlib.crc32(os.path.abspath(where).encode()):08x}.marshal"
    data = read_entry(name)
    if data is not None:
        try:
            stored, value = marshal.loads(data)
        except (EOFError, ValueError, TypeError):
            stored = None
        if stored == text:
            return value
    value = parse(text)
    try:
        blob = marshal.dumps((text, value))
    except ValueError:
        return value
    write_entry(name, blob)
    return value
