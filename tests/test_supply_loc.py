"""`supply.loc` (RULES-MAP N10, rules/mechanisms/supply_loc.py), worked by hand from Kesselring's War
(seed 004) 12.2-12.6 and 26.2 on a small board, then with a parameter set not shaped like it.

The board: raw columns 0-11, rows 0-7; "rough" (neither open nor barred) unless a case says
otherwise; a road along row 3 (each hexside (c, 3)-(c+1, 3); along a row the distance between two
hexes is the difference of their columns). The port "Gaeta" is (8, 3), the airfield "Capua" (2, 6),
the "North edge land" row 0. Labels are raw ("raw 8,3"): the context has no hex layout.
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Mapping

import pytest
from conftest import REPO

from vassal_adj.model.geometry.hexes import Hex, distance, hexside
from vassal_adj.model.state import GameState, Position
from vassal_adj.model.terrain import Place, TerrainMap, TerrainVocabulary
from vassal_adj.model.units import Unit
from vassal_adj.rules.engine import RuleContext
from vassal_adj.rules.mechanisms.supply_loc import LocRules
from vassal_adj.rules.mechanisms.supply_loc_rules import supply_loc, unit_length
from vassal_adj.rules.registry import Params, load_builtin_rules
from vassal_adj.rules.results import Finding, Severity


def R(c: int, r: int) -> Hex:
    return Hex.from_raw(c, r)


BOARD = frozenset(R(c, r) for c in range(12) for r in range(8))
ROAD = {hexside(R(c, 3), R(c + 1, 3)): frozenset({"road"}) for c in range(11)}
GAETA, CAPUA = R(8, 3), R(2, 6)


def terrain(
    default: str = "rough", overrides: Mapping[Hex, str] | None = None, sides: Mapping | None = None
) -> TerrainMap:
    over = overrides or {}
    return TerrainMap(
        TerrainVocabulary(
            terrain=frozenset({"clear", "rough", "mountain"}),
            features=frozenset({"road", "river", "bridge"}),
            place_kinds=frozenset({"port", "airfield", "supply-source", "edge"}),
        ),
        hex_terrain={h: frozenset({over.get(h, default)}) for h in BOARD},
        side_features={**ROAD, **(sides or {})},
        named_places=(
            Place("Gaeta", frozenset({"port"}), (GAETA,)),
            Place("Capua", frozenset({"airfield"}), (CAPUA,)),
            Place("Roma", frozenset({"supply-source"}), (R(10, 1),)),
            Place("San Benedetto", frozenset({"supply-source"}), (R(11, 7),)),
            Place("North edge land", frozenset({"edge"}), tuple(R(c, 0) for c in range(12))),
            Place("West", frozenset({"edge"}), tuple(R(0, r) for r in range(8))),
        ),
        board=BOARD,
    )


ROUGH = terrain()
GARRISON = {"kinds": ["garrison"]}
# The pack's 12.x, as the final report gives it to the lead (sides differ in `sources` only).
KW = {
    "units": {"not_flags": ["air", "naval"]},
    "length": "attr:movement",
    "slow_length": "half-up",
    "fast_terrain": ["clear"],
    "fast_features": ["road"],
    "prohibited": {"mountain": ["mechanized"]},
    "through": ["road"],
    "always_supplied": {"boxes": ["Allied Staging Area", "Axis Staging Area"], "stacked_with": GARRISON},
    "source_in_enemy_zoc": "own-hex",
    "obstruction": {"enemy_units": True, "enemy_zoc": True, "friendly_negates_zoc": False},
}
ALLIED = [{"place_kind": "port", "holding": GARRISON}]
AXIS = [
    {"place_kind": "airfield", "holding": GARRISON},
    {"places": ["Roma"], "holding": GARRISON},
    {"edge": "North edge land", "box": "Axis Staging Area"},
]


def inf(uid: str, side: str, mf: int = 6, nationality: str = "") -> Unit:
    return Unit(uid, f"Inf {uid}", side, "infantry", mf, nationality=nationality)


def mech(uid: str, side: str, mf: int = 6) -> Unit:
    return Unit(uid, f"Pz {uid}", side, "armor", mf, mechanized=True)


def gar(uid: str, side: str) -> Unit:
    return Unit(uid, f"Garrison {uid}", side, "garrison", 0)


def run(
    side: str, placed: Mapping[Unit, Hex | str], t: TerrainMap = ROUGH, base: Mapping = KW, **over: object
) -> list[Finding]:
    p = Params(
        {
            **load_builtin_rules().lookup("supply.loc").defaults(),
            **base,
            "side": side,
            "sources": ALLIED if side == "Allied" else AXIS,
            **over,
        }
    )
    positions = {u.id: Position(x) if isinstance(x, Hex) else Position(box=x) for u, x in placed.items()}
    return supply_loc(GameState({u.id: u for u in placed}, positions), RuleContext(t, None, "test"), p)


def status(found: list[Finding], uid: str) -> Finding:
    (f,) = [f for f in found[1:] if f.units and f.units[0] == uid]  # found[0]: the summary
    return f


def supplied(found: list[Finding], uid: str) -> bool:
    f = status(found, uid)
    assert "not judged" not in f.message, f.message
    return f.severity == Severity.INFO and "is in supply" in f.message


def test_12_2_full_mf_along_the_road_and_no_further() -> None:
    """12.2: "a number of hexes equal to its printed movement factor (MF) if the entire path is traced
    along contiguous roads": MF 6 on the road 6 hexes from Gaeta is in supply, 7 hexes is not, and the
    finding says how far the source is (the 12.2 example: Anzio to Gaeta by connected roads)."""
    found = run("Allied", {gar("g", "Allied"): GAETA, inf("a", "Allied"): R(2, 3), inf("b", "Allied"): R(1, 3)})
    a = status(found, "a")
    assert supplied(found, "a")
    assert "LOC to Gaeta (held by Garrison g in raw 8,3)" in a.message
    assert "raw 2,3 raw 3,3 raw 4,3 raw 5,3 raw 6,3 raw 7,3 raw 8,3 (6 hexes along roads" in a.message
    b = status(found, "b")
    assert b.severity == Severity.WARNING and "out of supply" in b.message
    assert "(6 hexes along roads and/or open terrain, 3 hexes otherwise)" in b.message
    assert "the nearest, Gaeta (held by Garrison g in raw 8,3), is 7 hexes away along roads" in b.message


def test_12_2_half_mf_rounded_up_off_the_road() -> None:
    """12.2: "half of its printed MF (rounded up) if the path does not consist entirely of contiguous
    roads and/or open terrain": 3 hexes of rough to Gaeta: MF 5 (half up 3) and 6 in, MF 4 (2) out."""
    at = R(8, 6)
    assert distance(at, GAETA) == 3
    found = run(
        "Allied",
        {gar("g", "Allied"): GAETA, inf("m5", "Allied", 5): at, inf("m6", "Allied", 6): at, inf("m4", "Allied", 4): at},
    )
    assert supplied(found, "m5") and supplied(found, "m6") and not supplied(found, "m4")
    assert "(3 hexes not wholly along roads or open terrain; allows 3)" in status(found, "m5").message
    assert "is 3 hexes away by a path not wholly along roads" in status(found, "m4").message


