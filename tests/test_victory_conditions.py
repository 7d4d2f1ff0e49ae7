"""Victory as conditions and tallies (rules/mechanisms/victory_conditions.py, victory_terms.py; RULES-MAP N16),
worked by hand from the victory rules of Tunisia 1943 (seed 001), No Question of Surrender (003)
and Kesselring's War (004).

None of these modules is in the corpus, so the board is a plain numbered grid (columns 01-39,
rows 01-26) and each place is a stand-in hex named in the test; the rule words are quoted in
each docstring.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import pytest

from vassal_adj.errors import PackError
from vassal_adj.model.geometry.hexes import Hex
from vassal_adj.model.geometry.layout import HexLayout
from vassal_adj.model.module import BoardDef, HexGridDef, HexNumbering
from vassal_adj.model.state import Departure, GameState, Position
from vassal_adj.model.terrain import TerrainMap, TerrainVocabulary
from vassal_adj.model.units import Unit
from vassal_adj.rules.engine import RuleContext, adjudicate
from vassal_adj.rules.history import History
from vassal_adj.rules.mechanisms.victory_conditions import judge, tally_of
from vassal_adj.rules.packs.pack import RulePack
from vassal_adj.rules.registry import (
    Params,
    check_value,
    conformance_problems,
    load_builtin_rules,
)

GRID = HexGridDef(dx=52.0, dy=60.0, x0=36, y0=28, numbering=HexNumbering(stagger=False))
LAYOUT = HexLayout(GRID, BoardDef("Board", None, 2048, 1588, grid=GRID))
CTX = RuleContext(
    TerrainMap(TerrainVocabulary(terrain=frozenset({"clear"}), features=frozenset({"road"}))), LAYOUT, "game"
)


def H(label: str) -> Hex:
    h = LAYOUT.hex_of(label)
    assert h is not None, label
    return h


def params(impl: str, **given: Any) -> Params:
    i = load_builtin_rules().lookup(impl)
    return Params({**i.defaults(), **{k: check_value(i.types[k], v) for k, v in given.items()}})


def state(turn: int | None, where: Mapping[Unit, str], left: Mapping[Unit, str] | None = None) -> GameState:
    """Units at 4-digit hex labels or in boxes; `left`: unit -> the hex a log shows it leaving from."""

    def pos(place: str) -> Position:
        return Position(H(place), place) if place.isdigit() else Position(box=place)

    gone = tuple(Departure(u.id, where[u], H(x), x, turn, None) for u, x in (left or {}).items())
    return GameState({u.id: u for u in where}, {u.id: pos(p) for u, p in where.items()}, turn, departures=gone)


def texts(found: list[Any]) -> list[str]:
    return [f.message for f in found]


def last(found: list[Any]) -> str:
    return found[-1].message


def u(uid: str, side: str, kind: str = "infantry", flags: tuple[str, ...] = (), steps: int = 1) -> Unit:
    return Unit(uid, uid, side, kind, 6, attack=2, defense=2, steps=steps, flags=frozenset(flags))


def test_both_implementations_are_registered_and_conform() -> None:
    names = {i.name for i in load_builtin_rules().catalog()}
    assert {"victory.conditions", "victory.tally"} <= names
    assert not [p for p in conformance_problems() if "victory." in p]


# -- Tunisia 1943, Campaign I ------------------------------------------------------------------
TEBESSA, TUNIS, BIZERTE, WEST_ROAD = "0306", "3501", "3301", "0110"
CAMPAIGN_I = {
    "control": {"units": {"not_flags": ["hq"]}, "requires": ["supplied"]},
    "supply": {"Axis": {"initial": 4, "sources": [TEBESSA], "networks": [["road"]]}},
    "conditions": {
        "axis-tebessa": {"side": "Axis", "place": TEBESSA, "name": "Tebessa"},
        "axis-exits": {"side": "Axis", "exited": {"box": "Exited", "via": [WEST_ROAD], "count": 3}},
        # "Control" of the harbours is not defined: read as occupied by a unit, with no supply asked.
        "allies-tunis": {"side": "Allied", "place": TUNIS, "name": "Tunis", "control": {}},
        "allies-bizerte": {"side": "Allied", "place": BIZERTE, "name": "Bizerte", "control": {}},
    },
    "end": [
        {"result": "Axis loses", "all": ["allies-tunis", "allies-bizerte"], "rule_ref": "Campaign I"},
        {"result": "Axis victory", "all": ["axis-tebessa", "axis-exits"], "rule_ref": "Campaign I"},
    ],
    "otherwise": "no Axis victory",
}
AX = [u(f"ax{i}", "Axis") for i in range(5)]
AL = [u(f"al{i}", "Allied") for i in range(2)]


def campaign_i(s: GameState, **changed: Any) -> list[Any]:
    return judge(History((s,)), CTX, params("victory.conditions", **{**CAMPAIGN_I, **changed}))


def test_tunisia_campaign_i_supplied_unit_in_tebessa_and_three_exits_by_the_west_road_is_an_axis_victory() -> None:
    """Campaign I: "The Axis wins if he controls Tébessa (see definition below), and three units exit by a main
    road off the west side of the map ... The player Italio-German controls Tébessa if a supplied combat unit is
    in it at the end of a game turn." A log shows the three leaving from the west road hex."""
    s = state(
        8,
        {AX[0]: TEBESSA, AX[1]: "Exited", AX[2]: "Exited", AX[3]: "Exited"},
        left={AX[1]: WEST_ROAD, AX[2]: WEST_ROAD, AX[3]: WEST_ROAD},
    )
    found = campaign_i(s)
    assert (
        last(found) == "[Campaign I] if the game ended with this state: Axis victory (all of axis-tebessa, axis-exits)"
    )


