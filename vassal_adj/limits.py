"""Every bound on the work one input may cause, in one place (docs/reliability.md).

Inputs come from strangers: an opponent's log, a module from a forum. Each limit below caps a
size, count or depth that a crafted file could otherwise make unbounded (memory, time or
recursion). The defaults leave a wide margin over the corpus of real modules, saves and logs;
a user with a trusted file beyond one raises it with the environment variable the error names.
Like errors.py, this module is imported by every layer: it holds numbers and reads only the
environment, when a limit is asked for (so a test or a shell can change it at any time).
"""

from __future__ import annotations

import os
from dataclasses import dataclass

from vassal_adj.errors import FormatError, Where

_MiB = 1024 * 1024


@dataclass(frozen=True)
class Limit:
    """One bound: what it counts (`what`, in words), its default and the variable that raises it."""

    what: str
    default: int
    env: str

    @property
    def value(self) -> int:
        """The limit in force: the environment's value when it is a positive integer, else the default."""
        text = os.environ.get(self.env, "").strip().replace("_", "")
        return (
            int(text) if text.isascii() and text.isdigit() and 0 < len(text) <= 18 and int(text) > 0 else self.default
        )

    def error(self, found: str, where: Where | None = None) -> FormatError:
        """The FormatError for an input past this limit; `found` says what was found, with its value."""
        return FormatError(
            f"{found}: over the limit of {self.value:,} ({self.what}; a hostile or broken file?); "
            f"if the file is trusted, raise the limit with the environment variable {self.env}",
            where,
        )

    def check(self, count: int, found: str, where: Where | None = None) -> None:
        """Raise `error` when `count` is over the limit."""
        if count > self.value:
            raise self.error(found, where)


def _limit(what: str, default: int, name: str) -> Limit:
    return Limit(what, default, "VASSAL_ADJ_MAX_" + name)


# Archives (codec/archive.py). Corpus maxima: 50 entries, 27.8 MB for one entry and in total,
# a deflate ratio of 44.5. Reading a zip's directory costs ~14 us an entry, so 20,000 entries
# stay under 0.3 s; real modules ship hundreds to a few thousand piece images.
ZIP_ENTRIES = _limit("zip entries", 20_000, "ZIP_ENTRIES")
ENTRY_BYTES = _limit("bytes in one zip entry", 512 * _MiB, "ENTRY_BYTES")
TOTAL_BYTES = _limit("bytes in a whole archive", 1024 * _MiB, "TOTAL_BYTES")
ZIP_RATIO = _limit("compression ratio of a zip entry over 1 MiB", 500, "ZIP_RATIO")

# buildFile XML (parse/buildfile_xml.py). The largest corpus buildFile is a few MB and nests
# under 20 elements deep; lxml itself refuses deeper than 256 without its huge-tree option.
XML_BYTES = _limit("bytes of buildFile XML", 256 * _MiB, "XML_BYTES")
XML_DEPTH = 256  # libxml2's own, fixed without its huge-tree option (which lifts every bound)
XML_ATTRIBUTES = _limit("attributes on one XML element", 1_000, "XML_ATTRIBUTES")

# The command stream (parse/commands.py). Real streams nest under 10 deep (the corpus has at
# most 18 backslashes before an ESC: one per level of escaping); the largest corpus save holds
# about 75,000 commands.
NESTING = _limit("levels of command nesting, counted as backslashes before an ESC", 200, "NESTING")
COMMANDS = _limit("commands in one saved game", 5_000_000, "COMMANDS")

# Pieces (parse/traits.py): prototypes expand inside prototypes. In the corpus, chains are at
# most 6 deep and an expanded piece has at most 210 traits.
PROTOTYPE_DEPTH = _limit("levels of prototypes within prototypes", 100, "PROTOTYPE_DEPTH")
TRAITS = _limit("traits in one expanded piece", 20_000, "TRAITS")

# Geometry (model/geometry): grids are indexed hex by hex, pictures drawn pixel by pixel.
# The biggest grid of a board of known size in the corpus and examples has 1,200 cells (most
# corpus modules ship without pictures); a 100 x 80 hex map has 8,000; 100,000 take about 5 s;
# Pillow's own bomb limit is about 179 million pixels (2 x Image.MAX_IMAGE_PIXELS).
HEXES = _limit("hexes in one grid", 100_000, "HEXES")
PIXELS = _limit("pixels in one board or map picture", 2 * 89_478_485, "PIXELS")

ALL = (
    ZIP_ENTRIES,
    ENTRY_BYTES,
    TOTAL_BYTES,
    ZIP_RATIO,
    XML_BYTES,
    XML_ATTRIBUTES,
    NESTING,
    COMMANDS,
    PROTOTYPE_DEPTH,
    TRAITS,
    HEXES,
    PIXELS,
)


def quoted(value: str, keep: int = 40) -> str:
    """`value` for an error message: quoted, and cut with its length named when it is long."""
    if len(value) <= keep:
        return repr(value)
    return f"{value[:keep]!r}... ({len(value):,} characters)"
