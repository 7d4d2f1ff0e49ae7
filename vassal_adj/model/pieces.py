"""A game piece as a save places it: identity, name, position, properties, concealment."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field


@dataclass(frozen=True)
class Piece:
    """One real piece (never a stack or a deck) of a saved game.

    `name` is what VASSAL shows to a player who may see the piece (layers and labels
    applied). `concealed` says how it is hidden from other players: "masked" (Mask trait),
    "invisible" (Invisible trait), "masked+invisible", or None. Owners are not kept (for
    per-player access they are passwords); `seen_by` keeps the sides they stand for.
    """

    id: str
    name: str
    # Where VASSAL shows the piece: a piece in a stack or deck is on the container's map and
    # spot. The map is the module's name for it when the module is known (a save may refer to a
    # map by id, ``Map0``), else as the save writes it; None when not on a map.
    map: str | None
    x: int
    y: int
    gpid: str = ""
    properties: Mapping[str, str] = field(default_factory=dict)
    concealed: str | None = None
    masked_name: str | None = None  # the name other players see while masked
    seen_by: tuple[str, ...] = ()  # sides that see it as it is while concealed (() if none can be told)
    location: str | None = None  # the label VASSAL shows for (x, y), when a module is known
    command: int | None = None  # index of the AddPiece command in the save

    @property
    def on_map(self) -> bool:
        return self.map is not None
