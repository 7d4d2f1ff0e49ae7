"""Reinforcements into boxes only (RULES-MAP N12): an entry whose `at` names only off-map boxes
(``"box:<name or [boxes] kind>"``) brings its units into the box, never onto the map.

No Question of Surrender S5.2 Artillery Parks: "When Italian and German Indirect HE Units arrive
as reinforcements, they will either be placed in Artillery Park A or Artillery Park B" (the 103
Ariete's DLI: "placed in Artillery Park A"). Kesselring's War 7.6 Air and Naval Units: "Air and
naval units deploy into their respective Staging Areas. They never deploy directly onto the map."

`check` on a save judges such a unit in its box as in any arrival box (in play from its turn on,
early before it); `verify` judges its move onto the map an error citing the entry's rule: by
that entry it arrives in the box, not on the map. The seeds' boards are not in the repository:
the moves are made on the example module's board, its 3-2-16 (580) standing in for the units.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest
from test_reinforcements_n12 import AXIS, DAY, context, game, run, said
from test_turn_moves import RECCE, ctx, rules, state  # noqa: F401 (ctx, rules: fixtures)
from test_turn_moves import run as move

from vassal_adj.model.state import Box, GameState, Position
from vassal_adj.model.units import Unit
from vassal_adj.rules.mechanisms.reinforcement_entries import parse_entry
from vassal_adj.rules.mechanisms.setup import DEFAULT_PHASES
from vassal_adj.rules.mechanisms.turn_rules import Reinforcements
from vassal_adj.rules.results import Severity

PARKS = {"turn": "May 27 1100", "at": ["box:Artillery Park A", "box:Artillery Park B"], "units": ["DLI"]}
STAGING = {"turn": 6, "at": ["box:staging"], "units": ["II/KG 26"]}


def test_s5_2_7_6_an_entry_into_boxes_only_is_read_with_no_hex() -> None:
    """S5.2's two parks by name, 7.6's Staging Area by its [boxes] kind: read, with no hex."""
    parks = parse_entry(context(), PARKS, "entries[0]", {})
    assert (parks.hexes, parks.boxes, parks.turn) == ((), {"artillery park a", "artillery park b"}, 2)
    staging = parse_entry(context(), STAGING, "entries[0]", {})
    assert (staging.hexes, staging.boxes) == ((), {"staging"})


def test_an_entry_with_no_hex_and_no_box_is_refused_with_its_key() -> None:
    """Somewhere to arrive is needed: hexes, or boxes only. A region no hex is in, with no box,
    names nowhere, and is refused naming its key."""
    with pytest.raises(ValueError, match=r"^entries\[0\]\.at: .* names no hex of the board"):
        parse_entry(context(), {**PARKS, "at": ["row>90"]}, "entries[0]", {})


def test_s5_2_check_judges_the_dli_in_its_artillery_park_as_in_any_arrival_box() -> None:
    """The DLI enters on May 27 1100 (Game-Turn 2 of the day). In Artillery Park A on 1100 or
    after, it is in play on time: nothing to say. In the park on 0900 it arrived early. Still in
    the Game-Turn box of 1100 on 1300, it is late or held back."""
    params = {**AXIS, "entries": [PARKS]}
    assert run(game(("Axis", "DLI", "box:Artillery Park A"), turn=2, phase="axis-combat"), **params) == []
    assert run(game(("Axis", "DLI", "box:Artillery Park B"), turn=5, phase="axis-combat"), **params) == []
    assert said(run(game(("Axis", "DLI", "box:Artillery Park A"), turn=1, phase="axis-combat"), **params)) == [
        f"Axis DLI (box 'Artillery Park A') is in play on Game-Turn 1: it arrived early; it enters on Game-Turn 2 "
        f"({DAY[1]}) [N12]"
    ]
    assert said(run(game(("Axis", "DLI", "box:Turn 2"), turn=3, phase="axis-movement"), **params), Severity.INFO) == [
        "Axis DLI still off the map after the axis-movement phase of Game-Turn 2: late or held back (it enters "
        f"on Game-Turn 2 ({DAY[1]})) [N12]"
    ]


def test_7_6_check_judges_an_air_unit_in_its_staging_area_by_the_box_kind() -> None:
    """KW 7.6: the II/KG 26 (an air unit) deploys into the Axis Staging Area (a box of [boxes] kind
    "staging") on GT 6: there on GT 6 it is in play; there on GT 5, early."""
    staged = Position(box="Axis Staging Area", named=Box("staging", "staging"))
    params = {**AXIS, "entries": [STAGING]}

    def in_staging(turn: int) -> GameState:
        return GameState({"k": Unit("k", "II/KG 26", "Axis", "air", 0)}, {"k": staged}, turn, "axis-combat")

    assert run(in_staging(6), **params) == []
    assert said(run(in_staging(5), **params)) == [
        "Axis II/KG 26 (box 'Axis Staging Area') is in play on Game-Turn 5: it arrived early; it enters on "
        "Game-Turn 6 [N12]"
    ]


def boxed_rules(base: Any, context_: Any, entry: dict[str, Any], ref: str) -> Any:
    """The Kasserine turn rules with one Axis reinforcement entry for the 3-2-16 (580)."""
    e = parse_entry(context_, {**entry, "units": ["3-2-16 (580)"]}, "entries[0]", {})
    return replace(base, reinforcements=(Reinforcements("Axis", (e,), "axis-movement", DEFAULT_PHASES, ref),))


@pytest.mark.parametrize(
    ("entry", "ref", "box", "words"),
    [
        ({**PARKS, "turn": 2}, "S5.2", "Artillery Park A", "'Artillery Park A' or 'Artillery Park B'"),
        ({**STAGING, "turn": 2}, "7.6", "Axis Staging Area", "'staging'"),
    ],
)
def test_s5_2_7_6_a_unit_that_arrives_in_a_box_never_enters_the_map_by_its_entry(
    ctx: Any,  # noqa: F811
    rules: Any,  # noqa: F811
    entry: dict[str, Any],
    ref: str,
    box: str,
    words: str,
) -> None:
    """S5.2: the units "will either be placed in Artillery Park A or Artillery Park B"; 7.6: "They
    never deploy directly onto the map." A move of such a unit from its box onto the map, on its
    own Game-Turn, is an error citing the entry's rule: it arrives in the box, not on the map."""
    pc = move(
        ctx,
        boxed_rules(rules, ctx, entry, ref),
        state(ctx, {RECCE: f"box:{box}"}, 2, "axis-movement"),
        (RECCE, f"box:{box}", "2526"),
    )
    assert [(f.rule, f.severity, f.message) for f in pc.findings] == [
        (
            f"kasserine:{ref}",
            Severity.ERROR,
            f"Axis 3-2-16 (580) moved box '{box}' -> 2526: it arrives in box {words}, not on the map [{ref}]",
        )
    ]
    (mc,) = pc.moves
    assert (mc.kind, mc.ok, mc.rule) == ("entry", False, f"kasserine:{ref}")


def test_an_entry_with_hexes_besides_the_boxes_still_brings_the_unit_onto_the_map(ctx: Any, rules: Any) -> None:  # noqa: F811
    """KW 7.3: "Allied mobile ground units may deploy in the Allied Staging Area, any
    Allied-controlled functional port": an entry with a hex besides its box is judged as an entry
    onto the map from that hex (here 2526 on Game-Turn 2: legal)."""
    entry = {"turn": 2, "at": ["box:staging", "2526"]}
    pc = move(
        ctx,
        boxed_rules(rules, ctx, entry, "7.3"),
        state(ctx, {RECCE: "box:Turn 2"}, 2, "axis-movement"),
        (RECCE, "box:Turn 2", "2526"),
    )
    assert [f.severity for f in pc.findings] == [Severity.INFO] and "legal" in pc.findings[0].message
