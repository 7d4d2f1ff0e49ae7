"""The victory points a verification shows: at the start of the first file and the end of the
last, counted over every position the files pass through, as `vassal-adj vp` counts them."""

from __future__ import annotations

from dataclasses import dataclass, replace

from vassal_adj import packs as packs_io
from vassal_adj.errors import PackError, Where
from vassal_adj.model.state import GameState
from vassal_adj.pbem.log_state import LogHistory
from vassal_adj.rules.mechanisms.victory_rules import vp_tally

__all__ = ["VpChange", "vp_change"]

VP_IMPL = "victory.points"


@dataclass(frozen=True)
class VpChange:
    """The VP total at the end of the last file, its victory level, and the report's lines."""

    total: int
    level: str | None
    lines: list[str]


def vp_change(lp: packs_io.LoadedPack, histories: list[LogHistory]) -> VpChange | None:
    """The victory points at the start of the first file and at the end of the last, counted by
    the pack's victory.points rule over every position the files pass through (as `vp` counts
    them), with the items scored in between; None when the pack counts no victory points.
    `histories`: per file, its positions (pbem/log_state.log_history); a log that contains an
    earlier one passes through its positions from where that one ends."""
    rule = next((r for r in lp.pack.rules if r.impl == VP_IMPL and r.enabled), None)
    if rule is None:
        return None
    states: list[GameState] = [s for h in histories for s in h.states]
    context = histories[0].context
    rctx = replace(context, rule=rule)
    try:
        start, end = (vp_tally(s, rctx, rule.params) for s in (states[:1], states))
    except ValueError as e:  # parameters that do not fit this board, as the engine reports them
        raise PackError(f"rules.{rule.name}: {e}", Where(path=lp.pack.source)) from None
    level = end.level(end.total) or "no victory level"
    scored = [i for i in end.items if i.index > 0]  # counted from a position after the opening
    out = [
        (
            f"{rctx.cite()}: {sum(i.points for i in scored):+d} VP scored in these files; the total they show: "
            f"{start.total} VP at the start, {end.total} VP ({level}) at the end"
        ),
        *(f"[{i.rule_ref}] {i.text}: {i.points:+d} VP" for i in scored),
        (
            "counted from these files alone: what an earlier turn did (when an objective was first taken) needs "
            "every file of the game, as `vassal-adj vp` takes them"
        ),
    ]
    if end.unknowns:
        out.append(f"{len(end.unknowns)} thing(s) the files cannot tell: `vassal-adj vp` lists them")
    return VpChange(end.total, end.level(end.total), out)
