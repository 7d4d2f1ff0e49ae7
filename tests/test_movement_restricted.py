"""`movement.restricted` (rules/mechanisms/restricted.py, RULES-MAP N14), worked by hand from the seeds.

The seeds' hexes are said on the example module's Kasserine board (labels "CCRR", columns
01-39, rows 01-26), with the seeds' own row numbers; boxes are named as the seeds name them.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from example_board import layout

from vassal_adj.model.geometry.hexes import distance
from vassal_adj.model.state import GameState, Position
from vassal_adj.model.terrain import Place, TerrainMap, TerrainVocabulary
from vassal_adj.model.units import Unit
from vassal_adj.rules.engine import RuleContext
from vassal_adj.rules.mechanisms.restricted import move_findings, parse_restrictions
from vassal_adj.rules.packs.pack import RuleConfig
from vassal_adj.rules.registry import Params, check_value, load_builtin_rules, lookup
from vassal_adj.rules.results import Finding, Severity


def context(given: dict[str, Any]) -> tuple[RuleContext, Params]:
    load_builtin_rules()
    im = lookup("movement.restricted")
    params = Params({**im.defaults(), **{k: check_value(im.types[k], v) for k, v in given.items()}})
    h = layout().hex_of
    voc = TerrainVocabulary(frozenset(), frozenset(), frozenset({"entry"}))
    places = (Place("Axis entry A", frozenset({"entry"}), (h("2001"),)),)
    rule = RuleConfig("r", "movement.restricted", "1.0", params, frozenset(given), {})
    terrain = TerrainMap(voc, named_places=places).with_board(layout().hexes())
    return RuleContext(terrain, layout(), "q", rule=rule), params


def run(state: GameState, **given: Any) -> list[Finding]:
    ctx, params = context(given)
    return lookup("movement.restricted").func(state, ctx, params)


def unit(uid: str, side: str, nationality: str = "", name: str = "") -> Unit:
    return Unit(uid, name or uid, side, "infantry", 4, nationality=nationality)


def at(label: str) -> Position:
    return Position(layout().hex_of(label), label)


def state(
    units: dict[Unit, Position], turn: int | None = 2, markers: dict[str, tuple[Position, ...]] | None = None
) -> GameState:
    return GameState(
        {u.id: u for u in units},
        {u.id: p for u, p in units.items()},
        turn,
        None if turn is None else "axis-movement",
        None,
        markers or {},
    )


def errors(found: list[Finding]) -> list[str]:
    return [f.message for f in found if f.severity == Severity.ERROR]


ALLIED_NEAR_ENTRY = [{"units": {"sides": ["Allied"]}, "may_not": "enter", "within": 3, "of": ["Axis entry A"]}]


def test_1_0_no_unit_within_3_hexes_of_an_enemy_reinforcement_hex() -> None:
    """No Question of Surrender 1.0: "No Unit may move within 3 hexes of an enemy reinforcement
    hex." 2004 is 3 hexes from the Axis entry 2001: an Allied unit there is an error; 2005 is 4."""
    assert distance(layout().hex_of("2004"), layout().hex_of("2001")) == 3
    found = run(
        state({unit("a", "Allied"): at("2004"), unit("b", "Allied"): at("2005"), unit("c", "Axis"): at("2002")}),
        restrictions=ALLIED_NEAR_ENTRY,
    )
    assert errors(found) == ["Allied a is in 2004: Allied units may not enter within 3 hexes of Axis entry A [1.0]"]
    assert [f.rule for f in found] == ["q:1.0"]


def test_1_0_at_set_up_an_entry_is_not_judged() -> None:
    """ "may not move within": a save of the set-up shows no move, so placement is the set-up rules'."""
    assert run(state({unit("a", "Allied"): at("2004")}, turn=None), restrictions=ALLIED_NEAR_ENTRY) == []


