"""Logs cut into segments (N23, rules/segments.py): each segment has its own position, zones of
control and allowance, and says who may move in it.

Kesselring's War 6.1: "Action segments alternate; one action a segment" and 13.2: "a unit may
move again in another segment" (RULES-MAP.md W 6.1, 13.2): one unit moving in two actions with an
enemy action between has an allowance in each; within one action, one. No Question of Surrender
(series rules, activations): the formation of the chit drawn moves. Tunisia 1943 4.1: "Each unit's
move is finished before another unit moves"; 10: "Non-divisional units never exploit (except Tigers)"
(the exploitation phase's movers).

The logs are written to VASSAL's format from the example module (tests/kasserine_logs.py), judged
with a copy of the Kasserine pack that cuts its movement phases by a chat pattern. 3-2-16 (580)
(16 MP) at 3113: 3113 -> 2525 costs 8.5 MP, 2525 -> 3920 12 MP (20.5 in all).
"""

from __future__ import annotations

import re
import shutil
from fractions import Fraction
from pathlib import Path

import pytest
from conftest import REPO
from kasserine_logs import MODULE, write_log
from test_vassal_accepts import oracle_pieces

import vassal_adj
from vassal_adj.errors import PackError
from vassal_adj.model.events import ChatLine, PropertySet, TurnChanged
from vassal_adj.packs import load_pack
from vassal_adj.parse.commands import iter_nodes, log_steps
from vassal_adj.pbem.replay import replay
from vassal_adj.pbem.verify import Verification, verify_turn
from vassal_adj.rules.results import Severity
from vassal_adj.rules.segments import Opened, Segmenting, opened_by, segmenting

ACTIONS = """
[rules.actions]
impl = "log.segments"
rule_ref = "6.1"
by = { chat = '(?P<side>Axis|Allied) action' }
"""
AXIS_ACTION, ALLIED_ACTION = ("chat", "Axis", "Axis action"), ("chat", "Allied", "Allied action")
TO_2525, TO_3920 = ("move", "Axis", "3-2-16 (580)", "2525"), ("move", "Axis", "3-2-16 (580)", "3920")
ALLIED_MOVE = ("move", "Allied", "2-3-11 (1/6)", "2115")


def pack_with(tmp_path: Path, rules: str) -> Path:
    """A copy of the Kasserine pack with `rules` added to its pack.toml."""
    pack = tmp_path / "pack"
    shutil.copytree(REPO / "modules" / "kasserine", pack, ignore=shutil.ignore_patterns("example"))
    toml = pack / "pack.toml"
    toml.write_text(toml.read_text(encoding="utf-8") + rules, encoding="utf-8")
    return pack


def verify(tmp_path: Path, pack: Path | str, steps: list[tuple[str, ...]]) -> Verification:
    log = write_log(tmp_path / "log.vlog", steps)
    module, game = vassal_adj.load_module(MODULE), vassal_adj.load_save(log)
    lp = load_pack(pack) if isinstance(pack, Path) else pack
    return verify_turn(module, game, lp, replay(game.root, module, game.path))


def errors(v: Verification) -> list[str]:
    return [f.message for f in v.findings if f.severity == Severity.ERROR]


def test_6_1_a_unit_moves_in_two_actions_with_an_enemy_action_between(tmp_path: Path) -> None:
    v = verify(
        tmp_path, pack_with(tmp_path, ACTIONS), [AXIS_ACTION, TO_2525, ALLIED_ACTION, ALLIED_MOVE, AXIS_ACTION, TO_3920]
    )
    assert errors(v) == []
    moves = [(p.segment, m.name, m.start, m.end, m.ok, m.cost) for p in v.phases for m in p.moves]
    assert moves == [
        ("segment side='Axis'", "3-2-16 (580)", "3113", "2525", True, 8.5),
        ("segment side='Allied'", "2-3-11 (1/6)", "2015", "2115", True, Fraction(1, 2)),
        ("segment side='Axis'", "3-2-16 (580)", "2525", "3920", True, 12),
    ]


def test_6_1_a_unit_exceeds_its_allowance_within_one_action(tmp_path: Path) -> None:
    v = verify(tmp_path, pack_with(tmp_path, ACTIONS), [AXIS_ACTION, TO_2525, TO_3920, ALLIED_ACTION, ALLIED_MOVE])
    (error,) = errors(v)
    assert error.startswith(
        "Turn 4 axis-movement, segment side='Axis': Axis 3-2-16 (580) moved "
        "3113 -> 2525 -> 3920: leg 2, 2525 -> 3920: needs 12 MP more after 8.5 MP"
    )


