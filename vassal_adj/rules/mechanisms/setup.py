"""The reinforcement schedule (RULES-MAP E7, N12): when reinforcements may be in play
(rules/mechanisms/reinforcement_check.py), and what the set-up and the schedule share (`printed_key`, `moment`, the
events a save shows). The set-up itself is rules/mechanisms/setup_deploy.py. Pure: states and
hexes in.

A printed unit ("2-1-14(1/1)") is the piece of that name, spacing ignored (`printed_key`).
A state's *moment* is its Game-Turn (0 for a set-up: no turn, no phase) and phase index.
What one state cannot show is said, never guessed: where a unit stood before it moved, the
hex it entered or exited by, and events that left no trace in the positions ("even if that
Axis unit no longer occupied the hex", 23). Entry hexes are not checked: that needs a log.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import NamedTuple, Protocol

from vassal_adj.model.geometry.hexes import Hex, distance
from vassal_adj.model.state import GameState, Position, TurnBoxes
from vassal_adj.model.units import Unit

__all__ = [
    "DEFAULT_PHASES",
    "Entry",
    "Event",
    "Label",
    "Moment",
    "Pick",
    "Seen",
    "by_name",
    "entry_due",
    "moment",
    "nearest",
    "observe",
    "place_words",
    "printed_key",
    "unit_names",
]

# 23.71: "The Axis Player is the First Player; his Player-Turn is first in each Game-Turn."
DEFAULT_PHASES = ("axis-movement", "axis-combat", "allied-movement", "allied-combat")

Label = Callable[[Hex], str]


class Pick(Protocol):
    """The units a rule picks: a unit selector (rules/select.py, which reads `printed_key` here)."""

    def matches(self, unit: Unit, box: str | None = None) -> bool: ...

    def words(self) -> str: ...


def printed_key(name: str) -> str:
    """A piece or printed name reduced so that spacing does not matter: runs of whitespace
    collapse and none is kept next to the parentheses ("3-2-11    (31)" is "3-2-11(31)")."""
    return re.sub(r"\s*([()])\s*", r"\1", " ".join(name.split()))


def by_name(state: GameState, side: str) -> dict[str, list[str]]:
    out: dict[str, list[str]] = {}
    for uid in (u for u, unit in state.units.items() if unit.side == side):
        out.setdefault(printed_key(state.units[uid].name), []).append(uid)
    return out


def place_words(state: GameState, uid: str, label: Label) -> str:
    pos = state.positions.get(uid, Position())
    return (pos.label or label(pos.hex)) if pos.hex is not None else f"box {pos.box!r}" if pos.box else "nowhere known"


def nearest(
    state: GameState, hexes: Iterable[Hex], side: str, *, enemy: bool = True, pick: Pick | None = None
) -> tuple[int, str, Hex] | None:
    """The unit nearest to any of `hexes` (an enemy of `side`, or one of `side`; of those `pick`
    picks, when given): (distance, id, hex)."""
    targets, best = tuple(hexes), None
    for uid in sorted(state.units):
        h = state.hex_of(uid)
        if (
            (state.units[uid].side != side) == enemy
            and h is not None
            and targets
            and (pick is None or pick.matches(state.units[uid]))
        ):
            d = min(distance(h, t) for t in targets)
            best = (d, uid, h) if best is None or d < best[0] else best
    return best


class Moment(NamedTuple):
    """Where a state lies: Game-Turn (0 = set-up) and phase index; None where unknown."""

    turn: int | None
    phase: int | None

    def after(self, turn: int, phase: int) -> bool | None:
        """Strictly after `phase` of `turn` (None when the state's moment cannot say)."""
        if self.turn is None or (self.turn == turn and self.phase is None):
            return None
        return self.turn > turn if self.turn != turn or self.phase is None else self.phase > phase


def moment(state: GameState, phases: tuple[str, ...] = DEFAULT_PHASES) -> Moment:
    """The state's moment; a state with neither turn nor phase is the set-up (turn 0)."""
    if state.turn is None:
        return Moment(0 if state.phase is None else None, None)
    return Moment(state.turn, phases.index(state.phase) if state.phase in phases else None)


# -- reinforcements ------------------------------------------------------------------------------
@dataclass(frozen=True)
class Event:
    """How one state shows that an event has happened, or a condition holds. `kind` "marker":
    the `marker` piece in a box `box` matches ("Turn 5": on Game-Turn 5); "within": a unit of
    `side` within `distance` of one of `hexes` (`at` as written, a region too) now, only the
    `units` a selector picks counting when given (seed 004 7.1.1: "Allied ground units");
    "unknown": never shown."""

    name: str
    kind: str
    marker: str = ""
    box: TurnBoxes | None = None  # the boxes whose turn the marker's place gives
    side: str = ""
    at: tuple[str, ...] = ()
    hexes: tuple[Hex, ...] = ()
    distance: int = 0
    reason: str = ""
    units: Pick | None = None

    def who(self) -> str:
        """The units whose place makes it hold, in words ("Allied unit", "Allied unit (ground units)")."""
        return f"{self.side} unit" + (f" ({self.units.words()})" if self.units is not None else "")

    def within(self, state: GameState, label: Label) -> str | None:
        """For "within": the unit that makes it hold now, in words (None when none does)."""
        hit = nearest(state, self.hexes, self.side, enemy=False, pick=self.units)
        return (
            None
            if hit is None or hit[0] > self.distance
            else (
                f"{self.side} {state.units[hit[1]].name} in {label(hit[2])} is within {self.distance} hexes of "
                f"{' or '.join(self.at)}"
            )
        )


class Seen(NamedTuple):
    """What a state shows of an event: "yes", "no" or "unknown", its Game-Turn if known, why."""

    status: str
    turn: int | None
    why: str


def observe(event: Event, state: GameState, when: Moment, label: Label) -> Seen:
    """What `state` shows of `event`. Before Game-Turn 1 nothing has happened."""
    if when.turn == 0:
        return Seen("no", None, "the game has not begun")
    if event.kind == "marker" and event.box is not None:
        places = state.marker(event.marker)
        if not places:
            return Seen("unknown", None, f"the save has no {event.marker!r} marker")
        turns = sorted(t for p in places if (t := event.box.turn(p)) is not None)
        if turns:
            return Seen("yes", turns[0], f"the {event.marker!r} marker is in the box of Game-Turn {turns[0]}")
        where = ", ".join(p.label or (f"box {p.box!r}" if p.box else "nowhere known") for p in places)
        return Seen("no", None, f"the {event.marker!r} marker is in no Game-Turn box ({where})")
    if event.kind == "within":
        now = event.within(state, label)
        return (
            Seen("yes", None, now)
            if now
            else Seen(
                "unknown",
                None,
                f"no {event.who()} is within {event.distance} hexes of {' or '.join(event.at)} now, "
                "and whether one has been a single save cannot show",
            )
        )
    return Seen("unknown", None, event.reason)


@dataclass(frozen=True)
class Entry:
    """One line of a reinforcement list: `units` entering at one of `at` (as written; `hexes`
    on the board, `boxes` the off-map boxes they may arrive in instead) on Game-Turn `turn` (to
    `otherwise_turn`: any of them), or on `otherwise_turn` unless the "within" event `condition`
    holds, or `turns_after` Game-Turns after the event `after` (0: in its turn).

    RULES-MAP N12: `pick` picks the units instead of names (a selector); `turn_from` reads each
    unit's own turn ("attr:<name>", "box": rules/mechanisms/reinforcement_units.py makes one
    entry per unit of it); `repeatable`: the units may enter on every Game-Turn of the window
    (`otherwise_turn` None: from `turn` on), again after leaving play; `said`: the turns as the
    pack wrote them, when labels ("May 27 0900")."""

    units: tuple[str, ...]
    at: tuple[str, ...]
    hexes: tuple[Hex, ...]
    turn: int | None = None
    otherwise_turn: int | None = None
    condition: Event | None = None
    after: Event | None = None
    turns_after: int = 0
    boxes: frozenset[str] = frozenset()
    pick: Pick | None = None
    turn_from: str = ""
    repeatable: bool = False
    said: str = ""
    holding: Pick | None = None  # an entry hex counts only while a friendly unit it picks is there

    def arrived_in(self, pos: Position) -> bool:
        """Whether `pos` is one of the entry's arrival boxes, by its name or its [boxes] kind."""
        box = (pos.box or "").strip().casefold()
        return bool(box) and (box in self.boxes or (pos.named is not None and pos.named.kind.casefold() in self.boxes))

    def words(self) -> str:
        if self.turn_from:
            return f"on the Game-Turn its {self.turn_from.removeprefix('attr:')} gives"
        if self.after is not None:
            return (
                f"{self.turns_after} Game-Turn(s) after event {self.after.name!r}"
                if self.turns_after
                else f"in the Game-Turn of event {self.after.name!r}"
            )
        if self.condition is not None:
            c = self.condition
            return (
                f"on Game-Turn {self.turn} if any {c.side} unit is within {c.distance} hexes of "
                f"{' or '.join(c.at)}, otherwise on Game-Turn {self.otherwise_turn}"
            )
        said = f" ({self.said})" if self.said else ""
        if self.repeatable:
            until = f" to {self.otherwise_turn}" if self.otherwise_turn else " on"
            return f"on any Game-Turn from {self.turn}{until}{said}, again after leaving play"
        return f"on Game-Turn {self.turn}" + (f" to {self.otherwise_turn}" if self.otherwise_turn else "") + said


def entry_due(
    e: Entry, state: GameState, when: Moment, move: int, label: Label
) -> tuple[int | None, int | None, str, str]:
    """The earliest and latest Game-Turn `e` may enter, why, and what is known of its event:
    "" (no event, or dated), "undated" (happened, when unknown), "no", "unknown"."""
    if e.after is not None:
        seen = observe(e.after, state, when, label)
        due = None if seen.turn is None else seen.turn + e.turns_after
        return due, due, seen.why, "" if due is not None else "undated" if seen.status == "yes" else seen.status
    if e.turn is None:  # each unit's own turn (`turn_from`), which only its unit shows
        return None, None, f"its turn is read from its {e.turn_from.removeprefix('attr:')}, not known here", "unknown"
    c = e.condition
    if c is None or e.otherwise_turn is None:  # a fixed turn, or a window of turns (`turns = [a, b]`)
        return e.turn, e.otherwise_turn or (None if e.repeatable else e.turn), "", ""
    holds = c.within(state, label)
    now = holds or f"no {c.side} unit is within {c.distance} hexes of {' or '.join(c.at)}"
    # Until the entering side has moved, the other side stands where the Game-Turn began.
    if when.turn == e.turn and when.phase is not None and when.phase <= move:
        due = e.turn if holds else e.otherwise_turn
        return due, due, now, ""
    return e.turn, e.otherwise_turn, f"{now} now, but it is judged as Game-Turn {e.turn} begins, not shown here", ""


def unit_names(state: GameState, ids: Iterable[str]) -> str:
    return ", ".join(state.units[u].name for u in ids)
