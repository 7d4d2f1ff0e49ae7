"""The Tunisia 1943 pack (modules/tunisia-1943) on its example board, for tests that work its rules
from the seed's words (../shared/seeds/001_9467744547cf47c5.txt) with positions built by hand.

The board is the example's: 30 columns x 20 rows, labels column then row (0101 north-west), the
second column half a hex lower (the grid terrain.csv is drawn on). Counters are the pack's own, by
printed name (order-of-battle.csv), mapped through its units.toml, so a test also proves that the
pack reads them as the rule needs (an EM has no zone of control, a Tiger is in the Tiger pool).
"""

from __future__ import annotations

from conftest import REPO
from pack_board import PackBoard, errors, outcome

PACK_DIR = REPO / "modules" / "tunisia-1943"
BOARD = PackBoard(PACK_DIR, "Tunisia", columns=30, rows=20, y0=28, stagger=False)
LAYOUT, LOADED, PACK, TERRAIN = BOARD.layout, BOARD.loaded, BOARD.pack, BOARD.terrain
H, unit, state, run, move, controlled = BOARD.H, BOARD.unit, BOARD.state, BOARD.run, BOARD.move, BOARD.controlled

# Layers of the example module's counters that show a state (units.toml groups).
OUT_OF_SUPPLY = {"OutOfSupply_Active": "true"}
LOSS_OF_ZOC = {"LossOfZoC_Active": "true"}

__all__ = [
    "LAYOUT",
    "LOADED",
    "LOSS_OF_ZOC",
    "OUT_OF_SUPPLY",
    "PACK",
    "PACK_DIR",
    "TERRAIN",
    "H",
    "controlled",
    "errors",
    "move",
    "outcome",
    "run",
    "state",
    "unit",
]
