"""Tunisia 1943 9 (supply) and 6.3 (the units of a destroyed EM), through the pack's rules
`supply_axis` and `supply_allied` (modules/tunisia-1943/pack.toml, `supply.hq_chain`), worked by
hand from the seed's words (../shared/seeds/001_9467744547cf47c5.txt) on the example board
(terrain.csv), with the pack's counters.

The hexes used: the north-west corner 0101 has two neighbours on the board, 0102 and 0201; an
Axis regiment in 0202 controls both (0202's neighbours: 0102 0103 0201 0203 0302 0303), but not
0301. 2211-2213 and the ground round 0505 and 1015 are clear. Sources (terrain.csv places):
Tebessa 0214 and the west-edge main-road hexes 0104 0113; the south edge, row 20; Tunis 2605 and
Bizerte 2302.
"""

from __future__ import annotations

import dataclasses

from tunisia_board import LAYOUT, OUT_OF_SUPPLY, PACK, TERRAIN, controlled, run, state, unit

from vassal_adj.rules.engine import RuleContext, adjudicate
from vassal_adj.rules.results import Finding, Severity

PZGR_69 = unit("5-5-8-8 PzGr 69 (10.Pz)", "Axis")
EM_10 = unit("EM 3-8 (10.Pz)", "Axis")
EM_21 = unit("EM 3-8 (21.Pz)", "Axis")
TIGER = unit("8-7-7-* sPzAbt 501/1", "Axis")
INF_133 = unit("4-5-5-7 133 Inf (34 ID)", "Allied")
INF_135 = unit("4-5-5-7 135 Inf (34 ID)", "Allied")
EM_34 = unit("EM 2-5 (34 ID)", "Allied")
EM_1 = unit("EM 2-5 (1 ID)", "Allied")
EM_7 = unit("EM 3-8 (7 Armd)", "Allied")
L_FORCE = unit("2-3-5-7 L Force RMT", "Allied")
CFA = unit("2-3-5-6 CFA", "Allied")
RANGER = unit("2-2-8-8 1 Ranger", "Allied")


def about(found: list[Finding], who: object) -> list[Finding]:
    """The findings of a unit (its first unit id), the summary left out."""
    return [f for f in found if f.units and f.units[0] == who.id and f.hexes]  # type: ignore[attr-defined]


def supply(found: list[Finding], who: object) -> Finding:
    """The one supply finding of a unit (not its marker's)."""
    (f,) = [f for f in about(found, who) if "marker" not in f.message]
    return f


def allied(where: dict, **kw: object) -> list[Finding]:
    return run("supply_allied", state(where, phase="allied-supply", **kw))  # type: ignore[arg-type]


def axis(where: dict) -> list[Finding]:
    return run("supply_axis", state(where, phase="axis-supply"))


def test_9_1_a_combat_unit_in_supply_through_its_own_em() -> None:
    """9.1: "a combat unit could trace a line of supply to his EM, who himself be in supply"; 9.1b 2.:
    "The Italio-Germans EM could trace a line of supply to the harbors of Tunis or of Bizerte". PzGr 69
    in 2213, its EM (10. Panzer) in 2211, no enemy: 2213 2212 2211 is the one path of 2 hexes (2211 is
    not next to 2213, and 2212 is the only hex next to both); the EM traces to Tunis (2605), nearer
    than Bizerte."""
    found = axis({PZGR_69: "2213", EM_10: "2211"})
    f = supply(found, PZGR_69)
    assert f.severity == Severity.INFO and f.units == (PZGR_69.id, EM_10.id)
    assert "to its HQ EM 3-8 (10.Pz) in 2211: 2213 2212 2211 (2 hexes)" in f.message
    assert "the HQ to the source 2605" in f.message
    assert supply(found, EM_10).message.count("2605") == 2  # "to the source 2605: 2211 ... 2605"
    assert found[0].message.startswith("2 of 2 Axis units on the map are in supply")


def test_9_1a_enemy_combat_unit_and_em_block_the_line() -> None:
    """9.1a: "a route of hex free of all enemy combat unit, EM or ZoC". The US 133rd in the corner 0101,
    its EM in 0505: an Axis regiment in 0102 and an Axis EM in 0201 fill the corner's only two
    neighbours, so no route leaves 0101. The finding names both hexes and what is in them."""
    found = allied({INF_133: "0101", EM_34: "0505", PZGR_69: "0102", EM_10: "0201"})
    f = supply(found, INF_133)
    assert f.severity == Severity.WARNING and f.units == (INF_133.id, EM_34.id)
    assert "is out of supply (its HQ EM 2-5 (34 ID) in 0505): no unobstructed path reaches its HQ" in f.message
    assert "0102 (enemy Axis 5-5-8-8 PzGr 69 (10.Pz))" in f.message
    assert "0201 (enemy Axis EM 3-8 (10.Pz))" in f.message
    assert f.hexes == ("0101", "0102", "0201")


