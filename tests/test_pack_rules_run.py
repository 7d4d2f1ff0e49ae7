"""Every save rule of the shipped Tunisia 1943 and Kesselring's War packs runs on their example boards,
in every scenario and with none, on an empty position and on turn 1: a rule whose parameters `packs
validate` accepts but that cannot run (a PackError, as Kesselring's War 26.1 once did: a marker event
with no turn box) is found here, not by a user's `check` ending in exit 2."""

import pytest
from kw_board import BOARD as KW
from tunisia_board import BOARD as TUNISIA

from vassal_adj.rules.registry import REGISTRY

CASES = [
    (board, rule.name, scenario)
    for board in (TUNISIA, KW)
    for rule in board.pack.rules
    if not REGISTRY.lookup(rule.impl).log
    for scenario in (None, *board.pack.scenarios)
]


@pytest.mark.parametrize(("board", "rule", "scenario"), CASES, ids=[f"{b.pack.id}-{r}-{s}" for b, r, s in CASES])
def test_the_rule_runs(board, rule, scenario) -> None:
    found = board.run(rule, board.state({}, turn=1, phase=None), scenario)
    assert all(f.rule.startswith(board.pack.id) for f in found)