def test_12_2_open_terrain_counts_as_road() -> None:
    """12.2 "along contiguous roads and/or through open terrain hexes": with (8, 4)-(8, 6) clear, MF 4
    from (8, 7) traces 4 hexes entering clear hexes then the road hex... not open: only half (2).
    With Gaeta's hex clear too, the whole path is open: 4 hexes, in supply."""
    at = R(8, 7)
    clear = {R(8, r): "clear" for r in (4, 5, 6)}
    placed = {gar("g", "Allied"): GAETA, inf("u", "Allied", 4): at}
    assert not supplied(run("Allied", placed, terrain(overrides=clear)), "u")
    found = run("Allied", placed, terrain(overrides={**clear, GAETA: "clear"}))
    assert "(4 hexes along roads and/or open terrain; allows 4)" in status(found, "u").message


def test_12_4_a_port_is_a_source_only_while_it_holds_a_friendly_garrison() -> None:
    """12.4 "Allies: A Garrison unit in any port hex"; 12.1 "A port ... is only considered to be
    functional if it contains a Garrison": no garrison, an Axis garrison, or an Allied infantry unit
    in Gaeta: no source; an Allied garrison: the unit 3 hexes away by road is in supply."""
    u = inf("u", "Allied")
    assert supplied(run("Allied", {u: R(5, 3), gar("g", "Allied"): GAETA}), "u")
    for other in ({}, {gar("x", "Axis"): GAETA}, {inf("i", "Allied"): GAETA}):
        found = run("Allied", {u: R(5, 3), **other})
        assert not supplied(found, "u")
        assert "there is no source in this position" in status(found, "u").message


