"""The dice audit's readers and tests: dice reports no reader understands are counted, a pack's
chat dice patterns read rolls the module's dice buttons do not describe (Commands & Colors'
symbol dice), small samples get the exact multinomial test, and rolls are broken down per
die button. Counts and probabilities are worked by hand in the comments."""

from __future__ import annotations

import math
import re
import tomllib
from typing import Any

import pytest
from conftest import REPO, need_corpus

from vassal_adj.errors import PackError
from vassal_adj.load import load_save
from vassal_adj.model.events import ChatLine, DieRolled, Replay, Step
from vassal_adj.parse.dice_reports import report_reader
from vassal_adj.pbem.audit import audit, looks_like_dice
from vassal_adj.pbem.dice_stats import ButtonTally
from vassal_adj.pbem.dice_tests import exact_p
from vassal_adj.pbem.replay import replay
from vassal_adj.report.dice_text import button_line
from vassal_adj.report.markup import STYLES
from vassal_adj.report.verify_text import dice_lines
from vassal_adj.rules.packs.pack import RulePack

READ = report_reader(None)
# Commands & Colors: Napoleonics' battle die: two infantry faces, one each of cavalry, artillery,
# flag and crossed sabres; the module reports "[ Player rolls 2 dice:  CAVx1  XSWx1 ] *".
CCN_DICE = {
    "button": "battle dice",
    "pattern": r"\[ (?P<player>.+?) rolls \d+ di(?:e|ce): +(?P<symbols>.+?) \] \*",
    "faces": {"INF": 2, "CAV": 1, "ART": 1, "FLG": 1, "XSW": 1},
}


def _pack(*chat: dict[str, Any]) -> RulePack:
    return RulePack.from_mapping({"pack": {"id": "t", "name": "T"}, "dice": {"chat": list(chat)}})


def _report(step: int, text: str) -> Step:
    return Step(step, step, (ChatLine(command=step, step=step, text=text, report=True),))


def _tutorial() -> list[tuple[str, Replay]]:
    g = load_save(need_corpus() / "CommandsAndColorsNapoleonics" / "CCNv4 Tutorial.vlog")
    return [("tutorial.vlog", replay(g.root))]


def test_report_lines_that_look_like_dice_are_counted_when_not_read() -> None:
    steps = (
        _report(1, "Bob rolls 2d6 for the attack"),
        _report(2, "<img src=a.png width=30> Bob rolls 1 die: INFx1"),
        _report(3, "Bob ends turn 3"),
        _report(4, "Bob rolls for initiative"),
        Step(5, 5, (ChatLine(command=5, step=5, text="I rolled a 6!", speaker="Bob"),)),
    )
    result = audit([("g.vlog", Replay(steps, (), ()))], READ)
    # Lines 1 and 2 (dice notation; a die word and a digit outside the tag); not 3 (no die word),
    # 4 (no number) or 5 (typed by a player, not a report).
    assert result.unread == (("g.vlog", 2, "Bob rolls 2d6 for the attack"),)
    (f,) = [f for f in result.findings if f.rule == "audit:dice-unread"]
    assert f.message.startswith("g.vlog: 2 chat line(s) look like dice reports and were not read")
    assert not looks_like_dice("Bob ends turn") and looks_like_dice("** 2d6 = 3,5 *** <Bob>")


def test_the_ccn_tutorial_has_17_dice_reports_no_module_format_reads() -> None:
    result = audit(_tutorial(), READ)
    assert not result.rolls and result.unread[0][1] == 17
    assert "[ Tutorial (Solitaire) rolls 2 dice:  CAVx1  XSWx1 ] *" in result.unread[0][2]


