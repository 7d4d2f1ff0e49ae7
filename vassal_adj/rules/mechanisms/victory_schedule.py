"""The scheduled items of `victory.points` (victory.py), scored through the general victory
terms (victory_terms.py): objectives as first-entry places with windows of turns, closed by the
side's withdrawal where so given; eliminated units as a box term per side, valued and scaled by
a factor; the two end-of-play awards as exit terms. Each result is worded as victory.points has
always worded it, one line per unit or place, dated by the history. Pure.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from vassal_adj.model.geometry.hexes import Hex
from vassal_adj.model.terrain import RoadNetwork
from vassal_adj.rules.history import History
from vassal_adj.rules.mechanisms.victory_terms import Control, Event, Result, Term, evaluate
from vassal_adj.rules.mechanisms.victory_values import Item, Label, UnitValue
from vassal_adj.rules.select import Selector

__all__ = [
    "Awards",
    "EnemySourceExit",
    "Objective",
    "OwnSourceExit",
    "award_items",
    "elimination_items",
    "objective_items",
]


@dataclass(frozen=True)
class Objective:
    """Points for the first entry into `hexes` if its turn is within `first_turn`..`last_turn`
    (None: open) and, with `before_withdrawal`, before the withdrawal turn (22.41.7 "preceding
    the Axis Withdrawal": it is declared before that turn's movement)."""

    name: str
    hexes: tuple[Hex, ...]
    points: int
    first_turn: int | None = None
    last_turn: int | None = None
    before_withdrawal: bool = False
    rule_ref: str = ""

    def term(self, side: str, withdrawal: Event | None) -> Term:
        """The general first-entry term (victory_terms.py) that scores it; `withdrawal` is the
        side's declaration, which closes the window when `before_withdrawal`."""
        turns = (self.first_turn, self.last_turn) if (self.first_turn, self.last_turn) != (None, None) else None
        return Term(
            "place",
            side,
            self.name,
            self.points,
            self.rule_ref,
            self.hexes,
            at="first-entry",
            turns=turns,
            closed_by=withdrawal if self.before_withdrawal else None,
        )

    def window(self) -> str:
        f, last = self.first_turn, self.last_turn
        parts = [
            f"turns {f}-{last}"
            if f is not None and last is not None
            else f"on or before turn {last}"
            if last is not None
            else f"from turn {f}"
            if f is not None
            else ""
        ]
        parts.append("before the withdrawal" if self.before_withdrawal else "")
        return ", ".join(p for p in parts if p) or "any turn"


@dataclass(frozen=True)
class EnemySourceExit:
    """22.43.1: factor x value of units gone from `from_hexes` before the withdrawal, when one
    of `networks` joins that hex to `to_hexes` free of enemy units at the end."""

    factor: int
    from_hexes: frozenset[Hex]
    to_hexes: frozenset[Hex]
    networks: tuple[RoadNetwork, ...]
    rule_ref: str = ""


@dataclass(frozen=True)
class OwnSourceExit:
    """22.43.2: `per_point` per attack point of `kinds` units gone from `from_hexes`, if withdrawn."""

    per_point: int
    kinds: frozenset[str]
    from_hexes: frozenset[Hex]
    rule_ref: str = ""


@dataclass(frozen=True)
class Awards:
    """The end-of-play awards of which the side takes one, and the value of a unit they use."""

    enemy: EnemySourceExit | None
    own: OwnSourceExit | None
    value: UnitValue


def objective_items(
    h: History, side: str, objectives: Sequence[Objective], withdrawal: Event | None, label: Label, unknowns: list[str]
) -> list[Item]:
    """Each place's first entry, scored by the general first-entry terms of its objectives."""
    places: dict[tuple[Hex, ...], list[Objective]] = {}
    for o in objectives:
        places.setdefault(o.hexes, []).append(o)
    out, unseen = [], []
    for hexes, objs in places.items():
        place = f"{objs[0].name} {label(hexes[0])}"
        results = [evaluate(h, o.term(side, withdrawal), Control(), None, label) for o in objs]
        e = results[0]  # one place, one first entry: every result shows the same
        if not e.units:
            unseen.append(place)
            continue
        if e.turn is None:
            unknowns.append(
                f"{place} is {side}-occupied in save {e.index + 1}, whose turn is unknown: "
                f"which window applies cannot be told, so it is not counted"
            )
            continue
        if any(r.unknown for r in results):
            earliest = h.turns[e.index - 1] if e.index else None  # History's dating: after the save before
            since = (
                f"it was entered after the save of turn {earliest}"
                if earliest is not None
                else "on which turn it was first entered cannot be known from one save"
                if h.single
                else "the first save given shows it already, so it may have been entered earlier"
            )
            unknowns.append(
                f"{place} is {side}-occupied on turn {e.turn}; {since}: counted as entered on turn {e.turn}"
            )
        opened = [(o, r) for o, r in zip(objs, results, strict=True) if r.amount]
        for o, r in opened:
            out.append(
                Item(
                    o.rule_ref,
                    f"{side} first entered {place} on turn {e.turn} ({o.window()})",
                    r.points,
                    e.turn,
                    e.index,
                    e.units,
                    e.hexes,
                )
            )
        if not opened:
            windows = "; ".join(f"[{o.rule_ref}] {o.window()}" for o in objs)
            out.append(
                Item(
                    objs[0].rule_ref,
                    f"{side} first entered {place} on turn {e.turn}, outside every window ({windows})",
                    0,
                    e.turn,
                    e.index,
                    e.units,
                    e.hexes,
                )
            )
    if unseen:  # a save shows where units are, not where they passed
        unknowns.append(
            f"{', '.join(unseen)}: no save given shows {side} units there; an entry "
            "between saves (a unit that entered and left again) cannot be seen and is not counted"
        )
    return out


def elimination_items(
    h: History, side: str, eliminated: Mapping[str, tuple[int, str]], box: str, value: UnitValue, label: Label
) -> list[Item]:
    """Each eliminated unit of a side scored, factor x value, by the general box term of its
    side; one line per unit, dated by when it was eliminated."""
    worth: dict[str, tuple[int, str, int]] = {}  # unit -> factor, rule_ref, points
    for loser, (factor, ref) in eliminated.items():
        term = Term(
            "box",
            side,
            f"{loser} eliminated",
            factor,
            ref,
            box=box,
            units=Selector(sides=frozenset({loser})),
            value=value,
        )
        r = evaluate(h, term, Control(), None, label)
        worth.update((uid, (factor, ref, factor * v)) for uid, v in zip(r.units, r.values, strict=True))
    out = []
    for rem in h.removals(box):
        if rem.unit in worth:
            unit, (factor, ref, pts) = h.last.units[rem.unit], worth[rem.unit]
            times = "" if factor in (1, -1) else f"{factor} x "
            out.append(
                Item(
                    ref,
                    f"{unit.side} {unit.name} eliminated ({times}{value.words(unit)})",
                    pts,
                    rem.turn,
                    rem.index,
                    (rem.unit,),
                )
            )
    return out


def award_items(
    h: History,
    side: str,
    opponent: str,
    exited_box: str,
    awards: Awards,
    withdrawal: Event | None,
    label: Label,
    unknowns: list[str],
) -> list[Item]:
    """The end-of-play awards, each scored by general exit terms; the route of 22.43.1 (a
    network joining the exit hex to the side's sources, free of opponent units at the end)
    narrows the hexes the exits count from."""
    units, end, last = h.last.units, h.last_turn, len(h.states) - 1
    exits = [r for r in h.removals(exited_box) if units[r.unit].side == side]
    unseen = [f"{units[r.unit].side} {units[r.unit].name}" for r in exits if r.last_hex is None]
    if unseen and (awards.enemy or awards.own):
        unknowns.append(
            f"{', '.join(unseen)}: exited, but no log given shows the hex each left from (a save does "
            "not record it), so the end-of-play awards count none of them (give the game's logs)"
        )
    own = Selector(sides=frozenset({side}))

    def exited(
        points: int,
        ref: str,
        via: frozenset[Hex],
        value: UnitValue,
        units: Selector = own,
        closed_by: Event | None = None,
    ) -> Result:
        term = Term(
            "exited", side, "exits", points, ref, box=exited_box, units=units, via=via, value=value, closed_by=closed_by
        )
        return evaluate(h, term, Control(), None, label)

    out = []
    if (a := awards.enemy) is not None:
        blocked = {p.hex for uid, p in h.last.positions.items() if p.hex is not None and units[uid].side == opponent}
        reach = frozenset().union(*(n.reachable(a.to_hexes, blocked) for n in a.networks))
        value = awards.value
        before = exited(a.factor, a.rule_ref, a.from_hexes, value, closed_by=withdrawal)
        counted = exited(a.factor, a.rule_ref, a.from_hexes & reach, value, closed_by=withdrawal)
        cut = (
            f"; {before.amount - counted.amount} more have no route free of {opponent} units"
            if counted.amount < before.amount
            else ""
        )
        out.append(
            Item(
                a.rule_ref,
                f"{a.factor} x value of {counted.amount} {side} unit(s) exited from "
                f"{opponent} supply source hexes before the {side} withdrawal, with a "
                f"free route to the {side} supply sources{cut}",
                counted.points,
                end,
                last,
                counted.units,
                counted.hexes,
            )
        )
    if (b := awards.own) is not None:
        armor = exited(
            b.per_point,
            b.rule_ref,
            b.from_hexes,
            UnitValue(("attack",)),
            Selector(sides=frozenset({side}), kinds=b.kinds),
        )
        text = (
            f"{armor.scored} attack point(s) of {armor.amount} {'/'.join(sorted(b.kinds))} unit(s) exited from "
            f"{side} supply source hexes, {b.per_point} each"
        )
        declared = withdrawal is not None and h.declared(withdrawal.marker, withdrawal.box, withdrawal.kind)
        if not declared:
            text = f"no {side} withdrawal declared, so nothing ({text})"
        out.append(Item(b.rule_ref, text, armor.points if declared else 0, end, last, armor.units))
    return out
