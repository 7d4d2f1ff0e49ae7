"""Kesselring's War dice tables read from a log (`dice.table`, RULES-MAP N20 with N17), worked from the
seed's words (../shared/seeds/004_954644da5565c400.txt): 5.1 and 28.0 events, 4.1 none on a
scenario's first GT, 7.2 the reinforcement roll, 14.2 naval interdiction, 8.1.1 replacement,
20.6 and 23.4 recycling, 27.1 the Allied air offensive. Each segment is built by hand as `verify`
closes it: its rolls with their values (`Segment.dice`) and the log's earlier ones (`earlier`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from kw_board import LAYOUT, PACK, REDUCED, TERRAIN, errors, unit

from vassal_adj.model.state import GameState, Position, Track
from vassal_adj.model.units import Unit
from vassal_adj.position import named_box
from vassal_adj.rules.engine import RuleContext
from vassal_adj.rules.mechanisms.dice_table import dice_table
from vassal_adj.rules.results import Finding
from vassal_adj.rules.segment_rolls import SegmentRoll
from vassal_adj.rules.segments import Opened, Segment

US_INF = unit("3 [US infantry XX] 6-5-4 *", "Allied")
US_INF_2 = unit("1 [US infantry XX] 6-5-4 *", "Allied")
UK_INF = unit("5 [UK infantry XX] 5-5-4 *", "Allied")
UK_INF_2 = unit("50 [UK infantry XX] 5-5-4 *", "Allied")
UK_INF_3 = unit("51 [UK infantry XX] 5-5-4 *", "Allied")
PANZER = unit("16 Pz [GE armor XX] 7-5-5 *", "Axis")
JG53 = unit("Jg 53 [GE tac] 3-3 r8 *", "Axis")
KESSELRING = unit("Kesselring [GE ssu] 1-1 *", "Axis")


def box(name: str) -> Position:
    return Position(box=name, named=named_box(name, PACK.boxes))


def at(where: Mapping[Unit, str], turn: int, phase: str, ap: Mapping[str, int] | None = None) -> GameState:
    pos = {u.id: (Position(None, p) if p.isdigit() else box(p)) for u, p in where.items()}
    tracks = {k: Track(k, v) for k, v in (ap or {}).items()}
    return GameState({u.id: u for u in where}, pos, turn, phase, tracks=tracks)


def roll(v: int, step: int, turn: int, phase: str, drags: int = 0, **kw: object) -> SegmentRoll:
    tracks = tuple(kw.pop("ap", {}).items())  # type: ignore[attr-defined]
    return SegmentRoll("1d6", str(v), v, step, drags, turn, phase, tracks=tracks, **kw)  # type: ignore[arg-type]


def segment(
    start: GameState,
    end: GameState | None = None,
    dice: Sequence[SegmentRoll] = (),
    earlier: Sequence[SegmentRoll] = (),
    drags: Sequence[tuple[Unit, str, str]] = (),
    opened: Opened | None = None,
) -> Segment:
    """A segment of `start`'s turn and phase; `drags`: (unit, from, to) in log order."""
    moves: dict[str, list[tuple[Position, Position]]] = {}
    for u, a, b in drags:
        moves.setdefault(u.id, []).append((box(a), box(b)))
    order = tuple(u.id for u, _, _ in drags)
    return Segment(
        start.turn,
        start.phase,
        opened or Opened("phase"),
        start,
        end or start,
        moves,
        order,
        (),
        dice=tuple(dice),
        earlier_dice=tuple(earlier),
    )


def run(rule: str, seg: Segment, scenario: str | None = "scenario-1") -> list[Finding]:
    r = PACK.rule(rule)
    ctx = RuleContext(TERRAIN, LAYOUT, PACK.id, rule=r, scenario=PACK.scenarios[scenario] if scenario else None)
    return dice_table(seg, ctx, r.params)


def said(found: list[Finding], severity: str) -> list[str]:
    return [f.message for f in found if f.severity == severity]


# -- 5.1 and 28.0: the Events Segment ---------------------------------------------------------------


def test_5_1_each_side_allies_first_rolls_on_its_own_events_table() -> None:
    """5.1 "Each side, beginning with the Allies, rolls 1d6 on its own Events Table": GT 2, the
    Allies roll 5 (SHAEF Support: add 4 AP) and the Axis 6 (OKW Support: add 2 AP); the tracks
    go 10 -> 14 and 5 -> 7, as 28.0 says."""
    ap = {"allied_ap": 10, "axis_ap": 5}
    seg = segment(
        at({}, 2, "events"),
        at({}, 2, "events", {"allied_ap": 14, "axis_ap": 7}),
        [roll(5, 1, 2, "events", ap=ap), roll(6, 3, 2, "events", ap={"allied_ap": 14, "axis_ap": 5})],
    )
    found = run("events", seg)
    assert errors(found) == []
    infos = said(found, "info")
    assert infos[0].startswith("Allied roll of 5 on 1d6 (SHAEF Support: add 4 AP to the Allied track)")
    assert infos[1].startswith("Axis roll of 6 on 1d6 (OKW Support: add 2 AP to the Axis track)")


