"""Tunisia 1943 Campaign I and II set-up of the Tigers, through the pack's rules `tiger_setup_1` and
`tiger_setup_2` (modules/tunisia-1943/pack.toml, impl setup.constraints), worked by hand from the
seed's words (../shared/seeds/001_9467744547cf47c5.txt) on the example board, whose "West front" is
the invented region of columns 06-12 (assumption west_front).
"""

from __future__ import annotations

from tunisia_board import errors, run, state, unit

TIGER_1 = unit("8-7-7-* sPzAbt 501/1", "Axis")
TIGER_2 = unit("8-7-7-* sPzAbt 501/2", "Axis")
PZGR_69 = unit("5-5-8-8 PzGr 69 (10.Pz)", "Axis")
GREN_754 = unit("4-5-5-7 Gren 754 (334.ID)", "Axis")
EM_10 = unit("EM 3-8 (10.Pz)", "Axis")
INF_133 = unit("4-5-5-7 133 Inf (34 ID)", "Allied")


def test_campaign_i_one_tiger_with_the_10_panzer_the_other_stacked_on_the_west_front() -> None:
    """Campaign I: "At least one Tiger counter must begin with a unit of the 10. Panzer. The other will be
    stacked with any other unit on turn 1 on the West front." One Tiger with the PzGr 69 at Medjez el Bab
    (1706), the other with the Gren 754 in 1008 (column 10, the West front): legal."""
    st = state({TIGER_1: "1706", PZGR_69: "1706", TIGER_2: "1008", GREN_754: "1008"})
    assert errors(run("tiger_setup_1", st, "campaign-1")) == []


def test_campaign_i_a_tiger_alone_or_with_an_em_is_not_stacked_with_a_unit() -> None:
    """ "stacked with any other unit": the second Tiger alone in 1008 breaks it; with the 10. Panzer's EM
    only (no combat unit, 0.1) it does too."""
    alone = state({TIGER_1: "1706", PZGR_69: "1706", TIGER_2: "1008"})
    assert errors(run("tiger_setup_1", alone, "campaign-1")) == [
        "Axis 8-7-7-* sPzAbt 501/2 (1008) is not stacked with one of the Axis units not em or tiger [Campaign I]"
    ]
    with_em = state({TIGER_1: "1706", PZGR_69: "1706", TIGER_2: "1008", EM_10: "1008"})
    assert len(errors(run("tiger_setup_1", with_em, "campaign-1"))) == 1


def test_campaign_ii_the_other_tiger_on_the_west_front_only() -> None:
    """Campaign II: "The other counter will be stacked with any unit of the players choice, on the west
    front only": both Tigers east of the West front (1706, 2011) break it; stacked with an Allied unit
    counts for nothing (a Tiger "stacked" is with its own side)."""
    east = state({TIGER_1: "1706", PZGR_69: "1706", TIGER_2: "2011", GREN_754: "2011"})
    assert errors(run("tiger_setup_2", east, "campaign-2")) == [
        "units flagged tiger set up in West front: 0, but at least 1 must be [Campaign II]"
    ]
    enemy = state({TIGER_1: "1706", PZGR_69: "1706", TIGER_2: "1008", INF_133: "1008"})
    assert len(errors(run("tiger_setup_2", enemy, "campaign-2"))) == 1
