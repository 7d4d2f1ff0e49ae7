"""Combat-phase displacement limits (N24, rules/mechanisms/displacement.py), worked by hand from the rule
words on the example board (column 05 is clear from 0517 to 0526; hexes of one column are
adjacent, so 0517 -> 0519 is 2 hexes).

Tunisia 1943 7.5 ("Retreat after combat"; its CRT retreats 1 or 2 hexes, RULES-MAP.md T 7.5) and
7.6: "The active player could advance his units who participated in the combat into vacant hex
... but two units maximum could advance in this way ... The advances in question are limited to
one hex, even though the defender has retreated several hex".
Kesselring's War 17.1: "affected units move either one or two hexes"; 17.1.1: "Garrisons may never
retreat"; 17.2: "attacking units may conduct pursuit by moving into the cleared hex ... Static
units can never pursue"; 17.2.1: "Elite units may pursue up to two hexes. Exception:
Airborne/parachute units may only pursue one hex. The first hex must be the hex formerly occupied
by defending units."
Tunisia 1943 4.2, in the mover's movement phase: "The EM so entered moves back one hex (inactive
player's choice)".
"""

from __future__ import annotations

import shutil
from dataclasses import replace
from pathlib import Path

import pytest
from conftest import REPO
from kasserine_logs import MODULE, write_log

import vassal_adj
from vassal_adj.errors import PackError
from vassal_adj.model.geometry.maps import board_hex_layouts
from vassal_adj.model.state import GameState, Position
from vassal_adj.model.units import Unit
from vassal_adj.packs import load_pack
from vassal_adj.pbem.replay import replay
from vassal_adj.pbem.verify import verify_turn
from vassal_adj.rules.engine import RuleContext
from vassal_adj.rules.mechanisms.displacement import combat_displacement
from vassal_adj.rules.results import Finding, Severity
from vassal_adj.rules.segments import Opened, Segment
from vassal_adj.rules.turn import turn_rules

TUNISIA = """
[rules.after_combat]
impl = "combat.displacement"
rule_ref = "7.5"
advance_rule = "7.6"
phases = { axis-combat = "Axis", allied-combat = "Allied" }
retreat_max = 2
advance_max = 1
advance_units_max = 2
advance_into_vacated = true
"""
KESSELRING = """
[rules.after_combat]
impl = "combat.displacement"
rule_ref = "17.1"
advance_rule = "17.2"
phases = { axis-combat = "Axis" }
retreat_max = 2
advance_max = 1
advance_into_vacated = true
overrides = [{ units = { kinds = ["garrison"] }, retreat_max = 0 }, { units = { flags = ["static"] }, advance_max = 0 },
             { units = { flags = ["airborne"] }, advance_max = 1 }, { units = { flags = ["elite"] }, advance_max = 2 }]
"""


def unit(uid: str, side: str, kind: str = "infantry", *flags: str) -> Unit:
    return Unit(uid, f"{kind} {uid}", side, kind, 6, attack=2, defense=2, flags=frozenset(flags))


def pack_with(tmp_path: Path, rules: str) -> Path:
    pack = tmp_path / "pack"
    shutil.rmtree(pack, ignore_errors=True)
    shutil.copytree(REPO / "modules" / "kasserine", pack, ignore=shutil.ignore_patterns("example"))
    toml = pack / "pack.toml"
    toml.write_text(toml.read_text(encoding="utf-8") + rules, encoding="utf-8")
    return pack


@pytest.fixture(scope="module")
def layout():
    module = vassal_adj.load_module(MODULE)
    return board_hex_layouts(module.maps["Main Map"].boards["Kasserine"])[0]


def judge(
    tmp_path: Path, layout, rules: str, before: dict[Unit, str], after: dict[Unit, str], phase: str = "axis-combat"
) -> list[Finding]:
    """The rule on one segment of `phase`: units at `before`'s hexes, then those of `after` moved."""
    lp = load_pack(pack_with(tmp_path, rules))
    ctx = RuleContext(lp.terrain(layout), layout, "test")
    rule = lp.pack.rule("after_combat")

    def state(placed: dict[Unit, str]) -> GameState:
        return GameState(
            {u.id: u for u in placed},
            {u.id: Position(layout.hex_of(h), h) for u, h in placed.items()},
            4,
            phase,
            "good",
            {},
        )

    end = {**before, **after}
    moves = {
        u.id: [(Position(layout.hex_of(before[u]), before[u]), Position(layout.hex_of(h), h))] for u, h in after.items()
    }
    seg = Segment(4, phase, Opened("phase"), state(before), state(end), moves)
    return combat_displacement(seg, replace(ctx, rule=rule), rule.params)


