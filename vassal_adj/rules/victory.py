"""Victory points over a game's history (Kasserine 19.3 and 22.0, written generically).

The total is one side's ("The Axis Player keeps a running total"). Every amount, hex, turn
window and level is a field of `VictoryRules`, filled from the pack by victory_rules.py.

- `unit_value` (22.11): attack + defense, or barrage + FPF + defense for artillery.
- Objectives (22.31, 22.32, 22.41.1-4, 7): points when the side first enters a hex, if that
  turn is in a window of the hex; the first entry decides, once.
- Eliminations (22.12, 22.41.5, 22.42.1), the late penalty (22.42.3).
- Withdrawal conditions (19.3, 22.21-22.23): a unit eliminated before the check counts as
  eliminated only; one that fails it and is eliminated later counts both ways (22.23).
- End-of-play awards (22.43): the side takes one, not both; the tool cannot choose, so both
  are `Tally.options` and the larger is the labelled projection. Levels (22.5's table).

Pure: a `History` (history.py) in, a `Tally` out.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping
from dataclasses import dataclass, field
from itertools import pairwise

from ..model.hexes import Hex, distance
from ..model.terrain import RoadNetwork
from ..model.units import Unit
from .history import Declaration, History

__all__ = ["EnemySourceExit", "ExitCondition", "HoldCondition", "Item", "LatePenalty", "Level",
           "Objective", "OwnSourceExit", "Tally", "VictoryRules", "tally", "unit_value", "victory_level"]

Label = Callable[[Hex], str]


def _value_fields(unit: Unit, artillery_kinds: Collection[str]) -> tuple[str, ...]:
    return ("barrage", "fpf", "defense") if unit.kind in artillery_kinds else ("attack", "defense")


def unit_value(unit: Unit, artillery_kinds: Collection[str] = ("artillery",)) -> int:
    """A unit's victory-point value (22.11): its combat strengths added; a missing one is 0.

    >>> unit_value(Unit("1", "5-3-12 (2/7)", "Axis", "armor", 12, attack=5, defense=3))
    8
    """
    return sum(getattr(unit, f) or 0 for f in _value_fields(unit, artillery_kinds))


def value_words(unit: Unit, artillery_kinds: Collection[str]) -> str:
    """How the value is made up, for messages: "attack 5 + defense 3"."""
    return " + ".join(f"{f} {getattr(unit, f) or 0}" for f in _value_fields(unit, artillery_kinds))


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

    def open_on(self, turn: int, withdrawal: int | None) -> bool:
        return ((self.first_turn is None or turn >= self.first_turn)
                and (self.last_turn is None or turn <= self.last_turn)
                and not (self.before_withdrawal and withdrawal is not None and turn >= withdrawal))

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
    turn_box: str = r"Turn (\d+)"
    eliminated_box: str = "Eliminated"
    exited_box: str = "Exited"
    hold: HoldCondition | None = None
    exit: ExitCondition | None = None
    enemy_source_exit: EnemySourceExit | None = None
    own_source_exit: OwnSourceExit | None = None

    def __post_init__(self) -> None:
        ordered = sorted(self.levels, key=lambda lv: -10**9 if lv.low is None else lv.low)
        for a, b in pairwise(ordered):
            if a.high is None or b.low is None or b.low != a.high + 1:
                raise ValueError(f"victory levels {a.name!r} and {b.name!r} overlap or leave a gap "
                                 f"({a.low}..{a.high}, then {b.low}..{b.high})")


@dataclass(frozen=True)
class Item:
    """One scored line; `index` is the state (position in the history) from which it counts."""

    rule_ref: str
    text: str
    points: int
    turn: int | None
    index: int
    units: tuple[str, ...] = ()
    hexes: tuple[str, ...] = ()


@dataclass(frozen=True)
class Tally:
    """Points so far, the end-of-play awards of which one is taken, what the states cannot tell."""

    items: tuple[Item, ...]
    options: tuple[Item, ...]
    unknowns: tuple[str, ...]
    levels: tuple[Level, ...]

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
    items = (_objectives(history, rules, w, label, unknowns) + _eliminations(history, rules)
             + _late(history, rules, w, final, unknowns)
             + _hold(history, rules, decl.get(rules.hold.side) if rules.hold else None, label, unknowns)
             + _exit(history, rules, decl.get(rules.exit.side) if rules.exit else None, label, unknowns))
    items.sort(key=lambda i: i.index)  # stable: rule order within a state
    options = _options(history, rules, w, label, unknowns)
    return Tally(tuple(items), tuple(options), tuple(unknowns), rules.levels)


def _declaration(h: History, rules: VictoryRules, side: str, unknowns: list[str]) -> Declaration | None:
    marker = rules.withdrawal_markers[side]
    d = h.declared(marker, rules.turn_box)
    if d is None and not h.has_marker(marker):
        unknowns.append(f"no piece named {marker!r} is in the save(s): the {side} withdrawal counts as undeclared")
    return d


def _objectives(h: History, rules: VictoryRules, w: int | None, label: Label, unknowns: list[str]) -> list[Item]:
    places: dict[tuple[Hex, ...], list[Objective]] = {}
    for o in rules.objectives:
        places.setdefault(o.hexes, []).append(o)
    out, unseen = [], []
    for hexes, objs in places.items():
        place = f"{objs[0].name} {label(hexes[0])}"
        e = h.first_entry(rules.side, hexes)
        if e is None:
            unseen.append(place)
            continue
        where = (label(e.hex),)
        if e.turn is None:
            unknowns.append(f"{place} is {rules.side}-occupied in save {e.index + 1}, whose turn is unknown: "
                            f"which window applies cannot be told, so it is not counted")
            continue
        lo = e.earliest if e.earliest is not None else 1
        outcomes = {tuple(o.rule_ref for o in objs if o.open_on(t, w)) for t in range(min(lo, e.turn), e.turn + 1)}
        if len(outcomes) > 1:
            since = (f"it was entered after the save of turn {e.earliest}" if e.earliest is not None else
                     "on which turn it was first entered cannot be known from one save" if h.single else
                     "the first save given shows it already, so it may have been entered earlier")
            unknowns.append(f"{place} is {rules.side}-occupied on turn {e.turn}; {since}: counted as entered "
                            f"on turn {e.turn}")
        opened = [o for o in objs if o.open_on(e.turn, w)]
        for o in opened:
            out.append(Item(o.rule_ref, f"{rules.side} first entered {place} on turn {e.turn} ({o.window()})",
                            o.points, e.turn, e.index, e.units, where))
        if not opened:
            windows = "; ".join(f"[{o.rule_ref}] {o.window()}" for o in objs)
            out.append(Item(objs[0].rule_ref, f"{rules.side} first entered {place} on turn {e.turn}, outside "
                                              f"every window ({windows})", 0, e.turn, e.index, e.units, where))
    if unseen:  # a save shows where units are, not where they passed
        unknowns.append(f"{', '.join(unseen)}: no save given shows {rules.side} units there; an entry "
                        "between saves (a unit that entered and left again) cannot be seen and is not counted")
    return out


def _eliminations(h: History, rules: VictoryRules) -> list[Item]:
    out = []
    for r in h.removals(rules.eliminated_box):
        unit = h.last.units[r.unit]
        if unit.side not in rules.eliminated:
            continue
        factor, ref = rules.eliminated[unit.side]
        times = "" if factor in (1, -1) else f"{factor} x "
        out.append(Item(ref, f"{unit.side} {unit.name} eliminated ({times}{value_words(unit, rules.artillery_kinds)})",
                        factor * unit_value(unit, rules.artillery_kinds), r.turn, r.index, (r.unit,)))
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


def _checked(h: History, d: Declaration | None, turns_after: int, side: str, ref: str,
             unknowns: list[str]) -> tuple[int, frozenset[str] | None] | None:
    """The state on which a withdrawal condition is judged and the units then in play."""
    if d is None:
        return None
    due = d.turn + turns_after
    i = h.index_for_turn(due)
    if i is None:
        unknowns.append(f"[{ref}] the withdrawal declared on turn {d.turn} is judged on turn {due}, "
                        "after the last save: not yet counted")
        return None
    if h.turns[i] != due:
        unknowns.append(f"[{ref}] no save of turn {due} was given: the withdrawal conditions are judged on "
                        f"the save of turn {h.turns[i]}, and units may have moved since")
    else:
        unknowns.append(f"[{ref}] the withdrawal conditions are judged on the last save of turn {due} (phase "
                        f"{h.states[i].phase or 'unknown'}); the rule asks for the end of that turn's movement phase")
    return i, h.seen_on_map(side, d.turn)


def _hold(h: History, rules: VictoryRules, d: Declaration | None, label: Label, unknowns: list[str]) -> list[Item]:
    c = rules.hold
    at = _checked(h, d, c.turns_after, c.side, c.rule_ref, unknowns) if c is not None else None
    if c is None or at is None:
        return []
    (i, in_play), out = at, []
    for uid, pos in sorted(h.states[i].positions.items()):
        u = h.states[i].units[uid]
        if (u.side != c.side or u.formation != c.formation or pos.hex is None
                or (in_play is not None and uid not in in_play) or distance(pos.hex, c.hex) <= c.within):
            continue
        v = unit_value(u, rules.artillery_kinds)
        out.append(Item(c.rule_ref, f"{u.side} {u.name} ({c.formation}) is {distance(pos.hex, c.hex)} hexes from "
                                    f"{label(c.hex)} on turn {h.turns[i]}, more than {c.within} "
                                    f"({c.factor} x value {v})", c.factor * v, h.turns[i], i, (uid,),
                        (label(pos.hex),)))
    return out


def _exit(h: History, rules: VictoryRules, d: Declaration | None, label: Label, unknowns: list[str]) -> list[Item]:
    c = rules.exit
    at = _checked(h, d, c.turns_after, c.side, c.rule_ref, unknowns) if c is not None else None
    if c is None or d is None or at is None:
        return []
    (i, in_play), out = at, []
    turn = h.turns[i]
    for uid, pos in sorted(h.states[i].positions.items()):
        u = h.states[i].units[uid]
        if u.side == c.side and pos.hex is not None and (in_play is None or uid in in_play):
            out.append(Item(c.rule_ref, f"{u.side} {u.name} is still on the map on turn {turn}",
                            c.factor * unit_value(u, rules.artillery_kinds), turn, i, (uid,), (label(pos.hex),)))
    for r in h.removals(rules.exited_box):
        u = h.last.units[r.unit]
        if u.side != c.side or r.index > i or (r.turn is not None and r.turn < d.turn):
            continue
        if r.last_hex is None:
            unknowns.append(f"[{c.rule_ref}] {u.side} {u.name} has exited, but no save given shows where from: "
                            "whether it left from a supply source hex cannot be known; not counted")
        elif r.last_hex not in c.hexes:
            out.append(Item(c.rule_ref, f"{u.side} {u.name} exited from {label(r.last_hex)}, not from a hex it "
                                        "must leave from", c.factor * unit_value(u, rules.artillery_kinds),
                            turn, i, (r.unit,), (label(r.last_hex),)))
    return out


def _options(h: History, rules: VictoryRules, w: int | None, label: Label, unknowns: list[str]) -> list[Item]:
    units, end, last = h.last.units, h.last_turn, len(h.states) - 1
    exits = [r for r in h.removals(rules.exited_box) if units[r.unit].side == rules.side]
    unseen = [f"{units[r.unit].side} {units[r.unit].name}" for r in exits if r.last_hex is None]
    if unseen and (rules.enemy_source_exit or rules.own_source_exit):
        unknowns.append(f"{', '.join(unseen)}: exited, but no save given shows where from, so the end-of-play "
                        "awards count none of them (give the earlier saves to count them)")
    out = []
    if (a := rules.enemy_source_exit) is not None:
        blocked = {p.hex for uid, p in h.last.positions.items() if p.hex is not None
                   and units[uid].side == rules.opponent}
        reach = frozenset().union(*(n.reachable(a.to_hexes, blocked) for n in a.networks))
        before = [r for r in exits if r.last_hex in a.from_hexes
                  and (w is None or (r.turn is not None and r.turn < w))]
        counted = [r for r in before if r.last_hex in reach]
        cut = f"; {len(before) - len(counted)} more have no route free of {rules.opponent} units" \
            if len(counted) < len(before) else ""
        out.append(Item(a.rule_ref, f"{a.factor} x value of {len(counted)} {rules.side} unit(s) exited from "
                                    f"{rules.opponent} supply source hexes before the {rules.side} withdrawal, with a "
                                    f"free route to the {rules.side} supply sources{cut}",
                        sum(a.factor * unit_value(units[r.unit], rules.artillery_kinds) for r in counted), end, last,
                        tuple(r.unit for r in counted), tuple(label(r.last_hex) for r in counted if r.last_hex)))
    if (b := rules.own_source_exit) is not None:
        armor = [r for r in exits if r.last_hex in b.from_hexes and units[r.unit].kind in b.kinds]
        points = sum(units[r.unit].attack or 0 for r in armor)
        text = (f"{points} attack point(s) of {len(armor)} {'/'.join(sorted(b.kinds))} unit(s) exited from "
                f"{rules.side} supply source hexes, {b.per_point} each")
        if w is None:
            text = f"no {rules.side} withdrawal declared, so nothing ({text})"
        out.append(Item(b.rule_ref, text, 0 if w is None else b.per_point * points, end, last,
                        tuple(r.unit for r in armor)))
    return out
