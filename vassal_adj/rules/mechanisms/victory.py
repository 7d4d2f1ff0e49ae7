"""Victory points over a game's history (RULES-MAP E8, N16), written generically.

The total is one side's ("The Axis Player keeps a running total"). Every amount, hex, turn
window and level is a field of `VictoryRules`, filled from the pack by victory_rules.py.

- `unit_value` (22.11): attack + defense, or barrage + FPF + defense for artillery.
- Objectives (22.31, 22.32, 22.41.1-4, 7): points when the side first enters a hex, if that
  turn is in a window of the hex; the first entry decides, once.
- Eliminations (22.12, 22.41.5, 22.42.1), the late penalty (22.42.3).
- Withdrawal conditions (19.3, 22.21-22.23, withdrawal.py): a unit eliminated before the
  check counts as eliminated only; one that fails it and is eliminated later counts both ways
  (22.23). A second declaration of a side's withdrawal is a fault (19.0).
- End-of-play awards (22.43): the side takes one, not both; the tool cannot choose, so both
  are `Tally.options` and the larger is the labelled projection. Levels (22.5's table).

Pure: a `History` (history.py) in, a `Tally` out.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from dataclasses import dataclass, field
from itertools import pairwise

from vassal_adj.model.geometry.hexes import Hex
from vassal_adj.model.terrain import RoadNetwork
from vassal_adj.rules.history import Declaration, History
from vassal_adj.rules.mechanisms.victory_terms import Control, Event, Result, Term, evaluate
from vassal_adj.rules.mechanisms.victory_values import Item, Label, UnitValue, strengths, unit_value
from vassal_adj.rules.mechanisms.withdrawal import (
    ExitCondition,
    HoldCondition,
    exit_items,
    hold_items,
    second_declarations,
)
from vassal_adj.rules.select import Selector

__all__ = ["EnemySourceExit", "ExitCondition", "HoldCondition", "Item", "LatePenalty", "Level",
           "Objective", "OwnSourceExit", "Tally", "VictoryRules", "check_levels", "tally", "unit_value",
           "victory_level"]


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
        return Term("place", side, self.name, self.points, self.rule_ref, self.hexes, at="first-entry", turns=turns,
                    closed_by=withdrawal if self.before_withdrawal else None)

    def window(self) -> str:
        f, last = self.first_turn, self.last_turn
        parts = [f"turns {f}-{last}" if f is not None and last is not None else
                 f"on or before turn {last}" if last is not None else f"from turn {f}" if f is not None else ""]
        parts.append("before the withdrawal" if self.before_withdrawal else "")
        return ", ".join(p for p in parts if p) or "any turn"


@dataclass(frozen=True)
class LatePenalty:  # 22.42.3: `points` at the end of every turn after `after_turn`, no withdrawal yet
    points: int
    after_turn: int
    rule_ref: str = ""


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
class Level:  # totals from `low` to `high` inclusive (None: unbounded)
    name: str
    low: int | None = None
    high: int | None = None

    def holds(self, total: int) -> bool:
        return (self.low is None or total >= self.low) and (self.high is None or total <= self.high)


def check_levels(levels: Collection[Level]) -> None:
    """ValueError when two levels overlap or leave a gap between them."""
    ordered = sorted(levels, key=lambda lv: -10**9 if lv.low is None else lv.low)
    for a, b in pairwise(ordered):
        if a.high is None or b.low is None or b.low != a.high + 1:
            raise ValueError(f"victory levels {a.name!r} and {b.name!r} overlap or leave a gap "
                             f"({a.low}..{a.high}, then {b.low}..{b.high})")


def victory_level(total: int, levels: Collection[Level]) -> str | None:
    """The level whose range holds `total` (None when none does)."""
    return next((lv.name for lv in levels if lv.holds(total)), None)


@dataclass(frozen=True)
class VictoryRules:
    side: str
    opponent: str
    eliminated: Mapping[str, tuple[int, str]]  # side -> (factor, rule_ref)
    objectives: tuple[Objective, ...] = ()
    levels: tuple[Level, ...] = ()
    artillery_kinds: frozenset[str] = frozenset({"artillery"})
    late: LatePenalty | None = None
    withdrawal_markers: Mapping[str, str] = field(default_factory=dict)  # side -> marker name
    turn_box: str = ""  # the module's turn boxes (a regular expression), or `turn_kind`
    eliminated_box: str = ""  # the module's names (victory_rules.py requires them where read)
    exited_box: str = ""
    hold: HoldCondition | None = None
    exit: ExitCondition | None = None
    enemy_source_exit: EnemySourceExit | None = None
    own_source_exit: OwnSourceExit | None = None
    withdrawal_rule: str = ""  # cited when a side declares twice (19.0: "once (and only once)")
    turn_kind: str = ""  # the [boxes] kind of the turn boxes; when given, it replaces `turn_box`

    def __post_init__(self) -> None:
        check_levels(self.levels)


@dataclass(frozen=True)
class Tally:
    """Points so far, the end-of-play awards of which one is taken, what the states cannot tell,
    and `faults`: breaches of the rules the history shows (a second withdrawal declaration)."""

    items: tuple[Item, ...]
    options: tuple[Item, ...]
    unknowns: tuple[str, ...]
    levels: tuple[Level, ...]
    faults: tuple[str, ...] = ()

    @property
    def total(self) -> int:
        return sum(i.points for i in self.items)

    @property
    def best_option(self) -> Item | None:
        return max(self.options, key=lambda i: i.points, default=None)

    @property
    def projection(self) -> int:
        return self.total + (b.points if (b := self.best_option) is not None else 0)

    def level(self, total: int) -> str | None:
        return victory_level(total, self.levels)


def tally(history: History, rules: VictoryRules, *, label: Label, final: bool = False) -> Tally:
    """The victory points `history` shows; `final`: the last state's turn is complete."""
    unknowns: list[str] = []
    decl = {side: _declaration(history, rules, side, unknowns) for side in rules.withdrawal_markers}
    w = own.turn if (own := decl.get(rules.side)) is not None else None
    items = (_objectives(history, rules, label, unknowns) + _eliminations(history, rules, label)
             + _late(history, rules, w, final, unknowns)
             + (hold_items(history, rules.hold, decl.get(rules.hold.side), rules.artillery_kinds, label, unknowns)
                if rules.hold else [])
             + (exit_items(history, rules.exit, decl.get(rules.exit.side), rules.artillery_kinds, rules.exited_box,
                           label, unknowns) if rules.exit else []))
    items.sort(key=lambda i: i.index)  # stable: rule order within a state
    options = _options(history, rules, label, unknowns)
    faults = second_declarations(history, rules.withdrawal_markers, rules.turn_box, rules.withdrawal_rule,
                                 rules.turn_kind)
    return Tally(tuple(items), tuple(options), tuple(unknowns), rules.levels, tuple(faults))


