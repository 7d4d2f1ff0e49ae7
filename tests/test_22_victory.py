"""Victory points (rules/mechanisms/victory.py, history.py, victory_rules.py) worked by hand from 22.0.

The parameters are the Kasserine pack's (`KASSERINE`, the same as the fragment the pack takes);
the board is Kasserine's grid (columns 01-39, rows 01-26) so labels read as in the rulebook.
Sbeitla 2714 and Thelepte 1319 give 30 VP "if on or before Game-Turn Three", 5 VP on turns
four through six (22.41.1-4); Tebessa 0306 65 VP "on any Game-Turn preceeding the Axis
Withdrawal" (22.41.7).
"""

from __future__ import annotations

import tomllib
from collections.abc import Mapping
from itertools import pairwise
from typing import Any

import pytest

from vassal_adj.model.geometry.hexes import Hex, hexside, line
from vassal_adj.model.geometry.layout import HexLayout
from vassal_adj.model.module import BoardDef, HexGridDef, HexNumbering
from vassal_adj.model.state import Departure, GameState, Position
from vassal_adj.model.terrain import TerrainMap, TerrainVocabulary
from vassal_adj.model.units import Unit
from vassal_adj.rules.engine import RuleContext
from vassal_adj.rules.history import History
from vassal_adj.rules.mechanisms.victory import Level, Tally, VictoryRules, tally, unit_value, victory_level
from vassal_adj.rules.mechanisms.victory_rules import victory_points, victory_rules, vp_tally
from vassal_adj.rules.packs.pack import RulePack
from vassal_adj.rules.registry import (
    Params,
    check_value,
    conformance_problems,
    load_builtin_rules,
)

KASSERINE_TOML = r"""
[rules.victory]
impl = "victory.points"
rule_ref = "22.4"
side = "Axis"
opponent = "Allied"
artillery_kinds = ["artillery"]
eliminated = { Allied = { factor = 1, rule_ref = "22.41.5" }, Axis = { factor = -1, rule_ref = "22.42.1" } }
objectives = [
  { name = "Sbeitla", hex = "2714", points = 30, last_turn = 3, rule_ref = "22.41.1" },
  { name = "Thelepte", hex = "1319", points = 30, last_turn = 3, rule_ref = "22.41.2" },
  { name = "Sbeitla", hex = "2714", points = 5, first_turn = 4, last_turn = 6, rule_ref = "22.41.3" },
  { name = "Thelepte", hex = "1319", points = 5, first_turn = 4, last_turn = 6, rule_ref = "22.41.4" },
  { name = "Tebessa", hex = "0306", points = 65, before_withdrawal = true, rule_ref = "22.41.7" },
]
late_penalty = { points = -7, after_turn = 8, rule_ref = "22.42.3" }
withdrawal_markers = { Axis = "Axis Withdrawal", Allied = "Allied Withdrawal" }
turn_box = 'Turn (\d+)'
eliminated_box = "Eliminated"
exited_box = "Exited"
sources = ["0623-1423", "2126-3926", "3926-3916"]
opponent_sources = ["0107-0101", "0101-0901", "1301-1901", "2401-3001"]
withdrawal_hold = { side = "Allied", formation = "US 1st Armored Division", hex = "0312", within = 3, turns_after = 3, factor = 2, rule_ref = "19.3/22.21/22.41.6" }
withdrawal_exit = { side = "Axis", turns_after = 3, factor = -1, rule_ref = "19.3/22.22/22.42.2" }
end_enemy_source_exit = { factor = 3, networks = [["road", "trail"]], rule_ref = "22.43.1" }
end_own_source_exit = { per_point = 1, kinds = ["armor"], rule_ref = "22.43.2" }
levels = [
  { level = "Allied Decisive", max = 44 },
  { level = "Allied Substantive", min = 45, max = 59 },
  { level = "Allied Marginal", min = 60, max = 79 },
  { level = "Draw", min = 80, max = 109 },
  { level = "Axis Marginal", min = 110, max = 129 },
  { level = "Axis Substantive", min = 130, max = 150 },
  { level = "Axis Decisive", min = 151 },
]
levels_ref = "victory levels, table after 22.43"
remarks = [
  "22.0 says points are subtracted for Axis units unsupplied at the end of the game, but the schedule (22.4) gives no value for them: not counted",
]
"""
KASSERINE: dict[str, Any] = tomllib.loads(KASSERINE_TOML)["rules"]["victory"]

