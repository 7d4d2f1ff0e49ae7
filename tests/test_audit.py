"""The dice and undo audit (pbem/audit.py): synthetic logs replayed, synthetic replays, the
chi-square function against known values, and the corpus logs."""

from __future__ import annotations

import itertools
import json
import math
import random

import pytest
from conftest import SPEC, need_corpus

from vassal_adj.load import load_save
from vassal_adj.model.events import ChatLine, DieRolled, Moved, Place, Replay, Step
from vassal_adj.model.pieces import Piece
from vassal_adj.parse.commands import Node, encode, parse_stream
from vassal_adj.parse.dice_reports import report_reader
from vassal_adj.pbem.audit import DiceStats, Roll, audit, chi2_sf, upper_gamma_q
from vassal_adj.pbem.replay import replay
from vassal_adj.rules.results import Severity

READ = report_reader(None)


def log(text: str, *kids: Node) -> Node:
    return Node("LOG\t" + text, kids)


def roll(button: str, dice: tuple[int, ...], player: str = "Alice", *, undo: bool = False, old: str = "") -> Node:
    """A Dice Button roll as VASSAL logs it (5.4); `undo` gives its pre-3.6.7 inverse."""
    result = ",".join(map(str, dice))
    message = ("* UNDO: " if undo else "") + f"*** {button} = {result} *** &lt;{player}&gt;"
    before, after = (result, old) if undo else (old, result)
    return log(
        "CHAT" + message,
        log(f"MutableProperty\t{button}_result\t{before}\t{after}\tModule"),
        log(f"MutableProperty\t{button}_total\t\t{sum(dice)}\tModule"),
    )


def bracket(*inverse: Node) -> Node:
    """A VASSAL 3.6.7+ undo step: UNDO true, the inverse commands, UNDO false."""
    return log("UNDO\ttrue", Node("", list(inverse)), log("UNDO\tfalse"))


def game(*steps: Node, x: int = 100) -> Node:
    opening = [
        Node(""),
        Node("", [Node(f"+/1/piece;;;u.png;Tank/Main Map;{x};100;7;0")]),
        Node("PLAYER\tpw\tAlice\tAllies"),
        Node("end_save"),
    ]
    return parse_stream(encode(Node("begin_save", [*opening, *steps])))


def rules(result: object) -> list[tuple[str, Severity]]:
    return [(f.rule, f.severity) for f in result.findings if f.rule != "audit:dice-stats"]  # type: ignore[attr-defined]


@pytest.mark.parametrize("undo", ["bracket", "old-style"])
def test_an_undone_roll_followed_by_a_reroll_is_a_warning_quoting_both(undo: str) -> None:
    inverse = roll("2d6", (3, 4), undo=True)
    steps = [
        roll("1d6", (2,)),
        roll("2d6", (3, 4)),
        bracket(inverse) if undo == "bracket" else inverse,
        roll("2d6", (5, 6), old="3,4"),
    ]
    result = audit([("t.vlog", replay(game(*steps)))], READ)
    assert [(r.number, r.button, r.value, r.undone_in) for r in result.rolls] == [
        (1, "1d6", "2", None),
        (2, "2d6", "7 [3,4]", 3),
        (3, "2d6", "11 [5,6]", None),
    ]
    (f,) = [f for f in result.findings if f.rule == "audit:undo-reroll"]
    assert f.severity == Severity.WARNING
    assert f.message == (
        "t.vlog: roll 2 (2d6 = 7 [3,4]) by Alice in step 2 was undone in step 3; "
        "the next roll of that button, roll 3 by Alice in step 4, was 11 [5,6]"
    )


def test_an_undone_roll_not_rolled_again_is_information() -> None:
    result = audit([("t.vlog", replay(game(roll("2d6", (1, 1)), bracket(roll("2d6", (1, 1), undo=True)))))], READ)
    assert rules(result) == [("audit:undo", Severity.INFO)]
    assert "not rolled again" in result.findings[0].message
    assert not result.stats  # an undone roll is not counted


def test_an_undo_of_a_move_is_a_plain_undo() -> None:
    move = log("M/1/Main Map/150/100/null/Main Map/100/100/null/pw")
    back = bracket(log("M/1/Main Map/100/100/null/Main Map/150/100/null/pw"))
    result = audit([("t.vlog", replay(game(move, back, roll("2d6", (2, 2)))))], READ)
    assert rules(result) == [("audit:undo", Severity.INFO)]
    assert result.findings[0].message == "t.vlog: step 2 undoes step 1, which rolled no dice"
    assert result.rolls[0].undone_in is None


