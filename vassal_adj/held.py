"""What this process has built already, given again to the next caller that asks for the same.

A batch (batch/worker.py) runs many commands in one process over one module and pack, and a
single `verify` asks several times for the same terrain map and board index. The user cache
(pickle_cache.py, layout_cache.py) saves the parsing but still unpickles the object on every
ask; this keeps the object itself, under the very key its cache entry has (the sizes and
modification times of the files and code it is made from, or their text): a changed file is
another key, and the object is made again and replaces the one held.

Only objects nobody changes are held: frozen dataclasses and read-only mappings, which every
caller already shares within a run. A few are held at a time (the most recently asked), so a
process that reads many modules (the test suite, lint over a folder) keeps no more than those.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable
from typing import Any, TypeVar

__all__ = ["held"]

T = TypeVar("T")
# A batch asks for four at a time (module, pack, terrain, board index); room for a second module.
_ROOM = 12
_HELD: OrderedDict[str, tuple[str, Any]] = OrderedDict()


def held(name: str, key: str, build: Callable[[], T]) -> T:
    """The object held as `name` when it was made under `key`, else `build()`, now held.
    `build` raising holds nothing (and lets go of an older object of that name)."""
    got = _HELD.get(name)
    if got is not None and got[0] == key:
        _HELD.move_to_end(name)
        return got[1]
    _HELD.pop(name, None)
    value = build()
    _HELD[name] = (key, value)
    while len(_HELD) > _ROOM:
        _HELD.popitem(last=False)
    return value
