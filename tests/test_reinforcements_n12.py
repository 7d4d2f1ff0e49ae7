"""RULES-MAP N12, the rest of `reinforcements.schedule` (rules/mechanisms/reinforcement_entries.py,
reinforcement_units.py, reinforcement_check.py): arrival in boxes and at places of a kind or a region,
each unit's own turn (`turn_from`), turns named by label, events with unit selectors and regions, and
`repeatable` entries. Worked by hand from the seeds' words.

The seeds' boards are not in the repository: their hexes are said on the example module's board
(columns 01-39, rows 01-26, label "CCRR"), with two ports and an airfield placed on it.
"""

from __future__ import annotations

from typing import Any

import pytest
from example_board import layout

from vassal_adj.model.state import Box, GameState, Position
from vassal_adj.model.terrain import Place, TerrainMap, TerrainVocabulary
from vassal_adj.model.units import Unit
from vassal_adj.rules.engine import RuleContext
from vassal_adj.rules.mechanisms import reinforcement_check, setup_deploy
from vassal_adj.rules.mechanisms.reinforcement_entries import parse_entry
from vassal_adj.rules.mechanisms.setup import entry_due, moment
from vassal_adj.rules.packs.pack import RuleConfig
from vassal_adj.rules.registry import Params, check_value, load_builtin_rules, lookup
from vassal_adj.rules.results import Finding, Severity

# Seed 003's turns are the hours of a day (Sc.2: "The scenario starts on the 0900 turn of May 27th ...
# ends ... on the 1900 turn"): labels of the pack's [state] turn_sequence, Game-Turns 1 to 6.
DAY = ("May 27 0900", "May 27 1100", "May 27 1300", "May 27 1500", "May 27 1700", "May 27 1900")


def context(rule: RuleConfig | None = None) -> RuleContext:
    lay = layout()
    voc = TerrainVocabulary(frozenset({"clear"}), frozenset(), frozenset({"port", "airfield", "entry"}))
    places = (
        Place("Naples", frozenset({"port"}), (lay.hex_of("2020"),)),
        Place("Bari", frozenset({"port"}), (lay.hex_of("3010"),)),
        Place("Foggia", frozenset({"airfield"}), (lay.hex_of("2812"),)),
        Place("B", frozenset({"entry"}), (lay.hex_of("3918"),)),
    )
    terrain = TerrainMap(voc, named_places=places).with_board(lay.hexes())
    return RuleContext(terrain, lay, "t", rule=rule, turn_sequence=DAY)


def run(st: GameState, ref: str = "N12", **given: Any) -> list[Finding]:
    """`reinforcements.schedule` on `st` with these parameters, as the engine runs it."""
    load_builtin_rules()
    im = lookup("reinforcements.schedule")
    params = {**im.defaults(), **{k: check_value(im.types[k], v) for k, v in given.items()}}
    rule = RuleConfig("r", "reinforcements.schedule", ref, Params(params), frozenset(given), {})
    return im.func(st, context(rule), rule.params)


def at(where: str) -> Position:
    """A hex label, or 'box:NAME' (a [boxes] kind after '#': 'box:Allied Staging Area#staging')."""
    if not where.startswith("box:"):
        return Position(layout().require(where), where)
    name, _, kind = where[4:].partition("#")
    return Position(box=name, named=Box(name, kind) if kind else None)


def game(
    *units: tuple[str, str, str],
    turn: int | None = None,
    phase: str | None = None,
    attrs: dict[str, dict[str, Any]] | None = None,
    kinds: dict[str, str] | None = None,
    flags: dict[str, frozenset[str]] | None = None,
) -> GameState:
    """Units as (side, name, where); ids are their names."""
    us = {
        n: Unit(
            n,
            n,
            side,
            (kinds or {}).get(n, "infantry"),
            4,
            flags=(flags or {}).get(n, frozenset()),
            attrs=(attrs or {}).get(n, {}),
        )
        for side, n, _ in units
    }
    return GameState(us, {n: at(w) for _, n, w in units}, turn, phase)


def said(found: list[Finding], severity: Severity = Severity.ERROR) -> list[str]:
    return [f.message for f in found if f.severity == severity]


