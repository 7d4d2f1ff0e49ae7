"""N18: composite turns, night, tracks, global properties and weather read from the module.

The cases are worked by hand from the rules' words, on saves built from the example module
(modules/kasserine/example) with the pack's ``[state]`` given the keys a game would need, and
on a corpus save that holds global properties (Paths of Glory).
"""

from __future__ import annotations

import dataclasses
import tomllib
from pathlib import Path
from typing import Any

import pytest
from conftest import CORPUS, REPO, need_corpus
from test_vassal_accepts import oracle_pieces

import vassal_adj
from vassal_adj.errors import PackError
from vassal_adj.model.module import TurnLevelDef, TurnTrackerDef
from vassal_adj.model.state import Track
from vassal_adj.packs import find_pack
from vassal_adj.parse.global_props import global_values
from vassal_adj.parse.tokens import join
from vassal_adj.rules.packs.pack import RulePack
from vassal_adj.savedgame import SavedGame
from vassal_adj.state_builder import game_state

EXAMPLE = REPO / "modules" / "kasserine" / "example"
PACK_TOML = REPO / "modules" / "kasserine" / "pack.toml"
# No Question of Surrender 2.0 and the air strike table of 3.x: "0500 ... 1900, 8, 9 Night".
TIMES = ["0500", "0700", "0900", "1100", "1300", "1500", "1700", "1900", "Night"]
DAYS = ["June 8", "June 9"]
SEQUENCE = [f"{d} {t}" for d in DAYS for t in TIMES]


def pack_with(state: dict[str, Any], **top: Any) -> dict[str, Any]:
    """The Kasserine pack as data, with more [state] keys (and top-level tables)."""
    data = tomllib.loads(PACK_TOML.read_text(encoding="utf-8"))
    data["state"] = {**data["state"], **state}
    return {**data, **top}


def loaded(data: dict[str, Any]) -> Any:
    lp = find_pack("kasserine")
    return dataclasses.replace(lp, pack=RulePack.from_mapping(data, source="pack.toml"))


def save_with(extra: str = "", turn_state: str | None = None, name: str = "setup.vsav") -> SavedGame:
    """An example save with more commands before its end (and another tracker state)."""
    game = vassal_adj.load_save(EXAMPLE / name)
    text = game.text
    if turn_state is not None:
        start = text.index("\x1bTURNTurnTracker0\t")
        end = text.index("\x1b", start + 1)
        text = text[:start] + f"\x1bTURNTurnTracker0\t{turn_state}" + text[end:]
    text = text.replace("\x1bend_save", "".join(f"\x1b{c}" for c in extra.split("\n") if c) + "\x1bend_save")
    return SavedGame.new(text, codec=game.codec, path=f"built-{name}")


def prop(name: str, value: str) -> str:
    return f"GlobalProperty\t;{name};{value};Module"


def day_time_module() -> Any:
    """The example module with a Day / Time tracker (NQoS 2.0) in place of its Turn / Phase one."""
    module = vassal_adj.load_module(EXAMPLE / "Kasserine.vmod")
    time = TurnLevelDef("list", "Time", "Time", items=tuple(TIMES))
    day = TurnLevelDef("list", "Day", "Day", items=tuple(DAYS), levels=(time,))
    return dataclasses.replace(module, turn_trackers=(TurnTrackerDef("TurnTracker0", "Game Turn", (day,)),))


def day_time(day: str, time: str) -> str:
    """The tracker state showing `day` and `time` (spec 5.8: list level current;sub;first;flags, then sub-levels)."""
    time_state = join([str(TIMES.index(time)), "0", "0", ",".join(["true"] * len(TIMES))], ";")
    return join(["0", join([str(DAYS.index(day)), "0", "0", "true,true", time_state], ";")], "|")


DAY_TIME = {"turn_levels": ["Day", "Time"], "turn_sequence": SEQUENCE, "night": ["Night"], "phase_level": ""}