def test_28_0_command_dispute_not_deducted_is_an_error() -> None:
    """28.0 Axis 3 "Command Dispute: deduct 1 AP from the Axis track": the Axis track left at 8."""
    ap = {"allied_ap": 10, "axis_ap": 8}
    seg = segment(
        at({}, 3, "events"), at({}, 3, "events", ap), [roll(1, 1, 3, "events", ap=ap), roll(3, 2, 3, "events")]
    )
    assert errors(run("events", seg)) == ["axis_ap went 8 -> 8 (+0); the rolls give -1 [5.1]"]


def test_28_0_an_event_without_a_visible_effect_is_named_and_not_judged() -> None:
    """28.0 Allied 1 "Armor Withdrawal: withdraw one Allied armored division": the withdrawal is
    named, not judged; Allied 6 (Morale) feeds one track or the other, so the AP are not judged."""
    seg = segment(
        at({}, 2, "events"),
        at({}, 2, "events", {"allied_ap": 12, "axis_ap": 5}),
        [roll(6, 1, 2, "events", ap={"allied_ap": 10, "axis_ap": 5}), roll(2, 2, 2, "events")],
    )
    found = run("events", seg)
    assert errors(found) == []
    assert "Allied roll of 6 on 1d6 (Morale: " in said(found, "info")[0]
    assert said(found, "info")[0].endswith("its effect is not visible in the files, not judged [5.1]")


def test_5_1_no_roll_in_the_log_is_an_error() -> None:
    """5.1: both sides roll; a log with the Allied roll only misses the Axis one."""
    seg = segment(at({}, 2, "events"), dice=[roll(4, 1, 2, "events")])
    assert errors(run("events", seg)) == ["no roll of 1d6 in the log for Axis [5.1]"]


def test_5_1_a_third_roll_is_nobodys_and_not_judged() -> None:
    seg = segment(at({}, 2, "events"), dice=[roll(4, 1, 2, "events"), roll(1, 2, 2, "events"), roll(2, 3, 2, "events")])
    assert any("whose it is is not known: not judged" in m for m in said(run("events", seg), "warning"))


def test_4_1_no_events_on_the_first_gt_of_each_scenario() -> None:
    """4.1 "The Events Segment is omitted in the first GT of each scenario (27.1, 27.2)": GT 1 of
    Scenario I and GT 3 of Scenario II have no roll; GT 3 of Scenario I has both."""
    one = segment(at({}, 1, "events"), dice=[roll(4, 1, 1, "events")])
    assert errors(run("events", one)) == [
        "Allied roll of 4 on 1d6 (Accelerated Reinforcement: select one unit from a later GT and immediately "
        "deploy it) on turn 1, the scenario's first, in which no roll is made [5.1]"
    ]
    assert run("events", segment(at({}, 3, "events")), "scenario-2") == []
    assert errors(run("events", segment(at({}, 3, "events")))) == ["no roll of 1d6 in the log for Allied, Axis [5.1]"]


def test_4_1_the_scenario_not_known_a_missing_roll_is_not_judged() -> None:
    found = run("events", segment(at({}, 3, "events")), scenario=None)
    assert errors(found) == [] and "the scenario is not known: not judged" in said(found, "warning")[0]


def test_28_0_an_event_rolled_again_is_ignored() -> None:
    """28.0 "Each event may occur only once per game; subsequent die rolls for the same event are
    ignored and no additional die roll is conducted": Allied 3 on GT 2, again on GT 4, the Allied
    track unchanged the second time."""
    before = [roll(3, 1, 2, "events"), roll(6, 2, 2, "events")]
    ap = {"allied_ap": 9, "axis_ap": 5}
    seg = segment(
        at({}, 4, "events"), at({}, 4, "events", ap), [roll(3, 9, 4, "events", ap=ap), roll(1, 10, 4, "events")], before
    )
    found = run("events", seg)
    assert errors(found) == []
    assert said(found, "info")[0] == (
        "Allied roll of 3 on 1d6 (Command Dispute: deduct 2 AP from the Allied track): rolled before on turn 2, "
        "so it has no effect and no roll is made again [5.1]"
    )


def test_28_0_an_event_applied_twice_is_an_error() -> None:
    """The same, with 2 AP deducted again (9 -> 7)."""
    before = [roll(3, 1, 2, "events"), roll(6, 2, 2, "events")]
    seg = segment(
        at({}, 4, "events"),
        at({}, 4, "events", {"allied_ap": 7, "axis_ap": 5}),
        [roll(3, 9, 4, "events", ap={"allied_ap": 9, "axis_ap": 5}), roll(1, 10, 4, "events")],
        before,
    )
    (e,) = errors(run("events", seg))
    assert e.startswith("Allied roll of 3 on 1d6 (Command Dispute") and "applied again (allied_ap 9 -> 7)" in e


