"""Withdrawals over a game's history (RULES-MAP E8: withdrawal conditions), written generically.

- 19.0: "Once (and only once) during the course of the game, each Player may announce and
  execute a Withdrawal": a side's marker seen declaring on two different turns is a fault
  (`second_declarations`).
- 19.3 / 22.21 (`HoldCondition`): `turns_after` turns after the withdrawal, the units of a
  formation "still in play during the Withdrawal Movement Phase" must be within `within`
  hexes of a hex; each one farther counts factor x its value.
- 19.3 / 22.22 (`ExitCondition`): `turns_after` turns after the withdrawal, "all" the side's
  units must have exited from one of `hexes`: every unit of the side, including those that
  arrived after the withdrawal. A unit still on the map, or that left from another hex,
  counts factor x its value. The hex a unit left from is the one a log recorded
  (history.py); where no log shows it, the report says so and nothing is charged.

Pure: a `History` in, scored `Item`s and what cannot be told out.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from dataclasses import dataclass

from vassal_adj.model.geometry.hexes import Hex, distance
from vassal_adj.rules.history import Declaration, History
from vassal_adj.rules.mechanisms.victory_values import Item, Label, unit_value

__all__ = ["ExitCondition", "HoldCondition", "exit_items", "hold_items", "second_declarations"]


@dataclass(frozen=True)
class HoldCondition:
    """19.3 (Allied): `turns_after` turns on, `formation` units over `within` hexes from `hex`: factor x value."""

    side: str
    formation: str
    hex: Hex
    within: int
    turns_after: int
    factor: int
    rule_ref: str = ""


@dataclass(frozen=True)
class ExitCondition:
    """19.3 (Axis): `turns_after` turns on, units on the map or gone not via `hexes`: factor x value."""

    side: str
    hexes: frozenset[Hex]
    turns_after: int
    factor: int
    rule_ref: str = ""


def second_declarations(
    h: History, markers: Mapping[str, str], turn_box: str, rule_ref: str, turn_kind: str = ""
) -> list[str]:
    """A fault for every side whose withdrawal marker is seen declaring on more than one turn."""
    out = []
    for side, marker in markers.items():
        found = h.declarations(marker, turn_box, turn_kind)
        if len(found) > 1:
            where = ", then ".join(f"turn {d.turn}" for d in found)
            ref = f" [{rule_ref}]" if rule_ref else ""
            out.append(
                f"the {side} withdrawal is declared more than once: the {marker!r} marker is in the box of "
                f"{where}; each player may declare a withdrawal once and only once{ref}"
            )
    return out


def _checked(h: History, d: Declaration | None, turns_after: int, ref: str, unknowns: list[str]) -> int | None:
    """The state on which a withdrawal condition is judged."""
    if d is None:
        return None
    due = d.turn + turns_after
    i = h.index_for_turn(due)
    if i is None:
        unknowns.append(
            f"[{ref}] the withdrawal declared on turn {d.turn} is judged on turn {due}, "
            "after the last save: not yet counted"
        )
        return None
    if h.turns[i] != due:
        unknowns.append(
            f"[{ref}] no save of turn {due} was given: the withdrawal conditions are judged on "
            f"the save of turn {h.turns[i]}, and units may have moved since"
        )
    else:
        unknowns.append(
            f"[{ref}] the withdrawal conditions are judged on the last save of turn {due} (phase "
            f"{h.states[i].phase or 'unknown'}); the rule asks for the end of that turn's movement phase"
        )
    return i


def hold_items(
    h: History,
    c: HoldCondition,
    d: Declaration | None,
    artillery_kinds: Collection[str],
    label: Label,
    unknowns: list[str],
) -> list[Item]:
    i = _checked(h, d, c.turns_after, c.rule_ref, unknowns)
    if d is None or i is None:
        return []
    in_play, out = h.seen_on_map(c.side, d.turn), []  # "still in play during the Withdrawal Movement Phase"
    for uid, pos in sorted(h.states[i].positions.items()):
        u = h.states[i].units[uid]
        if (
            u.side != c.side
            or u.formation != c.formation
            or pos.hex is None
            or (in_play is not None and uid not in in_play)
            or distance(pos.hex, c.hex) <= c.within
        ):
            continue
        v = unit_value(u, artillery_kinds)
        out.append(
            Item(
                c.rule_ref,
                f"{u.side} {u.name} ({c.formation}) is {distance(pos.hex, c.hex)} hexes from "
                f"{label(c.hex)} on turn {h.turns[i]}, more than {c.within} "
                f"({c.factor} x value {v})",
                c.factor * v,
                h.turns[i],
                i,
                (uid,),
                (label(pos.hex),),
            )
        )
    return out


def exit_items(
    h: History,
    c: ExitCondition,
    d: Declaration | None,
    artillery_kinds: Collection[str],
    exited_box: str,
    label: Label,
    unknowns: list[str],
) -> list[Item]:
    i = _checked(h, d, c.turns_after, c.rule_ref, unknowns)
    if d is None or i is None:
        return []
    out, turn = [], h.turns[i]
    for uid, pos in sorted(h.states[i].positions.items()):  # all units: also those that came after
        u = h.states[i].units[uid]
        if u.side == c.side and pos.hex is not None:
            out.append(
                Item(
                    c.rule_ref,
                    f"{u.side} {u.name} is still on the map on turn {turn}",
                    c.factor * unit_value(u, artillery_kinds),
                    turn,
                    i,
                    (uid,),
                    (label(pos.hex),),
                )
            )
    for r in h.removals(exited_box):
        u = h.last.units[r.unit]
        if u.side != c.side or r.index > i or (r.turn is not None and r.turn < d.turn):
            continue
        if r.last_hex is None:
            unknowns.append(
                f"[{c.rule_ref}] {u.side} {u.name} has exited, but no log given shows the hex it left "
                "from (a save does not record it): whether it left from a supply source hex cannot be "
                "known; not counted"
            )
        elif r.last_hex not in c.hexes:
            out.append(
                Item(
                    c.rule_ref,
                    f"{u.side} {u.name} exited from {label(r.last_hex)}, not from a hex it must leave from",
                    c.factor * unit_value(u, artillery_kinds),
                    turn,
                    i,
                    (r.unit,),
                    (label(r.last_hex),),
                )
            )
    return out
