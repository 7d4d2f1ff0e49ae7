"""``log.segments`` `joint_with` and a log rule's `when` in `verify` (rules/segments.py,
pbem/verify.py), on logs of the Kasserine example module (tests/kasserine_logs.py) with a copy of
the Kasserine pack: the parameters of seed 001 4.1 ("The movement of every unit must be ended
before passing to another (except joint movement in one armor breakthrough, see 4.3)") on another
game's board. 3-2-16 (580) starts in 3113; 1-2-9 (Lang) is put in 3113 too, or left in its hex."""

from __future__ import annotations

from pathlib import Path

from kasserine_logs import MODULE, write_log
from test_segments import TO_2525, TO_3920, pack_with

import vassal_adj
from vassal_adj.packs import load_pack
from vassal_adj.pbem.replay import replay
from vassal_adj.pbem.verify import Verification, verify_turn

LANG = ("move", "Axis", "1-2-9 (Lang)", "2525")
ONE_BY_ONE = '\n[rules.one_by_one]\nimpl = "log.segments"\nrule_ref = "4.1"\nmoves_not_interleaved = true\n'
JOINT = ONE_BY_ONE + 'joint_with = { names = ["3-2-16 (580)"] }\n'


def verify(tmp_path: Path, rules: str, moved: dict[str, str]) -> Verification:
    tmp_path.mkdir(exist_ok=True)
    log = write_log(tmp_path / "log.vlog", [TO_2525, LANG, TO_3920], moved=moved)
    module, game = vassal_adj.load_module(MODULE), vassal_adj.load_save(log)
    return verify_turn(module, game, load_pack(pack_with(tmp_path, rules)), replay(game.root, module, game.path))


def interleaved(v: Verification) -> list[str]:
    return [f.message for f in v.findings if f.rule.endswith(":4.1")]


def test_4_1_units_of_one_hex_one_picked_by_joint_with_move_together(tmp_path: Path) -> None:
    assert interleaved(verify(tmp_path, JOINT, {"1-2-9 (Lang)": "3113"})) == []


def test_4_1_joint_with_needs_the_same_hex_at_the_start(tmp_path: Path) -> None:
    (found,) = interleaved(verify(tmp_path, JOINT, {}))
    assert "3-2-16 (580) moved again in the phase after 1-2-9 (Lang) moved" in found


def test_4_1_without_joint_with_units_of_one_hex_do_not_move_together(tmp_path: Path) -> None:
    assert len(interleaved(verify(tmp_path, ONE_BY_ONE, {"1-2-9 (Lang)": "3113"}))) == 1


def test_a_log_rule_out_of_its_when_is_not_run(tmp_path: Path) -> None:
    """The rule in force only in the combat phases says nothing of the movement phase's moves."""
    combat_only = ONE_BY_ONE + 'when = { phases = ["axis-combat"] }\n'
    assert interleaved(verify(tmp_path / "a", combat_only, {})) == []
    moving = ONE_BY_ONE + 'when = { phases = ["axis-movement"] }\n'
    assert len(interleaved(verify(tmp_path / "b", moving, {}))) == 1
