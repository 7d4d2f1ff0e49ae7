"""A phase's moves (rules/turn.py), each case worked by hand from the Kasserine rulebook (seed 000)
on the example board: its layout from the example module, its terrain from the pack's
terrain.csv, the rules from the pack (`turn_rules`). Terrain costs are the pack's assumptions
(clear 1, rough 2, road 1/2, trail 1, stream +1): the seed gives none.

Hexes used (terrain.csv): 3708 rough with no road or trail; 1008 rough on the Tebessa - Kasserine
Pass road (0908 1008 1109); column 05 clear, with no road or trail, from 0517 to 0526; 2617/2718
an unbridged stream hexside of the Oued Hatab; 3726, 3225 and 3918-3920 Axis entry hexes (23).
"""

from __future__ import annotations

from pathlib import Path

import pytest

import vassal_adj
from vassal_adj.model.geometry.maps import board_hex_layouts
from vassal_adj.model.state import GameState, Position
from vassal_adj.model.units import Unit
from vassal_adj.packs import load_pack
from vassal_adj.rules.engine import RuleContext
from vassal_adj.rules.results import Severity
from vassal_adj.rules.turn import PhaseCheck, check_phase, turn_rules, withdrawing

ROOT = Path(__file__).resolve().parents[1]
PACK = ROOT / "modules" / "kasserine"

PANZER = Unit("g1", "5-3-12 (2/7)", "Axis", "armor", 12, attack=5, defense=3, mechanized=True)
GUNS = Unit("g2", "3-1-3/1-7 (1/155)", "Axis", "artillery", 7, barrage=3, fpf=1, range=3, defense=1)
RECCE = Unit("g3", "3-2-16 (580)", "Axis", "reconnaissance", 16, attack=3, defense=2, mechanized=True)
HALFTRACKS = Unit("a1", "2-3-11 (1/6)", "Allied", "mechanized-infantry", 11, attack=2, defense=3, mechanized=True)
INFANTRY = Unit("a2", "1-2-7 (1/26)", "Allied", "infantry", 7, attack=1, defense=2)


@pytest.fixture(scope="module")
def ctx() -> RuleContext:
    module = vassal_adj.load_module(PACK / "example" / "Kasserine.vmod")
    layout = board_hex_layouts(module.maps["Main Map"].boards["Kasserine"])[0]
    return RuleContext(load_pack(PACK).terrain(layout), layout, "kasserine")


@pytest.fixture(scope="module")
def rules(ctx: RuleContext):
    return turn_rules(load_pack(PACK).pack, ctx)


def at(ctx: RuleContext, label: str) -> Position:
    return Position(ctx.layout.hex_of(label), label)


def state(
    ctx: RuleContext,
    placed: dict[Unit, str],
    turn: int,
    phase: str,
    weather: str = "good",
    markers: dict[str, tuple[Position, ...]] | None = None,
) -> GameState:
    """Units at labels, or in a box named "box:NAME"."""
    pos = {u.id: Position(box=w[4:]) if w.startswith("box:") else at(ctx, w) for u, w in placed.items()}
    return GameState({u.id: u for u in placed}, pos, turn, phase, weather, markers or {})


def run(ctx, rules, st: GameState, *drags: tuple[Unit, str, str]) -> PhaseCheck:
    moves: dict[str, list] = {}
    for unit, a, b in drags:
        frm = Position(box=a[4:]) if a.startswith("box:") else at(ctx, a)
        moves.setdefault(unit.id, []).append((frm, at(ctx, b)))
    return check_phase(st, st.phase, moves, rules, ctx)


def only(pc: PhaseCheck, severity: Severity = Severity.ERROR):
    found = [f for f in pc.findings if f.severity == severity]
    assert len(found) == 1, pc.findings
    return found[0]