AXIS = {"side": "Axis", "boxes": {"turn": "Turn {turn}"}}


# -- `at` boxes and places of a kind or region -----------------------------------------------------
def test_7_3_allied_units_deploy_in_the_staging_area_or_at_a_port_found_by_kind() -> None:
    """Seed 004 7.3: "Allied mobile ground units may deploy in the Allied Staging Area, any
    Allied-controlled functional port"; 7.4: "Mobile units deployed in a Staging Area may remain
    there indefinitely and are not required to move onto the map." The Staging Area is named by its
    [boxes] kind ("staging"), the ports by their place kind ("place-kind:port": Naples 2020 and
    Bari 3010 on this board). A unit in the Staging Area from its GT on is in play, not late; one
    there before its GT 6 ("The German 4th Parachute Division becomes available on GT 6", 7.1)
    arrived early; one still in the box of GT 6 on GT 7 is late or held back."""
    entry = {"turn": 6, "at": ["box:staging", "place-kind:port"], "units": ["1 Para"]}
    params = {
        "side": "Allied",
        "boxes": {"turn": "GT {turn}"},
        "entries": [entry],
        "phases": ["allied-movement", "allied-combat"],
    }
    staged = at("box:Allied Staging Area#staging")
    st = GameState({"p": Unit("p", "1 Para", "Allied", "infantry", 4)}, {"p": staged}, 9, "allied-combat")
    assert run(st, **params) == []
    early = GameState({"p": Unit("p", "1 Para", "Allied", "infantry", 4)}, {"p": staged}, 5, "allied-combat")
    assert said(run(early, **params)) == [
        "Allied 1 Para (box 'Allied Staging Area') is in play on Game-Turn 5: it "
        "arrived early; it enters on Game-Turn 6 [N12]"
    ]
    late = GameState({"p": Unit("p", "1 Para", "Allied", "infantry", 4)}, {"p": at("box:GT 6")}, 7, "allied-movement")
    assert said(run(late, **params), Severity.INFO) == [
        "Allied 1 Para still off the map after the allied-movement phase of Game-Turn 6: late or held back (it "
        "enters on Game-Turn 6) [N12]"
    ]
    e = parse_entry(context(), entry, "entries[0]", {})
    assert [context().label(h) for h in e.hexes] == ["2020", "3010"] and e.boxes == {"staging"}


def test_sc_1_a_region_of_rows_is_an_entry_area() -> None:
    """Seed 003 Sc.1: "The Italian Units can not move north of hexrow XX.10 or south of hexrow
    XX.17" - the rows an entry may be written as ("row>=10 * row<=17" is not needed: "row<10"
    names rows 1-9). An entry `at` a region holds every hex of it, and no other."""
    e = parse_entry(context(), {"turn": 1, "at": ["row<3"], "units": ["X"]}, "entries[0]", {})
    assert len(e.hexes) == 2 * 39 and {context().label(h)[2:] for h in e.hexes} == {"01", "02"}


# -- turns by label -------------------------------------------------------------------------------
def test_sc_2_italians_withheld_to_1300_compared_in_the_order_of_the_day() -> None:
    """Seed 003 Sc.2: "Italians may withhold any units to 1300" (from 0900): `turns = ["May 27
    0900", "May 27 1300"]` is Game-Turns 1 to 3 of the pack's turn_sequence. Waiting at 1300 is
    legal; still waiting after the Axis movement of 1300, late or held back; on the map at 1500,
    on time."""
    params = {**AXIS, "entries": [{"turns": ["May 27 0900", "May 27 1300"], "at": ["3918"], "units": ["1/X/132"]}]}
    waiting = game(("Axis", "1/X/132", "box:Turn 3"), turn=3, phase="axis-movement")
    assert run(waiting, **params) == []
    late = game(("Axis", "1/X/132", "box:Turn 3"), turn=4, phase="axis-movement")
    assert said(run(late, **params), Severity.INFO) == [
        "Axis 1/X/132 still off the map after the axis-movement phase of Game-Turn 3: late or held back (it enters on "
        "Game-Turn 1 to 3 (May 27 0900 to May 27 1300)) [N12]"
    ]
    assert run(game(("Axis", "1/X/132", "3918"), turn=5, phase="axis-movement"), **params) == []


