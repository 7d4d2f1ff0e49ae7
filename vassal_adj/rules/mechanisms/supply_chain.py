"""Supply through each formation's own HQ (RULES-MAP N9): a unit traces to the HQ of its
formation, the HQ traces to a source of its group (an army, a side), and a unit of a formation
whose HQ is off the map is out of supply.

Written from seed 001, generically:

- 9.1: "In order to be in supply, a combat unit could trace a line of supply to his EM, who
  himself be in supply." A unit's HQ is the unit picked by `ChainRules.hq` that shares its
  `link` value (its formation, or a group field); `unit_range` bounds the unit's path (-1: no
  bound, as 9.1 gives none).
- 9.1b: "The point of supply of an EM is a map edge, a city or a harbor of that nationality":
  the sources by the value of the HQ's `sources_group` (a group field such as "army", or
  "side"). "All the units of an out of supply EM are considered to be out of supply." "The units
  who don't have an EM trace their line of supply like an EM" (`without_hq`).
- 6.3: "The units of a destroyed EM are automatically and immediately not in supply ... until the
  return of the EM" (`hq_absent`: the HQ is in the files but off the map, in a box).
- 9.1a: the route is "free of all enemy combat unit, EM or ZoC"; the hexes that obstruct are the
  caller's (supply.obstructed_hexes, the same reading as supply.trace).

Readings shared with supply.trace (supply.py): a path's first hex is where the unit stands, never
an obstruction (a unit in an enemy zone of control still traces out of it); every other hex, the
HQ's and the source's included, must be unobstructed; no path leaves the board nor enters
`impassable_terrain`.

When the files cannot tell, a unit is "not-judged", never guessed: its formation's HQ is in no
file (`hq_missing`), or no sources are given for its group.

How it is computed (STYLE.md 6.14): one breadth-first search per set of sources (the groups
sharing sources share it), then one search per formation from its supplied HQs, `unit_range`
deep. A unit looks its hex up. Only for a unit out of supply, one more search from the unit says
why: how far its HQ or source is, or which obstructed hexes close every way.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Collection, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType

from vassal_adj.model.geometry.hexes import Hex, neighbors
from vassal_adj.model.state import GameState
from vassal_adj.model.terrain import TerrainMap
from vassal_adj.model.units import GROUP_FIELDS, Unit
from vassal_adj.rules.select import Selector

__all__ = ["POLICIES", "ChainRules", "ChainStatus", "chain_supply", "group_of", "link_of"]

# What becomes of a unit with no HQ to trace to: trace like an HQ, out of supply, or not judged.
POLICIES = ("as-hq", "out", "not-judged")


def link_of(unit: Unit, link: str) -> str:
    """The value that ties `unit` to its HQ: its formation, or a group field ("" when none)."""
    return unit.formation if link == "formation" else unit.groups.get(link, "")


def group_of(unit: Unit, group: str) -> str:
    """The value that picks `unit`'s sources: its side, or a group field ("" when none)."""
    return unit.side if group == "side" else unit.groups.get(group, "")


@dataclass(frozen=True)
class ChainRules:
    """The parameters of supply through the own HQ (see the module doc and supply_chain_rules.py)."""

    hq: Selector
    link: str = "formation"
    unit_range: int = -1
    sources_group: str = "side"
    without_hq: str = "as-hq"
    hq_absent: str = "out"
    hq_missing: str = "not-judged"
    impassable_terrain: frozenset[str] = frozenset()

    def __post_init__(self) -> None:
        if self.link != "formation" and self.link not in GROUP_FIELDS:
            raise ValueError(
                f"link: expected 'formation' or a group field ({', '.join(GROUP_FIELDS)}), got {self.link!r}"
            )
        if self.sources_group != "side" and self.sources_group not in GROUP_FIELDS:
            raise ValueError(
                f"sources_group: expected 'side' or a group field ({', '.join(GROUP_FIELDS)}), "
                f"got {self.sources_group!r}"
            )
        if isinstance(self.unit_range, bool) or not isinstance(self.unit_range, int) or self.unit_range < -1:
            raise ValueError(f"unit_range: expected -1 (no limit) or a whole number >= 0, got {self.unit_range!r}")
        for key in ("without_hq", "hq_absent", "hq_missing"):
            if getattr(self, key) not in POLICIES:
                raise ValueError(f"{key}: expected one of {', '.join(POLICIES)}, got {getattr(self, key)!r}")
        object.__setattr__(self, "impassable_terrain", frozenset(self.impassable_terrain))