GRID = HexGridDef(dx=52.0, dy=60.0, x0=36, y0=28, numbering=HexNumbering(stagger=False))
LAYOUT = HexLayout(GRID, BoardDef("Kasserine", None, 2048, 1588, grid=GRID))
VOC = TerrainVocabulary(terrain=frozenset({"clear"}), features=frozenset({"road", "trail"}))


def H(label: str) -> Hex:
    h = LAYOUT.hex_of(label)
    assert h is not None, label
    return h


def params(**changed: Any) -> Params:
    impl = load_builtin_rules().lookup("victory.points")
    given = {
        k: check_value(impl.types[k], v) for k, v in {**KASSERINE, **changed}.items() if k not in ("impl", "rule_ref")
    }
    return Params({**impl.defaults(), **given})


def ctx(terrain: TerrainMap | None = None) -> RuleContext:
    return RuleContext(terrain or TerrainMap(VOC), LAYOUT, "kasserine")


def unit(uid: str, name: str, side: str, kind: str = "armor", formation: str = "") -> Unit:
    """A unit from its printed name: A-D-M, or B-F-R/D-M for artillery."""
    nums = [int(x) for x in name.split(" ")[0].replace("/", "-").split("-")]
    if kind == "artillery":
        b, f, r, d, m = nums
        return Unit(uid, name, side, kind, m, barrage=b, fpf=f, range=r, defense=d, formation=formation)
    a, d, m = nums
    return Unit(uid, name, side, kind, m, attack=a, defense=d, formation=formation)


PZ = unit("pz", "5-3-12 (2/7)", "Axis")
PZ2 = unit("pz2", "6-5-10 (501)", "Axis")
INF = unit("inf", "2-2-9 (609)", "Axis", "infantry")
US = unit("us", "2-3-11 (1/6)", "Allied", formation="US 1st Armored Division")
ART = unit("art", "1-2-3/2-10 (68)", "Allied", "artillery")


def state(
    turn: int | None,
    where: Mapping[Unit, str],
    markers: Mapping[str, str] | None = None,
    left: Mapping[Unit, tuple[str, int]] | None = None,
) -> GameState:
    """Units at hex labels, or in a box when the place is not a 4-digit label. `left`: what a
    log showed: unit -> (the hex it left from, the turn) into the box it is in."""

    def pos(place: str) -> Position:
        return Position(H(place), place) if place.isdigit() else Position(box=place)

    gone = tuple(Departure(u.id, where[u], H(x), x, t, "axis-movement") for u, (x, t) in (left or {}).items())
    return GameState(
        {u.id: u for u in where},
        {u.id: pos(p) for u, p in where.items()},
        turn,
        markers={k: (Position(box=v),) for k, v in (markers or {}).items()},
        departures=gone,
    )


def run(*states: GameState, final: bool = False, **changed: Any) -> Tally:
    return vp_tally(states, ctx(), params(**changed), final=final)


def rules_and_points(t: Tally) -> list[tuple[str, int]]:
    return [(i.rule_ref, i.points) for i in t.items]


# -- 22.11 ---------------------------------------------------------------------------------
def test_22_11_5_3_12_is_worth_8() -> None:
    assert unit_value(PZ) == 8


def test_22_11_artillery_is_barrage_fpf_and_defense_not_range() -> None:
    assert unit_value(ART) == 1 + 2 + 2  # 1-2-3/2-10: the 3 is the range
    assert unit_value(ART, artillery_kinds=()) == 0 + 2  # read as non-artillery, it has no attack


