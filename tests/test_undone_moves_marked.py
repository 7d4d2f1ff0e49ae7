"""Undone moves and changes are marked as undone in every listing and never judged as moves
(issue 11; spec 5.6, pitfall 5).

An undo of VASSAL 3.6.7+ is bracketed (``UNDO true`` ... ``UNDO false``); older logs hold only the
inverse commands: the ``* UNDO: `` echo of the report the undone action wrote and a move of the
same piece back to the exact place it came from. The echo heads the undo when the undone action's
report came last, but follows the inverse move when the report came first (VASSAL inverts a
compound last command first): both are undos (verify_turn judges neither:
tests/test_verify_undone_legs.py). The step an undo takes back is the one whose
report it repeats, else the one whose moves it inverts; a chat line of the opponent, logged
between, is not the player's to undo.
"""

from __future__ import annotations

import json
from pathlib import Path

import lxml.html
import pytest
from click.testing import CliRunner
from test_replay import OPENING, game, log, move
from test_verify_builder import EXAMPLE, LIGHT_TANKS, Board, module, setup  # noqa: F401

from vassal_adj.cli import main
from vassal_adj.codec.obfuscation import Codec
from vassal_adj.parse.commands import Node, encode
from vassal_adj.pbem.replay import replay
from vassal_adj.report.turn_view import TurnView
from vassal_adj.savedgame import SavedGame

FORTH = log(move("3", (350, 300), (300, 300)), log("CHAT* Scout moves *"))
BRACKET = log(
    "UNDO\ttrue",
    Node("", [log("CHAT* UNDO: * Scout moves *"), log(move("3", (300, 300), (350, 300)))]),
    log("UNDO\tfalse"),
)
ECHO_FIRST = log("CHAT* UNDO: * Scout moves *", log(move("3", (300, 300), (350, 300))))
ECHO_LAST = log(move("3", (300, 300), (350, 300)), log("CHAT* UNDO: * Scout moves *"))
UNDOS = {"bracket": BRACKET, "echo first": ECHO_FIRST, "echo last": ECHO_LAST}


def run(tmp_path: Path, root: Node, *args: str) -> str:
    path = tmp_path / "turn.vlog"
    SavedGame.new(encode(root), codec=Codec(True, 7)).write(path)
    result = CliRunner().invoke(main, ["verify", str(path), *args])
    assert result.exit_code == 0, result.output
    return result.output


@pytest.mark.parametrize("undo", list(UNDOS))
def test_a_move_taken_back_is_undone_in_the_replay(undo: str) -> None:
    rp = replay(game(OPENING, FORTH, log("CHAT&lt;Alice&gt; - oops"), UNDOS[undo]))
    assert [(s.undo, s.undoes, s.undone_in) for s in rp.steps] == [
        (False, None, 3),
        (False, None, None),
        (True, 1, None),
    ]
    assert list(rp.kept()) == [rp.steps[1].events[0]]  # only the chat line stayed
    assert [type(e).__name__ for _s, e in rp.undone()] == ["Moved", "ChatLine"]  # the move and its report


def test_the_step_an_undo_takes_back_is_the_one_whose_move_it_inverts() -> None:
    # No report, no echo: a 3.6.7+ bracket holding the inverse move alone. Bob's chat, logged after
    # Alice's move, is not hers to undo: the inverse move tells which step it took back.
    silent = log(move("3", (350, 300), (300, 300)))
    undo = log("UNDO\ttrue", Node("", [log(move("3", (300, 300), (350, 300)))]), log("UNDO\tfalse"))
    rp = replay(game(OPENING, silent, log("CHAT&lt;Bob&gt; - hi"), undo))
    assert [(s.undoes, s.undone_in) for s in rp.steps] == [(None, 3), (None, None), (1, None)]


@pytest.mark.parametrize("fmt", ["text", "markdown", "bbcode"])
def test_every_text_listing_marks_the_undone_move(tmp_path: Path, fmt: str) -> None:
    out = run(tmp_path, game(OPENING, FORTH, log(move("1", (120, 100), (100, 100))), ECHO_LAST), "--format", fmt)
    # The per-piece lines: the Tank's move stayed, the Scout's was taken back.
    assert "pieces moved (no rule pack judged them): 1 (and 1 move(s) undone)" in out
    assert "Tank: Main Map @100,100 -> Main Map @120,100: not judged" in out
    assert "Scout: Main Map @300,300 -> Main Map @350,300: undone (step 1, undone in step 3)" in out
    assert "Scout: Main Map @300,300 -> Main Map @350,300: not judged" not in out
    # The step list: the undone step and each of its lines.
    assert "step 1, undone in step 3 (command" in out
    (line,) = [x for x in out.splitlines() if "Main Map @300,300 -> Main Map @350,300 (by Alice)" in x]
    assert line.replace("\\", "").rstrip("])").endswith("undone in step 3")  # brackets as each format escapes them
    assert "step 3, undo of step 1 (command" in out
    assert "1 undone steps" in out


def test_json_gives_each_step_the_undo_that_took_it_back(tmp_path: Path) -> None:
    data = json.loads(run(tmp_path, game(OPENING, FORTH, ECHO_LAST), "--format", "json"))
    steps = data["files"][0]["steps"]
    assert [(s["number"], s["undoes"], s["undone_in"]) for s in steps] == [(1, None, 2), (2, 1, None)]
    assert data["files"][0]["counts"]["undone steps"] == 1


def test_the_html_page_lists_undone_moves_apart_and_draws_none(tmp_path: Path, module, setup) -> None:  # noqa: F811
    b = Board(module, setup)
    undo = log(b.move(LIGHT_TANKS, "2714", "2512").text[4:], log("CHAT* UNDO: * moves *"))
    root = setup.root
    steps = [b.move(LIGHT_TANKS, "2512", "2714"), undo, b.move(LIGHT_TANKS, "2612", "2714")]
    game = SavedGame.new(
        encode(Node(root.text, [*root.children, *steps])),
        codec=Codec(True, 7),
        moduledata=setup.archive.entries.get("moduledata"),
    )
    view = TurnView([("t.vlog", replay(game.root, module))])
    assert [(m.start, m.end) for m in view.moves()] == [("2714", "2612")]  # drawn: the move that stayed
    ((path, step, undone_in, e),) = view.undone()
    assert (path, step, undone_in, e.origin.label, e.to.label) == ("t.vlog", 1, 2, "2714", "2512")
    game.write(tmp_path / "t.vlog")
    page = lxml.html.fromstring(
        CliRunner()
        .invoke(
            main,
            [
                "verify",
                str(tmp_path / "t.vlog"),
                "--module",
                str(EXAMPLE / "Kasserine.vmod"),
                "--no-rules",
                "--format",
                "html",
            ],
        )
        .output
    )
    (row,) = page.xpath("//h2[.='Undone']/following-sibling::*[1]//tbody/tr")
    assert [c.text_content() for c in row][1:3] == ["1", "2"]
    assert "2-1-14 (1/13): Main Map 2714 -> Main Map 2512" in row.text_content()
