"""Replaying a log into events (pbem/replay.py, model/events.py): synthetic logs, the spec's
log vector, and the corpus logs."""

from __future__ import annotations

import json
import time

import pytest
from conftest import CORPUS, SPEC, need_corpus

from vassal_adj.load import load_module, load_save
from vassal_adj.model.events import (
    Added,
    Changed,
    ChatLine,
    DieRolled,
    Moved,
    PieceDiff,
    Place,
    PropertySet,
    Removed,
    TurnChanged,
    diff_pieces,
)  # fmt: skip
from vassal_adj.parse.commands import Node, encode, iter_texts, log_steps, parse_stream, unlogged
from vassal_adj.parse.tokens import join
from vassal_adj.pbem.replay import diff_saves, end_pieces, opening_differences, replay

PASSWORD = "s3cr3t-pw"


def chain(*parts: str) -> str:
    """A decorator chain's type or state: each level holds the rest, TAB-encoded (6.1)."""
    text = parts[-1]
    for part in reversed(parts[:-1]):
        text = join([part, text], "\t")
    return text


FLIP = join(
    [
        "emb2",
        "Flip",
        "128",
        "A",
        "",
        "128",
        "",
        "",
        "128",
        "",
        "",
        "",
        "1",
        "false",
        "0",
        "0",
        "front.png,back.png",
        "+ (flipped),+ (reduced)",
        "true",
        "Flip",
        "",
        "",
        "false",
        "",
        "1",
        "1",
        "false",
    ],
    ";",
)


def add(ident: str, name: str, x: int, y: int, side: str = "Allies", level: int = -1, map_id: str = "Main Map") -> str:
    piece_type = chain(FLIP, "mark;Side", f"piece;;;u.png;{name}")
    return "+/" + join([ident, piece_type, state(x, y, side, level, map_id)], "/")


def state(x: int, y: int, side: str = "Allies", level: int = -1, map_id: str = "Main Map") -> str:
    return chain(str(level), side, f"{map_id};{x};{y};7;0")


def stack(ident: str, x: int, y: int, *members: str) -> str:
    return f"+/{ident}/stack/Main Map;{x};{y};{';'.join(members)};@@0"


def move(ident: str, to: tuple[int, int], frm: tuple[int, int], under: str = "null") -> str:
    return f"M/{ident}/Main Map/{to[0]}/{to[1]}/{under}/Main Map/{frm[0]}/{frm[1]}/null/{PASSWORD}"


def log(text: str, *kids: Node) -> Node:
    return Node("LOG\t" + text, kids)


def game(pieces: list[str], *steps: Node) -> Node:
    """A log's command tree: the opening position, then the steps (parsed from its text)."""
    opening = [
        Node(""),
        Node("", [Node(p) for p in pieces]),
        Node(f"PLAYER\t{PASSWORD}\tAlice\tAllies"),
        Node("end_save"),
    ]
    return parse_stream(encode(Node("begin_save", [*opening, *steps])))


OPENING = [
    add("1", "Tank", 100, 100),
    add("2", "Jeep", 100, 100),
    stack("9", 100, 100, "1", "2"),
    add("3", "Scout", 300, 300),
]


def events(root: Node, kind: type | None = None) -> list:
    found = list(replay(root).events())
    return [e for e in found if kind is None or isinstance(e, kind)]


def test_a_single_piece_moves_with_its_mover_named_not_its_password() -> None:
    root = game(OPENING, log(move("3", (350, 300), (300, 300))))
    (m,) = events(root)
    assert isinstance(m, Moved) and (m.piece, m.name, m.via, m.player) == ("3", "Scout", None, "Alice")
    assert (m.origin, m.to) == (Place("Main Map", 300, 300), Place("Main Map", 350, 300))
    assert m.step == 1 and m.command == log_steps(root)[0].index and not m.undo
    assert PASSWORD not in repr(replay(root))


def test_moving_a_stack_moves_its_members() -> None:
    rp = replay(game(OPENING, log(move("9", (200, 150), (100, 100)))))
    moved = [e for e in rp.events() if isinstance(e, Moved)]
    assert [(e.piece, e.via, str(e.to)) for e in moved] == [
        ("1", "9", "Main Map @200,150"),
        ("2", "9", "Main Map @200,150"),
    ]
    assert {p.id: (p.x, p.y) for p in rp.final} == {"1": (200, 150), "2": (200, 150), "3": (300, 300)}


def test_a_piece_put_under_another_joins_its_stack() -> None:
    root = game(OPENING, log(move("3", (100, 100), (300, 300), under="2")), log(move("9", (500, 500), (100, 100))))
    assert {p.id: (p.x, p.y) for p in replay(root).final} == {k: (500, 500) for k in "123"}


def test_a_piece_dropped_on_a_stack_merges_and_one_moved_out_leaves_it() -> None:
    root = game(
        OPENING,
        log(move("3", (100, 100), (300, 300))),
        log(move("1", (0, 0), (100, 100))),
        log(move("9", (50, 50), (100, 100))),
    )
    final = {p.id: (p.x, p.y) for p in replay(root).final}
    assert final == {"1": (0, 0), "2": (50, 50), "3": (50, 50)}


