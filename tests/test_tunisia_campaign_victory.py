"""Tunisia 1943 victory in Campaign I and Campaign II, through the pack's rules `victory_campaign_1` and
`victory_campaign_2` (modules/tunisia-1943/pack.toml, impl victory.conditions), worked by hand from the
seed's words (../shared/seeds/001_9467744547cf47c5.txt) on the example board: Tebessa 0214, Tunis
2605, Bizerte 2302, the main roads leaving the west edge at 0104 and 0113.

Readings (pack.toml assumptions): the Allies control a harbour with a combat unit in it
(harbour_control); the Axis unit holding Tebessa is supplied unless it carries the out-of-supply
marker 9.2 places (victory_supply).
"""

from __future__ import annotations

from tunisia_board import OUT_OF_SUPPLY, outcome, run, state, unit

PZGR_69 = unit("5-5-8-8 PzGr 69 (10.Pz)", "Axis")
PZGR_69_OOS = unit("5-5-8-8 PzGr 69 (10.Pz)", "Axis", **OUT_OF_SUPPLY)
EM_10 = unit("EM 3-8 (10.Pz)", "Axis")
EXITED = [unit(n, "Axis") for n in ("5-5-8-8 PzGr 86 (10.Pz)", "3-2-10-7 K 10 (10.Pz)", "5-5-8-8 PzGr 104 (21.Pz)")]
INF_133 = unit("4-5-5-7 133 Inf (34 ID)", "Allied")
INF_135 = unit("4-5-5-7 135 Inf (34 ID)", "Allied")
EM_34 = unit("EM 2-5 (34 ID)", "Allied")
WEST_EXITS = ["0104", "0113", "0104"]


def three_exits(holder=PZGR_69, more=None):
    where = {holder: "0214", **{u: "Exited" for u in EXITED}, **(more or {})}
    return state(where, 8, "allied-supply", left=dict(zip(EXITED, WEST_EXITS, strict=True)))


def test_campaign_i_axis_wins_with_tebessa_and_three_units_exited_by_a_main_road() -> None:
    """Campaign I: "The Axis wins if he controls Tébessa ... and three units exit by a main road off the
    west side of the map"; "The player Italio-German controls Tébessa if a supplied combat unit is in it
    at the end of a game turn." A regiment in Tebessa, three units gone off the west edge by the main
    roads (0104, 0113) as the log shows: Axis victory."""
    assert outcome(run("victory_campaign_1", three_exits(), "campaign-1")).endswith(
        "Axis victory (all of tebessa, exits)"
    )


def test_campaign_i_an_unsupplied_unit_or_an_em_does_not_control_tebessa() -> None:
    """Campaign I: "a supplied combat unit": a regiment marked out of supply (9.2), or the EM ("not regarded
    as a combat unit", 0.1), in Tebessa does not control it: no Axis victory."""
    assert (
        outcome(run("victory_campaign_1", three_exits(PZGR_69_OOS), "campaign-1"))
        == "if the game ended with this state: no Axis victory (no other outcome holds)"
    )
    assert (
        outcome(run("victory_campaign_1", three_exits(EM_10), "campaign-1"))
        == "if the game ended with this state: no Axis victory (no other outcome holds)"
    )


def test_campaign_i_exits_elsewhere_do_not_count() -> None:
    """Campaign I: the three units must "exit by a main road off the west side": units gone from 0101,
    a west-edge hex with no main road, are not counted."""
    where = {PZGR_69: "0214", **{u: "Exited" for u in EXITED}}
    st = state(where, 8, "allied-supply", left={u: "0101" for u in EXITED})
    assert (
        outcome(run("victory_campaign_1", st, "campaign-1"))
        == "if the game ended with this state: no Axis victory (no other outcome holds)"
    )


def test_campaign_i_the_axis_loses_if_the_allies_control_both_harbours() -> None:
    """Campaign I: "If the Allied player controls the two harbors at the end of the game, the player of the
    Axis loses automatically", even with Tebessa and three exits."""
    st = three_exits(more={INF_133: "2605", INF_135: "2302"})
    assert outcome(run("victory_campaign_1", st, "campaign-1")).endswith(
        "Axis loses (the Allies control Tunis and Bizerte) (all of tunis, bizerte)"
    )


def test_campaign_i_one_harbour_leaves_the_axis_both_conditions() -> None:
    """Campaign I: "If the player Allied control Tunis or Bizerte at the end of the game, the player
    Italio-German must forfill the two conditions": with Tunis Allied, Tebessa and the exits still win."""
    st = three_exits(more={INF_133: "2605"})
    assert outcome(run("victory_campaign_1", st, "campaign-1")).endswith("Axis victory (all of tebessa, exits)")


def test_campaign_ii_the_allies_must_occupy_tunis_and_bizerte() -> None:
    """Campaign II: "The Allied player must occupy Tunis and Bizerte at the end of the game. All other
    results are a victory Italio-German." Both held: Allied victory; Bizerte held by an EM only (not a
    combat unit, assumption harbour_control): Axis victory."""
    both = state({INF_133: "2605", INF_135: "2302"}, 7, "axis-supply")
    assert outcome(run("victory_campaign_2", both, "campaign-2")).endswith("Allied victory (all of tunis, bizerte)")
    em_only = state({INF_133: "2605", EM_34: "2302"}, 7, "axis-supply")
    assert outcome(run("victory_campaign_2", em_only, "campaign-2")) == (
        "if the game ended with this state: Axis victory (no other outcome holds)"
    )


def test_each_campaign_judges_only_its_own_victory() -> None:
    """The conditions of Campaign I are not Campaign II's: the Campaign I rule is not in force there
    (and Game-Turn 8 is past Campaign II's end: tests/test_tunisia_campaign_length.py)."""
    found = run("victory_campaign_1", three_exits(), "campaign-2")
    assert [f.message for f in found if f.rule != "tunisia-1943:Campaign II"] == [
        "rule victory_campaign_1 (Campaign I) is not in force: "
        "it is in force only in scenario campaign-1, not campaign-2"
    ]