def errors(found: list[Finding]) -> list[str]:
    return [f.message for f in found if f.severity == Severity.ERROR]


DEFENDER, ATTACKER, SECOND, THIRD = (unit("d1", "Allied"), unit("a1", "Axis"), unit("a2", "Axis"), unit("a3", "Axis"))


def test_7_5_a_retreat_of_two_hexes_and_7_6_an_advance_of_one_into_the_vacant_hex(tmp_path, layout) -> None:
    found = judge(tmp_path, layout, TUNISIA, {DEFENDER: "0518", ATTACKER: "0517"}, {DEFENDER: "0520", ATTACKER: "0518"})
    assert errors(found) == []
    assert [(f.rule, f.severity) for f in found] == [("test:7.5", Severity.INFO), ("test:7.6", Severity.INFO)]
    assert found[0].message.startswith(
        "Allied infantry d1 moved 0518 -> 0520 in the axis-combat phase: a retreat "
        "after combat of 2 hexes, within the 2 allowed; whether a combat result"
    )


def test_7_5_a_retreat_of_three_hexes_is_too_long(tmp_path, layout) -> None:
    found = judge(tmp_path, layout, TUNISIA, {DEFENDER: "0518", ATTACKER: "0517"}, {DEFENDER: "0521"})
    assert errors(found) == [
        (
            "Allied infantry d1 moved 0518 -> 0521 in the axis-combat phase: a retreat after combat "
            "of 3 hexes, and it may retreat at most 2 [7.5]"
        )
    ]


def test_7_6_advances_are_limited_to_one_hex_even_though_the_defender_retreated_several(tmp_path, layout) -> None:
    found = judge(tmp_path, layout, TUNISIA, {DEFENDER: "0518", ATTACKER: "0517"}, {DEFENDER: "0520", ATTACKER: "0519"})
    assert errors(found) == [
        (
            "Axis infantry a1 moved 0517 -> 0519 in the axis-combat phase: an advance after combat "
            "of 2 hexes, and it may advance at most 1 [7.6]"
        )
    ]


def test_7_6_two_units_maximum_could_advance(tmp_path, layout) -> None:
    before = {DEFENDER: "0518", ATTACKER: "0517", SECOND: "0417", THIRD: "0418"}
    found = judge(tmp_path, layout, TUNISIA, before, {DEFENDER: "0520", ATTACKER: "0518", SECOND: "0518"})
    assert errors(found) == []
    found = judge(
        tmp_path, layout, TUNISIA, before, {DEFENDER: "0520", ATTACKER: "0518", SECOND: "0518", THIRD: "0518"}
    )
    assert errors(found) == [
        (
            "3 units advanced after combat into 0518 (infantry a1, infantry a2, infantry a3) in the "
            "axis-combat phase, and at most 2 may [7.6]"
        )
    ]


def test_7_6_an_advance_goes_into_the_vacant_hex(tmp_path, layout) -> None:
    found = judge(tmp_path, layout, TUNISIA, {DEFENDER: "0520", ATTACKER: "0517"}, {ATTACKER: "0516"})
    assert errors(found) == [
        (
            "Axis infantry a1 moved 0517 -> 0516 in the axis-combat phase: an advance after combat "
            "goes first into a hex the enemy held and left, and no such hex is on its way [7.6]"
        )
    ]


def test_17_1_1_garrisons_may_never_retreat(tmp_path, layout) -> None:
    garrison = unit("d2", "Allied", "garrison")
    found = judge(tmp_path, layout, KESSELRING, {garrison: "0518", ATTACKER: "0516"}, {garrison: "0519"})
    assert errors(found) == [
        (
            "Allied garrison d2 moved 0518 -> 0519 in the axis-combat phase: a retreat after combat "
            "of 1 hex, and it may retreat at most 0 [17.1]"
        )
    ]


def test_17_2_static_units_never_pursue_and_elite_pursue_two_hexes_through_the_cleared_hex(tmp_path, layout) -> None:
    static, elite, para = (
        unit("s", "Axis", "infantry", "static"),
        unit("e", "Axis", "infantry", "elite"),
        unit("p", "Axis", "airborne", "airborne", "elite"),
    )
    before = {DEFENDER: "0518", elite: "0517", static: "0417", para: "0619"}
    found = judge(tmp_path, layout, KESSELRING, before, {DEFENDER: "0520", elite: "0519", static: "0518"})
    assert errors(found) == [
        (
            "Axis infantry s moved 0417 -> 0518 in the axis-combat phase: an advance after combat of "
            "1 hex, and it may advance at most 0 [17.2]"
        )
    ]
    found = judge(tmp_path, layout, KESSELRING, before, {DEFENDER: "0520", para: "0517"})
    assert len(errors(found)) == 1 and "may advance at most 1 [17.2]" in errors(found)[0]


