"""Why a move has no legal path: the rules a path breaks, in words (for `movement.legal_path`).

When the legal way is longer than the allowance, several ways within it may each be closed by
a different rule (e.g. a panzer's short way through an enemy zone of control, another
through rough hexes a rule closes to it), and one step may break several rules at once. A
referee must see every such rule, not the one a tie among equally short ways, or the order in
which a step's rules are checked, happens to pick. `short_ways_fault` finds them: the cheapest
way within the allowance with every rule relaxed and the rules it breaks; then the cheapest way
keeping the first of those rules; and so on until no way within the allowance is left. Then
every way within the allowance breaks a rule named, and each way named is listed with all the
rules it breaks. The rule cited is one that alone closes every way within the allowance when
there is one (the move is illegal by that rule whatever way was meant), else the first rule
the cheapest way breaks.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from fractions import Fraction
from itertools import pairwise

from vassal_adj.model.geometry.hexes import Hex
from vassal_adj.rules.mechanisms.zoc import Sources, no_sources

__all__ = ["REASONS", "Broken", "Way", "every_broken", "first_broken", "short_ways", "short_ways_fault"]

# A step's verdict, as `movement._Move.edge` gives it: (ticks, every rule it breaks), None when never entered.
# A broken rule is a tuple: its kind (a key of REASONS), its rule number, then the values its words quote.
Edge = Callable[[Hex, Hex], "tuple[int, tuple[tuple[str, ...], ...]] | None"]
# The cheapest path within the allowance and its cost, keeping the rules whose (kind, rule number) is given
# and relaxing every other; None when there is none.
Within = Callable[[frozenset[tuple[str, str]]], "tuple[tuple[Hex, ...], int | Fraction] | None"]

# {za} and {zb}: the enemy units exerting the zone of control at a and b, named (zoc.Sources).
REASONS = {
    "zoc-stop": "enemy zone of control at {a}{za} stops movement",
    "zoc-locked": "unit starts in enemy zone of control at {a}{za} and may not leave it{x[2]}",
    "zoc-no-entry": "may not enter enemy zone of control at {b}{zb}",
    "zoc-to-zoc": "may not move from enemy zone of control at {a}{za} directly into another at {b}{zb}",
    "reenter": "withdrawing unit left enemy zone of control and may not re-enter one at {b}{zb}",
    "side": "{x[2]} hexside {a}/{b} may not be crossed",
    "weather-side": "unbridged {x[2]} hexside {a}/{b} may not be crossed in {x[3]} weather",
    "enter": "{x[2]} hex {b} prohibited to {x[3]} units{x[4]}",
    "exit": "{x[3]} units leave {x[2]} hex {a} only through {x[4]} hexsides",
    "terrain": "{x[2]} hex {b} prohibited to {x[3]} units",
}
_ORDER = {kind: n for n, kind in enumerate(REASONS)}


@dataclass(frozen=True)
class Broken:
    """A rule a path breaks: its `kind` (a key of REASONS), what happened in `words`, its `rule` number,
    and the enemy `units` whose zone of control the words name."""

    kind: str
    words: str
    rule: str
    units: tuple[str, ...] = ()

    @property
    def key(self) -> tuple[str, str]:
        return self.kind, self.rule


@dataclass(frozen=True)
class Way:
    """A way within the allowance (`path`, both ends, costing `cost` MP) and every rule it breaks, in order."""

    path: tuple[Hex, ...]
    cost: int | Fraction
    broken: tuple[Broken, ...]


def _broken_on(edge: Edge, path: tuple[Hex, ...], lab: Callable[[Hex], str], whose: Sources) -> Iterator[Broken]:
    for a, b in pairwise(path):
        for x in step[1] if (step := edge(a, b)) is not None else ():
            words = REASONS[x[0]]
            za = whose(a) if "{za}" in words else no_sources(a)
            zb = whose(b) if "{zb}" in words else no_sources(b)
            yield Broken(
                x[0],
                words.format(a=lab(a), b=lab(b), x=x, za=za[1], zb=zb[1]),
                x[1],
                tuple(dict.fromkeys(za[0] + zb[0])),
            )


def first_broken(
    edge: Edge, path: tuple[Hex, ...], lab: Callable[[Hex], str], whose: Sources = no_sources
) -> Broken | None:
    """The first rule `path` breaks, or None when every step is legal."""
    return next(_broken_on(edge, path, lab, whose), None)


def every_broken(
    edge: Edge, path: tuple[Hex, ...], lab: Callable[[Hex], str], whose: Sources = no_sources
) -> tuple[Broken, ...]:
    """Every rule `path` breaks, each where it first breaks it, in path order."""
    first: dict[tuple[str, str], Broken] = {}
    for b in _broken_on(edge, path, lab, whose):
        first.setdefault(b.key, b)
    return tuple(first.values())


def short_ways(within: Within, edge: Edge, lab: Callable[[Hex], str], whose: Sources = no_sources) -> list[Way]:
    """Ways within the allowance, cheapest first, until every such way breaks a rule one of them breaks first.

    Each search keeps one rule more, so there are at most as many searches as kinds of rule (a
    cap: it is reached only when as many rules as that close ways). Ways of equal cost are ordered
    by the kind of their first rule (REASONS' order), not by which the search met first.
    """
    ways: list[Way] = []
    strict: set[tuple[str, str]] = set()
    for _ in REASONS:
        found = within(frozenset(strict))
        if found is None or not (broken := every_broken(edge, found[0], lab, whose)):
            break
        ways.append(Way(*found, broken))
        strict.add(broken[0].key)
    return sorted(ways, key=lambda w: (w.cost, _ORDER[w.broken[0].kind]))


def short_ways_fault(
    within: Within, edge: Edge, lab: Callable[[Hex], str], whose: Sources = no_sources
) -> tuple[str, str, tuple[str, ...]] | None:
    """Why no way within the allowance is legal, in words, the rule to cite, and the enemy units whose
    zones of control the words name (None: there is no such way)."""
    if not (ways := short_ways(within, edge, lab, whose)):
        return None
    shared = [b for b in ways[0].broken if all(b.key in {c.key for c in w.broken} for w in ways[1:])]
    alone = next((b for b in shared if within(frozenset({b.key})) is None), None)
    listed = "; ".join(
        f"{' '.join(map(lab, w.path))} ({w.cost} MP): " + ", ".join(f"{b.words} [{b.rule}]" for b in w.broken)
        for w in ways
    )
    closes = f" ({alone.rule} closes them all)" if alone is not None else ""
    units = tuple(dict.fromkeys(u for w in ways for b in w.broken for u in b.units))
    return (f"every way within the allowance breaks a rule{closes}: {listed}", (alone or ways[0].broken[0]).rule, units)
