"""What a save's turn tracker shows: the value of each of its levels (spec 5.8).

    reading = tracker_reading(module, game.root, "Game Turn")
    reading.value("Turn"), reading.value("Phase")      # 3, "Allied Movement"

A tracker's state is ``TURN<trackerId><TAB>current|level1|level2...``; each level's state is
``current;currentSubLevel;...`` (a counter level adds ``loop;loopLimit``, a list level
``first;activeFlags``) followed by the states of its sub-levels. A counter level's `current`
is its value; a list level's is an index into its list. In a log the last state wins, as
VASSAL leaves the tracker where the last logged step put it.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType

from vassal_adj.model.module import Module, TurnLevelDef, TurnTrackerDef
from vassal_adj.parse.commands import Node, iter_texts, unlogged
from vassal_adj.parse.tokens import int_or, split

__all__ = ["TrackerReading", "tracker_reading"]

# Fields before the sub-level states: counter (current, sub, loop, loopLimit), list
# (current, sub, first, activeFlags).
_OWN_FIELDS = 4


@dataclass(frozen=True)
class TrackerReading:
    """The tracker's name and, by level name, the value each level shows."""

    tracker: str
    values: Mapping[str, int | str]

    def value(self, level: str) -> int | str | None:
        return self.values.get(level)


def _read_level(level: TurnLevelDef, state: str, out: dict[str, int | str]) -> None:
    fields = split(state, ";")
    current = int_or(fields[0] if fields else None, level.start if level.kind == "counter" else 0)
    if level.kind == "counter":
        out[level.name] = current
    elif 0 <= current < len(level.items):
        out[level.name] = level.items[current]
    for sub, sub_state in zip(level.levels, fields[_OWN_FIELDS:], strict=False):
        _read_level(sub, sub_state, out)


def _last_state(root: Node, tracker_id: str) -> str | None:
    prefix = f"TURN{tracker_id}\t"
    found = None
    for _, text in iter_texts(root, select=lambda t: "TURN" in t):
        text = unlogged(text)
        if text.startswith(prefix):
            found = text[len(prefix) :]
    return found


def tracker_reading(module: Module, root: Node, name: str) -> TrackerReading | None:
    """The levels of the module's tracker called `name` as the save leaves them; None when
    the module has no such tracker or the save holds no state for it."""
    tracker: TurnTrackerDef | None = next((t for t in module.turn_trackers if t.name == name), None)
    if tracker is None:
        return None
    state = _last_state(root, tracker.id)
    if state is None:
        return None
    values: dict[str, int | str] = {}
    for level, level_state in zip(tracker.levels, split(state, "|")[1:], strict=False):
        _read_level(level, level_state, values)
    return TrackerReading(name, MappingProxyType(values))