def test_nqos_2_0_the_turn_after_1900_is_the_night_turn() -> None:
    """NQoS 2.0: "The Night turn begins the turn after the 1900 turn. The first daylight turn is
    0500." With the sequence 0500, 0700, ..., 1900, Night on June 8 then June 9, "June 8 Night"
    is the 9th turn and a night turn; "June 9 0500" is the 10th and a day turn."""
    lp, module = loaded(pack_with(DAY_TIME)), day_time_module()
    state, ctx, _ = game_state(module, save_with(turn_state=day_time("June 8", "Night")), lp)
    assert (state.turn, state.turn_label, state.night) == (9, "June 8 Night", True)
    assert "turn 9 (June 8 Night) read from the turn tracker" in ctx.notes
    state, _, _ = game_state(module, save_with(turn_state=day_time("June 9", "0500")), lp)
    assert (state.turn, state.turn_label, state.night) == (10, "June 9 0500", False)


def test_nqos_scenario_3_starts_on_the_1900_turn_of_june_8th() -> None:
    """NQoS Scenario 3: "The scenario starts on the 1900 turn of June 8th": the 8th turn of a
    sequence that begins with June 8 0500, and a day turn ("Night ... the turn after the 1900 turn")."""
    state, _, _ = game_state(
        day_time_module(), save_with(turn_state=day_time("June 8", "1900")), loaded(pack_with(DAY_TIME))
    )
    assert (state.turn, state.night) == (8, False)


def test_a_turn_label_not_in_the_sequence_gives_no_turn_and_says_so() -> None:
    """A pack whose sequence leaves out June 9 cannot date the 0500 turn of June 9: no turn, a note."""
    pack = pack_with({**DAY_TIME, "turn_sequence": SEQUENCE[:9]})
    state, ctx, _ = game_state(day_time_module(), save_with(turn_state=day_time("June 9", "0500")), loaded(pack))
    assert state.turn is None and state.turn_label == "June 9 0500"
    assert "the turn tracker shows 'June 9 0500', which is not in the pack's turn_sequence" in ctx.notes


def test_nqos_3_0_weather_read_from_a_global_property() -> None:
    """NQoS 3.0: "a roll is made on the weather table. The result determines the weather type for
    the day" (Sand storm, Clear, Mist); the module keeps it in a global property, and `values`
    turns its words into the pack's weather names. Without the property, the table decides, and
    the note says the module did not show it."""
    pack = pack_with({"weather_from": {"property": "Weather", "values": {"Mist": "poor", "Clear": "good"}}})
    state, ctx, _ = game_state(
        vassal_adj.load_module(EXAMPLE / "Kasserine.vmod"), save_with(prop("Weather", "Mist")), loaded(pack)
    )
    assert state.weather == "poor"
    assert "weather poor: as the module shows it ([state] weather_from)" in ctx.notes
    state, ctx, _ = game_state(vassal_adj.load_module(EXAMPLE / "Kasserine.vmod"), save_with(), loaded(pack))
    assert state.weather == "good"  # Kasserine 20.4's table for turn 1
    assert "weather not shown: the module has no global property 'Weather'" in ctx.notes


def test_kesselrings_war_5_2_the_ap_track_never_above_its_maximum_nor_below_zero() -> None:
    """KW 5.2: "A side can never have more AP than the maximum indicated on the AP Track, and may
    never have less than zero." 5.2.1's example: "The Allies roll a 3 and control two Objective
    hexes with garrisons, added to the 6 for their Staging Area for a total of 11 AP": 11 is on
    a 0-20 track; -1 is below it. A side whose AP the save does not show has no value."""
    tracks = {
        "allied_ap": {"property": "Allied AP", "min": 0, "max": 20},
        "axis_ap": {"property": "Axis AP", "min": 0, "max": 20},
    }
    lp, module = loaded(pack_with({"tracks": tracks})), vassal_adj.load_module(EXAMPLE / "Kasserine.vmod")
    state, ctx, _ = game_state(module, save_with(prop("Allied AP", "11")), lp)
    assert state.track("allied_ap") == Track("allied_ap", 11, 0, 20, "global property 'Allied AP'")
    assert state.track("allied_ap").in_bounds is True  # type: ignore[union-attr]
    axis = state.track("axis_ap")
    assert axis is not None and axis.value is None and axis.in_bounds is None
    assert "track 'axis_ap': the module has no global property 'Axis AP'" in ctx.notes
    state, _, _ = game_state(module, save_with(prop("Allied AP", "-1")), lp)
    assert state.track("allied_ap").value == -1 and state.track("allied_ap").in_bounds is False  # type: ignore[union-attr]


