"""The order of battle (RULES-MAP E6, E7): where the set-up puts each unit (`check_deployment`)
and when reinforcements may be in play (`check_schedule`). Pure: states and hexes in.

A printed unit ("2-1-14(1/1)") is the piece of that name, spacing ignored (`printed_key`).
A state's *moment* is its Game-Turn (0 for a set-up: no turn, no phase) and phase index.
What one state cannot show is said, never guessed: where a unit stood before it moved, the
hex it entered or exited by, and events that left no trace in the positions ("even if that
Axis unit no longer occupied the hex", 23). Entry hexes are not checked: that needs a log.

>>> from vassal_adj.model.units import Unit
>>> g = Group("2714", Hex.from_raw(26, 13), "adjacent", 1, ("2-1-14 (1/13)",))
>>> s = GameState({"a": Unit("a", "2-1-14(1/13)", "Allied", "armor", 14)},
...               {"a": Position(Hex.from_raw(26, 16), "2717")})
>>> [f.message for f in check_deployment(s, Deployment("Allied", (g,), rule_ref="23"), rule="k:23")]
['Allied 2-1-14 (1/13) in 2717 is not in or adjacent to 2714 [23 set-up]']
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import NamedTuple

from vassal_adj.model.geometry.hexes import Hex, distance, within
from vassal_adj.model.state import GameState, Position, TurnBoxes
from vassal_adj.rules.mechanisms.exits import at_or_east_of
from vassal_adj.rules.results import Finding, Severity

__all__ = ["DEFAULT_PHASES", "PLACEMENTS", "Deployment", "Entry", "Event", "Group", "Moment",
           "Schedule", "Seen", "check_deployment", "check_schedule", "entry_due", "moment", "observe", "printed_key"]

PLACEMENTS = ("exact", "adjacent", "within")
# 23.71: "The Axis Player is the First Player; his Player-Turn is first in each Game-Turn."
DEFAULT_PHASES = ("axis-movement", "axis-combat", "allied-movement", "allied-combat")

Label = Callable[[Hex], str]


def printed_key(name: str) -> str:
    """A piece or printed name reduced so that spacing does not matter: runs of whitespace
    collapse and none is kept next to the parentheses ("3-2-11    (31)" is "3-2-11(31)")."""
    return re.sub(r"\s*([()])\s*", r"\1", " ".join(name.split()))


def _by_name(state: GameState, side: str) -> dict[str, list[str]]:
    out: dict[str, list[str]] = {}
    for uid in (u for u, unit in state.units.items() if unit.side == side):
        out.setdefault(printed_key(state.units[uid].name), []).append(uid)
    return out


def _where(state: GameState, uid: str, label: Label) -> str:
    pos = state.positions.get(uid, Position())
    return (pos.label or label(pos.hex)) if pos.hex is not None else f"box {pos.box!r}" if pos.box else "nowhere known"


def _nearest(state: GameState, hexes: Iterable[Hex], side: str, *, enemy: bool = True
             ) -> tuple[int, str, Hex] | None:
    """The unit nearest to any of `hexes` (an enemy of `side`, or one of `side`): (distance, id, hex)."""
    targets, best = tuple(hexes), None
    for uid in sorted(state.units):
        h = state.hex_of(uid)
        if (state.units[uid].side != side) == enemy and h is not None and targets:
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


# -- set-up --------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Group:
    """Units the set-up places `at` a hex: exactly, "in or adjacent", or within `distance`."""

    at: str
    center: Hex
    placement: str
    distance: int
    units: tuple[str, ...]

    def hexes(self) -> frozenset[Hex]:
        radius = {"exact": 0, "adjacent": 1}.get(self.placement, self.distance)
        return frozenset(within(self.center, radius))

    def words(self) -> str:
        return {"exact": f"at {self.at}", "adjacent": f"in or adjacent to {self.at}"}.get(
            self.placement, f"on or within {self.distance} hexes of {self.at}")


@dataclass(frozen=True)
class Deployment:
    """A side's set-up. `frozen_turn` (23.72: 1; 0 for none) is the Game-Turn on which listed
    units may not move unless within `exempt_range` hexes of an enemy unit."""

    side: str
    groups: tuple[Group, ...]
    no_stacking: bool = True
    frozen_turn: int = 0
    exempt_range: int = 10
    frozen_rule: str = ""
    rule_ref: str = ""


def check_deployment(state: GameState, dep: Deployment, *, rule: str, label: Label = lambda h: str(h.raw())
                     ) -> list[Finding]:
    """Findings on a set-up state (no turn, no phase) and on the frozen turn; none otherwise.

    At set-up each listed unit must be on the map at its placement and no two may stack (23).
    On the frozen turn a unit away from its placement or off the map is an error of 23.72
    unless an enemy unit is within `exempt_range` of it or of its set-up area (where exactly
    it stood a state cannot show, so the area is given the benefit). A unit at a legal
    placement may still have moved within it: no state can tell.
    """
    setup, frozen = state.turn is None, dep.frozen_turn > 0 and state.turn == dep.frozen_turn
    if setup and state.phase is not None:
        return [Finding(rule, Severity.INFO, f"the state has phase {state.phase!r} but no Game-Turn: the "
                                             f"{dep.side} set-up [{dep.rule_ref}] is not checked")]
    if not (setup or frozen):
        return []
    frule, cite = dep.frozen_rule or dep.rule_ref, f"[{dep.rule_ref} set-up]"
    areas: dict[str, list[Group]] = {}
    for g in dep.groups:
        for name in g.units:
            areas.setdefault(printed_key(name), []).append(g)
    found = _by_name(state, dep.side)
    out: list[Finding] = []
    free: set[str] = set()  # may move on the frozen turn: an enemy is near
    for key, groups in areas.items():
        name, words = next(n for n in groups[0].units if printed_key(n) == key), " or ".join(g.words() for g in groups)
        area = frozenset().union(*(g.hexes() for g in groups))
        ids = found.get(key, [])
        if not ids:
            out.append(Finding(rule, Severity.WARNING, f"{dep.side} {name}, which the set-up places {words}, is not "
                                                       f"in the save {cite}", (), tuple(g.at for g in groups)))
        elif len(ids) > len(groups):
            out.append(Finding(rule, Severity.WARNING, f"{len(ids)} {dep.side} pieces are named {name}; the set-up "
                                                       f"lists {len(groups)} {cite}", tuple(ids)))
        for uid in ids:
            h, where = state.hex_of(uid), _where(state, uid, label)
            hexes = (where,) if h is not None else ()
            near = _nearest(state, area | ({h} if h is not None else set()), dep.side) if frozen else None
            if near is not None and near[0] <= dep.exempt_range:
                free.add(uid)
            if h in area:
                continue
            if setup:
                what = f"in {where} is not" if h is not None else f"is not on the map ({where}) but should be"
                out.append(Finding(rule, Severity.ERROR, f"{dep.side} {name} {what} {words} {cite}", (uid,), hexes))
            elif uid in free:
                assert near is not None
                enemy = state.units[near[1]]
                out.append(Finding(rule, Severity.INFO, f"{dep.side} {name} ({where}) is not {words} on Game-Turn "
                                                        f"{state.turn}, and may move: {enemy.side} {enemy.name} in "
                                                        f"{label(near[2])} is within {dep.exempt_range} hexes of it or "
                                                        f"of its set-up area [{frule}]", (uid,), hexes))
            else:
                out.append(Finding(rule, Severity.ERROR, f"{dep.side} {name} ({where}) is not {words} on Game-Turn "
                                                         f"{state.turn}: units of the initial deployment may not be "
                                                         f"moved unless within {dep.exempt_range} hexes of an enemy "
                                                         f"unit, and none is [{frule}]", (uid,), hexes))
    if dep.no_stacking:
        ours = {uid for key in areas for uid in found.get(key, [])}
        out += _stacks(state, dep.side, ours, free, frozen, rule, cite, label)
    return sorted(out, key=Finding.sort_key)


def _stacks(state: GameState, side: str, ours: set[str], free: set[str], frozen: bool, rule: str, cite: str,
            label: Label) -> list[Finding]:
    """Stacks holding a set-up unit ("Units may not be stacked", 23). On the frozen turn only
    stacks of set-up units none of which may have moved: any other stack may have formed in play."""
    out = []
    for h, ids in state.occupied().items():
        mine = [u for u in ids if state.units[u].side == side]
        if len(mine) < 2 or not ours.intersection(mine):
            continue
        if frozen and (not ours.issuperset(mine) or free.intersection(mine)):
            continue
        out.append(Finding(rule, Severity.ERROR, f"{side} {_names(state, mine)} are stacked in {label(h)}: units may "
                                                 f"not be stacked {cite}", tuple(mine), (label(h),)))
    return out


# -- reinforcements ------------------------------------------------------------------------------
@dataclass(frozen=True)
class Event:
    """How one state shows that an event has happened, or a condition holds. `kind` "marker":
    the `marker` piece in a box `box` matches ("Turn 5": on Game-Turn 5); "within": a unit of
    `side` within `distance` of one of `hexes` (`at` as written) now; "unknown": never shown."""

    name: str
    kind: str
    marker: str = ""
    box: TurnBoxes | None = None  # the boxes whose turn the marker's place gives
    side: str = ""
    at: tuple[str, ...] = ()
    hexes: tuple[Hex, ...] = ()
    distance: int = 0
    reason: str = ""

    def within(self, state: GameState, label: Label) -> str | None:
        """For "within": the unit that makes it hold now, in words (None when none does)."""
        hit = _nearest(state, self.hexes, self.side, enemy=False)
        return None if hit is None or hit[0] > self.distance else (
            f"{self.side} {state.units[hit[1]].name} in {label(hit[2])} is within {self.distance} hexes of "
            f"{' or '.join(self.at)}")


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
        return Seen("yes", None, now) if now else Seen(
            "unknown", None, f"no {event.side} unit is within {event.distance} hexes of {' or '.join(event.at)} now, "
                             "and whether one has been a single save cannot show")
    return Seen("unknown", None, event.reason)


@dataclass(frozen=True)
class Entry:
    """One line of a reinforcement list: `units` entering at one of `at` (as written; `hexes`
    on the board) on Game-Turn `turn` (to `otherwise_turn`: any of them), or on `otherwise_turn` unless the
    "within" event `condition` holds, or `turns_after` Game-Turns after the event `after` (0: in its turn)."""

    units: tuple[str, ...]
    at: tuple[str, ...]
    hexes: tuple[Hex, ...]
    turn: int | None = None
    otherwise_turn: int | None = None
    condition: Event | None = None
    after: Event | None = None
    turns_after: int = 0

    def words(self) -> str:
        if self.after is not None:
            return (f"{self.turns_after} Game-Turn(s) after event {self.after.name!r}" if self.turns_after
                    else f"in the Game-Turn of event {self.after.name!r}")
        if self.condition is not None:
            c = self.condition
            return (f"on Game-Turn {self.turn} if any {c.side} unit is within {c.distance} hexes of "
                    f"{' or '.join(c.at)}, otherwise on Game-Turn {self.otherwise_turn}")
        return f"on Game-Turn {self.turn}" + (f" to {self.otherwise_turn}" if self.otherwise_turn else "")


@dataclass(frozen=True)
class Schedule:
    """A side's reinforcements. Units wait off the map in a box `turn_box` matches or one of
    `waiting_boxes`; in `played_boxes` (eliminated, exited) they have been on the map. With
    `void_east`, entries at a hex the enemy exited by, or east of it (exits.at_or_east_of, the
    reading 17.15 uses too), are no longer available: the exits a log recorded (the state's
    departures) and `exit_hexes`, those a referee gives. Boxes are casefolded."""

    side: str
    entries: tuple[Entry, ...]
    movement_phase: str
    phases: tuple[str, ...] = DEFAULT_PHASES
    turn_box: TurnBoxes = field(default_factory=lambda: TurnBoxes(re.compile(r"Turn (\d+)")))
    waiting_boxes: frozenset[str] = frozenset()
    played_boxes: frozenset[str] = frozenset()
    exited_box: str = "exited"
    void_east: bool = False
    exit_hexes: tuple[Hex, ...] = ()
    rule_ref: str = ""
    phase_rule: str = ""

    def waiting(self, pos: Position) -> bool | None:
        """False: in play (on the map or a played box); True: waiting; None: elsewhere."""
        box = (pos.box or "").strip()
        if pos.hex is not None or box.casefold() in self.played_boxes:
            return False
        return True if box.casefold() in self.waiting_boxes or self.turn_box.turn(pos) is not None else None


def entry_due(e: Entry, state: GameState, when: Moment, move: int, label: Label) -> tuple[int | None, int | None, str, str]:
    """The earliest and latest Game-Turn `e` may enter, why, and what is known of its event:
    "" (no event, or dated), "undated" (happened, when unknown), "no", "unknown"."""
    if e.after is not None:
        seen = observe(e.after, state, when, label)
        due = None if seen.turn is None else seen.turn + e.turns_after
        return due, due, seen.why, "" if due is not None else "undated" if seen.status == "yes" else seen.status
    c = e.condition
    if c is None or e.otherwise_turn is None:  # a fixed turn, or a window of turns (`turns = [a, b]`)
        return e.turn, e.otherwise_turn or e.turn, "", ""
    holds = c.within(state, label)
    now = holds or f"no {c.side} unit is within {c.distance} hexes of {' or '.join(c.at)}"
    # Until the entering side has moved, the other side stands where the Game-Turn began.
    if when.turn == e.turn and when.phase is not None and when.phase <= move:
        due = e.turn if holds else e.otherwise_turn
        return due, due, now, ""
    return e.turn, e.otherwise_turn, f"{now} now, but it is judged as Game-Turn {e.turn} begins, not shown here", ""


def check_schedule(state: GameState, sch: Schedule, *, rule: str, label: Label) -> list[Finding]:
    """Reinforcements in play before they may be (errors) and still waiting after they could
    have entered (info: late or held back); what one state cannot tell is said as info."""
    when, ref = moment(state, sch.phases), f"[{sch.rule_ref}]"
    if when.turn is None:
        return [Finding(rule, Severity.INFO, f"the state has phase {state.phase!r} but no Game-Turn: the {sch.side} "
                                             f"reinforcement schedule {ref} is not checked")]
    move, found = sch.phases.index(sch.movement_phase), _by_name(state, sch.side)
    at = "at set-up" if when.turn == 0 else f"on Game-Turn {when.turn}"
    exits, out = _exits(state, sch, rule)
    absent: list[str] = []
    for e in sch.entries:
        lo, hi, why, seen = entry_due(e, state, when, move, label)
        got = [(name, found.get(printed_key(name), [])) for name in e.units]
        absent += [name for name, ids in got if not ids]
        place = {u: sch.waiting(state.positions.get(u, Position())) for _, ids in got for u in ids}
        waiting, unsure = [u for u, w in place.items() if w], []
        for uid in (u for u, w in place.items() if w is False):
            where = _where(state, uid, label)
            who, hexes = f"{sch.side} {state.units[uid].name} ({where})", (where,) if state.hex_of(uid) else ()
            detail, problem = f" ({why})" if why and lo == hi else "", ""
            if seen == "no":
                problem = f"is in play {at}, but it enters {e.words()} and {why} {ref}"
            elif lo is not None and when.turn < lo:
                problem = f"is in play {at}: it arrived early; it enters {e.words()}{detail} {ref}"
            elif lo is not None and when.turn == lo and when.phase is not None and when.phase < move:
                problem = (f"is in play in the {sch.phases[when.phase]} phase of Game-Turn {lo}, before the "
                           f"{sch.movement_phase} phase it enters in [{sch.phase_rule or sch.rule_ref}]")
            elif seen == "unknown" or (seen == "undated" and e.turns_after) or (why and hi and when.turn < hi):
                unsure.append(uid)
            if problem:
                out.append(Finding(rule, Severity.ERROR, f"{who} {problem}", (uid,), hexes))
        if unsure:
            out.append(Finding(rule, Severity.INFO, f"whether {sch.side} {_names(state, unsure)} may be in play {at} "
                                                    f"one save cannot tell: it enters {e.words()}; {why} {ref}",
                               tuple(unsure)))
        names = _names(state, waiting)
        voided = [next((x for x in exits if at_or_east_of(h, x)), None) for h in e.hexes]
        if waiting and all(x is not None for x in voided):
            by = " or ".join(dict.fromkeys(label(x) for x in voided if x is not None))
            out.append(Finding(rule, Severity.INFO, f"{sch.side} {names} (entering at {' or '.join(e.at)}) are no "
                                                    f"longer available: an enemy unit exited the map at {by}, and "
                                                    f"they enter at that hex or east of it {ref}", tuple(waiting), e.at))
        elif waiting and hi is not None and when.after(hi, move):
            out.append(Finding(rule, Severity.INFO, f"{sch.side} {names} still off the map after the "
                                                    f"{sch.movement_phase} phase of Game-Turn {hi}: late or held back "
                                                    f"(it enters {e.words()}) {ref}", tuple(waiting)))
    if absent:
        more = f" and {len(absent) - 6} more" if len(absent) > 6 else ""
        out.append(Finding(rule, Severity.INFO, f"{len(absent)} {sch.side} units of the schedule are not in the save, "
                                                f"so not checked: {', '.join(absent[:6])}{more} {ref}"))
    return sorted(out, key=Finding.sort_key)


def _names(state: GameState, ids: Iterable[str]) -> str:
    return ", ".join(state.units[u].name for u in ids)


def _exits(state: GameState, sch: Schedule, rule: str) -> tuple[tuple[Hex, ...], list[Finding]]:
    """The hexes enemy units exited the map from (a log's departures, a referee's `exit_hexes`),
    and a note for the exited enemy units no file shows leaving."""
    if not sch.void_east:
        return (), []
    known, gone = state.exits(sch.exited_box, {u.side for u in state.units.values()} - {sch.side})
    note = [Finding(rule, Severity.INFO, f"{len(gone)} enemy units are in the exited box, but no log given shows the "
                                         f"hexes they left by (a save does not record them): which {sch.side} "
                                         f"reinforcements entering at or east of such a hex are no longer available "
                                         f"is not checked for them (a referee may give them as `exit_hexes`) "
                                         f"[{sch.rule_ref}]", tuple(gone))] if gone and not sch.exit_hexes else []
    return (*dict.fromkeys(d.hex for d in known), *sch.exit_hexes), note
