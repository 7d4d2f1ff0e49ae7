"""Movement: allowances, terrain and hexside costs, prohibited terrain, roads, weather, ZOC.

`legal_path`: the cheapest legal path between two hexes, or why there is none (rule and
values); `reachable`: every hex a unit can reach, with its cost. Both search with
movement_search.py's `MoveSearch`, one Dijkstra over movement points. Costs are pack parameters
(the seed gives none) and may be fractions (road 1/2): searched in whole ticks, reported as
`int` or `Fraction`.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from types import MappingProxyType

from vassal_adj.model.geometry.hexes import Hex
from vassal_adj.model.state import GameState
from vassal_adj.model.terrain import TerrainMap
from vassal_adj.rules.mechanisms.movement_params import MovementRules, weather_allowance
from vassal_adj.rules.mechanisms.movement_search import MoveSearch
from vassal_adj.rules.mechanisms.path_faults import first_broken, short_ways_fault
from vassal_adj.rules.mechanisms.prohibition import Prohibition
from vassal_adj.rules.mechanisms.zoc import no_sources, weather_name, zoc_sources
from vassal_adj.rules.results import PathResult

__all__ = ["PathResult", "Prohibition", "Reach", "default_label", "entry_hex_cost", "legal_path", "reachable"]


def default_label(h: Hex) -> str:
    """Raw column and row, two digits each ("1205"); pass `label=HexLayout.label_of` for real labels."""
    return "{:02d}{:02d}".format(*h.raw())


def _mp(ticks: int, scale: int) -> int | Fraction:
    return f.numerator if (f := Fraction(ticks, scale)).denominator == 1 else f


def entry_hex_cost(
    state: GameState, terrain: TerrainMap, unit_id: str, h: Hex, rules: MovementRules, weather: str | None = None
) -> int | Fraction:
    """The MP `unit_id` pays for `h` as it enters the map there (`rules.entry_cost`)."""
    if rules.entry_cost == "free":
        return 0
    return _mp(
        MoveSearch(state, terrain, unit_id, h, rules, frozenset(), weather, False, None).hex_cost(h)[0], rules.scale
    )


@dataclass(frozen=True)
class Reach:
    """Every hex a unit can reach (`costs`: hex -> cheapest MP, the start 0) and how."""

    costs: Mapping[Hex, int | Fraction]
    parents: Mapping[Hex, Hex | None] = field(repr=False)
    allowance: int = 0

    def path_to(self, h: Hex) -> tuple[Hex, ...]:
        """A cheapest path from the start to `h` (empty when `h` is not reachable)."""
        return _path(self.parents, h) if h in self.costs else ()


def _path(parent: Mapping[Hex, Hex | None], h: Hex | None) -> tuple[Hex, ...]:
    out = []
    while h is not None:
        out.append(h)
        h = parent[h]
    return tuple(reversed(out))


def legal_path(
    state: GameState,
    terrain: TerrainMap,
    unit_id: str,
    start: Hex | None,
    goal: Hex,
    rules: MovementRules,
    zoc: frozenset[Hex] | None = None,
    weather: str | None = None,
    *,
    withdrawal: bool = False,
    area: Collection[Hex] | None = None,
    label: Callable[[Hex], str | None] | None = None,
) -> PathResult:
    """The cheapest legal path of `unit_id` from `start` (None: its hex in `state`) to `goal`.

    `zoc`: enemy-controlled hexes (`zoc.enemy_zoc`; None: computed from `rules.zoc`).
    `weather`: None means `state.weather`. `withdrawal`: a Withdrawal Movement Phase (19.2,
    19.21). `area`: hexes the search may use, within `terrain.on_board` (None: the board's).
    `label`: hex names for reasons (e.g. `HexLayout.label_of`). A failure names, in order: a
    bad goal, the allowance (a path exists but costs too much) and every rule that closes a way within it
    (rules/mechanisms/path_faults.py), else the first rule broken on a path breaking fewest.
    """
    m = MoveSearch(state, terrain, unit_id, start, rules, zoc, weather, withdrawal, area)
    allow, scale, start_hex = m.allow, rules.scale, m.start
    lab = lambda h: (label(h) if label is not None else None) or default_label(h)  # noqa: E731
    # the enemy units exerting a zone of control that a reason cites, named in it and returned with it
    whose = zoc_sources(state, terrain, m.side, m.zr, lab, m.weather) if m.z and m.zr is not None else no_sources
    if goal == start_hex:
        return PathResult(True, 0, (goal,), allowance=allow)
    if not m.hex_cost(goal)[2]:
        names = ", ".join(state.units[i].name for i in state.occupied().get(goal, ()) if i in state.units)
        why = f"is occupied by enemy unit {names}" if m.is_enemy(goal) else "is off the map"
        return PathResult(False, None, (), f"hex {lab(goal)} {why} [{rules.rule_ref}]", rules.rule_ref, allow)
    gk = m.node((goal.q, goal.r))
    dist, parent = m.search(allow * scale, relax=False, goal=goal)
    if gk in dist:
        return PathResult(True, _mp(dist[gk], scale), m.way(parent, gk), allowance=allow)
    dist, parent = m.search(None, relax=False, goal=goal)
    if gk in dist:
        need = _mp(dist[gk], scale)
        weathered = weather_allowance(m.unit, m.weather, rules)
        if allow != weathered:  # an allowance modifier set it (seed 001 9.2, Campaign II), not the weather
            why, ref = f"needs {need} MP, allowance {allow} (printed {m.unit.movement})", rules.modifier_ref
            ref = ref or rules.rule_ref
        else:
            changed = allow != m.unit.movement
            why = f"needs {need} MP, allowance {allow}" + (f" in {weather_name(m.weather)} weather" if changed else "")
            ref = rules.weather_ref if changed else rules.rule_ref

        # Within the allowance only by breaking rules (a panzer cutting through rough, or through a zone of
        # control): every rule that closes such a way is named (rules/mechanisms/path_faults.py).
        def within(strict: frozenset[tuple[str, str]]) -> tuple[tuple[Hex, ...], int | Fraction] | None:
            near, near_parent = m.search(allow * scale, relax=True, goal=goal, penalty=0, strict=strict)
            return (m.way(near_parent, gk), _mp(near[gk], scale)) if gk in near else None

        why, cite, units = f"{why} [{ref}]", ref, ()
        if fault := short_ways_fault(within, m.edge, lab, whose):
            why, cite, units = f"the legal way {why}; {fault[0]}", fault[1], fault[2]
        return PathResult(False, need, m.way(parent, gk), why, cite, allow, units)
    dist, parent = m.search(None, relax=True, goal=goal)
    path = m.way(parent, gk) if gk in dist else ()
    if (broken := first_broken(m.edge, path, lab, whose)) is not None:
        return PathResult(False, None, path, f"{broken.words} [{broken.rule}]", broken.rule, allow, broken.units)
    why = f"no path from {lab(start_hex)} to {lab(goal)}"
    return PathResult(False, None, path, f"{why} [{rules.rule_ref}]", rules.rule_ref, allow)


def reachable(
    state: GameState,
    terrain: TerrainMap,
    unit_id: str,
    start: Hex | None,
    rules: MovementRules,
    zoc: frozenset[Hex] | None = None,
    weather: str | None = None,
    *,
    withdrawal: bool = False,
    area: Collection[Hex] | None = None,
) -> Reach:
    """Every hex `unit_id` can legally reach from `start` this phase and its cost (as `legal_path`)."""
    m = MoveSearch(state, terrain, unit_id, start, rules, zoc, weather, withdrawal, area)
    dist, parent = m.hex_maps(*m.search(m.allow * rules.scale, relax=False))
    costs = {h: _mp(d, rules.scale) for h, d in dist.items()}
    return Reach(MappingProxyType(costs), MappingProxyType(parent), m.allow)
