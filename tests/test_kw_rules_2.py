"""Kesselring's War (seed 004): Axis sudden death (3.1), reinforcements (7.1, 7.1.1), Staging Areas
(26.1), the mainland restriction and the Italian surrender (27.1), and the set-ups (27.1, 27.2),
worked from the seed's words on the example board."""

import dataclasses

from kw_board import LAYOUT, PACK, TERRAIN, errors, run, state, unit

from vassal_adj.model.state import Position
from vassal_adj.position import named_box
from vassal_adj.rules.engine import RuleContext, adjudicate
from vassal_adj.rules.scope_events import event_reader


def u(name):
    return unit(name, "")


US3 = u("3 [US infantry XX] 6-5-4 *")
PZ = u("16 Pz [GE armor XX] 7-5-5 *")
LIV = u("4 Liv [IT infantry XX] 3-4-4 *")


def messages(found):
    return " ".join(f.message for f in found)


def surrendered(st, turn):
    """`st` with the example module's 'Italian Surrender' marker in the Axis TRT box of `turn`
    (assumption surrender_marker)."""
    box = f"Axis TRT {turn}"
    return dataclasses.replace(
        st, markers={"Italian Surrender": (Position(box=box, named=named_box(box, PACK.boxes)),)}
    )


def run_with_events(rule, st, scenario):
    """The rule `rule` alone on `st`, reading events as a check does (the pack's
    reinforcements.schedule rules define them)."""
    rp = dataclasses.replace(PACK, rules=(PACK.rule(rule),))
    ctx = RuleContext(TERRAIN, LAYOUT, PACK.id, scenario=PACK.scenarios[scenario], events=event_reader(PACK.rules))
    return list(adjudicate(st, rp, ctx).findings)


def axis_sudden_death(found):
    (f,) = [f for f in found if "Axis Strategic Victory" in f.message]
    return f.message


def test_3_1_axis_sudden_death_scenario_1_no_allied_port_or_airfield_at_the_end_of_gt_2():
    # 3.1 "Scenario I: Allies control no ports or airfields on the map at the conclusion of Game Turn
    # (GT) 2." Allies all in their Staging Area at the end of GT 2: met. One Allied division in
    # Licata (1531, a port): not met. A Staging Area "counts as a port" (26.2) but is not on the map.
    staged = run("sudden_death_1", state({US3: "Allied Staging Area"}, 2, "end"), "scenario-1")
    assert ": met at the end of turn 2" in axis_sudden_death(staged)
    ashore = run("sudden_death_1", state({US3: "1531"}, 2, "end"), "scenario-1")
    assert "not met at the end of turn 2" in axis_sudden_death(ashore)


def test_3_1_axis_sudden_death_scenario_1_an_air_unit_controls_no_airfield():
    # 3.2: "Air, naval, and Special Support Units (SSU) cannot control Objectives"; control needs a
    # ground unit, so an Allied air unit alone at Gerbini (1829, an airfield) leaves the Axis' win.
    air = u("I/DAF [UK tac] 3-3 r8 *")
    found = run("sudden_death_1", state({air: "1829"}, 2, "end"), "scenario-1")
    assert ": met at the end of turn 2" in axis_sudden_death(found)


def test_3_1_axis_sudden_death_scenario_2_counts_axis_supply_hexes_at_the_end_of_gt_4():
    # 3.1 "Scenario II: Allies control no ports, airfields, or Axis supply hexes at the conclusion of
    # GT 4": judged at GT 4, not GT 2 as in Scenario I.
    at_2 = run("sudden_death_2", state({US3: "Allied Staging Area"}, 2, "end"), "scenario-2")
    assert "at the end of turn 2" not in axis_sudden_death(at_2)
    staged = run("sudden_death_2", state({US3: "Allied Staging Area"}, 4, "end"), "scenario-2")
    assert ": met at the end of turn 4" in axis_sudden_death(staged)
    in_port = run("sudden_death_2", state({US3: "2919"}, 4, "end"), "scenario-2")
    assert "not met at the end of turn 4" in axis_sudden_death(in_port)


def test_7_1_a_reinforcement_arrives_on_the_gt_printed_on_its_counter():
    # 7.1 "The German 4th Parachute Division becomes available on GT 6": in the Axis Staging Area on
    # GT 3 it arrived early; on GT 6 it is where a reinforcement may be (7.3).
    fj4 = u("4 FJ [GE airborne XX] 4-5-4 GT6")
    early = errors(run("axis_reinforcements", state({fj4: "Axis Staging Area"}, 3, "action"), "scenario-1"))
    assert early and "4 FJ" in early[0] and "Game-Turn 6" in early[0]
    assert errors(run("axis_reinforcements", state({fj4: "Axis Staging Area"}, 6, "action"), "scenario-1")) == []
    assert errors(run("axis_reinforcements", state({fj4: "Axis TRT 6"}, 3, "action"), "scenario-1")) == []


def test_7_1_1_r_units_once_allied_ground_units_are_on_or_north_of_the_cassino_row():
    # 7.1.1 "'R' ... only if one or more Allied ground units occupy any hexes in mainland Italy on or
    # north of the hex row which includes Monte Cassino (hexes 2915, 3016, 3116, ...)". An Allied
    # division in 3116 (on the row): HuD may be in play. Only in Napoli (2917, south of it): the save
    # cannot show whether one has been there, so it is not judged, never called legal.
    hud = u("HuD [GE infantry XX] 4-5-4 R")
    north = run("axis_reinforcements", state({hud: "Axis Staging Area", US3: "3116"}, 4, "action"), "scenario-1")
    assert errors(north) == [] and "HuD" not in messages(north)
    south = run("axis_reinforcements", state({hud: "Axis Staging Area", US3: "2917"}, 4, "action"), "scenario-1")
    assert errors(south) == [] and "cannot tell" in messages(south) and "HuD" in messages(south)


