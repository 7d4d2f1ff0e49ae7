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
import os
import sys

from vassal_adj import __version__

__all__ = ["ENV_CACHE", "ENV_NO_CACHE", "cache_dir", "read_entry", "tag", "write_entry"]

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
        return os.path.join(base, "vassal-adj", "cache")
    base = env.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return os.path.join(base, "vassal-adj")


def tag() -> str:
    """What every entry's name carries: an entry written by another version of vassal-adj or of
    Python (whose marshal and pickle forms may differ) is another file, never read."""
    impl = sys.implementation
    return f"{__version__}-{impl.cache_tag or impl.name}"


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
