"""Transport modes of Kesselring's War (RULES-MAP N25, `transport.modes`), worked from the seed's words
(../shared/seeds/004_954644da5565c400.txt) on segments built by hand as verify makes them.

14.1: "By expending one AP, up to three mobile ground units may be moved in a single Naval Transfer.
Units are moved from one embarkation point to one debarkation point." 14.1.2: "Staging Area and all
friendly functional ports"; 7.3: "A functional port or airfield is one which has a friendly Garrison
unit of any strength". 14.1.3: "from a coastal hex or non-functional port to a friendly functional
port or Staging Area ... Naval Evacuation costs two AP." 18.2: "All invading units must start in
either the Allied Staging Area or one friendly functional Port hex"; "No more than one Amphib may be
used per Invasion Action. Each Amphib may land up to three ground units into a single hex"; "Ground
units participating in an Invasion must be from the same contingent"; 18.3 "expending two AP". 19.1:
"Airborne landings may be made into any type of terrain except Mountain/Volcano." 21.4: "The Allies can
transport only non-mechanized mobile units." 26.3: "Axis mobile ground units may move from their
Staging Area onto the north map edge"; "Allied ground units may not move onto the map by ground movement."
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from typing import Any

from kw_board import LAYOUT, PACK, TERRAIN
from test_kw_ledger import GARRISON_A, GE_3, US_3, US_45, Logged, segment, unit

from vassal_adj.model.state import Position
from vassal_adj.model.units import Unit
from vassal_adj.rules.engine import RuleContext
from vassal_adj.rules.mechanisms.transport_rules import transport_modes
from vassal_adj.rules.results import Finding
from vassal_adj.rules.segments import Segment
from vassal_adj.rules.turn import check_phase, turn_rules

US_9 = unit("9 [US infantry XX] 6-5-4 *", "Allied")
US_1 = unit("1 [US infantry XX] 6-5-4 *", "Allied")
UK_5 = unit("5 [UK infantry XX] 5-5-4 *", "Allied")
US_ARMD = unit("2 Armd [US armor XX] 8-6-6 *", "Allied")
US_82 = unit("82 Abn [US airborne XX] 4-4-4 *", "Allied")
GE_FJ = unit("1 FJ [GE airborne XX] 5-6-4 *", "Axis")
GE_15 = unit("15 PzGr [GE panzergrenadier XX] 6-5-5 *", "Axis")
AMPHIB = unit("Amphib 1 [UK amphibious] 0-0 *", "Allied")
AXIS_GARRISON = unit("Garrison 1 [AX garrison] 0-2 *", "Axis")
STAGING = "Allied Staging Area"


def trip(where: Mapping[Unit, str], moves: Mapping[Unit, Sequence[str]], before: int = 5, after: int = 4) -> Segment:
    side = next(iter(moves)).side
    track = "allied_ap" if side == "Allied" else "axis_ap"
    return segment(where, [Logged(1, track, before, after)], moves=moves)


def transport(seg: Segment, **params: Any) -> list[Finding]:
    rule = PACK.rule("transport")
    return transport_modes(seg, RuleContext(TERRAIN, LAYOUT, PACK.id, rule=rule), {**rule.params, **params})


def found(seg: Segment, **params: Any) -> list[tuple[str, str, str]]:
    return [(f.rule, f.severity, f.message) for f in transport(seg, **params)]


# Palermo (1326) is a functional Allied port: an Allied Garrison holds it.
PALERMO = {GARRISON_A: "1326"}


def test_14_1_up_to_three_mobile_units_from_the_staging_area_to_a_functional_port_for_one_ap() -> None:
    units = (US_3, US_45, US_9)
    seg = trip({**PALERMO, **{u: STAGING for u in units}}, {u: [STAGING, "1326"] for u in units})
    assert transport(seg) == []


def test_14_1_a_fourth_unit_is_too_many() -> None:
    units = (US_3, US_45, US_9, US_1)
    seg = trip({**PALERMO, **{u: STAGING for u in units}}, {u: [STAGING, "1326"] for u in units})
    assert [f.severity for f in transport(seg)] == ["error"]
    message = transport(seg)[0].message
    assert message.startswith("the naval-transfer [14.1]: 4 units (3 [US infantry XX] 6-5-4 *, 45 [US infantry XX]")
    assert "1 [US infantry XX] 6-5-4 *), at most 3; the invasion [18.2]" in message


def test_14_1_2_a_port_without_a_friendly_garrison_is_not_functional() -> None:
    """The Axis has no invasion: a transfer to Napoli (2917) without an Axis Garrison fits no mode."""
    seg = trip({GE_3: "Axis Staging Area"}, {GE_3: ["Axis Staging Area", "2917"]})
    (f,) = transport(seg)
    assert f.rule == "kesselrings-war:14.1.2"
    assert "Napoli (2917) holds no friendly garrison units" in f.message
    assert (
        transport(trip({GE_3: "Axis Staging Area", AXIS_GARRISON: "2917"}, {GE_3: ["Axis Staging Area", "2917"]})) == []
    )


def test_14_1_2_an_allied_landing_in_a_port_without_a_garrison_and_without_an_amphib() -> None:
    # 14.1.2 "Staging Area and all friendly functional ports"; 18.2 "No more than one Amphib may be used
    # per Invasion Action": with no Amphib moved it is no invasion, so the port's missing Garrison is
    # the fault cited; the message says both.
    (f,) = transport(trip({US_3: STAGING}, {US_3: [STAGING, "1326"]}))
    assert f.rule == "kesselrings-war:14.1.2"
    assert "1 destination(s) with 0 amphibious units moved, one each" in f.message
    assert (
        "as no carrier moved, not the invasion" in f.message
        and "Palermo (1326) holds no friendly garrison" in f.message
    )


def test_14_1_1_no_other_movement_in_a_naval_transfer_segment() -> None:
    seg = trip({**PALERMO, US_3: STAGING, US_45: "1929"}, {US_3: [STAGING, "1326"], US_45: ["1929", "1928"]})
    (f,) = transport(seg)
    assert "other movement in the same segment (45 [US infantry XX] 6-5-4 *)" in f.message


def test_14_2_2_no_axis_naval_transfer_while_the_naval_interdiction_marker_is_placed() -> None:
    """14.2.1 "Place the Naval Interdiction marker in the box on the Allied AP Track"; 14.2.2 "When
    Naval Interdiction goes into effect the Axis can no longer conduct Naval Transfer nor Naval
    Evacuation": the same Axis transfer of two divisions (too many for an air transport, 21.4) to a
    functional Napoli is legal before, and not after; the Allies transfer as before."""
    two = (GE_3, GE_15)
    axis = trip(
        {AXIS_GARRISON: "2917", **dict.fromkeys(two, "Axis Staging Area")},
        {u: ["Axis Staging Area", "2917"] for u in two},
    )
    allied = trip({**PALERMO, US_3: STAGING}, {US_3: [STAGING, "1326"]})

    def interdicted(seg: Segment) -> Segment:
        markers = {**seg.start.markers, "Naval Interdiction": (Position(),)}
        return dataclasses.replace(seg, start=dataclasses.replace(seg.start, markers=markers))

    assert transport(axis) == [] and transport(interdicted(allied)) == []
    (f,) = transport(interdicted(axis))
    # each division alone could fly (21.4); two cannot, and the naval transfer is closed
    assert f.severity == "error" and "2 units (3 PzGr" in f.message and "at most 1" in f.message
    assert "naval-transfer: not while the 'Naval Interdiction' marker is placed" in f.message
    assert f.message.endswith("[14.2.2]") and f.message.count("the air-transport [21.4]") == 1


def test_14_1_3_evacuation_from_a_coastal_hex_costs_two_ap() -> None:
    seg = trip({**PALERMO, US_3: "2026"}, {US_3: ["2026", STAGING]}, before=5, after=3)
    assert transport(seg) == []
    assert found(dataclasses.replace(seg, ledger=(Logged(1, "allied_ap", 5, 4),))) == [
        (
            "kesselrings-war:6.1",
            "error",
            "the Allied AP marker went down by 1 (5 to 4), the evacuation costs 2 [6.1]",
        )
    ]


def test_14_1_a_transfer_from_a_functional_port_may_be_paid_as_a_transfer_or_an_evacuation() -> None:
    """Palermo is coastal and functional: the same trip fits both modes; 1 AP and 2 AP are both legal."""
    seg = trip({**PALERMO, US_3: "1326"}, {US_3: ["1326", STAGING]})
    assert transport(seg) == []
    assert transport(dataclasses.replace(seg, ledger=(Logged(1, "allied_ap", 5, 3),))) == []
    assert [f.severity for f in transport(dataclasses.replace(seg, ledger=(Logged(1, "allied_ap", 5, 2),)))] == [
        "error"
    ]


def test_18_3_an_invasion_of_three_units_of_one_contingent_with_one_amphib_costs_two_ap() -> None:
    units = (US_3, US_45, US_9)
    moves: dict[Unit, list[str]] = {u: [STAGING, "2026"] for u in units}
    moves[AMPHIB] = [STAGING, "2126"]
    seg = trip({AMPHIB: STAGING, **{u: STAGING for u in units}}, moves, before=5, after=3)
    assert transport(seg) == []


def test_18_3_the_track_held_one_and_the_invasion_costs_two() -> None:
    moves: dict[Unit, list[str]] = {US_3: [STAGING, "2026"], AMPHIB: [STAGING, "2126"]}
    seg = trip({AMPHIB: STAGING, US_3: STAGING}, moves, before=1, after=0)
    assert found(seg) == [
        (
            "kesselrings-war:6.1",
            "error",
            "the Allied track held 1, the invasion costs 2: no action costs more AP than the track holds [6.1]",
        )
    ]


def test_18_2_invading_units_of_two_contingents_or_without_an_amphib() -> None:
    moves: dict[Unit, list[str]] = {US_3: [STAGING, "2026"], UK_5: [STAGING, "2026"], AMPHIB: [STAGING, "2126"]}
    seg = trip({AMPHIB: STAGING, US_3: STAGING, UK_5: STAGING}, moves, before=5, after=3)
    (f,) = transport(seg)
    assert f.rule == "kesselrings-war:18.2" and "units of 2 contingent values (Commonwealth, US), one only" in f.message
    seg = trip({US_3: STAGING}, {US_3: [STAGING, "2026"]}, before=5, after=3)
    (f,) = transport(seg)
    assert "1 destination(s) with 0 amphibious units moved, one each" in f.message


def test_19_1_an_airborne_drop_anywhere_but_a_mountain() -> None:
    assert transport(trip({US_82: STAGING}, {US_82: [STAGING, "1727"]})) == []
    (f,) = transport(trip({US_82: STAGING}, {US_82: [STAGING, "3024"]}))
    assert "3024 is mountain" in f.message


def test_19_1_no_drop_onto_enemy_ground_units_and_19_3_no_axis_drop() -> None:
    (f,) = transport(trip({US_82: STAGING, GE_3: "1727"}, {US_82: [STAGING, "1727"]}))
    assert f.rule == "kesselrings-war:19.1"
    assert (
        "drop: to a hex not mountain or volcano without enemy ground units: 1727 holds enemy units flagged ground"
        in f.message
    )
    (f,) = transport(trip({GE_FJ: "Axis Staging Area"}, {GE_FJ: ["Axis Staging Area", "1727"]}))
    assert "drop: only Allied units use it" in f.message


def test_21_4_the_allies_air_transport_only_non_mechanized_units_between_functional_airfields() -> None:
    gerbini = {GARRISON_A: "1829"}  # Gerbini: an airfield, no port
    assert transport(trip({**gerbini, US_3: STAGING}, {US_3: [STAGING, "1829"]})) == []
    (f,) = transport(trip({**gerbini, US_ARMD: STAGING}, {US_ARMD: [STAGING, "1829"]}))
    assert "air-transport: it carries only units flagged mobile not mechanized" in f.message
    assert transport(trip({GARRISON_A: "3112", GE_3: "Axis Staging Area"}, {GE_3: ["Axis Staging Area", "3112"]}))
    axis = {AXIS_GARRISON: "3112", GE_3: "Axis Staging Area"}  # Roma: an Axis airfield; the Axis flies any mobile unit
    assert transport(trip(axis, {GE_3: ["Axis Staging Area", "3112"]})) == []


def test_26_3_axis_units_reach_the_map_by_ground_on_the_north_edge_allied_units_never() -> None:
    seg = trip({GE_3: "Axis Staging Area"}, {GE_3: ["Axis Staging Area", "2901", "2902"]})
    assert transport(seg) == []
    (f,) = transport(trip({US_3: STAGING}, {US_3: [STAGING, "2901"]}))
    assert f.severity == "error" and "with no land path, which fits no transport mode" in f.message


def test_a_move_across_the_sea_between_hexes_has_no_land_path() -> None:
    """From Sicily (1929) to Sardinia (1609) by dragging from hex to hex: no land joins them."""
    (f,) = transport(trip({**PALERMO, US_3: "2026", AXIS_GARRISON: "1609"}, {US_3: ["2026", "1609"]}))
    assert f.message.startswith("Allied 3 [US infantry XX] 6-5-4 * moved from 2026 to 1609 with no land path")


def test_a_land_move_and_a_reinforcement_entry_are_no_transport() -> None:
    assert transport(trip({US_3: "1929"}, {US_3: ["1929", "1928"]})) == []
    seg = trip({US_3: "Allied Reinforcement Display"}, {US_3: ["Allied Reinforcement Display", "2026"]})
    assert transport(seg) == []
    assert transport(trip({US_3: "2027", GE_3: "2028"}, {US_3: ["2027", "2028"]})) == []  # 14.1.2: the Strait is land


def test_a_second_parameter_set_a_ferry_of_one_infantry_unit_from_sardinia_to_a_mainland_city() -> None:
    """Not shaped like Kesselring's War: one mode, no boxes, a region origin and a city destination
    on the mainland, free of AP; the tracks are not read."""
    ferry = {
        "name": "ferry",
        "rule_ref": "9.9",
        "units": {"kinds": ["infantry"]},
        "max_units": 1,
        "from": [{"region": "Sardinia", "coastal": True}],
        "to": [{"region": "Mainland Italy", "place_kind": "city"}],
    }
    params = {"modes": [ferry], "boxes": [], "tracks": {}, "units": {}}
    assert transport(trip({US_3: "1609"}, {US_3: ["1609", "2917"]}), **params) == []
    (f,) = transport(trip({US_3: "1609"}, {US_3: ["1609", "2913"]}), **params)
    assert f.rule == "kesselrings-war:9.9" and "2913 is no city" in f.message
    two = trip({US_3: "1609", US_45: "1609"}, {US_3: ["1609", "2917"], US_45: ["1609", "2917"]})
    assert "at most 1" in transport(two, **params)[0].message


def test_a_trip_with_no_land_path_is_no_move_nor_reinforcement_entry_for_the_movement_rules() -> None:
    """14.1 a naval transfer from the Staging Area to Palermo is an action of its own: the movement
    rules (13.x paths, 7.1 entries) leave it to `transport.modes` (MoveCheck kind "transport"); a
    land move in the same phase is still judged as a move."""
    seg = trip({**PALERMO, US_3: STAGING, US_45: "1929"}, {US_3: [STAGING, "1326"], US_45: ["1929", "1928"]})
    c = RuleContext(TERRAIN, LAYOUT, PACK.id, scenario=PACK.scenarios["scenario-2"], rule=PACK.rule("movement"))
    rules = turn_rules(PACK, c)
    rules = dataclasses.replace(rules, movement_phases={**rules.movement_phases, "action": "Allied"})
    checked = check_phase(seg.start, "action", seg.moves, rules, c)
    kinds = {m.name: m.kind for m in checked.moves}
    assert kinds == {US_3.name: "transport", US_45.name: "move"}
    assert not [f for f in checked.findings if US_3.id in f.units]
