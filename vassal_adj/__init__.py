"""vassal-adj: read VASSAL modules, saves and logs losslessly and check them against a game's rules.

import vassal_adj
mod = vassal_adj.load_module("game.vmod")
game = vassal_adj.load_save("turn.vsav")
game.write("copy.vsav")
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

__version__ = "0.1.0"

if TYPE_CHECKING:
    from vassal_adj.load import load_module, load_save
    from vassal_adj.rules.engine import adjudicate
    from vassal_adj.state_builder import game_state

# The entry points are imported on first use (PEP 562): importing the package, as every
# `vassal-adj` command does, must not load the rule engine and its libraries.
_ENTRY_POINTS = {
    "load_module": "vassal_adj.load",
    "load_save": "vassal_adj.load",
    "adjudicate": "vassal_adj.rules.engine",
    "game_state": "vassal_adj.state_builder",
}

__all__ = ["__version__", "adjudicate", "game_state", "load_module", "load_save"]


def __getattr__(name: str) -> Any:
    if name not in _ENTRY_POINTS:
        raise AttributeError(f"module 'vassal_adj' has no attribute {name!r}")
    return getattr(importlib.import_module(_ENTRY_POINTS[name]), name)