def test_tunisia_campaign_i_exits_a_save_cannot_place_are_cannot_be_told_not_a_victory() -> None:
    """Campaign I: the exits must be "by a main road off the west side": a save shows units in the Exited box
    but not the hex each left from, so the Axis victory cannot be told (a wrong verdict is worse than none)."""
    s = state(8, {AX[0]: TEBESSA, AX[1]: "Exited", AX[2]: "Exited", AX[3]: "Exited"})
    found = campaign_i(s)
    assert "cannot be told whether the game would end as Axis victory" in last(found)
    assert any(
        "0 Axis units exited into Exited by the given hexes: cannot be told (3 more Axis units" in m
        for m in texts(found)
    )


def test_tunisia_campaign_i_unsupplied_unit_in_tebessa_does_not_control_it() -> None:
    """Campaign I: "controls Tébessa if a supplied combat unit is in it": the only source is far away, so the
    unit in Tebessa is out of supply and the Axis does not control it."""
    s = state(
        8,
        {AX[0]: TEBESSA, AX[1]: "Exited", AX[2]: "Exited", AX[3]: "Exited"},
        left={AX[1]: WEST_ROAD, AX[2]: WEST_ROAD, AX[3]: WEST_ROAD},
    )
    found = campaign_i(s, supply={"Axis": {"initial": 4, "sources": ["3926"], "networks": [["road"]]}})
    assert "Axis does not control Tebessa (0306) (turn 8): no Axis not hq units in supply there: not met" in texts(
        found
    )
    assert last(found) == "if the game ended with this state: no Axis victory (no other outcome holds)"


def test_tunisia_campaign_i_allies_holding_tunis_and_bizerte_lose_the_axis_the_game() -> None:
    """Campaign I: "If the Allied player controls the two harbors at the end of the game, the player of the Axis
    loses automatically", even with both Axis conditions met."""
    s = state(
        8,
        {AX[0]: TEBESSA, AX[1]: "Exited", AX[2]: "Exited", AX[3]: "Exited", AL[0]: TUNIS, AL[1]: BIZERTE},
        left={AX[1]: WEST_ROAD, AX[2]: WEST_ROAD, AX[3]: WEST_ROAD},
    )
    assert last(campaign_i(s)) == (
        "[Campaign I] if the game ended with this state: Axis loses (all of allies-tunis, allies-bizerte)"
    )


