"""The words of ``supply.loc`` findings: the source reached and the path, or why none is in reach
(how far the nearest source is against the allowance, and what blocks each obstructed hex)."""

from __future__ import annotations

from collections.abc import Sequence

from vassal_adj.model.geometry.hexes import Hex
from vassal_adj.model.state import GameState
from vassal_adj.rules.engine import RuleContext
from vassal_adj.rules.mechanisms.supply_loc import LocSource, LocStatus
from vassal_adj.rules.mechanisms.supply_words import obstructed_words
from vassal_adj.rules.mechanisms.zoc import Sources

__all__ = ["LocWords"]

# How many obstructed hexes a finding names in words (every one is in its `hexes`).
_FAST = "along roads and/or open terrain"


def _hexes(n: int) -> str:
    return f"{n} hex{'es' if n != 1 else ''}"


class LocWords:
    """Words for the findings of one side's position."""

    def __init__(
        self,
        state: GameState,
        ctx: RuleContext,
        side: str,
        by: Sources,
        zoc: frozenset[Hex],
        sources: Sequence[LocSource],
    ) -> None:
        self.state, self.ctx, self.side, self.by, self.zoc = state, ctx, side, by, zoc
        self.sources = {s.name: s for s in sources}

    def source_list(self) -> str:
        return ", ".join(self.sources) or "none"

    def _source(self, name: str) -> str:
        via = self.sources[name].via
        return f"{name} ({via})" if via else name

    def allowance(self, st: LocStatus) -> str:
        slow = f"{_hexes(st.slow)} otherwise" if st.slow >= 0 else "no other path counts"
        return f"{_hexes(st.fast)} {_FAST}, {slow}"

    def route(self, st: LocStatus) -> str:
        n = len(st.path) - 1
        how = _FAST if st.on_fast else "not wholly along roads or open terrain"
        limit = st.fast if st.on_fast else st.slow
        others = [s for s in st.reachable if s != st.source]
        also = f"; also in reach: {', '.join(others)}" if others else ""
        path = " ".join(self.ctx.label(h) for h in st.path)
        if n == 0:
            return f"LOC to {self._source(st.source)}: {path} (its own hex){also}"
        return f"LOC to {self._source(st.source)}: {path} ({_hexes(n)} {how}; allows {limit}){also}"

    def why_out(self, st: LocStatus) -> str:
        lead = f"no supply source within its LOC ({self.allowance(st)})"
        if not self.sources:
            return f"{lead}; there is no source in this position"
        if st.nearest is not None:
            name, d, fast = st.nearest
            how = _FAST if fast else "by a path not wholly along roads or open terrain"
            lead += f"; the nearest, {self._source(name)}, is {_hexes(d)} away {how}"
        if st.blocking:
            words = obstructed_words(self.state, self.ctx, self.side, self.by, self.zoc, st.blocking)
            lead += f"; obstructed hexes in reach: {words}"
        return lead