def test_a_pack_pattern_reads_the_ccn_symbol_dice() -> None:
    result = audit(_tutorial(), READ, chat_dice=_pack(CCN_DICE).dice)
    assert len(result.rolls) == 17 and not result.unread
    first = result.rolls[0]
    assert (first.button, first.player, first.symbols) == ("battle dice", "Tutorial (Solitaire)", ("CAV", "XSW"))
    (s,) = result.stats
    # The 17 reports of the log, summed by hand: INF 16, CAV 4, ART 8, FLG 6, XSW 7 (41 dice).
    assert (s.labels, s.counts, s.weights, s.sides) == (
        ("INF", "CAV", "ART", "FLG", "XSW"),
        (16, 4, 8, 6, 7),
        (2, 1, 1, 1, 1),
        6,
    )
    # Expected 41 * 2/6 = 13.67 infantry and 6.83 of each other symbol: all >= 5, chi-square with 4 df.
    e_inf, e = 41 * 2 / 6, 41 / 6
    chi2 = (16 - e_inf) ** 2 / e_inf + sum((c - e) ** 2 / e for c in (4, 8, 6, 7))
    assert s.test == "chi-square" and s.chi2 == pytest.approx(chi2) and s.p == pytest.approx(0.758, abs=0.005)
    assert result.buttons == (ButtonTally("battle dice", 17, 0, s.labels, s.counts),)
    assert button_line(result.buttons[0]) == "battle dice: 17 roll(s), 41 dice; INF 16, CAV 4, ART 8, FLG 6, XSW 7"


def test_a_symbol_the_die_does_not_have_reads_no_roll() -> None:
    dice = _pack(CCN_DICE).dice
    steps = (_report(1, "[ Bob rolls 1 die: BOMBx1 ] *"), _report(2, "[ Bob rolls 2 dice: INF FLG ] *"))
    result = audit([("g.vlog", Replay(steps, (), ()))], READ, chat_dice=dice)
    assert [r.symbols for r in result.rolls] == [("INF", "FLG")] and result.unread[0][1] == 1


def test_a_numbered_die_pattern_reads_faces_within_its_size() -> None:
    dice = _pack(
        {"button": "combat", "pattern": r"(?P<player>\w+) rolled (?P<result>[\d, ]+) in combat", "sides": 6}
    ).dice
    steps = (_report(1, "Bob rolled 3, 5 in combat"), _report(2, "Bob rolled 3, 9 in combat"))
    result = audit([("g.vlog", Replay(steps, (), ()))], READ, chat_dice=dice)
    assert [(r.button, r.dice, r.total, r.player) for r in result.rolls] == [("combat", (3, 5), 8, "Bob")]
    assert result.unread[0][1] == 1  # a 9 on a d6 is no roll this pattern reads


@pytest.mark.parametrize(
    ("entry", "message"),
    [
        ({"pattern": "(?P<result>\\d"}, "dice.chat[0].pattern: bad regular expression"),
        ({"pattern": "(?P<who>\\w+) (?P<result>\\d)"}, "dice.chat[0].pattern: unknown named group(s) who"),
        ({"pattern": "(?P<player>\\w+)"}, "dice.chat[0].pattern: needs exactly one of the groups 'result'"),
        ({"pattern": "(?P<result>\\d)"}, "dice.chat[0].sides: a 'result' pattern needs the die size"),
        ({"pattern": "(?P<symbols>\\w+)"}, "dice.chat[0].faces: a 'symbols' pattern needs faces"),
        ({"pattern": "(?P<symbols>\\w+)", "faces": {"INF": 0}}, "dice.chat[0].faces.INF: expected the number of faces"),
        ({"pattern": "(?P<result>\\d)", "sides": 6, "colour": "red"}, "dice.chat[0].colour: unknown key"),
    ],
)
def test_a_bad_chat_dice_pattern_names_its_key_path(entry: dict[str, Any], message: str) -> None:
    with pytest.raises(PackError, match=re.escape(message)):
        _pack({"button": "b", **entry})


def _d6(faces: list[int]) -> Replay:
    return Replay(
        tuple(
            Step(
                n,
                n,
                (
                    DieRolled(
                        command=n,
                        step=n,
                        button="d6",
                        result=str(f),
                        total=None,
                        report=f"*** d6 = {f} *** &lt;Alice&gt;",
                    ),
                ),
            )
            for n, f in enumerate(faces, 1)
        ),
        (),
        (),
    )