def test_9_1a_enemy_ems_block_though_they_have_no_zone_of_control() -> None:
    """9.1a names the EM apart ("enemy combat unit, EM or ZoC"): an EM exerts no zone (3: "Each combat
    unit does exercise a zone of control"; 0.1: the EM is no combat unit), yet its hex is closed. Two
    Axis EMs in 0102 and 0201 cut the 133rd in 0101 off."""
    assert not controlled(state({EM_10: "0102", EM_21: "0201"}), "0201", "Allied")
    f = supply(allied({INF_133: "0101", EM_34: "0505", EM_10: "0102", EM_21: "0201"}), INF_133)
    assert "is out of supply" in f.message and "0102 (enemy Axis EM 3-8 (10.Pz))" in f.message


def test_9_1a_enemy_zone_of_control_blocks_the_line() -> None:
    """9.1a: free of "ZoC". An Axis regiment in 0202 controls 0102 and 0201, the corner's two
    neighbours: the 133rd in 0101 (in that zone itself: a line starts where the unit is) is out of
    supply, and the finding says whose zone closes each hex."""
    f = supply(allied({INF_133: "0101", EM_34: "0505", PZGR_69: "0202"}), INF_133)
    assert "is out of supply" in f.message
    assert "0102 (enemy zone of control of Axis 5-5-8-8 PzGr 69 (10.Pz))" in f.message
    assert "0201 (enemy zone of control of Axis 5-5-8-8 PzGr 69 (10.Pz))" in f.message


def test_9_1a_a_friendly_unit_nullifies_the_zone_for_supply_only() -> None:
    """9.1a: "A friendly unit in a hex nullifies a hostile ZoC exercised on this hex, for this rule
    only." With the US 135th in 0201, the line runs 0101 0201 0301 (0301 is outside the zone of
    0202) on to the EM; 0201 is still controlled for movement (3)."""
    st = {INF_133: "0101", INF_135: "0201", EM_34: "0505", PZGR_69: "0202"}
    found = allied(st)
    f = supply(found, INF_133)
    assert f.severity == Severity.INFO and ": 0101 0201 0301 " in f.message
    assert "in supply" in supply(found, INF_135).message
    assert controlled(state(st), "0201", "Allied")


def test_9_1b_an_em_traces_to_the_sources_of_its_army() -> None:
    """9.1b 1.: "American army, French army (except L Force), 1st British army: Tebessa, a main road hex
    on the west edge. VIIIth British army (including French L force): south edge." From 1015, with no
    enemy: the US 34th's EM and the French CFA (no EM: "like an EM") trace to Tebessa 0214, 8 hexes (the
    fewest: 1015 is eight columns from 0214, a step crosses at most one); the VIII Army's 7th Armoured
    EM and L Force trace to the south edge, 5 hexes (a step gains at most one row: 15 to 20)."""
    found = allied({EM_34: "1015", EM_7: "1015", L_FORCE: "1015", CFA: "1015"})
    for who in (EM_34, CFA):
        m = supply(found, who).message
        assert "to the source 0214: 1015 " in m and "(8 hexes)" in m, m
    for who in (EM_7, L_FORCE):
        m = supply(found, who).message
        src = m.split("to the source ")[1][:4]
        assert src.endswith("20") and "(5 hexes)" in m, m


def test_9_1b_all_units_of_an_out_of_supply_em_are_out_of_supply() -> None:
    """9.1b: "All the units of an out of supply EM are considered to be out of supply." The 34th's EM
    and its 133rd are both in the corner 0101, closed by the zone of the regiment in 0202: the EM is
    out, and so the 133rd, though it is with its EM."""
    found = allied({INF_133: "0101", EM_34: "0101", PZGR_69: "0202"})
    assert "no unobstructed path reaches a supply source of US" in supply(found, EM_34).message
    f = supply(found, INF_133)
    assert f.severity == Severity.WARNING and "its HQ is out of supply: no unobstructed path" in f.message