def test_without_segments_the_same_log_is_one_move_and_an_enemy_move_out_of_phase(tmp_path: Path) -> None:
    v = verify(tmp_path, "kasserine", [AXIS_ACTION, TO_2525, ALLIED_ACTION, ALLIED_MOVE, AXIS_ACTION, TO_3920])
    found = errors(v)
    assert len(found) == 2
    assert "Allied 2-3-11 (1/6) moved 2015 -> 2115 in the axis-movement phase" in found[0] + found[1]
    assert "3113 -> 2525 -> 3920: leg 2" in found[0] + found[1]


ACTIVATIONS = """
[rules.activations]
impl = "log.segments"
rule_ref = "activation"
by = { chat = '(?P<side>Axis|Allied) activates (?P<formation>.+)$' }
movers = { "*" = { formations = ["$formation"] } }
"""


def test_activation_only_the_formation_of_the_chit_moves(tmp_path: Path) -> None:
    """No Question of Surrender's activations: the formation the chit names moves (RULES-MAP Q)."""
    steps = [("chat", "Axis", "Axis activates 21. Panzer-Division"), TO_2525, ("move", "Axis", "1-2-9 (Lang)", "3920")]
    v = verify(tmp_path, pack_with(tmp_path, ACTIVATIONS), steps)
    (error,) = errors(v)
    assert error == (
        "Turn 4 axis-movement, segment side='Axis' formation='21. Panzer-Division': Axis 1-2-9 (Lang) "
        "moved in the segment side='Axis' formation='21. Panzer-Division', in which only units of "
        "21. Panzer-Division may move [activation]"
    )


def test_4_1_a_units_move_is_finished_before_another_unit_moves(tmp_path: Path) -> None:
    rule = '\n[rules.one_by_one]\nimpl = "log.segments"\nrule_ref = "4.1"\nmoves_not_interleaved = true\n'
    v = verify(tmp_path, pack_with(tmp_path, rule), [TO_2525, ("move", "Axis", "1-2-9 (Lang)", "3920"), TO_3920])
    found = [f for f in v.findings if f.rule.endswith(":4.1")]
    assert [f.message for f in found] == [
        (
            "Turn 4 axis-movement: Axis 3-2-16 (580) moved again in the phase after 1-2-9 (Lang) moved: a "
            "unit's move is finished before another unit moves [4.1]"
        )
    ]


def test_4_1_moves_one_after_another_are_not_interleaved(tmp_path: Path) -> None:
    rule = '\n[rules.one_by_one]\nimpl = "log.segments"\nrule_ref = "4.1"\nmoves_not_interleaved = true\n'
    v = verify(tmp_path, pack_with(tmp_path, rule), [TO_2525, TO_3920, ("move", "Axis", "1-2-9 (Lang)", "3920")])
    assert not [f for f in v.findings if f.rule.endswith(":4.1")]


def test_6_1_a_change_of_the_action_points_track_opens_a_segment() -> None:
    """Kesselring's War 6.1: an action spends Action Points; the AP track's change opens it."""
    cut = Segmenting("track", track="Axis AP")
    assert opened_by(cut, [PropertySet(name="Axis AP", before="5", after="4", command=1, step=1)]) == Opened(
        "segment", {"value": "4"}
    )
    assert opened_by(cut, [PropertySet(name="Allied AP", before="5", after="4", command=1, step=1)]) is None
    assert opened_by(cut, [TurnChanged(tracker="Axis AP", state="3", command=1, step=1)]) == Opened(
        "segment", {"value": "3"}
    )
    undone = PropertySet(name="Axis AP", before="4", after="5", command=1, step=1, undo=True)
    assert opened_by(cut, [undone]) is None


def test_a_chat_report_opens_no_segment() -> None:
    cut = Segmenting("chat", chat=re.compile("(?P<side>Axis) action"))
    assert opened_by(cut, [ChatLine(text="* Axis action marker moves *", report=True, command=1, step=1)]) is None
    assert opened_by(cut, [ChatLine(text="Axis action", command=1, step=1)]) == Opened("segment", {"side": "Axis"})


