"""Victory as conditions: what a side holds, has in a box, has lost or has exited, judged over
a game's history (RULES-MAP N16). Pure: a `History` in, `Result`s out; victory_conditions.py
reads the pack's parameters into these terms and reports them.

A `Term` is one thing the victory rules of a game count or ask:

- ``place``: a side controls a place at the end (`at = "end"`), entered it first
  (``"first-entry"``), or occupies it or was the last to occupy it (``"last-occupier"``).
  Control is the pack's `Control`: units its selector takes, with requirements such as
  ``"supplied"`` (seed 001 Campaign I: "a supplied combat unit is in it"). At the end, a
  place of several hexes counts the hexes held: `count` of them are needed (0 = all of them,
  seed 004 3.1 "occupy all Objectives"), and `per` says what scores: the place once
  (``"place"``), each hex held (``"hex"``) or each unit holding one (``"unit"``, seed 003
   Sc.2 "each unsuppressed Italian Unit in a Fortress hex").
- ``box``: units the selector takes in a box (seed 004 3.3: each enemy division in the
  Permanently Eliminated display).
- ``steps``: steps lost by units the selector takes: the steps of each in the box of eliminated
  units, and one step of each on the map that has the reduced flag (seed 003
  Sc.2: "1 victory point for each French step eliminated").
- ``exited``: units the selector takes that left the map into a box, from one of the `via`
  hexes when given (seed 001 Campaign I: "three units exit by a main road off the west
  side"). A save does not show where a unit left from: without a log such an exit cannot be
  counted, and the result says so.

- ``declared``: a marker put in a box that names a turn (a regular expression whose group 1 is
  the turn), first on a turn within `turns` when given (seed 003 Sc.4: "If the
  Withdrawal is taking place on June 7th or earlier, the game is an Axis victory").

A first entry may score only within a window: `turns` (either end open), closed too from the
turn an `Event` is declared (`closed_by`, seed 000 22.41.7: "on any Game-Turn preceding the
Axis Withdrawal"); an exit likewise counts only before it (22.43.1: "exited ... preceding an
Axis Withdrawal"). A valued term (`value`) reports each unit's value, so that a caller may
list the units one by one.

A `Result` carries the count, the points, whether the term is met (True, False, or None when
the files cannot tell) and what cannot be told.
"""

from __future__ import annotations

from collections.abc import Callable, Collection
from dataclasses import dataclass

from vassal_adj.model.geometry.hexes import Hex
from vassal_adj.model.state import GameState
from vassal_adj.model.units import Unit
from vassal_adj.rules.history import Entry, History
from vassal_adj.rules.mechanisms.victory_values import Label, UnitValue
from vassal_adj.rules.select import Selector

__all__ = ["Control", "Event", "Result", "Supplied", "Term", "evaluate"]

# The ids of the units of a side in supply in a state (victory_conditions.py builds it from
# the pack's supply parameters).
Supplied = Callable[[GameState, str], Collection[str]]


@dataclass(frozen=True)
class Control:
    """What controls a place: a unit of the side that the selector takes and that meets every
    requirement (``"supplied"``)."""

    units: Selector = Selector()
    requires: frozenset[str] = frozenset()


@dataclass(frozen=True)
class Event:
    """A marker put in a box naming a turn: a box matching `box` (group 1 the turn) or, with
    `kind`, a box of that [boxes] kind (History.declared)."""

    marker: str
    box: str = ""
    kind: str = ""


@dataclass(frozen=True)
class Term:
    """One condition or scoring item (the module doc lists the kinds). `count` is how many a
    condition needs (at least), or how many units make one award of `points` for ``exited``."""

    kind: str  # place, box, steps, exited, declared
    side: str  # the side it is for (who controls, who scores)
    name: str  # the place's or the term's name, for reports
    points: int = 0
    rule_ref: str = ""
    hexes: tuple[Hex, ...] = ()
    at: str = "end"  # place: end, first-entry, last-occupier
    units: Selector = Selector()
    box: str = ""
    via: frozenset[Hex] | None = None
    count: int = 1  # place: hexes needed, 0 = all
    per: str = "place"  # place at the end: place, hex, unit
    reduced_flag: str = "reduced"
    control: Control | None = None  # this term's own control, instead of the rule's
    turns: tuple[int | None, int | None] | None = None  # declared, place first-entry: its turns (None: open)
    closed_by: Event | None = None  # place first-entry, exited: nothing counts from the turn this is declared
    value: UnitValue | None = None  # box, exited: points per point of each unit's value, not per unit

    @property
    def needed(self) -> int:
        if self.kind == "place" and self.at != "end":
            return 1  # an entry or an occupier is one event, whatever the size of the place
        return len(self.hexes) if self.kind == "place" and self.count == 0 else self.count