def test_control_requiring_supply_without_supply_for_the_side_is_a_pack_error() -> None:
    with pytest.raises(ValueError, match="supply.Axis: control requires supplied units"):
        campaign_i(state(8, {AX[0]: TEBESSA}), supply={})


# -- Tunisia 1943, Campaign II -----------------------------------------------------------------
CAMPAIGN_II = {
    "conditions": {
        "tunis": {"side": "Allied", "place": TUNIS, "name": "Tunis"},
        "bizerte": {"side": "Allied", "place": BIZERTE, "name": "Bizerte"},
    },
    "end": [{"result": "Allied victory", "all": ["tunis", "bizerte"], "rule_ref": "Campaign II"}],
    "otherwise": "Axis victory",
}


@pytest.mark.parametrize(
    ("where", "result"),
    [
        (
            {AL[0]: TUNIS, AL[1]: BIZERTE},
            "[Campaign II] if the game ended with this state: Allied victory (all of tunis, bizerte)",
        ),
        ({AL[0]: TUNIS, AL[1]: "2020"}, "if the game ended with this state: Axis victory (no other outcome holds)"),
    ],
)
def test_tunisia_campaign_ii_allies_must_occupy_tunis_and_bizerte(where: dict[Unit, str], result: str) -> None:
    """Campaign II: "The Allied player must occupy Tunis and Bizerte at the end of the game. All other results are
    a victory Italio-German." """
    assert last(judge(History((state(7, where),)), CTX, params("victory.conditions", **CAMPAIGN_II))) == result


# -- No Question of Surrender, Scenarios 1 and 2 -----------------------------------------------
FRENCH_AREA = "1010-1015"  # stand-in for the set-up area of the French units
BIR_HACHEIM = "1710-1712"


def test_nqos_sc1_only_an_unsuppressed_italian_unit_in_the_french_area_wins() -> None:
    """Sc.1: "If at the end of the scenario there is an unsuppressed Italian Unit within the setup area of the
    French Units, the Italian player wins. All other results are a French victory." """
    p = params(
        "victory.conditions",
        control={"units": {"not_flags": ["suppressed"]}},
        conditions={"in-area": {"side": "Italian", "place": FRENCH_AREA, "name": "French set-up area"}},
        end=[{"result": "Italian victory", "any": ["in-area"], "rule_ref": "Sc.1"}],
        otherwise="French victory",
    )
    suppressed = u("it1", "Italian", flags=("suppressed",))
    fresh = u("it2", "Italian")
    assert last(judge(History((state(None, {suppressed: "1012"}),)), CTX, p)).endswith(
        "French victory (no other outcome holds)"
    )
    assert "Italian victory" in last(judge(History((state(None, {suppressed: "1012", fresh: "1014"}),)), CTX, p))


def test_nqos_sc2_one_point_per_french_step_lost_and_per_unsuppressed_italian_unit_in_bir_hacheim() -> None:
    """Sc.2: "the Italian player receives 1 victory point for each French step eliminated, and each unsuppressed
    Italian Unit in a Bir Hacheim hex. If the Italian player has 14 or more points, the Italian player wins."
    A two-step French unit eliminated (2) and a reduced one on the map (1) are 3 steps; two unsuppressed
    Italian units in Bir Hacheim (a suppressed third does not count) make 5."""
    fr = [u("fr1", "French", steps=2), u("fr2", "French", flags=("reduced",)), u("fr3", "French")]
    it = [u("it1", "Italian"), u("it2", "Italian"), u("it3", "Italian", flags=("suppressed",))]
    s = state(None, {fr[0]: "Eliminated", fr[1]: "1501", fr[2]: "1502", it[0]: "1710", it[1]: "1711", it[2]: "1712"})
    p = params(
        "victory.tally",
        side="Italian",
        eliminated_box="Eliminated",
        control={"units": {"not_flags": ["suppressed"]}},
        items=[
            {"steps_lost": {"sides": ["French"]}, "points": 1, "rule_ref": "Sc.2"},
            {"place": BIR_HACHEIM, "name": "Bir Hacheim", "per": "unit", "points": 1, "rule_ref": "Sc.2"},
        ],
        levels=[{"level": "French victory", "max": 13}, {"level": "Italian victory", "min": 14}],
        levels_ref="Sc.2",
    )
    found = texts(tally_of(History((s,)), CTX, p))
    assert "[Sc.2] 3 step(s) lost by French units (2 unit(s): eliminated, in Eliminated, or reduced): +3 VP" in found
    assert "Italian victory points: 5" in found
    assert "the Italian total is 5, which shows French victory [Sc.2]" in found


