"""What a log shows happening, in order: moves, arrivals, removals, changes, chat, dice, turns.

Pure data built by `vassal_adj.pbem.replay`. Every event keeps the depth-first index of the
command it comes from (`command`), the logged step it belongs to (`step`, counted from 1),
whether it lies inside an undo (`undo`: an ``UNDO<TAB>true`` … ``UNDO<TAB>false`` bracket of
VASSAL 3.6.7+, or an older undo step, which holds a ``* UNDO:`` chat line) and, for piece
events, the piece id. A step an undo took back keeps its events as they happened; the step
says which undo took it back (`Step.undone_in`). Players appear by name only: VASSAL
identifies a mover by password.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping
from dataclasses import dataclass, field

from vassal_adj.model.pieces import Piece

__all__ = [
    "Added", "Changed", "ChatLine", "DieRolled", "Event", "Moved", "PieceDiff", "Place",
    "PropertyChange", "PropertySet", "Removed", "Replay", "Step", "TurnChanged", "diff_pieces",
    "property_changes",
]  # fmt: skip


@dataclass(frozen=True)
class Place:
    """Where a piece is: a map and pixel, with the label VASSAL shows there when known."""

    map: str | None
    x: int
    y: int
    label: str | None = None

    def __str__(self) -> str:
        if self.map is None:
            return "off map"
        return f"{self.map} {self.label}" if self.label else f"{self.map} @{self.x},{self.y}"

    def same_spot(self, other: Place) -> bool:
        return (self.map, self.x, self.y) == (other.map, other.x, other.y)


@dataclass(frozen=True)
class PropertyChange:
    """One piece property whose value differs; None where the piece lacks the property."""

    name: str
    before: str | None
    after: str | None


@dataclass(frozen=True, kw_only=True)
class _Event:
    command: int
    step: int
    undo: bool = False


@dataclass(frozen=True, kw_only=True)
class _PieceEvent(_Event):
    piece: str
    name: str
    concealed: str | None = None  # "masked", "invisible", "masked+invisible" (see Piece)
    masked_name: str | None = None  # what a player without access sees
    seen_by: tuple[str, ...] = ()  # sides that see the piece as it is while concealed


@dataclass(frozen=True, kw_only=True)
class Moved(_PieceEvent):
    """A piece moved; `via` is the stack or deck id the command moved, when not the piece's
    own, and `by_change` marks a position set by a ChangePiece rather than a MovePiece.
    `deck` names the deck the piece left (a card or chit drawn, e.g. an activation chit
    pulled from the mug): the deck's name as its DrawPile gives it; None when it left none."""

    origin: Place
    to: Place
    via: str | None = None
    player: str | None = None
    by_change: bool = False
    deck: str | None = None


@dataclass(frozen=True, kw_only=True)
class Added(_PieceEvent):
    """A piece entered the game (AddPiece inside a step)."""

    at: Place


@dataclass(frozen=True, kw_only=True)
class Removed(_PieceEvent):
    """A piece left the game (RemovePiece)."""

    at: Place


@dataclass(frozen=True, kw_only=True)
class Changed(_PieceEvent):
    """A piece's state changed (ChangePiece): its name (a flip, a step loss shown by a layer),
    its properties (markers, layer levels), its concealment."""

    at: Place
    name_before: str
    properties: tuple[PropertyChange, ...] = ()
    concealed_before: str | None = None


@dataclass(frozen=True, kw_only=True)
class ChatLine(_Event):
    """A chat line: a player's (`speaker` set) or an automatic report (`report`)."""

    text: str
    speaker: str | None = None
    report: bool = False


@dataclass(frozen=True, kw_only=True)
class DieRolled(_Event):
    """A Dice Button roll: its report text and result (the kept dice, e.g. ``3,5``)."""

    button: str
    report: str | None
    result: str
    total: str | None = None
    special: bool = False


@dataclass(frozen=True, kw_only=True)
class TurnChanged(_Event):
    """A turn tracker moved on; `values` are its levels as the module names them."""

    tracker: str
    state: str
    values: tuple[tuple[str, str], ...] = ()


@dataclass(frozen=True, kw_only=True)
class PropertySet(_Event):
    """A global, map or zone property took a new value (e.g. the phase)."""

    name: str
    before: str
    after: str
    container: str | None = None


Event = Moved | Added | Removed | Changed | ChatLine | DieRolled | TurnChanged | PropertySet