def test_a_turn_label_not_in_the_sequence_names_its_key() -> None:
    with pytest.raises(
        ValueError,
        match=r"entries\[0\]\.turns\[1\]: 'May 28 1300' is not a turn of the pack's "
        r"\[state\] turn_sequence",
    ):
        run(game(), **{**AXIS, "entries": [{"turns": ["May 27 0900", "May 28 1300"], "at": ["3918"], "units": ["X"]}]})


# -- each unit's own turn ------------------------------------------------------------------------------
R_EVENT = {"side": "Allied", "within": 0, "of": ["row<17"], "units": {"not_flags": ["air"]}}


def kesselring(*units: tuple[str, str], turn: int, allied: str | None = None, air: bool = False) -> list[Finding]:
    """Axis reinforcements reading their GT from their counter (attribute "arrival"), and an
    Allied unit (an air unit if `air`) at `allied`. They arrive in the Reinforcement Display (7.2:
    "moved from the TRT to their respective Reinforcement Displays on the GT they become
    available") and deploy in the Staging Area or, paratroops, at an airfield (7.3)."""
    codes = {"4 FJ": 6, "1 FJ": 4, "Hermann Goering": "R"}
    placed = [("Axis", n, w) for n, w in units] + ([("Allied", "US 1", allied)] if allied else [])
    st = game(
        *placed,
        turn=turn,
        phase="allied-movement",
        attrs={n: {"arrival": codes[n]} for n, _ in units},
        flags={"US 1": frozenset({"air"})} if air else {},
    )
    return run(
        st,
        "7.1",
        **{
            **AXIS,
            "events": {"R": R_EVENT},
            "entries": [
                {
                    "turn_from": "attr:arrival",
                    "at": ["box:Axis Reinforcement Display", "box:Axis Staging Area", "place-kind:airfield"],
                    "units": {"sides": ["Axis"], "not_flags": ["garrison"]},
                }
            ],
        },
    )


def test_7_1_the_game_turn_printed_on_the_counter() -> None:
    """Seed 004 7.1: "Reinforcement units have either a GT number or ... an "R" printed on the
    counter. Example: The German 4th Parachute Division becomes available on GT 6." On GT 5 the 4
    FJ in play arrived early; the 1 FJ (GT 4) may be; on GT 6 the 4 FJ is on time."""
    assert said(kesselring(("4 FJ", "box:Axis Reinforcement Display"), ("1 FJ", "2010"), turn=5)) == [
        "Axis 4 FJ (box 'Axis Reinforcement Display') is in play on Game-Turn 5: it arrived early; it enters on "
        "Game-Turn 6 [7.1]"
    ]
    assert kesselring(("4 FJ", "2010"), turn=6) == []


def test_7_1_1_r_units_come_after_allied_ground_units_reach_the_cassino_row() -> None:
    """Seed 004 7.1.1: "German units marked with a "R" ... may be selected as reinforcements only if
    one or more Allied ground units occupy any hexes in mainland Italy on or north of the hex row
    which includes Monte Cassino". The counter's "R" is the name of the schedule's event "R"; the row stands
    here as rows 1-16 ("row<17"), ground units as units not flagged air. An Allied ground unit in
    1516 makes the Hermann Goering's entry legal (when it happened, a save does not show); with none
    north of the row, or only an air unit there, whether it may be in play one save cannot tell."""
    assert kesselring(("Hermann Goering", "2010"), turn=3, allied="1516") == []
    for allied, air in (("1520", False), ("1516", True)):
        found = kesselring(("Hermann Goering", "2010"), turn=3, allied=allied, air=air)
        assert said(found) == [] and len(said(found, Severity.INFO)) == 1
        assert "no Allied unit (units not air) is within 0 hexes of row<17 now" in found[0].message


