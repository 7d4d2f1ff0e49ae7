"""The die rolls of a log as its segments hold them (N20): each roll's button and value, and where
in the log it was made (the turn, phase and segment, and how many drags of the segment came
before it), so that a log rule can read what a roll said and what the players did after it.

`verify` gives each `Segment` its own rolls (`Segment.dice`) and those of the log's earlier
segments (`Segment.earlier_dice`): a rule that lasts across segments (an event at most once per game,
an interdiction in effect for the rest of the game) reads them there, and stays a pure function
of the segment.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # annotations only: `check` registers the dice rules but reads no log events
    from vassal_adj.model.events import DieRolled
    from vassal_adj.model.state import GameState, Track

__all__ = ["SegmentRoll", "roll_total", "segment_roll"]

_NUMBERS = re.compile(r"\d+")


def roll_total(result: str, total: str | None) -> int | None:
    """The number a roll gave: the report's total, else the sum of its kept dice ("3,5" -> 8);
    None when the result holds no number (a symbol die, a report the log does not show)."""
    if total is not None and total.strip().lstrip("-").isdigit():
        return int(total)
    found = _NUMBERS.findall(result or "")
    return sum(map(int, found)) if found else None


@dataclass(frozen=True)
class SegmentRoll:
    """One die roll of a log: its `button`, its `result` as reported and the number it gave
    (`value`, None when not a number), the step of the log, the number of the segment's drags
    before it (`drags`), the turn, phase and segment kind and side (the opener's) it was made in,
    and the value of each of the pack's tracks as the module showed it at the roll (`tracks`:
    what a rolled event then changed is read against it)."""

    button: str
    result: str
    value: int | None
    step: int
    drags: int = 0
    turn: int | None = None
    phase: str | None = None
    kind: str = "phase"
    side: str | None = None
    tracks: tuple[tuple[str, int | None], ...] = ()

    def track(self, name: str) -> int | None:
        """The value of the track `name` at the roll (None: not shown)."""
        return dict(self.tracks).get(name)


def segment_roll(
    e: DieRolled, step: int, drags: int, at: GameState, kind: str, side: str | None, tracks: Mapping[str, Track]
) -> SegmentRoll:
    """The roll `e` at `step`, after `drags` drags of the segment opened (`kind`, `side`) on the
    turn and phase of `at`, with the tracks as the module showed them at the roll."""
    return SegmentRoll(
        e.button,
        e.result,
        roll_total(e.result, e.total),
        step,
        drags,
        at.turn,
        at.phase,
        kind,
        side,
        tuple((k, t.value) for k, t in tracks.items()),
    )