# -- 22.12, 22.41.5, 22.42.1 ---------------------------------------------------------------
def test_22_12_axis_5_3_12_lost_subtracts_8_and_allied_loss_adds_full_value() -> None:
    t = run(state(4, {PZ: "Eliminated", US: "Eliminated", INF: "2020"}))
    assert sorted(rules_and_points(t)) == [("22.41.5", 5), ("22.42.1", -8)]
    assert t.total == -3


# -- 22.31, 22.32, 22.41 -------------------------------------------------------------------
def test_22_41_sbeitla_30_on_or_before_turn_3() -> None:
    t = run(state(2, {PZ: "2814"}), state(3, {PZ: "2714"}))
    assert rules_and_points(t) == [("22.41.1", 30)]
    assert t.items[0].turn == 3 and t.items[0].hexes == ("2714",) and t.items[0].index == 1


def test_22_41_3_sbeitla_5_on_turns_4_to_6() -> None:
    t = run(state(3, {PZ: "2814"}), state(4, {PZ: "2714"}))
    assert rules_and_points(t) == [("22.41.3", 5)]


def test_22_41_2_and_4_thelepte_has_the_same_windows() -> None:
    assert rules_and_points(run(state(1, {PZ: "1319"}))) == [("22.41.2", 30)]
    assert rules_and_points(run(state(6, {PZ: "1319"}))) == [("22.41.4", 5)]


def test_22_32_entry_after_turn_6_scores_nothing() -> None:
    t = run(state(6, {PZ: "2814"}), state(7, {PZ: "2714"}))
    assert rules_and_points(t) == [("22.41.1", 0)]
    assert "outside every window" in t.items[0].text and t.total == 0


def test_22_31_awarded_once_the_first_entry_decides() -> None:
    t = run(state(2, {PZ: "2714"}), state(3, {PZ: "2814"}), state(5, {PZ: "2714"}))
    assert rules_and_points(t) == [("22.41.1", 30)]


def test_22_31_only_the_scoring_side_takes_an_objective() -> None:
    assert run(state(2, {US: "2714"})).items == ()


def test_22_41_7_tebessa_65_on_a_turn_preceding_the_axis_withdrawal() -> None:
    t = run(state(8, {PZ: "0306"}, {"Axis Withdrawal": "Turn 9"}))
    assert rules_and_points(t) == [("22.41.7", 65)]
    on_the_turn = run(state(9, {PZ: "0306"}, {"Axis Withdrawal": "Turn 9"}))
    assert rules_and_points(on_the_turn) == [("22.41.7", 0)]


# -- 22.42.3 -------------------------------------------------------------------------------
def test_22_42_3_seven_points_each_turn_after_8() -> None:
    t = run(state(11, {PZ: "2020"}, {"Axis Withdrawal": "Axis box"}))
    assert rules_and_points(t) == [("22.42.3", -7), ("22.42.3", -7)]  # turns 9 and 10 are over
    assert [i.turn for i in t.items] == [9, 10]
    assert any("turn 11 is not over" in u for u in t.unknowns)
    assert run(state(11, {PZ: "2020"}), final=True).total == -21


def test_22_42_3_example_no_withdrawal_on_turn_9_costs_7() -> None:
    t = run(state(12, {PZ: "2020"}, {"Axis Withdrawal": "Turn 10"}), final=True)
    assert rules_and_points(t) == [("22.42.3", -7)]  # turn 9 only: the withdrawal occurred on 10


def test_22_42_3_nothing_up_to_turn_8() -> None:
    assert run(state(9, {PZ: "2020"})).items == ()


# -- 22.43 ---------------------------------------------------------------------------------
def road(a: str, b: str) -> TerrainMap:
    """A road along the straight line of hexes from `a` to `b`."""
    return TerrainMap(VOC, side_features={hexside(x, y): frozenset({"road"}) for x, y in pairwise(line(H(a), H(b)))})


ROAD = road("0101", "0623")  # an Allied source hex to an Axis one


