"""The entries of ``reinforcements.schedule``: one table per line of a reinforcement list, read
into `Entry` (rules/mechanisms/setup.py). A ValueError names the key path.

Besides printed names, Game-Turns and hexes (RULES-MAP E7), an entry may say (N12):

- ``at``: hexes, places of the terrain file, region expressions ("place-kind:port", "row<10",
  rules/mechanisms/regions.py) and off-map boxes ``"box:<name or [boxes] kind>"`` the units
  may arrive in instead (seed 004 7.3: "in the Allied Staging Area, any Allied-controlled
  functional port"). An entry into boxes only (seed 003 S5.2, the Artillery Parks; seed 004
  7.6, "They never deploy directly onto the map") brings its units into the box and never onto
  the map: `verify` judges a move of them onto the map an error (rules/turn.py).
- turns as labels of ``[state] turn_sequence`` ("May 27 1300"), compared by their place there.
- ``turns = [first, last]``: any Game-Turn of the window (seed 003 Sc.2).
- ``units``: printed names, or a unit selector (rules/select.py).
- ``turn_from = "attr:<name>" | "box"``: each unit's own turn (rules/mechanisms/reinforcement_units.py).
- ``repeatable = true``: the units may enter on every Game-Turn of the window, again after
  leaving play (seed 004 7.5.1: demobilized Garrisons "may be deployed as reinforcements in
  subsequent GTs").
- ``holding``: a unit selector; an entry hex counts only while a friendly unit it picks stands
  there before the units enter (seed 004 7.3: "A functional port or airfield is one which has a
  friendly Garrison unit of any strength"). `unheld_entry` says why a hex does not count.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from vassal_adj.model.geometry.hexes import Hex
from vassal_adj.model.state import GameState
from vassal_adj.rules.engine import RuleContext
from vassal_adj.rules.mechanisms.param_values import names, one_hex, table, whole, word
from vassal_adj.rules.mechanisms.setup import Entry, Event
from vassal_adj.rules.mechanisms.setup_shapes import ENTRY
from vassal_adj.rules.select import Selector, selector_at

__all__ = ["parse_entry", "turn_at", "unheld_entry"]

_WHEN = ("turn", "turns", "after", "turn_from")


def turn_at(ctx: RuleContext, value: Any, path: str) -> tuple[int, str]:
    """A Game-Turn as written: a whole number >= 1, or a label of the pack's ``[state]
    turn_sequence`` (its place there, from 1). Returns the turn and the label ("" for a number)."""
    if not isinstance(value, str):
        return whole(value, path, 1), ""
    folded = [t.casefold() for t in ctx.turn_sequence]
    if value.casefold() not in folded:
        known = f"labels: {', '.join(ctx.turn_sequence[:4])}..." if ctx.turn_sequence else "none"
        raise ValueError(f"{path}: {value!r} is not a turn of the pack's [state] turn_sequence ({known})")
    return folded.index(value.casefold()) + 1, value


def _window(ctx: RuleContext, value: Any, path: str) -> tuple[int, int, str]:
    """`turns = [a, b]`: the entry may come on any Game-Turn from a to b (seed 003 Sc.2: "Italians
    may withhold any units to 1300")."""
    if isinstance(value, str) or not isinstance(value, (list, tuple)) or len(value) != 2:
        raise ValueError(f"{path}: expected [first, last] Game-Turns, got {value!r}")
    (first, a), (last, b) = turn_at(ctx, value[0], f"{path}[0]"), turn_at(ctx, value[1], f"{path}[1]")
    if last <= first:
        raise ValueError(f"{path}: expected the last Game-Turn after the first, got {value!r}")
    return first, last, f"{a} to {b}" if a or b else ""


def _units(value: Any, path: str) -> tuple[tuple[str, ...], Selector | None]:
    """Printed names, or a unit selector: (names, None) or ((), selector)."""
    if isinstance(value, Mapping):
        return (), selector_at(value, path)
    return names(value, path), None


def parse_entry(ctx: RuleContext, value: Any, path: str, events: Mapping[str, Event]) -> Entry:
    e = table(value, path, set(ENTRY.keys), set(ENTRY.required))
    if sum(k in e for k in _WHEN) != 1:
        raise ValueError(
            f"{path}: expected exactly one of 'turn' (a Game-Turn) or 'after' (an event) or 'turns' "
            "([first, last] Game-Turns) or 'turn_from' (each unit's own)"
        )
    if ("otherwise_turn" in e) != ("if_side_within" in e):
        raise ValueError(f"{path}: 'otherwise_turn' and 'if_side_within' go together")
    for key in ("otherwise_turn", "turns_after"):
        if key in e and ("turn" if key == "otherwise_turn" else "after") not in e:
            raise ValueError(
                f"{path}.{key}: only an entry with '{'turn' if key == 'otherwise_turn' else 'after'}' takes it"
            )
    repeatable = e.get("repeatable", False)
    if not isinstance(repeatable, bool) or (
        repeatable and ("turn" not in e and "turns" not in e or "if_side_within" in e)
    ):
        raise ValueError(
            f"{path}.repeatable: expected true or false, and true only with 'turn' or 'turns' "
            f"(no condition), got {repeatable!r}"
        )
    at = names(e["at"], f"{path}.at")
    spots = tuple(a for a in at if not a.startswith("box:"))
    boxes = frozenset(a.removeprefix("box:").strip().casefold() for a in at if a.startswith("box:"))
    units, pick = _units(e["units"], f"{path}.units")
    hexes = ctx.hexes(spots, f"{path}.at")
    if not hexes and (spots or not boxes):  # somewhere to arrive: hexes, or boxes only
        raise ValueError(
            f"{path}.at: {list(at)!r} names no hex of the board; give the hexes, places or regions the "
            'units enter the map by, or only the boxes they arrive in ("box:<name or kind>")'
        )
    holding = selector_at(e["holding"], f"{path}.holding") if "holding" in e else None
    made = {"boxes": boxes, "pick": pick, "repeatable": repeatable, "holding": holding}
    if "turn_from" in e:
        source = word(e["turn_from"], f"{path}.turn_from")
        if source != "box" and not (source.startswith("attr:") and source[5:].strip()):
            raise ValueError(f"{path}.turn_from: expected 'attr:<name>' or 'box', got {source!r}")
        return Entry(units, at, hexes, turn_from=source, **made)
    if "after" in e:
        name = word(e["after"], f"{path}.after")
        if name not in events:
            known = ", ".join(sorted(events)) or "none: add an `events` parameter"
            raise ValueError(f"{path}.after: unknown event {name!r} (events defined: {known})")
        return Entry(
            units,
            at,
            hexes,
            after=events[name],
            turns_after=whole(e.get("turns_after", 0), f"{path}.turns_after"),
            **made,
        )
    if "turns" in e:
        first, last, said = _window(ctx, e["turns"], f"{path}.turns")
        return Entry(units, at, hexes, turn=first, otherwise_turn=last, said=said, **made)
    turn, said = turn_at(ctx, e["turn"], f"{path}.turn")
    if "if_side_within" not in e:
        return Entry(units, at, hexes, turn=turn, said=said, **made)
    cpath = f"{path}.if_side_within"
    c = table(e["if_side_within"], cpath, {"side", "hex", "distance"}, {"side", "hex", "distance"})
    spot = word(c["hex"], f"{cpath}.hex")
    condition = Event(
        f"{cpath}",
        "within",
        side=word(c["side"], f"{cpath}.side"),
        at=(spot,),
        hexes=(one_hex(ctx, spot, f"{cpath}.hex"),),
        distance=whole(c["distance"], f"{cpath}.distance"),
    )
    otherwise, other = turn_at(ctx, e["otherwise_turn"], f"{path}.otherwise_turn")
    if otherwise <= turn:
        raise ValueError(f"{path}.otherwise_turn: expected a Game-Turn after turn {turn}, got {e['otherwise_turn']!r}")
    return Entry(
        units,
        at,
        hexes,
        turn=turn,
        otherwise_turn=otherwise,
        condition=condition,
        said=f"{said or turn}, otherwise {other}" if said or other else "",
        **made,
    )


def unheld_entry(e: Entry, state: GameState, side: str, h: Hex, label: Callable[[Hex], str]) -> str:
    """Why entry hex `h` does not count now: no friendly unit `e.holding` picks stands there ("": it counts)."""
    if e.holding is None or h not in e.hexes:
        return ""
    if any(u.side == side and e.holding.matches(u) for u in state.units_at(h)):
        return ""
    return f"entered at {label(h)}, which holds no friendly {e.holding.words()}"