# -- Kesselring's War 3.1-3.3, 36, 37 ----------------------------------------------------------
ROMA, SAN_BENEDETTO, CASSINO, OTHER_OBJ = "2010", "2012", "2014", "2016"
GROUND = {"units": {"not_flags": ["air", "naval", "ssu"]}}


def kw_items() -> list[dict[str, Any]]:
    out = []
    for side, enemy in (("Allied", "Axis"), ("Axis", "Allied")):
        out += [
            {"side": side, "place": ROMA, "name": "Roma", "points": 8, "rule_ref": "3.3"},
            {"side": side, "place": SAN_BENEDETTO, "name": "San Benedetto", "points": 4, "rule_ref": "3.3"},
            {"side": side, "place": CASSINO, "name": "Monte Cassino", "points": 1, "rule_ref": "3.3"},
            {
                "side": side,
                "place": OTHER_OBJ,
                "name": "other objectives",
                "per": "hex",
                "points": 1,
                "rule_ref": "3.3",
            },
            {
                "side": side,
                "box": "Permanently Eliminated",
                "points": 1,
                "rule_ref": "3.3",
                "units": {"sides": [enemy], "kinds": ["mechanized-division", "airborne-division"]},
            },
        ]
    return out


KW_LEVELS = [
    {"level": "Axis Strategic", "max": -12},
    {"level": "Axis Operational", "min": -11, "max": -8},
    {"level": "Axis Marginal", "min": -7, "max": -4},
    {"level": "Draw", "min": -3, "max": 3},
    {"level": "Allied Marginal", "min": 4, "max": 7},
    {"level": "Allied Operational", "min": 8, "max": 11},
    {"level": "Allied Strategic", "min": 12},
]


def test_kw_3_3_levels_by_the_difference_of_the_totals() -> None:
    """3.3: "Roma: 8 VP, San Benedetto: 4 VP, Monte Cassino: 1 VP, Each other Objective hex: 1 VP each ... Each
    enemy unit in the Permanently Eliminated display. Mechanized or Airborne/Parachute Division: 1 VP. All other
    units: 0 VP ... Subtract the total for the side with the lower VP from the total of the higher. 3 or less:
    Draw, 4-7: Marginal Victory". Allies: Roma 8 + one Axis panzer division eliminated 1 = 9 (an Axis infantry
    unit there is 0); Axis: San Benedetto 4 + Monte Cassino 1 = 5; the difference 4 is an Allied Marginal
    Victory. 3.2: "Air ... units cannot control Objectives": an Allied air unit in the other objective holds
    nothing."""
    units = {
        u("a1", "Allied"): ROMA,
        u("air", "Allied", "air", ("air",)): OTHER_OBJ,
        u("x1", "Axis"): SAN_BENEDETTO,
        u("x2", "Axis"): CASSINO,
        u("pz", "Axis", "mechanized-division"): "Permanently Eliminated",
        u("x3", "Axis"): "Permanently Eliminated",
    }
    p = params(
        "victory.tally",
        side="Allied",
        opponent="Axis",
        control=GROUND,
        items=kw_items(),
        levels=KW_LEVELS,
        levels_by="difference",
        levels_ref="3.3",
    )
    found = texts(tally_of(History((state(10, units),)), CTX, p))
    assert "Allied victory points: 9" in found and "Axis victory points: 5" in found
    assert "the difference (Allied 9 - Axis 5) is 4, which shows Allied Marginal [3.3]" in found
    assert (
        "[3.3] Allied does not control other objectives (2016) (turn 10): no Allied not air not naval not ssu "
        "units there: +0 VP" in found
    )


