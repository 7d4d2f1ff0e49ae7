"""Tunisia 1943 reinforcements (11: "the arrival date of some reinforcements"; no schedule printed),
through the pack's rules `*_reinforcements_1` and `*_reinforcements_2` (modules/tunisia-1943/pack.toml,
impl reinforcements.schedule with `turn_from = "box"`): a unit waiting in the turn-track box "Turn k"
arrives on Game-Turn k (assumption reinforcement_entry). Worked by hand from the seed's words
(../shared/seeds/001_9467744547cf47c5.txt): 1, "The attacker is the Axis player (Campaign 1) or the
allied player (Campaign II)" and plays first, so the same save means different things in each campaign.
"""

from __future__ import annotations

from tunisia_board import run, state, unit

INF_39 = unit("4-5-5-7 39 Inf (9 ID)", "Allied")
PZ_RGT_8 = unit("7-5-8-9 Pz.Rgt 8 (15.Pz)", "Axis")


def late(found) -> list[str]:
    return [f.message for f in found if "late or held back" in f.message]


def test_11_a_unit_in_the_box_of_a_later_turn_is_waiting() -> None:
    """The 15. Panzer's regiment in box "Turn 3" on Game-Turn 2 waits for its turn: nothing to say."""
    st = state({PZ_RGT_8: "Turn 3"}, 2, "axis-supply")
    assert run("axis_reinforcements_2", st, "campaign-2") == []


def test_1_and_11_late_after_the_side_s_movement_phase_of_its_turn() -> None:
    """The US 39th in box "Turn 2" during the Axis combat phase of Game-Turn 2. In Campaign II the Allies
    move first, so their movement phase of turn 2 is over: late or held back (INFO, the player may hold
    it). In Campaign I the Axis moves first and the Allied movement phase is still to come: nothing."""
    st = state({INF_39: "Turn 2"}, 2, "axis-combat")
    assert late(run("allied_reinforcements_2", st, "campaign-2")) == [
        "Allied 4-5-5-7 39 Inf (9 ID) still off the map after the allied-movement phase of Game-Turn 2: "
        "late or held back (it enters on Game-Turn 2) [11]"
    ]
    assert run("allied_reinforcements_1", st, "campaign-1") == []
