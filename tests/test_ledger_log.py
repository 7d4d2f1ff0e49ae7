"""`verify` records each segment's die rolls and track changes (Segment.ledger, N19), and the log rule
`track.ledger` judges the AP a segment paid from them: a second parameter set, on the Kasserine
example module (not Kesselring's War), with an "AP" track read from a global property.

Seed 004 6.1 "the appropriate number of AP are expended"; here every Axis move costs 1 AP of a
track the module keeps in the property "AP", and a gain phase is none. The 3-2-16 (580) moves
2525 -> 3920 (12 MP of its 16, test_verify_moment.py).
"""

from __future__ import annotations

from pathlib import Path

from test_state_tracks import loaded, pack_with
from test_verify_moment import UNIT, log, verify

from vassal_adj.parse.commands import Node

LEDGER = {
    "impl": "track.ledger",
    "rule_ref": "6.1",
    "tracks": {"ap": "Axis"},
    "costs": {"move": 1},
    "action_phases": ["axis-movement"],
}
PACK = loaded(pack_with({"tracks": {"ap": {"property": "AP", "min": 0, "max": 20}}}, rules={"ledger": LEDGER}))


def pay(before: str, after: str) -> Node:
    return Node(f"MutableProperty\tAP\t{before}\t{after}\tModule")


def ledger_findings(path: Path) -> list[str]:
    return [f.message for f in verify(path, PACK).findings if f.rule.endswith(":6.1")]


def test_6_1_a_move_paid_one_ap_in_the_log_is_legal(tmp_path: Path) -> None:
    path = log(
        tmp_path / "paid.vlog", {"AP": "5"}, [pay("5", "4"), ("roll", "Axis", "3"), ("move", "Axis", UNIT, "3920")]
    )
    assert ledger_findings(path) == []


def test_6_1_a_move_paid_two_ap_in_the_log_is_a_finding(tmp_path: Path) -> None:
    path = log(tmp_path / "paid2.vlog", {"AP": "5"}, [pay("5", "3"), ("move", "Axis", UNIT, "3920")])
    assert ledger_findings(path) == [
        "Turn 4 axis-movement: the Axis AP marker went down by 2 (5 to 3), the move costs 1 [6.1]"
    ]
