"""Reinforcements whose units or turns the state gives (RULES-MAP N12): one entry per unit.

An entry of `reinforcements.schedule` may pick its units with a selector (``units = { kinds =
["garrison"] }``) rather than list printed names, and may read each unit's turn from the unit
(``turn_from``) rather than print it:

- ``"attr:<name>"``: the unit's attribute (a named group of its units.toml pattern, N4). A
  number is the Game-Turn (seed 004 7.1: "Reinforcement units have ... a GT number ... printed
  on the counter"); a word is a turn label of ``[state] turn_sequence`` or the name of an event
  of the schedule (7.1.1: German units marked "R" come after an event).
- ``"box"``: the Game-Turn box the unit waits in (seed 001: a unit in the box of turn k arrives
  on turn k). A unit that has left its box shows its turn no more: it is not judged, and a note
  says so.

`resolve` turns such entries, for one state, into entries of one printed name each, which the
schedule (setup.py `check_schedule`) judges as it judges any other. Pure.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace

from vassal_adj.model.state import GameState, Position, TurnBoxes
from vassal_adj.rules.mechanisms.setup import Entry, Event, printed_key, unit_names
from vassal_adj.rules.results import Finding, Severity

__all__ = ["resolve"]


def _ids(e: Entry, state: GameState, side: str, by_key: Mapping[str, list[str]]) -> list[str]:
    """The ids of the side's units the entry names or picks, in the state's order."""
    if e.pick is None:
        return [u for name in e.units for u in by_key.get(printed_key(name), [])]
    return [
        u
        for u, unit in state.units.items()
        if unit.side == side and e.pick.matches(unit, state.positions.get(u, Position()).box)
    ]


def _own(e: Entry, value: int | str | None, sequence: Sequence[str], events: Mapping[str, Event]) -> Entry | None:
    """The entry on the turn `value` gives (a Game-Turn, a turn label, an event's name); None: none."""
    if isinstance(value, int) and value >= 1:
        return replace(e, turn=value, turn_from="")
    if isinstance(value, str):
        folded = [t.casefold() for t in sequence]
        if value.casefold() in folded:
            return replace(e, turn=folded.index(value.casefold()) + 1, turn_from="", said=value)
        if value in events:
            return replace(e, after=events[value], turn_from="")
    return None


def resolve(
    entries: Sequence[Entry],
    state: GameState,
    side: str,
    turn_box: TurnBoxes,
    *,
    sequence: Sequence[str],
    events: Mapping[str, Event],
    rule: str,
    ref: str,
) -> tuple[tuple[Entry, ...], list[Finding]]:
    """`entries` with those that pick units or read turns from them made one entry per unit
    (named by its printed name), and notes on the units whose turn the state does not show."""
    by_key: dict[str, list[str]] = {}
    for u, unit in state.units.items():
        if unit.side == side:
            by_key.setdefault(printed_key(unit.name), []).append(u)
    out: list[Entry] = []
    notes: list[Finding] = []
    for e in entries:
        if e.pick is None and not e.turn_from:
            out.append(e)
            continue
        ids = _ids(e, state, side, by_key)
        missing = tuple(n for n in e.units if printed_key(n) not in by_key)
        if missing:  # kept so that the schedule says they are not in the save
            out.append(replace(e, units=missing))
        if not e.turn_from:
            out += [replace(e, units=(state.units[u].name,), pick=None) for u in ids]
            continue
        unread = []
        for u in ids:
            unit, pos = state.units[u], state.positions.get(u, Position())
            if e.turn_from == "box":
                value: int | str | None = turn_box.turn(pos)
            else:
                value = unit.attrs.get(e.turn_from.removeprefix("attr:"))
            own = _own(e, value, sequence, events)
            if own is None:
                unread.append(u)
            else:
                out.append(replace(own, units=(unit.name,), pick=None))
        if unread:
            what = (
                "are in no Game-Turn box (in play, or elsewhere): the box they waited in showed their turn"
                if e.turn_from == "box"
                else f"show no {e.turn_from.removeprefix('attr:')} that is a Game-Turn, a turn label or an event"
            )
            more = f" and {len(unread) - 6} more" if len(unread) > 6 else ""
            notes.append(
                Finding(
                    rule,
                    Severity.INFO,
                    f"{side} {unit_names(state, unread[:6])}{more} {what}, so when they may enter is not checked "
                    f"[{ref}]",
                    tuple(unread),
                )
            )
    # Pieces of one printed name give one entry: the schedule finds every piece of a name itself
    return tuple(dict.fromkeys(out)), notes
