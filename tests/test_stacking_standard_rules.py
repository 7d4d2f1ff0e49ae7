"""Stacking found in play cites the standard rules' stacking rule, not section 23's set-up sentence.

The seed says "Units may not be stacked" only in the set-up lists of 23; that stacking is
forbidden in play is the standard rules' (the 1976 SPI quadrigame rules, as publicly
described), which the Kasserine pack holds as the assumption `stacking_limit`. So the pack's
`stacking` rule cites that assumption (``rule_ref = { assumption = "stacking_limit" }``):
its findings cite ``kasserine:assumption stacking_limit`` and their message names the source.
At set-up, `allied_setup` (setup.deployment, no_stacking) still cites 23.
"""

from __future__ import annotations

import re
from functools import cache

import pytest
from conftest import REPO

import vassal_adj
from vassal_adj.errors import PackError
from vassal_adj.model.geometry.layout import HexLayout
from vassal_adj.model.geometry.maps import board_hex_layouts
from vassal_adj.model.state import GameState, Position
from vassal_adj.model.terrain import TerrainMap
from vassal_adj.model.units import Unit
from vassal_adj.packs import find_pack
from vassal_adj.rules.engine import RuleContext
from vassal_adj.rules.packs.pack import RulePack
from vassal_adj.rules.results import Finding, Severity

MODULE = REPO / "modules" / "kasserine" / "example" / "Kasserine.vmod"
SOURCE = "1976 SPI quadrigame rules (Four Battles in North Africa), as publicly described: units may not stack"


@cache
def layout() -> HexLayout:
    (lay,) = board_hex_layouts(vassal_adj.load_module(MODULE).maps["Main Map"].boards["Kasserine"])
    return lay


def pack() -> RulePack:
    return find_pack("kasserine").pack


def stack_in_2714(turn: int | None, phase: str | None) -> GameState:
    """2-1-14 (1/13) and 2-3-11 (1/6), both of 23's 2714 group, stacked in 2714."""
    units = {
        "a": Unit("a", "2-1-14 (1/13)", "Allied", "armor", 14),
        "b": Unit("b", "2-3-11 (1/6)", "Allied", "armor", 11),
    }
    h = layout().require("2714")
    return GameState(units, {uid: Position(h, "2714") for uid in units}, turn, phase)


def run(rule_name: str, state: GameState) -> list[Finding]:
    rule = pack().rule(rule_name)
    ctx = RuleContext(TerrainMap(pack().vocabulary), layout(), "kasserine", rule=rule)
    assert rule.implementation is not None
    return [f for f in rule.implementation.func(state, ctx, rule.params) if f.severity == Severity.ERROR]


def test_stacking_in_play_cites_the_standard_rules_assumption_not_23() -> None:
    (found,) = run("stacking", stack_in_2714(3, "allied-movement"))
    assert found.rule == "kasserine:assumption stacking_limit"
    assert found.message == f"2 Allied units in 2714 exceed the limit of 1 [assumption stacking_limit: {SOURCE}]"
    assert found.hexes == ("2714",) and set(found.units) == {"a", "b"}


def test_stacking_at_set_up_is_23s_under_allied_setup() -> None:
    setup = stack_in_2714(None, None)
    stacked = [f for f in run("allied_setup", setup) if "stacked" in f.message]
    assert [f.rule for f in stacked] == ["kasserine:23"]
    assert stacked[0].message.startswith(
        "Allied 2-1-14 (1/13), 2-3-11 (1/6) are stacked in 2714: units may not be stacked"
    )
    # the standard rules forbid it at set-up too: the stacking rule cites its assumption there as well
    assert [f.rule for f in run("stacking", setup)] == ["kasserine:assumption stacking_limit"]


def test_the_pack_cites_the_assumption_and_reports_it_used() -> None:
    rule = pack().rule("stacking")
    assert (rule.rule_ref, rule.cited) == ("assumption stacking_limit", f"assumption stacking_limit: {SOURCE}")
    assert pack().cite("stacking") == "kasserine:assumption stacking_limit"
    assert pack().rule("allied_setup").cited == "23"


@pytest.mark.parametrize(
    ("rule_ref", "message"),
    [
        ({"assumption": "stacking_limt"}, "rules.stacking.rule_ref: unknown assumption 'stacking_limt' (known: "),
        ({"assumption": "stacking_limit", "rule": "23"}, "rules.stacking.rule_ref: expected str"),
    ],
)
def test_a_rule_ref_assumption_must_be_one_of_the_pack(rule_ref: object, message: str) -> None:
    data = {
        "pack": {"id": "x", "name": "X"},
        "assumptions": {"stacking_limit": {"value": 1, "source": "s"}},
        "rules": {"stacking": {"impl": "stacking.limit", "rule_ref": rule_ref}},
    }
    with pytest.raises(PackError, match=re.escape(message)):
        RulePack.from_mapping(data)