def test_16_11_panzer_may_not_enter_rough_off_road(ctx, rules) -> None:
    # 16.11: "No mechanized units, except Mechanized Infantry, may ever enter Rough terrain hexes."
    pc = run(ctx, rules, state(ctx, {PANZER: "3707"}, 2, "axis-movement"), (PANZER, "3707", "3708"))
    f = only(pc)
    assert f.rule == "kasserine:16.11" and f.units == ("g1",) and f.hexes == ("3707", "3708")
    assert f.message.startswith(
        "Axis 5-3-12 (2/7) moved 3707 -> 3708: no legal path: rough hex 3708 prohibited "
        "to mechanized units except through road or trail hexsides (16.12) [16.11]"
    )
    assert pc.moves[0].ok is False and pc.moves[0].rule == "kasserine:16.11"
    # ... but mechanized infantry may (16.11), paying rough's 2 MP
    pc = run(ctx, rules, state(ctx, {HALFTRACKS: "3707"}, 2, "allied-movement"), (HALFTRACKS, "3707", "3708"))
    assert only(pc, Severity.INFO).message.endswith("3707 -> 3708: legal, 2 of 11 MP by 3707 3708")


def test_16_12_panzer_enters_rough_by_road(ctx, rules) -> None:
    # 16.12: "All units may enter and exit Rough hexes through Road and Trail hexsides."
    pc = run(ctx, rules, state(ctx, {PANZER: "0908"}, 2, "axis-movement"), (PANZER, "0908", "1109"))
    assert not [f for f in pc.findings if f.severity != Severity.INFO]
    assert pc.moves[0].path == ("0908", "1008", "1109") and pc.moves[0].cost == 1  # two road hexes at 1/2
    assert only(pc, Severity.INFO).message == (
        "Axis 5-3-12 (2/7) moved 0908 -> 1109: legal, 1 of 12 MP by 0908 1008 1109"
    )


def test_19_2_may_not_leave_enemy_zoc_without_withdrawal(ctx, rules) -> None:
    # 19.2: only in a Withdrawal "may exit from Enemy Zones of Control"; 0520 is next to 0521.
    placed = {INFANTRY: "0520", PANZER: "0521"}
    pc = run(ctx, rules, state(ctx, placed, 3, "allied-movement"), (INFANTRY, "0520", "0518"))
    f = only(pc)
    assert f.rule == "kasserine:19.2" and f.units == ("a2", "g1")  # the mover, then the unit exerting the zone
    assert (
        "unit starts in enemy zone of control at 0520 (of Axis 5-3-12 (2/7) in 0521) and may not leave it "
        "except in a Withdrawal (19.2) [19.2]"
    ) in f.message
    # The Allied Withdrawal marker in the box of this Game-Turn declares the Withdrawal (19.0).
    declared = state(ctx, placed, 3, "allied-movement", markers={"Allied Withdrawal": (Position(box="Turn 3"),)})
    assert withdrawing(declared, "Allied", rules) and not withdrawing(declared, "Axis", rules)
    pc = run(ctx, rules, declared, (INFANTRY, "0520", "0518"))
    assert [f.severity for f in pc.findings] == [Severity.INFO] and pc.moves[0].ok
    # A marker in the box of another Game-Turn declares nothing now.
    other = state(ctx, placed, 3, "allied-movement", markers={"Allied Withdrawal": (Position(box="Turn 2"),)})
    assert only(run(ctx, rules, other, (INFANTRY, "0520", "0518"))).rule == "kasserine:19.2"


def test_19_21_withdrawing_unit_may_not_reenter_enemy_zoc(ctx, rules) -> None:
    # 19.21: after exiting, withdrawing units "may not re-enter an Enemy-controlled hex". The
    # second panzer at 0517 controls 0518: the only way to 0518 from 0520 passes through it.
    other = Unit("g4", "5-3-12 (1/5)", "Axis", "armor", 12, attack=5, defense=3, mechanized=True)
    placed = {INFANTRY: "0520", PANZER: "0521", other: "0517"}
    st = state(ctx, placed, 3, "allied-movement", markers={"Allied Withdrawal": (Position(box="Turn 3"),)})
    f = only(run(ctx, rules, st, (INFANTRY, "0520", "0518")))
    assert f.rule == "kasserine:19.21" and f.units == ("a2", "g4")  # the zone re-entered is g4's, not g1's
    assert (
        "withdrawing unit left enemy zone of control and may not re-enter one at 0518 (of Axis 5-3-12 (1/5) in "
        "0517) [19.21]"
    ) in f.message
    # 19.21: "Units which do not begin the Withdrawal Movement Phase in an Enemy-controlled hex may enter" one.
    free = state(
        ctx,
        {INFANTRY: "0523", PANZER: "0521", other: "0517"},
        3,
        "allied-movement",
        markers={"Allied Withdrawal": (Position(box="Turn 3"),)},
    )
    assert run(ctx, rules, free, (INFANTRY, "0523", "0522")).moves[0].ok


