"""The game state the rules read: turn, phase, weather, units and where they are."""

from __future__ import annotations

import re
from collections.abc import Collection, Mapping
from dataclasses import dataclass, field, replace
from types import MappingProxyType

from vassal_adj.model.geometry.hexes import Hex
from vassal_adj.model.units import Unit
from vassal_adj.parse.tokens import parse_int


@dataclass(frozen=True)
class Box:
    """An off-map box as the pack's ``[boxes]`` names it: the pack's `name` for this kind of
    box, its `kind` ("turn", "withdrawn", "ap"), its `side` ("" when both sides use it) and
    its `number` (the Game-Turn of a turn box, the value of a track box; None when unnumbered)."""

    name: str
    kind: str
    side: str = ""
    number: int | None = None


@dataclass(frozen=True)
class Position:
    """Where a unit is: a hex on the map (with its label), or an off-map box the pack names
    (e.g. "eliminated", "exited", "turn 4 reinforcements"), or nowhere known. `named` is
    what the pack's ``[boxes]`` make of the box (None when no entry matches it)."""

    hex: Hex | None = None
    label: str | None = None
    box: str | None = None
    named: Box | None = field(default=None, compare=False)

    @property
    def on_map(self) -> bool:
        return self.hex is not None

    def numbered(self, kind: str) -> int | None:
        """The number of this position's box if the pack names it a box of `kind` (a turn box:
        its Game-Turn); None for any other place, or a box of that kind with no number."""
        return self.named.number if self.named is not None and self.named.kind == kind else None


@dataclass(frozen=True)
class TurnBoxes:
    """How a rule finds the Game-Turn boxes: by the pack's [boxes] `kind` when given (a box's
    number is its turn), else by the box name `pattern` fully matches, group 1 being the turn."""

    pattern: re.Pattern[str]
    kind: str = ""

    def turn(self, pos: Position) -> int | None:
        """The Game-Turn of the turn box `pos` is in; None when it is in none."""
        if self.kind:
            return pos.numbered(self.kind)
        m = self.pattern.fullmatch(pos.box.strip()) if pos.box else None
        return parse_int(m.group(1)) if m is not None else None


@dataclass(frozen=True)
class Departure:
    """A unit moved from a hex of the map into an off-map box (exited, eliminated), as a log
    shows it: the box, the hex it left from (its last hex on the map before the box) and the
    turn and phase then. A save alone shows the box, never the hex: only a log makes these."""

    unit: str
    box: str
    hex: Hex
    label: str | None
    turn: int | None
    phase: str | None


@dataclass(frozen=True)
class Track:
    """A track the module shows as a number (an AP or morale track): its `value` (None when the
    save does not show it) and the printed bounds (None: unbounded), and where it was read."""

    name: str
    value: int | None
    min: int | None = None
    max: int | None = None
    source: str = ""

    @property
    def in_bounds(self) -> bool | None:
        """Whether the value lies within the printed bounds (None when no value is shown)."""
        if self.value is None:
            return None
        return (self.min is None or self.value >= self.min) and (self.max is None or self.value <= self.max)


@dataclass(frozen=True)
class GameState:
    """A position of the game. Built from a save without judging it: an illegal stack or a
    unit in prohibited terrain is representable, so that the rules can report it."""

    units: Mapping[str, Unit]
    positions: Mapping[str, Position]
    turn: int | None = None
    phase: str | None = None
    weather: str | None = None
    # Pieces that are not units but that rules read (the pack's `ignore` patterns: withdrawal
    # markers, the turn counter): piece name -> where each such piece is, in save order.
    markers: Mapping[str, tuple[Position, ...]] = field(default_factory=dict)
    # What the history behind this position shows: every departure from the map into a box a
    # log recorded up to now, oldest first (a rule lasting from the moment of an exit on,
    # 17.15, reads it). Empty for a single save: it cannot show where a unit left from.
    departures: tuple[Departure, ...] = ()
    # A composite turn as the tracker shows it ("June 8 1900"; `turn` is then its ordinal) and
    # whether it is a night turn (None: the pack names no night turns, or the turn is unknown).
    turn_label: str | None = None
    night: bool | None = None
    globals: Mapping[str, str] = field(default_factory=dict)  # global properties, by the rules' names
    tracks: Mapping[str, Track] = field(default_factory=dict)
    _by_hex: Mapping[Hex, tuple[str, ...]] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "units", MappingProxyType(dict(self.units)))
        object.__setattr__(self, "positions", MappingProxyType(dict(self.positions)))
        object.__setattr__(self, "markers", MappingProxyType(dict(self.markers)))
        object.__setattr__(self, "globals", MappingProxyType(dict(self.globals)))
        object.__setattr__(self, "tracks", MappingProxyType(dict(self.tracks)))
        by_hex: dict[Hex, list[str]] = {}
        for uid, pos in self.positions.items():
            if pos.hex is not None:
                by_hex.setdefault(pos.hex, []).append(uid)
        object.__setattr__(self, "_by_hex", MappingProxyType({h: tuple(v) for h, v in by_hex.items()}))

    def units_at(self, h: Hex) -> tuple[Unit, ...]:
        """The units in hex `h`, in save order."""
        return tuple(self.units[u] for u in self._by_hex.get(h, ()))

    def occupied(self) -> Mapping[Hex, tuple[str, ...]]:
        """Unit ids by hex, for every occupied hex."""
        return self._by_hex

    def hex_of(self, unit_id: str) -> Hex | None:
        pos = self.positions.get(unit_id)
        return pos.hex if pos is not None else None

    def side_units(self, side: str) -> tuple[Unit, ...]:
        return tuple(u for u in self.units.values() if u.side == side)

    def with_position(self, unit_id: str, position: Position) -> GameState:
        """A new state with one unit moved (the original is unchanged)."""
        positions = dict(self.positions)
        positions[unit_id] = position
        return replace(self, positions=positions)

    def exits(self, box: str, sides: Collection[str]) -> tuple[tuple[Departure, ...], tuple[str, ...]]:
        """Units of `sides` gone into `box` (names casefolded, spaces trimmed): the departures
        the history showed, oldest first, and the ids of units in the box now that no departure
        shows leaving, whose hex is unknown (a save alone)."""
        key = box.strip().casefold()
        known = tuple(
            d
            for d in self.departures
            if d.box.strip().casefold() == key and d.unit in self.units and self.units[d.unit].side in sides
        )
        seen = {d.unit for d in known}
        unseen = tuple(
            sorted(
                u
                for u, p in self.positions.items()
                if (p.box or "").strip().casefold() == key and self.units[u].side in sides and u not in seen
            )
        )
        return known, unseen

    def marker(self, name: str) -> tuple[Position, ...]:
        """Where the marker pieces called `name` are (empty when the save has none)."""
        return self.markers.get(name, ())

    def in_boxes(self, kind: str, side: str | None = None, number: int | None = None) -> tuple[str, ...]:
        """Ids of the units in boxes of `kind` (the pack's [boxes]), of `side` and `number` when given."""
        return tuple(
            u
            for u, p in self.positions.items()
            if p.named is not None
            and p.named.kind == kind
            and (side is None or p.named.side == side)
            and (number is None or p.named.number == number)
        )

    def track(self, name: str) -> Track | None:
        """The track the pack calls `name` (None when the pack reads none by that name)."""
        return self.tracks.get(name)
