"""Reuse the compiled code of dataclass methods between runs of the command line (issue 10).

Creating a dataclass is the largest single cost of starting a command: for every class,
`dataclasses` writes the source of ``__init__``, ``__repr__``, ``__eq__``, ``__hash__`` (and a
frozen class's ``__setattr__``, ``__delattr__``) and compiles it, about 75 microseconds a method;
``check`` creates some 200 classes, 1,200 methods, about 90 ms of compiling. Python caches the
bytecode of modules (``__pycache__``) but not of this generated source.

`install` puts a function in front of the ``exec`` that `dataclasses` calls with that source: it
compiles the text as ``exec`` would (file name ``<string>``, no ``__future__`` flag: the
dataclasses module has none) and keeps the code object, keyed by the exact text, in the user
cache (user_cache.py), marshalled, read once at start and written back at exit when a text was
new. The same text gives the same code, so a class made with the cache is the class made without
it; an unreadable or corrupt entry is an empty cache. ``VASSAL_ADJ_NO_CACHE=1`` turns it off.
"""

from __future__ import annotations

import atexit
import builtins
import dataclasses
import marshal
from types import CodeType
from typing import Any

from vassal_adj.user_cache import cache_dir, read_entry, tag, write_entry

__all__ = ["install", "uninstall"]

# A cache that only grew over many versions of the classes would slow every start: past this
# size the entry is started afresh (the package's own classes need about 1.5 MB).
MAX_BYTES = 8_000_000


class _Codes:
    def __init__(self, name: str) -> None:
        self.name = name
        self.codes: dict[str, CodeType] = {}
        self.added = False
        data = read_entry(name)
        if data is not None and len(data) <= MAX_BYTES:
            try:
                loaded = marshal.loads(data)
            except (EOFError, ValueError, TypeError):
                loaded = None
            if isinstance(loaded, dict):
                self.codes = {k: v for k, v in loaded.items() if isinstance(k, str) and isinstance(v, CodeType)}

    def exec(self, source: Any, globals: Any = None, locals: Any = None, /) -> None:
        """`exec` as `dataclasses` calls it, with the compiled source reused."""
        if not isinstance(source, str):
            builtins.exec(source, globals, locals)
            return
        code = self.codes.get(source)
        if code is None:
            code = compile(source, "<string>", "exec", dont_inherit=True)
            self.codes[source] = code
            self.added = True
        # `dataclasses` always passes its globals; were it not to, exec would take its module's
        builtins.exec(code, dataclasses.__dict__ if globals is None else globals, locals)

    def save(self) -> None:
        if self.added:
            write_entry(self.name, marshal.dumps(self.codes))
            self.added = False


_installed: _Codes | None = None


def install() -> None:
    """Compile dataclass methods through the cache for the rest of this process (once; nothing
    when caching is off)."""
    global _installed
    if _installed is not None or cache_dir() is None:
        return
    _installed = _Codes(f"dataclass-code-{tag()}.marshal")
    # A module global named `exec` comes before the builtin in the dataclasses module's own lookups.
    dataclasses.exec = _installed.exec  # type: ignore[attr-defined]
    atexit.register(_installed.save)


def uninstall() -> None:
    """Back to the plain `exec` (tests), after writing what was compiled."""
    global _installed
    if _installed is None:
        return
    atexit.unregister(_installed.save)
    _installed.save()
    del dataclasses.exec  # type: ignore[attr-defined]
    _installed = None