def test_12_6_any_friendly_source_supplies_any_contingent() -> None:
    """12.6: "All friendly units, regardless of contingent, may trace an LOC to any friendly supply
    source": a US unit traces to a port a British Garrison holds."""
    g = Unit("g", "Garrison g", "Allied", "garrison", 0, nationality="British")
    assert supplied(run("Allied", {g: GAETA, inf("us", "Allied", nationality="US"): R(4, 3)}), "us")


def test_12_4_26_2_the_axis_staging_area_is_reached_off_the_north_edge() -> None:
    """26.2: "Axis units in mainland Italy can trace a LOC to the Axis Staging Area off all north map
    edge land hexes" (12.4 2: it needs no Garrison): on all-clear ground, MF 4 four hexes below the
    edge is in supply from the Staging Area, MF 3 is not; an Allied unit there has no such source."""
    t = terrain("clear")
    found = run("Axis", {inf("a", "Axis", 4): R(5, 4), inf("b", "Axis", 3): R(5, 4)}, t)
    assert "LOC to Axis Staging Area: raw 5,4 raw 5,3 raw 5,2 raw 5,1 raw 5,0 (4 hexes" in status(found, "a").message
    assert "the nearest, Axis Staging Area, is 4 hexes away" in status(found, "b").message
    assert not supplied(run("Allied", {inf("c", "Allied", 6): R(5, 1)}, t), "c")


def test_12_4_axis_airfields_and_roma_hold_a_garrison_and_the_nearest_is_named() -> None:
    """12.4 Axis "1) A Garrison unit in any airfield or supply source hex (Roma, San Benedetto)": a unit
    between Capua and Roma reaches both; the finding names the nearer and lists the other (12.5 asks
    which single source units share)."""
    t = terrain("clear")
    found = run("Axis", {gar("c", "Axis"): CAPUA, gar("r", "Axis"): R(10, 1), inf("u", "Axis", 8): R(5, 4)}, t)
    m = status(found, "u").message
    assert (distance(R(5, 4), CAPUA), distance(R(5, 4), R(10, 1))) == (3, 6)  # and 4 to the north edge
    assert "LOC to Capua (held by Garrison c in raw 2,6)" in m and "also in reach: Axis Staging Area, Roma" in m


def test_12_4_26_2_units_in_a_staging_area_are_always_in_supply() -> None:
    """12.4 "The Allied Staging Area is not an LOC source. However, units in the Staging Area are
    always in supply"; 26.2 "Units in Staging Areas are always In Supply". A unit in another box
    (eliminated) is not judged at all."""
    found = run("Allied", {inf("s", "Allied"): "Allied Staging Area", inf("e", "Allied"): "Eliminated"})
    assert "in Allied Staging Area is in supply: units there always are" in status(found, "s").message
    assert not [f for f in found if f.units[:1] == ("e",)]
    assert "1 of 1 Allied units" in found[0].message


def test_12_3_enemy_zoc_blocks_and_friendly_units_do_not_negate_it() -> None:
    """12.3 "An LOC cannot enter hexes containing enemy units or EZOC"; 11.1 "Enemy zones of control
    (EZOC) are never negated by other friendly units for any purpose": an Axis unit in (5, 2) controls
    the road hexes (4, 3)-(6, 3); the unit at (2, 3) is out, even with an Allied unit in (5, 3)."""
    base = {gar("g", "Allied"): GAETA, inf("u", "Allied"): R(2, 3), inf("z", "Axis"): R(5, 2)}
    found = run("Allied", base)
    m = status(found, "u").message
    assert not supplied(found, "u")
    assert "raw 4,3 (enemy zone of control of Axis Inf z)" in m
    assert not supplied(run("Allied", {**base, inf("f", "Allied"): R(5, 3)}), "u")
    assert not supplied(run("Allied", {**base, inf("z", "Axis"): R(5, 3)}), "u")  # an enemy unit on the road


def test_12_3_a_unit_in_an_ezoc_traces_out_of_its_hex() -> None:
    """12.3 "However, a unit in an EZOC can always trace a LOC out of the hex" (11.2): the unit in
    (5, 3), in the zone of the Axis unit in (5, 2), traces 3 road hexes to Gaeta."""
    found = run("Allied", {gar("g", "Allied"): GAETA, inf("u", "Allied"): R(5, 3), inf("z", "Axis"): R(5, 2)})
    assert supplied(found, "u")


