"""Alternate counters (RULES-MAP N28): several pieces that are one unit, or one choice, of which
at most so many may be in play at a time.

seed 001 0.1: "The units with four steps are represented by two counters, used alternately (and
not simultaneously)": the counters of a 4-step unit share a value of an attribute (units.toml
``attrs = { alternates = "10pz-pzrgt7" }``) and at most one of them is in play. seed 003 S5.6:
"There are two Axis Direct Command chits included in the game. Only one should be used": the two
chits share a value too, and one at most leaves the box of unused pieces.

A counter is in play wherever it stands, on the map or in an off-map box, except in the boxes
`not_in_play` names (the box of unused counters, the eliminated units): a counter waiting in a turn
box is the unit, due to arrive. A piece whose place the save does not tell is left out, never guessed.

>>> from vassal_adj.model.geometry.hexes import Hex
>>> from vassal_adj.model.state import GameState, Position
>>> from vassal_adj.model.units import Unit
>>> a = Unit("a", "9-6-8-9 Pz.Rgt 7 (4-3)", "Axis", "armour", 8, attrs={"alternates": "pzrgt7"})
>>> b = Unit("b", "5-3-8-8 Pz.Rgt 7 (2-1)", "Axis", "armour", 8, attrs={"alternates": "pzrgt7"})
>>> s = GameState({"a": a, "b": b}, {"a": Position(Hex.from_raw(5, 5), "0606"), "b": Position(box="Unused")})
>>> check_alternates(s, Alternates(not_in_play=("unused",)), "0.1")
[]
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from vassal_adj.model.geometry.hexes import Hex
from vassal_adj.model.state import GameState, Position
from vassal_adj.rules.engine import RuleContext
from vassal_adj.rules.mechanisms.implementations import severity_of
from vassal_adj.rules.registry import Param, register
from vassal_adj.rules.results import Finding, Severity
from vassal_adj.rules.select import Selector, selector_at

__all__ = ["Alternates", "check_alternates", "in_boxes", "units_alternates"]


def in_boxes(pos: Position, boxes: frozenset[str]) -> bool:
    """Whether `pos` is an off-map box that `boxes` names, by its [boxes] kind or its name (casefolded)."""
    if pos.box is None:
        return False
    kind = pos.named.kind.casefold() if pos.named is not None else None
    return pos.box.strip().casefold() in boxes or kind in boxes


@dataclass(frozen=True)
class Alternates:
    """Counters of `units` sharing a value of attribute `group_attr` are one unit (or one choice):
    at most `max_in_play` of them may be in play, that is anywhere but in the `not_in_play` boxes."""

    group_attr: str = "alternates"
    units: Selector = field(default_factory=Selector)
    not_in_play: tuple[str, ...] = ("eliminated",)
    max_in_play: int = 1

    def __post_init__(self) -> None:
        if isinstance(self.max_in_play, bool) or not isinstance(self.max_in_play, int) or self.max_in_play < 1:
            raise ValueError(f"max_in_play: expected a whole number >= 1, got {self.max_in_play!r}")
        if not self.group_attr.strip():
            raise ValueError("group_attr: expected the name of a unit attribute, got an empty string")


def _place(pos: Position, label: str | None) -> str:
    if label:
        return f"in {label}"
    return f"in box {pos.box!r}" if pos.box is not None else "on the map"


def _scan_order(pos: Position, uid: str) -> tuple[bool, str, str, str]:
    # The map's counters first, by hex, then the boxes': the order a reader scans the board in.
    return (pos.hex is None, pos.label or "", pos.box or "", uid)


def check_alternates(
    state: GameState,
    rules: Alternates,
    rule_ref: str,
    *,
    rule: str | None = None,
    severity: Severity = Severity.ERROR,
    label: Callable[[Hex], str] | None = None,
) -> list[Finding]:
    """A finding for every group of alternate counters with more than `max_in_play` in play, sorted."""
    out_boxes = frozenset(b.strip().casefold() for b in rules.not_in_play)
    groups: dict[str, list[str]] = {}
    for uid in sorted(state.units):
        u = state.units[uid]
        pos = state.positions.get(uid, Position())
        value = u.attrs.get(rules.group_attr)
        if value is None or not rules.units.matches(u, pos.box):
            continue
        if (pos.hex is None and pos.box is None) or in_boxes(pos, out_boxes):
            continue
        groups.setdefault(str(value), []).append(uid)
    cite = f" [{rule_ref}]" if rule_ref else ""
    out = []
    for value, ids in sorted(groups.items()):
        if len(ids) <= rules.max_in_play:
            continue
        where = []
        for uid in sorted(ids, key=lambda i: _scan_order(state.positions[i], i)):
            pos = state.positions[uid]
            lab = pos.label or (label(pos.hex) if label is not None and pos.hex is not None else None)
            where.append((uid, lab, f"{state.units[uid].name} {_place(pos, lab)}"))
        words = " and ".join(w for _, _, w in where)
        most = "one" if rules.max_in_play == 1 else f"{rules.max_in_play}"
        rest = f", the others in {' or '.join(rules.not_in_play)} boxes" if rules.not_in_play else ""
        msg = (
            f"{len(ids)} counters of one unit ({rules.group_attr} {value!r}) are in play: {words}; "
            f"they are used alternately, {most} at a time in play{rest}{cite}"
        )
        hexes = tuple(dict.fromkeys(lab for _, lab, _ in where if lab))
        out.append(Finding(rule or rule_ref, severity, msg, tuple(uid for uid, _, _ in where), hexes))
    return sorted(out, key=Finding.sort_key)


@register(
    "units.alternates",
    params={
        "group_attr": Param(
            "alternates", "str", "the unit attribute (units.toml attrs) whose shared value makes counters one unit"
        ),
        "units": Param({}, "selector", "the counters concerned (default: every unit with the attribute)"),
        "not_in_play": Param(
            ("eliminated",),
            "list[str]",
            "off-map boxes, by [boxes] kind or box name, where a counter is not in play; anywhere else it is",
        ),
        "max_in_play": Param(1, "int", "most counters of one group in play at a time"),
        "severity": Param("error", "str", "severity of a finding"),
    },
)
def units_alternates(state: GameState, ctx: RuleContext, p: Mapping[str, Any]) -> list[Finding]:
    """Alternate counters of one unit (or one choice): at most `max_in_play` of them in play."""
    rules = Alternates(p["group_attr"], selector_at(p["units"], "units"), tuple(p["not_in_play"]), p["max_in_play"])
    ref = ctx.rule.cited if ctx.rule is not None else ""
    return check_alternates(state, rules, ref, rule=ctx.cite(), severity=severity_of(p["severity"]), label=ctx.label)
