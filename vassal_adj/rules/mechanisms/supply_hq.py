"""Supply through headquarters: a unit is in supply when it traces a short path to a friendly
HQ that is itself in supply (the second kind of supply rule the packs need, beside the
network trace of supply.py: "trace to an HQ that traces to a source").

One search per side, as for the network: a breadth-first search outward from every HQ in
supply at once, over the board's hexes the side's supply path may use, `hq_range` hexes deep. A unit the
network leaves out of supply looks its hex up; the nearest supplied HQ is the one it uses.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Collection, Mapping
from dataclasses import dataclass
from types import MappingProxyType

from vassal_adj.model.geometry.hexes import Hex, neighbors
from vassal_adj.model.state import GameState
from vassal_adj.model.terrain import TerrainMap
from vassal_adj.rules.mechanisms.supply import SupplyStatus

__all__ = ["HqRoute", "HqRules", "hq_routes"]


@dataclass(frozen=True)
class HqRules:
    """`kinds`: the unit classes that are HQs; `range`: most hexes from a unit to its HQ."""

    kinds: frozenset[str]
    range: int
    rule_ref: str = ""

    def __post_init__(self) -> None:
        if isinstance(self.range, bool) or not isinstance(self.range, int) or self.range < 0:
            raise ValueError(f"HQ range must be a whole number >= 0, got {self.range!r}")
        object.__setattr__(self, "kinds", frozenset(self.kinds))


@dataclass(frozen=True)
class HqRoute:
    """How a unit is supplied through an HQ: the HQ's id and the path to it (unit first)."""

    unit_id: str
    hq_id: str
    path: tuple[Hex, ...]

    @property
    def distance(self) -> int:
        return len(self.path) - 1


def hq_routes(
    state: GameState,
    terrain: TerrainMap,
    side: str,
    rules: HqRules,
    statuses: Mapping[str, SupplyStatus],
    blocked: Collection[Hex],
) -> Mapping[str, HqRoute]:
    """The HQ route of every unit of `side` that `statuses` (the network trace) leaves out of
    supply and that is within `rules.range` unobstructed hexes of an HQ in supply, on the board
    (`terrain.on_board`).

    An HQ passes supply on only if the network supplies it (HQs do not chain). The unit's own
    hex never obstructs its path (as in the network trace); the HQ's hex must not be blocked.
    """
    hqs = sorted(
        (state.hex_of(uid), uid) for uid, st in statuses.items() if st.supplied and state.units[uid].kind in rules.kinds
    )
    parent: dict[Hex, Hex | None] = {}
    origin: dict[Hex, str] = {}
    queue: deque[tuple[Hex, int]] = deque()
    for h, uid in hqs:
        if h is not None and h not in parent and h not in blocked:
            parent[h], origin[h] = None, uid
            queue.append((h, 0))
    on_board = terrain.on_board
    reached: dict[Hex, int] = {h: 0 for h in parent}
    while queue:
        h, d = queue.popleft()
        if d >= rules.range:
            continue
        for n in neighbors(h):
            if n in reached or not on_board(n):
                continue
            reached[n], parent[n], origin[n] = d + 1, h, origin[h]
            if n not in blocked:  # a blocked hex may end a path (the unit's own), not carry one
                queue.append((n, d + 1))
    out: dict[str, HqRoute] = {}
    for uid, st in sorted(statuses.items()):
        if st.supplied or st.hex not in parent:
            continue
        path, cur = [st.hex], parent[st.hex]
        while cur is not None:
            path.append(cur)
            cur = parent[cur]
        out[uid] = HqRoute(uid, origin[st.hex], tuple(path))
    return MappingProxyType(out)
