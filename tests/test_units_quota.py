"""The log rule ``units.quota`` (rules/mechanisms/quota.py, RULES-MAP N19) with a second game's
parameters beside seed 001's sustained EMs (tests/test_tunisia_10_exploitation.py): Kesselring's
War (seed 004) 25.2 "A Fortification build is declared, one AP is expended, and one fortification
marker is placed in a hex containing a friendly mobile or static ground unit" and 6.1 "Only one
Action may be taken during an Action Segment": at most one new fortification a side in a segment
(``count = "new"``, ``limits = { "*" = ... }``). The fortification markers are read as units of
class "fortification", side by their colour (an assumption of this test's units, not a pack)."""

from __future__ import annotations

import dataclasses
from types import MappingProxyType

import pytest
from tunisia_board import LAYOUT, PACK, TERRAIN, H

from vassal_adj.model.state import GameState, Position
from vassal_adj.model.units import Unit
from vassal_adj.rules.engine import RuleContext
from vassal_adj.rules.mechanisms.quota import units_quota
from vassal_adj.rules.packs.pack_rules import RuleConfig
from vassal_adj.rules.segments import Opened, Segment

FORTS = {"units": {"kinds": ["fortification"]}, "limits": {"*": {"Allied": 1, "Axis": 1}}, "count": "new"}


def fort(n: int, side: str = "Allied") -> Unit:
    return Unit(f"f{n}", f"Fortification {n}", side, "fortification", 0)


def at(units: dict[Unit, str]) -> GameState:
    return GameState({u.id: u for u in units}, {u.id: Position(H(h), h) for u, h in units.items()}, 3, "action")


def run(start: GameState, end: GameState, params: dict = FORTS, scenario: str | None = None) -> list:
    rule = RuleConfig("fortifications", "units.quota", "25.2", MappingProxyType(params), frozenset(params), {})
    ctx = RuleContext(TERRAIN, LAYOUT, "kesselring", rule=rule)
    if scenario is not None:
        ctx = dataclasses.replace(ctx, scenario=PACK.scenarios[scenario])
    seg = Segment(3, "action", Opened("segment"), start, end, {})
    return units_quota(seg, ctx, params)


def test_25_2_one_fortification_built_in_an_action_segment() -> None:
    """Two fortifications already on the map, one placed in the segment: no finding."""
    old = {fort(1): "1010", fort(2): "1012"}
    assert run(at(old), at({**old, fort(3): "1014"})) == []


def test_25_2_two_fortifications_placed_in_one_segment_is_an_error() -> None:
    old = {fort(1): "1010"}
    (f,) = run(at(old), at({**old, fort(2): "1012", fort(3): "1014", fort(4, "Axis"): "1016"}))
    assert f.severity == "error" and f.rule == "kesselring:25.2"
    assert f.message == ("Allied has 2 new fortification units (Fortification 2, Fortification 3): at most 1 [25.2]")
    assert f.hexes == ("1012", "1014")


def test_count_all_counts_every_unit_picked_at_the_segment_end() -> None:
    every = {**FORTS, "count": "all", "limits": {"*": {"Allied": 2}}}
    old = {fort(1): "1010", fort(2): "1012"}
    assert run(at(old), at(old), every) == []
    (f,) = run(at(old), at({**old, fort(3): "1014"}), every)
    assert "Allied has 3 fortification units" in f.message


def test_limits_by_scenario_and_an_unknown_scenario() -> None:
    """Limits that differ by scenario: the game's applies; none known, a warning says so."""
    by = {**FORTS, "limits": {"campaign-1": {"Allied": 1}, "campaign-2": {"Allied": 2}}}
    two = at({fort(1): "1010", fort(2): "1012"})
    assert len(run(at({}), two, by, "campaign-1")) == 1
    assert run(at({}), two, by, "campaign-2") == []
    (w,) = run(at({}), two, by)
    assert w.severity == "warning" and "not judged" in w.message


def test_a_count_of_no_known_kind_is_refused() -> None:
    with pytest.raises(ValueError, match="count: expected one of all, new"):
        run(at({}), at({}), {**FORTS, "count": "built"})
