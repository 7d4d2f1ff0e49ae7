"""Tunisia 1943 7.5 and 7.6 (seed 001): retreats and advances after combat, judged in the combat
phase of a log by the pack's `retreat_and_advance` rule (combat.displacement), on the example board.

7.4: "Disorganized defense: ... all his units move back one hex"; "Submerged defense: ... all his
units must move back two hex". 7.5: "If a retreat after combat creates overstacking (more than two
units by hex), the units in retreat must continue their retreat ... until they reach a hex who could
accomodate them." 7.6: "The active player could advance his units who participated in the combat
into vacant hex (either by the retreat or the elimination of the adversary), but two units maximum
could advance in this way. ... The advances in question are limited to one hex, even though the
defender has retreated several hex." The log shows the moves, never the combat result.
"""

from __future__ import annotations

from tunisia_board import state, unit
from tunisia_log import by_severity, cited, logged

PZGR_69 = unit("5-5-8-8 PzGr 69 (10.Pz)", "Axis")
PZGR_86 = unit("5-5-8-8 PzGr 86 (10.Pz)", "Axis")
PZ_RGT_7 = unit("8-6-8-9 Pz.Rgt 7 (4-3) (10.Pz)", "Axis")
INF_133 = unit("4-5-5-7 133 Inf (34 ID)", "Allied")

# The Axis attack from 2113, 2012 and 2014 on the 133rd in 2013 (all adjacent to it).
AT = {PZGR_69: "2113", PZGR_86: "2012", PZ_RGT_7: "2014", INF_133: "2013"}


def _axis_combat() -> object:
    return state(AT, turn=2, phase="axis-combat")


def test_7_5_a_retreat_of_one_or_two_hexes_is_within_the_rule() -> None:
    # One hex (disorganized defense) or two (submerged defense): not an error; the log cannot tell
    # which result called for it, and says so.
    for to in ("1913", "1813"):
        found = logged("retreat_and_advance", _axis_combat(), [(INF_133.id, ("2013", to))])
        assert by_severity(found, "error") == [] and by_severity(found, "warning") == []
        (info,) = by_severity(found, "info")
        assert f"2013 -> {to} in the axis-combat phase" in info and "within the 2 allowed" in info


def test_7_5_a_longer_retreat_is_legal_only_if_it_could_not_stop_without_overstacking() -> None:
    # Three hexes: only 7.5's overstacking makes it legal, and the log shows no path: a warning, citing 7.5.
    found = logged("retreat_and_advance", _axis_combat(), [(INF_133.id, ("2013", "1713"))])
    (warning,) = by_severity(found, "warning")
    assert "a retreat after combat of 3 hexes, and it may retreat at most 2" in warning
    assert "legal only if it could not stop sooner without overstacking a hex" in warning
    assert cited(found, "warning") == ["tunisia-1943:7.5"] and by_severity(found, "error") == []


def test_7_6_two_units_advance_one_hex_into_the_vacated_hex() -> None:
    # The 133rd retreats two hexes; PzGr 69 and PzGr 86 advance into 2013: legal.
    plan = [(INF_133.id, ("2013", "1813")), (PZGR_69.id, ("2113", "2013")), (PZGR_86.id, ("2012", "2013"))]
    found = logged("retreat_and_advance", _axis_combat(), plan)
    assert by_severity(found, "error") == [] and len(by_severity(found, "info")) == 3


def test_7_6_a_third_unit_advancing_is_an_error() -> None:
    # "two units maximum could advance in this way".
    plan = [
        (INF_133.id, ("2013", "1913")),
        (PZGR_69.id, ("2113", "2013")),
        (PZGR_86.id, ("2012", "2013")),
        (PZ_RGT_7.id, ("2014", "2013")),
    ]
    found = logged("retreat_and_advance", _axis_combat(), plan)
    (error,) = by_severity(found, "error")
    assert error.startswith("3 units advanced after combat into 2013") and "at most 2 may [7.6]" in error
    assert cited(found, "error") == ["tunisia-1943:7.6"]


def test_7_6_an_advance_is_one_hex_into_the_hex_the_defender_left() -> None:
    # "limited to one hex, even though the defender has retreated several hex": two hexes is an error;
    # so is an advance into a hex the defender never held ("into vacant hex ... by the retreat").
    two = [(INF_133.id, ("2013", "1813")), (PZGR_69.id, ("2113", "1913"))]
    (error,) = by_severity(logged("retreat_and_advance", _axis_combat(), two), "error")
    assert "an advance after combat of 2 hexes, and it may advance at most 1 [7.6]" in error
    elsewhere = [(INF_133.id, ("2013", "1913")), (PZGR_69.id, ("2113", "2112"))]
    found = logged("retreat_and_advance", _axis_combat(), elsewhere)
    (error,) = by_severity(found, "error")
    assert "goes first into a hex the enemy held and left" in error and cited(found, "error") == ["tunisia-1943:7.6"]