OBJECTIVES = [ROMA, SAN_BENEDETTO, OTHER_OBJ]


def test_kw_3_1_allied_ground_units_on_all_objectives_at_any_point_is_sudden_death() -> None:
    """3.1: "If at any point in a scenario ... Allies: Allied ground units (mobile or static) occupy all
    Objectives on the map" the game ends. Seen in the first of two saves, though gone in the second."""
    p = params(
        "victory.conditions",
        control=GROUND,
        conditions={"all-objectives": {"side": "Allied", "place": OBJECTIVES, "count": 0, "name": "Objectives"}},
        sudden_death=[
            {"result": "Allied Strategic Victory", "at": "any", "all": ["all-objectives"], "rule_ref": "3.1"}
        ],
    )
    a = [u(f"a{i}", "Allied") for i in range(3)]
    s1 = state(3, dict(zip(a, OBJECTIVES, strict=True)))
    s2 = state(4, {a[0]: ROMA, a[1]: SAN_BENEDETTO, a[2]: "0101"})
    assert last(judge(History((s1, s2)), CTX, p)) == (
        "[3.1] sudden death, Allied Strategic Victory (all of all-objectives): met in a state given"
    )
    assert last(judge(History((s2,)), CTX, p)).endswith("not met in a state given")


def test_kw_3_1_scenario_i_axis_sudden_death_at_the_conclusion_of_gt_2() -> None:
    """3.1, Scenario I: "Allies control no ports or airfields on the map at the conclusion of Game Turn (GT) 2"
    (the Axis wins). Judged on the state of turn 2; a save of turn 1 has not reached it."""
    p = params(
        "victory.conditions",
        control=GROUND,
        conditions={"allied-ports": {"side": "Allied", "place": ["0501", "0602"], "name": "ports and airfields"}},
        sudden_death=[{"result": "Axis Strategic Victory", "at": 2, "none": ["allied-ports"], "rule_ref": "3.1"}],
    )
    far = u("a1", "Allied")
    assert last(judge(History((state(2, {far: "0909"}),)), CTX, p)) == (
        "[3.1] sudden death, Axis Strategic Victory (none of allied-ports): met at the end of turn 2 "
        "(state 1, the last given of turn 2: if it shows the turn's end)"
    )
    later = History((state(1, {far: "0602"}), state(3, {far: "0909"})))
    assert last(judge(later, CTX, p)).endswith(
        "met at the end of turn 2 (judged on state 2, turn 3, the first given after turn 2)"
    )
    assert last(judge(History((state(2, {far: "0602"}),)), CTX, p)).startswith(
        "[3.1] sudden death, Axis Strategic Victory (none of allied-ports): not met"
    )
    assert last(judge(History((state(1, {far: "0909"}),)), CTX, p)).endswith("not met turn 2 is not reached")


@pytest.mark.parametrize(("side", "other", "ref"), [("Axis", "Allies", "36.3"), ("Allied", "Axis", "37.2")])
def test_kw_36_37_the_side_must_occupy_all_mainland_objectives_at_gt_8(side: str, other: str, ref: str) -> None:
    """36.3: "The Axis must occupy, with mobile or static ground units, all Objective hexes on Mainland Italy
    during the End of Turn phase of GT 8. If the Axis fails to occupy all these hexes, the Allies win a
    Strategic Victory." 37.2 is the same for the Allies. One of the two hexes held: the other side wins."""
    p = params(
        "victory.conditions",
        control=GROUND,
        conditions={"mainland": {"side": side, "place": [ROMA, SAN_BENEDETTO], "count": 0, "name": "mainland"}},
        sudden_death=[{"result": f"{other} Strategic Victory", "at": 8, "none": ["mainland"], "rule_ref": ref}],
    )
    one = state(8, {u("g", side): ROMA})
    both = state(8, {u("g", side): ROMA, u("h", side): SAN_BENEDETTO})
    assert "met at the end of turn 8" in last(judge(History((one,)), CTX, p))
    assert "not met at the end of turn 8" in last(judge(History((both,)), CTX, p))