def test_a_restart_from_the_same_opening_with_other_dice_is_a_warning() -> None:
    files = [
        ("a.vlog", replay(game(roll("2d6", (1, 3)), roll("1d6", (6,))))),
        ("b.vlog", replay(game(roll("2d6", (5, 6))))),
        ("c.vlog", replay(game(roll("2d6", (5, 6)), x=300))),
    ]
    result = audit(files, READ)
    (f,) = [f for f in result.findings if f.rule == "audit:restart"]
    assert f.severity == Severity.WARNING
    assert f.message == (
        "files 1 (a.vlog) and 2 (b.vlog) start from the same position (1 piece(s)); "
        "file 1 rolled 4 [1,3], 6; file 2 rolled 11 [5,6]"
    )


def test_the_same_log_twice_is_only_information() -> None:
    rp = replay(game(roll("2d6", (1, 3))))
    result = audit([("a.vlog", rp), ("a-copy.vlog", rp)], READ)
    assert rules(result) == [("audit:restart", Severity.INFO)]
    assert "both rolled 4 [1,3]" in result.findings[0].message


def _piece() -> Piece:
    return Piece(id="1", name="Tank", map="Main Map", x=1, y=1)


def _die(step: int, result: str, button: str = "d6", report: str | None = None) -> DieRolled:
    return DieRolled(command=step, step=step, button=button, report=report, result=result, total=None)


def test_rolls_by_player_come_from_the_report_the_step_or_are_unknown() -> None:
    chat = ChatLine(command=2, step=2, text="hi", speaker="Bob")
    mover = Moved(
        command=3, step=3, piece="1", name="Tank", origin=Place("M", 0, 0), to=Place("M", 1, 1), player="Carol"
    )
    steps = (
        Step(1, 1, (_die(1, "4", report="*** d6 = 4 *** &lt;Alice&gt;"),)),
        Step(2, 2, (chat, _die(2, "5"))),
        Step(3, 3, (mover, _die(3, "6"))),
        Step(4, 4, (_die(4, "1"),)),
    )
    result = audit([("g.vlog", Replay(steps, (_piece(),), (_piece(),)))], READ)
    assert {p: [r.result for r in rs] for p, rs in result.by_player().items()} == {
        "Alice": ["4"],
        "Bob": ["5"],
        "Carol": ["6"],
        "unknown": ["1"],
    }
    assert [(r.file, r.step, r.button, r.total) for r in result.rolls][:2] == [
        ("g.vlog", 1, "d6", 4),
        ("g.vlog", 2, "d6", 5),
    ]


def _stats_of(faces: list[int], player: str = "Alice") -> DiceStats:
    steps = tuple(
        Step(n, n, (_die(n, str(f), report=f"*** d6 = {f} *** &lt;{player}&gt;"),)) for n, f in enumerate(faces, 1)
    )
    (s,) = audit([("g.vlog", Replay(steps, (), ()))], READ).stats
    return s


def test_a_fair_sample_shows_no_bias_and_a_loaded_one_does() -> None:
    fair = _stats_of([f for f in range(1, 7) for _ in range(10)])
    assert fair.counts == (10,) * 6 and fair.chi2 == 0 and fair.p == pytest.approx(1.0)
    assert fair.reading() == "no evidence of bias at the 1% level (p = 1.00, 60 dice)"
    loaded = _stats_of([6] * 60)
    assert loaded.p is not None and loaded.p < 1e-50 and loaded.biased
    assert "face 6 came up 60 times, 10.0 expected" in loaded.reading()
    rng = random.Random(7)
    shaken = _stats_of([rng.randint(1, 6) for _ in range(600)])
    assert shaken.p is not None and shaken.p > 0.01


def test_stats_findings_warn_only_on_bias_and_say_when_the_sample_is_small() -> None:
    steps = tuple(Step(n, n, (_die(n, "6", report="*** d6 = 6 *** &lt;Alice&gt;"),)) for n in range(1, 61))
    (f,) = [f for f in audit([("g.vlog", Replay(steps, (), ()))], READ).findings]
    assert f.severity == Severity.WARNING and f.rule == "audit:dice-stats"
    assert f.message.startswith("Alice: 60 d6 in 60 roll(s)") and "mean 6.00 (fair 3.50)" in f.message
    small = _stats_of([1, 2, 3, 4, 5, 6])  # 1 expected per face: the exact test, not chi-square
    assert small.test == "exact" and small.p == pytest.approx(1.0)
    assert small.reading() == "no evidence of bias at the 1% level (exact test, p = 1.00, 6 dice)"
    tiny = _stats_of([6, 6, 6])  # even three sixes have p = 6 / 6**3 > 1%: no test can tell
    assert tiny.p is None
    assert tiny.reading() == "too few dice to test: no outcome of 3 d6 is unlikely at the 1% level"


def test_rolls_of_unknown_die_size_are_listed_not_tested() -> None:
    steps = (Step(1, 1, (_die(1, "3,4", button="Combat"),)),)
    result = audit([("g.vlog", Replay(steps, (), ()))])
    assert result.rolls[0].sides is None and not result.stats
    assert result.findings[0].message == (
        "unknown: 1 roll(s) not tested, their die size or faces unknown (buttons: Combat)"
    )


