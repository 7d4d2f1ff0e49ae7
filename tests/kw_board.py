"""The Kesselring's War pack (modules/kesselrings-war) on its example board, for tests that work its
rules from the seed's words (../shared/seeds/004_954644da5565c400.txt) with positions built by hand.

The board is the example's: 40 columns x 34 rows, labels column then row (0101 north-west), odd
columns half a hex lower (the grid terrain.csv is drawn on, on which the Cassino row 2915 ... 3518
of 7.1.1 is one hex row). Counters are the pack's own, by their counter name (order-of-battle.csv),
mapped through its units.toml, so a test also proves that the pack reads them as the rule needs (an
air unit has no zone of control and stacks in the air pool, a Garrison in its own).
"""

from __future__ import annotations

from conftest import REPO
from pack_board import PackBoard, errors, outcome

PACK_DIR = REPO / "modules" / "kesselrings-war"
BOARD = PackBoard(PACK_DIR, "Kesselring", columns=40, rows=34, y0=58, stagger=True)
LAYOUT, LOADED, PACK, TERRAIN = BOARD.layout, BOARD.loaded, BOARD.pack, BOARD.terrain
H, unit, state, run, move, controlled = BOARD.H, BOARD.unit, BOARD.state, BOARD.run, BOARD.move, BOARD.controlled

# The layer of the example module's counters that shows a reduced unit (units.toml group).
REDUCED = {"Reduced_Active": "true"}

__all__ = [
    "LAYOUT",
    "PACK",
    "REDUCED",
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