def _declaration(h: History, rules: VictoryRules, side: str, unknowns: list[str]) -> Declaration | None:
    marker = rules.withdrawal_markers[side]
    d = h.declared(marker, rules.turn_box, rules.turn_kind)
    if d is None and not h.has_marker(marker):
        unknowns.append(f"no piece named {marker!r} is in the save(s): the {side} withdrawal counts as undeclared")
    return d


def _objectives(h: History, rules: VictoryRules, label: Label, unknowns: list[str]) -> list[Item]:
    """Each place's first entry, scored by the general first-entry terms of its objectives."""
    places: dict[tuple[Hex, ...], list[Objective]] = {}
    for o in rules.objectives:
        places.setdefault(o.hexes, []).append(o)
    marker = rules.withdrawal_markers.get(rules.side)
    withdrawal = Event(marker, rules.turn_box, rules.turn_kind) if marker else None
    out, unseen = [], []
    for hexes, objs in places.items():
        place = f"{objs[0].name} {label(hexes[0])}"
        results = [evaluate(h, o.term(rules.side, withdrawal), Control(), None, label) for o in objs]
        e = results[0]  # one place, one first entry: every result shows the same
        if not e.units:
            unseen.append(place)
            continue
        if e.turn is None:
            unknowns.append(f"{place} is {rules.side}-occupied in save {e.index + 1}, whose turn is unknown: "
                            f"which window applies cannot be told, so it is not counted")
            continue
        if any(r.unknown for r in results):
            earliest = h.turns[e.index - 1] if e.index else None  # History's dating: after the save before
            since = (f"it was entered after the save of turn {earliest}" if earliest is not None else
                     "on which turn it was first entered cannot be known from one save" if h.single else
                     "the first save given shows it already, so it may have been entered earlier")
            unknowns.append(f"{place} is {rules.side}-occupied on turn {e.turn}; {since}: counted as entered "
                            f"on turn {e.turn}")
        opened = [(o, r) for o, r in zip(objs, results, strict=True) if r.amount]
        for o, r in opened:
            out.append(Item(o.rule_ref, f"{rules.side} first entered {place} on turn {e.turn} ({o.window()})",
                            r.points, e.turn, e.index, e.units, e.hexes))
        if not opened:
            windows = "; ".join(f"[{o.rule_ref}] {o.window()}" for o in objs)
            out.append(Item(objs[0].rule_ref, f"{rules.side} first entered {place} on turn {e.turn}, outside "
                                              f"every window ({windows})", 0, e.turn, e.index, e.units, e.hexes))
    if unseen:  # a save shows where units are, not where they passed
        unknowns.append(f"{', '.join(unseen)}: no save given shows {rules.side} units there; an entry "
                        "between saves (a unit that entered and left again) cannot be seen and is not counted")
    return out