def test_28_0_the_other_sides_same_number_is_another_event() -> None:
    """Each side has its own table: the Axis rolling 3 after the Allies rolled 3 is the Axis event."""
    before = [roll(3, 1, 2, "events"), roll(6, 2, 2, "events")]
    ap = {"allied_ap": 9, "axis_ap": 5}
    seg = segment(
        at({}, 3, "events"),
        at({}, 3, "events", {"allied_ap": 9, "axis_ap": 4}),
        [roll(1, 9, 3, "events", ap=ap), roll(3, 10, 3, "events", ap=ap)],
        before,
    )
    assert errors(run("events", seg)) == []


# -- 7.2: the reinforcement action -----------------------------------------------------------------


def reinforce(n: int | None, units: Sequence[Unit]) -> Segment:
    where = {u: "Allied Reinforcement Display" for u in units}
    dice = [roll(n, 1, 3, "action")] if n is not None else []
    return segment(
        at(where, 3, "action"),
        dice=dice,
        drags=[(u, "Allied Reinforcement Display", "Allied Staging Area") for u in units],
    )


def test_7_2_at_most_as_many_reinforcements_as_the_roll() -> None:
    """7.2 "rolls 1d6, with the result determining how many reinforcement units are received": a
    roll of 2, then two Commonwealth divisions deployed; a third is one too many."""
    assert run("reinforcement_roll", reinforce(2, [UK_INF, UK_INF_2])) == []
    assert errors(run("reinforcement_roll", reinforce(2, [UK_INF, UK_INF_2, UK_INF_3]))) == [
        "3 unit(s) (Allied 5 [UK infantry XX] 5-5-4 *, Allied 50 [UK infantry XX] 5-5-4 *, Allied 51 [UK infantry "
        "XX] 5-5-4 *), more than the roll of 2 [7.2]"
    ]


def test_7_2_reinforcements_of_one_contingent() -> None:
    """7.2 "must be from the same contingent (2.5)": a US and a Commonwealth division in one action."""
    (e,) = errors(run("reinforcement_roll", reinforce(4, [US_INF, UK_INF])))
    assert "Commonwealth" in e and "US" in e


def test_7_2_reinforcements_with_no_roll_in_the_log() -> None:
    (e,) = errors(run("reinforcement_roll", reinforce(None, [US_INF, US_INF_2])))
    assert e.endswith("in this segment with no roll of 1d6 in the log [7.2]")


def test_7_2_a_move_from_the_map_is_no_reinforcement() -> None:
    seg = segment(at({US_INF: "Allied Staging Area"}, 3, "action"), dice=[roll(1, 1, 3, "action")])
    assert run("reinforcement_roll", seg) == []


# -- 14.2: Allied naval interdiction -----------------------------------------------------------------

ALLIED_TRY = Opened("interdiction", {"kind": "interdiction", "side": "Allied"})


def interdict(v: int, turn: int, earlier: Sequence[SegmentRoll] = ()) -> list[Finding]:
    seg = segment(
        at({}, turn, "action"),
        dice=[roll(v, 5, turn, "action", kind="interdiction", side="Allied")],
        earlier=earlier,
        opened=ALLIED_TRY,
    )
    return run("naval_interdiction", seg)


def test_14_2_1_interdiction_succeeds_on_a_roll_at_most_the_turn() -> None:
    """14.2.1 "If the result is less than or equal to the current turn number, the Interdiction
    succeeds": a 4 on GT 4 succeeds, a 4 on GT 3 fails."""
    assert said(interdict(4, 4), "info") == ["Allied roll of 4 on 1d6 on turn 4: succeeds (4 <= 4) [14.2]"]
    assert said(interdict(4, 3), "info") == ["Allied roll of 4 on 1d6 on turn 3: fails (4 > 3) [14.2]"]


def test_14_2_1_one_attempt_a_gt() -> None:
    """14.2.1 "The Allies may attempt Naval Interdiction once per GT": a second attempt on GT 3."""
    first = roll(5, 2, 3, "action", kind="interdiction", side="Allied")
    assert errors(interdict(6, 3, [first])) == [
        "Allied roll of 6 on 1d6: a second attempt on turn 3; one a turn [14.2]"
    ]
    assert errors(interdict(6, 4, [first])) == []


def test_14_2_1_no_roll_needed_after_a_success() -> None:
    """14.2.1 "Once successful, Naval Interdiction remains in effect for the rest of the game and
    further die rolls are not necessary"."""
    won = roll(2, 2, 3, "action", kind="interdiction", side="Allied")
    assert "it already succeeded on turn 3, no roll is needed" in said(interdict(6, 5, [won]), "warning")[0]