def test_a_track_read_from_a_marker_in_numbered_boxes() -> None:
    """Kasserine 20.4 has twelve Game-Turns; the example's "Game Turn" marker stands in the box of
    the turn ("Turn 3" in the turn-3 save): read as a track, it is 3, within 1-12."""
    tracks = {"turn_record": {"marker": "Game Turn", "box": r"Turn (\d+)", "min": 1, "max": 12}}
    state, _, _ = game_state(
        vassal_adj.load_module(EXAMPLE / "Kasserine.vmod"),
        save_with(name="turn3-faults.vsav"),
        loaded(pack_with({"tracks": tracks})),
    )
    assert state.track("turn_record") == Track("turn_record", 3, 1, 12, "the box of the 'Game Turn' marker")


def test_a_marker_in_a_box_the_pattern_does_not_match_is_no_value() -> None:
    """The withdrawal markers wait in "Withdrawal Markers" (Kasserine 19.0), no numbered box: no value, and why."""
    tracks = {"allied": {"marker": "Allied Withdrawal", "box": r"Turn (\d+)"}}
    state, ctx, _ = game_state(
        vassal_adj.load_module(EXAMPLE / "Kasserine.vmod"), save_with(), loaded(pack_with({"tracks": tracks}))
    )
    assert state.track("allied").value is None  # type: ignore[union-attr]
    assert (
        "track 'allied': a 'Allied Withdrawal' marker is in 'Withdrawal Markers', which the pattern does not match"
    ) in ctx.notes


def test_globals_by_the_rules_names_and_the_last_change_wins() -> None:
    """NQoS S4.6 French Morale ("Should the number fall below 1 ... the French will need to perform
    a withdrawal"): the rules read it as `morale`; a log's MutableProperty after the save's value wins."""
    pack = pack_with({"globals": {"morale": "French Morale"}})
    game = save_with(prop("French Morale", "3") + "\nMutableProperty\tFrench Morale\t3\t0\tModule")
    state, _, _ = game_state(vassal_adj.load_module(EXAMPLE / "Kasserine.vmod"), game, loaded(pack))
    assert dict(state.globals) == {"morale": "0"}


@pytest.mark.parametrize(("morale", "in_bounds"), [("30", True), ("31", False), ("0", True)])
def test_nqos_s4_6_french_morale_can_never_go_above_30(morale: str, in_bounds: bool) -> None:
    """NQoS S4.6: "the French Morale starts at 30 points, and can never go above this value"; a
    value below 1 is allowed (it forces a withdrawal), so the track has a maximum and no minimum."""
    pack = pack_with({"tracks": {"french_morale": {"property": "French Morale", "max": 30}}})
    state, _, _ = game_state(
        vassal_adj.load_module(EXAMPLE / "Kasserine.vmod"), save_with(prop("French Morale", morale)), loaded(pack)
    )
    track = state.track("french_morale")
    assert track is not None and track.value == int(morale) and track.in_bounds is in_bounds