def test_four_sixes_fail_the_exact_test_and_three_cannot() -> None:
    # Four dice: the least likely outcomes are the 6 "all one face", each 6**-4: p = 6/1296 < 1%.
    (s,) = audit([("g.vlog", _d6([6, 6, 6, 6]))], READ).stats
    assert s.test == "exact" and s.p == pytest.approx(6 / 6**4) and s.biased
    assert "exact test, p = 4.6e-03, 4 dice" in s.reading() and "face 6 came up 4 times, 0.7 expected" in s.reading()
    # Three dice: even three sixes have p = 6/216 = 2.8%: too small for any test.
    (s,) = audit([("g.vlog", _d6([6, 6, 6]))], READ).stats
    assert s.p is None and "too few dice to test" in s.reading()


def test_the_exact_test_sums_every_outcome_no_more_likely_than_the_observed() -> None:
    # Two d6 showing 1 and 2: each of the 30 "two different faces" outcomes has 2/36, the 6
    # doubles 1/36 each: all 36 are no more likely, p = 1. A double: p = 6/36.
    assert exact_p([1, 1, 0, 0, 0, 0], [1] * 6)[0] == pytest.approx(1.0)
    assert exact_p([2, 0, 0, 0, 0, 0], [1] * 6)[0] == pytest.approx(6 / 36)
    # A symbol die (2 of 6 faces infantry): one flag has p 1/6, as likely as the other single
    # symbols, less than infantry (2/6): p = 4/6. Infantry: every outcome, p = 1.
    assert exact_p([0, 0, 0, 1, 0], [2, 1, 1, 1, 1])[0] == pytest.approx(4 / 6)
    assert exact_p([1, 0, 0, 0, 0], [2, 1, 1, 1, 1])[0] == pytest.approx(1.0)
    assert exact_p([40, 0, 0, 0, 0], [2, 1, 1, 1, 1]) is None  # C(44, 4) = 135,751 outcomes: too many
    assert math.comb(44, 4) == 135_751


def test_rolls_are_broken_down_per_button_with_undone_rolls_apart() -> None:
    steps = (
        Step(
            1,
            1,
            (
                DieRolled(
                    command=1, step=1, button="2d6", result="3,5", total=None, report="** 2d6 = 3,5 *** &lt;Alice&gt;"
                ),
            ),
        ),
        Step(2, 2, (DieRolled(command=2, step=2, button="Combat", result="4", total=None, report=None),)),
        Step(
            3,
            3,
            (
                DieRolled(
                    command=3, step=3, button="2d6", result="6,6", total=None, report="** 2d6 = 6,6 *** &lt;Alice&gt;"
                ),
            ),
        ),
    )
    result = audit([("g.vlog", Replay(steps, (), ()))], READ)
    assert [button_line(t) for t in result.buttons] == [
        "2d6: 2 roll(s), 4 dice; faces 1-6: 0, 0, 1, 0, 1, 2",
        "Combat: 1 roll(s), faces unknown",
    ]
    lines = dice_lines(result, STYLES["text"])
    at = lines.index("per die button (undone rolls left out):")
    assert lines[at + 1 :] == [
        "  2d6: 2 roll(s), 4 dice; faces 1-6: 0, 0, 1, 0, 1, 2",
        "  Combat: 1 roll(s), faces unknown",
    ]
    assert not any("per die button" in line for line in dice_lines(result, STYLES["text"], short=True))


def test_the_guides_chat_dice_example_is_a_valid_pack_that_reads_its_lines() -> None:
    guide = (REPO / "docs" / "adding-a-rule-pack.md").read_text(encoding="utf-8")
    block = guide.split("### Chat dice", 1)[1].split("```toml\n", 1)[1].split("```", 1)[0]
    data = tomllib.loads(block)
    battle, combat = RulePack.from_mapping({"pack": {"id": "t", "name": "T"}, **data}).dice
    assert battle.read("<img src=x.png> [ Alice rolls 2 dice:  CAVx1  XSWx1 ] *").symbols == ("CAV", "XSW")
    assert combat.read("Bob rolled 3, 5 in combat").dice == (3, 5)