ITALIANS_ROWS = [
    {"units": {"nationalities": ["Italian"]}, "may_not": "enter", "hexes": ["row<10 + row>17"], "rule_ref": "Sc.1"}
]


def test_sc1_italian_units_north_of_row_10_or_south_of_row_17() -> None:
    """No Question of Surrender Sc.1: "The Italian Units can not move north of hexrow XX.10 or
    south of hexrow XX.17." An Italian unit in 2009 (row 9) or 2018 is in error; in 2010 not;
    a German unit in 2009 is not bound."""
    found = run(
        state(
            {
                unit("i1", "Axis", "Italian"): at("2009"),
                unit("i2", "Axis", "Italian"): at("2018"),
                unit("i3", "Axis", "Italian"): at("2010"),
                unit("g", "Axis", "German"): at("2009"),
            }
        ),
        restrictions=ITALIANS_ROWS,
    )
    assert [f.units for f in found if f.severity == Severity.ERROR] == [("i1",), ("i2",)]
    assert all(f.rule == "q:Sc.1" and "[Sc.1]" in f.message for f in found)


def test_26_axis_units_never_in_the_allied_staging_area() -> None:
    """Kesselring's War 26: "Axis units may never enter the Allied Staging Area, nor may Allied
    units enter the Axis Staging Area." A box; judged at set-up too, since no unit may be there."""
    never = [
        {"units": {"sides": ["Axis"]}, "may_not": "be-in", "boxes": ["Allied Staging Area"], "rule_ref": "26"},
        {"units": {"sides": ["Allied"]}, "may_not": "be-in", "boxes": ["Axis Staging Area"], "rule_ref": "26"},
    ]
    s = state(
        {
            unit("g", "Axis"): Position(box="Allied staging area "),
            unit("a", "Allied"): Position(box="Allied Staging Area"),
        },
        turn=None,
    )
    assert errors(run(s, restrictions=never)) == [
        "Axis g is in box 'Allied staging area ': Axis units may not be in box 'Allied Staging Area' [26]"
    ]


def test_8_1_3_italian_units_go_to_permanently_eliminated() -> None:
    """Kesselring's War 8.1.3: "The following units cannot be replaced and are placed in their
    respective Permanently Eliminated Units display: ... All Italian units." An Italian unit in
    the (replaceable) Eliminated Units display is in error; a German one is not."""
    r = [
        {
            "units": {"nationalities": ["Italian"]},
            "may_not": "be-in",
            "boxes": ["Axis Eliminated Units"],
            "rule_ref": "8.1.3",
        }
    ]
    found = run(
        state(
            {
                unit("i", "Axis", "Italian"): Position(box="Axis Eliminated Units"),
                unit("g", "Axis", "German"): Position(box="Axis Eliminated Units"),
            }
        ),
        restrictions=r,
    )
    assert [f.units for f in found] == [("i",)] and errors(found)


MAINLAND = [
    {"units": {"sides": ["Allied"]}, "may_not": "enter", "hexes": ["row<10"], "until": "surrender", "rule_ref": "27.1"}
]
SURRENDER = {"surrender": {"marker": "Italian Surrender", "box": "Turn {turn}"}}


@pytest.mark.parametrize(
    ("marker", "severity"),
    [
        ((Position(box="Turn 4"),), None),  # surrendered on Game-Turn 4: the restriction is over
        ((Position(box="Markers"),), Severity.ERROR),  # not yet
        (None, Severity.INFO),  # the save has no such marker: cannot tell
    ],
)
def test_27_1_allied_units_may_not_enter_mainland_italy_before_the_surrender(marker: Any, severity: Any) -> None:
    """Kesselring's War 27.1 4a: "Prior to Italian Surrender, Allied ground units may not enter
    mainland Italy." Mainland Italy is said as rows 01-09 here; the surrender is a marker event."""
    markers = {"Italian Surrender": marker} if marker else {}
    found = run(
        state({unit("a", "Allied"): at("1505")}, turn=5, markers=markers), restrictions=MAINLAND, events=SURRENDER
    )
    assert [f.severity for f in found] == ([severity] if severity else [])


