"""Kesselring's War 10, 10.1 and 20.2.2 (seed 004): stacking pools, worked from the seed's words."""

from kw_board import errors, run, state, unit

PZ = "16 Pz [GE armor XX] 7-5-5 *"
PZ26 = "26 Pz [GE armor XX] 7-5-5 *"
PZGR = "3 PzGr [GE panzergrenadier XX] 6-5-5 *"
FLAK = "A/5 Flak [GE flak X] 2-3-3 *"
UK5, UK50, GDS = "5 [UK infantry XX] 5-5-4 *", "50 [UK infantry XX] 5-5-4 *", "Gds [UK infantry X] 2-2-4 *"
US3 = "3 [US infantry XX] 6-5-4 *"


def u(name):
    return unit(name, "")


def test_10_1_two_divisions_one_regiment_and_one_garrison_may_stack():
    # 10.1 "Example: Two divisions, one regiment and one garrison could stack in a hex."
    where = {u(UK5): "1326", u(UK50): "1326", u(GDS): "1326", u("Garrison A1 [AL garrison] 0-2 *"): "1326"}
    assert errors(run("stacking", state(where, 2, "action"))) == []


def test_10_1_a_fourth_mobile_ground_unit_overstacks():
    # "Three mobile ground units of any size, plus one Garrison unit, may stack in a hex."
    where = {u(PZ): "3112", u(PZ26): "3112", u(PZGR): "3112", u(FLAK): "3112"}
    found = errors(run("stacking", state(where, 2, "action")))
    assert len(found) == 1 and "3112" in found[0]


def test_10_1_a_second_garrison_overstacks():
    where = {u("Garrison 1 [AX garrison] 0-2 *"): "3112", u("Garrison 2 [AX garrison] 0-2 *"): "3112"}
    assert len(errors(run("stacking", state(where, 2, "action")))) == 1


def test_10_1_ssu_do_not_count_towards_stacking_limits():
    # "Special Support Units (SSU) do not count towards stacking limits (23.0)."
    ssu = [u("Kesselring [GE ssu] 1-1 *"), u("Hube [GE ssu] 1-1 *"), u("Lehr [GE ssu] 1-1 *")]
    where = {u(PZ): "3112", u(PZ26): "3112", u(PZGR): "3112", **{s: "3112" for s in ssu}}
    assert errors(run("stacking", state(where, 2, "action"))) == []


def test_10_units_of_different_contingents_may_stack_but_sides_count_apart():
    # 10 "Units of different friendly contingents may stack together. Example: A British brigade may
    # stack with a US division."
    where = {u(GDS): "2917", u(US3): "2917"}
    assert errors(run("stacking", state(where, 3, "action"))) == []


def test_10_no_stacking_limit_in_a_staging_area():
    # 10 "Stacking applies only to units on the map, not to those in Staging Areas"; 7.4 "There are
    # no stacking limits in a Staging Area".
    names = [PZ, PZ26, PZGR, FLAK, "1 FJ [GE airborne XX] 5-6-4 *"]
    where = {u(n): "Axis Staging Area" for n in names}
    assert errors(run("stacking", state(where, 2, "action"))) == []


def test_10_1_two_air_units_at_a_functional_airfield_a_third_overstacks():
    # "Two air units of any type may stack in a hex when ... based at a functional airfield (20.2.2)."
    g = u("Garrison 1 [AX garrison] 0-2 *")
    air = [u("Jg 53 [GE tac] 3-3 r8 *"), u("Kg 26 [GE saf] 4-2 r12 *"), u("Sg 4 [GE tac] 3-2 r6 *")]
    assert errors(run("stacking", state({g: "3321", air[0]: "3321", air[1]: "3321"}, 2, "action"))) == []
    assert len(errors(run("stacking", state({g: "3321", **{a: "3321" for a in air}}, 2, "action")))) == 1


def test_20_2_2_an_airfield_with_a_reduced_garrison_bases_one_air_unit():
    from kw_board import REDUCED

    g = unit("Garrison 1 [AX garrison] 0-2 *", "", **REDUCED)
    assert "reduced" in g.flags
    where = {g: "3321", u("Jg 53 [GE tac] 3-3 r8 *"): "3321", u("Kg 26 [GE saf] 4-2 r12 *"): "3321"}
    assert len(errors(run("stacking", state(where, 2, "action")))) == 1


def test_10_1_one_naval_gunfire_plus_one_amphibious_unit_a_hex():
    # "One Naval Gunfire unit per friendly attack or defense, plus one Amphibious unit, may stack in a hex."
    ngf, ngf2 = u("NGF 1 [UK naval-gunfire] 3-3 *"), u("NGF 2 [US naval-gunfire] 3-3 *")
    amph = u("Amphib 1 [UK amphibious] 0-0 *")
    assert errors(run("stacking", state({ngf: "2918", amph: "2918"}, 2, "action"))) == []
    assert len(errors(run("stacking", state({ngf: "2918", ngf2: "2918"}, 2, "action")))) == 1


def test_27_stacking_limits_apply_during_set_up():
    # 27.0 "Stacking limits apply during set up (10.0)."
    where = {u(PZ): "3112", u(PZ26): "3112", u(PZGR): "3112", u(FLAK): "3112"}
    assert len(errors(run("stacking", state(where)))) == 1