def test_26_1_no_unit_in_the_enemy_staging_area():
    # 26.1 "Axis units may never enter the Allied Staging Area, nor may Allied units enter the Axis
    # Staging Area", in both scenarios.
    for rule, scenario, turn in (("staging_areas", "scenario-1", 1), ("staging_areas_2", "scenario-2", 3)):
        bad = state({PZ: "Allied Staging Area", US3: "Axis Staging Area"}, turn, "action")
        found = errors(run(rule, bad, scenario))
        assert len(found) == 2 and all("[26.1]" in m for m in found)
        own = state({PZ: "Axis Staging Area", US3: "Allied Staging Area"}, turn, "action")
        assert errors(run(rule, own, scenario)) == []


def test_27_1_no_allied_ground_unit_in_mainland_italy_before_the_surrender():
    # 27.1 Mainland Invasion: "a) Prior to Italian Surrender, Allied ground units may not enter
    # mainland Italy"; "c) After Italian Surrender all Allied units can enter mainland Italy".
    before = dataclasses.replace(state({US3: "2917"}, 2, "action"), markers={"Italian Surrender": (Position(),)})
    found = errors(run("mainland_invasion", before, "scenario-1"))
    assert len(found) == 1 and "Mainland Italy" in found[0] and "[27.1]" in found[0]
    assert errors(run("mainland_invasion", surrendered(state({US3: "2917"}, 3, "action"), 2), "scenario-1")) == []
    assert errors(run("mainland_invasion", state({US3: "1531"}, 2, "action"), "scenario-1")) == []


def test_27_1_the_italian_surrender_withdraws_italian_mobile_units():
    # 27.1 Italian Surrender: "a) Withdraw all Italian mobile ground and air units" (garrisons stay:
    # assumption garrisons).
    gar = u("Garrison 1 [AX garrison] 0-2 *")
    after = surrendered(state({LIV: "1326", gar: "1929"}, 3, "action"), 2)
    found = errors(run_with_events("italian_surrender", after, "scenario-1"))
    assert len(found) == 1 and "4 Liv" in found[0] and "Garrison" not in found[0]
    gone = surrendered(state({LIV: "Axis Withdrawn", gar: "1929"}, 3, "action"), 2)
    assert errors(run_with_events("italian_surrender", gone, "scenario-1")) == []
    not_yet = dataclasses.replace(state({LIV: "1326"}, 2, "action"), markers={"Italian Surrender": (Position(),)})
    assert errors(run_with_events("italian_surrender", not_yet, "scenario-1")) == []


GERMANS = [
    u(n)
    for n in (
        "3 PzGr [GE panzergrenadier XX] 6-5-5 *",
        "15 PzGr [GE panzergrenadier XX] 6-5-5 *",
        "29 PzGr [GE panzergrenadier XX] 6-5-5 *",
        "90 PzGr [GE panzergrenadier XX] 6-5-5 *",
        "HG [GE armor XX] 7-5-5 *",
    )
]


def test_27_1_set_up_at_most_four_german_units_in_sicily_and_sardinia():
    # 27.1 "Important: A maximum of four units may start in Sicily and Sardinia, combined."
    five = run(
        "setup_1", state(dict(zip(GERMANS, ["1326", "1929", "1531", "1829", "1630"], strict=True))), "scenario-1"
    )
    assert any("Sicily + Sardinia: 5, but at most 4" in m for m in errors(five))
    four = run(
        "setup_1", state(dict(zip(GERMANS, ["1326", "1929", "1531", "1609", "2919"], strict=True))), "scenario-1"
    )
    assert not any("Sicily + Sardinia" in m for m in errors(four))


def test_27_1_set_up_sixteen_axis_garrisons_on_cities_ports_airfields():
    # 27.1 "a) Garrisons: Sixteen total, deployed on any cities, ports and/or airfields in mainland
    # Italy, Sicily and Sardinia. A garrison may also be placed in San Benedetto (hex 3714)."
    places = ["3112", "3714", "2917", "3321", "2913", "2916", "2919", "2028", "2027", "1326", "1929", "1931"]
    places += ["1531", "1127", "1609", "1502"]
    gars = [u(f"Garrison {i + 1} [AX garrison] 0-2 *") for i in range(16)]
    assert errors(run("setup_1", state(dict(zip(gars, places, strict=True))), "scenario-1")) == []
    off = dict(zip(gars, places[:15] + ["3113"], strict=True))
    assert any("at least 16" in m for m in errors(run("setup_1", state(off), "scenario-1")))


def test_27_2_set_up_on_gt_3_germans_in_mainland_italy_90th_in_the_staging_area():
    # 27.2 (the game begins on GT 3): the German divisions in mainland Italy, the 90th Panzergrenadier
    # Division in the Axis Staging Area.
    where = dict(zip(GERMANS, ["2917", "3321", "2919", "Axis Staging Area", "3112"], strict=True))
    found = errors(run("setup_2", state(where, 3), "scenario-2"))
    assert not any("is not set up" in m for m in found)
    where[GERMANS[0]], where[GERMANS[3]] = "1326", "3112"
    found = errors(run("setup_2", state(where, 3), "scenario-2"))
    assert any("3 PzGr" in m and "Mainland Italy" in m for m in found)
    assert any("90 PzGr" in m and "Axis Staging Area" in m for m in found)
