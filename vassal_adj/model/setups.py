"""A predefined set-up of the module as the rules compare a game with it (RULES-MAP N11
``setup.reference``): the position its save holds, or why there is none to compare with.

Pure: the loading layer (vassal_adj/setup_reference.py) decodes the module's save and builds the
state; rules read this record from their context.
"""

from __future__ import annotations

from dataclasses import dataclass

from vassal_adj.model.state import GameState

__all__ = ["SetupReference"]


@dataclass(frozen=True)
class SetupReference:
    """The set-up `name` asked for: its save `file` in the module and its `state`, or None and
    `why` (the module has no such set-up, it opens no file, the archive lacks the file)."""

    name: str
    file: str = ""
    state: GameState | None = None
    why: str = ""
