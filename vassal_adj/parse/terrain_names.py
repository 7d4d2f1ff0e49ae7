"""The name table of `vassal-adj terrain import --map-names` (a small TOML file), as a `NameMap`.

::

    [hex]                       # hex terrain -> pack terrain types
    Clear = "clear"
    "Light Woods" = "forest light"
    Ocean = ""                  # no terrain
    [edge]                      # edge terrain -> hexside features
    River = "river"
    [line]                      # line terrain (roads, railways) -> hexside features
    Road = "road"
    [attribute.Elevation]       # an attribute's values -> pack terrain types
    "0" = ""
    "2" = "hill"

A value is a string of space-separated words or a list of words. Every problem is a
PackError naming the file and the key.
"""

from __future__ import annotations

import tomllib
from collections.abc import Mapping

from vassal_adj.errors import PackError, Where
from vassal_adj.model.terrain_ext import NameMap
from vassal_adj.model.terrain_import import is_word
from vassal_adj.parse import toml_text

__all__ = ["parse_name_map"]

_TABLES = ("hex", "edge", "line", "attribute")


def _words(value: object, key: str, where: Where) -> frozenset[str]:
    if isinstance(value, str):
        words = value.split()
    elif isinstance(value, list) and all(isinstance(w, str) for w in value):
        words = [w for item in value for w in item.split()]
    else:
        raise PackError(f"{key}: give the pack's words as a string or a list of strings, got {value!r}", where)
    bad = [w for w in words if not is_word(w)]
    if bad:
        raise PackError(f"{key}: {bad[0]!r} is not a pack word (one word: no commas, '#', '/' or quotes)", where)
    return frozenset(words)


def _table(data: object, key: str, where: Where) -> dict[str, frozenset[str]]:
    if not isinstance(data, Mapping):
        raise PackError(f"{key}: expected a table of module name = pack words, got {data!r}", where)
    return {
        name: _words(value, f"{key}.{name!r}" if not name.isidentifier() else f"{key}.{name}", where)
        for name, value in data.items()
    }


def parse_name_map(text: str, path: str) -> NameMap:
    """The name table in `text` (read from `path`, named in messages)."""
    where = Where(path=path)
    try:
        data = toml_text.loads(text)
    except tomllib.TOMLDecodeError as e:
        raise PackError(f"not valid TOML: {e}", where) from None
    unknown = sorted(set(data) - set(_TABLES))
    if unknown:
        raise PackError(f"{unknown[0]}: unknown table (known: {', '.join(_TABLES)})", where)
    attributes = data.get("attribute", {})
    if not isinstance(attributes, Mapping):
        raise PackError(f"attribute: expected tables [attribute.<name>], got {attributes!r}", where)
    return NameMap(
        hex=_table(data.get("hex", {}), "hex", where),
        edge=_table(data.get("edge", {}), "edge", where),
        line=_table(data.get("line", {}), "line", where),
        attribute={name: _table(table, f"attribute.{name}", where) for name, table in attributes.items()},
    )
