"""Kesselring's War (seed 004) 12.2-12.4 and 26.2: supply by lines of communication, the pack's
`loc_allied` and `loc_axis` (supply.loc) on the example board (tests/kw_board.py), worked from the
seed's own words and its example of 12.2."""

from kw_board import run, state, unit


def u(name):
    return unit(name, "")


ARMD_4 = u("4 Armd [UK armor X] 3-2-6 *")  # MF 6
GARRISON_A1 = u("Garrison A1 [AL garrison] 0-2 *")
GARRISON_1 = u("Garrison 1 [AX garrison] 0-2 *")
PZ_16 = u("16 Pz [GE armor XX] 7-5-5 *")


def _about(found, who):
    """The finding on `who`'s own supply (not the side's summary)."""
    (f,) = [
        f for f in found if f.units[:1] == (who.id,) and (" is in supply" in f.message or " is out of" in f.message)
    ]
    return f


def test_12_2_the_seed_s_example_anzio_to_the_garrison_in_gaeta():
    # 12.2 "Example: An Allied unit with an MF of 6 in Anzio (hex 2913) can trace a LOC through
    # connected roads back to an Allied garrison in Gaeta (hex 2916)."
    f = _about(run("loc_allied", state({ARMD_4: "2913", GARRISON_A1: "2916"})), ARMD_4)
    assert f.severity == "info" and "in supply" in f.message and "2916" in f.message


def test_12_4_an_allied_port_is_a_source_only_with_a_garrison_in_it():
    # 12.4 "Allies: A Garrison unit in any port hex"; 12.1 "A port or airfield is only considered to
    # be functional if it contains a Garrison": without the Garrison in Gaeta, no source is in reach.
    f = _about(run("loc_allied", state({ARMD_4: "2913"})), ARMD_4)
    assert f.severity == "warning" and "out of supply" in f.message


def test_12_3_the_enemy_blocks_the_line():
    # 12.3 "An LOC cannot enter hexes containing enemy units or EZOC": the 16. Panzer in 2915, on
    # the Anzio-Gaeta road between the two, cuts the 4th Armoured Brigade off from Gaeta.
    f = _about(run("loc_allied", state({ARMD_4: "2913", GARRISON_A1: "2916", PZ_16: "2915"})), ARMD_4)
    assert f.severity == "warning" and "out of supply" in f.message


def test_26_2_units_in_a_staging_area_are_always_in_supply():
    # 26.2 "Units in Staging Areas are always In Supply (12.5)"; 12.4 "The Allied Staging Area is not
    # an LOC source. However, units in the Staging Area are always in supply."
    found = run("loc_allied", state({ARMD_4: "Allied Staging Area"}))
    assert [f for f in found if f.severity == "warning"] == []


def test_12_4_an_axis_garrison_in_roma_supplies_the_panzer_division_next_to_it():
    # 12.4 Axis: "A Garrison unit in any airfield or supply source hex (Roma, San Benedetto)".
    f = _about(run("loc_axis", state({PZ_16: "3111", GARRISON_1: "3112"})), PZ_16)
    assert f.severity == "info" and "in supply" in f.message and "3112" in f.message


def test_12_3_a_garrison_away_from_any_source_is_not_out_of_supply():
    # 12.3 "A unit in the same hex as a Garrison is always In Supply" (the Garrison too: assumption
    # loc_readings): an Axis Garrison in Napoli (2917), a port, neither airfield nor supply source,
    # gets no finding, while the panzer division beside it with no source in reach is out of supply.
    found = run("loc_axis", state({GARRISON_1: "2917", PZ_16: "1929"}))
    assert not [f for f in found if f.units[:1] == (GARRISON_1.id,)]
    assert _about(found, PZ_16).severity == "warning"