def test_12_3_a_garrison_in_an_ezoc_supplies_only_its_own_hex() -> None:
    """12.3 "If a Garrison is in an EZOC it cannot provide an LOC other than into its own hex. A unit
    in the same hex as a Garrison is always In Supply even if in an EZOC": an Axis unit in (9, 2)
    controls Gaeta; the unit next door in (7, 3) is out, the one in Gaeta is in (stacked with the
    Garrison; and, with `stacked_with` left out, at 0 hexes from its own hex)."""
    placed = {
        gar("g", "Allied"): GAETA,
        inf("n", "Allied"): R(7, 3),
        inf("in", "Allied"): GAETA,
        inf("z", "Axis"): R(9, 2),
    }
    found = run("Allied", placed)
    assert not supplied(found, "n") and "raw 8,3 (enemy zone of control of Axis Inf z)" in status(found, "n").message
    assert "is in supply: stacked with Garrison g" in status(found, "in").message
    plain = run("Allied", placed, always_supplied={"boxes": ["Allied Staging Area"]})
    assert "LOC to Gaeta (held by Garrison g in raw 8,3): raw 8,3 (its own hex)" in status(plain, "in").message
    assert not supplied(run("Allied", placed, source_in_enemy_zoc="none", always_supplied={}), "in")


def test_12_3_mechanized_units_trace_through_mountains_only_along_a_road() -> None:
    """12.3: "A mechanized unit cannot trace an LOC through a hex containing a mountain or volcano except
    along a road": on an all-mountain board (the unit's own hex (5, 5) clear) the infantry traces 2
    hexes across the mountain to Gaeta-by-the-road at (5, 3)... a mechanized unit cannot; along the
    road row 3 (mountain hexes too) the mechanized unit 6 hexes away is in supply at its full MF."""
    t = terrain("mountain", {R(5, 5): "clear"})
    port = R(5, 3)
    tt = TerrainMap(
        t.vocabulary,
        t.hex_terrain,
        t.side_features,
        (Place("Formia", frozenset({"port"}), (port,)),),
        board=BOARD,
    )
    found = run("Allied", {gar("g", "Allied"): port, inf("i", "Allied"): R(5, 5), mech("m", "Allied"): R(5, 5)}, tt)
    assert supplied(found, "i") and not supplied(found, "m")
    assert "no supply source within its LOC" in status(found, "m").message
    road = run("Allied", {gar("g", "Allied"): port, mech("r", "Allied"): R(11, 3)}, tt)
    assert "(6 hexes along roads and/or open terrain; allows 6)" in status(road, "r").message


def test_length_from_an_attribute_the_unit_lacks_is_not_judged() -> None:
    """A length read from an attribute the files do not give is "not judged", never guessed."""
    found = run("Allied", {gar("g", "Allied"): GAETA, inf("u", "Allied"): R(7, 3)}, length="attr:lrange")
    f = status(found, "u")
    assert f.severity == Severity.WARNING and "supply not judged, its LOC length (attr:lrange)" in f.message
    assert unit_length(inf("x", "Allied", 5), "attr:movement") == 5 and unit_length(inf("x", "Allied"), "3") == 3
    with pytest.raises(ValueError, match="length"):
        unit_length(inf("x", "Allied"), "movement")


def test_bad_parameters_are_refused() -> None:
    with pytest.raises(ValueError, match="slow_length"):
        LocRules(slow_length="half")
    with pytest.raises(ValueError, match="source_in_enemy_zoc"):
        LocRules(source_in_enemy_zoc="own")
    with pytest.raises(ValueError, match="exactly one of"):
        run("Allied", {inf("u", "Allied"): R(1, 1)}, sources=[{"place_kind": "port", "places": ["Gaeta"]}])
    with pytest.raises(ValueError, match="severity"):
        run("Allied", {inf("u", "Allied"): R(1, 1)}, severity="error")


# A game not shaped like Kesselring's War: every unit traces 3 hexes, whatever the ground ("full"),
# to fixed sources (the west edge, no holder); rivers close hexsides (`closed_sides`); friendly
# units negate enemy zones; a source in an enemy zone still supplies outward ("normal"); enemy
# units do not obstruct; no unit always in supply.
OTHER = {
    "length": "3",
    "slow_length": "full",
    "closed_sides": ["river"],
    "source_in_enemy_zoc": "normal",
    "obstruction": {"enemy_units": False, "enemy_zoc": True, "friendly_negates_zoc": True},
    "severity": "info",
}
RIVER = {hexside(R(1, r), R(2, r)): frozenset({"river"}) for r in range(8)} | {
    hexside(R(1, r), R(2, r + 1)): frozenset({"river"}) for r in range(7)
}


def other(placed: Mapping[Unit, Hex | str], t: TerrainMap = ROUGH) -> list[Finding]:
    return run("Blue", placed, t, base=OTHER, sources=[{"places": ["West"]}])


