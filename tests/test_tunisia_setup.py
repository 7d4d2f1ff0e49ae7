"""Tunisia 1943 set-up and placement rules worked by hand from the seed's words
(../shared/seeds/001_9467744547cf47c5.txt) on the pack's example board (tests/tunisia_board.py):
the Campaign I/II Tiger set-up's "at least one ... with a unit of the 10. Panzer" (rules tiger_setup_1,
tiger_setup_2, setup.constraints `with ... at_least = 1`) and 6.3's return of a destroyed EM
"within 4 hex of an unit of the division" (rule em_return, placement.near, judged on a log's segment).

Distances on the example board: hexes of one column are as many hexes apart as their rows differ
(1706 to 1710: 4 hexes).
"""

from __future__ import annotations

import dataclasses

from tunisia_board import LAYOUT, PACK, TERRAIN, H, errors, run, state, unit

from vassal_adj.model.setups import SetupReference
from vassal_adj.model.state import GameState, Position
from vassal_adj.rules.engine import RuleContext, adjudicate
from vassal_adj.rules.registry import lookup
from vassal_adj.rules.results import Finding
from vassal_adj.rules.segments import Opened, Segment

TIGER_1 = unit("8-7-7-* sPzAbt 501/1", "Axis")
TIGER_2 = unit("8-7-7-* sPzAbt 501/2", "Axis")
PZGR_69 = unit("5-5-8-8 PzGr 69 (10.Pz)", "Axis")
GREN_754 = unit("4-5-5-7 Gren 754 (334.ID)", "Axis")
EM_10 = unit("EM 3-8 (10.Pz)", "Axis")


# -- Campaign I and II: "At least one Tiger counter must begin with a unit of the 10. Panzer." -------------


def test_campaign_i_neither_tiger_with_a_10_panzer_unit_is_an_error() -> None:
    """Both Tigers stacked with an Axis combat unit, one on the West front (1008), but neither with a
    unit of the 10. Panzer: Tiger 1 with the Gren 754 (334. ID) in 1706, Tiger 2 likewise in 1008."""
    gren_b = unit("4-5-5-7 Gren 756 (334.ID)", "Axis")
    st = state({TIGER_1: "1706", GREN_754: "1706", TIGER_2: "1008", gren_b: "1008", PZGR_69: "2011"})
    assert errors(run("tiger_setup_1", st, "campaign-1")) == [
        "0 of the 2 units flagged tiger are set up stacked with one of the units of 10. Panzer-Division "
        "not em or tiger, but at least 1 must be [Campaign I]"
    ]


def test_campaign_ii_one_tiger_with_the_10_panzer_is_enough_the_other_goes_free() -> None:
    """Campaign II: Tiger 1 with the PzGr 69 (10. Panzer) in 1706, Tiger 2 with the Gren 754 on the
    West front (1008): "at least one" holds, and the other need not be with the 10. Panzer."""
    st = state({TIGER_1: "1706", PZGR_69: "1706", TIGER_2: "1008", GREN_754: "1008"})
    assert errors(run("tiger_setup_2", st, "campaign-2")) == []


def test_campaign_ii_a_tiger_with_the_10_panzer_s_em_only_is_not_with_a_unit_of_it() -> None:
    """The 10. Panzer's EM is "not regarded as a combat unit" (0.1): a Tiger stacked with it alone and
    with a 334. ID regiment is not with a unit of the 10. Panzer (the pack's reading, as for "any
    other unit")."""
    st = state({TIGER_1: "1706", EM_10: "1706", GREN_754: "1706", TIGER_2: "1008", PZGR_69: "2011"})
    found = errors(run("tiger_setup_2", st, "campaign-2"))
    assert any(m.startswith("0 of the 2 units flagged tiger") for m in found)


# -- 6.3: "the EM is replaced on the map by the player, within 4 hex of an unit of the division" -------------


def _return(where: dict, placed: str, left: dict | None = None) -> list[Finding]:
    """The EM 3-8 (10.Pz) dragged from the box 'Turn 3' onto `placed` at the end of Game-Turn 3;
    `left`: units the files show leaving the map before (the EM, destroyed on turn 1)."""
    start = state({**where, EM_10: "Turn 3"}, turn=3, phase="allied-supply", left=left)
    end = GameState(
        start.units,
        {**start.positions, EM_10.id: Position(H(placed), placed)},
        3,
        "allied-supply",
        departures=start.departures,
    )
    moves = {EM_10.id: [(Position(box="Turn 3"), Position(H(placed), placed))]}
    seg = Segment(3, "allied-supply", Opened("phase"), start, end, moves)
    rule = PACK.rule("em_return")
    ctx = RuleContext(TERRAIN, LAYOUT, PACK.id, rule=rule)
    return lookup(rule.impl).func(seg, ctx, rule.params)


def _destroyed() -> dict:
    return {EM_10: "1706"}


def test_6_3_the_em_replaced_4_hexes_from_a_regiment_of_its_division_is_legal() -> None:
    """The PzGr 69 (10.Pz) in 1706; the EM, destroyed on turn 1 (it left the map from 1706) and placed
    on turn 3, comes back in 1710: 4 hexes, "within 4 hex"."""
    assert _return({PZGR_69: "1706"}, "1710", left=_destroyed()) == []


