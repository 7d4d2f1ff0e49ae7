"""What `verify` leaves out of what it prints: passwords found in the files (everywhere, as
REDACTED), and with --as SIDE the pieces that side may not see (units the pack flags hidden, as
"<side> hidden unit"), with the notes that say what was left out."""

from __future__ import annotations

import re
from typing import Any

from vassal_adj import packs as packs_io
from vassal_adj.model.pieces import Piece
from vassal_adj.model.units import Unit
from vassal_adj.report.describe import REDACTED

__all__ = ["disguised", "scrub", "view_notes"]


def scrub(data: Any, pattern: re.Pattern[str] | None) -> Any:
    if pattern is None:
        return data
    if isinstance(data, str):
        return pattern.sub(REDACTED, data)
    if isinstance(data, dict):
        return {k: scrub(v, pattern) for k, v in data.items()}
    if isinstance(data, (list, tuple)):
        return [scrub(v, pattern) for v in data]
    return data


def disguised(pieces: tuple[Piece, ...], lp: packs_io.LoadedPack | None, side: str) -> dict[str, str]:
    """Pieces the game's rules hide from `side` (units the pack flags "hidden", e.g. dummy and real
    AT guns), by id, with the name that side sees."""
    if lp is None or lp.unitmap is None:
        return {}
    out = {}
    for p in pieces:
        unit = lp.unitmap.map_piece(p)
        if isinstance(unit, Unit) and unit.has("hidden") and unit.side != side:
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