def test_a_by_of_no_known_form_is_a_pack_error(tmp_path: Path) -> None:
    rule = '\n[rules.actions]\nimpl = "log.segments"\nrule_ref = "6.1"\nby = BY\n'
    # a table of an unknown key: named as the pack is read (the parameter's shape)
    with pytest.raises(
        PackError,
        match=r"rules.actions.by.deck: unknown key \(known here: actions, chat, draw, name, pass, phases, track, \w+\)",
    ):
        load_pack(pack_with(tmp_path / "deck", rule.replace("BY", '{ deck = "x" }')))
    pack = pack_with(tmp_path, rule.replace("BY", '"turn"'))
    with pytest.raises(ValueError, match=r"rules.actions: by: expected"):
        segmenting(load_pack(pack).pack)
    with pytest.raises(PackError, match=r"rules.actions: by: expected"):
        verify(tmp_path, pack, [TO_2525])


def test_activation_moves_before_any_chit_are_not_judged_as_legal(tmp_path: Path) -> None:
    """Before a chit names a formation, who may move is not known: a warning, never a silent pass."""
    v = verify(tmp_path, pack_with(tmp_path, ACTIVATIONS), [TO_2525])
    (warning,) = [f.message for f in v.findings if f.severity == Severity.WARNING]
    assert warning == (
        "Turn 4 axis-movement: units moved in the phase, which no opener gave a formation: who may "
        "move in it is not checked [activation]"
    )


def test_a_movers_selector_with_an_unknown_key_is_a_pack_error(tmp_path: Path) -> None:
    rule = ACTIVATIONS.replace("formations = ", "divisions = ")
    # named as the pack is read (the parameter's shape), before any log is verified
    with pytest.raises(PackError, match=r'rules.activations.movers."\*".divisions: unknown key'):
        load_pack(pack_with(tmp_path, rule))


def test_11_2_each_action_judges_the_zones_of_control_as_the_action_begins(tmp_path: Path) -> None:
    """Kesselring's War 11.2/13.2: "Entering an EZOC ends the move for that action" (RULES-MAP W 11.2), so
    a unit's next action starts from the zones of control the enemy's action left: 1/6 closes up on 580
    at 2525 (2524 is adjacent) in the Allied action, and under Kasserine's sticky zones (19.2) 580 may not
    leave in its next action; with the same moves in one segment, 1/6's move would not have counted."""
    steps = [AXIS_ACTION, TO_2525, ALLIED_ACTION, ("move", "Allied", "2-3-11 (1/6)", "2524"), AXIS_ACTION, TO_3920]
    (error,) = errors(verify(tmp_path, pack_with(tmp_path, ACTIONS), steps))
    assert error.startswith(
        "Turn 4 axis-movement, segment side='Axis': Axis 3-2-16 (580) moved 2525 -> 3920: no legal "
        "path: unit starts in enemy zone of control at 2525 (of Allied 2-3-11 (1/6) in 2524)"
    )


def test_vassal_decodes_every_step_of_the_two_action_log(tmp_path: Path) -> None:
    """The log of the first test is one VASSAL reads: each chat line and move a LOG command it decodes."""
    steps = [AXIS_ACTION, TO_2525, ALLIED_ACTION, ALLIED_MOVE, AXIS_ACTION, TO_3920]
    log = write_log(tmp_path / "log.vlog", steps)
    result = oracle_pieces(MODULE, log)
    logged = [n for step in log_steps(vassal_adj.load_save(log).root) for _, _, n in iter_nodes(step)]
    assert len(logged) > len(steps)  # a move is logged with its new stack and its report
    assert result["load"]["decoded_commands"]["BasicLogger$LogCommand"] == len(logged)


def test_10_a_phase_names_who_moves_in_it(tmp_path: Path) -> None:
    """Tunisia 10: only divisional units exploit. The Kasserine copy has no exploitation phase, so its
    axis-movement phase stands for one; units of the 21. Panzer-Division stand for the divisional ones."""
    rule = (
        '\n[rules.exploitation]\nimpl = "log.segments"\nrule_ref = "10"\n'
        'movers = { axis-movement = { formations = ["21. Panzer-Division"] } }\n'
    )
    v = verify(tmp_path, pack_with(tmp_path, rule), [TO_2525, ("move", "Axis", "1-2-9 (Lang)", "3920")])
    assert [f.message for f in v.findings if f.rule.endswith(":10")] == [
        (
            "Turn 4 axis-movement: Axis 1-2-9 (Lang) moved in the phase, in which only units of 21. "
            "Panzer-Division may move [10]"
        )
    ]
