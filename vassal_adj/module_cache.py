"""Keep a module's parsed buildFile between runs (issue 10, startup time): user_cache.py.

Reading a module opens its archive, parses the buildFile XML (lxml) and reads the board images'
sizes: 14 ms for the small Kasserine example, 60 ms and more for real modules, on every command.
The `Module` it gives is plain frozen data, pickled into the user cache. An entry is keyed by the
path as given and resolved, the file's size and modification time, a checksum of its last 64 KB
(a zip's central directory, which holds the checksum of every entry: another buildFile or image
is another key even within the file system's clock tick) and the size and modification time of
the code that parses and defines modules. Any entry that does not load as such a `Module` is a miss.
"""

from __future__ import annotations

import copyreg
import io
import os
import pickle
import zlib
from collections.abc import Callable
from types import MappingProxyType
from typing import Any

from vassal_adj.model.module import Module
from vassal_adj.user_cache import cache_dir, code_stamp, read_entry, tag, write_entry

__all__ = ["cached_module"]

_ROOT = os.path.dirname(os.path.abspath(__file__))
# The code a Module comes from: the file readers, the parsers, the model (its classes are pickled by name).
_CODE = (
    os.path.join(_ROOT, "codec"),
    os.path.join(_ROOT, "parse"),
    os.path.join(_ROOT, "model"),
    os.path.join(_ROOT, "model", "geometry"),
    os.path.join(_ROOT, "load.py"),
)
_TAIL = 65536


def _proxy(items: dict[Any, Any]) -> MappingProxyType[Any, Any]:
    return MappingProxyType(items)


def _pickled(module: Module) -> bytes | None:
    out = io.BytesIO()
    pickler = pickle.Pickler(out, pickle.HIGHEST_PROTOCOL)
    # read-only mappings are written as their items and made read-only again when read
    pickler.dispatch_table = {**copyreg.dispatch_table, MappingProxyType: lambda m: (_proxy, (dict(m),))}
    try:
        pickler.dump(module)
    except (pickle.PicklingError, TypeError, AttributeError, RecursionError):
        return None  # something in it pickle cannot write: not kept
    return out.getvalue()


def _key(path: str) -> str | None:
    try:
        st = os.stat(path)
        with open(path, "rb") as f:
            f.seek(max(0, st.st_size - _TAIL))
            tail = f.read()
    except OSError:
        return None  # reading it says why (load_module)
    return f"{path}\n{os.path.abspath(path)}\n{st.st_size} {st.st_mtime_ns} {zlib.crc32(tail):08x}\n{code_stamp(_CODE)}"


def cached_module(path: str, build: Callable[[], Module]) -> Module:
    """The module at `path`: from the cache when its entry is for this very file, else `build()`
    (which raises for a file that is not a module: nothing is kept then)."""
    key = _key(path) if cache_dir() is not None else None
    if key is None:
        return build()
    name = f"module-{tag()}-{zlib.crc32(os.path.abspath(path).encode()):08x}.pickle"
    data = read_entry(name)
    if data is not None:
        try:
            stored, blob = pickle.loads(data)
            module = pickle.loads(blob) if stored == key else None
        except Exception:  # a corrupt entry fails in many ways (EOFError, UnpicklingError, ImportError...)
            module = None
        if isinstance(module, Module):
            return module
    module = build()
    blob = _pickled(module)
    if blob is not None:
        write_entry(name, pickle.dumps((key, blob), pickle.HIGHEST_PROTOCOL))
    return module
