"""What happened between saves, as the victory rules need it (RULES-MAP E8, N17).

A save is a snapshot: it shows where units are, not when they got there. Given the states of
a game in order (each save or log of a game, oldest first), `History` answers the questions
the victory-point schedule asks:

- when a side first occupied a hex (22.31: points "the instant the first Axis unit enters");
- which units were eliminated or exited, dated by the first state that shows them so, and
  the hex an exited unit left from (22.43: "exited from any Allied Supply Source hex");
- on which turn a side declared its withdrawal (19.0: a marker put in that turn's box), and
  whether it was declared on two turns ("once (and only once)");
- which side occupies a place, or was the last to occupy it (`last_occupier`); the separate
  stays of a marker in a box, so that an event allowed once per game and used twice is seen
  (`stays`); and the turn a unit was eliminated (`removal_of`).

The conventions, which reports repeat so that a referee can weigh them:

- An event first shown by state i is dated to state i's turn; it happened after state i-1
  (`earliest` is that state's turn), or at any earlier time when i is the first state
  (`earliest` is None). One save therefore dates everything it shows to its own turn.
- A unit counts as eliminated (exited) when it is in that box in the *last* state; the event
  is the start of its last unbroken stay there, so a unit that exited and came back on the map
  (a conditional reinforcement returning, RULES-MAP N12) is not counted as exited.
- The hex a unit left the map from is the one a log recorded (GameState.departures: its last
  hex before the box, pbem/log_state.py), dated by the turn the log shows; None when no log given
  shows it leaving. Never the last hex a save happened to show: the unit may have moved on
  before it left, so a save alone cannot say where it left.

Pure: states in, records out.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from vassal_adj.model.geometry.hexes import Hex
from vassal_adj.model.state import Departure, GameState
from vassal_adj.model.units import Unit
from vassal_adj.parse.tokens import parse_int

__all__ = ["Declaration", "Entry", "History", "Removal", "Stay"]


@dataclass(frozen=True)
class Entry:
    """The first state in which a unit of `side` occupies `hex`."""

    side: str
    hex: Hex
    index: int  # of the state that first shows it
    turn: int | None  # that state's turn
    earliest: int | None  # the previous state's turn; None when index is 0
    units: tuple[str, ...]  # the occupying unit ids then


@dataclass(frozen=True)
class Removal:
    """A unit in an off-map box (eliminated, exited) in the last state, and since when."""

    unit: str
    box: str
    index: int  # of the first state of its last unbroken stay in the box
    turn: int | None
    earliest: int | None
    last_hex: Hex | None  # the hex it left the map from, as a log shows it; None when none does
    last_label: str | None
    last_turn: int | None  # the turn the log shows it leaving


@dataclass(frozen=True)
class Declaration:
    """A withdrawal (or any marker-declared event): the turn the marker's box names, and the
    first state that shows it."""

    marker: str
    turn: int
    index: int


@dataclass(frozen=True)
class Stay:
    """One unbroken stay of a marker in a box: the first state showing it and that state's turn."""

    marker: str
    box: str
    index: int
    turn: int | None
    earliest: int | None