def test_an_undo_bracket_marks_its_events_and_restores_the_position() -> None:
    forth = log(move("3", (350, 300), (300, 300)), log("CHAT* Scout moves *"))
    back = log(
        "UNDO\ttrue",
        Node("", [log("CHAT* UNDO: * Scout moves *"), log(move("3", (300, 300), (350, 300)))]),
        log("UNDO\tfalse"),
    )
    rp = replay(game(OPENING, forth, log("CHAT&lt;Alice&gt; - oops"), back))
    assert [(s.undo, s.undoes) for s in rp.steps] == [(False, None), (False, None), (True, 1)]
    undone = [e for e in rp.steps[2].events]
    assert all(e.undo for e in undone) and isinstance(undone[-1], Moved)
    assert next(p for p in rp.final if p.id == "3").x == 300
    assert rp.counts()["moves"] == 1 and rp.counts()["undos"] == 1


def test_an_old_style_undo_step_is_an_undo() -> None:
    rp = replay(
        game(
            OPENING,
            log(move("3", (350, 300), (300, 300))),
            log("CHAT* UNDO: * Scout moves *", log(move("3", (300, 300), (350, 300)))),
        )
    )
    assert rp.steps[1].undo and rp.steps[1].undoes == 1
    assert all(e.undo for e in rp.steps[1].events)


def test_a_die_roll_is_one_event_with_its_report_and_result() -> None:
    roll = log(
        "CHAT*** 2d6 = 3,5 *** &lt;Alice&gt;",
        log("MutableProperty\t2d6_result\t1,1\t3,5\tModule"),
        log("MutableProperty\t2d6_total\t2\t8\tModule"),
        log("MutableProperty\tPhase\tMove\tCombat\tModule"),
    )
    found = events(game(OPENING, roll))
    assert [type(e) for e in found] == [DieRolled, PropertySet]
    die = found[0]
    assert (die.button, die.result, die.total, die.report) == ("2d6", "3,5", "8", "*** 2d6 = 3,5 *** &lt;Alice&gt;")
    assert (found[1].name, found[1].before, found[1].after) == ("Phase", "Move", "Combat")


def test_a_turn_change() -> None:
    (t,) = events(game(OPENING, log("TURNTurnTracker0\t0|4;0;false;-1")))
    assert isinstance(t, TurnChanged) and (t.tracker, t.state, t.values) == ("TurnTracker0", "0|4;0;false;-1", ())


def test_a_flip_renames_the_piece_and_changes_its_layer() -> None:
    (c,) = events(game(OPENING, log("D/" + join(["3", state(300, 300, level=1), state(300, 300)], "/"))))
    assert isinstance(c, Changed) and (c.name_before, c.name) == ("Scout", "Scout (flipped)")
    changed = {p.name: (p.before, p.after) for p in c.properties}
    assert changed["Flip_Level"] == ("-1", "1") and changed["PieceName"] == ("Scout", "Scout (flipped)")


def test_a_change_of_side_marker_is_a_property_change() -> None:
    (c,) = events(game(OPENING, log("D/" + join(["3", state(300, 300, side="Axis")], "/"))))
    assert c.name == c.name_before == "Scout"
    assert [(p.name, p.before, p.after) for p in c.properties] == [("Side", "Allies", "Axis")]


def test_a_change_keeps_the_place_of_a_piece_whose_basic_state_did_not_change() -> None:
    # The basic piece of a stacked piece may name a stale map; VASSAL merges per trait.
    stale = state(100, 100, map_id="Elsewhere")
    assert events(game(OPENING, log("D/" + join(["1", stale, stale], "/")))) == []
    (m,) = events(game(OPENING, log("D/" + join(["3", state(90, 90), state(300, 300)], "/"))), Moved)
    assert m.by_change and str(m.to) == "Main Map @90,90"


def test_arrival_and_removal() -> None:
    rp = replay(game(OPENING, log(add("4", "Truck", 10, 20)), log("-/1"), log("-/9")))
    arrive, remove = list(rp.events())
    assert isinstance(arrive, Added) and (arrive.name, str(arrive.at)) == ("Truck", "Main Map @10,20")
    assert isinstance(remove, Removed) and (remove.piece, remove.name) == ("1", "Tank")
    assert sorted(p.id for p in rp.final) == ["2", "3", "4"] and not rp.problems


def test_commands_on_unknown_pieces_are_problems_not_crashes() -> None:
    rp = replay(game(OPENING, log(move("77", (1, 1), (2, 2))), log("-/78")))
    assert list(rp.events()) == [] and len(rp.problems) == 2 and "'77'" in rp.problems[0]


def test_chat_lines() -> None:
    found = events(game(OPENING, log("CHAT&lt;Alice&gt; - Hello Bob"), log("CHAT* Scout moves *")))
    assert [(e.speaker, e.text, e.report) for e in found] == [
        ("Alice", "Hello Bob", False),
        (None, "Scout moves *", True),
    ]
    assert all(isinstance(e, ChatLine) for e in found)


