"""One reading of "east of" for 23 and 17.15 (exits.at_or_east_of), with the exits a log shows.

23: "If Axis units exit the map from any hex, Allied units scheduled to enter that hex or any hex
east of that hex are no longer available to the Allied Player." 17.15: "If an Axis unit exits
any Allied Supply hex, that hex and all Supply hexes east of that hex may no longer be used as
an Allied Supply Source." Read the same way: the hex itself, and every hex in a column further
east (Kasserine's columns 01-39 run west to east). A hex of the same column is north or south of
it, not east: kept. Each rule is tested on each side of the boundary: the hex itself, the same
column, one column east, one column west.
"""

from __future__ import annotations

from dataclasses import replace

import pytest
from test_23_reinforcements import allied, state
from test_23_setup import layout

from vassal_adj.model.state import Departure
from vassal_adj.rules.mechanisms.exits import sources_after_exits

ALLIED_SOURCES = ["0107-0101", "0101-0901", "1301-1901", "2401-3001"]  # 17.12 (printed "0101.0901")


def hexes(*specs: str) -> set:
    out = set()
    for spec in specs:
        a, b = (spec.split("-") + [spec])[:2]
        (ca, ra), (cb, rb) = layout().colrow(layout().require(a)), layout().colrow(layout().require(b))
        out |= {
            h
            for h in (
                layout().hex_of(f"{c + 1:02d}{r + 1:02d}")
                for c in range(min(ca, cb), max(ca, cb) + 1)
                for r in range(min(ra, rb), max(ra, rb) + 1)
            )
            if h is not None
        }
    return out


def label_set(hs: set) -> set[str]:
    return {layout().label_of(h) for h in hs}


def test_17_15_exit_at_0105_loses_it_and_every_column_east_keeps_the_rest_of_column_01() -> None:
    sources = hexes(*ALLIED_SOURCES)
    kept = sources_after_exits(sources, [layout().require("0105")])
    assert label_set(kept) == {"0101", "0102", "0103", "0104", "0106", "0107"}  # same column: not east


@pytest.mark.parametrize(
    ("exit_at", "source", "lost"),
    [
        ("1601", "1601", True),  # the hex itself
        ("1601", "1701", True),  # one column east
        ("1601", "1501", False),  # one column west
        ("0105", "0104", False),  # same column, another row
    ],
)
def test_17_15_boundary(exit_at: str, source: str, lost: bool) -> None:
    sources = hexes(*ALLIED_SOURCES)
    assert (layout().require(source) not in sources_after_exits(sources, [layout().require(exit_at)])) is lost


ENTRIES = [
    {"turn": 2, "at": [at], "units": [name]}
    for at, name in (("2701", "1-1-7 (72)"), ("2705", "1-1-7 (93)"), ("2801", "2-3-7 (1 Gd)"), ("2601", "2-5-7 (18)"))
]


def void_after_exit_at(where: str) -> set[str]:
    """The Allied units 23 voids when a log shows an Axis unit leaving the map from `where`."""
    waiting = [("Allied", e["units"][0], "box:Turn 2") for e in ENTRIES]
    st = state(*waiting, ("Axis", "5-3-12 (2/7)", "box:Exited"), turn=1, phase="axis-combat")
    st = replace(st, departures=(Departure("u4", "Exited", layout().require(where), where, 1, "axis-movement"),))
    found = allied(st, entries=ENTRIES)
    return {st.units[u].name for f in found if "are no longer available:" in f.message for u in f.units}


def test_23_the_hex_itself_and_one_column_east_are_void_same_column_and_west_are_not() -> None:
    assert void_after_exit_at("2701") == {"1-1-7 (72)", "2-3-7 (1 Gd)"}  # 2701 itself, 2801 east


def test_23_an_exit_west_of_every_entry_voids_them_all() -> None:
    assert void_after_exit_at("2501") == {"1-1-7 (72)", "1-1-7 (93)", "2-3-7 (1 Gd)", "2-5-7 (18)"}


def test_23_the_void_names_the_exit_hex_and_no_note_is_left() -> None:
    waiting = [("Allied", "1-1-7 (72)", "box:Turn 2")]
    st = state(*waiting, ("Axis", "5-3-12 (2/7)", "box:Exited"), turn=1, phase="axis-combat")
    st = replace(st, departures=(Departure("u1", "Exited", layout().require("2701"), "2701", 1, "axis-movement"),))
    found = allied(st, entries=ENTRIES[:1])
    assert [f.message for f in found if "are no longer available:" in f.message] == [
        (
            "Allied 1-1-7 (72) (entering at 2701) are no longer available: an enemy unit exited the map at 2701, "
            "and they enter at that hex or east of it [23]"
        )
    ]
    assert not [f for f in found if "exited box" in f.message]  # the log showed where it left


def test_23_exit_hex_unknown_is_a_note_and_voids_nothing() -> None:
    waiting = [("Allied", "1-1-7 (72)", "box:Turn 2")]
    found = allied(
        state(*waiting, ("Axis", "5-3-12 (2/7)", "box:Exited"), turn=1, phase="axis-combat"), entries=ENTRIES[:1]
    )
    assert not [f for f in found if "are no longer available:" in f.message]
    assert [f.message[:70] for f in found if "exited box" in f.message] == [
        "1 enemy units are in the exited box, but no log given shows the hexes "
    ]
