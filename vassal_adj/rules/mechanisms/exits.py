"""What a unit leaving the map by a hex takes away: one reading of "east of" for every rule.

Rules may void what lies at and east of an exit hex: supply sources (RULES-MAP E4, seed 000's 17.15:
"that hex and all Supply hexes east of that hex") and reinforcement entries (E7, its 23: "that hex or any hex
east of that hex"). `at_or_east_of` is the one reading both use; `sources_after_exits` applies
it to supply sources. Pure.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterable

from vassal_adj.model.geometry.hexes import Hex

__all__ = ["at_or_east_of", "column_east_of", "sources_after_exits"]


def column_east_of(a: Hex, b: Hex) -> bool:
    """Whether `a` lies east of `b`: in a column further right. VASSAL's raw column grows to
    the right, which is east on a map printed north up (the example module: columns 01-39 run
    west to east). A hex of the same column is north or south of `b`, not east of it.

    >>> a, b, c = Hex.from_raw(5, 0), Hex.from_raw(4, 0), Hex.from_raw(4, 9)
    >>> column_east_of(a, c), column_east_of(b, c)
    (True, False)
    """
    return a.q > b.q


def at_or_east_of(h: Hex, x: Hex, east_of: Callable[[Hex, Hex], bool] = column_east_of) -> bool:
    """ "That hex or any hex east of that hex" (RULES-MAP E7), "that hex and all ... east of that
    hex" (E4): `h` is `x` itself or east of it. The one reading both rules use.

    >>> x = Hex.from_raw(4, 4)
    >>> at_or_east_of(x, x), at_or_east_of(Hex.from_raw(5, 9), x), at_or_east_of(Hex.from_raw(4, 5), x)
    (True, True, False)
    """
    return h == x or east_of(h, x)


def sources_after_exits(
    sources: Collection[Hex], exited: Iterable[Hex], east_of: Callable[[Hex, Hex], bool] = column_east_of
) -> frozenset[Hex]:
    """The sources still usable after enemy units exited the map from `exited` hexes (17.15).

    "If an Axis unit exits any Allied Supply hex, that hex and all Supply hexes east of that
    hex may no longer be used as an Allied Supply Source." Exits from hexes that are not
    sources change nothing. `east_of(a, b)` says whether `a` is east of `b` (`at_or_east_of`).
    """
    srcs = frozenset(sources)
    lost: set[Hex] = set()
    for x in exited:
        if x in srcs:
            lost.update(h for h in srcs if at_or_east_of(h, x, east_of))
    return srcs - lost
