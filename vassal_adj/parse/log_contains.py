"""Whether a log contains an earlier log of the game: the same opening, then all of its steps (spec 5.6).

VASSAL keeps the steps of a log it replays: a player who opens the opponent's log, steps
through it to its end and plays on writes a log with the same opening (the saved part, the
position the replayed log started from) followed by every step of the replayed log, then their
own. Read as two logs from one opening that would be a restart; it is one log continued.

The logs are compared as the replay reads them (model/events.py), not byte for byte: the
saved part is written afresh when the new log is saved (the roster may have gained a player,
the game-state restores come in the writer's order), and a step's command indexes count the
saved part's commands. The opening is the same when every piece is (id, map, place, name,
properties, concealment); a step is the same when its events are (apart from the command
index) and it undoes the same step.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from vassal_adj.model.events import Replay, Step
from vassal_adj.model.pieces import Piece

__all__ = ["Contained", "contained", "contained_steps", "continuation"]


def _opening(pieces: Sequence[Piece]) -> frozenset[tuple[object, ...]]:
    return frozenset((p.id, p.map, p.x, p.y, p.name, tuple(sorted(p.properties.items())), p.concealed) for p in pieces)


def _step(step: Step) -> tuple[object, ...]:
    return tuple(replace(e, command=0) for e in step.events), step.undo, step.undoes


def contained_steps(earlier: Replay, later: Replay) -> int | None:
    """How many of `later`'s first steps are `earlier`'s when `later` contains `earlier` (the
    same opening, then all of its steps); None when it does not. A save (no steps) is
    contained in nothing: there is no step to recognise it by."""
    n = len(earlier.steps)
    if not n or len(later.steps) < n or _opening(earlier.opening) != _opening(later.opening):
        return None
    return n if all(_step(a) == _step(b) for a, b in zip(earlier.steps, later.steps, strict=False)) else None


Contained = tuple[str, Replay, int]  # the earlier log's name, its replay, the steps of it the later log repeats


def contained(later: Replay, earlier: Sequence[tuple[str, Replay]]) -> Contained | None:
    """The earlier log `later` contains with the most steps (the latest of equals): the one it
    continues from; None when it contains none."""
    best: Contained | None = None
    for name, rp in earlier:
        n = contained_steps(rp, later)
        if n is not None and (best is None or n >= best[2]):
            best = (name, rp, n)
    return best


def continuation(later: Replay, found: Contained) -> Replay:
    """What `later` adds to the log it contains: its steps after the repeated ones (numbered as
    in `later`), from the position the contained log ends on."""
    _, earlier, n = found
    return Replay(later.steps[n:], earlier.final, later.final, later.problems)
