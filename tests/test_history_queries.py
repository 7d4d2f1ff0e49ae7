"""History queries (rules/history.py; RULES-MAP N17): the last occupier of a place, the first
entry by selected units, the stays of an event marker in a box (events allowed once per game),
and the turn a unit went into a box. Worked by hand from No Question of Surrender (seed 003)
and Kesselring's War (seed 004); the board is a plain numbered grid with stand-in hexes.
"""

from __future__ import annotations

from collections.abc import Mapping

from vassal_adj.model.geometry.hexes import Hex
from vassal_adj.model.geometry.layout import HexLayout
from vassal_adj.model.module import BoardDef, HexGridDef, HexNumbering
from vassal_adj.model.state import GameState, Position
from vassal_adj.model.units import Unit
from vassal_adj.rules.history import History

GRID = HexGridDef(dx=52.0, dy=60.0, x0=36, y0=28, numbering=HexNumbering(stagger=False))
LAYOUT = HexLayout(GRID, BoardDef("Board", None, 2048, 1588, grid=GRID))


def H(label: str) -> Hex:
    h = LAYOUT.hex_of(label)
    assert h is not None, label
    return h


def u(uid: str, side: str, kind: str = "infantry") -> Unit:
    return Unit(uid, uid, side, kind, 6)


def state(turn: int | None, where: Mapping[Unit, str], markers: Mapping[str, str] | None = None) -> GameState:
    def pos(place: str) -> Position:
        return Position(H(place), place) if place.isdigit() else Position(box=place)

    return GameState(
        {x.id: x for x in where},
        {x.id: pos(p) for x, p in where.items()},
        turn,
        markers={k: (pos(v),) for k, v in (markers or {}).items()},
    )


OP = "1710"  # No Question of Surrender Sc.3: the observation point, hex 17.10
G, F = u("g", "German"), u("f", "French")


def test_nqos_sc3_last_occupier_is_the_side_there_in_the_last_state() -> None:
    """Sc.3: "The side that occupies, or was the last to occupy, the observation point (hex 17.10)": German
    there first, French there in the last save: the French occupy it."""
    e = History((state(5, {G: OP, F: "1505"}), state(6, {G: "1711", F: OP}))).last_occupier((H(OP),))
    assert e is not None and (e.side, e.index, e.turn, e.earliest, e.units) == ("French", 1, 6, 5, ("f",))


def test_nqos_sc3_when_the_place_is_empty_at_the_end_the_last_side_seen_there_is_returned() -> None:
    """Sc.3: "or was the last to occupy": empty in the last save, German in the one before: the Germans were
    the last seen there (index 1 of 3, so a later occupation between saves is possible: the caller says so)."""
    h = History((state(4, {F: OP}), state(5, {G: OP, F: "1505"}), state(6, {G: "1711", F: "1505"})))
    e = h.last_occupier((H(OP),))
    assert e is not None and (e.side, e.index, e.turn) == ("German", 1, 5)
    assert History((state(6, {G: "1711"}),)).last_occupier((H(OP),)) is None


def test_last_occupier_counts_only_the_units_picked() -> None:
    """Kesselring's War 3.2: "Air, naval, and Special Support Units (SSU) cannot control Objectives": an Allied
    air unit over the hex after a German unit left it does not make the Allies its last occupier."""
    air = u("air", "Allied", "air")
    h = History((state(3, {G: OP, air: "0101"}), state(4, {G: "1711", air: OP})))
    e = h.last_occupier((H(OP),), lambda x: x.kind != "air")
    assert e is not None and (e.side, e.index) == ("German", 0)
    assert h.last_occupier((H(OP),)).side == "Allied"  # type: ignore[union-attr]


ROMA = "3112"  # Kesselring's War 35.0: "Roma (hex 3112)"


def test_kw_35_1_major_objective_first_occupation_is_dated_once_retaking_does_not_repeat_it() -> None:
    """35.1: "The first time that any Allied unit occupies a Major Objective hex, the Allies gain 2 AP"; 35.2:
    "If a Major Objective is recaptured by the Axis and then later taken again by the Allies, no additional AP
    are received." Allied in Roma on turn 3, Axis on turn 4, Allied again on turn 5: one first entry, turn 3."""
    a, x = u("a", "Allied"), u("x", "Axis")
    h = History(
        (
            state(2, {a: "3010", x: ROMA}),
            state(3, {a: ROMA, x: "3211"}),
            state(4, {a: "3010", x: ROMA}),
            state(5, {a: ROMA, x: "3211"}),
        )
    )
    e = h.first_entry("Allied", (H(ROMA),))
    assert e is not None and (e.index, e.turn, e.earliest) == (1, 3, 2)
    assert h.first_entry("Allied", (H(ROMA),), lambda unit: unit.kind == "armor") is None


EVENT, USED = "Allied Event 4", "Used Events"


def test_kw_5_1_an_event_marker_in_the_used_box_twice_is_two_stays() -> None:
    """5.1: "Individual events may only occur one per game"; 28.0: "Each event may occur only once per game".
    The event's marker is put in the used box on turn 2, taken out on turn 3 and put back on turn 5: two stays,
    the second dated turn 5 (after turn 3)."""
    h = History(
        (
            state(1, {}, {EVENT: "Events"}),
            state(2, {}, {EVENT: USED}),
            state(3, {}, {EVENT: "Events"}),
            state(5, {}, {EVENT: USED}),
        )
    )
    stays = h.stays(EVENT, USED)
    assert [(s.index, s.turn, s.earliest) for s in stays] == [(1, 2, 1), (3, 5, 3)]


def test_nqos_s3_0_an_event_used_once_is_one_stay_however_many_saves_show_it() -> None:
    """S3.0: "This event may occur only once in the game": the marker stays in the box over three saves,
    one stay; never in it, none."""
    h = History((state(1, {}, {EVENT: USED}), state(2, {}, {EVENT: USED}), state(3, {}, {EVENT: USED})))
    assert [(s.index, s.turn) for s in h.stays(EVENT, "Used.*")] == [(0, 1)]
    assert History((state(1, {}, {EVENT: "Events"}),)).stays(EVENT, USED) == ()


def test_nqos_s3_0_turn_a_unit_was_withdrawn_dates_its_return() -> None:
    """S3.0: "The German player must withdraw enough Formations ... These Units return the next day at 0700":
    the turn the unit went into the box is the first state showing it there (turn 7, after turn 6); a unit
    not in the box has none."""
    w = u("w", "German")
    h = History(
        (state(6, {w: "2020", G: "2021"}), state(7, {w: "Withdrawn", G: "2021"}), state(8, {w: "Withdrawn", G: "2021"}))
    )
    r = h.removal_of("w", "Withdrawn")
    assert r is not None and (r.index, r.turn, r.earliest) == (1, 7, 6)
    assert h.removal_of("g", "Withdrawn") is None


def test_upto_is_the_history_as_it_stood_at_a_state() -> None:
    h = History((state(1, {G: OP}), state(2, {G: "1711"}), state(3, {F: OP})))
    assert h.upto(1).turns == (1, 2) and h.upto(1).last is h.states[1]