def test_a_second_shape_fixed_length_fixed_sources_rough_ground_counts_in_full() -> None:
    """Length 3 whatever the unit's MF and the ground: 3 rough hexes from the west edge in, 4 out
    (an "info" status), and the source is named by the place spec."""
    found = other({inf("a", "Blue", 1): R(3, 5), inf("b", "Blue", 9): R(4, 5)})
    assert "LOC to West: raw 3,5" in status(found, "a").message
    b = status(found, "b")
    assert b.severity == Severity.INFO and "out of supply" in b.message and "4 hexes away" in b.message


def test_a_second_shape_a_closed_river() -> None:
    """The river between columns 1 and 2 closes every way west; without it the unit in (2, 4) is 2
    hexes from the edge."""
    assert not supplied(other({inf("a", "Blue"): R(2, 4)}, terrain(sides=RIVER)), "a")
    assert supplied(other({inf("a", "Blue"): R(2, 4)}), "a")


# A corridor: the board is row 2 only, columns 0-5, so a path has one way west.
CORRIDOR = TerrainMap(
    ROUGH.vocabulary, ROUGH.hex_terrain, named_places=ROUGH.named_places, board=frozenset(R(c, 2) for c in range(6))
)


def test_a_second_shape_friendly_units_negate_enemy_zones_and_enemy_units_do_not_obstruct() -> None:
    """A Red unit in (2, 2) controls (1, 2) and (3, 2). The Blue unit in (4, 2) traces 4 hexes west
    through the Red unit's hex (enemy units do not obstruct) only when friendly units stand in both
    controlled hexes."""
    placed = {inf("u", "Blue"): R(4, 2), inf("r", "Red"): R(2, 2)}
    four = {**OTHER, "length": "4"}

    def run_(more: Mapping[Unit, Hex]) -> list[Finding]:
        return run("Blue", {**placed, **more}, CORRIDOR, base=four, sources=[{"places": ["West"]}])

    assert not supplied(run_({}), "u")
    assert not supplied(run_({inf("f", "Blue"): R(3, 2)}), "u")
    found = run_({inf("f", "Blue"): R(3, 2), inf("g", "Blue"): R(1, 2)})
    assert "LOC to West: raw 4,2 raw 3,2 raw 2,2 raw 1,2 raw 0,2 (4 hexes" in status(found, "u").message


def test_a_second_shape_a_source_in_an_enemy_zone_supplies_outward_under_normal() -> None:
    """A Red unit in (1, 2) controls the source hex (0, 2): under "normal" the Blue unit in (3, 2),
    a friendly unit negating the zone in (2, 2), still traces to it; under KW's "own-hex" it cannot."""
    placed = {inf("u", "Blue"): R(3, 2), inf("f", "Blue"): R(2, 2), inf("r", "Red"): R(1, 2)}
    for policy, fed in (("normal", True), ("own-hex", False)):
        found = run("Blue", placed, CORRIDOR, base=OTHER, sources=[{"places": ["West"]}], source_in_enemy_zoc=policy)
        assert supplied(found, "u") is fed


def test_the_guides_kesselrings_war_example_is_valid_and_judges_as_worked_above() -> None:
    """The TOML docs/adding-a-rule-pack.md gives for KW 12 (what the pack is to carry) fits the
    registry's parameters, and on this board supplies the Axis unit four hexes below the north edge
    from the Staging Area; a mechanized unit of MF 8 seven clear hexes below it is in supply, and out
    once row 5 is mountain (no road crosses it)."""
    text = (REPO / "docs" / "adding-a-rule-pack.md").read_text(encoding="utf-8")
    part = text[text.index("## Supply by lines of communication (`supply.loc`") :]
    (rule,) = tomllib.loads(re.findall(r"```toml\n(.*?)```", part, re.S)[0])["rules"].values()
    impl = load_builtin_rules().lookup("supply.loc")
    given = {k: v for k, v in rule.items() if k not in ("impl", "rule_ref")}
    for k, v in given.items():
        impl.params[k].check(impl.types[k], v)
    placed = {inf("a", "Axis", 4): R(5, 4), mech("m", "Axis", 8): R(5, 7)}
    found = run("Axis", placed, terrain("clear"), base=given)
    assert "LOC to Axis Staging Area" in status(found, "a").message
    assert "(7 hexes along roads and/or open terrain; allows 8)" in status(found, "m").message
    assert not supplied(
        run("Axis", placed, terrain("clear", {R(c, 5): "mountain" for c in range(12)}), base=given), "m"
    )
