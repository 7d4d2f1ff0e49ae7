"""A game as a player of one side sees it (``--as SIDE``): the other side's hidden pieces hidden.

A piece under a Mask (VASSAL's Obscurable) shows its masked name to players who may not see
it, and nothing else of it: no properties, no earlier name. A piece under an Invisible trait
(Hideable) is not there at all for them: its events and its place in a position are dropped.
Who may see a concealed piece is `seen_by` (the owner's side, resolved from the roster by
the parser). A piece whose owner cannot be told is hidden from every side, so a doubt never
leaks. Chat lines stay: every player saw them in VASSAL.

A game's rules may hide what VASSAL shows (e.g. real and dummy markers a rule says look
alike to the enemy; the pack flags such units `hidden`): `disguised` gives such pieces, by id, the name the
other side sees; they are treated as masked.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import TypeVar

from vassal_adj.model.events import Added, Changed, Event, Moved, PieceDiff, Removed, Replay, Step
from vassal_adj.model.pieces import Piece

__all__ = ["view_diff", "view_event", "view_pieces", "view_replay", "visibility"]

P = TypeVar("P", Moved, Added, Removed, Changed)


def visibility(concealed: str | None, seen_by: tuple[str, ...], side: str) -> str:
    """ "full", "masked" or "hidden": how a player of `side` sees a piece so concealed."""
    if not concealed or side in seen_by:
        return "full"
    return "hidden" if "invisible" in concealed else "masked"


def _masked(e: P) -> P:
    name = e.masked_name or "?"
    if isinstance(e, Changed):
        return replace(e, name=name, name_before=None, properties=(), concealed_before=None)  # type: ignore[return-value]
    return replace(e, name=name)


def view_event(e: Event, side: str, disguised: Mapping[str, str] | None = None) -> Event | None:
    """The event as a player of `side` sees it; None when they cannot see it at all."""
    if not isinstance(e, (Moved, Added, Removed, Changed)):
        return e
    if disguised and e.piece in disguised and visibility(e.concealed, e.seen_by, side) == "full":
        return _masked(replace(e, masked_name=disguised[e.piece]))
    seen = visibility(e.concealed, e.seen_by, side)
    if seen == "hidden":
        # A Changed that hides or reveals a piece is visible as an arrival or a departure only
        # through later events; the change itself says nothing a player could see.
        return None
    return _masked(e) if seen == "masked" else e


def view_pieces(pieces: tuple[Piece, ...], side: str, disguised: Mapping[str, str] | None = None) -> tuple[Piece, ...]:
    """A position as a player of `side` sees it: invisible pieces gone, masked ones renamed."""
    out = []
    for p in pieces:
        seen = visibility(p.concealed, p.seen_by, side)
        if disguised and p.id in disguised and seen == "full":
            p, seen = replace(p, masked_name=disguised[p.id]), "masked"
        if seen == "masked":
            out.append(replace(p, name=p.masked_name or "?", properties={}))
        elif seen == "full":
            out.append(p)
    return tuple(out)


def view_diff(d: PieceDiff, side: str) -> PieceDiff | None:
    seen = visibility(d.concealed, d.seen_by, side)
    if seen == "hidden":
        return None
    return replace(d, name="?", name_before=None, properties=()) if seen == "masked" else d


def view_replay(rp: Replay, side: str, disguised: Mapping[str, str] | None = None) -> Replay:
    """The replay with every event, and both positions, as a player of `side` sees them."""
    steps = []
    for s in rp.steps:
        events = tuple(v for v in (view_event(e, side, disguised) for e in s.events) if v is not None)
        steps.append(Step(s.number, s.command, events, s.undo, s.undoes, s.undone_in))
    # Problems name pieces by id only, and ids are visible to every player in VASSAL.
    return Replay(
        tuple(steps), view_pieces(rp.opening, side, disguised), view_pieces(rp.final, side, disguised), rp.problems
    )