# -- No Question of Surrender Sc.3: last occupier ----------------------------------------------
OP = "1710"  # the observation point, hex 17.10


def test_nqos_sc3_the_side_last_to_occupy_the_observation_point_wins() -> None:
    """Sc.3: "The side that occupies, or was the last to occupy, the observation point (hex 17.10) at the end of
    the game wins." A German unit there at the end wins; gone from it in the last save, the Germans were the last
    seen there, but a French occupation between the saves cannot be seen: cannot be told."""
    p = params(
        "victory.conditions",
        conditions={"german-op": {"side": "German", "place": OP, "at": "last-occupier", "name": "17.10"}},
        end=[{"result": "German victory", "all": ["german-op"], "rule_ref": "Sc.3"}],
        otherwise="French victory",
    )
    g = u("g", "German")
    assert "German victory" in last(judge(History((state(5, {g: OP}),)), CTX, p))
    found = judge(History((state(5, {g: OP}), state(6, {g: "1512"}))), CTX, p)
    assert "cannot be told whether the game would end as German victory" in last(found)
    assert "German was the last seen to occupy 17.10 (1710)" in texts(found)[0]
    assert "French victory" in last(judge(History((state(6, {u("f", "French"): OP}),)), CTX, p))
    nobody = judge(History((state(6, {g: "1512"}),)), CTX, p)
    assert (
        "no one side is seen in 17.10 (1710): cannot be told (no state given shows one side alone" in texts(nobody)[0]
    )
    assert "cannot be told whether the game would end as German victory" in last(nobody)


# -- bad parameters ------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("given", "match"),
    [
        ({"conditions": {"c": {"side": "A", "place": "0101", "box": "X"}}}, "exactly one of place, box"),
        ({"conditions": {"c": {"side": "A", "place": "0101", "at": "sometime"}}}, "at: expected one of end"),
        ({"conditions": {"c": {"place": "0101"}}}, "conditions.c: missing side"),
        (
            {
                "conditions": {"c": {"side": "A", "place": "0101", "at": "first-entry"}},
                "control": {"requires": ["supplied"]},
            },
            "requirements .requires. apply only with at = 'end'",
        ),
        (
            {"conditions": {"c": {"side": "A", "place": "0101"}}, "end": [{"result": "r", "all": ["d"]}]},
            "'d' is not one",
        ),
        (
            {"conditions": {"c": {"side": "A", "place": "0101"}}, "control": {"requires": ["fed"]}},
            "unknown requirement",
        ),
    ],
)
def test_bad_parameters_name_the_key(given: dict[str, Any], match: str) -> None:
    with pytest.raises(ValueError, match=match):
        judge(History((state(1, {}),)), CTX, params("victory.conditions", **given))


def pack(rules: dict[str, Any]) -> RulePack:
    return RulePack.from_mapping(
        {
            "pack": {"format": 1, "id": "tunisia", "name": "T", "rulebook": "r", "module": {"name": "T.*"}},
            "terrain": {"types": ["clear"], "features": ["road"]},
            "units": {"sides": ["Axis", "Allied"], "classes": ["infantry"]},
            "rules": rules,
        }
    )


def test_a_pack_table_runs_through_the_engine_and_a_bad_one_is_a_pack_error() -> None:
    """Tunisia 1943, Campaign II, written as pack.toml would: the findings cite the rule; an item scoring for a
    side that is neither the side nor the opponent is refused as a pack error naming the rule."""
    rp = pack({"victory": {"impl": "victory.conditions", "rule_ref": "Campaign II", **CAMPAIGN_II}})
    report = adjudicate(state(7, {AL[0]: TUNIS, AL[1]: BIZERTE}), rp, CTX)
    assert {f.rule for f in report.findings} == {"game:Campaign II"}  # the context names the pack
    assert report.findings[-1].message.endswith("Allied victory (all of tunis, bizerte)")
    typo = pack(
        {
            "tally": {
                "impl": "victory.tally",
                "rule_ref": "x",
                "side": "Allied",
                "items": [{"side": "Axsi", "place": TUNIS}],
            }
        }
    )
    with pytest.raises(PackError, match=r"rules.tally: items: side 'Axsi' is neither the side"):
        adjudicate(state(7, {AL[0]: TUNIS}), typo, CTX)