@dataclass(frozen=True)
class ChainStatus:
    """One unit's supply. `status`: "supplied", "out" or "not-judged". `hq_id`: the HQ it traces
    to ("" when it traces like an HQ, or has none). `path`: its hexes, the unit's first, to the HQ
    (or to the source when it traces like an HQ); `hq_path`: the HQ's path to its source. `why`:
    words for "out" and "not-judged"; `blocking`: the obstructed hexes that close every way."""

    unit_id: str
    hex: Hex
    status: str
    hq_id: str = ""
    path: tuple[Hex, ...] = ()
    hq_path: tuple[Hex, ...] = ()
    why: str = ""
    blocking: tuple[Hex, ...] = field(default=())
    cause: str = ""  # "hq-absent", "hq-missing", "no-hq", "hq-out", "no-sources", "unreachable", "too-far"

    @property
    def supplied(self) -> bool:
        return self.status == "supplied"


class _Board:
    """The hexes a path may use: on the board, not of impassable terrain; `blocked`: obstructed."""

    def __init__(self, terrain: TerrainMap, rules: ChainRules, blocked: Collection[Hex]) -> None:
        self.blocked = frozenset(blocked)
        imp, hex_terrain = rules.impassable_terrain, terrain.hex_terrain
        self._on_board = terrain.on_board
        self._impassable = frozenset(h for h, ts in hex_terrain.items() if ts & imp) if imp else frozenset()

    def usable(self, h: Hex) -> bool:
        return self._on_board(h) and h not in self._impassable

    def search(self, starts: Collection[Hex], depth: int = -1) -> dict[Hex, tuple[int, Hex | None]]:
        """Breadth-first from the unobstructed `starts`: hex -> (steps, next hex towards a start).
        An obstructed hex is reached (a path may start there: the unit's own hex) but not passed."""
        seen: dict[Hex, tuple[int, Hex | None]] = {}
        for h in sorted(starts):
            if self.usable(h) and h not in self.blocked:
                seen[h] = (0, None)
        queue = deque(seen)
        while queue:
            h = queue.popleft()
            d = seen[h][0]
            if d == depth:
                continue
            for n in neighbors(h):
                if n not in seen and self.usable(n):
                    seen[n] = (d + 1, h)
                    if n not in self.blocked:
                        queue.append(n)
        return seen

    def around(self, origin: Hex) -> tuple[dict[Hex, int], tuple[Hex, ...]]:
        """From `origin` outward, unbounded: the steps to every hex it reaches, and the obstructed
        hexes on the edge of that area (what closes the ways out), sorted."""
        dist, edge = {origin: 0}, set()
        queue = deque([origin])
        while queue:
            h = queue.popleft()
            for n in neighbors(h):
                if n in dist or not self.usable(n):
                    continue
                if n in self.blocked:
                    edge.add(n)
                    continue
                dist[n] = dist[h] + 1
                queue.append(n)
        return dist, tuple(sorted(edge))


def _walk(found: Mapping[Hex, tuple[int, Hex | None]], h: Hex) -> tuple[Hex, ...]:
    out = [h]
    step = found[h][1]
    while step is not None:
        out.append(step)
        step = found[step][1]
    return tuple(out)