def test_sc3_13_dble_may_not_move_until_a_german_unit_occupies_17_10() -> None:
    """No Question of Surrender Sc.3: "the French Units of 13 DBLE may not activate until a German
    Unit occupies the observation point (hex 17.10)". In a save: said once, not judged. On a log:
    with no Axis unit in 1710 now, whether one has been there one save cannot show (INFO); with
    one there, the rule is over."""
    r = [{"units": {"formations": ["13 DBLE"]}, "may_not": "move", "until": "observation point", "rule_ref": "Sc.3"}]
    events = {"observation point": {"side": "Axis", "within": 0, "of": ["1710"]}}
    french = Unit("f", "II/13 DBLE", "Allied", "infantry", 4, formation="13 DBLE")
    s = state({french: at("1720"), unit("g", "Axis"): at("1712")})
    assert [f.severity for f in run(s, restrictions=r, events=events)] == [Severity.INFO]
    ctx, params = context({"restrictions": r, "events": events})
    rs = parse_restrictions(ctx, params, "Sc")

    def moved(st: GameState) -> list[Finding]:
        return move_findings(
            st,
            "f",
            at("1720"),
            at("1719"),
            rs,
            what="Allied II/13 DBLE moved 1720 -> 1719",
            hexes=("1720", "1719"),
            cite=lambda ref: f"q:{ref}",
            label=ctx.label,
        )

    assert [f.severity for f in moved(s)] == [Severity.INFO]
    assert moved(state({french: at("1720"), unit("g", "Axis"): at("1710")})) == []


def test_23_72_as_a_restriction_move_on_turn_one_unless_an_enemy_is_within_ten() -> None:
    """Kasserine 23.72: "On the First Game-Turn, only, Allied units listed in the Initial Deployment
    (except units within ten hexes of any Axis unit) may not be moved." Worked as a restriction:
    the 1-3-7 (2/168) moved from 3718 on turn 1 with the nearest Axis unit 11 hexes away is in
    error; 10 hexes away, free; on turn 2, free."""
    r = [
        {
            "units": {"names": ["1-3-7 (2/168)"]},
            "may_not": "move",
            "when": {"turns": [1, 1]},
            "unless_enemy_within": 10,
            "rule_ref": "23.72",
        }
    ]
    ctx, params = context({"restrictions": r})
    rs = parse_restrictions(ctx, params, "23")
    us = Unit("u", "1-3-7(2/168)", "Allied", "infantry", 7)

    def moved(axis_at: str, turn: int) -> list[Finding]:
        s = state({us: at("3718"), unit("x", "Axis"): at(axis_at)}, turn=turn)
        return move_findings(
            s,
            "u",
            at("3718"),
            at("3717"),
            rs,
            what="Allied 1-3-7 (2/168) moved 3718 -> 3717",
            hexes=("3718", "3717"),
            cite=lambda ref: f"k:{ref}",
            label=ctx.label,
        )

    assert [f.message for f in moved("2618", 1)] == [
        (
            "Allied 1-3-7 (2/168) moved 3718 -> 3717: units named 1-3-7(2/168) may not move on Game-Turn 1 unless "
            "within 10 hexes of an enemy unit [23.72]"
        )
    ]
    assert moved("2718", 1) == [] and moved("2618", 2) == []


def test_an_entry_ends_in_the_area_but_a_move_inside_it_is_not_an_entry() -> None:
    ctx, params = context({"restrictions": ITALIANS_ROWS})
    rs = parse_restrictions(ctx, params, "Sc")
    s = state({unit("i", "Axis", "Italian"): at("2011")})

    def moved(a: str, b: str) -> list[str]:
        return [
            f.message
            for f in move_findings(
                s,
                "i",
                at(a),
                at(b),
                rs,
                what=f"Axis i moved {a} -> {b}",
                hexes=(a, b),
                cite=lambda ref: ref,
                label=ctx.label,
            )
        ]

    assert moved("2011", "2009") == ["Axis i moved 2011 -> 2009: Italian units may not enter row<10 + row>17 [Sc.1]"]
    assert moved("2009", "2008") == []