def test_6_3_five_hexes_away_is_too_far() -> None:
    [f] = _return({PZGR_69: "1706"}, "1711", left=_destroyed())
    assert f.severity == "error" and f.message == (
        "Axis EM 3-8 (10.Pz) placed in 1711 from box 'Turn 3', 5 hexes from the nearest unit of "
        "10. Panzer-Division (1706): it goes within 4 [6.3]"
    )


def test_6_3_a_unit_of_another_division_nearby_does_not_count() -> None:
    """The Gren 754 (334. ID) in 1710 is next to the EM in 1711, but "a unit of the division" is the
    10. Panzer's, 5 hexes off in 1706."""
    [f] = _return({PZGR_69: "1706", GREN_754: "1710"}, "1711", left=_destroyed())
    assert f.severity == "error" and "5 hexes from the nearest unit of 10. Panzer-Division (1706)" in f.message


def test_6_3_if_all_the_units_of_the_division_are_destroyed_the_em_is_not_replaced() -> None:
    [f] = _return({PZGR_69: "Eliminated", GREN_754: "1710"}, "1711", left={**_destroyed(), PZGR_69: "1707"})
    assert f.severity == "error" and f.message == (
        "Axis EM 3-8 (10.Pz) placed in 1711 from box 'Turn 3', but no unit of 10. Panzer-Division is on "
        "the map: it is not replaced [6.3]"
    )


def test_6_3_an_em_the_files_never_show_destroyed_is_not_judged() -> None:
    """Without the EM's departure, its placement may be a reinforcement's first entry (11): not judged."""
    [f] = _return({PZGR_69: "1706"}, "1720")
    assert f.severity == "info" and "not judged" in f.message and "[6.3]" in f.message


def test_6_3_the_placement_rule_is_a_log_rule_with_the_seed_s_numbers() -> None:
    rule = PACK.rule("em_return")
    assert lookup(rule.impl).log and (rule.rule_ref, rule.params["within"], rule.params["same"]) == (
        "6.3",
        4,
        "formation",
    )


# -- the set-up the seed does not print ("see setup"): the module's predefined set-up of the campaign ---------


def _reference(game: GameState, scenario: str, setups: dict[str, SetupReference]) -> list[Finding]:
    """The pack's setup rule of `scenario` on `game`, the module's set-ups read as `setups`."""
    rule = PACK.rule("setup_reference_1" if scenario == "campaign-1" else "setup_reference_2")
    ctx = RuleContext(TERRAIN, LAYOUT, PACK.id, scenario=PACK.scenarios[scenario], setups=setups)
    return list(adjudicate(game, dataclasses.replace(PACK, rules=(rule,)), ctx).findings)


INF_133 = unit("4-5-5-7 133 Inf (34 ID)", "Allied")
SETUP_I = {PZGR_69: "1706", EM_10: "1706", TIGER_1: "1706", TIGER_2: "1008", GREN_754: "1008", INF_133: "Turn 3"}


def test_campaign_i_the_opening_as_the_module_s_set_up_puts_it_the_tigers_at_the_player_s_choice() -> None:
    """The module's "Campaign I" set-up as the game opens, but for the Tigers, which Campaign I lets the
    player place ("stacked with any other unit"): no error."""
    module = {"Campaign I": SetupReference("Campaign I", "campaign1.vsav", state(SETUP_I))}
    game = state({**SETUP_I, TIGER_2: "1706", TIGER_1: "1008"}, turn=1, phase="axis-sustain")
    assert _reference(game, "campaign-1", module) == []


def test_campaign_i_a_regiment_in_another_hex_and_a_reinforcement_in_another_turn_box() -> None:
    module = {"Campaign I": SetupReference("Campaign I", "campaign1.vsav", state(SETUP_I))}
    game = state({**SETUP_I, PZGR_69: "1707", INF_133: "Turn 4"}, turn=1, phase="axis-sustain")
    assert errors(_reference(game, "campaign-1", module)) == [
        "Allied 4-5-5-7 133 Inf (34 ID) is in box 'Turn 4', but set-up 'Campaign I' puts it in box 'Turn 3' "
        "[Campaign I]",
        "Axis 5-5-8-8 PzGr 69 (10.Pz) is in 1707, but set-up 'Campaign I' puts it in 1706 [Campaign I]",
    ]
    moved_on = state({**SETUP_I, PZGR_69: "1707"}, turn=1, phase="axis-movement")
    assert _reference(moved_on, "campaign-1", module) == []  # after the first move the set-up no longer stands


def test_campaign_ii_when_the_module_has_no_such_set_up_it_is_not_judged() -> None:
    module = {
        "Campaign II": SetupReference("Campaign II", why="the module has no predefined set-up named 'Campaign II'")
    }
    [f] = _reference(state(SETUP_I, turn=1, phase="allied-sustain"), "campaign-2", module)
    assert (f.severity, f.message) == (
        "info",
        "set-up not judged: the module has no predefined set-up named 'Campaign II' [Campaign II]",
    )
