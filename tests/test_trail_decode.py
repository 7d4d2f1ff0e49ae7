"""Movement Trail (`footprint;`) decoded as VASSAL reads it (VASSAL-FORMATS.md 6.14, 10 pitfall 22;
parse/trail.py), and when its points accumulate, checked on a real log of the corpus."""

from __future__ import annotations

import pytest
from conftest import need_corpus

import vassal_adj
from vassal_adj.model.events import Moved
from vassal_adj.parse.trail import (
    Trail,
    TrailLog,
    TrailType,
    piece_trail,
    trail_state,
    trail_type,
)
from vassal_adj.parse.traits import parse_piece
from vassal_adj.pbem.replay import replay


@pytest.mark.parametrize(
    ("text", "trail"),
    [
        # 3.6.0 (the oracle's engine writes this): visible;startMapId;n;points
        ("false;Main Map;1;1648,358", Trail(False, "Main Map", ((1648, 358),))),
        # later 3.6 and 3.7 append everInitialized (CCN's tutorial log)
        ("true;Map0;1;509,133;false", Trail(True, "Map0", ((509, 133),), ever_initialized=False)),
        # 3.8 appends lastPointListSize
        ("true;Map0;2;10,20;30,40;true;2", Trail(True, "Map0", ((10, 20), (30, 40)), True, 2)),
        # never moved nor cleared: no point
        ("false;;0", Trail(False, "", ())),
    ],
)
def test_pitfall_22_trail_state_forms(text: str, trail: Trail) -> None:
    assert trail_state(text) == trail


def test_trail_state_reads_as_footprint_mysetstate() -> None:
    # n points are read; an empty field is skipped, a coordinate that is no number reads 0 (nextInt(0)),
    # and the fields after the n-th are the trailing ones.
    assert trail_state("true;Map0;3;10,20;;x,40;true").points == ((10, 20), (0, 40))
    assert trail_state("true;Map0;3;10,20;;x,40;true").ever_initialized is True
    # A missing visibility takes the type's initiallyVisible; a count that is no number reads 0.
    assert trail_state("", visible=True) == Trail(False, "", ())  # an empty field is present: "true" it is not
    assert trail_state("true;Map0;many;1,2") == Trail(True, "Map0", (), ever_initialized=False)


def test_trail_type_fields_and_38_ignore_same_location() -> None:
    ragnarok = "footprint;84,130;Movement Trail;false;false;10;255,255,255;0,0,0;100;50;20;30;1.0;;;;"
    assert trail_type(ragnarok) == TrailType(False, False, "", None)
    ccn = (
        "footprint;77,130;;true;false;6;255,255,255;204,204,204;100;40;0;0;2.0;57447,0,trailsON;;57440,0,clrTrail;"
        "Matching Trail"
    )
    assert trail_type(ccn) == TrailType(True, False, "Matching Trail", None)
    assert trail_type(ragnarok + "Trail;true").ignore_same_location is True
    assert trail_type("footprint;") == TrailType()


def test_piece_trail_is_the_trait_of_the_piece() -> None:
    piece = parse_piece(
        "footprint;84,130;Movement Trail;true\tpiece;;;u.png;Unit", "false;Main Map;2;1,2;3,4\tMain Map;3;4;;0"
    )
    assert piece_trail(piece) == Trail(False, "Main Map", ((1, 2), (3, 4)))
    assert piece_trail(parse_piece("piece;;;u.png;Unit", "Main Map;3;4;;0")) is None


CCN_LOG = "CommandsAndColorsNapoleonics/CCNv4 Tutorial.vlog"


def test_pitfall_22_a_trail_gains_the_place_each_move_leaves() -> None:
    """In a real 3.6 log, a trail changes only as Footprint says: a move appends the place the piece
    left (unless it is the last point already), never where it went; Mark Unmoved (or the clear key)
    resets it to the piece's position alone."""
    path = need_corpus() / CCN_LOG
    game = vassal_adj.load_save(path)
    trails, rp = TrailLog.read(game.root, str(path)), replay(game.root, None, str(path))
    now = dict(trails.opening)
    at = {p.id: (p.x, p.y) for p in rp.opening}
    seen = {"appended": 0, "kept": 0, "cleared": 0}
    unit = "1625257907467"
    for step in rp.steps:
        if step.number == 63:  # one unit moved (118,208) -> (75,284) -> (118,359) -> (204,359) in steps 60-62,
            # its trail cleared at 118,208: it holds the three places it left; VASSAL draws on to where it stands.
            assert now[unit].points == ((118, 208), (75, 284), (118, 359)) and at[unit] == (204, 359)
        moved = {}
        for e in step.events:
            if isinstance(e, Moved):
                moved.setdefault(e.piece, (e.origin.x, e.origin.y))
        for pid, trail in trails.after.get(step.number, {}).items():
            before = now[pid].points
            if pid in moved and before[-1:] != (moved[pid],):
                assert trail.points == (*before, moved[pid]), (step.number, pid)
                seen["appended"] += 1
            elif trail.points == before:
                seen["kept"] += 1
            else:
                assert pid not in moved and trail.points == (at[pid],), (step.number, pid)
                seen["cleared"] += 1
            now[pid] = trail
        at.update({e.piece: (e.to.x, e.to.y) for e in step.events if isinstance(e, Moved)})
    assert seen == {"appended": 19, "kept": 77, "cleared": 15} and len(trails.opening) == 28


def test_trail_log_of_a_log_without_the_trait_is_empty() -> None:
    from conftest import REPO

    game = vassal_adj.load_save(REPO / "modules" / "kasserine" / "example" / "turn4-axis.vlog")
    assert TrailLog.read(game.root) == TrailLog()