def test_22_43_1_triple_value_of_units_exited_from_an_allied_source_with_a_free_route() -> None:
    gone = {PZ: ("0101", 4)}  # a log of turn 4 shows the 5-3-12 leaving from 0101
    t = vp_tally(
        (state(3, {PZ: "0101", US: "2020"}), state(4, {PZ: "Exited", US: "2020"}, left=gone)), ctx(ROAD), params()
    )
    assert (t.options[0].rule_ref, t.options[0].points) == ("22.43.1", 3 * 8)
    blocker = LAYOUT.label_of(line(H("0101"), H("0623"))[10])
    t = vp_tally(
        (state(3, {PZ: "0101", US: blocker}), state(4, {PZ: "Exited", US: blocker}, left=gone)), ctx(ROAD), params()
    )
    assert t.options[0].points == 0 and "1 more have no route free of Allied units" in t.options[0].text


def test_22_43_1_exits_on_or_after_the_axis_withdrawal_do_not_count() -> None:
    t = vp_tally(
        (state(3, {PZ: "0101"}), state(4, {PZ: "Exited"}, {"Axis Withdrawal": "Turn 4"}, left={PZ: ("0101", 4)})),
        ctx(ROAD),
        params(),
    )
    assert t.options[0].points == 0


def test_22_43_both_awards_are_reported_and_the_larger_is_only_a_projection() -> None:
    before = state(3, {PZ: "0101", PZ2: "3926", INF: "3925"})
    after = state(
        5,
        {PZ: "Exited", PZ2: "Exited", INF: "Exited"},
        {"Axis Withdrawal": "Turn 5"},
        left={PZ2: ("3926", 5), INF: ("3925", 5)},
    )
    t = vp_tally(
        (before, state(4, {PZ: "Exited", PZ2: "3926", INF: "3925"}, left={PZ: ("0101", 4)}), after), ctx(ROAD), params()
    )
    # 22.43.1: the 5-3-12 left 0101 on turn 4, before the withdrawal: 3 x 8. 22.43.2: the 6-5-10
    # is armor (6 attack points) and the 2-2-9 is not.
    assert [(i.rule_ref, i.points) for i in t.options] == [("22.43.1", 24), ("22.43.2", 6)]
    assert t.total == 0 and t.projection == 24 and t.best_option.rule_ref == "22.43.1"


def test_22_43_2_nothing_without_a_withdrawal() -> None:
    t = run(state(5, {PZ2: "3926"}), state(6, {PZ2: "Exited"}))
    assert [(i.rule_ref, i.points) for i in t.options][1] == ("22.43.2", 0)


# -- 22 level table ------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("total", "level"),
    [
        (44, "Allied Decisive"),
        (45, "Allied Substantive"),
        (59, "Allied Substantive"),
        (60, "Allied Marginal"),
        (79, "Allied Marginal"),
        (80, "Draw"),
        (109, "Draw"),
        (110, "Axis Marginal"),
        (129, "Axis Marginal"),
        (130, "Axis Substantive"),
        (150, "Axis Substantive"),
        (151, "Axis Decisive"),
        (-30, "Allied Decisive"),
    ],
)
def test_22_5_level_table_boundaries(total: int, level: str) -> None:
    assert victory_level(total, victory_rules(ctx(), params()).levels) == level


def test_22_5_levels_with_a_gap_or_overlap_are_rejected() -> None:
    with pytest.raises(ValueError, match="overlap or leave a gap"):
        VictoryRules("Axis", "Allied", {}, levels=(Level("a", None, 44), Level("b", 46, None)))
    with pytest.raises(ValueError, match="'levels\\[0\\]'|levels\\[0\\]"):
        victory_rules(ctx(), params(levels=[{"level": "x", "max": "44"}]))


