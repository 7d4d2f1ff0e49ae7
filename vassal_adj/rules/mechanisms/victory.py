"""Victory points over a game's history (RULES-MAP E8, N16), written generically.

The total is one side's ("The Axis Player keeps a running total"). Every amount, hex, turn
window and level is a field of `VictoryRules`, filled from the pack by victory_rules.py.
Objectives, eliminations and the end-of-play awards are scored through the general victory
terms (victory_schedule.py); the late penalty, the choice of one award and the withdrawal
conditions are this rule's own.

- `unit_value` (22.11): attack + defense, or barrage + FPF + defense for artillery.
- Objectives (22.31, 22.32, 22.41.1-4, 7): points when the side first enters a hex, if that
  turn is in a window of the hex (or before the side's withdrawal); the first entry decides, once.
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

from vassal_adj.rules.history import Declaration, History
from vassal_adj.rules.mechanisms.victory_schedule import (
    Awards,
    EnemySourceExit,
    Objective,
    OwnSourceExit,
    award_items,
    elimination_items,
    objective_items,
)
from vassal_adj.rules.mechanisms.victory_terms import Event
from vassal_adj.rules.mechanisms.victory_values import Item, Label, strengths, unit_value
from vassal_adj.rules.mechanisms.withdrawal import (
    ExitCondition,
    HoldCondition,
    exit_items,
    hold_items,
    second_declarations,
)

__all__ = [
    "EnemySourceExit",
    "ExitCondition",
    "HoldCondition",
    "Item",
    "LatePenalty",
    "Level",
    "Objective",
    "OwnSourceExit",
    "Tally",
    "VictoryRules",
    "check_levels",
    "tally",
    "unit_value",
    "victory_level",
]


@dataclass(frozen=True)
class LatePenalty:
    """22.42.3: `points` at the end of every turn after `after_turn`, no withdrawal yet."""

    points: int
    after_turn: int
    rule_ref: str = ""


@dataclass(frozen=True)
class Level:
    """A victory level: totals from `low` to `high` inclusive (None: unbounded)."""

    name: str
    low: int | None = None
    high: int | None = None

    def holds(self, total: int) -> bool:
        return (self.low is None or total >= self.low) and (self.high is None or total <= self.high)


def check_levels(levels: Collection[Level]) -> None:
    """ValueError when two levels overlap or leave a gap between them."""
    ordered = sorted(levels, key=lambda lv: -(10**9) if lv.low is None else lv.low)
    for a, b in pairwise(ordered):
        if a.high is None or b.low is None or b.low != a.high + 1:
            raise ValueError(
                f"victory levels {a.name!r} and {b.name!r} overlap or leave a gap "
                f"({a.low}..{a.high}, then {b.low}..{b.high})"
            )


def victory_level(total: int, levels: Collection[Level]) -> str | None:
    """The level whose range holds `total` (None when none does)."""
    return next((lv.name for lv in levels if lv.holds(total)), None)


@dataclass(frozen=True)
class VictoryRules:
    """A side's victory conditions: the points it scores and the levels its total reaches."""

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
    marker = rules.withdrawal_markers.get(rules.side)
    # no marker in any state: victory.points says so itself (_declaration) and counts no withdrawal
    withdrawal = Event(marker, rules.turn_box, rules.turn_kind) if marker and history.has_marker(marker) else None
    value = strengths(rules.artillery_kinds)
    items = (
        objective_items(history, rules.side, rules.objectives, withdrawal, label, unknowns)
        + elimination_items(history, rules.side, rules.eliminated, rules.eliminated_box, value, label)
        + _late(history, rules, w, final, unknowns)
        + (
            hold_items(history, rules.hold, decl.get(rules.hold.side), rules.artillery_kinds, label, unknowns)
            if rules.hold
            else []
        )
        + (
            exit_items(
                history, rules.exit, decl.get(rules.exit.side), rules.artillery_kinds, rules.exited_box, label, unknowns
            )
            if rules.exit
            else []
        )
    )
    items.sort(key=lambda i: i.index)  # stable: rule order within a state
    awards = Awards(rules.enemy_source_exit, rules.own_source_exit, value)
    options = award_items(history, rules.side, rules.opponent, rules.exited_box, awards, withdrawal, label, unknowns)
    faults = second_declarations(
        history, rules.withdrawal_markers, rules.turn_box, rules.withdrawal_rule, rules.turn_kind
    )
    return Tally(tuple(items), tuple(options), tuple(unknowns), rules.levels, tuple(faults))


def _declaration(h: History, rules: VictoryRules, side: str, unknowns: list[str]) -> Declaration | None:
    marker = rules.withdrawal_markers[side]
    d = h.declared(marker, rules.turn_box, rules.turn_kind)
    if d is None and not h.has_marker(marker):
        unknowns.append(f"no piece named {marker!r} is in the save(s): the {side} withdrawal counts as undeclared")
    return d


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
        out.append(Item(lp.rule_ref, f"end of turn {t} with no {rules.side} withdrawal declared", lp.points, t, index))
    if not final and last > lp.after_turn and (w is None or w > last):
        unknowns.append(
            f"turn {last} is not over in the last save: if it ends with no {rules.side} withdrawal "
            f"declared, [{lp.rule_ref}] adds {lp.points:+d} more"
        )
    return out