@pytest.mark.parametrize(
    ("state", "message"),
    [
        ({"turn_levels": ["Day", "Time"]}, "state.turn_sequence: turn_levels and turn_sequence go together"),
        (
            {"turn_levels": ["Day"], "turn_sequence": ["1", "2"], "turns": 3, "weather_by_turn": ["good"] * 3},
            "state.turn_sequence: 2 turns, but",
        ),
        ({"tracks": {"ap": {"property": "AP", "marker": "AP"}}}, "state.tracks.ap: expected exactly one of"),
        ({"tracks": {"ap": {"marker": "AP"}}}, "state.tracks.ap.box: a track read from a marker needs a box"),
        ({"tracks": {"ap": {"property": "AP", "min": 5, "max": 1}}}, "state.tracks.ap: min 5 is above max 1"),
        ({"tracks": {"ap": {"property": "AP", "maximum": 1}}}, "state.tracks.ap.maximum: unknown key"),
        ({"weather_from": {"level": "Weather", "box": "x"}}, "state.weather_from.box: only a 'marker' reading"),
        ({"globals": {"morale": 3}}, "state.globals.morale: expected a global property name"),
        ({"board": "Kasserine"}, "state.board: a board is named within a map"),
    ],
)
def test_bad_state_keys_are_pack_errors_naming_the_key(state: dict[str, Any], message: str) -> None:
    with pytest.raises(PackError, match=message.replace("(", r"\(")):
        RulePack.from_mapping(pack_with(state), source="pack.toml")


def test_a_corpus_save_shows_its_global_properties() -> None:
    """Paths of Glory keeps its victory points and turn name in global properties; the save's
    restored values are those read (VP 10 on "August 1914", as the save's opening shows)."""
    need_corpus()
    folder = CORPUS / "PathsOfGlory"
    module = vassal_adj.load_module(folder / "PathsOfGlory.vmod")
    values = global_values(module, vassal_adj.load_save(folder / "DeluxeHistorical10-8.vsav").root)
    assert (values["VP"], values["Turn Name"], values["CombinedWarStatus"]) == ("10", "August 1914", "2")


def turn_marker_in_turn_9() -> SavedGame:
    """The turn-3 example save with its "Game Turn" marker (and the marker's stack) moved to the
    box "Turn 9" of the holding boxes (scripts/example_module.box_slot: 1236, 342), and an
    "Allied AP" global property restored."""
    game = save_with(prop("Allied AP", "11"), name="turn3-faults.vsav")
    text = game.text.replace("Holding Boxes;836;70;", "Holding Boxes;1236;342;")
    return SavedGame.new(text, codec=game.codec, path="built-turn9.vsav")


def test_tunisia_campaign_1_lasts_8_turns_the_turn_marker_past_it_is_out_of_bounds(tmp_path: Path) -> None:
    """Tunisia 1943: "The Turn marker is advanced by one turn" at the end of each turn, and Campaign
    I "lasts 8 turns": a turn track of 1 to 8. The marker in the box of turn 9 reads 9, out of
    bounds. VASSAL itself places the marker of the built save in "Turn 9" (the oracle)."""
    tracks = {
        "turn": {"marker": "Game Turn", "box": r"Turn (\d+)", "min": 1, "max": 8},
        "allied_ap": {"property": "Allied AP", "min": 0, "max": 20},
    }
    game = turn_marker_in_turn_9()
    state, _, _ = game_state(
        vassal_adj.load_module(EXAMPLE / "Kasserine.vmod"), game, loaded(pack_with({"tracks": tracks}))
    )
    turn, ap = state.track("turn"), state.track("allied_ap")
    assert turn is not None and (turn.value, turn.in_bounds) == (9, False)
    assert ap is not None and (ap.value, ap.in_bounds) == (11, True)
    game.write(tmp_path / "turn9.vsav")
    pieces = oracle_pieces(EXAMPLE / "Kasserine.vmod", tmp_path / "turn9.vsav")["result"]["pieces"]
    assert [p["location"] for p in pieces if p["name"] == "Game Turn"] == ["Turn 9"]


def test_a_turn_given_on_the_command_line_has_its_own_label_and_night() -> None:
    """--turn 9 with the NQoS sequence is "June 8 Night" (2.0: the turn after 1900), whatever the
    tracker shows: the label and the night follow the turn the referee gives."""
    state, _, _ = game_state(
        day_time_module(), save_with(turn_state=day_time("June 8", "0500")), loaded(pack_with(DAY_TIME)), turn=9
    )
    assert (state.turn, state.turn_label, state.night) == (9, "June 8 Night", True)
