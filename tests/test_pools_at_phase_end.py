"""Stacking pools (N8, stacking.pools) are judged on the position each movement phase of a log leaves.

Tunisia 1943 12: "Two combat units maximum can stacked together on a hex simultaneously ... it
doesn't apply during the movement phase, that is to say that the units can move without taking into
account stacking, but they cannot be voluntarily stacked more than two at the end of the movement
phase." No Question of Surrender series rules: "The maximum stacking in a hex is 4 Units, 3 not in
Column and 1 in Column." A copy of the Kasserine pack gets a pool of two Axis units a hex; three Axis
units end the axis-movement phase of the log in 3920: 3-2-16 (580) and 1-2-9 (Lang) move there and a
third Axis piece (a copy of 5-3-12 (2/7)) is put there.
"""

from __future__ import annotations

from pathlib import Path

from test_segments import pack_with, verify

from vassal_adj.rules.results import Severity

POOL = """
[rules.combat_stacking]
impl = "stacking.pools"
rule_ref = "12"
pools = [{ name = "combat units", units = { sides = ["Axis"] }, limit = %d }]
checked_at = ["end-of-phase"]
"""
MOVES = [
    ("move", "Axis", "3-2-16 (580)", "3920"),
    ("move", "Axis", "1-2-9 (Lang)", "3920"),
    ("add", "Axis", "5-3-12 (2/7)", "3920", "third"),
]


def pool_findings(tmp_path: Path, limit: int) -> list[str]:
    v = verify(tmp_path, pack_with(tmp_path, POOL % limit), MOVES)
    return [f.message for f in v.findings if f.rule.endswith(":12") and f.severity == Severity.ERROR]


def test_12_three_units_stacked_at_the_end_of_the_movement_phase(tmp_path: Path) -> None:
    (found,) = pool_findings(tmp_path, 2)
    assert found.startswith("end of Turn 4 axis-movement: ") and "3920" in found and "combat units" in found, found


def test_12_two_units_a_hex_is_within_the_limit_of_three(tmp_path: Path) -> None:
    """The same three units under a limit of three (the series rules' "3 not in Column"): no finding."""
    assert pool_findings(tmp_path, 3) == []