# -- one save ------------------------------------------------------------------------------
def test_one_save_counts_what_it_shows_and_says_what_it_cannot_know() -> None:
    t = run(state(5, {PZ: "2714", US: "Eliminated", INF: "Exited"}))
    assert sorted(rules_and_points(t)) == [("22.41.3", 5), ("22.41.5", 5)]
    assert any(
        u.startswith(
            "Sbeitla 2714 is Axis-occupied on turn 5; on which turn it was first entered "
            "cannot be known from one save: counted as entered on turn 5"
        )
        for u in t.unknowns
    )
    assert any("Axis 2-2-9 (609): exited, but no log given shows the hex each left from" in u for u in t.unknowns)
    assert any("no piece named 'Axis Withdrawal'" in u for u in t.unknowns)
    assert (
        "Thelepte 1319, Tebessa 0306: no save given shows Axis units there; an entry between saves (a unit "
        "that entered and left again) cannot be seen and is not counted"
    ) in t.unknowns


def test_no_turn_means_no_window_is_chosen() -> None:
    t = run(state(None, {PZ: "2714"}))
    assert t.items == () and any("whose turn is unknown" in u for u in t.unknowns)


def test_history_dates_an_entry_between_two_saves() -> None:
    h = History([state(3, {PZ: "2814"}), state(5, {PZ: "2714"})])
    e = h.first_entry("Axis", (H("2714"),))
    assert (e.index, e.turn, e.earliest) == (1, 5, 3)
    t = tally(h, victory_rules(ctx(), params()), label=ctx().label)
    assert any("it was entered after the save of turn 3" in u for u in t.unknowns)


# -- the registered adapter ----------------------------------------------------------------
def test_victory_points_is_registered_with_its_required_parameters() -> None:
    reg = load_builtin_rules()
    assert reg.lookup("victory.points").required() == ("eliminated", "objectives", "levels")
    assert conformance_problems() == []


def kasserine_pack() -> RulePack:
    """A minimal pack holding the fragment, validated as pack.toml is."""
    return RulePack.from_mapping(
        {
            "pack": {"format": 1, "id": "kasserine", "name": "K", "rulebook": "r", "module": {"name": "K.*"}},
            "terrain": {"types": ["clear"], "features": ["road", "trail"]},
            "units": {"sides": ["Axis", "Allied"], "classes": ["armor", "infantry", "artillery"]},
            **tomllib.loads(KASSERINE_TOML),
        }
    )


def test_the_kasserine_fragment_is_a_valid_pack_table() -> None:
    rule = kasserine_pack().rules[0]
    assert rule.rule_ref == "22.4" and rule.params["late_penalty"]["points"] == -7


def test_adapter_findings_cite_the_rule_and_quote_sub_rules() -> None:
    rule = kasserine_pack().rules[0]
    c = RuleContext(TerrainMap(VOC), LAYOUT, "kasserine", rule=rule)
    found = victory_points(state(2, {PZ: "2714", US: "Eliminated"}), c, rule.params)
    assert {f.rule for f in found} == {"kasserine:22.4"}
    msgs = [f.message for f in found]
    assert "[22.41.1] Axis first entered Sbeitla 2714 on turn 2 (on or before turn 3): +30 VP (turn 2)" in msgs
    assert "[22.41.5] Allied 2-3-11 (1/6) eliminated (attack 2 + defense 3): +5 VP (turn 2)" in msgs
    assert "victory points so far: 35, which shows Allied Decisive [victory levels, table after 22.43]" in msgs
    assert any(m.startswith("projection (not a result: the Axis player takes one end-of-play award") for m in msgs)
    assert any(m.startswith("cannot be told: 22.0 says") for m in msgs)
    assert all(f.severity.value == "info" for f in found)


def test_bad_sub_table_names_its_key() -> None:
    with pytest.raises(ValueError, match=r"late_penalty.point: unknown key"):
        victory_rules(ctx(), params(late_penalty={"point": -7, "after_turn": 8}))
    with pytest.raises(ValueError, match=r"objectives\[0\]: missing points"):
        victory_rules(ctx(), params(objectives=[{"name": "Sbeitla", "hex": "2714"}]))
    with pytest.raises(ValueError, match=r"objectives\[0\].points: expected int, got True"):
        victory_rules(ctx(), params(objectives=[{"name": "S", "hex": "2714", "points": True}]))
