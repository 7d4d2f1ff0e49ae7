"""Kesselring's War (seed 004): air range and basing (20.1, 20.2.2, 20.3, 24.4) by the mechanism
``air.range`` (vassal_adj/rules/mechanisms/air_range.py), worked from the seed's words on the example
board, and the mechanism with a second parameter set not shaped like Kesselring's War.

Distances by hand on the example board (odd columns half a hex lower): Foggia 3321 to 2127 is 12
hexes (six columns west, then six rows along the column) and to Reggio 2028 13; 3008 is 7 hexes
south of the north edge hex 3001, so 8 from the Axis Staging Area (assumption air_bases_axis:
offset 1), 3009 one more; 1728 is 6 hexes north of 1734 on the south edge, 7 from the Allied
Staging Area (assumption air_bases_allied), Messina-side 2026 is 9.
"""

import dataclasses

from kw_board import LAYOUT, PACK, TERRAIN, errors, run, state, unit

from vassal_adj.rules.engine import RuleContext
from vassal_adj.rules.mechanisms.air_range import air_range
from vassal_adj.rules.registry import REGISTRY


def u(name):
    return unit(name, "")


KG26 = u("Kg 26 [GE saf] 4-2 r12 *")  # range 12, as 20.3's example
JG53 = u("Jg 53 [GE tac] 3-3 r8 *")
DAF = u("I/DAF [UK tac] 3-3 r8 *")
CVE = u("CVE [UK cve] 2-2 rU GT3")
AX_GARRISON = u("Garrison 3 [AX garrison] 0-2 *")
AL_GARRISON = u("Garrison A1 [AL garrison] 0-2 *")
US3 = u("3 [US infantry XX] 6-5-4 *")
US9 = u("9 [US infantry XX] 6-5-4 *")
PZ16 = u("16 Pz [GE armor XX] 7-5-5 *")


def axis(where, turn=3):
    return errors(run("air_range_axis", state(where, turn, "action"), "scenario-1"))


def allied(where, turn=3):
    return errors(run("air_range_allied", state(where, turn, "action"), "scenario-1"))


def test_20_3_range_in_hexes_from_a_functional_airfield():
    # 20.3 "Units with a numerical range factor can fly that number of hexes from a Staging Area or
    # airfield to a target hex"; "An Allied TAC unit with a range of 12 could fly up to twelve hexes
    # away from a base on the Foggia airfield hex (hex 3321)". Kg 26 (range 12) from Foggia, held
    # by an Axis Garrison: 2127 is 12 hexes away, Reggio 2028 13.
    assert axis({AX_GARRISON: "3321", KG26: "2127", US3: "2127"}) == []
    (msg,) = axis({AX_GARRISON: "3321", KG26: "2028", US3: "2028"})
    assert "Kg 26" in msg
    assert "13 hexes from its nearest base, Foggia 3321" in msg and "beyond its range of 12 [20.3]" in msg


def test_20_2_2_an_airfield_without_a_garrison_is_no_base():
    # 12.1 "A port or airfield is only considered to be functional if it contains a Garrison";
    # 20.2.2 "Air units may conduct missions from friendly functional airfields". Foggia empty:
    # 2127 lies 12 hexes from it but 27 from the Axis Staging Area.
    (msg,) = axis({KG26: "2127", US3: "2127"})
    assert "beyond its range of 12" in msg and "Axis Staging Area" in msg
    # An Allied Garrison in Foggia makes it no Axis base either.
    (msg,) = axis({AL_GARRISON: "3321", KG26: "2127", US3: "2127"})
    assert "beyond its range of 12" in msg


def test_20_2_2_an_air_unit_on_the_map_is_based_at_a_functional_airfield_or_on_a_mission():
    # 20.2.2 "The following number of air units may be based at a single airfield" (a functional
    # one); 20.4 "Air units may be placed in enemy occupied hexes for attacks against them".
    assert axis({AX_GARRISON: "3321", JG53: "3321"}) == []
    (msg,) = axis({JG53: "3321"})
    assert "Jg 53" in msg and "neither at a base of its side nor on a mission" in msg and "[20.2.2]" in msg
    (msg,) = axis({JG53: "3008"})  # an empty hex: no base, nothing to attack
    assert "[20.2.2]" in msg
    # Over a hex of friendly units only it attacks nothing (CAS goes on the defending hex, 21.1.1).
    (msg,) = axis({JG53: "3008", PZ16: "3008"})
    assert "neither at a base" in msg


