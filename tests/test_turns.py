"""Reading a save's turn tracker (spec 5.8) and what `game_state` makes of it."""

from __future__ import annotations

import json

import pytest
from conftest import SPEC

from vassal_adj.model.module import Module, TurnLevelDef, TurnTrackerDef
from vassal_adj.parse.commands import parse_stream
from vassal_adj.parse.turns import tracker_reading

PHASES = ("Axis Movement", "Axis Combat", "Allied Movement", "Allied Combat")
TRACKER = TurnTrackerDef(
    "TurnTracker0",
    "Game Turn",
    (TurnLevelDef("counter", "Turn", "Turn", start=1, levels=(TurnLevelDef("list", "Phase", "Phase", items=PHASES),)),),
)
MODULE = Module("Kasserine", "1", turn_trackers=(TRACKER,))
SAVE = "begin_save\x1b\x1b\\\x1bTURNTurnTracker0\t0|3;0;false;-1;2\\;0\\;0\\;true,true,true,true\x1bend_save"


def test_counter_value_and_list_item() -> None:
    reading = tracker_reading(MODULE, parse_stream(SAVE), "Game Turn")
    assert reading is not None
    assert (reading.value("Turn"), reading.value("Phase")) == (3, "Allied Movement")


def test_spec_vector_with_a_sub_level() -> None:
    vectors = SPEC / "vectors.json"
    if not vectors.is_file():
        pytest.skip("spec vectors absent")
    text = json.loads(vectors.read_text())["commands"]["single"]["turn_tracker_with_sublevel"]
    reading = tracker_reading(MODULE, parse_stream(f"begin_save\x1b{text}\x1bend_save"), "Game Turn")
    assert reading is not None and reading.value("Turn") == 3 and reading.value("Phase") == "Axis Combat"


def test_the_last_logged_state_wins() -> None:
    log = SAVE + "\x1bLOG\tTURNTurnTracker0\t0|4;0;false;-1;0\\;0\\;0\\;true,true,true,true"
    reading = tracker_reading(MODULE, parse_stream(log), "Game Turn")
    assert reading is not None and (reading.value("Turn"), reading.value("Phase")) == (4, "Axis Movement")


def test_no_tracker_or_no_state_reads_nothing() -> None:
    assert tracker_reading(MODULE, parse_stream(SAVE), "Turn Track") is None
    assert tracker_reading(MODULE, parse_stream("begin_save\x1b\x1b\\\x1bend_save"), "Game Turn") is None
