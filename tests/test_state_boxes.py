"""``[boxes]`` (named off-map boxes with a kind, a side and a number) and ``[state] map`` (the
map the game is played on): RULES-MAP section 7.

Worked on the example module's holding boxes (Turn 1-12, Axis / Allied Conditional,
Eliminated, Exited) and on the words of the seeds that name boxes.
"""

from __future__ import annotations

import dataclasses
import tomllib
from typing import Any

import pytest
from conftest import REPO
from test_23_setup import PACK, run

import vassal_adj
from vassal_adj.errors import PackError, UsageError
from vassal_adj.model.state import Box, GameState, Position
from vassal_adj.model.units import Unit
from vassal_adj.packs import find_pack
from vassal_adj.rules.history import History
from vassal_adj.rules.mechanisms.withdrawal import second_declarations
from vassal_adj.rules.packs.pack import RulePack
from vassal_adj.rules.packs.pack_ctx import PackContext
from vassal_adj.rules.packs.pack_state import read_boxes
from vassal_adj.rules.results import Severity
from vassal_adj.state_builder import game_state, named_box

AXIS = {k: v for k, v in PACK["rules"]["axis_reinforcements"].items() if k not in ("impl", "rule_ref")}
EXAMPLE = REPO / "modules" / "kasserine" / "example"
PACK_TOML = REPO / "modules" / "kasserine" / "pack.toml"
# Kesselring's War 2.9: "Each side also has a set of displays used to hold units and markers not
# placed on the map; these include a Reinforcement Display, Withdrawn Units Display, Permanently
# Eliminated Units Display, and Staging Area." The example's boxes stand in for them.
BOXES = {
    "turn": {"regex": r"Turn (\d+)", "kind": "turn"},
    "axis-reinforcements": {"regex": "Axis Conditional", "kind": "reinforcement", "side": "Axis"},
    "allied-reinforcements": {"regex": "Allied Conditional", "kind": "reinforcement", "side": "Allied"},
    "eliminated": {"regex": "Eliminated", "kind": "eliminated"},
}


def pack_data(state: dict[str, Any] | None = None, boxes: dict[str, Any] | None = None) -> dict[str, Any]:
    data = tomllib.loads(PACK_TOML.read_text(encoding="utf-8"))
    data["state"] = {**data["state"], **(state or {})}
    data.pop("boxes", None)  # the Kasserine pack's own; each test gives the boxes it reads
    if boxes is not None:
        data["boxes"] = boxes
    return data


def state_of(save: str, **kw: Any) -> Any:
    lp = find_pack("kasserine")
    lp = dataclasses.replace(lp, pack=RulePack.from_mapping(pack_data(**kw), source="pack.toml"))
    module = vassal_adj.load_module(EXAMPLE / "Kasserine.vmod")
    return game_state(module, vassal_adj.load_save(EXAMPLE / save), lp)


def test_kasserine_23_units_waiting_in_turn_boxes_are_numbered_by_their_turn() -> None:
    """Kasserine 23 lists reinforcements by Game-Turn ("Enter Reinforcing units on the hex
    listed"); the example's set-up puts each in the box of its turn. With [boxes], the box
    "Turn 2" is kind "turn", number 2, and `in_boxes("turn", number=2)` finds its units without
    naming a label: among them the Axis 580 (23: turn 2 at 2526) and the Allied 3/39 (turn 2 at 0105)."""
    state, _, _ = state_of("setup.vsav", boxes=BOXES)
    turn2 = {state.units[u].name for u in state.in_boxes("turn", number=2)}
    assert "3-2-16 (580)" in turn2 and "1-2-7 (3/39)" in turn2
    some = next(u for u in state.in_boxes("turn", number=2))
    assert state.positions[some].named == Box("turn", "turn", "", 2)
    assert state.positions[some].box == "Turn 2"  # the VASSAL name stays
    assert not state.in_boxes("turn", number=3)  # the set-up has no turn-3 box in use


def test_kesselrings_war_2_9_each_side_has_its_own_reinforcement_display() -> None:
    """KW 2.9: "Each side also has a set of displays": the side of a box comes from the pack, so a
    rule asks for the Axis reinforcement display and gets the units in "Axis Conditional" (the
    1/47 and 2/47 of Kasserine 23's conditional entry) and none of the Allied one's."""
    state, _, _ = state_of("setup.vsav", boxes=BOXES)
    axis = {state.units[u].name for u in state.in_boxes("reinforcement", side="Axis")}
    allied = set(state.in_boxes("reinforcement", side="Allied"))
    assert axis == {"3-4-11 (1/47)", "3-4-11 (2/47)"}
    assert allied and not allied & set(state.in_boxes("reinforcement", side="Axis"))
    assert all(state.units[u].side == "Allied" for u in allied)


def test_kasserine_eliminated_units_are_in_the_eliminated_box_not_on_the_map() -> None:
    """The example's turn-3 save has units in "Eliminated" (Kasserine 22.0: "Victory Points are
    added ... for destroyed Allied units"): kind
    "eliminated", no side (both sides share the box), no number."""
    state, _, _ = state_of("turn3-faults.vsav", boxes=BOXES)
    gone = state.in_boxes("eliminated")
    assert gone and all(state.positions[u].named == Box("eliminated", "eliminated") for u in gone)
    assert all(state.positions[u].hex is None for u in gone)


