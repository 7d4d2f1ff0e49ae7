"""Stacking limits (standard rules: no stacking; Kasserine set-up: "Units may not be stacked")."""

from __future__ import annotations

import doctest

import pytest

from vassal_adj.model.geometry.hexes import Hex
from vassal_adj.model.state import GameState, Position
from vassal_adj.model.units import Unit
from vassal_adj.rules.mechanisms import stacking as stacking_module
from vassal_adj.rules.mechanisms.stacking import StackingRules, check_stacking
from vassal_adj.rules.results import Severity

REF = "standard rules: no stacking"


def H(label: str) -> Hex:
    return Hex.from_raw(int(label[:2]) - 1, int(label[2:]) - 1)


def unit(
    uid: str, side: str = "Allied", kind: str = "infantry", steps: int = 1, flags: frozenset[str] = frozenset()
) -> Unit:
    return Unit(uid, f"1-2-7 ({uid})", side, kind, 7, steps=steps, flags=flags)


def state(*placed: tuple[Unit, str | None]) -> GameState:
    units = {u.id: u for u, _ in placed}
    pos = {u.id: Position(H(lab), lab) if lab else Position(box="eliminated") for u, lab in placed}
    return GameState(units, pos)


def test_doctests() -> None:
    assert doctest.testmod(stacking_module).failed == 0


def test_no_stacking_standard_rules() -> None:
    # Standard rules (1976 SPI quadrigame, as publicly described): units may not stack.
    # Kasserine section 23: "Place the following units in or adjacent to the hex listed for each
    # group. Units may not be stacked."
    s = state(
        (unit("a"), "2714"),
        (unit("b"), "2714"),
        (unit("c"), "2714"),
        (unit("d"), "1319"),
        (unit("x", "Axis"), "1319"),
        (unit("e"), None),
        (unit("f"), None),
    )
    found = check_stacking(s, StackingRules(), REF, rule="kasserine:standard-stacking")
    assert [f.message for f in found] == ["3 Allied units in 2714 exceed the limit of 1 [standard rules: no stacking]"]
    f = found[0]
    assert f.rule == "kasserine:standard-stacking" and f.severity is Severity.ERROR
    assert f.units == ("a", "b", "c") and f.hexes == ("2714",)
    # One Allied and one Axis unit in 1319 is not a stack of one side; eliminated units are off the map.
    assert check_stacking(state((unit("a"), "2714")), StackingRules(), REF) == []
    # Counted all together, the two sides in 1319 exceed the limit too.
    together = check_stacking(s, StackingRules(per_side=False), REF)
    assert [f.message for f in together] == [
        "2 units in 1319 exceed the limit of 1 [standard rules: no stacking]",
        "3 units in 2714 exceed the limit of 1 [standard rules: no stacking]",
    ]


def test_stacking_exemptions() -> None:
    marker = unit("m", kind="marker")
    hq = unit("hq", kind="hq", flags=frozenset({"hq"}))
    s = state((unit("a"), "2714"), (marker, "2714"), (hq, "2714"))
    # Markers are never units (default); an HQ counts unless the pack exempts it.
    assert [f.units for f in check_stacking(s, StackingRules(), REF)] == [("a", "hq")]
    assert check_stacking(s, StackingRules(exempt_flags=frozenset({"marker", "hq"})), REF) == []
    assert check_stacking(s, StackingRules(exempt_kinds=frozenset({"marker", "hq"})), REF) == []


def test_limits_by_class_and_by_steps() -> None:
    s = state(
        (unit("g1", kind="artillery"), "0306"),
        (unit("g2", kind="artillery"), "0306"),
        (unit("i1", steps=3), "0306"),
        (unit("i2", steps=2), "0312"),
    )
    rules = StackingRules(limit=3, per_kind={"artillery": 1})
    assert [f.message for f in check_stacking(s, rules, "x")] == [
        "2 Allied artillery units in 0306 exceed the limit of 1 for artillery [x]"
    ]
    steps = StackingRules(limit=4, measure="steps")
    assert [f.message for f in check_stacking(s, steps, "x")] == [
        "5 steps of Allied units in 0306 exceed the limit of 4 [x]"
    ]
    assert check_stacking(s, StackingRules(limit=None), "x") == []


def test_stacking_is_checked_only_when_the_rules_say() -> None:
    s = state((unit("a"), "2714"), (unit("b"), "2714"))
    rules = StackingRules(checked_at=frozenset({"end-of-movement", "setup"}))
    assert len(check_stacking(s, rules, REF, when="setup")) == 1
    assert check_stacking(s, rules, REF, when="reinforcement") == []
    assert len(check_stacking(s, rules, REF)) == 1  # no moment given: always checked


def test_hexes_without_a_label_are_named_by_the_callable() -> None:
    us = {"a": unit("a"), "b": unit("b")}
    s = GameState(us, {u: Position(H("0101")) for u in us})
    assert check_stacking(s, StackingRules(), "x")[0].hexes == ("raw 0,0",)
    assert check_stacking(s, StackingRules(), "x", label=lambda h: "0101")[0].hexes == ("0101",)


@pytest.mark.parametrize(
    "bad", [dict(limit=-1), dict(measure="weight"), dict(per_kind={"armor": 1.5}), dict(exempt_kinds="hq")]
)
def test_bad_parameters_are_refused(bad: dict) -> None:
    with pytest.raises(ValueError):
        StackingRules(**bad)
