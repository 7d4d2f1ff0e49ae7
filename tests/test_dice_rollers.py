"""Every die roll in the step listing shows who rolled and what, and counts as one roll (issue 11).

A Dice Button roll is its property records ``<button>_result`` (``_total``, ``_keep``, ``_summary``)
and its chat echo (spec 5.4, pitfall 21): one roll, never two, wherever the echo sits (above the
records as VASSAL writes a roll, beside them, or absent when the button's report format is
empty). Modules that report rolls only in chat (VASL, CCN) are read from the chat line; those
lines then count as die rolls, not chat lines. Corpus: AdvancedSquadLeader_VASL/*.vlog,
CommandsAndColorsNapoleonics/CCNv4 Tutorial.vlog, CaptureOfTheTerritory/5x5_startup.vlog.
"""

from __future__ import annotations

import pytest
from conftest import CORPUS, need_corpus
from test_dice_audit_readers import CCN_DICE, _pack

from vassal_adj.load import load_save
from vassal_adj.model.events import ChatLine, DieRolled, PropertySet
from vassal_adj.parse.commands import Node, encode, parse_stream
from vassal_adj.parse.dice import dice_rolls
from vassal_adj.parse.dice_reports import report_reader
from vassal_adj.pbem.audit import audit
from vassal_adj.pbem.replay import replay
from vassal_adj.report.markup import STYLES
from vassal_adj.report.turn_view import TurnView
from vassal_adj.report.verify_steps import Section

READ = report_reader(None)


def log(text: str, *kids: Node) -> Node:
    return Node("LOG\t" + text, kids)


def game(*steps: Node) -> Node:
    opening = [Node(""), Node("PLAYER\tpw\tBob\tAxis"), Node("end_save")]
    return parse_stream(encode(Node("begin_save", [*opening, *steps])))


def listing(path: str, root: Node, chat_dice: tuple = ()) -> tuple[list[str], str]:
    """The step listing of a log as verify prints it (text): its event lines and its summary."""
    rp = replay(root)
    checked = audit([(path, rp)], READ, chat_dice=chat_dice)
    lines, _hidden = Section(path, True, rp, None, checked.rolls).lines(STYLES["text"], False)
    events = [x.strip() for x in lines if x.startswith("  ")]
    return events, next(x for x in lines if "summary:" in x)


@pytest.mark.parametrize(("name", "rolls", "chat", "players"), [
    ("3d6.vlog", 6, 0, {"test"}),  # four VASL chat rolls, two 3d6 Dice Button rolls
    ("full.vlog", 23, 7, {"Alice", "Bob"}),  # 30 steps: 23 rolls, 4 chat lines, 3 phase reports
    ("4players.vlog", 35, 5, {"Alice", "Bob", "Chuck", "Dave"}),  # 40 steps: 35 rolls, 2 chat lines, 3 reports
])  # fmt: skip
def test_every_vasl_roll_is_listed_with_its_roller_and_counted_as_a_roll(
    name: str, rolls: int, chat: int, players: set[str]
) -> None:
    need_corpus()
    path = CORPUS / "AdvancedSquadLeader_VASL" / name
    events, summary = listing(name, load_save(path).root)
    dice = [e for e in events if e.startswith("dice ")]
    assert len(dice) == rolls and not any(e.startswith("report   ** (") for e in events)
    assert {e.split(" by ")[1].split(" (")[0] for e in dice} == players
    assert f"{chat} chat lines, {rolls} die rolls" in summary


def test_the_3d6_log_shows_what_each_roll_was() -> None:
    need_corpus()
    events, _ = listing("3d6.vlog", load_save(CORPUS / "AdvancedSquadLeader_VASL" / "3d6.vlog").root)
    # Read by hand from the log: VASL's "(IFT DR) 6,6" is two d6, "(RS dr) 2" one; 3d6 is a Dice Button.
    assert [e.split(" (")[0] for e in events] == [
        "dice     IFT DR = 12 [6,6] by test",
        "dice     RS dr = 2 by test",
        "dice     3d6 = 8 [3,4,1] by test",
        "dice     IFT DR = 11 [6,5] by test",
        "dice     TH DR = 8 [6,2] by test",
        "dice     3d6 = 8 [2,4,2] by test",
    ]


