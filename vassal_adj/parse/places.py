"""The label VASSAL shows at a place of a map, with the boards a save selected."""

from __future__ import annotations

from collections.abc import Callable

from vassal_adj.model.grid import map_location_name, place_boards
from vassal_adj.model.module import Module
from vassal_adj.parse.builder import board_selections
from vassal_adj.parse.commands import Node

__all__ = ["Labeler", "labeler"]

Labeler = Callable[[str | None, int, int], str | None]


def labeler(root: Node, module: Module | None) -> Labeler:
    """The label VASSAL shows at (map, x, y) with the boards the save selected; None off the
    boards, on a map the module lacks, or without a module."""
    placed: dict[str, object] = {}
    if module is not None:
        chosen = board_selections(root)
        for m in module.maps.values():
            placed[m.name] = placed[m.id] = place_boards(m, chosen.get(m.name, chosen.get(m.id)))
    cache: dict[tuple[str | None, int, int], str | None] = {}

    def label(map_id: str | None, x: int, y: int) -> str | None:
        key = (map_id, x, y)
        if key not in cache:
            boards = placed.get(map_id) if map_id else None
            cache[key] = map_location_name(boards, x, y) if boards else None  # type: ignore[arg-type]
        return cache[key]

    return label
