"""`dice.table` (RULES-MAP N20) with a parameter set not shaped like Kesselring's War: one player's
2d6 weather roll read through ranges, a constant threshold, counts of units that change state,
returns by a per-side table; and a real log: the rolls `verify` gives each segment (an undone
roll is no roll). Kesselring's War's own rules: tests/test_kw_dice.py.
"""

from __future__ import annotations

import shutil
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from conftest import REPO

from vassal_adj.cli import main
from vassal_adj.model.state import Box, GameState, Position, Track
from vassal_adj.model.units import Unit
from vassal_adj.rules.engine import RuleContext
from vassal_adj.rules.mechanisms.dice_table import dice_table
from vassal_adj.rules.registry import REGISTRY
from vassal_adj.rules.results import Finding
from vassal_adj.rules.segment_rolls import SegmentRoll, roll_total
from vassal_adj.rules.segments import Opened, Segment

# A game of our own: a "2d6" weather roll in the "weather" phase (2-4 storm: morale -1; 5-12 clear),
# a bombardment hitting on 8 or less, disrupted units as many as a 1d6 "rally" roll, and a
# pilot's return: Red on 1-2 the next turn, Blue on 1-3 two turns later.
WEATHER = {
    "button": "2d6",
    "phases": ["weather"],
    "required": True,
    "table": {"*": {"2-4": "storm", "5-12": "clear"}},
    "effects": {"*": {"2-4": {"morale": -1}, "5-12": {}}},
}


def params(**given: Any) -> dict[str, Any]:
    return {**REGISTRY.lookup("dice.table").defaults(), **given}


def ctx() -> RuleContext:
    return RuleContext(None, None, "ours")  # type: ignore[arg-type]


def roll(
    result: str, step: int, turn: int = 2, phase: str = "weather", button: str = "2d6", drags: int = 0
) -> SegmentRoll:
    return SegmentRoll(button, result, roll_total(result, None), step, drags, turn, phase, tracks=(("morale", 5),))


def seg(
    dice: Sequence[SegmentRoll],
    turn: int = 2,
    phase: str = "weather",
    morale: int = 5,
    start: Mapping[str, Unit] | None = None,
    end: Mapping[str, Unit] | None = None,
    drags: Sequence[tuple[str, Position]] = (),
    earlier: Sequence[SegmentRoll] = (),
    opened: Opened | None = None,
) -> Segment:
    a = GameState(dict(start or {}), {}, turn, phase, tracks={"morale": Track("morale", 5)})
    b = GameState(dict(end or start or {}), {}, turn, phase, tracks={"morale": Track("morale", morale)})
    moves: dict[str, list[tuple[Position, Position]]] = {}
    for uid, to in drags:
        moves.setdefault(uid, []).append((Position(), to))
    return Segment(
        turn,
        phase,
        opened or Opened("phase"),
        a,
        b,
        moves,
        tuple(u for u, _ in drags),
        (),
        dice=tuple(dice),
        earlier_dice=tuple(earlier),
    )


def test_roll_total_reads_the_report_total_else_the_dice() -> None:
    assert roll_total("3,5", None) == 8 and roll_total("3,5", "8") == 8 and roll_total("CAV XSW", None) is None


def test_a_two_dice_roll_read_through_ranges_and_its_effect_on_a_track() -> None:
    """A 2d6 of 1,2 (3): storm, morale 5 -> 4; the same with morale unchanged is an error."""
    assert [f.severity for f in dice_table(seg([roll("1,2", 1)], morale=4), ctx(), params(**WEATHER))] == ["info"]
    bad = dice_table(seg([roll("1,2", 1)], morale=5), ctx(), params(**WEATHER))
    assert [f.message for f in bad if f.severity == "error"] == ["morale went 5 -> 5 (+0); the rolls give -1 []"]


def test_a_track_change_with_no_roll_is_not_the_tables() -> None:
    """Morale 5 -> 3 in a weather phase with no roll: not this rule's to judge (no roll is required here)."""
    assert dice_table(seg([], morale=3), ctx(), params(**{**WEATHER, "required": False})) == []


def test_a_roll_in_another_phase_or_of_another_button_is_not_read() -> None:
    found = dice_table(seg([roll("6", 1, button="1d6")]), ctx(), params(**WEATHER))
    assert [f.message for f in found] == ["no roll of 2d6 in the log []"]
    assert dice_table(seg([roll("1,2", 1)], phase="movement"), ctx(), params(**WEATHER)) == []


