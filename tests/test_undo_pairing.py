"""Each undone roll is paired with the roll that took its place, and a replay of the same actions
after an undo is told from a reroll (issue 11; spec 5.4, 5.6).

The roll that took an undone roll's place is the next roll of the same button by the same player
after the undo. VASSAL writes the undo of a roll as the inverse of its compound: the property
records first (the last one heads the step), the ``* UNDO: `` echo beside them (5.4); 3.6.7+
brackets it with ``UNDO true``/``UNDO false``, older logs do not (pitfall 5).
"""

from __future__ import annotations

import pytest
from test_vassal_accepts import EXAMPLE, oracle_pieces
from test_verify_builder import LIGHT_TANKS, Board

import vassal_adj
from vassal_adj.parse.commands import Node, encode, iter_nodes, log_steps, parse_stream, unlogged
from vassal_adj.parse.dice_reports import report_reader
from vassal_adj.pbem.audit import audit
from vassal_adj.pbem.replay import replay
from vassal_adj.report.markup import STYLES
from vassal_adj.report.verify_text import dice_lines
from vassal_adj.rules.results import Severity
from vassal_adj.savedgame import SavedGame

READ = report_reader(None)


def log(text: str, *kids: Node) -> Node:
    return Node("LOG\t" + text, kids)


def roll(button: str, dice: tuple[int, ...], player: str, old: str = "") -> Node:
    """A Dice Button roll as VASSAL logs it: the echo, its records under it (5.4)."""
    result = ",".join(map(str, dice))
    return log(
        f"CHAT*** {button} = {result} *** &lt;{player}&gt;",
        log(f"MutableProperty\t{button}_result\t{old}\t{result}\tModule"),
        log(f"MutableProperty\t{button}_total\t\t{sum(dice)}\tModule"),
    )


def inverse(button: str, dice: tuple[int, ...], player: str, old: str = "") -> Node:
    """The undo of `roll` as VASSAL builds it: the records put back, last first, the echo last."""
    result = ",".join(map(str, dice))
    return log(
        f"MutableProperty\t{button}_total\t{sum(dice)}\t\tModule",
        log(f"MutableProperty\t{button}_result\t{result}\t{old}\tModule"),
        log(f"CHAT* UNDO: *** {button} = {result} *** &lt;{player}&gt;"),
    )


def bracket(*undone: Node) -> Node:
    return log("UNDO\ttrue", Node("", list(undone)), log("UNDO\tfalse"))


def move(x: int, frm: int) -> Node:
    return log(f"M/1/Main Map/{x}/100/null/Main Map/{frm}/100/null/pw", log(f"CHAT* Tank moves to {x} *"))


def back(x: int, frm: int) -> Node:
    return log(f"CHAT* UNDO: * Tank moves to {frm} *", log(f"M/1/Main Map/{x}/100/null/Main Map/{frm}/100/null/pw"))


def game(*steps: Node) -> Node:
    opening = [
        Node(""),
        Node("", [Node("+/1/piece;;;u.png;Tank/Main Map;100;100;7;0")]),
        Node("PLAYER\tpw\tAlice\tAllies"),
        Node("end_save"),
    ]
    return parse_stream(encode(Node("begin_save", [*opening, *steps])))


@pytest.mark.parametrize("style", ["3.6.7 bracket", "older, no bracket"])
def test_the_inverse_of_a_roll_as_vassal_writes_it_undoes_that_roll(style: str) -> None:
    undo = inverse("2d6", (3, 4), "Alice")
    rp = replay(game(roll("2d6", (3, 4), "Alice"), bracket(undo) if style == "3.6.7 bracket" else undo))
    # Before 3.6.7 the step opens with a property record, not the echo: still an undo (pitfall 5).
    assert (rp.steps[1].undo, rp.steps[1].undoes, rp.steps[0].undone_in) == (True, 1, 2)
    (e,) = rp.steps[1].events
    assert e.undo and (e.button, e.result) == ("2d6", "3,4")  # the roll it takes back, not the value put back
    result = audit([("t.vlog", rp)], READ)
    assert [(r.number, r.undone_in) for r in result.rolls] == [(1, 2)]  # the inverse is no new roll


def test_the_roll_that_took_its_place_is_the_next_of_its_button_by_the_same_player() -> None:
    steps = [
        roll("2d6", (3, 4), "Alice"),
        bracket(inverse("2d6", (3, 4), "Alice")),
        roll("2d6", (1, 1), "Bob"),  # the same button, another player: not Alice's reroll
        roll("1d6", (6,), "Alice"),  # another button
        roll("2d6", (5, 6), "Alice", old="1,1"),
    ]
    result = audit([("t.vlog", replay(game(*steps)))], READ)
    assert [(r.number, r.player, r.value, r.undone_in, r.replaced_by) for r in result.rolls] == [
        (1, "Alice", "7 [3,4]", 2, 4),
        (2, "Bob", "2 [1,1]", None, None),
        (3, "Alice", "6", None, None),
        (4, "Alice", "11 [5,6]", None, None),
    ]
    (f,) = [f for f in result.findings if f.rule == "audit:undo-reroll"]
    assert f.message == (
        "t.vlog: roll 1 (2d6 = 7 [3,4]) by Alice in step 1 was undone in step 2; "
        "the next roll of that button, roll 4 by Alice in step 5, was 11 [5,6]"
    )
    (line,) = [x for x in dice_lines(result, STYLES["text"]) if x.lstrip("- ").startswith("Alice:")]
    assert "undone: 2d6 = 7 [3,4] (step 1, undone in step 2), rolled again as 11 [5,6] (step 5)" in line