@dataclass(frozen=True)
class Step:
    """One logged step (one user action). `undoes` is the number of the step an undo step
    takes back (VASSAL undoes the latest step not yet undone); `undone_in` the number of the
    undo step that took this one back: its moves and changes did not stay."""

    number: int
    command: int
    events: tuple[Event, ...]
    undo: bool = False
    undoes: int | None = None
    undone_in: int | None = None


@dataclass(frozen=True)
class Replay:
    """A log replayed from its opening position: the steps, the pieces before and after,
    and what could not be applied (`problems`, e.g. a move of a piece the game lacks)."""

    steps: tuple[Step, ...]
    opening: tuple[Piece, ...]
    final: tuple[Piece, ...]
    problems: tuple[str, ...] = ()

    def events(self) -> Iterable[Event]:
        return (e for s in self.steps for e in s.events)

    def kept(self) -> Iterable[Event]:
        """The events that stayed: neither an undo's inverse commands nor those of a step an
        undo took back (which did happen, then were taken back)."""
        return (e for s in self.steps if s.undone_in is None for e in s.events if not e.undo)

    def undone(self) -> Iterable[tuple[Step, Event]]:
        """The events of the steps an undo took back, with their step."""
        return ((s, e) for s in self.steps if s.undone_in is not None for e in s.events if not e.undo)

    def counts(self, rolls: Collection[int] = ()) -> Mapping[str, int]:
        """Events by kind outside undo brackets, and the number of undo steps. `rolls` are the
        commands read as die rolls (e.g. chat reports a dice reader understood): each counts
        as one die roll, not as a chat line."""
        kinds = {
            Moved: "moves",
            Added: "arrivals",
            Removed: "removals",
            Changed: "changes",
            ChatLine: "chat lines",
            DieRolled: "die rolls",
            TurnChanged: "turn changes",
            PropertySet: "property changes",
        }
        out = dict.fromkeys(kinds.values(), 0)
        for e in self.events():
            if not e.undo:
                out["die rolls" if e.command in rolls else kinds[type(e)]] += 1
        out["undos"] = sum(1 for s in self.steps if s.undo)
        return out


@dataclass(frozen=True)
class PieceDiff:
    """A piece that differs between two positions: `start`/`end` None where it is absent."""

    piece: str
    name: str
    start: Place | None
    end: Place | None
    name_before: str | None = None
    properties: tuple[PropertyChange, ...] = field(default=())
    concealed: str | None = None
    seen_by: tuple[str, ...] = ()

    @property
    def kind(self) -> str:
        if self.start is None:
            return "added"
        if self.end is None:
            return "removed"
        return "moved" if not self.start.same_spot(self.end) else "changed"


def property_changes(before: Mapping[str, str], after: Mapping[str, str]) -> tuple[PropertyChange, ...]:
    """The properties whose values differ, by name."""
    names = sorted(set(before) | set(after))
    return tuple(PropertyChange(n, before.get(n), after.get(n)) for n in names if before.get(n) != after.get(n))


def _place(p: Piece) -> Place:
    return Place(p.map, p.x, p.y, p.location)


def diff_pieces(before: Iterable[Piece], after: Iterable[Piece]) -> list[PieceDiff]:
    """Pieces (matched by id) whose place, name, properties or concealment differ, or that
    only one side has; in the order of `after`, then the pieces `after` lacks."""
    old = {p.id: p for p in before}
    out: list[PieceDiff] = []
    seen = set()
    for p in after:
        seen.add(p.id)
        q = old.get(p.id)
        if q is None:
            out.append(PieceDiff(p.id, p.name, None, _place(p), concealed=p.concealed, seen_by=p.seen_by))
            continue
        props = property_changes(q.properties, p.properties)
        moved = (q.map, q.x, q.y) != (p.map, p.x, p.y)
        if moved or props or q.name != p.name or q.concealed != p.concealed:
            out.append(
                PieceDiff(
                    p.id,
                    p.name,
                    _place(q),
                    _place(p),
                    q.name if q.name != p.name else None,
                    props,
                    p.concealed,
                    p.seen_by,
                )
            )
    out += [
        PieceDiff(q.id, q.name, _place(q), None, concealed=q.concealed, seen_by=q.seen_by)
        for q in old.values()
        if q.id not in seen
    ]
    return out
