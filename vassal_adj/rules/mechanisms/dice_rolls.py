"""Which rolls of a log a ``dice.table`` rule reads, whose they are, and what its table makes of
them (RULES-MAP N20): the rule's die button in the phases and segment kinds it names, each roll
given to a side by its place in the segment (`sides`, in the order the sides roll: seed 004 5.1
"Each side, beginning with the Allies, rolls 1d6"), else to the side the segment's opener names.

Pure: rolls in, attributed rolls out (dice_table.py judges them).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from vassal_adj.rules.segment_rolls import SegmentRoll

__all__ = ["Attributed", "attributed", "earlier_segments", "in_range", "outcome", "picks", "table_entry"]


@dataclass(frozen=True)
class Attributed:
    """A roll and the side it is for (None: the rule cannot tell whose it is)."""

    roll: SegmentRoll
    side: str | None


def picks(p: Mapping[str, Any], phase: str | None, kind: str) -> bool:
    """Whether a segment of `phase` and `kind` is one whose rolls of the button the rule reads."""
    return (not p["phases"] or phase in p["phases"]) and (not p["kinds"] or kind in p["kinds"])


def attributed(p: Mapping[str, Any], rolls: Sequence[SegmentRoll], opener_side: str | None) -> list[Attributed]:
    """The rolls of one segment, each with its side: the n-th roll is the n-th of `sides` (a roll
    past the last side is nobody's), or, without `sides`, the side the opener names."""
    order = p["sides"]
    if not order:
        return [Attributed(r, opener_side) for r in rolls]
    return [Attributed(r, order[i] if i < len(order) else None) for i, r in enumerate(rolls)]


def earlier_segments(p: Mapping[str, Any], rolls: Iterable[SegmentRoll]) -> list[list[SegmentRoll]]:
    """The log's earlier rolls of the button in the segments the rule reads, one list a segment
    (the rolls of one turn, phase, segment kind and side, in log order)."""
    groups: dict[tuple[object, ...], list[SegmentRoll]] = {}
    for r in rolls:
        if r.button == p["button"] and picks(p, r.phase, r.kind):
            groups.setdefault((r.turn, r.phase, r.kind, r.side), []).append(r)
    return list(groups.values())


def in_range(key: str, value: int) -> bool:
    """Whether a table key ("3", or "1-4") holds `value`; ValueError for a key that is neither."""
    low, _, high = key.partition("-")
    try:
        return int(low) <= value <= int(high or low)
    except ValueError:
        raise ValueError(f"table: expected a roll ('3') or a range of rolls ('1-4'), got {key!r}") from None


def table_entry(table: Mapping[str, Any], side: str | None, value: int | None) -> tuple[str, Any] | None:
    """The key and entry of `table` (side or "*" -> { roll or range -> entry }) for `side`'s roll
    `value`, or None."""
    rows = table.get(side or "", table.get("*"))
    if not isinstance(rows, Mapping) or value is None:
        return None
    return next(((k, v) for k, v in rows.items() if in_range(k, value)), None)


def outcome(p: Mapping[str, Any], a: Attributed) -> tuple[str, str] | None:
    """The key and the words of the outcome the rule's table gives `a`'s roll, or None."""
    found = table_entry(p["table"], a.side, a.roll.value)
    return (found[0], str(found[1])) if found else None
