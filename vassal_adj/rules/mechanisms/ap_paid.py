"""What a side paid for an action, as a segment of a log shows it (N19), and the findings on it.

`ap_changes(segment, tracks)` gives each change of a named track in the segment: the side whose
track it is, the value before and after, and the die rolled since the track's previous change (the
1d6 of a Command phase's gain, seed 004 5.2.1). It reads the segment's `ledger` (the drags of the
track's marker as verify records them); a segment whose opener gives ``before``, ``after`` and
``side`` values (an opener that is itself the marker's drag) and has no ledger is read from those.

`paid_findings` judges one payment against the costs an action may have: seed 004 5.2 "A side can
never have more AP than the maximum indicated on the AP Track, and may never have less than zero"
and 6.1 "the appropriate number of AP are expended": a track that held less than the cost is an
error ("the track held 1, the invasion costs 2"), and so is a marker moved down by another number.

Pure: a segment in, records out.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass

from vassal_adj.rules.results import Finding, Severity
from vassal_adj.rules.segments import Segment

__all__ = ["APChange", "ap_changes", "paid_findings", "payment"]


@dataclass(frozen=True)
class APChange:
    """One change of a side's track: `before` and `after` (None when not shown as a number), the
    log `step` (None when read from the opener) and the `die` rolled since the previous change."""

    side: str
    track: str
    before: int | None
    after: int | None
    step: int | None = None
    die: int | None = None

    @property
    def delta(self) -> int | None:
        return self.after - self.before if self.after is not None and self.before is not None else None


def _int(text: str | None) -> int | None:
    return int(text) if text is not None and text.strip().lstrip("-").isdigit() else None


def ap_changes(segment: Segment, tracks: Mapping[str, str]) -> tuple[APChange, ...]:
    """The changes of the tracks `tracks` names (track -> side) in `segment`, in log order."""
    out, die = [], None
    for entry in segment.ledger:
        if entry.is_roll:
            die = entry.die
        elif entry.track in tracks:
            out.append(APChange(tracks[entry.track], entry.track, entry.before, entry.after, entry.step, die))
            die = None
    values = segment.opened.values
    if not segment.ledger and "before" in values and "after" in values:
        side, track = values.get("side", ""), values.get("track", "")
        name = track or next((t for t, s in tracks.items() if s == side), "")
        if name in tracks:
            out.append(APChange(tracks[name], name, _int(values["before"]), _int(values["after"])))
    return tuple(out)


def payment(changes: Sequence[APChange], side: str | None = None) -> APChange | None:
    """The payment of a segment's action: `side`'s last spending (None: the side of the first
    change down), its drags down one after another with no die rolled between taken as one (an
    action of 2 AP dragged a box at a time)."""
    down = [c for c in changes if (c.delta or 0) < 0]
    side = side or (down[0].side if down else None)
    run: list[APChange] = []
    for c in changes:
        if c.side != side:
            continue
        if (c.delta or 0) >= 0 or (run and c.die is not None):
            run = [] if (c.delta or 0) >= 0 else [c]
            continue
        run.append(c)
    if not run:
        return None
    first, last = run[0], run[-1]
    return APChange(first.side, first.track, first.before, last.after, last.step, first.die)


def paid_findings(paid: APChange, what: str, costs: Collection[int], cite: str, ref: str) -> list[Finding]:
    """Findings on `paid` for an action (`what`, in words) that costs one of `costs`."""
    if paid.before is None or paid.after is None or not costs:
        return []
    low, spent = min(costs), paid.before - paid.after
    cost = " or ".join(map(str, sorted(set(costs))))
    if paid.before < low:
        held = f"the {paid.side} track held {paid.before}, the {what} costs {cost}"
        return [Finding(cite, Severity.ERROR, f"{held}: no action costs more AP than the track holds [{ref}]")]
    if spent not in costs:
        went = f"the {paid.side} AP marker went down by {spent} ({paid.before} to {paid.after})"
        return [Finding(cite, Severity.ERROR, f"{went}, the {what} costs {cost} [{ref}]")]
    return []