def chain_supply(
    state: GameState,
    terrain: TerrainMap,
    side: str,
    rules: ChainRules,
    sources_by: Mapping[str, Collection[Hex]],
    blocked: Collection[Hex],
) -> Mapping[str, ChainStatus]:
    """The supply of every unit of `side` on the map, by unit id (sorted).

    `sources_by`: source hexes by the value of `rules.sources_group`; `blocked`: the hexes no
    path may use (supply.obstructed_hexes). Never raises for a unit out of supply: a status.
    """
    units = state.units
    mine = sorted(uid for uid, u in units.items() if u.side == side)
    if terrain.board is None:  # an unbounded search never ends, and a bounded one would guess
        why = "the board's hexes are not known (no numbered hex grid), so no line of supply can be traced"
        return MappingProxyType(
            {uid: ChainStatus(uid, h, "not-judged", why=why) for uid in mine if (h := state.hex_of(uid)) is not None}
        )
    board = _Board(terrain, rules, blocked)
    is_hq = {uid: rules.hq.matches(units[uid]) for uid in mine}
    hqs_of: dict[str, list[str]] = {}
    for uid in mine:
        if is_hq[uid] and (key := link_of(units[uid], rules.link)):
            hqs_of.setdefault(key, []).append(uid)
    fields: dict[frozenset[Hex], dict[Hex, tuple[int, Hex | None]]] = {}

    def to_source(uid: str, h: Hex) -> ChainStatus:
        """A unit that traces like an HQ (9.1b): to a source of its group."""
        group = group_of(units[uid], rules.sources_group)
        if group not in sources_by:
            what = f"{rules.sources_group} {group}" if group else f"no {rules.sources_group}"
            return ChainStatus(uid, h, "not-judged", why=f"no supply sources are given for {what}", cause="no-sources")
        srcs = frozenset(sources_by[group])
        if srcs not in fields:
            fields[srcs] = board.search(srcs)
        found = fields[srcs]
        if h in srcs:
            return ChainStatus(uid, h, "supplied", path=(h,))
        if h in found:  # the search reaches an obstructed hex too: a path may start there
            return ChainStatus(uid, h, "supplied", path=_walk(found, h))
        _, edge = board.around(h)
        return ChainStatus(
            uid,
            h,
            "out",
            why=f"no unobstructed path reaches a supply source of {group}",
            blocking=edge,
            cause="unreachable",
        )

    out: dict[str, ChainStatus] = {}
    for uid in mine:  # HQs, and units with no HQ that trace like one, first: their units follow them
        h = state.hex_of(uid)
        if h is not None and is_hq[uid]:
            out[uid] = to_source(uid, h)
    reach: dict[str, dict[Hex, tuple[int, Hex | None]]] = {}
    for uid in mine:
        h = state.hex_of(uid)
        if h is None or uid in out:
            continue
        key = link_of(units[uid], rules.link)
        hqs = hqs_of.get(key, []) if key else []
        on_map = [q for q in hqs if state.hex_of(q) is not None]
        if on_map:
            out[uid] = _to_hq(uid, h, on_map, out, reach, key, board, state, rules)
            continue
        if not key:
            policy, why, cause = rules.without_hq, f"it has no {rules.link}, so no HQ", "no-hq"
        elif hqs:
            where = " or ".join(sorted({state.positions[q].box or "off the map" for q in hqs}))
            policy, why, cause = rules.hq_absent, f"it is not on the map but in {where}", "hq-absent"
        else:
            policy, why, cause = rules.hq_missing, f"no HQ of {key} is in the files", "hq-missing"
        if policy == "as-hq":
            out[uid] = to_source(uid, h)
        else:
            out[uid] = ChainStatus(uid, h, policy, hqs[0] if hqs else "", why=why, cause=cause)
    return MappingProxyType({uid: out[uid] for uid in sorted(out)})


def _to_hq(
    uid: str,
    h: Hex,
    hqs: list[str],
    done: Mapping[str, ChainStatus],
    reach: dict[str, dict[Hex, tuple[int, Hex | None]]],
    key: str,
    board: _Board,
    state: GameState,
    rules: ChainRules,
) -> ChainStatus:
    """A unit that traces to the HQs of its formation `key` on the map (9.1a): the nearest that
    is in supply, within `unit_range`; else why not."""
    fed = [q for q in hqs if done[q].supplied]
    if not fed:
        st = min((done[q] for q in hqs), key=lambda s: (s.status != "out", s.unit_id))
        if st.status == "not-judged":
            return ChainStatus(uid, h, "not-judged", st.unit_id, why=f"its HQ is not judged: {st.why}", cause=st.cause)
        return ChainStatus(uid, h, "out", st.unit_id, why=f"its HQ is out of supply: {st.why}", cause="hq-out")
    if key not in reach:  # one search per formation, from all its supplied HQs
        reach[key] = board.search([hx for q in fed if (hx := state.hex_of(q)) is not None], rules.unit_range)
    found = reach[key]
    if h in found:
        path = _walk(found, h)
        hq = next(q for q in fed if state.hex_of(q) == path[-1])
        return ChainStatus(uid, h, "supplied", hq, path, done[hq].path)
    dist, edge = board.around(h)
    near = sorted((dist[hx], q) for q in fed if (hx := state.hex_of(q)) is not None and hx in dist)
    if near:  # reachable, but farther than the rule allows
        d, q = near[0]
        return ChainStatus(
            uid,
            h,
            "out",
            q,
            why=f"its HQ is {d} hexes away by unobstructed hexes; the rule allows {rules.unit_range}",
            cause="too-far",
        )
    return ChainStatus(
        uid, h, "out", fed[0], why="no unobstructed path reaches its HQ", blocking=edge, cause="unreachable"
    )
