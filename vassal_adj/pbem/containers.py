"""The pieces, stacks and decks of a replayed game, as they are at one moment of its log.

A replay (replay.py) is a simulation: it keeps each piece as the commands leave it (`_Live`)
and the stacks and decks pieces sit in (`_Box`, spec 6.4). A piece in a stack or deck is at
that box's map and spot (issue 11: VASSAL shows it there, whatever its own state says). A
deck's box keeps the deck's name (its DrawPile's, the 13th option of its type), so that a
piece leaving it is known to be drawn from that deck (`Table.deck_of`).
"""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(slots=True)
class _Live:
    """A piece as the replay has it now (mutable: the replay is a simulation)."""

    id: str
    type_text: str
    name: str
    properties: dict[str, str]
    concealed: str | None
    masked_name: str | None
    seen_by: tuple[str, ...]
    map: str | None
    x: int
    y: int
    gpid: str = ""
    command: int | None = None


@dataclass(slots=True)
class _Box:
    """A stack or deck: its spot and its piece ids, bottom first; `deck` the deck's name (None: a stack)."""

    type_text: str
    map: str | None
    x: int
    y: int
    members: list[str] = field(default_factory=list)
    deck: str | None = None


class Table:
    """The pieces by id, the stacks and decks by id and by spot, and the box each piece sits in."""

    def __init__(self) -> None:
        self.pieces: dict[str, _Live] = {}
        self.boxes: dict[str, _Box] = {}
        self.spots: dict[tuple[str | None, int, int], dict[str, None]] = {}  # boxes by spot
        self.parent: dict[str, str] = {}

    def deck_of(self, pid: str) -> str | None:
        """The name of the deck the piece sits in, or None (in a stack, or in no box)."""
        box = self.boxes.get(self.parent.get(pid, ""))
        return box.deck if box is not None else None

    def detach(self, pid: str) -> None:
        box = self.boxes.get(self.parent.pop(pid, ""))
        if box is not None and pid in box.members:
            box.members.remove(pid)

    def attach(self, pid: str, box_id: str, above: str | None = None) -> None:
        self.detach(pid)
        members = self.boxes[box_id].members
        members.insert(members.index(above) + 1 if above in members else len(members), pid)
        self.parent[pid] = box_id

    def put_box(self, ident: str, box: _Box) -> None:
        self.drop_box(ident)
        self.boxes[ident] = box
        self.spots.setdefault((box.map, box.x, box.y), {})[ident] = None
        for pid in box.members[:]:
            box.members.remove(pid)
            self.attach(pid, ident)
            p = self.pieces.get(pid)
            if p is not None and box.map is not None:
                p.map, p.x, p.y = box.map, box.x, box.y

    def drop_box(self, ident: str) -> _Box | None:
        box = self.boxes.pop(ident, None)
        if box is not None:  # its pieces stay where they are, no longer stacked
            self.spots.get((box.map, box.x, box.y), {}).pop(ident, None)
            for pid in box.members:
                self.parent.pop(pid, None)
        return box

    def move_box(self, ident: str, map_id: str | None, x: int, y: int) -> _Box:
        box = self.boxes[ident]
        self.spots.get((box.map, box.x, box.y), {}).pop(ident, None)
        box.map, box.x, box.y = map_id, x, y
        self.spots.setdefault((map_id, x, y), {})[ident] = None
        return box

    def box_at(self, map_id: str | None, x: int, y: int) -> str | None:
        """The stack or deck a piece dropped at the spot joins: one with pieces, or a deck, which
        VASSAL always merges into (Map.placeOrMerge finds decks, empty ones too)."""
        boxes = self.spots.get((map_id, x, y), ())
        return next((b for b in boxes if self.boxes[b].members or self.boxes[b].deck is not None), None)