def test_the_ccn_tutorial_lists_its_17_battle_dice_rolls_with_the_roller() -> None:
    need_corpus()
    root = load_save(CORPUS / "CommandsAndColorsNapoleonics" / "CCNv4 Tutorial.vlog").root
    events, summary = listing("tutorial.vlog", root, _pack(CCN_DICE).dice)
    dice = [e for e in events if e.startswith("dice ")]
    assert len(dice) == 17 and all(" by Tutorial (Solitaire) (" in e for e in dice)
    assert dice[0].startswith("dice     battle dice = CAVx1  XSWx1 by Tutorial (Solitaire)")
    assert "221 chat lines, 17 die rolls" in summary  # 238 chat lines before, 17 of them the rolls


def test_the_html_chat_table_leaves_out_the_lines_listed_as_rolls() -> None:
    need_corpus()
    rp = replay(load_save(CORPUS / "AdvancedSquadLeader_VASL" / "full.vlog").root)
    view = TurnView([("full.vlog", rp)], rolls=audit([("full.vlog", rp)], READ).rolls)
    assert len(list(view.chat())) == 7  # the 23 roll reports are in the dice table


def test_a_log_without_dice_lists_no_roll() -> None:
    need_corpus()
    events, summary = listing("5x5.vlog", load_save(CORPUS / "CaptureOfTheTerritory" / "5x5_startup.vlog").root)
    assert not any(e.startswith("dice ") for e in events)
    assert "6 chat lines, 0 die rolls" in summary  # six "... created in B05" reports


def test_a_2_9_style_echo_and_its_property_record_are_one_roll() -> None:
    # VASSAL 2.9-3.3 wrote the player's name in raw angle brackets, and MutableProperty without
    # a container (5.4); the record hangs under the echo.
    root = game(log("CHAT*** d6 = 4 *** <Bob>", log("MutableProperty\td6_result\t2\t4")))
    (roll,) = dice_rolls(root)
    assert (roll.button, roll.result, roll.report) == ("d6", "4", "*** d6 = 4 *** <Bob>")
    events, summary = listing("old.vlog", root)
    assert events == ["dice     d6 = 4 by Bob (*** d6 = 4 *** <Bob>)"]
    assert "0 chat lines, 1 die rolls" in summary


def test_an_echo_beside_its_records_is_one_roll() -> None:
    root = game(
        log(
            "",
            log("CHAT*** 2d6 = 3,5 *** &lt;Bob&gt;"),
            log("MutableProperty\t2d6_result\t\t3,5\tModule"),
            log("MutableProperty\t2d6_total\t\t8\tModule"),
        )
    )
    rp = replay(root)
    (e,) = list(rp.events())
    assert isinstance(e, DieRolled) and (e.button, e.result, e.total) == ("2d6", "3,5", "8")
    assert [r.player for r in audit([("t.vlog", rp)], READ).rolls] == ["Bob"]


def test_records_without_an_echo_are_a_roll() -> None:
    # A Dice Button whose report format is empty writes no chat line, only its records (pitfall 21).
    root = game(
        log(
            "",
            log("MutableProperty\t1d10_result\t\t7\tModule"),
            log("MutableProperty\t1d10_total\t\t7\tModule"),
            log("MutableProperty\tPhase\tMove\tFire\tModule"),
        )
    )
    kinds = [type(e) for e in replay(root).events()]
    assert kinds == [DieRolled, PropertySet]  # the roll once; the other property is no part of it
    (r,) = audit([("t.vlog", replay(root))], READ).rolls
    assert (r.button, r.result, r.report, r.player) == ("1d10", "7", None, "unknown")  # nothing names the roller


def test_a_chat_line_beside_a_roll_that_does_not_quote_it_stays_a_chat_line() -> None:
    root = game(log("", log("CHAT* Bob attacks 2514 *"), log("MutableProperty\t1d6_result\t\t5\tModule")))
    events = list(replay(root).events())
    assert [type(e) for e in events] == [ChatLine, DieRolled] and events[1].report is None
