"""Tunisia 1943 (seed 001): the campaigns' lengths. Campaign I "The game lasts 8 turns"; Campaign II
"The game lasts 7 turns": a position of a later Game-Turn is a game played past its end, a warning
citing the campaign (rules/engine.py `past_scenario`), whatever rules run on it."""

from tunisia_board import run, state, unit

INF_133 = unit("4-5-5-7 133 Inf (34 ID)", "Allied")


def _span(found):
    return [(f.rule, f.severity, f.message) for f in found if "is outside" in f.message]


def test_campaign_ii_lasts_seven_turns():
    past = _span(run("stacking", state({INF_133: "0505"}, turn=8, phase="allied-movement"), "campaign-2"))
    assert past == [
        (
            "tunisia-1943:Campaign II",
            "warning",
            "Game-Turn 8 is outside Campaign II (Game-Turns 1-7): the game ends with Game-Turn 7",
        )
    ]
    assert _span(run("stacking", state({INF_133: "0505"}, turn=7, phase="allied-movement"), "campaign-2")) == []


def test_campaign_i_lasts_eight_turns():
    assert _span(run("stacking", state({INF_133: "0505"}, turn=8, phase="axis-movement"), "campaign-1")) == []


def test_no_campaign_no_length():
    # Without a campaign known, nothing is said about its length (never guessed).
    assert _span(run("stacking", state({INF_133: "0505"}, turn=8, phase="axis-movement"))) == []
