"""`verify` judges the path a Movement Trail shows (VASSAL-FORMATS.md 10 pitfall 22; parse/trail.py,
rules/mechanisms/legs.py `trail_legs`), not the cheapest way between drops, and says which path it judged.

Logs of the example module are written here as VASSAL 3.6 writes a drag of a piece having the
trait (Footprint.setMoved via PieceMover.movedPiece, before Map.placeAt): one step per drag, whose
ChangePiece adds the place the piece leaves to its trail, then the MovePiece. The unit moved is the
Allied infantry 1-2-7 (1/26), 7 MP on Game-Turn 4 (good weather, 20.4), in the Allied Movement
phase; its trail is cleared where it starts, as Mark Unmoved leaves it. The example's terrain
(modules/kasserine/terrain.csv) around it: columns 32-34 rows 04-10 clear (1 MP, 16.11: "paying
the appropriate costs", pack assumption terrain_costs), 3505 3506 3606 3607 rough (2 MP).
The Axis 3-2-16 (580) put at 3208 controls its six neighbours 3207 3308 3309 3209 3109 3108
(19.2, sticky zones of control: a unit entering one stops there).
"""

from __future__ import annotations

from dataclasses import replace
from itertools import pairwise
from pathlib import Path

import pytest
import test_19_2_move_legs as legs_case
from kasserine_logs import MODULE, el, em, et
from test_vassal_accepts import oracle_pieces

import vassal_adj
from vassal_adj.codec.obfuscation import Codec
from vassal_adj.model.geometry.hexes import Hex as H
from vassal_adj.model.geometry.hexes import hexside
from vassal_adj.model.terrain import TerrainMap
from vassal_adj.model.units import Unit
from vassal_adj.packs import load_pack
from vassal_adj.parse.commands import Node, encode
from vassal_adj.parse.tokens import join, split
from vassal_adj.parse.trail import TrailLog, trail_state
from vassal_adj.pbem.replay import replay
from vassal_adj.pbem.verify import verify_turn
from vassal_adj.report.verify_text import _move_line
from vassal_adj.rules.mechanisms.legs import trail_legs
from vassal_adj.rules.results import Severity
from vassal_adj.rules.turn import check_phase, turn_rules
from vassal_adj.savedgame import SavedGame

UNIT, ENEMY = "1-2-7 (1/26)", "3-2-16 (580)"
# The trait as modules of the corpus write it (Ragnarok): key T, no trail shown at first.
FOOTPRINT = "footprint;84,130;Movement Trail;false;false;10;255,255,255;0,0,0;100;50;20;30;1.0;;;;"


def _trail(points: list[tuple[int, int]]) -> str:
    return join(["false", em.MAP, str(len(points)), *(f"{x},{y}" for x, y in points)], ";")


def write_trail_log(path: Path, start: str, drops: list[str], earlier: tuple[str, ...] = ()) -> Path:
    """A log of the Allied Movement phase of Game-Turn 4 in which 1/26, at `start` with a
    Movement Trail, is dragged to each of `drops` in turn (the Axis 580 at 3208). Its trail is
    cleared at `start`, or holds the hexes `earlier` moves left, not cleared since."""
    pack = em.read_pack()
    counters = em.counters(pack)
    places = el.turn4_places(pack)
    places[("Allied", UNIT)], places[("Axis", ENEMY)] = ("hex", start), ("hex", "3208")
    table = et.Table.opening(el.SHEET, counters, places, em.layout(), el.FIXED_MS)
    opening = table.save_children(4, "Allied Movement")
    n, c = next((n, c) for n, c in enumerate(counters) if c.name == UNIT)
    pid = table.ids[UNIT]

    def state(points: list[tuple[int, int]]) -> str:  # the basic piece where it stands now
        _, x, y = table.spot[pid]
        return join([_trail(points), em.piece_state(c, em.MAP, x, y, n + 1)], "\t")

    points = [em.layout().center(h) for h in earlier] or [table.spot[pid][1:]]
    pieces = opening[1].children
    k = next(i for i, p in enumerate(pieces) if p.text.startswith(f"+/{pid}/"))
    pieces[k] = Node("+/" + join([pid, join([FOOTPRINT, em.piece_type(c)], "\t"), state(points)], "/"))
    steps = []
    for drop in drops:
        before, origin = state(points), table.spot[pid][1:]
        if points[-1] != origin:
            points.append(origin)
        change = "D/" + join([pid, state(points), before], "/")
        steps.append(et.logged(Node(change, [table.move("Allied", UNIT, drop)])))
    SavedGame.new(encode(Node("begin_save", opening + steps)), codec=Codec(obfuscated=False)).write(path)
    return path


