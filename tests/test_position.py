"""A module and a save resolved once into a position (issue 12, "the house"; vassal_adj/position.py).

The position holds the maps placed as the save laid them out, the pieces with their map, label and
name, and the units the pack makes of them. One `verify` or `check` resolves each file once and
passes the position to state building, the log's history, the VP change and the page: counted
here. A log's intermediate states carry what its end carries (N18: composite turns, night,
globals and tracks), worked from No Question of Surrender 2.0 and Kesselring's War 5.2; the HTML
figure is cut from the map the pack plays on (``[state] map``).
"""

from __future__ import annotations

import dataclasses
from collections import Counter
from typing import Any

import pytest
from click.testing import CliRunner
from conftest import REPO
from test_state_tracks import DAY_TIME, day_time, day_time_module, loaded, pack_with, prop, save_with
from test_vassal_accepts import oracle_pieces

import vassal_adj
import vassal_adj.model.geometry.maps as maps
import vassal_adj.parse.builder as builder
import vassal_adj.parse.places as places
import vassal_adj.pbem.replay as replay_module
import vassal_adj.position as position
from vassal_adj.cli import main
from vassal_adj.codec.obfuscation import Codec
from vassal_adj.packs import find_pack
from vassal_adj.parse.commands import Node, encode
from vassal_adj.pbem.log_state import log_history, opening_turn
from vassal_adj.position import resolve
from vassal_adj.report.figures import Figures
from vassal_adj.rules.packs.unitmap import UnitMap
from vassal_adj.savedgame import SavedGame
from vassal_adj.state_builder import game_state, state_of

EXAMPLE = REPO / "modules" / "kasserine" / "example"
MODULE = EXAMPLE / "Kasserine.vmod"


def counting(monkeypatch: pytest.MonkeyPatch) -> Counter[str]:
    """Count each map placed (by name), each map's boards laid out (by name), each save's pieces
    built, each labeler of places made, and each piece mapped to a unit (by id)."""
    seen: Counter[str] = Counter()
    place_map, game_pieces, map_piece = maps.place_map, position.game_pieces, UnitMap.map_piece
    place_boards, labeler = maps.place_boards, places.labeler

    def placed(map_def: Any, *args: Any) -> Any:
        seen[f"map {map_def.name}"] += 1
        return place_map(map_def, *args)

    def laid(map_def: Any, *args: Any) -> Any:
        seen[f"boards {map_def.name}"] += 1
        return place_boards(map_def, *args)

    def labels(*args: Any) -> Any:
        seen["labelers"] += 1
        return labeler(*args)

    def built(*args: Any) -> Any:
        seen["pieces built"] += 1
        return game_pieces(*args)

    def mapped(self: UnitMap, piece: Any) -> Any:
        seen[f"piece {piece.id}"] += 1
        return map_piece(self, piece)

    # maps.place_map as module_map (maps.py) calls it, and by the name position.py imported.
    for target, name, fake in (
        (maps, "place_map", placed),
        (position, "place_map", placed),
        (position, "game_pieces", built),
        (maps, "place_boards", laid),
        (places, "place_boards", laid),
        (position, "labeler", labels),
        (replay_module, "labeler", labels),
        (builder, "labeler", labels),
        (UnitMap, "map_piece", mapped),
    ):
        monkeypatch.setattr(target, name, fake)
    return seen


def run(*args: str) -> None:
    r = CliRunner().invoke(main, [*args, "--module", str(MODULE)])
    assert r.exit_code in (0, 1), r.output  # 1: the example's faults are found


