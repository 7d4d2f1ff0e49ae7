"""Tunisia 1943 0.1 (EMs face up at the turn's end), 7.4 (Loss of ZoC until the end of the exploitation
phase) and 6.3 (an EM with no combat unit left is retired), through the pack's `marker.state` rules
`em_face_up_1`, `em_face_up_2`, `loss_of_zoc` and `em_retired` (modules/tunisia-1943/pack.toml),
worked by hand from the seed's words (../shared/seeds/001_9467744547cf47c5.txt) on the example
board, with the pack's counters; the states come from the counters' layers, as units.toml reads them
(``Flipped`` -> `em-flipped`, ``LossOfZoC`` -> `loss-of-zoc`).
"""

from __future__ import annotations

from tunisia_board import LOSS_OF_ZOC, errors, run, state, unit

FLIPPED = {"Flipped_Active": "true"}
EM_10 = unit("EM 3-8 (10.Pz)", "Axis")
EM_10_FLIPPED = unit("EM 3-8 (10.Pz)", "Axis", **FLIPPED)
EM_34_FLIPPED = unit("EM 2-5 (34 ID)", "Allied", **FLIPPED)
EM_34 = unit("EM 2-5 (34 ID)", "Allied")
PZGR_69 = unit("5-5-8-8 PzGr 69 (10.Pz)", "Axis")
PZGR_86 = unit("5-5-8-8 PzGr 86 (10.Pz)", "Axis")
PZGR_69_NO_ZOC = unit("5-5-8-8 PzGr 69 (10.Pz)", "Axis", **LOSS_OF_ZOC)
INF_133 = unit("4-5-5-7 133 Inf (34 ID)", "Allied")
INF_135 = unit("4-5-5-7 135 Inf (34 ID)", "Allied")
INF_168 = unit("4-5-5-7 168 Inf (34 ID)", "Allied")
INF_133_NO_ZOC = unit("4-5-5-7 133 Inf (34 ID)", "Allied", **LOSS_OF_ZOC)


def test_layers_give_the_flags() -> None:
    """units.toml: the Flipped layer is `em-flipped`, the Loss of ZoC layer `loss-of-zoc` (and `no-zoc`, 3)."""
    assert "em-flipped" in EM_10_FLIPPED.flags and "em-flipped" not in EM_10.flags
    assert {"loss-of-zoc", "no-zoc"} <= INF_133_NO_ZOC.flags


# -- 0.1: "At the end of the turn, all the counters of EM are flipped, face up" ------------------------


def test_0_1_an_em_still_flipped_in_the_first_phase_of_a_turn_campaign_i() -> None:
    """0.1 "At the end of the turn, all the counters of EM are flipped, face up, in order to indicate that
    they are once again fully operational"; 1: "Once that the phases of the two players are ended ... one
    reverses the EM markers of the two players, face up". Campaign I opens each turn with the Axis sustain
    phase (1: "The attacker is the Axis player (Campaign 1)"): on turn 3, in axis-sustain, the Allied EM of
    the 34th ID in 1210 is still on its back (it used its artillery in defence on turn 2): an error. The
    Axis EM of the 10. Panzer, face up, is legal."""
    st = state({EM_34_FLIPPED: "1210", INF_133: "1210", EM_10: "1706", PZGR_69: "1706"}, 3, "axis-sustain")
    found = [f for f in run("em_face_up_1", st, "campaign-1") if f.severity == "error"]
    assert [f.message for f in found] == [
        "Allied EM 2-5 (34 ID) in 1210 carries em-flipped in phase axis-sustain: "
        "it is reset at the start of the turn [0.1]"
    ]
    assert found[0].units == (EM_34_FLIPPED.id,) and found[0].rule == "tunisia-1943:0.1"


def test_0_1_an_em_flipped_later_in_the_turn_is_legal() -> None:
    """6.2 "An EM who has no artillery left is flipped, face down, up to the end of the turn"; 4.2 an EM
    displaced by a combat unit "is flipped, Face down". The same flipped Allied EM in the Axis combat phase
    (artillery used in defence) and in the Allied movement phase of turn 3 is legal."""
    for phase in ("axis-combat", "allied-movement", "allied-supply"):
        st = state({EM_34_FLIPPED: "1210", INF_133: "1210"}, 3, phase)
        assert errors(run("em_face_up_1", st, "campaign-1")) == [], phase


def test_0_1_campaign_ii_turns_start_with_the_allied_phase() -> None:
    """Campaign II: "The Allied player is the attacker", so a turn starts with allied-sustain: a flipped EM
    there is an error, while in axis-sustain (after the Allied phase, where an Axis EM may have fired in
    defence) it is legal. Campaign I's rule is not in force in Campaign II."""
    st = state({EM_10_FLIPPED: "1706", PZGR_69: "1706"}, 4, "allied-sustain")
    assert len(errors(run("em_face_up_2", st, "campaign-2"))) == 1
    st = state({EM_10_FLIPPED: "1706", PZGR_69: "1706"}, 4, "axis-sustain")
    assert errors(run("em_face_up_2", st, "campaign-2")) == []
    assert errors(run("em_face_up_1", st, "campaign-2")) == []