@pytest.fixture(scope="module")
def module() -> vassal_adj.Module:
    return vassal_adj.load_module(MODULE)


def judged(module, path: Path):
    game = vassal_adj.load_save(path)
    v = verify_turn(module, game, "kasserine", replay(game.root, module, game.path))
    (move,) = v.moves
    (finding,) = [f for f in v.findings if f.units[:1] == (move.unit,) and "supply" not in f.message]
    return move, finding


def test_16_a_legal_trail_is_judged_hex_by_hex_as_dragged(module, tmp_path) -> None:
    move, f = judged(module, write_trail_log(tmp_path / "a.vlog", "3206", ["3306", "3406", "3407"]))
    # Three clear hexes entered, 1 MP each, none controlled by 580.
    assert (move.ok, move.cost, move.allowance, move.path) == (True, 3, 7, ("3206", "3306", "3406", "3407"))
    assert move.judged == "as dragged (trail)" and not move.path_note and not move.reason
    assert f.severity == Severity.INFO and f.message.endswith(
        "legal, 3 of 7 MP by 3206 3306 3406 3407 (as dragged (trail))"
    )
    assert _move_line(move) == (
        "Allied 1-2-7 (1/26): 3206 -> 3306 -> 3406 -> 3407: legal, 3 of 7 MP; path: as dragged (trail)"
    )


def test_19_2_a_trail_through_a_zone_of_control_the_cheapest_path_avoids_is_illegal(module, tmp_path) -> None:
    # 3206 -> 3307 is one clear hex; the trail went by 3207, in 580's zone, where the unit had to stop.
    move, f = judged(module, write_trail_log(tmp_path / "b.vlog", "3206", ["3207", "3307"]))
    assert (move.ok, move.judged, f.severity, f.rule) == (False, "as dragged (trail)", Severity.ERROR, "kasserine:19.2")
    assert (
        "as dragged (trail) 3206 3207 3307, at 3207 -> 3307: enemy zone of control at 3207 (of Axis 3-2-16 "
        "(580) in 3208) stops movement: the unit entered it this phase and may not move on [19.2]"
    ) in f.message
    assert "cheapest attempt" not in f.message


def test_16_a_trail_costing_more_than_the_allowance_is_illegal_where_the_cheapest_fits(module, tmp_path) -> None:
    # 3404 -> 3607 costs 5 MP by 3405 3406 3507 (clear) and 3607 (rough); the trail crossed four
    # rough hexes, 2 MP each: 8 MP, and the unit has 7.
    move, f = judged(module, write_trail_log(tmp_path / "c.vlog", "3404", ["3505", "3506", "3606", "3607"]))
    assert (move.ok, move.judged, f.severity) == (False, "as dragged (trail)", Severity.ERROR)
    assert f.rule == move.rule == "kasserine:standard-movement"  # the allowance, as for any move (20.3 in bad weather)
    assert (
        "as dragged (trail) 3404 3505 3506 3606 3607, at 3606 -> 3607: needs 2 MP more after 6 MP spent by the "
        "hexes before: 8 MP in all, allowance 7 [standard-movement]"
    ) in f.message
    assert move.cost == 8 and move.path == ("3404", "3505", "3506", "3606", "3607")


