"""The example module's board, for rule tests that work a seed's hexes on a real hex layout
(the seeds' own boards are not in the repository: their row and column numbers are used here)."""

from __future__ import annotations

from functools import cache
from pathlib import Path

import vassal_adj
from vassal_adj.model.geometry.layout import HexLayout
from vassal_adj.model.geometry.maps import board_hex_layouts

MODULE = Path(__file__).resolve().parents[1] / "modules" / "kasserine" / "example" / "Kasserine.vmod"


@cache
def layout() -> HexLayout:
    """The hex layout of the example module's one board (loaded once)."""
    (lay,) = board_hex_layouts(vassal_adj.load_module(MODULE).maps["Main Map"].boards["Kasserine"])
    return lay