def _sf_closed_form(x: float, df: int) -> float:
    """The chi-square tail in closed form: a finite Poisson sum for even df; erfc plus a
    finite sum for odd df (Abramowitz & Stegun 26.4.4, 26.4.5)."""
    h = x / 2
    if df % 2 == 0:
        return math.exp(-h) * sum(h**i / math.factorial(i) for i in range(df // 2))
    terms = sum(x ** (i + 0.5) / math.prod(range(1, 2 * i + 2, 2)) for i in range(df // 2))
    return math.erfc(math.sqrt(h)) + math.sqrt(2 / math.pi) * math.exp(-h) * terms


@pytest.mark.parametrize(
    ("x", "df", "p"), [(3.84, 1, 0.05), (11.07, 5, 0.05), (6.635, 1, 0.01), (9.21, 2, 0.01), (18.307, 10, 0.05)]
)
def test_chi2_sf_at_the_textbook_critical_values(x: float, df: int, p: float) -> None:
    assert chi2_sf(x, df) == pytest.approx(p, abs=p / 500)


@pytest.mark.parametrize("df", [1, 2, 3, 4, 5, 7, 10, 11, 30])
@pytest.mark.parametrize("x", [0.001, 0.5, 2.0, 5.0, 11.07, 30.0, 100.0])
def test_chi2_sf_matches_the_closed_forms(x: float, df: int) -> None:
    assert chi2_sf(x, df) == pytest.approx(_sf_closed_form(x, df), rel=1e-9, abs=1e-300)


def test_chi2_sf_edges() -> None:
    assert chi2_sf(0.0, 3) == 1.0 and chi2_sf(2.0, 2) == pytest.approx(math.exp(-1))


def test_upper_gamma_q_is_exp_for_a_of_one_and_falls_from_one_to_zero() -> None:
    assert all(upper_gamma_q(1.0, x) == pytest.approx(math.exp(-x)) for x in (0.1, 1.0, 5.0, 40.0))
    values = [upper_gamma_q(2.5, x / 4) for x in range(80)]
    assert values[0] == 1.0 and all(a >= b for a, b in itertools.pairwise(values)) and values[-1] < 1e-6


def test_roll_value_shows_the_dice_with_the_total() -> None:
    r = Roll(1, "f", 1, 1, "2d6", "3,4", 7, "Alice", (3, 4), 6)
    assert (r.value, r.shown) == ("7 [3,4]", "2d6 = 7 [3,4]")
    assert Roll(1, "f", 1, 1, "d6", "5", 5, "Alice").value == "5"


def test_the_corpus_vasl_logs_rolls_per_player() -> None:
    base = need_corpus() / "AdvancedSquadLeader_VASL"
    files = [(name, replay(load_save(base / name).root)) for name in ("3d6.vlog", "full.vlog", "4players.vlog")]
    result = audit(files, READ)
    assert [sum(r.file == n for r in result.rolls) for n, _ in files] == [6, 23, 35]
    players = result.by_player()
    assert {p: len(rs) for p, rs in players.items()} == {"test": 6, "Alice": 24, "Bob": 18, "Dave": 10, "Chuck": 6}
    assert [r.shown for r in players["test"][:3]] == ["IFT DR = 12 [6,6]", "RS dr = 2", "3d6 = 8 [3,4,1]"]
    assert [r.heuristic for r in players["test"]] == [True, True, False, True, True, False]
    alice = next(s for s in result.stats if s.player == "Alice")
    assert alice.counts == (8, 4, 8, 8, 5, 3) and alice.p == pytest.approx(0.50, abs=0.01)
    assert not [f for f in result.findings if f.rule != "audit:dice-stats"]
    assert all("heuristically" in f.message for f in result.findings if "test:" not in f.message[:5])


def test_the_corpus_tutorial_undo_took_back_no_die_roll() -> None:
    g = load_save(need_corpus() / "CommandsAndColorsNapoleonics" / "CCNv4 Tutorial.vlog")
    result = audit([("tutorial.vlog", replay(g.root))], READ)
    assert not result.rolls
    assert result.findings[0].message == "tutorial.vlog: step 169 undoes step 168, which rolled no dice"


def test_the_spec_log_vector_undoes_a_move() -> None:
    path = SPEC / "vectors.json"
    if not path.is_file():
        pytest.skip(f"spec vectors not found at {path}")
    rp = replay(parse_stream(json.loads(path.read_text(encoding="utf-8"))["commands"]["vlog"]["plain"]))
    result = audit([("vector.vlog", rp)], READ)
    assert not result.rolls and [f.message for f in result.findings] == [
        "vector.vlog: step 3 undoes step 1, which rolled no dice"
    ]