def test_a_trail_with_a_gap_falls_back_to_the_cheapest_path_and_says_so(module, tmp_path) -> None:
    # One drag over two hexes: VASSAL's trail holds where it left (3206) and shows it at 3406, no hex between.
    move, f = judged(module, write_trail_log(tmp_path / "d.vlog", "3206", ["3406"]))
    note = "trail not continuous (3206 -> 3406, not adjacent): judged the cheapest path instead"
    assert (move.ok, move.cost, move.judged, move.path_note) == (True, 2, "cheapest between drops", note)
    assert f.message.endswith(f"; {note}")
    assert _move_line(move).endswith(f"legal, 2 of 7 MP; path: cheapest between drops ({note})")


def test_vassal_loads_a_log_of_a_unit_with_a_movement_trail(module, tmp_path) -> None:
    # 1/26's trail was not cleared since it left 3106 for 3206: the log's drags add 3206 and 3207 to it.
    log = write_trail_log(tmp_path / "b.vlog", "3206", ["3207", "3307"], earlier=("3106",))
    result = oracle_pieces(Path(MODULE), log, "--with-state")
    game = vassal_adj.load_save(log)
    rp = replay(game.root, module, game.path)
    ours = {p.id: (p.name, p.map, p.x, p.y, p.location) for p in rp.opening}
    vassal = {p["id"]: (p["name"], p["map"], p["x"], p["y"], p["location"]) for p in result["result"]["pieces"]}
    assert vassal == ours  # the position the log opens on, with the trail trait on 1/26
    (unit,) = [p for p in result["result"]["pieces"] if p["name"] == UNIT]
    opening = TrailLog.read(game.root).opening[unit["id"]]
    assert opening.points == (em.layout().center("3106"),)
    assert trail_state(split(unit["state"], "\t")[0]) == opening  # VASSAL's own state of the trait, read back
    # Every command of the two steps decoded: each drag's ChangePiece, MovePiece, new stack and report.
    assert result["load"]["decoded_commands"]["BasicLogger$LogCommand"] == 8
    # The trail's older point is not this move's: the path judged starts where the first drag did.
    move, f = judged(module, log)
    assert move.path == ("3206", "3207", "3307") and move.judged == "as dragged (trail)" and f.rule == "kasserine:19.2"


# -- the trail judged by check_phase (rules/turn.py), on the all-clear board of test_19_2_move_legs: a trail
# -- holding hexes between drops (as a module moving units hex by hex with a key command leaves it) is judged
# -- hex by hex too. 1510's zone of control: 1409 1410 1509 1511 1609 1610.


def _phase(unit: Unit, start: str, drops: list[str], trail: list[str | None], *, allowance: int | None = None):
    ctx = legs_case.context()
    rules = turn_rules(load_pack(legs_case.PACK).pack, ctx)
    mover = replace(unit, movement=allowance) if allowance is not None else unit
    st = legs_case.state(
        ctx,
        {legs_case.GUARDS if unit.side == "Axis" else legs_case.PANZER: "1510", mover: start},
        f"{unit.side.lower()}-movement",
    )
    drags = [(legs_case.at(ctx, a), legs_case.at(ctx, b)) for a, b in pairwise([start, *drops])]
    hexes = tuple(None if h is None else ctx.layout.require(h) for h in trail)
    return check_phase(st, st.phase, {mover.id: drags}, rules, ctx, trails={mover.id: hexes})


def test_19_2_a_trail_between_drops_through_a_zone_of_control_is_illegal() -> None:
    # One drag 1513 -> 1411: the cheapest way, 1412, is clear of 1510's zone; the trail went by 1511, in it.
    pc = _phase(legs_case.INFANTRY, "1513", ["1411"], ["1513", "1512", "1511", "1411"])
    (m,) = pc.moves
    (f,) = [f for f in pc.findings if f.severity == Severity.ERROR]
    assert (m.ok, m.judged, f.rule) == (False, "as dragged (trail)", "kasserine:19.2")
    assert "as dragged (trail) 1513 1512 1511 1411, at 1511 -> 1411: enemy zone of control at 1511" in f.message


