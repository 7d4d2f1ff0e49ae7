"""What `verify` leaves out of what it prints: passwords found in the files (everywhere, as
REDACTED), and with --as SIDE the pieces that side may not see (units the pack flags hidden, as
"<side> hidden unit"), with the notes that say what was left out."""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from typing import Any

from vassal_adj import packs as packs_io
from vassal_adj.model.pieces import Piece
from vassal_adj.model.units import Unit

__all__ = ["UnitOf", "disguised", "scrub", "unit_of", "view_notes", "withheld"]


def scrub(data: Any, pattern: re.Pattern[str] | None) -> Any:
    if pattern is None:
        return data
    # here: `check`, which imports this module, never scrubs, and needs nothing else of describe.py
    from vassal_adj.report.describe import REDACTED

    if isinstance(data, str):
        return pattern.sub(REDACTED, data)
    if isinstance(data, dict):
        return {k: scrub(v, pattern) for k, v in data.items()}
    if isinstance(data, (list, tuple)):
        return [scrub(v, pattern) for v in data]
    return data


UnitOf = Callable[[Piece], object]  # the unit the pack makes of a piece (a position's `unit`), if any


def unit_of(lp: packs_io.LoadedPack | None) -> UnitOf | None:
    """The pack's piece-to-unit mapping, None without a pack or units file (nothing it hides)."""
    return lp.unitmap.map_piece if lp is not None and lp.unitmap is not None else None


def disguised(pieces: Sequence[Piece], units: UnitOf | None, side: str | None) -> dict[str, str]:
    """Pieces the game's rules hide from `side` (units the pack flags "hidden", e.g. dummy and real
    AT guns), by id, with the name that side sees; with no side, those hidden from either side.
    `units`: the pack's mapping (a resolved position's `unit`, which maps each piece once)."""
    if units is None:
        return {}
    out = {}
    for p in pieces:
        unit = units(p)
        if isinstance(unit, Unit) and unit.has("hidden") and (side is None or unit.side != side):
            out[p.id] = f"{unit.side} hidden unit"
    return out


def view_notes(side: str | None, concealed: int, left_out: int) -> list[str]:
    out = [f"{left_out} finding(s) about pieces {side} may not see are left out"] if left_out else []
    if concealed:
        out.append(
            f"hidden pieces shown: {concealed} event(s) or change(s) concern masked or invisible pieces, "
            "shown as the referee sees them"
        )
    return out


def withheld(pieces: Sequence[Piece], units: UnitOf | None, side: str | None) -> set[str]:
    """Ids of the pieces an annotated save or a player's report must not mention: those `side`
    may not see in full (masked, invisible, or hidden by the pack's rules); with no side, those
    hidden from any player, since everyone opens the annotated save (reliability r13)."""
    if side is None:
        concealed = {p.id for p in pieces if p.concealed}
    else:
        # here: viewpoint loads a log's events, which `check` of a save never needs (startup time, issue 10)
        from vassal_adj.model.viewpoint import visibility

        concealed = {p.id for p in pieces if visibility(p.concealed, p.seen_by, side) != "full"}
    return concealed | disguised(pieces, units, side).keys()
