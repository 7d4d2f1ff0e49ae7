"""Keep a module's parsed buildFile between runs (issue 10, startup time): pickle_cache.py.

Reading a module opens its archive, parses the buildFile XML (lxml) and reads the board images'
sizes: 14 ms for the small example module (modules/), 60 ms and more for real modules, on every command.
The `Module` it gives is plain frozen data. An entry is keyed by the path as given and resolved,
the file's size and modification time, a checksum of its last 64 KB (a zip's central directory,
which holds the checksum of every entry: another buildFile or image is another key even within
the file system's clock tick) and the size and modification time of the code that parses and
defines modules.
"""

from __future__ import annotations

import os
import zlib
from collections.abc import Callable

from vassal_adj import limits
from vassal_adj.model.module import Module
from vassal_adj.pickle_cache import PACKAGE_DIR, cached_object
from vassal_adj.user_cache import code_stamp

__all__ = ["cached_module"]

# The code a Module comes from: the file readers, the parsers, the model (its classes are pickled by name).
_CODE = tuple(
    os.path.join(PACKAGE_DIR, *p)
    for p in (("codec",), ("parse",), ("model",), ("model", "geometry"), ("load.py",), ("limits.py",))
)
_TAIL = 65536


def _key(path: str) -> str | None:
    try:
        st = os.stat(path)
        with open(path, "rb") as f:
            f.seek(max(0, st.st_size - _TAIL))
            tail = f.read()
    except OSError:
        return None  # reading it says why (load_module)
    # The limits in force are part of the key: a module read under a raised limit is not
    # reused when the defaults apply again (docs/reliability.md).
    bounds = " ".join(str(limit.value) for limit in limits.ALL)
    stamp = f"{st.st_size} {st.st_mtime_ns} {zlib.crc32(tail):08x}\n{code_stamp(_CODE)}\n{bounds}"
    return f"{path}\n{os.path.abspath(path)}\n{stamp}"


def cached_module(path: str, build: Callable[[], Module]) -> Module:
    """The module at `path`: from the cache when its entry is for this very file, else `build()`
    (which raises for a file that is not a module: nothing is kept then)."""
    key = _key(path)
    if key is None:
        return build()
    return cached_object("module", path, key, build, Module)