def test_a_constant_threshold_repeatable_each_turn() -> None:
    """Bombardment hits on 8 or less, any number of times a turn (no once_per_turn)."""
    p = params(button="2d6", kinds=["bombard"], success_at_most=8)
    opened = Opened("bombard", {"side": "Red"})
    found = dice_table(seg([roll("4,4", 1), roll("6,5", 2)], opened=opened), ctx(), p)
    assert [f.message for f in found] == [
        "Red roll of 4,4 on 2d6 on turn 2: succeeds (8 <= 8) []",
        "Red roll of 6,5 on 2d6 on turn 2: fails (11 > 8) []",
    ]


def test_a_count_of_units_that_change_state_exactly_the_roll() -> None:
    """As many Red units rally (become flagged `rallied`) as a 1d6 shows: two of a roll of 3."""
    units = {f"u{i}": Unit(f"u{i}", f"U{i}", "Red", "infantry", 4) for i in range(3)}
    after = {
        k: (Unit(k, u.name, "Red", "infantry", 4, flags=frozenset({"rallied"})) if k != "u2" else u)
        for k, u in units.items()
    }
    p = params(button="1d6", count_units={"sides": ["Red"]}, count_becomes={"flags": ["rallied"]}, count_exact=True)
    found = dice_table(seg([roll("3", 1, button="1d6")], start=units, end=after), ctx(), p)
    assert [f.severity for f in found] == ["warning"] and "fewer than the roll of 3" in found[0].message


def test_returns_by_a_per_side_table() -> None:
    """Blue's pilot returns two turns later on 1-3, Red's the next turn on 1-2; otherwise lost."""
    pilot = Unit("p", "Pilot", "Blue", "pilot", 0)
    p = params(
        button="1d6",
        returns_units={"kinds": ["pilot"]},
        returns_after={"Blue": {"1-3": 2, "4-6": 0}, "Red": {"1-2": 1, "3-6": 0}},
        returns_box="pool",
    )
    opened = Opened("landing", {"side": "Blue"})

    def placed(v: str, n: int) -> list[Finding]:
        to = Position(box=f"Pool {n}", named=Box("pool", "pool", "Blue", n))
        return dice_table(
            seg([roll(v, 1, button="1d6")], start={"p": pilot}, drags=[("p", to)], opened=opened), ctx(), p
        )

    assert placed("2", 4) == []
    assert [f.message for f in placed("2", 3)] == [
        "Blue Pilot placed in Pool 3 after a roll of 2 on 1d6 on turn 2, which puts it on turn 4 []"
    ]


@pytest.mark.parametrize("bad", [{"*": {"1-3": "x"}, "Red": {"one": "y"}}])
def test_a_table_key_that_is_no_roll_names_the_parameter(bad: dict) -> None:
    with pytest.raises(ValueError, match="table: expected a roll"):
        dice_table(
            seg([roll("3", 1, button="1d6")], opened=Opened("x", {"side": "Red"})),
            ctx(),
            params(button="1d6", table=bad),
        )


@pytest.mark.parametrize(
    ("given", "match"),
    [({"success_at_most": "eight"}, "success_at_most"), ({"returns_severity": "fatal"}, "returns_severity")],
)
def test_a_bad_value_names_its_parameter(given: dict, match: str) -> None:
    with pytest.raises(ValueError, match=match):
        dice_table(seg([roll("3", 1)]), ctx(), params(button="2d6", **given))


def test_verify_gives_each_segment_its_rolls_and_not_an_undone_one(tmp_path: Path) -> None:
    """The Kasserine example log: 1d6 = 2 undone (step 13, 14), rolled again as 6 (step 15). A
    dice.table rule added to a copy of the pack sees the 6 only, in the Axis combat phase."""
    pack = tmp_path / "kasserine"
    shutil.copytree(REPO / "modules" / "kasserine", pack)
    with (pack / "pack.toml").open("a") as f:
        f.write('\n[rules.roll_words]\nimpl = "dice.table"\nrule_ref = "T1"\nbutton = "1d6"\n')
        f.write('table = { "*" = { "1-3" = "low", "4-6" = "high" } }\n')
    example = REPO / "modules" / "kasserine" / "example"
    args = [
        "verify",
        str(example / "turn4-axis.vlog"),
        "--module",
        str(example / "Kasserine.vmod"),
        "--pack",
        str(pack),
    ]
    out = CliRunner().invoke(main, args).output
    lines = [x.strip() for x in out.splitlines() if ":T1:" in x]
    assert lines == [
        "info kasserine:T1: Turn 4 axis-combat: roll of 6 on 1d6 (high): its effect is not visible in the files, "
        "not judged [T1]"
    ]