def test_nqos_s5_2_artillery_parks_a_and_b_are_one_kind_of_box() -> None:
    """NQoS S5.2: "they will either be placed in Artillery Park A or Artillery Park B": one
    [boxes] entry names both as kind "artillery-park"; a letter is no number."""
    specs = read_boxes(
        PackContext("pack.toml"), {"park": {"regex": "Artillery Park ([AB])", "kind": "artillery-park", "side": "Axis"}}
    )
    assert named_box("Artillery Park B", specs) == Box("park", "artillery-park", "Axis", None)
    assert named_box("artillery park a", specs) == Box(
        "park", "artillery-park", "Axis", None
    )  # case as VASSAL shows it
    assert named_box("Artillery Park C", specs) is None


def test_without_boxes_positions_name_no_box_kind() -> None:
    state, _, _ = state_of("setup.vsav")
    assert all(p.named is None for p in state.positions.values())


@pytest.mark.parametrize(
    ("boxes", "message"),
    [
        ({"turn": {"regex": "Turn (\\d+"}}, r"boxes.turn.kind: missing required key|boxes.turn: missing"),
        ({"turn": {"regex": "Turn (\\d+", "kind": "turn"}}, "boxes.turn.regex: bad regular expression"),
        ({"turn": {"regex": "Turn", "kind": "turn", "number": 1}}, "boxes.turn.number: unknown key"),
    ],
)
def test_bad_boxes_are_pack_errors_naming_the_key(boxes: dict[str, Any], message: str) -> None:
    with pytest.raises(PackError, match=message):
        RulePack.from_mapping(pack_data(boxes=boxes), source="pack.toml")


def test_the_map_the_pack_names_is_the_one_played_on() -> None:
    """[state] map and board: "Main Map" and its board "Kasserine" are today's default, so the
    positions are the same as with no map named."""
    named, _, _ = state_of("setup.vsav", state={"map": "Main Map", "board": "Kasserine"})
    default, _, _ = state_of("setup.vsav")
    assert named.positions == default.positions and any(p.hex is not None for p in named.positions.values())


def test_an_unknown_map_is_a_usage_error_naming_the_known_maps() -> None:
    with pytest.raises(UsageError, match=r"'Player Aid' .*lacks \(its maps: Main Map, Holding Boxes\)"):
        state_of("setup.vsav", state={"map": "Player Aid"})


def test_a_map_or_board_with_no_numbered_hex_grid_is_a_usage_error() -> None:
    """The holding boxes are zones, not a numbered hex grid: no unit could have a hex there."""
    with pytest.raises(UsageError, match="'Holding Boxes' .*no numbered hex grid"):
        state_of("setup.vsav", state={"map": "Holding Boxes"})
    with pytest.raises(UsageError, match=r"board 'Tunisia' of map 'Main Map'.*boards with one: Kasserine"):
        state_of("setup.vsav", state={"map": "Main Map", "board": "Tunisia"})


# -- rules that read turn boxes by kind (turn_box_kind) ---------------------------------------------
def in_box(name: str, number: int | None) -> Position:
    """A place in a box the pack's [boxes] name kind "turn" (number given) or leave unnamed (None)."""
    return Position(box=name, named=Box("turn", "turn", "", number) if number is not None else None)


def test_kasserine_19_0_a_withdrawal_declared_in_a_turn_box_read_by_kind() -> None:
    """Kasserine 19.0: a player declares his Withdrawal "once (and only once)", by the marker in
    the box of the Game-Turn. A module whose turn boxes are called "GT 5" is read through
    [boxes] (kind "turn", number 5) with turn_box_kind; the name pattern alone finds nothing there.
    The same marker later in the box of turn 6 is a second declaration."""
    history = History(
        [
            GameState({}, {}, 5, markers={"Allied Withdrawal": (in_box("GT 5", 5),)}),
            GameState({}, {}, 6, markers={"Allied Withdrawal": (in_box("GT 6", 6),)}),
        ]
    )
    found = history.declarations("Allied Withdrawal", r"Turn (\d+)", "turn")
    assert [(d.turn, d.index) for d in found] == [(5, 0), (6, 1)]
    assert history.declarations("Allied Withdrawal", r"Turn (\d+)") == ()
    faults = second_declarations(history, {"Allied": "Allied Withdrawal"}, r"Turn (\d+)", "19.0", "turn")
    assert faults and "turn 5, then turn 6" in faults[0]


def test_kasserine_23_a_reinforcement_waits_in_a_turn_box_read_by_kind() -> None:
    """Kasserine 23: the 580 enters on Game-Turn 2. Waiting in a box the pack names kind "turn",
    it is off the map and waiting: late after the Axis movement phase of turn 2 (INFO), as when
    its box is found by name. A box of another name that [boxes] leaves unnamed is no turn box
    then: the unit is "elsewhere", which the rule does not judge as waiting."""
    unit = {"u": Unit("u", "3-2-16 (580)", "Axis", "armor", 16)}
    params = {**AXIS, "turn_box_kind": "turn"}
    named = GameState(unit, {"u": in_box("GT 2", 2)}, 2, "allied-movement")
    found = [f for f in run("reinforcements.schedule", named, **params) if "580" in f.message]
    assert [(f.severity, "late or held back" in f.message) for f in found] == [(Severity.INFO, True)]
    unnamed = GameState(unit, {"u": in_box("Turn 2", None)}, 2, "allied-movement")
    assert not [f for f in run("reinforcements.schedule", unnamed, **params) if "late or held back" in f.message]