def test_the_spec_log_vector() -> None:
    path = SPEC / "vectors.json"
    if not path.is_file():
        pytest.skip(f"spec vectors not found at {path}")
    rp = replay(parse_stream(json.loads(path.read_text(encoding="utf-8"))["commands"]["vlog"]["plain"]))
    moves = [e for e in rp.events() if isinstance(e, Moved)]
    assert [(e.piece, e.via, e.undo) for e in moves] == [
        ("1700000000001", "1700000000002", False),
        ("1700000000001", "1700000000002", True),
    ]
    assert (moves[0].player, str(moves[0].to)) == ("Alice", "Main Map @200,150")
    assert [(s.undo, s.undoes) for s in rp.steps] == [(False, None), (False, None), (True, 1)]
    assert rp.counts()["chat lines"] == 2 and rp.final == rp.opening
    assert "secret123" not in repr(rp)


def test_differences_between_positions() -> None:
    before = game(OPENING)
    after = game([add("1", "Tank", 100, 100, level=1), add("2", "Jeep", 140, 100), add("5", "Gun", 1, 1)])
    diffs = {d.piece: d for d in diff_saves(before, after)}
    assert {k: d.kind for k, d in diffs.items()} == {"1": "changed", "2": "moved", "5": "added", "3": "removed"}
    assert diffs["1"].name_before == "Tank" and diffs["1"].name == "Tank (flipped)"
    assert diffs["2"].start == Place("Main Map", 100, 100) and diffs["2"].end == Place("Main Map", 140, 100)
    assert opening_differences(end_pieces(before), end_pieces(before)) == []
    assert diff_pieces(end_pieces(after), end_pieces(after)) == []
    assert isinstance(diffs["5"], PieceDiff) and diffs["5"].start is None


# -- the corpus --------------------------------------------------------------------------

CCN = "CommandsAndColorsNapoleonics"


def _moves_outside_undo(root: Node) -> int:
    count = 0
    for step in log_steps(root):
        texts = [unlogged(t) for _, t in iter_texts(step)]
        undo = texts[0].startswith("CHAT* UNDO: ")
        for t in texts:
            undo = t == "UNDO\ttrue" or (undo and t != "UNDO\tfalse")
            count += t.startswith("M/") and not undo
    return count


def test_ccn_tutorial_replays_every_move_with_labels() -> None:
    need_corpus()
    module = load_module(CORPUS / CCN / "CommandsAndColorsNapoleonics.vmod")
    g = load_save(CORPUS / CCN / "CCNv4 Tutorial.vlog")
    start = time.perf_counter()
    rp = replay(g.root, module, g.path)
    seconds = time.perf_counter() - start
    counts = rp.counts()
    assert counts["moves"] == _moves_outside_undo(g.root) == 295
    assert (counts["arrivals"], counts["removals"], counts["undos"]) == (31, 189, 1)
    assert not rp.problems and len(rp.opening) == 401 and len(rp.final) == 401 + 31 - 189
    known = {p.id for p in rp.opening} | {e.piece for e in rp.events() if isinstance(e, Added)}
    moves = [e for e in rp.events() if isinstance(e, Moved)]
    assert all(m.piece in known for m in moves)
    on_main = [m for m in moves if m.to.map == "Main Map"]
    assert on_main and all(m.to.label for m in on_main)
    assert {m.to.label for m in on_main} >= {"H08", "D08", "G07"}
    assert seconds < 10, f"replaying the CCN tutorial took {seconds:.2f} s"


@pytest.mark.parametrize("name", ["3d6.vlog", "4players.vlog", "full.vlog"])
def test_vasl_logs_replay_without_module(name: str) -> None:
    need_corpus()
    g = load_save(CORPUS / "AdvancedSquadLeader_VASL" / name)
    rp = replay(g.root)
    assert rp.steps and not rp.problems and len(rp.final) == len(rp.opening)
    for e in rp.events():
        if isinstance(e, Changed):
            assert e.at.map is not None and e.at.label is None
    if name == "3d6.vlog":
        rolls = [e for e in rp.events() if isinstance(e, DieRolled)]
        assert [(d.button, d.result) for d in rolls] == [("3d6", "3,4,1"), ("3d6", "2,4,2")]
        assert not any(isinstance(e, PropertySet) for e in rp.events())


def test_capture_of_the_territory_arrivals_have_the_labels_vassal_reported() -> None:
    need_corpus()
    case = CORPUS / "CaptureOfTheTerritory"
    g = load_save(case / "5x5_startup.vlog")
    rp = replay(g.root, load_module(case / "CaptureOfTheTerritory.vmod"), g.path)
    for step in rp.steps:
        arrive, report = step.events[0], step.events[-1]
        assert isinstance(arrive, Added) and isinstance(report, ChatLine)
        assert report.text == f"{arrive.name} created in {arrive.at.label}"
    assert rp.counts()["arrivals"] == 6