def test_14_2_an_interdiction_with_no_roll_in_the_log() -> None:
    seg = segment(at({}, 3, "action"), opened=ALLIED_TRY)
    assert errors(run("naval_interdiction", seg)) == ["no roll of 1d6 in the log for Allied [14.2]"]


# -- 8.1.1, 20.6, 23.4: returns to the Turn Record Track ---------------------------------------------


def placed(rule: str, who: Unit, v: int, turn: int, to: str, scenario: str = "scenario-1") -> list[Finding]:
    seg = segment(
        at({who: "0101"}, turn, "action"), dice=[roll(v, 4, turn, "action")], drags=[(who, "Axis Staging Area", to)]
    )
    return run(rule, seg, scenario)


def test_8_1_1_the_seeds_example_eliminated_on_gt_3_roll_2_gt_5() -> None:
    """8.1.1 "A unit is eliminated on GT 3 and the owning player rolls a 2, so the unit would be
    placed on the TRT for GT 5"."""
    assert placed("replacement_roll", PANZER, 2, 3, "Axis TRT 5") == []
    assert said(placed("replacement_roll", PANZER, 2, 3, "Axis TRT 6"), "warning") == [
        "Axis 16 Pz [GE armor XX] 7-5-5 * placed in Axis TRT 6 after a roll of 2 on 1d6 on turn 3, which puts it "
        "on turn 5 [8.1.1]"
    ]


def test_8_1_1_a_combat_roll_is_no_replacement_roll() -> None:
    """One 1d6 serves combat too (assumption one_die_button): a roll with no unit placed on the TRT
    after it says nothing."""
    assert run("replacement_roll", segment(at({PANZER: "0101"}, 3, "action"), dice=[roll(4, 4, 3, "action")])) == []


def test_8_1_1_after_the_end_of_the_scenario_withdrawn() -> None:
    """8.1.1 "If the die roll results in a GT after the end of the scenario, the unit is placed in
    the Withdrawn display": GT 7 of 8, a roll of 3."""
    assert placed("replacement_roll", PANZER, 3, 7, "Axis Withdrawn") == []
    assert said(placed("replacement_roll", PANZER, 3, 7, "Axis TRT 8"), "warning") != []


def test_20_6_air_unit_on_the_next_gt_on_5_or_6() -> None:
    """20.6 "5-6: the air unit is placed on the next GT on the friendly TRT"; "1-4: the air unit may
    be used again during that GT" (or, eliminated, 8.1.1's that number of turns later)."""
    assert placed("air_recycling", JG53, 5, 3, "Axis TRT 4") == []
    assert placed("air_recycling", JG53, 3, 3, "Axis TRT 6") == []  # eliminated: 8.1.1
    assert said(placed("air_recycling", JG53, 3, 3, "Axis TRT 4"), "warning") != []
    stays = segment(at({JG53: "0101"}, 3, "action"), dice=[roll(2, 4, 3, "action")])
    assert run("air_recycling", stays) == []


def test_23_4_ssu_next_gt_on_4_to_6() -> None:
    """23.4 "1-3: the SSU remains available for use during that GT. 4-6: ... placed in the
    appropriate box on the friendly TRT" (the following GT)."""
    assert placed("ssu_recycling", KESSELRING, 4, 2, "Axis TRT 3") == []
    (w,) = said(placed("ssu_recycling", KESSELRING, 2, 2, "Axis TRT 3"), "warning")
    assert "which puts it on no turn (or stays in play)" in w


# -- 27.1: the Allied air offensive ---------------------------------------------------------------------

GARRISONS = [unit(f"Garrison {n} [AX garrison] 0-2 *", "") for n in range(1, 6)]


def offensive(v: int, reduced: int) -> list[Finding]:
    where = {g: "0101" for g in GARRISONS}
    end = [
        unit(f"Garrison {n} [AX garrison] 0-2 *", "", **REDUCED) if n <= reduced else g
        for n, g in enumerate(GARRISONS, 1)
    ]
    after = GameState({u.id: u for u in end}, {u.id: Position(None, "0101") for u in end}, 1, "initiative")
    return run("air_offensive_1", segment(at(where, 1, "initiative"), after, [roll(v, 1, 1, "initiative")]))


def test_27_1_air_offensive_reduces_that_number_of_axis_garrisons() -> None:
    """27.1 "the Allies roll 1d6 and reduce that number of Axis Garrisons by one step each"."""
    assert offensive(3, 3) == []
    assert errors(offensive(3, 4))[0].endswith("more than the roll of 3 [27.1]")
    assert "fewer than the roll of 3: legal only if no more could be" in said(offensive(3, 2), "warning")[0]
