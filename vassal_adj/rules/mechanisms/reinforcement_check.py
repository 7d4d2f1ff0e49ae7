"""The reinforcement schedule judged on one state (RULES-MAP E7, N12): reinforcements in play
before they may be, still waiting after they could have entered, and entries voided by the
enemy's exits (23). Entries are read by rules/mechanisms/reinforcement_entries.py; when each
may enter is `setup.entry_due`, which `verify` shares. Pure.

>>> from vassal_adj.model.units import Unit
>>> e = Entry(("2-2-11 (10)",), ("3918",), (), turn=4)
>>> s = GameState({"a": Unit("a", "2-2-11(10)", "Axis", "infantry", 11)},
...               {"a": Position(Hex.from_raw(39, 18), "3918")}, 2)
>>> [f.message for f in check_schedule(s, Schedule("Axis", (e,), "axis-movement", rule_ref="23"), rule="k:23",
...                                    label=str)]
['Axis 2-2-11(10) (3918) is in play on Game-Turn 2: it arrived early; it enters on Game-Turn 4 [23]']
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from vassal_adj.model.geometry.hexes import Hex
from vassal_adj.model.state import GameState, Position, TurnBoxes
from vassal_adj.rules.mechanisms.exits import at_or_east_of
from vassal_adj.rules.mechanisms.setup import (
    DEFAULT_PHASES,
    Entry,
    Label,
    by_name,
    entry_due,
    moment,
    place_words,
    printed_key,
    unit_names,
)
from vassal_adj.rules.results import Finding, Severity

__all__ = ["Schedule", "check_schedule"]


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


def check_schedule(state: GameState, sch: Schedule, *, rule: str, label: Label) -> list[Finding]:
    """Reinforcements in play before they may be (errors) and still waiting after they could
    have entered (info: late or held back); what one state cannot tell is said as info."""
    when, ref = moment(state, sch.phases), f"[{sch.rule_ref}]"
    if when.turn is None:
        return [
            Finding(
                rule,
                Severity.INFO,
                f"the state has phase {state.phase!r} but no Game-Turn: the {sch.side} "
                f"reinforcement schedule {ref} is not checked",
            )
        ]
    move, found = sch.phases.index(sch.movement_phase), by_name(state, sch.side)
    at = "at set-up" if when.turn == 0 else f"on Game-Turn {when.turn}"
    exits, out = _exits(state, sch, rule)
    absent: list[str] = []
    for e in sch.entries:
        lo, hi, why, seen = entry_due(e, state, when, move, label)
        got = [(name, found.get(printed_key(name), [])) for name in e.units]
        absent += [name for name, ids in got if not ids]
        spots = {u: state.positions.get(u, Position()) for _, ids in got for u in ids}
        place = {u: False if e.arrived_in(p) else sch.waiting(p) for u, p in spots.items()}
        waiting, unsure = [u for u, w in place.items() if w], []
        for uid in (u for u, w in place.items() if w is False):
            where = place_words(state, uid, label)
            who, hexes = f"{sch.side} {state.units[uid].name} ({where})", (where,) if state.hex_of(uid) else ()
            detail, problem = f" ({why})" if why and lo == hi else "", ""
            if seen == "no":
                problem = f"is in play {at}, but it enters {e.words()} and {why} {ref}"
            elif lo is not None and when.turn < lo:
                problem = f"is in play {at}: it arrived early; it enters {e.words()}{detail} {ref}"
            elif lo is not None and when.turn == lo and when.phase is not None and when.phase < move:
                problem = (
                    f"is in play in the {sch.phases[when.phase]} phase of Game-Turn {lo}, before the "
                    f"{sch.movement_phase} phase it enters in [{sch.phase_rule or sch.rule_ref}]"
                )
            elif seen == "unknown" or (seen == "undated" and e.turns_after) or (why and hi and when.turn < hi):
                unsure.append(uid)
            if problem:
                out.append(Finding(rule, Severity.ERROR, f"{who} {problem}", (uid,), hexes))
        if unsure:
            out.append(
                Finding(
                    rule,
                    Severity.INFO,
                    f"whether {sch.side} {unit_names(state, unsure)} may be in play "
                    f"{at} one save cannot tell: it enters {e.words()}; {why} {ref}",
                    tuple(unsure),
                )
            )
        names = unit_names(state, waiting)
        voided = [next((x for x in exits if at_or_east_of(h, x)), None) for h in e.hexes]
        if waiting and e.hexes and not e.boxes and all(x is not None for x in voided):
            by = " or ".join(dict.fromkeys(label(x) for x in voided if x is not None))
            out.append(
                Finding(
                    rule,
                    Severity.INFO,
                    f"{sch.side} {names} (entering at {' or '.join(e.at)}) are no "
                    f"longer available: an enemy unit exited the map at {by}, and "
                    f"they enter at that hex or east of it {ref}",
                    tuple(waiting),
                    e.at,
                )
            )
        elif waiting and hi is not None and when.after(hi, move):
            out.append(
                Finding(
                    rule,
                    Severity.INFO,
                    f"{sch.side} {names} still off the map after the "
                    f"{sch.movement_phase} phase of Game-Turn {hi}: late or held back "
                    f"(it enters {e.words()}) {ref}",
                    tuple(waiting),
                )
            )
    if absent:
        more = f" and {len(absent) - 6} more" if len(absent) > 6 else ""
        out.append(
            Finding(
                rule,
                Severity.INFO,
                f"{len(absent)} {sch.side} units of the schedule are not in the save, "
                f"so not checked: {', '.join(absent[:6])}{more} {ref}",
            )
        )
    return sorted(out, key=Finding.sort_key)


def _exits(state: GameState, sch: Schedule, rule: str) -> tuple[tuple[Hex, ...], list[Finding]]:
    """The hexes enemy units exited the map from (a log's departures, a referee's `exit_hexes`),
    and a note for the exited enemy units no file shows leaving."""
    if not sch.void_east:
        return (), []
    known, gone = state.exits(sch.exited_box, {u.side for u in state.units.values()} - {sch.side})
    note = (
        [
            Finding(
                rule,
                Severity.INFO,
                f"{len(gone)} enemy units are in the exited box, but no log given shows the "
                f"hexes they left by (a save does not record them): which {sch.side} "
                f"reinforcements entering at or east of such a hex are no longer available "
                f"is not checked for them (a referee may give them as `exit_hexes`) "
                f"[{sch.rule_ref}]",
                tuple(gone),
            )
        ]
        if gone and not sch.exit_hexes
        else []
    )
    return (*dict.fromkeys(d.hex for d in known), *sch.exit_hexes), note