def test_6_3_the_units_of_a_destroyed_em_are_out_of_supply_until_it_returns() -> None:
    """6.3: "The units of a destroyed EM are automatically and immediately not in supply (see rule 9),
    until the return of the EM. As soon as the EM is replaced on map, all the units of the division are
    again in supply - provided that they could trace a line of supply." The 133rd in 0505, by the west
    edge, with the 34th's EM on the turn track (box Turn 3): out, citing 6.3, though another
    division's EM (the US 1st) stands next to it in 0404: a unit traces to its own EM. With the EM back
    in 0405: in supply."""
    f = supply(allied({INF_133: "0505", EM_34: "Turn 3", EM_1: "0404"}), INF_133)
    assert f.severity == Severity.WARNING and f.units == (INF_133.id, EM_34.id)
    assert f.message.endswith("is out of supply (its HQ EM 2-5 (34 ID)): it is not on the map but in Turn 3 [6.3]")
    back = supply(allied({INF_133: "0505", EM_34: "0405", EM_1: "0404"}), INF_133)
    assert back.severity == Severity.INFO and "to its HQ EM 2-5 (34 ID) in 0405: 0505 0405 (1 hex)" in back.message


def test_9_1b_units_without_an_em_trace_like_an_em() -> None:
    """9.1b: "The units who don't have an EM trace their line of supply like an EM." The Tiger (12: "not
    attached to a division") in 2213 with no Axis EM on the map traces to Tunis; the US 1st Ranger in
    0505 to the west-edge main road 0104, 4 hexes; the Ranger in the corner 0101, closed by the zone
    of the regiment in 0202, is out as an EM would be."""
    found = axis({TIGER: "2213"})
    assert "with no HQ, it traces like an HQ to the source 2605" in supply(found, TIGER).message
    found = allied({RANGER: "0505"})
    assert "to the source 0104: 0505 " in supply(found, RANGER).message and "(4 hexes)" in supply(found, RANGER).message
    f = supply(allied({RANGER: "0101", PZGR_69: "0202"}), RANGER)
    assert f.severity == Severity.WARNING and "no unobstructed path reaches a supply source of US" in f.message


def test_9_2_the_out_of_supply_marker_is_checked_against_the_line() -> None:
    """9.2: "One places an out of supply marker on the unit"; 9.3: "an out of supply unit loses this
    unfavorable status at the end of the phase of player if it could trace a line of supply". At the
    Allied supply check: the 133rd cut off in 0101 without the marker, and the 135th in supply (in 0505,
    its EM in 0405) with it, are both reported; the same units with the marker the other way round
    are not."""

    def markers(marked: set) -> list[str]:
        where = {INF_133: "0101", INF_135: "0505", EM_34: "0405", PZGR_69: "0202"}
        units = {(unit(u.name, "Allied", **OUT_OF_SUPPLY) if u in marked else u): x for u, x in where.items()}
        return [f.message for f in allied(units) if "marker" in f.message]

    wrong = markers({INF_135})
    assert len(wrong) == 2
    assert any("133 Inf (34 ID) in 0101 is out of supply but carries no out-of-supply marker" in m for m in wrong)
    assert any("135 Inf (34 ID) in 0505 carries the out-of-supply marker" in m and m.endswith("[9.2]") for m in wrong)
    assert markers({INF_133}) == []


def test_9_3_supply_is_checked_for_the_active_player_at_the_end_of_his_phase() -> None:
    """9.3: "The supply check for every unit makes at the end of the phase for each player, but solely
    for the units of player who has just acted. That is to say that a unit surrounded during the enemy
    phase gets a normal phase in order to break the encirclement before being deprived of supply." The
    US 133rd cut off in 0101 by the Axis regiment in 0202 (in supply through its EM in 2211): at the
    Axis supply phase only Axis units are judged and the 133rd is not reported; at the Allied supply
    phase it is, and no Axis unit; in a movement phase neither rule runs."""
    rp = dataclasses.replace(PACK, rules=(PACK.rule("supply_axis"), PACK.rule("supply_allied")))
    ctx = RuleContext(TERRAIN, LAYOUT, PACK.id)
    where = {INF_133: "0101", EM_34: "0505", PZGR_69: "0202", EM_10: "2211"}

    def report(phase: str) -> list[Finding]:
        return list(adjudicate(state(where, phase=phase), rp, ctx).findings)

    axis_phase = report("axis-supply")
    assert not about(axis_phase, INF_133)
    assert any("is not in force" in f.message and "supply_allied" in f.message for f in axis_phase)
    assert "in supply" in supply(axis_phase, PZGR_69).message
    allied_phase = report("allied-supply")
    assert "is out of supply" in supply(allied_phase, INF_133).message and not about(allied_phase, PZGR_69)
    moving = report("allied-movement")
    assert all("is not in force" in f.message for f in moving) and len(moving) == 2
