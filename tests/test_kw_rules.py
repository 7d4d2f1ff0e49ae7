"""Kesselring's War (seed 004): zones of control (11.1), movement (13.4, 13.5), withdrawals (9.1, 29.0)
and victory (3.1, 3.3), worked from the seed's words on the example board."""

from kw_board import controlled, errors, move, outcome, run, state, unit


def u(name):
    return unit(name, "")


PZ = u("16 Pz [GE armor XX] 7-5-5 *")
US3 = u("3 [US infantry XX] 6-5-4 *")
UK5 = u("5 [UK infantry XX] 5-5-4 *")


def test_11_1_a_garrison_exerts_a_zoc_an_air_unit_none():
    # 11.1 "All mobile and static ground units exert a ZOC"; "Air and naval units do not exert ZOCs."
    g = u("Garrison 1 [AX garrison] 0-2 *")
    assert controlled(state({g: "3112", US3: "3113"}), "3113", "Allied")
    air = u("Jg 53 [GE tac] 3-3 r8 *")
    assert not controlled(state({air: "3112", US3: "3113"}), "3113", "Allied")


def test_11_1_zoc_does_not_cross_the_strait_of_messina():
    # 11.1 "ZOCs extend across all hexsides with the exception of all-sea or strait hexsides."
    assert not controlled(state({PZ: "2028", UK5: "2027"}), "2027", "Allied")


def test_13_5_road_movement_half_an_mp_a_hex():
    # 13.5 "A mobile ground unit pays one half (0.5) MP per connected road hexes"; 12.2's road from
    # Anzio (2913) to Gaeta (2916).
    res = move("movement", state({US3: "2913"}, 4, "action"), US3, ["2913", "2914", "2915", "2916"])
    assert res.ok and res.cost == 1.5


def test_13_4_1_mechanized_units_enter_a_mountain_only_along_a_road():
    # 13.4.1 "mechanized units may not enter mountain or volcano hexes unless traveling along a road";
    # 12.3 "as in hex 3024".
    assert move("movement", state({PZ: "2924"}, 4, "action"), PZ, ["2924", "3024"]).ok
    assert not move("movement", state({PZ: "3124"}, 4, "action"), PZ, ["3124", "3024"]).ok


def test_13_4_3_the_strait_of_messina_costs_two_more_mp():
    # 13.4.3 "two additional MPs must be expended to cross the Strait of Messina (hexes 2027-2028)"
    res = move("movement", state({PZ: "2027"}, 4, "action"), PZ, ["2027", "2028"])
    assert res.ok and res.cost == 3


def test_29_a_unit_due_out_still_on_the_map_is_a_finding():
    # 9.1 "units to be withdrawn are removed and placed in that side's Withdrawn Units display";
    # 29.0 (as read): US GT3 2nd Armor Div.
    armd = u("2 Armd [US armor XX] 8-6-6 *")
    found = errors(run("withdrawals", state({armd: "2917"}, 3, "action")))
    assert found and any("2 Armd" in m for m in found)
    assert errors(run("withdrawals", state({armd: "Allied Withdrawn"}, 3, "action"))) == []


def test_3_1_allied_sudden_death_needs_every_objective():
    # 3.1 "Allies: Allied ground units (mobile or static) occupy all Objectives on the map."
    objectives = ["3112", "3714", "2917", "3321", "2027", "1326", "1929", "1609", "1303"]
    units = [u(f"Garrison A{i + 1} [AL garrison] 0-2 *") for i in range(len(objectives))]
    st = state(dict(zip(units, objectives, strict=True)), 5, "action")
    assert "Allied Strategic Victory" in " ".join(f.message for f in run("sudden_death_1", st, "scenario-1"))
    st2 = state(dict(zip(units[:-1], objectives[:-1], strict=True)), 5, "action")
    assert "Allied Strategic Victory" not in outcome(run("sudden_death_1", st2, "scenario-1"))


def test_3_3_roma_is_worth_eight_a_draw_is_three_or_less():
    # 3.3 "Roma: 8 VP"; "3 or less: Draw 4-7: Marginal Victory 8-11: Operational Victory".
    st = state({US3: "3112"}, 8, "end")
    assert "Allied Operational Victory" in " ".join(f.message for f in run("victory_points", st))