def test_17_2_1_the_first_hex_of_an_elite_pursuit_is_the_cleared_hex(tmp_path, layout) -> None:
    elite = unit("e", "Axis", "infantry", "elite")
    found = judge(tmp_path, layout, KESSELRING, {DEFENDER: "0518", elite: "0516"}, {DEFENDER: "0520", elite: "0514"})
    assert errors(found) == [
        (
            "Axis infantry e moved 0516 -> 0514 in the axis-combat phase: an advance after combat "
            "goes first into a hex the enemy held and left, and no such hex is on its way [17.2]"
        )
    ]


def test_a_combat_phase_move_is_judged_instead_of_not_checked(tmp_path) -> None:
    """In a log: the combat phase's moves are judged by the rule, not warned about as 'not checked'."""
    steps = [("turn", "Axis", "Axis Combat"), ("move", "Allied", "2-3-11 (1/6)", "2018")]
    log = write_log(tmp_path / "log.vlog", steps)
    module, game = vassal_adj.load_module(MODULE), vassal_adj.load_save(log)

    def found(pack) -> list[tuple[str, str]]:
        v = verify_turn(module, game, pack, replay(game.root, module, game.path))
        return [(f.severity, f.message) for f in v.findings if "(1/6)" in f.message]

    (before,) = found("kasserine")
    assert before[0] == Severity.WARNING and "is not checked" in before[1]
    (after,) = found(load_pack(pack_with(tmp_path, TUNISIA)))
    assert after == (
        Severity.ERROR,
        (
            "Turn 4 axis-combat: Allied 2-3-11 (1/6) moved 2015 -> 2018 in the axis-combat "
            "phase: a retreat after combat of 3 hexes, and it may retreat at most 2 [7.5]"
        ),
    )


def test_an_override_without_units_is_a_pack_error(tmp_path) -> None:
    # named as the pack is read (the parameter's shape), before any log is verified
    with pytest.raises(PackError, match=r"pack.toml: rules.after_combat.overrides\[0\].units: missing required key"):
        load_pack(pack_with(tmp_path, TUNISIA + "overrides = [{ retreat_max = 0 }]\n"))


EM_MOVES_BACK = """
[rules.em_moves_back]
impl = "combat.displacement"
rule_ref = "4.2"
phases = { axis-movement = "Axis", allied-movement = "Allied" }
retreat_max = 1
advance_max = 0
advances = false
units = { kinds = ["EM"] }
"""


def judge_4_2(tmp_path, layout, before, after) -> list[Finding]:
    return judge(
        tmp_path, layout, EM_MOVES_BACK.replace("em_moves_back", "after_combat"), before, after, "axis-movement"
    )


def test_4_2_the_em_entered_moves_back_one_hex_in_the_movers_phase(tmp_path, layout) -> None:
    em, mover = unit("m1", "Allied", "EM"), unit("a1", "Axis")
    found = judge_4_2(tmp_path, layout, {em: "0518", mover: "0516"}, {em: "0519", mover: "0518"})
    assert errors(found) == [] and [f.rule for f in found] == ["test:4.2"]  # the mover's move is turn.py's
    assert errors(judge_4_2(tmp_path, layout, {em: "0518", mover: "0516"}, {em: "0520", mover: "0518"})) == [
        (
            "Allied EM m1 moved 0518 -> 0520 in the axis-movement phase: a retreat after combat of 2 hexes, and it may "
            "retreat at most 1 [4.2]"
        )
    ]


def test_4_2_only_an_em_moves_back_in_the_enemy_movement_phase(tmp_path, layout) -> None:
    infantry = unit("i1", "Allied")
    assert errors(judge_4_2(tmp_path, layout, {infantry: "0518"}, {infantry: "0519"})) == [
        (
            "Allied infantry i1 moved 0518 -> 0519 in the axis-movement phase: such units are never displaced in this "
            "phase [4.2]"
        )
    ]


def test_4_2_the_sequence_of_play_still_judges_the_phasing_sides_moves(tmp_path, layout) -> None:
    lp = load_pack(pack_with(tmp_path, EM_MOVES_BACK + TUNISIA))
    rules = turn_rules(lp.pack, RuleContext(lp.terrain(layout), layout, "test"))
    assert rules.displaced == {
        "axis-movement": frozenset({"Allied"}),
        "allied-movement": frozenset({"Axis"}),
        "axis-combat": frozenset({"Axis", "Allied"}),
        "allied-combat": frozenset({"Axis", "Allied"}),
    }
