"""Objects kept between runs in the user cache (user_cache.py), pickled: a parsed module
(module_cache.py), a pack's terrain map on a board (pack_files.py).

An entry holds its full key beside the pickled object, and the object is only unpickled when the
key is the caller's: a stale entry costs a comparison, a corrupt one is a miss. The object's
classes are pickled by name, so a key must change with the code that defines and builds them
(user_cache.code_stamp).
"""

from __future__ import annotations

import copyreg
import io
import os
import pickle
import zlib
from collections.abc import Callable
from types import MappingProxyType
from typing import Any, TypeVar

from vassal_adj.held import held
from vassal_adj.model.geometry.hexes import Hex, HexSide
from vassal_adj.user_cache import cache_dir, read_entry, tag, write_entry

__all__ = ["PACKAGE_DIR", "cached_object"]

T = TypeVar("T")
PACKAGE_DIR = os.path.dirname(os.path.abspath(__file__))


class _OrderNotKept(Exception):
    pass


def _proxy(items: dict[Any, Any]) -> MappingProxyType[Any, Any]:
    return MappingProxyType(items)


def _side(a: Hex, b: Hex) -> HexSide:
    """The hexside of two hexes a kept HexSide held, in its order: checked when it was made."""
    side = object.__new__(HexSide)
    object.__setattr__(side, "a", a)
    object.__setattr__(side, "b", b)
    return side


class _Pickler(pickle.Pickler):
    """A pickler that writes read-only mappings as their items (made read-only again when read)
    and refuses a set whose order would not be given again.

    A set is pickled as its items in the order it gives them, and made again from them when read;
    but a set's order depends on how it was built, not only on what it holds. Hexes hash alike in
    every run, so code that walks a set of hexes walks it in one order every run, and a set read
    from the cache must give that order too: when the same items in that order make a set with
    another order, the object is not kept (a set of names excepted: their order changes from run
    to run anyway). (Pickle writes sets itself, asking no dispatch table;
    `persistent_id` sees every object first.)"""

    # Hexes and hexsides, a thousand in a terrain map, as their fields: pickle's own way for a
    # dataclass with slots sets each through a Python function, twice as slow to read (1 ms of check)
    dispatch_table = {
        **copyreg.dispatch_table,
        MappingProxyType: lambda m: (_proxy, (dict(m),)),
        Hex: lambda h: (Hex, (h.q, h.r)),
        HexSide: lambda s: (_side, (s.a, s.b)),
    }

    def persistent_id(self, obj: object) -> None:
        if isinstance(obj, set | frozenset) and len(obj) > 1:
            items = list(obj)
            # names hash otherwise in every run (PYTHONHASHSEED): no order of theirs holds from run to run
            if list(type(obj)(items)) != items and not all(type(x) is str for x in items):
                raise _OrderNotKept
        return None


def _pickled(value: object) -> bytes | None:
    out = io.BytesIO()
    try:
        _Pickler(out, pickle.HIGHEST_PROTOCOL).dump(value)
    except (pickle.PicklingError, TypeError, AttributeError, RecursionError, _OrderNotKept):
        return None  # something in it pickle cannot write, or not as it is: not kept
    return out.getvalue()


def cached_object(kind: str, where: str, key: str, build: Callable[[], T], expect: type[T]) -> T:
    """The `expect` object kept under `key` for file `where`, else `build()`, kept when it pickles.
    `build` raising keeps nothing. Within a process the object itself is kept too (held.py).
    Caching off (user_cache.cache_dir() None): `build()`, once per process and key."""
    name = f"{kind}-{tag()}-{zlib.crc32(os.path.abspath(where).encode()):08x}.pickle"
    return held(name, key, lambda: _kept(name, key, build, expect))


def _kept(name: str, key: str, build: Callable[[], T], expect: type[T]) -> T:
    if cache_dir() is None:
        return build()
    data = read_entry(name)
    if data is not None:
        try:
            stored, blob = pickle.loads(data)
            value = pickle.loads(blob) if stored == key else None
        except Exception:  # a corrupt entry fails in many ways (EOFError, UnpicklingError, ImportError...)
            value = None
        if isinstance(value, expect):
            return value
    value = build()
    blob = _pickled(value)
    if blob is not None:
        write_entry(name, pickle.dumps((key, blob), pickle.HIGHEST_PROTOCOL))
    return value
