"""What a segment of a log shows of its tracks and dice, in step order (N19): each die roll and
each drag of a track's marker, with the track's value before and after it.

`segments.Segment.ledger` holds them; the AP ledger (mechanisms/ap_paid.py, ap_ledger.py) reads
from them what a side paid for an action or gained in a Command phase, and the roll a gain was
made with. Pure data: `pbem/verify.py` records them as it walks a log.
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["Logged"]


@dataclass(frozen=True)
class Logged:
    """One step's roll or track change: `step` the log step; a roll has its `button` and `die`
    total (None when the report shows no number); a track change has the pack's `track` name and
    its value `before` and `after` (None where the module does not show a number)."""

    step: int
    track: str = ""
    before: int | None = None
    after: int | None = None
    button: str = ""
    die: int | None = None

    @property
    def is_roll(self) -> bool:
        return not self.track
