"""Continuity between a game's files, for `vassal-adj verify`: where each log starts.

A log should start where the previous file left the game; one that does not is one finding
(``verify:continuity``, a warning) listing every piece that differs. A log that contains an
earlier log of the game (parse/log_contains.py: the same opening, then all of that log's steps,
then more; VASSAL writes it when a player replays a log and plays on) is not a restart: it is
reported as "contains <file> and continues" (information), and only what it adds is its own.
Its continuation starts where the contained log ended; its repeated steps are listed and judged
once, with the contained log. The dice are audited from the log that contains the other, whole,
and not from the one it contains: an undo in the continuation may take back a repeated roll.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from vassal_adj.model.events import PieceDiff
from vassal_adj.parse.log_contains import Contained
from vassal_adj.pbem.changes import change_text
from vassal_adj.pbem.verify import Verification
from vassal_adj.rules.results import Finding, Severity
from vassal_adj.rules.turn import MoveCheck

__all__ = ["RULE", "contains_finding", "continuity_finding", "judged_once"]

RULE = "verify:continuity"


def _difference(d: PieceDiff, previous: str, log: str) -> str:
    """One piece's difference, as "where the previous file left it -> where the log starts it"."""
    name = d.name or d.piece
    if d.start is None:
        return f"{name}: not in {previous} -> {d.end}"
    if d.end is None:
        return f"{name}: {d.start} -> not in {log}"
    parts = [f"{d.start} -> {d.end}"] if d.kind == "moved" else []
    parts += [f"name was {d.name_before!r}"] if d.name_before else []
    parts += [f"properties differ: {change_text(d.properties, bool(d.name_before))}"] if d.properties else []
    return f"{name}: " + ("; ".join(parts) or "its concealment differs")


def continuity_finding(diffs: list[PieceDiff], previous: str, log: str) -> Finding:
    """The one finding for a log that does not start where the previous file left the game,
    listing every piece that differs."""
    labels = [p.label for d in diffs for p in (d.start, d.end) if p is not None and p.label]
    return Finding(
        RULE,
        Severity.WARNING,
        f"{log} does not start where {previous} left the game: {len(diffs)} piece(s) differ "
        f"(where {previous} left it -> where {log} starts it): "
        + " | ".join(_difference(d, previous, log) for d in diffs),
        units=tuple(d.piece for d in diffs),
        hexes=tuple(dict.fromkeys(labels)),
    )


def contains_finding(log: str, found: Contained, steps: int) -> Finding:
    """The finding for a log of `steps` steps that contains an earlier log (`found`)."""
    earlier, _, n = found
    if steps == n:
        return Finding(
            RULE,
            Severity.INFO,
            f"{log} contains {earlier} and adds nothing: the same opening and "
            f"the same {n} step(s), listed and judged once, with {earlier}; the "
            f"dice are counted from {log}",
        )
    return Finding(
        RULE,
        Severity.INFO,
        f"{log} contains {earlier} and continues: the same opening and all {n} step(s) of {earlier} "
        f"(listed and judged once, with {earlier}), then steps {n + 1}-{steps}, from where {earlier} "
        f"ends; the dice are counted from {log}, which holds them all",
    )


def judged_once(v: Verification, n: int, before: Sequence[Finding], moves: Sequence[MoveCheck]) -> Verification:
    """The judgment of a whole log that contains an earlier one (its first `n` steps), less what
    the earlier log's judgment already gave (`before`, `moves`): the phases the repeated steps
    span give the same verdicts again, except the phase the earlier log ended in, which the log
    plays on and which is judged whole."""
    seen_f, seen_m = set(before), set(moves)
    phases = []
    for p in v.phases:
        kept = replace(
            p,
            moves=tuple(m for m in p.moves if m not in seen_m),
            findings=tuple(f for f in p.findings if f not in seen_f),
        )
        if (p.steps is not None and p.steps[1] > n) or kept.moves or kept.findings:
            phases.append(kept)
    return replace(v, findings=tuple(f for f in v.findings if f not in seen_f), phases=tuple(phases))