def test_16_a_trail_is_paid_hex_by_hex_not_the_cheapest_way() -> None:
    # 1513 -> 1413 is one hex; the trail wandered 1514 1515 1415 1414 1413: 5 clear hexes, 5 MP.
    trail = ["1513", "1514", "1515", "1415", "1414", "1413"]
    (m,) = _phase(legs_case.INFANTRY, "1513", ["1413"], trail).moves
    assert (m.ok, m.cost, m.allowance, m.path, m.judged) == (True, 5, 7, tuple(trail), "as dragged (trail)")
    pc = _phase(legs_case.INFANTRY, "1513", ["1413"], trail, allowance=3)
    (m,) = pc.moves
    assert (m.ok, m.judged) == (False, "as dragged (trail)")
    assert m.reason.endswith(
        "at 1415 -> 1414: needs 1 MP more after 3 MP spent by the hexes before: 4 MP in all, "
        "allowance 3 [standard-movement]"
    )


def test_a_trail_off_the_grid_or_missing_a_drop_falls_back_to_the_cheapest_path() -> None:
    (m,) = _phase(legs_case.INFANTRY, "1513", ["1413"], ["1513", None, "1413"]).moves
    assert (m.ok, m.cost, m.judged) == (True, 1, "cheapest between drops")
    assert m.path_note == "trail leaves the hex grid: judged the cheapest path instead"
    # Two drags, 1513 -> 1514 -> 1413; a trail that never went by 1514 is no trail of this move.
    (m,) = _phase(legs_case.INFANTRY, "1513", ["1514", "1413"], ["1513", "1412", "1413"]).moves
    assert m.path_note == "trail does not go through the drops: judged the cheapest path instead"
    (m,) = _phase(legs_case.INFANTRY, "1513", ["1413"], []).moves  # cleared during the move
    assert (m.judged, m.path_note) == (
        "cheapest between drops",
        "trail does not cover this move: judged the cheapest path instead",
    )


def test_trail_legs_collapses_points_within_one_hex() -> None:
    lab = {H(1, 1): "0101", H(1, 2): "0102", H(1, 3): "0103"}.__getitem__
    assert trail_legs([H(1, 1), H(1, 1), H(1, 2), H(1, 2), H(1, 3)], [H(1, 1), H(1, 3)], lab) == (
        [(H(1, 1), H(1, 2)), (H(1, 2), H(1, 3))],
        "",
    )
    assert trail_legs([H(1, 1), H(1, 3)], [H(1, 1), H(1, 3)], lab) == (
        [],
        "trail not continuous (0101 -> 0103, not adjacent): judged the cheapest path instead",
    )


def test_20_2_a_trail_across_an_unbridged_stream_in_poor_weather_is_illegal_where_the_way_round_is_legal() -> None:
    # 20.2: "no unit moves ... across unbridged Stream hexsides" in Poor weather (Game-Turn 6, 20.4). A stream
    # runs between 1513 and 1413: a drag between them is legal by the way round (1412, 2 MP); the trail shows
    # the unit crossed.
    base = legs_case.context()
    layout = base.layout
    a, b = layout.require("1513"), layout.require("1413")
    terrain = TerrainMap(base.terrain.vocabulary, base.terrain.hex_terrain, side_features={hexside(a, b): {"stream"}})
    ctx = replace(base, terrain=terrain)
    rules = turn_rules(load_pack(legs_case.PACK).pack, ctx)
    st = legs_case.state(
        ctx, {legs_case.PANZER: "1510", legs_case.GUARDS: "1513"}, "allied-movement", turn=6, weather="poor"
    )
    drags = {legs_case.GUARDS.id: [(legs_case.at(ctx, "1513"), legs_case.at(ctx, "1413"))]}
    (cheapest,) = check_phase(st, st.phase, drags, rules, ctx).moves
    assert (cheapest.ok, cheapest.cost, cheapest.path) == (True, 2, ("1513", "1412", "1413"))
    pc = check_phase(st, st.phase, drags, rules, ctx, trails={legs_case.GUARDS.id: (a, b)})
    (m,) = pc.moves
    assert (m.ok, m.judged, m.rule) == (False, "as dragged (trail)", "kasserine:20.2")
    assert (
        "at 1513 -> 1413: no legal path: unbridged stream hexside 1513/1413 may not be crossed in poor weather"
        in m.reason
    )
