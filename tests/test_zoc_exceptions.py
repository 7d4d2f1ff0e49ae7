"""The `zoc_exceptions` parameter of ``movement.allowance`` (rules/mechanisms/breakthrough.py,
rules/crossing.py; RULES-MAP N6) with a second parameter set beside seed 001's armoured breakthrough
(tests/test_tunisia_4_3_breakthrough.py): recce units may cross, the crossing has no roll
(`proof = "none"`), no hex is immune (no `not_past`) and no unit crosses with another (`joint`
false). On the Tunisia example board (tests/tunisia_board.py): an Axis regiment in 2213 controls
2113 and its other neighbours; 2112 is free."""

from __future__ import annotations

import dataclasses
from types import MappingProxyType

import pytest
from tunisia_board import PACK, state, unit
from tunisia_log import by_severity, ctx, drags

from vassal_adj.model.state import GameState
from vassal_adj.rules.mechanisms.breakthrough import zoc_exceptions
from vassal_adj.rules.packs.pack import RulePack
from vassal_adj.rules.results import Finding
from vassal_adj.rules.turn import check_phase, turn_rules

RECCE_ONLY = [{"units": {"kinds": ["recce"]}, "proof": "none", "rule_ref": "R"}]
PZGR_69 = unit("5-5-8-8 PzGr 69 (10.Pz)", "Axis")
TIGER = unit("8-7-7-* sPzAbt 501/1", "Axis")
RANGER = unit("2-2-8-7 1 Ranger", "Allied")  # recce, 8 MP
CC_B = unit("6-4-9-7 CC B (1 Armd)", "Allied")
THROUGH = [("2013", "2113"), ("2113", "2112")]


def with_exceptions(exceptions: list[dict]) -> RulePack:
    """The pack's general movement and zone rules alone, the movement rule with `exceptions`."""
    rule = PACK.rule("movement")
    params = MappingProxyType({**rule.params, "zoc_exceptions": exceptions})
    return dataclasses.replace(PACK, rules=(dataclasses.replace(rule, params=params), PACK.rule("zoc")))


def judged(st: GameState, exceptions: list[dict], plan: list | None = None) -> list[Finding]:
    c = ctx(None)  # no scenario: its rules would be the pack's own, not these
    plan = plan or [(st_unit(st), THROUGH[0]), (st_unit(st), THROUGH[1])]
    return list(check_phase(st, st.phase, drags(plan), turn_rules(with_exceptions(exceptions), c), c).findings)


def st_unit(st: GameState) -> str:
    """The Allied unit of `st` (the mover)."""
    return next(uid for uid, u in st.units.items() if u.side == "Allied")


def test_a_unit_picked_crosses_legal_only_if_its_special_move_succeeded() -> None:
    st = state({PZGR_69: "2213", RANGER: "2013"}, turn=5, phase="allied-movement")
    (warning,) = by_severity(judged(st, RECCE_ONLY), "warning")
    assert "legal only if its breakthrough succeeded (the files do not show its outcome)" in warning
    assert warning.endswith("[R]")


def test_a_unit_not_picked_keeps_the_error_which_names_who_may_cross() -> None:
    st = state({PZGR_69: "2213", CC_B: "2013"}, turn=5, phase="allied-movement")
    (error,) = by_severity(judged(st, RECCE_ONLY), "error")
    assert error.endswith("only recce units may cross one [R]")


def test_without_not_past_no_hex_is_immune() -> None:
    st = state({PZGR_69: "2213", TIGER: "2213", RANGER: "2013"}, turn=5, phase="allied-movement")
    found = judged(st, RECCE_ONLY)
    assert by_severity(found, "error") == [] and len(by_severity(found, "warning")) == 1


def test_with_a_roll_proof_and_no_timing_the_roll_is_not_known() -> None:
    st = state({PZGR_69: "2213", RANGER: "2013"}, turn=5, phase="allied-movement")
    (warning,) = by_severity(judged(st, [{"units": {"kinds": ["recce"]}}]), "warning")
    assert "whether a die was rolled during its move is not known" in warning


def test_a_move_illegal_for_another_reason_is_not_a_crossing() -> None:
    """Too far even with the zone crossed: the allowance error stands, no warning."""
    st = state({PZGR_69: "2213", RANGER: "2013"}, turn=5, phase="allied-movement")
    far = state({PZGR_69: "2213", RANGER: "1313"}, turn=5, phase="allied-movement")
    assert by_severity(judged(st, RECCE_ONLY), "error") == []
    rule = PACK.rule("movement")
    params = MappingProxyType({**rule.params, "zoc_exceptions": RECCE_ONLY})
    pack = dataclasses.replace(PACK, rules=(dataclasses.replace(rule, params=params), PACK.rule("zoc")))
    c = ctx(None)  # the scenario's rules are the pack's own: these replace them
    plan = [(RANGER.id, ("1313", "2113")), (RANGER.id, THROUGH[1])]
    found = list(check_phase(far, far.phase, drags(plan), turn_rules(pack, c), c).findings)
    assert by_severity(found, "warning") == [] and by_severity(found, "error")


@pytest.mark.parametrize(
    ("entry", "message"),
    [
        ({"proof": "roll"}, r"zoc_exceptions\[0\]\.units: required"),
        ({"units": {}, "proof": "dice"}, r"zoc_exceptions\[0\]\.proof: expected one of roll, none"),
        ({"units": {"flag": ["x"]}}, r"zoc_exceptions\[0\]\.units\.flag: unknown key"),
    ],
)
def test_a_bad_entry_names_its_key_path(entry: dict, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        zoc_exceptions([entry])