def test_0_1_without_a_phase_a_flipped_em_is_not_judged() -> None:
    """A state that shows no phase cannot tell when the turn began: said, never guessed."""
    st = state({EM_34_FLIPPED: "1210", INF_133: "1210"})
    (found,) = run("em_face_up_1", st, "campaign-1")
    assert found.severity == "info" and "not judged" in found.message


# -- 7.4: "the units in defense lose their ZoC for the exploitation phase that follows" ----------------


def test_7_4_loss_of_zoc_stands_from_the_combat_to_the_end_of_the_exploitation_phase() -> None:
    """7.4 "*: this symbol indicates that the units in defense lose their ZoC for the exploitation phase
    that follows. Placing a Loss of ZoC marker on the units." The Axis attacks 133 Inf (34 ID) in 1210 in
    the Axis combat phase, result "*": the marker is placed then and stays through axis-exploitation."""
    for phase in ("axis-combat", "axis-exploitation"):
        st = state({INF_133_NO_ZOC: "1210", PZGR_69: "1310"}, 2, phase)
        assert errors(run("loss_of_zoc", st)) == [], phase


def test_7_4_loss_of_zoc_left_after_the_exploitation_phase() -> None:
    """ "for the exploitation phase that follows": in the Axis supply check after it, and in the Allied
    phase, the marker must be gone (an Allied unit regains its ZoC)."""
    for phase in ("axis-supply", "allied-movement"):
        st = state({INF_133_NO_ZOC: "1210", PZGR_69: "1310"}, 2, phase)
        assert errors(run("loss_of_zoc", st)) == [
            "Allied 4-5-5-7 133 Inf (34 ID) in 1210 carries loss-of-zoc in phase "
            f"{phase}: it stands only from phase axis-combat to the end of phase axis-exploitation [7.4]"
        ], phase


def test_7_4_the_attacker_never_loses_its_zoc() -> None:
    """7.4: only "the units in defense" lose their ZoC: an Axis unit with the marker in the Axis exploitation
    phase is an error (the Axis is the attacker in its own phase); in the Allied one, legal."""
    st = state({PZGR_69_NO_ZOC: "1310"}, 2, "axis-exploitation")
    (error,) = errors(run("loss_of_zoc", st))
    assert "from phase allied-combat to the end of phase allied-exploitation" in error
    assert errors(run("loss_of_zoc", state({PZGR_69_NO_ZOC: "1310"}, 2, "allied-exploitation"))) == []


# -- 6.3: "an EM is retired as soon as all the combat units under his command are destroyed" ------------


def test_6_3_an_em_with_its_division_on_the_map_stays() -> None:
    """The 34th ID's EM in 1210 with 133 Inf beside it in 1310 (its other regiments destroyed): legal."""
    st = state({EM_34: "1210", INF_133: "1310", INF_135: "Eliminated", INF_168: "Eliminated"}, 4, "allied-movement")
    assert errors(run("em_retired", st)) == []


def test_6_3_an_em_whose_combat_units_are_all_destroyed_is_retired() -> None:
    """6.3 "Similarly, an EM is retired as soon as all the combat units under his command are destroyed":
    133, 135 and 168 Inf all in the Eliminated box and the EM still in 1210: an error. An Axis unit
    beside it is no unit of its command."""
    st = state(
        {EM_34: "1210", INF_133: "Eliminated", INF_135: "Eliminated", INF_168: "Eliminated", PZGR_69: "1310"},
        4,
        "allied-movement",
    )
    found = [f for f in run("em_retired", st) if f.severity == "error"]
    assert [f.message for f in found] == [
        "Allied EM 2-5 (34 ID) in 1210 stays on the map with no combat unit of its formation "
        "(US 34th Infantry Division) on the map or in a turn box [6.3]"
    ]
    assert found[0].rule == "tunisia-1943:6.3" and found[0].hexes == ("1210",)


def test_6_3_a_regiment_still_to_arrive_keeps_its_em() -> None:
    """A regiment waiting in the turn box "Turn 5" (a reinforcement, 11) is under the EM's command, not
    destroyed: the EM stays. Another EM is no combat unit (0.1: "the EM is not regarded as a combat unit")."""
    st = state({EM_34: "1210", INF_133: "Turn 5", EM_10: "1706", PZGR_69: "Eliminated"}, 3, "axis-movement")
    found = errors(run("em_retired", st))
    assert len(found) == 1 and found[0].startswith("Axis EM 3-8 (10.Pz) in 1706")
    st = state({EM_10: "1706", PZGR_86: "1706", PZGR_69: "Eliminated"}, 3, "axis-movement")
    assert errors(run("em_retired", st)) == []
