"""Which hexes a unit's Movement Trail shows it went through in the open phase of a log's walk.

`verify` judges a move by the path its trail drew when the trail covers the whole move (from
the unit's first drag of the phase to where it was dropped last); else by the cheapest path.
"""

from __future__ import annotations

from collections.abc import Callable

from vassal_adj.model.events import Place
from vassal_adj.model.geometry.hexes import Hex
from vassal_adj.model.state import Position
from vassal_adj.parse.commands import Node
from vassal_adj.parse.trail import Trail, TrailLog

__all__ = ["TrailWatch"]


class TrailWatch:
    """The pieces' trails as the log is now, each moved unit's trail as its first drag of the
    open phase left it (and the index of that drag's start in it), and where it was dropped last."""

    def __init__(self, root: Node, path: str, map_name: Callable[[str], str]) -> None:
        self.log = TrailLog.read(root, path)
        self.trails: dict[str, Trail] = dict(self.log.opening)
        self.map_name = map_name
        self.anchors: dict[str, tuple[Trail, int] | None] = {}
        self.first_drags: dict[str, Place] = {}  # the units whose first drag of the phase is in this step
        self.ends: dict[str, Place] = {}

    def dragged(self, uid: str, origin: Place, to: Place, first: bool) -> None:
        """A unit was dragged from `origin` to `to` (`first`: its first drag of the open phase)."""
        if first and uid in self.trails:
            self.first_drags[uid] = origin
        self.ends[uid] = to

    def stepped(self, step: int) -> None:
        """The trails as step `step` left them; the first drags of the step anchored."""
        self.trails.update(self.log.after.get(step, {}))
        for uid, origin in self.first_drags.items():
            t = self.trails[uid]
            starts = t.points[-1:] == ((origin.x, origin.y),) and self.map_name(t.start_map) == origin.map
            self.anchors[uid] = (t, len(t.points) - 1) if starts else None
        self.first_drags = {}

    def hexes(self, uid: str, position: Callable[[Place], Position]) -> tuple[Hex | None, ...]:
        """The hexes `uid`'s trail shows it went through in the open phase (empty: it does not cover the move)."""
        anchor, t, end = self.anchors.get(uid), self.trails[uid], self.ends[uid]
        if (
            anchor is None
            or t.start_map != anchor[0].start_map
            or self.map_name(t.start_map) != end.map
            or t.points[: anchor[1] + 1] != anchor[0].points
        ):
            return ()
        points = list(t.points[anchor[1] :])
        if points[-1] != (end.x, end.y):  # VASSAL draws the trail on to where the piece stands
            points.append((end.x, end.y))
        return tuple(position(Place(end.map, x, y)).hex for x, y in points)

    def new_phase(self) -> None:
        self.anchors, self.ends = {}, {}