@pytest.mark.parametrize(
    "command", [("verify", "turn4-axis.vlog"), ("check", "turn3-faults.vsav"), ("check", "turn4-axis.vlog")]
)
def test_one_command_places_each_map_once_and_maps_each_piece_once(
    monkeypatch: pytest.MonkeyPatch, command: tuple[str, str]
) -> None:
    """Before the position, one `verify` of turn4-axis.vlog placed the module's maps 12 times and
    mapped each of its 99 pieces to a unit 4 times (state building, the walk's markers, the
    VP history's start and end); one `check` of turn3-faults.vsav placed them 3 times. After it, the
    log's replay still made its own labeler, laying every map's boards out a second time."""
    seen = counting(monkeypatch)
    run(command[0], str(EXAMPLE / command[1]))
    placed = {k: n for k, n in seen.items() if k.startswith("map ")}
    assert placed and all(n == 1 for n in placed.values()), placed
    assert seen["pieces built"] == 1
    mapped = {k: n for k, n in seen.items() if k.startswith("piece ")}
    assert len(mapped) == 99 and set(mapped.values()) == {1}  # 96 counters, two withdrawal markers, the turn marker
    # The log's replay labels its places with the position's labeler: one labeler, each map's
    # boards laid out once (before, the replay made a second labeler and laid every map out again).
    boards = {k: n for k, n in seen.items() if k.startswith("boards ")}
    assert boards.keys() == {f"boards {k[4:]}" for k in placed} and set(boards.values()) == {1}, boards
    assert seen["labelers"] == 1


def test_a_position_given_is_the_one_used_and_must_be_of_the_same_files() -> None:
    """`game_state` with the position of its own module, save and pack places nothing again; the
    position of another save is a programming error, not a silent second reading."""
    module, game, lp = (
        vassal_adj.load_module(MODULE),
        vassal_adj.load_save(EXAMPLE / "turn3-faults.vsav"),
        find_pack("kasserine"),
    )
    pos = resolve(module, game, lp)
    state, _, _ = game_state(module, game, lp, position=pos)
    assert state.positions == game_state(module, game, lp)[0].positions
    with pytest.raises(AssertionError):
        game_state(module, vassal_adj.load_save(EXAMPLE / "setup.vsav"), lp, position=pos)


def log_of(game: SavedGame, *commands: str) -> SavedGame:
    """`game` followed by one logged step per command, as VASSAL writes a log (spec 5.6)."""
    root = game.root
    steps = [Node(f"LOG\t{c}") for c in commands]
    return SavedGame.new(encode(Node(root.text, [*root.children, *steps])), codec=Codec(True, 7), path="built.vlog")


def test_nqos_2_0_and_kw_5_2_a_logs_every_state_shows_the_turn_and_the_track() -> None:
    """NQoS 2.0: "The Night turn begins the turn after the 1900 turn." KW 5.2: "A side can never
    have more AP than the maximum indicated on the AP Track" (5.2.1: the Allies reach 11 AP).
    A log opening on June 8 1700 with 6 Allied AP, that moves the tracker to 1900, sets the AP to
    11 and moves the tracker to Night, passes through the 7th turn (day, 6 AP), the 8th (day,
    6 AP), the 8th with 11 AP, and the 9th, a night turn with 11 AP: each intermediate state
    shows them as the end does (before, only the end had a composite turn, globals or tracks)."""
    lp = loaded(
        pack_with(
            {
                **DAY_TIME,
                "globals": {"ap": "Allied AP"},
                "tracks": {"allied_ap": {"property": "Allied AP", "min": 0, "max": 20}},
            }
        )
    )
    game = log_of(
        save_with(prop("Allied AP", "6"), turn_state=day_time("June 8", "1700")),
        f"TURNTurnTracker0\t{day_time('June 8', '1900')}",
        "MutableProperty\tAllied AP\t6\t11\tModule",
        f"TURNTurnTracker0\t{day_time('June 8', 'Night')}",
    )
    states = log_history(day_time_module(), game, lp).states
    shown = [
        (s.turn, s.turn_label, s.night, s.globals.get("ap"), s.track("allied_ap").value)  # type: ignore[union-attr]
        for s in states
    ]
    assert shown == [
        (7, "June 8 1700", False, "6", 6),
        (8, "June 8 1900", False, "6", 6),
        (8, "June 8 1900", False, "11", 11),
        (9, "June 8 Night", True, "11", 11),
    ]


