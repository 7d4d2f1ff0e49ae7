"""Die rolls read from chat reports by the dice buttons' report formats (parse/dice_reports.py)."""

from __future__ import annotations

import pytest
from conftest import need_corpus

from vassal_adj.load import load_module, load_save
from vassal_adj.model.events import ChatLine, DieRolled
from vassal_adj.model.module import DiceButtonDef
from vassal_adj.parse.dice_reports import DEFAULT_FORMAT, ReportReader, ReportRoll, format_regex, report_reader
from vassal_adj.pbem.replay import replay

NEVSKY = (
    '$name$ = <img src="d6-black-0$result1$.png" width="14" height="14">  ($result1$ rolled by '
    '$PlayerName$) <span style="color:#ffffff;">$result1$</b>'
)


@pytest.mark.parametrize(
    "text", ["** 2d6 = 3,5 *** &lt;Alice&gt;", "** 2d6 = 3,5 *** <Alice>", "** 2d6 = 3,5 ***  &lt;Alice&gt;  "]
)
def test_the_default_format_matches_escaped_and_raw_brackets(text: str) -> None:
    m = format_regex(DEFAULT_FORMAT, "2d6").fullmatch(text)  # type: ignore[union-attr]
    assert m is not None and (m["result"], m["player"]) == ("3,5", "Alice")


def test_the_name_is_literal_for_a_known_button_and_a_group_otherwise() -> None:
    known = format_regex(DEFAULT_FORMAT, "2d6")
    assert known is not None and known.fullmatch("** 1d6 = 3 *** <A>") is None
    any_button = format_regex(DEFAULT_FORMAT)
    assert any_button is not None
    assert any_button.fullmatch("** Fire (2d6) = 3,5 *** <A>")["name"] == "Fire (2d6)"  # type: ignore[index]


def test_a_property_used_twice_must_repeat_its_value_and_others_match_any_text() -> None:
    nevsky = format_regex(NEVSKY, "Black Die")
    assert nevsky is not None
    ok = (
        'Black Die = <img src="d6-black-04.png" width="14" height="14">  (4 rolled by Bob) '
        '<span style="color:#ffffff;">4</b>'
    )
    assert nevsky.fullmatch(ok)["result_1"] == "4"  # type: ignore[index]
    assert nevsky.fullmatch(ok.replace("(4 rolled", "(5 rolled")) is None
    sided = format_regex("$name$ rolls $result$ for $PlayerSide$ ($nDice$d$nSides$)", "Fire")
    assert sided is not None
    assert sided.fullmatch("Fire rolls 2,6 for Germans (2d6)")["result"] == "2,6"  # type: ignore[index]


def test_a_beanshell_format_has_no_regex() -> None:
    assert format_regex('{"** " + name + " = " + result}', "x") is None


def test_the_reader_takes_a_chat_message_or_its_body() -> None:
    read = ReportReader([DiceButtonDef(name="2d6")])
    want = ReportRoll("2d6", "3,5", (3, 5), 6, 8, "Alice")
    assert read("*** 2d6 = 3,5 *** &lt;Alice&gt;") == want  # the message VASSAL logs
    assert read("** 2d6 = 3,5 *** &lt;Alice&gt;") == want  # the chat line's body
    assert read("Alice moves 0302 -> 0403") is None


def test_plus_add_to_total_and_report_total_are_undone() -> None:
    plus = ReportReader([DiceButtonDef(name="Shot", n_dice=2, n_sides=10, plus=1, add_to_total=3)])
    assert plus("** Shot = 2,11 *** <A>") == ReportRoll("Shot", "2,11", (1, 10), 10, 16, "A")
    total = ReportReader([DiceButtonDef(name="Fire", report_total=True)])
    assert total("** Fire = 9 *** <A>") == ReportRoll("Fire", "9", (), 6, 9, "A")


def test_special_dice_faces_become_face_numbers_when_each_names_one_face() -> None:
    numbered = DiceButtonDef(
        name="2d6",
        kind="SpecialDiceButton",
        n_dice=2,
        report_format="** $name$ = [$result1$] [$result2$] *** <$PlayerName$>",
        special_faces=(tuple("123456"), tuple("123456")),
    )
    assert ReportReader([numbered])("** 2d6 = [2] [6] *** <A>") == ReportRoll("2d6", "2,6", (2, 6), 6, None, "A")
    vague = DiceButtonDef(
        name="Town",
        kind="SpecialDiceButton",
        n_dice=1,
        report_format="** $name$ = [$result1$] *** <$PlayerName$>",
        special_faces=(("Minus one",) * 3 + ("Nothing", "Capture", "Capture"),),
    )
    assert ReportReader([vague])("** Town = [Capture] *** <A>") == ReportRoll("Town", "Capture", (), None, None, "A")


def test_without_a_module_the_die_size_comes_from_a_button_named_like_3d6() -> None:
    read = report_reader(None)
    assert read("** 3D8 = 1,2,8 *** <A>") == ReportRoll("3D8", "1,2,8", (1, 2, 8), 8, 11, "A")
    assert read("** Combat = 1,2 *** <A>").sides is None  # type: ignore[union-attr]


def test_vasl_lines_are_read_by_a_fallback_marked_heuristic() -> None:
    got = report_reader(None)("** (TH DR) 6,2 ***   <test>      [1 / 5   avg   8.00 (9.80)]    (01.95)<Hull>")
    assert got == ReportRoll("TH DR", "6,2", (6, 2), 6, 8, "test", heuristic=True)
    assert report_reader(None)("** (Rally DR) seven ***   <A>") is None


def test_the_corpus_vasl_3d6_log_reads_every_roll() -> None:
    g = load_save(need_corpus() / "AdvancedSquadLeader_VASL" / "3d6.vlog")
    read = report_reader(None)
    events = [e for e in replay(g.root).events() if isinstance(e, (ChatLine, DieRolled))]
    got = [read(e.text if isinstance(e, ChatLine) else e.report or "") for e in events]
    assert [(r.button, r.result, r.player, r.heuristic) for r in got if r] == [
        ("IFT DR", "6,6", "test", True),
        ("RS dr", "2", "test", True),
        ("3d6", "3,4,1", "test", False),
        ("IFT DR", "6,5", "test", True),
        ("TH DR", "6,2", "test", True),
        ("3d6", "2,4,2", "test", False),
    ]


@pytest.mark.parametrize(("case", "expected"), [("full.vlog", 23), ("4players.vlog", 35)])
def test_the_corpus_vasl_logs_read_every_dice_line(case: str, expected: int) -> None:
    g = load_save(need_corpus() / "AdvancedSquadLeader_VASL" / case)
    read = report_reader(None)
    lines = [e for e in replay(g.root).events() if isinstance(e, ChatLine) and e.report]
    rolls = [r for r in map(read, (e.text for e in lines)) if r]
    assert len(rolls) == expected == sum(1 for e in lines if " DR) " in e.text or " dr) " in e.text)


def test_the_corpus_modules_formats_compile_or_are_beanshell() -> None:
    base = need_corpus()
    for path in sorted(base.glob("*/*.vmod")):
        for b in load_module(path).dice_buttons:
            pattern = format_regex(b.report_format, b.name)
            assert pattern is not None or b.report_format.startswith("{"), (path.name, b.name)