def test_a_roll_made_before_the_undo_took_no_ones_place() -> None:
    # The roll of step 2 came before the undo of step 3 (which takes back step 1: its echo repeats that roll's).
    steps = [roll("2d6", (3, 4), "Alice"), roll("2d6", (2, 2), "Alice"), inverse("2d6", (3, 4), "Alice")]
    result = audit([("t.vlog", replay(game(*steps)))], READ)
    assert [(r.undone_in, r.replaced_by) for r in result.rolls] == [(3, None), (None, None)]
    assert [f.rule for f in result.findings if f.rule.startswith("audit:undo")] == ["audit:undo"]


def test_the_same_actions_replayed_after_an_undo_are_no_reroll() -> None:
    # Alice moves and rolls, undoes both (latest first), then makes the same move and gets the same roll.
    steps = [
        move(150, 100),
        roll("2d6", (3, 4), "Alice"),
        bracket(inverse("2d6", (3, 4), "Alice")),
        bracket(back(100, 150)),
        move(150, 100),
        roll("2d6", (3, 4), "Alice", old=""),
    ]
    rp = replay(game(*steps))
    assert [(s.number, s.undoes, s.undone_in) for s in rp.steps] == [
        (1, None, 4),
        (2, None, 3),
        (3, 2, None),
        (4, 1, None),
        (5, None, None),
        (6, None, None),
    ]
    result = audit([("t.vlog", rp)], READ)
    first, again = result.rolls
    assert (first.undone_in, first.replaced_by, first.replayed) == (3, again.number, True)
    assert not [f for f in result.findings if f.rule == "audit:undo-reroll"]
    (f,) = [f for f in result.findings if f.rule == "audit:undo" and "roll 1" in f.message]
    assert f.severity == Severity.INFO
    assert f.message.endswith("the steps after the undo replayed the same actions: roll 2 in step 6 was 7 [3,4] again")
    assert any("the steps after the undo replayed the same actions" in x for x in dice_lines(result, STYLES["text"]))


@pytest.mark.parametrize("later", [
    [move(150, 100), roll("2d6", (5, 6), "Alice")],  # the same move, another result
    [move(200, 100), roll("2d6", (3, 4), "Alice")],  # the same result after another move
])  # fmt: skip
def test_anything_else_after_the_undo_is_a_reroll(later: list[Node]) -> None:
    steps = [
        move(150, 100),
        roll("2d6", (3, 4), "Alice"),
        bracket(inverse("2d6", (3, 4), "Alice")),
        bracket(back(100, 150)),
        *later,
    ]
    result = audit([("t.vlog", replay(game(*steps)))], READ)
    assert not result.rolls[0].replayed and result.rolls[0].replaced_by == 2
    assert [f.severity for f in result.findings if f.rule == "audit:undo-reroll"] == [Severity.WARNING]


def test_vassal_decodes_every_command_of_an_older_undo_as_built_here(tmp_path) -> None:
    """The inverse of a roll and of a move, built here as VASSAL before 3.6.7 writes them (no
    bracket, no property container), are commands the real engine decodes: the log below is in
    VASSAL's format, and the replay pairs each undo with the step it took back."""
    module, setup = vassal_adj.load_module(EXAMPLE / "Kasserine.vmod"), vassal_adj.load_save(EXAMPLE / "setup.vsav")
    b = Board(module, setup)
    echo = "*** 1d6 = {} *** &lt;Erwin&gt;"
    steps = [
        log("CHAT" + echo.format(2), log("MutableProperty\t1d6_result\t\t2"), log("MutableProperty\t1d6_total\t\t2")),
        log(
            "MutableProperty\t1d6_total\t2\t",
            log("MutableProperty\t1d6_result\t2\t"),
            log("CHAT* UNDO: " + echo.format(2)),
        ),
        log("CHAT" + echo.format(6), log("MutableProperty\t1d6_result\t\t6"), log("MutableProperty\t1d6_total\t\t6")),
        log(b.move(LIGHT_TANKS, "2612", "2714").text[4:], log("CHAT* 1/13 moves 2714 -> 2612 *")),
        log(b.move(LIGHT_TANKS, "2714", "2612").text[4:], log("CHAT* UNDO: * 1/13 moves 2714 -> 2612 *")),
    ]
    root = setup.root
    text = encode(Node(root.text, [*root.children, *steps]))
    path = tmp_path / "older-undo.vlog"
    SavedGame.new(
        text,
        codec=setup.codec,
        savedata=setup.archive.entries.get("savedata"),
        moduledata=setup.archive.entries.get("moduledata"),
    ).write(path)
    game = vassal_adj.load_save(path)
    texts = [unlogged(n.text) for s in log_steps(game.root) for _, _, n in iter_nodes(s)]
    result = oracle_pieces(EXAMPLE / "Kasserine.vmod", path)
    assert result["load"]["decoded_commands"]["BasicLogger$LogCommand"] == len(texts) == 13
    rp = replay(game.root, module)
    assert [(s.undo, s.undoes, s.undone_in) for s in rp.steps] == [
        (False, None, 2),
        (True, 1, None),
        (False, None, None),
        (False, None, 5),
        (True, 4, None),
    ]
    (r, again) = audit([("older-undo.vlog", rp)], READ).rolls
    assert (r.value, r.player, r.undone_in, r.replaced_by, again.value) == ("2", "Erwin", 2, 2, "6")
