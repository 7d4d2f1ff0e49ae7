"""Movement Trail (`footprint;`, VASSAL-FORMATS.md 6.14 and 10 pitfall 22): the points of a piece's trail.

When points accumulate (VASSAL 3.6, Footprint and PieceMover): a move of a piece (a drag, or
any key command that moves it and marks it moved) first calls ``PieceMover.movedPiece``, which
marks the piece moved *before* ``Map.placeAt`` puts it at its new place; marking it moved
(``Footprint.setMoved(true)``) appends the piece's position then, the place it leaves, unless it
equals the last point. Marking it unmoved (the map's Mark Unmoved button, or a map whose
"mark pieces moved" option is Never) and the trait's clear command reset the trail to the piece's
position alone (n=1); a piece never moved nor cleared has none (n=0). The trail VASSAL draws is
the points, then the piece's position. So the state a log holds after drags A->B and B->C of a
trail cleared at A is the points A, B with the piece at C; its ChangePiece comes before the
MovePiece of the same step. The points are map pixels of ``startMapId``'s map (VASSAL clears a
trail shown on another map).

`trail_state`/`trail_type` decode the trait's own texts (3.6 to 3.8 forms: 3.8's trailing
``lastPointListSize`` in the state and ``ignoreSameLocation`` in the type are read when there);
`TrailLog.read` follows every piece having the trait through a log: its trail at the opening and
after each logged step that changes it.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field

from vassal_adj.errors import Where
from vassal_adj.parse import records as r
from vassal_adj.parse.builder import _opening_texts
from vassal_adj.parse.command_decoders import decode_command
from vassal_adj.parse.commands import Node, iter_texts, log_steps
from vassal_adj.parse.dice import unwrap
from vassal_adj.parse.tokens import bool_of, int_or, split
from vassal_adj.parse.traits import Footprint, PieceDef, parse_piece

__all__ = ["PREFIX", "Trail", "TrailLog", "TrailType", "piece_trail", "trail_state", "trail_type"]

PREFIX = Footprint.PREFIX
Point = tuple[int, int]
_PIECE_TEXT = re.compile(r"(?:LOG\t)*[+D]/").match  # an AddPiece or ChangePiece, logged or not


@dataclass(frozen=True)
class TrailType:
    """The trait's definition, as far as a reader needs it: whether the trail shows at first
    (and to every player), its description, and 3.8's ignoreSameLocation (None before 3.8)."""

    initially_visible: bool = False
    globally_visible: bool = False
    description: str = ""
    ignore_same_location: bool | None = None


@dataclass(frozen=True)
class Trail:
    """A trail's state: whether it shows, the map its points are on (its name or id, as the
    file writes it), the points in the order recorded, and the trailing fields of later
    versions (``everInitialized``; 3.8's ``lastPointListSize``), None when absent."""

    visible: bool = False
    start_map: str = ""
    points: tuple[Point, ...] = ()
    ever_initialized: bool | None = None
    last_size: int | None = None


def trail_type(text: str) -> TrailType:
    """The trait's own type text (``footprint;key;menu;initiallyVisible;globallyVisible;...``),
    read as ``Footprint.mySetType`` does: missing fields take VASSAL's defaults."""
    f = split(text.removeprefix(PREFIX), ";")

    def get(i: int) -> str | None:
        return f[i] if i < len(f) else None

    # 0 key, 1 menu text, 2-3 visibility, 4-11 look, 12-14 keys (on, off, clear), 15 description
    return TrailType(
        bool_of(get(2), False), bool_of(get(3), False), get(15) or "", bool_of(get(16)) if len(f) > 16 else None
    )


def trail_state(text: str, visible: bool = False) -> Trail:
    """The trait's own state text, read as ``Footprint.mySetState`` does: `n`, then n point
    fields (an empty one is skipped, a non-number reads 0), then the later trailing fields.
    `visible` is the type's initiallyVisible, the default of the first field."""
    f = split(text, ";")
    n = max(0, int_or(f[2] if len(f) > 2 else None, 0))
    points: list[Point] = []
    for raw in f[3 : 3 + n]:
        if raw:
            xy = split(raw, ",")
            points.append((int_or(xy[0], 0), int_or(xy[1] if len(xy) > 1 else None, 0)))
    rest = f[3 + n :]
    return Trail(
        bool_of(f[0] if f else None, visible),
        f[1] if len(f) > 1 else "",
        tuple(points),
        bool_of(rest[0]) if rest else None,
        int_or(rest[1], 0) if len(rest) > 1 else None,
    )


def piece_trail(piece: PieceDef) -> Trail | None:
    """The trail of a parsed piece (its outermost Movement Trail trait), None without one."""
    t = next((t for t in piece.traits if isinstance(t, Footprint)), None)
    return None if t is None else trail_state(t.state, trail_type(t.type).initially_visible)


@dataclass
class TrailLog:
    """Every piece with a Movement Trail in a log: `opening` its trail as the log opens,
    `after[step]` the trails a logged step (numbered from 1, as the replay numbers them) left
    changed, each piece's last in the step. Pieces without the trait are not read (saves hold
    their pieces' traits expanded, 10 pitfall 13)."""

    opening: dict[str, Trail] = field(default_factory=dict)
    after: dict[int, dict[str, Trail]] = field(default_factory=dict)

    @classmethod
    def read(cls, root: Node, path: str | None = None) -> TrailLog:
        out, types = cls(), {}
        for index, text in _opening_texts(root, lambda t: t.startswith("+/") and PREFIX in t):
            for pid, trail in _trails(decode_command(text, index, root.where), types, path, index):
                out.opening[pid] = trail
        for number, step in enumerate(log_steps(root), 1):
            for index, text in iter_texts(step, step.index or 0, _PIECE_TEXT):
                if types or PREFIX in text:  # a log without the trait decodes nothing
                    for pid, trail in _trails(unwrap(decode_command(text, index, root.where)), types, path, index):
                        out.after.setdefault(number, {})[pid] = trail
        return out


def _trails(cmd: r.Record, types: dict[str, str], path: str | None, index: int) -> Iterator[tuple[str, Trail]]:
    """The trail an AddPiece or ChangePiece gives a piece having one (`types`: their type texts)."""
    if isinstance(cmd, r.AddPiece) and PREFIX in cmd.type:
        types[cmd.id], state = cmd.type, cmd.state
    elif isinstance(cmd, r.ChangePiece) and cmd.id in types:
        state = cmd.new_state
    else:
        return
    trail = piece_trail(parse_piece(types[cmd.id], state, Where(path=path, entry="savedGame", command=index)))
    if trail is not None:
        yield cmd.id, trail
