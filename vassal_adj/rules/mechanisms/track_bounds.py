"""The save rule ``track.bounds`` (RULES-MAP N19): a track's value within its printed bounds.

Seed 004 5.2: "A side can never have more AP than the maximum indicated on the AP Track, and may
never have less than zero": the pack's [state] tracks give each track's `min` and `max`, and a
value the save shows outside them is an error naming the track, the value and the bound. A track
the save does not show as a number is not judged (the state builder's notes say why).

Pure: a state in, findings out.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from vassal_adj.model.state import GameState
from vassal_adj.rules.engine import RuleContext
from vassal_adj.rules.registry import Param, register
from vassal_adj.rules.results import Finding, Severity

__all__ = ["track_bounds"]


@register(
    "track.bounds",
    params={"tracks": Param((), "list[str]", "the [state] tracks judged (empty: every track read)")},
)
def track_bounds(state: GameState, ctx: RuleContext, p: Mapping[str, Any]) -> list[Finding]:
    """A track's value never below its minimum nor above its maximum (seed 004 5.2)."""
    ref, out = ctx.rule.rule_ref if ctx.rule else "", []
    for name in p["tracks"] or sorted(state.tracks):
        track = state.tracks.get(name)
        if track is None or track.value is None or track.in_bounds:  # not read, or not shown as a number
            continue
        low = track.min is not None and track.value < track.min
        bound = f"below its minimum {track.min}" if low else f"above its maximum {track.max}"
        where = f" ({track.source})" if track.source else ""
        message = f"track {name}{where} shows {track.value}, {bound} [{ref}]"
        out.append(Finding(ctx.cite(), Severity.ERROR, message))
    return out
