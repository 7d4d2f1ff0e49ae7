"""The save rule ``track.bounds`` (RULES-MAP N19): a track's value within its printed bounds.

Seed 004 5.2: "A side can never have more AP than the maximum indicated on the AP Track, and may
never have less than zero": the pack's [state] tracks give each track's `min` and `max`, and a
value the save shows outside them is an error naming the track, the value and the bound. A track
the save does not show as a number is not judged (the state builder's notes say why).

`bounds` (track -> [min, max]) replaces a track's printed bounds while the rule is in force (its
`when`): seed 004 27.1 "Starting AP: 8 plus one die roll" and "A normal AP check is not conducted
on GT 1", so in Scenario I's GT 1 the Axis AP never exceed 8 + 6.

Pure: a state in, findings out.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from vassal_adj.model.state import GameState
from vassal_adj.rules.engine import RuleContext
from vassal_adj.rules.param_shape import Each
from vassal_adj.rules.registry import Param, register
from vassal_adj.rules.results import Finding, Severity

__all__ = ["track_bounds"]


@register(
    "track.bounds",
    params={
        "tracks": Param((), "list[str]", "the [state] tracks judged (empty: every track read)"),
        "bounds": Param(
            {},
            "table",
            "track -> [min, max] replacing its [state] bounds while the rule is in force",
            shape=Each("list[int]"),
        ),
    },
)
def track_bounds(state: GameState, ctx: RuleContext, p: Mapping[str, Any]) -> list[Finding]:
    """A track's value never below its minimum nor above its maximum (seed 004 5.2)."""
    ref, out = ctx.rule.rule_ref if ctx.rule else "", []
    bounds = _bounds(p["bounds"])
    for name in p["tracks"] or sorted(state.tracks):
        track = state.tracks.get(name)
        if track is not None and name in bounds:
            track = replace(track, min=bounds[name][0], max=bounds[name][1])
        if track is None or track.value is None or track.in_bounds:  # not read, or not shown as a number
            continue
        low = track.min is not None and track.value < track.min
        bound = f"below its minimum {track.min}" if low else f"above its maximum {track.max}"
        where = f" ({track.source})" if track.source else ""
        message = f"track {name}{where} shows {track.value}, {bound} [{ref}]"
        out.append(Finding(ctx.cite(), Severity.ERROR, message))
    return out


def _bounds(table: Mapping[str, Any]) -> dict[str, tuple[int, int]]:
    out = {}
    for name, pair in table.items():
        ok = isinstance(pair, (list, tuple)) and len(pair) == 2 and all(type(v) is int for v in pair)
        if not ok or pair[0] > pair[1]:
            raise ValueError(f"bounds.{name}: expected [min, max], two whole numbers, min <= max, got {pair!r}")
        out[name] = (pair[0], pair[1])
    return out