def test_an_arrival_neither_a_turn_nor_a_label_nor_an_event_is_said_not_guessed() -> None:
    """A counter whose arrival code the pack does not know is not judged, and the finding says why."""
    st = game(("Axis", "X", "2010"), turn=3, attrs={"X": {"arrival": "Q"}})
    found = run(st, **{**AXIS, "entries": [{"turn_from": "attr:arrival", "at": ["3918"], "units": ["X"]}]})
    assert said(found, Severity.INFO) == [
        "Axis X show no arrival that is a Game-Turn, a turn label or an event, so "
        "when they may enter is not checked [N12]"
    ]


def test_tunisia_6_3_the_em_comes_back_at_the_end_of_the_turn_its_box_shows() -> None:
    """Seed 001 6.3: the destroyed EM is "placed on the turn track ... at the end of the indicated
    turn, the EM is replaced on the map". The box it waits in gives its turn (`turn_from = "box"`);
    the end of the turn is its last phase. In the box of turn 3 on turn 3 it is on time; on turn 4
    still there, late; an EM on the map shows its box no more, and the finding says it is not
    judged."""
    params = {
        **AXIS,
        "phases": ["axis-movement", "axis-combat"],
        "movement_phase": "axis-combat",
        "entries": [{"turn_from": "box", "at": ["row<27"], "units": {"kinds": ["em"]}}],
    }
    em = {"EM 10": "em", "EM 21": "em"}
    assert run(game(("Axis", "EM 10", "box:Turn 3"), turn=3, phase="axis-combat", kinds=em), **params) == []
    late = run(game(("Axis", "EM 10", "box:Turn 3"), turn=4, phase="axis-movement", kinds=em), **params)
    assert said(late, Severity.INFO) == [
        "Axis EM 10 still off the map after the axis-combat phase of Game-Turn 3: "
        "late or held back (it enters on Game-Turn 3) [N12]"
    ]
    on_map = run(game(("Axis", "EM 21", "2010"), turn=4, phase="axis-movement", kinds=em), **params)
    assert said(on_map, Severity.INFO) == [
        "Axis EM 21 are in no Game-Turn box (in play, or elsewhere): the box they waited in showed their turn, so "
        "when they may enter is not checked [N12]"
    ]


# -- repeatable entries ----------------------------------------------------------------------------------
def test_7_5_1_a_demobilized_garrison_may_deploy_in_any_later_gt() -> None:
    """Seed 004 7.5.1: "Demobilized garrisons are returned to their respective Reinforcement
    displays and may be deployed as reinforcements in subsequent GTs." A garrison entry from GT 1,
    repeatable, has no last turn: a garrison waiting in the display on GT 9 is not late; the same
    entry not repeatable says it is."""
    entry = {"turn": 1, "at": ["place-kind:port"], "units": {"kinds": ["garrison"]}}
    params = {**AXIS, "boxes": {"turn": "Turn {turn}", "conditional": "{side} Reinforcement Display"}}
    st = game(
        ("Axis", "Gar Napoli", "box:Axis Reinforcement Display"),
        turn=9,
        phase="allied-movement",
        kinds={"Gar Napoli": "garrison"},
    )
    assert run(st, **params, entries=[{**entry, "repeatable": True}]) == []
    assert len(said(run(st, **params, entries=[entry]), Severity.INFO)) == 1