def _eliminations(h: History, rules: VictoryRules, label: Label) -> list[Item]:
    """Each eliminated unit of a side scored, factor x value, by the general box term of its
    side; one line per unit, dated by when it was eliminated."""
    value = strengths(rules.artillery_kinds)
    worth: dict[str, tuple[int, str, int]] = {}  # unit -> factor, rule_ref, points
    for side, (factor, ref) in rules.eliminated.items():
        term = Term("box", rules.side, f"{side} eliminated", factor, ref, box=rules.eliminated_box,
                    units=Selector(sides=frozenset({side})), value=value)
        r = evaluate(h, term, Control(), None, label)
        worth.update((uid, (factor, ref, factor * v)) for uid, v in zip(r.units, r.values, strict=True))
    out = []
    for rem in h.removals(rules.eliminated_box):
        if rem.unit in worth:
            unit, (factor, ref, pts) = h.last.units[rem.unit], worth[rem.unit]
            times = "" if factor in (1, -1) else f"{factor} x "
            out.append(Item(ref, f"{unit.side} {unit.name} eliminated ({times}{value.words(unit)})",
                            pts, rem.turn, rem.index, (rem.unit,)))
    return out


def _late(h: History, rules: VictoryRules, w: int | None, final: bool, unknowns: list[str]) -> list[Item]:
    lp, last = rules.late, h.last_turn
    if lp is None:
        return []
    if last is None:
        unknowns.append(f"the turn is unknown, so [{lp.rule_ref}] (turns after {lp.after_turn}) cannot be counted")
        return []
    out = []
    for t in range(lp.after_turn + 1, (last if final else last - 1) + 1):
        if w is not None and w <= t:
            break
        index = next((i for i, tt in enumerate(h.turns) if tt is not None and tt > t), len(h.states) - 1)
        out.append(Item(lp.rule_ref, f"end of turn {t} with no {rules.side} withdrawal declared",
                        lp.points, t, index))
    if not final and last > lp.after_turn and (w is None or w > last):
        unknowns.append(f"turn {last} is not over in the last save: if it ends with no {rules.side} withdrawal "
                        f"declared, [{lp.rule_ref}] adds {lp.points:+d} more")
    return out


def _options(h: History, rules: VictoryRules, label: Label, unknowns: list[str]) -> list[Item]:
    """The end-of-play awards, each scored by general exit terms; the route of 22.43.1 (a
    network joining the exit hex to the side's sources, free of opponent units at the end)
    narrows the hexes the exits count from."""
    units, end, last = h.last.units, h.last_turn, len(h.states) - 1
    exits = [r for r in h.removals(rules.exited_box) if units[r.unit].side == rules.side]
    unseen = [f"{units[r.unit].side} {units[r.unit].name}" for r in exits if r.last_hex is None]
    if unseen and (rules.enemy_source_exit or rules.own_source_exit):
        unknowns.append(f"{', '.join(unseen)}: exited, but no log given shows the hex each left from (a save does "
                        "not record it), so the end-of-play awards count none of them (give the game's logs)")
    marker = rules.withdrawal_markers.get(rules.side)
    withdrawal = Event(marker, rules.turn_box, rules.turn_kind) if marker else None
    side = Selector(sides=frozenset({rules.side}))

    def exited(points: int, ref: str, via: frozenset[Hex], value: UnitValue, units: Selector = side,
               closed_by: Event | None = None) -> Result:
        term = Term("exited", rules.side, "exits", points, ref, box=rules.exited_box, units=units, via=via,
                    value=value, closed_by=closed_by)
        return evaluate(h, term, Control(), None, label)

    out = []
    if (a := rules.enemy_source_exit) is not None:
        blocked = {p.hex for uid, p in h.last.positions.items() if p.hex is not None
                   and units[uid].side == rules.opponent}
        reach = frozenset().union(*(n.reachable(a.to_hexes, blocked) for n in a.networks))
        value = strengths(rules.artillery_kinds)
        before = exited(a.factor, a.rule_ref, a.from_hexes, value, closed_by=withdrawal)
        counted = exited(a.factor, a.rule_ref, a.from_hexes & reach, value, closed_by=withdrawal)
        cut = f"; {before.amount - counted.amount} more have no route free of {rules.opponent} units" \
            if counted.amount < before.amount else ""
        out.append(Item(a.rule_ref, f"{a.factor} x value of {counted.amount} {rules.side} unit(s) exited from "
                                    f"{rules.opponent} supply source hexes before the {rules.side} withdrawal, with a "
                                    f"free route to the {rules.side} supply sources{cut}",
                        counted.points, end, last, counted.units, counted.hexes))
    if (b := rules.own_source_exit) is not None:
        armor = exited(b.per_point, b.rule_ref, b.from_hexes, UnitValue(("attack",)),
                       Selector(sides=frozenset({rules.side}), kinds=b.kinds))
        text = (f"{armor.scored} attack point(s) of {armor.amount} {'/'.join(sorted(b.kinds))} unit(s) exited from "
                f"{rules.side} supply source hexes, {b.per_point} each")
        declared = withdrawal is not None and h.declared(withdrawal.marker, withdrawal.box, withdrawal.kind)
        if not declared:
            text = f"no {rules.side} withdrawal declared, so nothing ({text})"
        out.append(Item(b.rule_ref, text, armor.points if declared else 0, end, last, armor.units))
    return out