@dataclass(frozen=True)
class Result:
    """What a term counted in a state: the amount, the words of the finding and what it is about."""

    term: Term
    amount: int  # places held (0/1), units or steps counted
    text: str
    units: tuple[str, ...] = ()
    hexes: tuple[str, ...] = ()
    unknown: str = ""  # what the files cannot tell; with it, a term not met may still be met
    settled: bool = True  # False: even a count that meets it may be wrong (an unseen later occupier)
    scored: int | None = None  # what the points multiply, when not the amount (place per unit)
    values: tuple[int, ...] = ()  # valued terms: each unit's value, in the order of `units`
    turn: int | None = None  # first-entry: the turn of the state that first shows it
    index: int | None = None  # first-entry: that state's position in the history

    @property
    def met(self) -> bool | None:
        if not self.settled:
            return None
        if self.amount >= self.term.needed:
            return True
        return None if self.unknown else False

    @property
    def points(self) -> int:
        t = self.term
        if t.value is not None:  # box, exited: `scored` is the units' value
            return t.points * (self.scored or 0)
        if t.kind == "exited":
            return t.points * (self.amount // t.count)
        if t.kind != "place":
            return t.points * self.amount
        if not self.met:
            return 0
        return t.points * {"place": 1, "hex": self.amount, "unit": self.scored or 0}[t.per]


def _who(units: Selector) -> str:
    """The units a term counts, as the victory reports have always named them ("Axis not hq units"):
    the flags before the noun, where `Selector.words` puts them after it."""
    parts = [" or ".join(sorted(s)) for s in (units.nationalities, units.sides, units.kinds, units.flags) if s]
    parts += [f"not {f}" for f in sorted(units.not_flags or ())]
    plain = Selector(**{k: getattr(units, k) for k in ("formations", "names", "boxes", "groups", "attrs")})
    return " ".join([*parts, plain.words()])


def evaluate(h: History, term: Term, control: Control, supplied: Supplied | None, label: Label) -> Result:
    """`term` over `h`, judged at its last state; `control` unless the term has its own."""
    if term.kind == "place":
        return _place(h, term, term.control or control, supplied, label)
    if term.kind == "box":
        ids = tuple(
            uid
            for uid, p in h.last.positions.items()
            if p.box == term.box and term.units.matches(h.last.units[uid], p.box)
        )
        text = f"{len(ids)} {_who(term.units)} in {term.box}"
        units = [h.last.units[i] for i in ids]
        return Result(
            term, len(ids), text + _valued(term, units), ids, scored=_worth(term, units), values=_values(term, units)
        )
    if term.kind == "steps":
        return _steps(h, term)
    if term.kind == "declared":
        return _declared(h, term)
    return _exited(h, term, label)


def _holders(state: GameState, term: Term, control: Control, supplied: Supplied | None, hx: Hex) -> tuple[str, ...]:
    ids = tuple(u.id for u in state.units_at(hx) if u.side == term.side and control.units.matches(u))
    if "supplied" in control.requires and ids:
        if supplied is None:  # the adapter refuses this configuration; a guard, never a guess
            raise ValueError(f"control of {term.name} requires supplied units, but no supply is given")
        ok = set(supplied(state, term.side))
        ids = tuple(i for i in ids if i in ok)
    return ids


def _place(h: History, term: Term, control: Control, supplied: Supplied | None, label: Label) -> Result:
    place = f"{term.name} ({label(term.hexes[0])})" if term.hexes else term.name
    who = f"{term.side} {_who(control.units)}" + (" in supply" if "supplied" in control.requires else "")
    if term.at == "end":
        held = {hx: ids for hx in term.hexes if (ids := _holders(h.last, term, control, supplied, hx))}
        turn = f" (turn {h.last_turn})" if h.last_turn is not None else ""
        units = tuple(i for ids in held.values() for i in ids)
        of = f"{len(held)} of the {len(term.hexes)} hexes of " if len(term.hexes) > 1 else ""
        text = (
            f"{term.side} controls {of}{place}{turn}"
            if held
            else f"{term.side} does not control {place}{turn}: no {who} there"
        )
        return Result(term, len(held), text, units, tuple(label(hx) for hx in held), scored=len(units))
    if term.at == "first-entry":
        e = h.first_entry(term.side, term.hexes, control.units.matches)
        if e is None:
            return Result(
                term,
                0,
                f"{term.side} has not entered {place}",
                unknown=f"no state given shows {who} in {place}; an entry between states cannot be seen",
            )
        text = f"{term.side} first entered {place} (state {e.index + 1}, turn {e.turn})"
        if term.turns is None and term.closed_by is None:
            return Result(term, 1, text, e.units, (label(e.hex),), turn=e.turn, index=e.index)
        return _in_window(h, term, e, text, label)
    last = h.last_occupier(term.hexes, lambda u: control.units.matches(u))
    if last is None:
        return Result(
            term,
            0,
            f"no one side is seen in {place}",
            unknown=f"no state given shows one side alone in {place} (nobody, or two sides at once): who "
            "occupied it last cannot be told",
        )
    held = last.index == len(h.states) - 1
    text = f"{last.side} {'occupies' if held else 'was the last seen to occupy'} {place}"
    unknown = (
        ""
        if held
        else (
            f"{place} is empty in the last state; the last state showing it occupied is "
            f"state {last.index + 1}: an occupation after it cannot be seen (give the game's logs)"
        )
    )
    return Result(term, int(last.side == term.side), text, last.units, (label(last.hex),), unknown, settled=held)


def _steps(h: History, term: Term) -> Result:
    units = h.last.units
    lost = [
        (uid, units[uid].steps)
        for uid, p in h.last.positions.items()
        if p.box == term.box and term.units.matches(units[uid], p.box)
    ]
    lost += [
        (uid, 1)
        for uid, p in h.last.positions.items()
        if p.hex is not None and term.units.matches(units[uid]) and units[uid].has(term.reduced_flag)
    ]
    n = sum(s for _, s in lost)
    return Result(
        term,
        n,
        f"{n} step(s) lost by {_who(term.units)} ({len(lost)} unit(s): eliminated, in "
        f"{term.box}, or {term.reduced_flag})",
        tuple(uid for uid, _ in lost),
    )


def _exited(h: History, term: Term, label: Label) -> Result:
    gone = [r for r in h.removals(term.box) if term.units.matches(h.last.units[r.unit])]
    if term.via is None:
        counted, unseen = gone, []
    else:
        counted = [r for r in gone if r.last_hex in term.via]
        unseen = [r for r in gone if r.last_hex is None]
    unknowns = (
        [
            f"{len(unseen)} more {_who(term.units)} in {term.box}: no log given shows the hex each left from "
            "(a save does not record it), so they are not counted"
        ]
        if unseen
        else []
    )
    before = ""
    if (ev := term.closed_by) is not None:  # only exits before the event count (seed 000 22.43.1)
        closed, missing = _closing(h, ev)
        undated = [r for r in counted if closed is not None and r.turn is None]
        counted = [r for r in counted if closed is None or (r.turn is not None and r.turn < closed)]
        before = f" before {ev.marker}"
        if undated:
            unknowns.append(f"{len(undated)} more exited on a turn not known: whether{before} cannot be told")
        if missing:
            unknowns.append(missing)
    text = f"{len(counted)} {_who(term.units)} exited into {term.box}" + (" by the given hexes" if term.via else "")
    text += before + _valued(term, [h.last.units[r.unit] for r in counted])
    unknown = "; ".join(unknowns)
    return Result(
        term,
        len(counted),
        text,
        tuple(r.unit for r in counted),
        tuple(label(r.last_hex) for r in counted if r.last_hex is not None),
        unknown,
        scored=_worth(term, [h.last.units[r.unit] for r in counted]),
        values=_values(term, [h.last.units[r.unit] for r in counted]),
    )


def _values(term: Term, units: list[Unit]) -> tuple[int, ...]:
    return tuple(term.value.of(u) for u in units) if term.value is not None else ()


def _worth(term: Term, units: list[Unit]) -> int | None:
    return sum(term.value.of(u) for u in units) if term.value is not None else None


def _valued(term: Term, units: list[Unit]) -> str:
    """The value of the units counted, in words (", value 8 (5-3-12 (2/7) attack 5 + defense 3)")."""
    if term.value is None:
        return ""
    each = "; ".join(f"{u.name} {term.value.words(u)}" for u in units)
    return f", value {_worth(term, units)}" + (f" ({each})" if each else "")


def _declared(h: History, term: Term) -> Result:
    found = h.declarations(term.name, term.box)
    window = f" ({_turn_words(*term.turns)})" if term.turns else ""
    if not found:
        if h.has_marker(term.name):
            return Result(term, 0, f"{term.name} is not declared{window}")
        return Result(
            term,
            0,
            f"{term.name} is not declared{window}",
            unknown=f"no piece named {term.name!r} is in the state(s) given",
        )
    first = found[0]
    inside = _within(term.turns, first.turn)
    again = f"; again on turn(s) {', '.join(str(d.turn) for d in found[1:])}" if len(found) > 1 else ""
    return Result(term, int(inside), f"{term.name} declared on turn {first.turn}{window}{again}")


def _in_window(h: History, term: Term, e: Entry, text: str, label: Label) -> Result:
    """A first entry that scores only on a turn of its window. The entry is dated to the turn of
    the first state showing it; when an earlier state's turn leaves room for an entry on a turn
    on the other side of the window's edge, the files cannot tell which, and it is said."""
    ev = term.closed_by
    closed, missing = _closing(h, ev) if ev is not None else (None, "")

    def opens(t: int) -> bool:
        return _within(term.turns, t) and (closed is None or t < closed)

    when = f"declared on turn {closed}" if closed is not None else "not declared"
    window = " and ".join(
        w
        for w in (_turn_words(*(term.turns or (None, None))), f"the turns before {ev.marker} ({when})" if ev else "")
        if w
    )
    found = {"units": e.units, "hexes": (label(e.hex),), "turn": e.turn, "index": e.index}
    if e.turn is None:
        return Result(
            term, 0, f"{text}: its turn is unknown", **found, unknown=f"whether it was within {window} cannot be told"
        )
    inside = opens(e.turn)
    lo = e.earliest if e.earliest is not None else 1
    doubt = any(opens(t) != inside for t in range(min(lo, e.turn), e.turn + 1))
    since = (
        f"it was entered after the state of turn {e.earliest}"
        if e.earliest is not None
        else "on which turn it was first entered cannot be known from one state"
        if h.single
        else "the first state given shows it already, so it may have been entered earlier"
    )
    unknown = "; ".join(w for w in (f"{since}: counted as entered on turn {e.turn}" if doubt else "", missing) if w)
    words = f"{text}, {'within' if inside else 'outside'} {window}"
    return Result(term, int(inside), words, **found, unknown=unknown)


def _closing(h: History, ev: Event) -> tuple[int | None, str]:
    """The turn `ev` is first declared (None: not declared), and what cannot be told when no
    state has its marker at all (then it is counted as not declared)."""
    if (d := h.declared(ev.marker, ev.box, ev.kind)) is not None:
        return d.turn, ""
    if h.has_marker(ev.marker):
        return None, ""
    return None, f"no piece named {ev.marker!r} is in the state(s) given: counted as not declared"


def _within(turns: tuple[int | None, int | None] | None, t: int) -> bool:
    first, last = turns or (None, None)
    return (first is None or t >= first) and (last is None or t <= last)


def _turn_words(first: int | None, last: int | None) -> str:
    if first is not None and last is not None:
        return f"turns {first}-{last}"
    return f"on or before turn {last}" if last is not None else f"from turn {first}" if first is not None else ""