def test_20_2_no_move_across_unbridged_stream_in_poor_weather(ctx, rules) -> None:
    # 20.2 (poor): "No units may move ... across unbridged Stream hexsides at any time." Turn 6 is poor (20.4).
    good = run(ctx, rules, state(ctx, {INFANTRY: "2318"}, 5, "allied-movement", "fair"), (INFANTRY, "2318", "2319"))
    assert good.moves[0].ok and good.moves[0].cost == 2  # clear 1 + stream 1
    pc = run(ctx, rules, state(ctx, {INFANTRY: "2318"}, 6, "allied-movement", "poor"), (INFANTRY, "2318", "2319"))
    f = only(pc)
    assert f.rule == "kasserine:20.2"
    assert f.message == (
        "Allied 1-2-7 (1/26) moved 2318 -> 2319: no legal path: unbridged stream hexside 2318/2319 "
        "may not be crossed in poor weather [20.2]; the way around needs 9.5 MP, allowance 5 [20.3]; "
        "cheapest attempt 2318 2319"
    )


def test_20_3_poor_weather_allowance_2_3_11_has_6(ctx, rules) -> None:
    # 20.3: "a 2-3-11 during a Poor Weather Game-Turn becomes a 2-3-6"; 0517 -> 0523 is 6 clear hexes.
    poor = state(ctx, {HALFTRACKS: "0517"}, 6, "allied-movement", "poor")
    ok = run(ctx, rules, poor, (HALFTRACKS, "0517", "0523"))
    assert only(ok, Severity.INFO).message.endswith("legal, 6 of 6 MP by 0517 0518 0519 0520 0521 0522 0523")
    f = only(run(ctx, rules, poor, (HALFTRACKS, "0517", "0524")))
    assert f.rule == "kasserine:20.3"
    assert "no legal path: needs 7 MP, allowance 6 in poor weather [20.3]" in f.message
    assert f.message.endswith("cheapest attempt 0517 0518 0519 0520 0521 0522 0523 0524 (7 MP)")
    fair = state(ctx, {HALFTRACKS: "0517"}, 5, "allied-movement", "fair")
    assert run(ctx, rules, fair, (HALFTRACKS, "0517", "0524")).moves[0].allowance == 11


def test_23_72_allied_unit_moved_on_turn_1(ctx, rules) -> None:
    # 23.72: on Game-Turn 1 Allied units of the initial deployment may not move, "except units
    # within ten hexes of any Axis unit". 2-3-11 (1/6) is set up at 2714.
    st = state(ctx, {HALFTRACKS: "2613", PANZER: "3926"}, 1, "allied-movement")
    f = only(run(ctx, rules, st, (HALFTRACKS, "2613", "2512")))
    assert f.rule == "kasserine:23.72"
    assert f.message == (
        "Allied 2-3-11 (1/6) moved 2613 -> 2512 on Game-Turn 1: units of the initial deployment "
        "may not be moved then unless within 10 hexes of an enemy unit, and the nearest enemy unit "
        "is 19 hexes away [23.72]"
    )
    near = state(ctx, {HALFTRACKS: "2613", PANZER: "3613"}, 1, "allied-movement")  # 10 hexes away
    assert not [f for f in run(ctx, rules, near, (HALFTRACKS, "2613", "2512")).findings if f.severity != Severity.INFO]
    later = state(ctx, {HALFTRACKS: "2613", PANZER: "3926"}, 2, "allied-movement")
    assert [f.severity for f in run(ctx, rules, later, (HALFTRACKS, "2613", "2512")).findings] == [Severity.INFO]
    # a reinforcement (not of the initial deployment) may move on turn 1
    late = Unit("a3", "1-3-7 (3/26)", "Allied", "infantry", 7)
    st = state(ctx, {late: "1023", PANZER: "3926"}, 1, "allied-movement")
    assert [f.severity for f in run(ctx, rules, st, (late, "1023", "1123")).findings] == [Severity.INFO]