class History:
    """The states of one game, oldest first, with their turns.

    `turns` gives the turn of each state when the states carry none (the CLI numbers files in
    the order given); by default each state's own turn, which may be None.
    """

    def __init__(self, states: Sequence[GameState], turns: Sequence[int | None] | None = None) -> None:
        if not states:
            raise ValueError("a history needs at least one state")
        if turns is not None and len(turns) != len(states):
            raise ValueError(f"{len(turns)} turns for {len(states)} states")
        self.states: tuple[GameState, ...] = tuple(states)
        self.turns: tuple[int | None, ...] = tuple(turns) if turns is not None else tuple(s.turn for s in states)
        # Every departure a state's history showed, once, with the first state that shows it.
        seen: dict[Departure, int] = {}
        for i, state in enumerate(self.states):
            for d in state.departures:
                seen.setdefault(d, i)
        self.departures: tuple[tuple[Departure, int], ...] = tuple(seen.items())

    @property
    def single(self) -> bool:
        return len(self.states) == 1

    @property
    def last(self) -> GameState:
        return self.states[-1]

    @property
    def last_turn(self) -> int | None:
        return self.turns[-1]

    def _earliest(self, index: int) -> int | None:
        return self.turns[index - 1] if index > 0 else None

    def upto(self, index: int) -> History:
        """The history as it stood at state `index` (the states up to and including it)."""
        return History(self.states[: index + 1], self.turns[: index + 1])

    def first_entry(self, side: str, hexes: Sequence[Hex], picks: Callable[[Unit], bool] | None = None) -> Entry | None:
        """The first state in which a unit of `side` (and `picks`, when given) is in any of
        `hexes` (a town may span several); None when no state shows it."""
        for i, state in enumerate(self.states):
            for h in hexes:
                units = tuple(u.id for u in state.units_at(h) if u.side == side and (picks is None or picks(u)))
                if units:
                    return Entry(side, h, i, self.turns[i], self._earliest(i), units)
        return None

    def last_occupier(self, hexes: Sequence[Hex], picks: Callable[[Unit], bool] | None = None) -> Entry | None:
        """The latest state in which units (those `picks` takes, when given) occupy any of
        `hexes`, as an `Entry` of the side found there: the side occupying the place in the
        last state, else the last side seen there. None when no state shows anyone there, and
        None too when units of two sides share it (a state the rules should not reach).
        Between two states the place may have changed hands unseen: `earliest` says since when."""
        for i in range(len(self.states) - 1, -1, -1):
            found = [(h, u) for h in hexes for u in self.states[i].units_at(h) if picks is None or picks(u)]
            if found:
                sides = {u.side for _, u in found}
                if len(sides) != 1:
                    return None
                return Entry(
                    sides.pop(), found[0][0], i, self.turns[i], self._earliest(i), tuple(u.id for _, u in found)
                )
        return None

    def stays(self, marker: str, box: str) -> tuple[Stay, ...]:
        """Each unbroken stay of a piece called `marker` in a box whose name matches `box` (a
        regular expression), oldest first. An event used once per game and marked by moving its
        marker to a box shows one stay; two stays mean it was used twice (or put back and
        used again), which the states show only when a state between them shows it out."""
        pattern = re.compile(box)
        out: list[Stay] = []
        inside = False
        for i, state in enumerate(self.states):
            here = any(pattern.fullmatch(p.box or "") for p in state.marker(marker))
            if here and not inside:
                out.append(Stay(marker, box, i, self.turns[i], self._earliest(i)))
            inside = here
        return tuple(out)

    def removal_of(self, unit: str, box: str) -> Removal | None:
        """When `unit` went into `box` (the turn of its elimination, for the box of eliminated
        units): its `Removal`, or None when it is not in the box in the last state."""
        return next((r for r in self.removals(box) if r.unit == unit), None)

    def removals(self, box: str) -> tuple[Removal, ...]:
        """The units in `box` in the last state, each dated by its last arrival there, in
        state order then unit id."""
        out = []
        for uid, pos in self.last.positions.items():
            if pos.box != box:
                continue
            i = len(self.states) - 1
            while i > 0 and self._box(i - 1, uid) == box:
                i -= 1
            # The departure that began this stay: the latest one into the box shown by then.
            left = next(
                (
                    d
                    for d, j in reversed(self.departures)
                    if d.unit == uid and j <= i and d.box.strip().casefold() == box.strip().casefold()
                ),
                None,
            )
            dated = left is not None and left.turn is not None  # a log shows when, not only since when
            out.append(
                Removal(
                    uid,
                    box,
                    i,
                    left.turn if dated else self.turns[i],
                    left.turn if dated else self._earliest(i),
                    left.hex if left else None,
                    left.label if left else None,
                    left.turn if left else None,
                )
            )
        return tuple(sorted(out, key=lambda r: (r.index, r.unit)))

    def _box(self, index: int, uid: str) -> str | None:
        p = self.states[index].positions.get(uid)
        return p.box if p is not None else None

    def declarations(self, marker: str, turn_box: str, turn_kind: str = "") -> tuple[Declaration, ...]:
        """Every turn a piece called `marker` is shown declaring, in a box whose name matches
        `turn_box` (a regular expression whose first group is the turn, e.g. ``Turn (\\d+)``) or,
        with `turn_kind`, in a box the pack's [boxes] name of that kind (its number is the turn),
        each with the first state that shows it; () when no state shows one (the marker anywhere
        else means: not declared). More than one turn is a second declaration."""
        pattern = re.compile(turn_box)
        found: dict[int, Declaration] = {}
        for i, state in enumerate(self.states):
            for pos in state.marker(marker):
                if turn_kind:
                    turn = pos.numbered(turn_kind)
                else:
                    m = pattern.fullmatch(pos.box or "")
                    turn = parse_int(m.group(1)) if m is not None else None
                if turn is not None and turn not in found:
                    found[turn] = Declaration(marker, turn, i)
        return tuple(found.values())

    def declared(self, marker: str, turn_box: str, turn_kind: str = "") -> Declaration | None:
        """The first declaration (`declarations`); None when there is none."""
        return next(iter(self.declarations(marker, turn_box, turn_kind)), None)

    def has_marker(self, marker: str) -> bool:
        """Whether any state has a piece called `marker` at all (so "not declared" is seen,
        not assumed)."""
        return any(state.marker(marker) for state in self.states)

    def index_for_turn(self, turn: int) -> int | None:
        """The state that best shows the end of `turn`: the last state of that turn, else
        the first later one; None when every state is earlier (or turns are unknown)."""
        same = [i for i, t in enumerate(self.turns) if t == turn]
        if same:
            return same[-1]
        later = [i for i, t in enumerate(self.turns) if t is not None and t > turn]
        return later[0] if later else None

    def seen_on_map(self, side: str, by_turn: int) -> frozenset[str] | None:
        """The units of `side` on the map in any state of turn `by_turn` or earlier (19.3:
        units "still in play" at a withdrawal); None when no state is that early."""
        found: set[str] = set()
        early = False
        for state, t in zip(self.states, self.turns, strict=True):
            if t is None or t > by_turn:
                continue
            early = True
            found.update(
                uid for uid, p in state.positions.items() if p.hex is not None and state.units[uid].side == side
            )
        return frozenset(found) if early else None
