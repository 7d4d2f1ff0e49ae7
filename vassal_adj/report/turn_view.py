"""What the verify page shows of a turn besides its findings: each move with the pack's
verdict, where the pieces stood at any step (for pictures of a phase's start and end), the
chat and the dice.

`TurnView` is built by the command line from what `verify` already computed (the replays,
`verify_turn`'s phases, the audit's rolls); nothing here judges anything. A move is legal
(True) only when the pack judged its path legal and no error or warning of its phase is about
it; illegal (False) when its path was judged illegal or a finding of its phase's move checks
cites it; not judged (None) otherwise, e.g. without a pack, or a marker's move. A finding of
the end of a phase (stacking, supply) is about the position, not a move: it colours no move.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import NamedTuple

from vassal_adj.model.events import Added, Changed, ChatLine, Moved, PieceDiff, Removed, Replay
from vassal_adj.model.pieces import Piece
from vassal_adj.pbem.rolls import Roll
from vassal_adj.pbem.verify import PhaseRecord, Verification
from vassal_adj.rules.results import Finding, Severity

__all__ = ["Move", "TurnView", "positions_at"]


class Move(NamedTuple):
    """A move to list and draw: origin and destination labels (None off the grid), the unit's
    name, the verdict (True legal, False illegal, None not judged) and the hexes of the path
    the pack found (the legal one, or the cheapest attempt; () when none)."""

    start: str | None
    end: str | None
    name: str
    ok: bool | None
    path: tuple[str, ...] = ()


def positions_at(rp: Replay, step: int) -> list[Piece]:
    """The pieces as they stand after step `step` of the replay (0: its opening). Every
    command counts, undos included, as in the replay itself."""
    pieces = {p.id: p for p in rp.opening}
    for s in rp.steps:
        if s.number > step:
            break
        for e in s.events:
            if isinstance(e, Moved) and e.piece in pieces:
                pieces[e.piece] = dataclasses.replace(
                    pieces[e.piece], map=e.to.map, x=e.to.x, y=e.to.y, location=e.to.label
                )
            elif isinstance(e, Added):
                pieces[e.piece] = Piece(e.piece, e.name, e.at.map, e.at.x, e.at.y, location=e.at.label)
            elif isinstance(e, Removed):
                pieces.pop(e.piece, None)
            elif isinstance(e, Changed) and e.piece in pieces:
                props = dict(pieces[e.piece].properties)
                for c in e.properties:
                    if c.after is None:
                        props.pop(c.name, None)
                    else:
                        props[c.name] = c.after
                pieces[e.piece] = dataclasses.replace(pieces[e.piece], name=e.name, properties=props)
    return list(pieces.values())


def _end_of_phase(f: Finding, phase: PhaseRecord) -> bool:
    return f.message.startswith(f"end of {phase.title}:")  # as pbem/verify.py words the end-of-phase checks


@dataclass(frozen=True)
class TurnView:
    """One verify run: `replays` (file, replay) in game order, the pack's `checks` of the
    logs (file -> Verification; none without a pack), the dice `rolls` in game order, the
    ids of the pieces the reader sees `masked` (``--as SIDE``: drawn as their Mask shows them),
    and the `changes` of each save from the file before it (its moves are not judged)."""

    replays: Sequence[tuple[str, Replay]]
    checks: dict[str, Verification] = dataclasses.field(default_factory=dict)
    rolls: Sequence[Roll] = ()
    masked: frozenset[str] = frozenset()
    changes: Sequence[PieceDiff] = ()

    def moves(self) -> list[Move]:
        """Every move of the turn with its verdict (see the module doc): a unit's moves in a
        judged phase as the pack merged them, every other piece's move drag by drag, then the
        moves between saves. Moves an undo took back are not moves (`undone` lists them)."""
        out: list[Move] = []
        for path, rp in self.replays:
            check = self.checks.get(path)
            judged = {m.unit for p in check.phases for m in p.moves} if check else set()
            for phase in check.phases if check else ():
                # A move check's finding names the mover first (rules/turn.py); a unit it names
                # after that (e.g. one exerting a zone of control) did not make the move.
                cited = {
                    f.units[0]
                    for f in phase.findings
                    if f.units and f.severity != Severity.INFO and not _end_of_phase(f, phase)
                }
                for m in phase.moves:
                    ok = False if m.ok is False or m.unit in cited else m.ok
                    out.append(Move(m.start, m.end, m.name, ok, m.path))
            out += [
                Move(e.origin.label, e.to.label, e.name, None)
                for e in rp.kept()
                if isinstance(e, Moved) and e.piece not in judged
            ]
        return out + [
            Move(d.start.label, d.end.label, d.name, None)
            for d in self.changes
            if d.kind == "moved" and d.start is not None and d.end is not None
        ]

    def moments(self, f: Finding) -> tuple[list[Piece], list[Piece] | None] | None:
        """Where the pieces stood for a picture of finding `f` of a pack's check: (the
        phase's end, None) for a finding of the end of a phase; (before, after) the phase's
        moves for a finding about a move; None when `f` is not of a phase with moves."""
        for path, check in self.checks.items():
            rp = dict(self.replays).get(path)
            for phase in check.phases:
                if rp is None or phase.steps is None or not any(g is f for g in phase.findings):
                    continue
                after = positions_at(rp, phase.steps[1])
                if _end_of_phase(f, phase):
                    return after, None
                return positions_at(rp, phase.steps[0] - 1), after
        return None

    def undone(self) -> list[tuple[str, int, int, Moved | Changed]]:
        """(file, step, undo step, event) of every move and change an undo took back: listed
        as undone, never drawn or judged as moves."""
        return [
            (path, s.number, s.undone_in, e)
            for path, rp in self.replays
            for s, e in rp.undone()
            if isinstance(e, (Moved, Changed)) and s.undone_in is not None
        ]

    def final(self) -> list[Piece]:
        """The position the last file leaves."""
        return list(self.replays[-1][1].final) if self.replays else []

    def chat(self) -> Iterable[tuple[str, int, ChatLine]]:
        """(file, step, line) of every chat line and automatic report, undone ones and those
        read as die rolls (listed with the dice) left out."""
        rolls = {(r.file, r.command) for r in self.rolls}
        return (
            (path, s.number, e)
            for path, rp in self.replays
            for s in rp.steps
            for e in s.events
            if isinstance(e, ChatLine) and not e.undo and (path, e.command) not in rolls
        )