def test_20_3_range_from_the_staging_area_off_the_north_edge():
    # 20.2.1 "Air units may conduct missions from their respective Staging Area against targets
    # within their range limits"; measured from the north edge (assumption air_bases_axis): Jg 53
    # (range 8) reaches 3008, eight hexes from the Staging Area, not 3009.
    assert axis({JG53: "3008", US3: "3008"}) == []
    (msg,) = axis({JG53: "3009", US3: "3009"})
    assert "9 hexes from its nearest base, Axis Staging Area off" in msg and "beyond its range of 8" in msg


def test_20_3_allied_range_from_their_staging_area():
    # The Allied Staging Area's edge is an invented reading (assumption air_bases_allied): the south
    # edge. I/DAF (range 8) reaches 1728 (7), not 2026 (9) unless an Allied airfield is near:
    # Catania 1929 holding an Allied Garrison is 4 hexes from 2026.
    assert allied({DAF: "1728", PZ16: "1728"}) == []
    (msg,) = allied({DAF: "2026", PZ16: "2026"})
    assert "beyond its range of 8 [20.3]" in msg
    assert allied({DAF: "2026", PZ16: "2026", AL_GARRISON: "1929"}) == []


def test_24_4_the_cve_flies_only_over_coastal_hexes_with_unlimited_range():
    # 24.4 "The British CVE unit functions as a TAC unit but may only fly missions over coastal
    # hexes. It otherwise has unlimited range." 2424 is a land hex next to the sea, 11 hexes from
    # the Allied Staging Area: in range all the same. 1727 in Sicily touches no sea hex.
    assert allied({CVE: "2424", PZ16: "2424"}) == []
    (msg,) = allied({CVE: "1727", PZ16: "1727"})
    assert "CVE" in msg and "flies a mission over a hex that is not" in msg and "next to terrain:sea [24.4]" in msg
    # 20.3 'U': other units with an unlimited range are not measured either.
    assert len(allied({DAF: "2424", PZ16: "2424"})) == 1


def test_air_units_off_the_map_are_not_judged_here():
    # 26.2 "An unlimited number of units may be placed in a Staging Area"; the enemy's box is
    # [rules.staging_areas] (20.1 "never ... against the enemy Staging Area", 26.1).
    assert axis({JG53: "Axis Staging Area", KG26: "Axis TRT 4"}) == [] and allied({DAF: "Allied Staging Area"}) == []


# -- a second parameter set, not shaped like Kesselring's War ------------------------------------
# A game whose air units fly from fixed named airbases (no Garrison needed, no Staging Area edge),
# attack only ground units (an enemy air unit alone is no target) and never fly beyond two islands.
OTHER = {
    "side": "Allied",
    "units": {"kinds": ["air"]},
    "bases": [{"places": ["Palermo", "Cagliari"], "name": "airbase"}],
    "range": "attr:reach",
    "targets": {"flags": ["ground"]},
    "over": [{"units": {"kinds": ["air"]}, "hexes": ["Sicily + Sardinia"], "rule_ref": "X.2"}],
    "basing_rule": "X.1",
}


def other(where):
    p = {k: v.default for k, v in REGISTRY.lookup("air.range").params.items() if not v.required}
    rule = dataclasses.replace(PACK.rule("air_range_allied"), rule_ref="X.3")
    ctx = RuleContext(TERRAIN, LAYOUT, "other", rule=rule)
    return [f.message for f in air_range(state(where, 3, "action"), ctx, {**p, **OTHER}) if f.severity == "error"]


def test_a_second_parameter_set_fixed_bases_ground_targets_and_an_area():
    # Palermo 1326 to 1728: 4 hexes; range 8. A base needs no Garrison here.
    assert other({DAF: "1728", PZ16: "1728"}) == []
    assert other({DAF: "1326"}) == []  # based at a named airbase
    (msg,) = other({DAF: "1728", JG53: "1728"})  # an enemy air unit alone is no target
    assert "neither at a base" in msg and "[X.1]" in msg
    found = other({DAF: "2424", PZ16: "2424"})  # the mainland: outside the area, and out of range
    assert any("[X.2]" in m for m in found) and any("beyond its range of 8 [X.3]" in m for m in found)