# -- No Question of Surrender Sc.4: the date of a declared withdrawal ---------------------------
SC4 = {
    "conditions": {
        "by-7": {"side": "French", "declared": {"marker": "Withdrawal", "box": r"June (\d+)", "turns": [1, 7]}},
        "on-10": {"side": "French", "declared": {"marker": "Withdrawal", "box": r"June (\d+)", "turns": [10, 10]}},
    },
    "end": [
        {"result": "Axis victory", "all": ["by-7"], "rule_ref": "Sc.4"},
        {"result": "French victory", "all": ["on-10"], "rule_ref": "Sc.4"},
    ],
    "otherwise": "a minor victory, by Susan Travers' route (not checked)",
}


@pytest.mark.parametrize(
    ("box", "result"),
    [
        ("June 6", "[Sc.4] if the game ended with this state: Axis victory (all of by-7)"),
        ("June 10", "[Sc.4] if the game ended with this state: French victory (all of on-10)"),
        (
            "June 8",
            (
                "if the game ended with this state: a minor victory, by Susan Travers' route (not checked) "
                "(no other outcome holds)"
            ),
        ),
    ],
)
def test_nqos_sc4_the_withdrawal_date_decides(box: str, result: str) -> None:
    """Sc.4: "If the Withdrawal is taking place on June 7th or earlier, the game is an Axis victory. If the
    Withdrawal take place on June 8th or 9th, and Susan Travers passes through 3 or fewer Axis Fire Zones, then it
    is a minor French victory ... If the Withdrawal takes place on June 10th, it is a French victory." The
    withdrawal is read from a marker put in the box of its date."""
    s = GameState({}, {}, None, markers={"Withdrawal": (Position(box=box),)})
    assert last(judge(History((s,)), CTX, params("victory.conditions", **SC4))) == result


def test_nqos_sc4_no_withdrawal_marker_in_the_save_cannot_be_told() -> None:
    found = judge(History((GameState({}, {}, None),)), CTX, params("victory.conditions", **SC4))
    assert (
        "Withdrawal is not declared (turns 1-7): cannot be told (no piece named 'Withdrawal' is in the state(s) "
        "given)" in texts(found)
    )
    assert "cannot be told whether the game would end as Axis victory" in last(found)


def test_kw_27_1_italian_surrender_when_the_allies_hold_all_objectives_of_sicily_or_of_sardinia() -> None:
    """27.1: "Italian surrender when Allies occupy all objectives of Sicily or Sardinia" (RULES-MAP: a condition
    as an event): all of Sardinia's two objectives held is enough; one of Sicily's two is not."""
    sicily, sardinia = ["2026", "2126"], ["1609", "1610"]
    p = params(
        "victory.conditions",
        control=GROUND,
        conditions={
            "sicily": {"side": "Allied", "place": sicily, "count": 0, "name": "Sicily objectives"},
            "sardinia": {"side": "Allied", "place": sardinia, "count": 0, "name": "Sardinia objectives"},
        },
        sudden_death=[{"result": "Italian surrender", "any": ["sicily", "sardinia"], "rule_ref": "27.1"}],
    )
    a = [u(f"a{i}", "Allied") for i in range(3)]
    held = state(4, {a[0]: "2026", a[1]: "1609", a[2]: "1610"})
    assert last(judge(History((held,)), CTX, p)).endswith(
        "Italian surrender (any of sicily, sardinia): met in a state given"
    )
    part = state(4, {a[0]: "2026", a[1]: "1609", a[2]: "0101"})
    found = judge(History((part,)), CTX, p)
    assert "Allied controls 1 of the 2 hexes of Sicily objectives (2026) (turn 4): not met" in texts(found)
    assert last(found).endswith("not met in a state given")