def test_20_3_several_drags_share_one_allowance(ctx, rules) -> None:
    # Each drag alone is within the poor-weather allowance of 6 (20.3); together they need 7.
    poor = state(ctx, {HALFTRACKS: "0517"}, 6, "allied-movement", "poor")
    pc = run(ctx, rules, poor, (HALFTRACKS, "0517", "0521"), (HALFTRACKS, "0521", "0524"))
    assert len(pc.moves) == 1 and pc.moves[0].drags == 2
    f = only(pc)
    assert f.rule == "kasserine:20.3"
    assert f.message == (
        "Allied 2-3-11 (1/6) moved 0517 -> 0521 -> 0524: leg 2, 0521 -> 0524: needs 3 MP more "
        "after 4 MP spent by the legs before: 7 MP in all, allowance 6 in poor weather [20.3]; "
        "cheapest attempt 0521 0522 0523 0524 (3 MP)"
    )
    # Out and back is a move too: 3 MP each way, 6 of 6; a leg further is one too many.
    back = run(ctx, rules, poor, (HALFTRACKS, "0517", "0520"), (HALFTRACKS, "0520", "0517"))
    assert (
        back.moves[0].ok
        and back.moves[0].cost == 6
        and back.moves[0].path == ("0517", "0518", "0519", "0520", "0519", "0518", "0517")
    )
    assert only(run(ctx, rules, poor, (HALFTRACKS, "0517", "0521"), (HALFTRACKS, "0521", "0517"))).rule == (
        "kasserine:20.3"
    )


def test_a_move_outside_the_sides_movement_phase(ctx, rules) -> None:
    # 23.71: the Axis Player-Turn is first; Allied units move in the Allied movement phase only.
    st = state(ctx, {INFANTRY: "0517", PANZER: "3926"}, 2, "axis-movement")
    f = only(run(ctx, rules, st, (INFANTRY, "0517", "0518")))
    assert f.rule == "kasserine:23.71"
    assert f.message == (
        "Allied 1-2-7 (1/26) moved 0517 -> 0518 in the axis-movement phase: Allied units move "
        "only in the Allied movement phase [23.71]"
    )
    combat = state(ctx, {INFANTRY: "0517", PANZER: "3926"}, 2, "axis-combat")
    warn = only(run(ctx, rules, combat, (INFANTRY, "0517", "0518")), Severity.WARNING)
    assert "only a retreat or an advance after combat moves a unit then" in warn.message


def test_reinforcement_at_a_wrong_entry_hex(ctx, rules) -> None:
    # 23: "The following units appear on Game-Turn One. ... 3726 ... 3-1-3/1-7(1/155)".
    st = state(ctx, {GUNS: "box:Turn 1", RECCE: "box:Turn 2"}, 1, "axis-movement")
    ok = run(ctx, rules, st, (GUNS, "box:Turn 1", "3726"), (GUNS, "3726", "3724"))
    # The clear entry hex costs 1 (assumption entry_cost), the road on to 3724 1/2 a hex.
    assert only(ok, Severity.INFO).message == (
        "Axis 3-1-3/1-7 (1/155) moved box 'Turn 1' -> 3726 -> 3724 (entering "
        "at 3726): legal, 2 of 7 MP by 3726 3725 3724"
    )
    assert ok.moves[0].kind == "entry"
    far = run(ctx, rules, st, (GUNS, "box:Turn 1", "3911"))
    f = only(far)
    assert f.rule == "kasserine:standard-movement" and "no legal path: needs" in f.message
    assert f.message.endswith("its entry hexes are 3726 [23]")
    # one drag to a hex near the entry hex: it may have entered there and moved on
    near = run(ctx, rules, st, (GUNS, "box:Turn 1", "3725"))
    assert near.moves[0].ok and near.moves[0].path == ("3726", "3725")
    # 3-2-16 (580) "appears on Game-Turn Two"
    early = only(run(ctx, rules, st, (RECCE, "box:Turn 2", "2526")))
    assert early.rule == "kasserine:23"
    assert early.message == (
        "Axis 3-2-16 (580) moved box 'Turn 2' -> 2526 on Game-Turn 1: too early, it enters on Game-Turn 2 [23]"
    )