@pytest.mark.parametrize(
    ("restriction", "words"),
    [
        ({"units": {}, "may_not": "walk", "hexes": ["2001"]}, r"restrictions\[0\].may_not: expected one of"),
        ({"units": {}, "may_not": "move", "hexes": ["2001"]}, "'move' takes no area"),
        ({"units": {}, "may_not": "enter"}, "'enter' needs an area"),
        ({"units": {}, "may_not": "enter", "within": 3}, "'within' and 'of' go together"),
        ({"units": {"side": ["Axis"]}, "may_not": "be-in", "boxes": ["X"]}, r"units.side: unknown key"),
        ({"units": {}, "may_not": "enter", "hexes": ["2001"], "until": "peace"}, "unknown event 'peace'"),
    ],
)
def test_bad_restrictions_name_the_key(restriction: dict[str, Any], words: str) -> None:
    with pytest.raises(ValueError, match=words):
        run(state({}), restrictions=[restriction])


def test_sc1_verify_a_move_across_a_barred_row_is_the_restriction_s_fault() -> None:
    """No Question of Surrender Sc.1 ("can not move north of hexrow XX.10"), judged on a phase's
    moves with the Kasserine pack's movement (column 05 is clear, no road: 1 MP a hex). Rows 19-20
    barred to Axis units: ending in 0519 is an entry (cited Sc.1); 0517 -> 0522 has no way
    around the band within 12 MP, so the path fails citing Sc.1; 0517 -> 0518 is legal."""
    from vassal_adj.packs import load_pack
    from vassal_adj.rules.turn import check_phase, turn_rules

    pack = Path(__file__).resolve().parents[1] / "modules" / "kasserine"
    ctx = RuleContext(load_pack(pack).terrain(layout()), layout(), "kasserine")
    band = [{"units": {"sides": ["Axis"]}, "may_not": "enter", "hexes": ["row>=19 & row<=20"], "rule_ref": "Sc.1"}]
    _, params = context({"restrictions": band})
    rules = replace(turn_rules(load_pack(pack).pack, ctx), restricted=parse_restrictions(ctx, params, "Sc.1"))
    panzer = Unit("g1", "5-3-12 (2/7)", "Axis", "armor", 12, attack=5, defense=3, mechanized=True)

    def moved(goal: str) -> list[tuple[str, Severity]]:
        st = GameState({"g1": panzer}, {"g1": at("0517")}, 2, "axis-movement", "good")
        return [
            (f.rule, f.severity)
            for f in check_phase(st, st.phase, {"g1": [(at("0517"), at(goal))]}, rules, ctx).findings
        ]

    assert ("kasserine:Sc.1", Severity.ERROR) in moved("0519")
    assert moved("0522") == [("kasserine:Sc.1", Severity.ERROR)]
    assert moved("0518") == [("kasserine:standard-movement", Severity.INFO)]


def test_a_marker_event_names_the_module_boxes_it_is_read_in() -> None:
    """The Game-Turn boxes are the module's: the engine holds no box name, so a marker event with
    no box of its own needs the rule's turn_box, and its absence is a pack error naming the event."""
    ctx, params = context({"restrictions": MAINLAND, "events": {"surrender": {"marker": "Italian Surrender"}}})
    with pytest.raises(ValueError, match=r"events.surrender: .*give turn_box"):
        parse_restrictions(ctx, params, "27")
    ctx, params = context(
        {"restrictions": MAINLAND, "events": {"surrender": {"marker": "Italian Surrender"}}, "turn_box": "Turn {turn}"}
    )
    assert len(parse_restrictions(ctx, params, "27")) == 1
