"""Undone rolls paired with the rolls that took their place, and undos followed by a replay of
the same actions (spec 5.6; issue 11).

A roll taken back by an undo is replaced by the next roll of the same button by the same
player after the undo, in the same file. When the steps after a run of undos repeat the steps
it took back exactly (the same moves, changes and dice results, in order), the player replayed
the same actions: the rolls then are the same rolls again, not rerolls.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from vassal_adj.model.events import ChatLine, Event, Replay, Step
from vassal_adj.pbem.rolls import Roll

__all__ = ["pair_undone", "replayed_steps"]


def _action(e: Event) -> object:
    """What an event did, without where the log holds it. Chat is left out: a report may
    carry a clock or running statistics that differ when the same action is made again."""
    return None if isinstance(e, ChatLine) or e.undo else replace(e, command=0, step=0)


def _actions(step: Step, rolls: dict[int, list[tuple[str, str]]]) -> tuple[object, ...]:
    done = tuple(a for a in map(_action, step.events) if a is not None)
    return done + tuple(rolls.get(step.number, ()))


def replayed_steps(rp: Replay, rolls: Sequence[Roll]) -> dict[int, int]:
    """Each step taken back by a run of undo steps and repeated exactly by the steps right
    after the run: undone step -> the step that repeated it. `rolls` are the file's rolls
    (chat-read ones included), whose results must repeat too."""
    by_step: dict[int, list[tuple[str, str]]] = {}
    for r in rolls:
        by_step.setdefault(r.step, []).append((r.button, r.result))
    steps = {s.number: s for s in rp.steps}
    out: dict[int, int] = {}
    k, ordered = 0, list(rp.steps)
    while k < len(ordered):
        if not ordered[k].undo:
            k += 1
            continue
        run = k
        while k < len(ordered) and ordered[k].undo:
            k += 1
        taken = sorted(s.undoes for s in ordered[run:k] if s.undoes is not None)
        after = ordered[k : k + len(taken)]
        before = [_actions(steps[n], by_step) for n in taken]
        if (
            taken
            and len(after) == len(taken)
            and all(before)
            and not any(s.undo for s in after)
            and before == [_actions(s, by_step) for s in after]
        ):
            out.update(zip(taken, (s.number for s in after), strict=False))
    return out


def pair_undone(rolls: Sequence[Roll], replayed: dict[int, int]) -> list[Roll]:
    """The rolls of one file, each undone roll with `replaced_by` set to the number of the next
    roll of its button by its player after the undo, and `replayed` when that roll is the same
    roll made again in a replay of the step (`replayed_steps`)."""
    out = list(rolls)
    for k, r in enumerate(out):
        if r.undone_in is None:
            continue
        nxt = next(
            (n for n in out[k + 1 :] if n.button == r.button and n.player == r.player and n.step > r.undone_in), None
        )
        if nxt is not None:
            again = replayed.get(r.step) == nxt.step and nxt.result == r.result
            out[k] = replace(r, replaced_by=nxt.number, replayed=again)
    return out