def test_nqos_2_0_a_log_opening_on_the_night_turn_opens_on_the_9th_turn() -> None:
    """NQoS 2.0: "The Night turn begins the turn after the 1900 turn": a log whose saved part
    leaves the tracker on June 8 Night opens on the 9th turn of the sequence (the turn `verify`
    judges its first moves in), whatever its steps move the tracker to."""
    lp = loaded(pack_with(DAY_TIME))
    game = log_of(save_with(turn_state=day_time("June 8", "Night")), f"TURNTurnTracker0\t{day_time('June 9', '0500')}")
    assert opening_turn(day_time_module(), game, lp) == (9, None)


def test_kw_5_2_the_state_a_log_opens_with_shows_the_track_as_it_opens() -> None:
    """KW 5.2.1: the Allies reach 11 AP. A log that opens with 6 Allied AP and sets 11 in a step:
    the state `verify` walks it from (`opening`) shows 6 AP on the 7th turn, the log's end 11 AP
    on the 8th, each as the module showed it then."""
    lp = loaded(pack_with({**DAY_TIME, "tracks": {"allied_ap": {"property": "Allied AP", "min": 0, "max": 20}}}))
    game = log_of(
        save_with(prop("Allied AP", "6"), turn_state=day_time("June 8", "1700")),
        "MutableProperty\tAllied AP\t6\t11\tModule",
        f"TURNTurnTracker0\t{day_time('June 8', '1900')}",
    )
    pos = resolve(day_time_module(), game, lp)
    start, end = state_of(pos, turn=7, opening=True)[0], state_of(pos)[0]
    assert (start.turn_label, start.track("allied_ap").value) == ("June 8 1700", 6)  # type: ignore[union-attr]
    assert (end.turn, end.turn_label, end.track("allied_ap").value) == (8, "June 8 1900", 11)  # type: ignore[union-attr]


def test_a_property_no_rule_reads_makes_no_new_state() -> None:
    """A log step that only changes a property the pack does not read (a die roll's result) leaves
    the position as it was: no state is added for it, as none was before."""
    lp = loaded(pack_with({**DAY_TIME, "globals": {"ap": "Allied AP"}}))
    game = log_of(save_with(turn_state=day_time("June 8", "1700")), "MutableProperty\t2d6_result\t1,1\t3,5\tModule")
    assert len(log_history(day_time_module(), game, lp).states) == 1


def with_map_before(module: Any, name: str) -> Any:
    """`module` with a copy of its map `name` put first, under another name and id."""
    first = module.maps[name]
    copy = dataclasses.replace(first, name="Second Front", id="Map9")
    return dataclasses.replace(module, maps={"Second Front": copy, **module.maps})


def test_the_html_figure_is_cut_from_the_map_the_pack_plays_on() -> None:
    """A module whose first map with a numbered hex grid is not the one the game is played on: the
    pack names its map ([state] map = "Main Map", N18), and the page's figure is that map, not the
    first one; without a pack (no position) the first numbered map is all there is to go by."""
    module = with_map_before(vassal_adj.load_module(MODULE), "Main Map")
    game = vassal_adj.load_save(EXAMPLE / "turn3-faults.vsav")
    lp = loaded(pack_with({"map": "Main Map"}))

    def figure(**given: Any) -> Figures:
        return Figures(module, game, str(MODULE), **given)

    assert figure().map_names == ("Second Front", "Map9")
    drawn = figure(position=resolve(module, game, lp))
    assert drawn.map_names == ("Main Map", module.maps["Main Map"].id)
    assert drawn.on_map(resolve(module, game, lp).pieces)  # the example's units are on it


def test_vassal_names_every_piece_of_the_position_as_it_does() -> None:
    """The pieces of a position, labelled with the boards the position placed once, are where and
    as VASSAL (3.6, headless) shows them."""
    result = oracle_pieces(MODULE, EXAMPLE / "turn3-faults.vsav")
    vassal = {p["id"]: (p["name"], p["map"], p["x"], p["y"], p["location"]) for p in result["result"]["pieces"]}
    pos = resolve(
        vassal_adj.load_module(MODULE), vassal_adj.load_save(EXAMPLE / "turn3-faults.vsav"), find_pack("kasserine")
    )
    assert {p.id: (p.name, p.map, p.x, p.y, p.location) for p in pos.pieces} == vassal
