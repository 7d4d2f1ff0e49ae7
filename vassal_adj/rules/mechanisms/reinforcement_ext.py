"""Units that return to the game through the Game-Turn boxes (RULES-MAP N12, ``returns``).

A `reinforcements.schedule` rule's ``returns`` parameter lists the units that, once gone (eliminated,
destroyed, recycled), are placed on the turn track some Game-Turns after the one in progress and
come back then: ``{ units = selector, after = n | after_range = [lo, hi], to = "Turn {turn}",
rule_ref }``. Seed 001's 6.3 puts a destroyed EM "on the turn track, two turns after the one in
progress" (``after = 2``); seed 004's 8.1.1 rolls 1d6 and places the unit "on the friendly TRT
that number of turns later" (``after_range = [1, 6]``).

What one state shows: a picked unit in the box of Game-Turn k on Game-Turn T went there on T or
earlier, so k may be at most T + hi; a box further ahead is an error. How early it was placed (k
below T + lo) cannot be told, since the unit may have gone on an earlier turn: nothing is said.
A unit the schedule itself lists for Game-Turn k (a turn of its window, or an event's turn) waits
for its first entry, or for its next of a repeatable entry, not a return, and is not judged here.
A box after the game's last Game-Turn (its scenario's) is an error whatever the window: seed 004
8.1.1 "If the die roll results in a GT after the end of the scenario, the unit is placed in the
Withdrawn display", 8.3 the same for recycled units.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from vassal_adj.model.state import GameState, TurnBoxes
from vassal_adj.rules.mechanisms.setup import Entry, printed_key
from vassal_adj.rules.param_shape import Each, Table, shaped
from vassal_adj.rules.results import Finding, Severity
from vassal_adj.rules.select import Selector, selector_at

__all__ = ["RETURNS", "Return", "check_returns", "parse_returns"]


@dataclass(frozen=True)
class Return:
    """Picked `units` return `lo`..`hi` Game-Turns after the one they went in, from the `boxes`."""

    units: Selector
    lo: int
    hi: int
    boxes: TurnBoxes
    rule_ref: str


def _range(r: Mapping[str, Any], path: str) -> tuple[int, int]:
    if ("after" in r) == ("after_range" in r):
        raise ValueError(f"{path}: expected exactly one of 'after' (n Game-Turns) or 'after_range' ([lo, hi])")
    if "after" in r:
        n = r["after"]
        if isinstance(n, bool) or not isinstance(n, int) or n < 0:
            raise ValueError(f"{path}.after: expected a whole number >= 0, got {n!r}")
        return n, n
    pair = r["after_range"]
    if (
        not isinstance(pair, (list, tuple))
        or len(pair) != 2
        or any(isinstance(v, bool) or not isinstance(v, int) or v < 0 for v in pair)
        or pair[0] > pair[1]
    ):
        raise ValueError(f"{path}.after_range: expected [lo, hi], whole numbers with 0 <= lo <= hi, got {pair!r}")
    return pair[0], pair[1]


# The ``returns`` parameter's entries; after/after_range are checked as read (exactly one, in range).
RETURNS = Each(
    Table(
        {"units": "selector", "after": "int", "after_range": "list[int]", "to": "str", "rule_ref": "str"},
        required=("units",),
    )
)


def parse_returns(value: Any, turn_boxes: TurnBoxes, rule_ref: str) -> tuple[Return, ...]:
    """The ``returns`` parameter; `turn_boxes` (the schedule's) are read unless an entry names its
    own box pattern `to` ("Turn {turn}"). ValueError names the key path."""
    if isinstance(value, (str, Mapping)) or not isinstance(value, (list, tuple)):
        raise ValueError(f"returns: expected a list of tables, got {value!r}")
    shaped(RETURNS, value, "returns")
    out = []
    for i, r in enumerate(value):
        path = f"returns[{i}]"
        lo, hi = _range(r, path)
        boxes = turn_boxes
        if "to" in r:
            to = r["to"]
            if not isinstance(to, str) or "{turn}" not in to:
                raise ValueError(f"{path}.to: expected a box name with '{{turn}}' in it, got {to!r}")
            boxes = TurnBoxes(re.compile(re.escape(to).replace(re.escape("{turn}"), r"(\d+)"), re.IGNORECASE))
        ref = r.get("rule_ref", rule_ref)
        if not isinstance(ref, str):
            raise ValueError(f"{path}.rule_ref: expected a string, got {ref!r}")
        out.append(Return(selector_at(r["units"], f"{path}.units"), lo, hi, boxes, ref))
    return tuple(out)


def _due_on(e: Entry, k: int) -> bool:
    """Whether entry `e` may bring its units in on Game-Turn `k`: on its turn, a turn of its window
    (from its first on, when repeatable with no last), either turn of a condition, or an event's turn."""
    if e.after is not None or e.turn is None:
        return True
    if e.condition is not None:
        return k in (e.turn, e.otherwise_turn)
    last = e.otherwise_turn or (None if e.repeatable else e.turn)
    return e.turn <= k and (last is None or k <= last)


def _first_entry(entries: tuple[Entry, ...], name: str, k: int) -> bool:
    """Whether the schedule lists the unit `name` to enter on Game-Turn `k`, or on an event's turn."""
    key = printed_key(name)
    return any(_due_on(e, k) for e in entries if key in {printed_key(n) for n in e.units})


def check_returns(
    state: GameState,
    returns: tuple[Return, ...],
    entries: tuple[Entry, ...],
    *,
    side: str,
    rule: str,
    last_turn: int | None = None,
) -> list[Finding]:
    """Picked units of `side` in a Game-Turn box further ahead than they may be placed, or (with
    `last_turn`, the game's last Game-Turn) after the end of the game."""
    if state.turn is None:
        return []
    found = []
    for r in returns:
        for uid, pos in state.positions.items():
            unit = state.units.get(uid)
            if unit is None or unit.side != side or not pos.box or not r.units.matches(unit, pos.box):
                continue
            k = r.boxes.turn(pos)
            if k is None or _first_entry(entries, unit.name, k):
                continue
            span = f"{r.lo}" if r.lo == r.hi else f"{r.lo}-{r.hi}"
            where = f"{side} {unit.name} is in box {pos.box!r} (Game-Turn {k}) on Game-Turn {state.turn}"
            if last_turn is not None and k > last_turn:
                why = (
                    f"the game ends with Game-Turn {last_turn}, and a unit due back after its end "
                    "is not placed on the turn track"
                )
            elif k > state.turn + r.hi:
                why = (
                    f"a returning unit is placed {span} Game-Turn(s) after the one it went in, "
                    f"so no later than Game-Turn {state.turn + r.hi}"
                )
            else:
                continue
            found.append(Finding(rule, Severity.ERROR, f"{where}: {why} [{r.rule_ref}]", units=(uid,)))
    return found