def test_s5_1_units_removed_from_an_entry_hex_come_back_in_any_turn_of_the_window() -> None:
    """Seed 003 S5.1: units left in a Reinforcement entry hex "may be removed from the map at the
    end of the turn. Two turns later, they come back into the game and can be placed in any
    available Reinforcement entry hexes." The Sc.2 Italians enter from 0900 to 1900, repeatable:
    a unit back in the box of 1500 (Game-Turn 4) on 1300 waits for its next entry, not a return
    placed too far ahead (the `returns` rule, after = 2, would allow up to 1500 anyway); entering
    at 1700 is in the window. Before 0900 it is early, repeatable or not."""
    params = {
        **AXIS,
        "returns": [{"units": {"sides": ["Axis"]}, "after": 2}],
        "entries": [
            {
                "turns": ["May 27 0900", "May 27 1900"],
                "repeatable": True,
                "at": ["place-kind:entry"],
                "units": ["1/VIII/132"],
            }
        ],
    }
    assert run(game(("Axis", "1/VIII/132", "box:Turn 4"), turn=3, phase="axis-combat"), **params) == []
    assert run(game(("Axis", "1/VIII/132", "box:Turn 6"), turn=3, phase="axis-combat"), **params) == []
    assert run(game(("Axis", "1/VIII/132", "3918"), turn=5, phase="axis-combat"), **params) == []
    assert len(said(run(game(("Axis", "1/VIII/132", "3918")), **params))) == 1
    words = said(run(game(("Axis", "1/VIII/132", "box:Turn 6"), turn=7, phase="axis-combat"), **params), Severity.INFO)
    assert words == [
        "Axis 1/VIII/132 still off the map after the axis-movement phase of Game-Turn 6: late or held "
        "back (it enters on any Game-Turn from 1 to 6 (May 27 0900 to May 27 1900), again after leaving "
        "play) [N12]"
    ]


@pytest.mark.parametrize(
    ("entry", "match"),
    [
        ({"after": "e", "repeatable": True}, r"entries\[0\]\.repeatable: expected true or false, and true only with"),
        ({"turn": 1, "repeatable": "yes"}, r"entries\[0\]\.repeatable: expected true or false"),
        ({"turn_from": "counter"}, r"entries\[0\]\.turn_from: expected 'attr:<name>' or 'box'"),
        ({"turn": 1, "turn_from": "box"}, r"entries\[0\]: expected exactly one of 'turn'.*'turn_from'"),
        ({"turn": 1, "units": {"colour": ["red"]}}, r"entries\[0\]\.units\.colour: unknown key"),
    ],
)
def test_an_n12_entry_that_does_not_fit_names_its_key(entry: dict[str, Any], match: str) -> None:
    full = {"at": ["3918"], "units": ["X"], **entry}
    with pytest.raises(ValueError, match=match):
        run(game(), **{**AXIS, "events": {"e": {"unknown": "why"}}, "entries": [full]})


def test_the_order_of_battle_doctests() -> None:
    import doctest

    assert doctest.testmod(reinforcement_check).failed == 0 and doctest.testmod(setup_deploy).failed == 0


def test_an_arrival_label_on_the_counter_is_its_turn_and_verify_never_calls_an_unread_turn_legal() -> None:
    """Seed 003's turns are labels ("May 27 1300", Sc.2): a counter whose arrival attribute is a
    label enters on that label's Game-Turn (3 here), so in play at 1100 it arrived early. The turn
    of such an entry is the unit's own: a move judged without the unit (`entry_due`, as `verify`
    asks it) is "unknown", never on time."""
    st = game(("Axis", "X", "2010"), turn=2, phase="allied-movement", attrs={"X": {"arrival": "May 27 1300"}})
    entry = {"turn_from": "attr:arrival", "at": ["3918"], "units": ["X"]}
    assert said(run(st, **{**AXIS, "entries": [entry]})) == [
        "Axis X (2010) is in play on Game-Turn 2: it arrived early; it enters on Game-Turn 3 (May 27 1300) [N12]"
    ]
    e = parse_entry(context(), entry, "entries[0]", {})
    assert entry_due(e, st, moment(st), 0, str)[3] == "unknown"


def test_pieces_of_one_name_picked_by_a_selector_are_judged_once_each() -> None:
    """Seed 004 7.5: "To deploy a Garrison unit, one AP is expended and the unit may be placed in
    any city, port or airfield hex". Two Garrison pieces of one printed name, picked by their
    class and on the map before the entry's GT 2, are two errors, not four."""
    st = GameState(
        {u: Unit(u, "Garrison", "Axis", "garrison", 1) for u in ("g1", "g2")},
        {"g1": at("2020"), "g2": at("3010")},
        1,
        "allied-movement",
    )
    found = run(st, **AXIS, entries=[{"turn": 2, "at": ["place-kind:port"], "units": {"kinds": ["garrison"]}}])
    assert [f.units for f in found if f.severity == Severity.ERROR] == [("g1",), ("g2",)]
