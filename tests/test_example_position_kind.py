"""The `position` example kind: any save rule a pack names (`uses`), run on the example's position
at its `turn`, `phase` and `scenario`: does no finding name the unit asked about.

Worked with the Kasserine pack (seed 000), a parameter set not shaped like Kesselring's War (units
named by turn, entry hexes as ranges, no scenarios): 23 "3-2-16 (580)" enters on Game-Turn 2 at
2526 (its [rules.axis_reinforcements]); and with a pack whose save rule reads no turn, 16.11 "No
mechanized units, except Mechanized Infantry, may ever enter Rough terrain hexes" and 16.12 "All
units may enter and exit Rough hexes through Road and Trail hexsides" (terrain.prohibited).
The seed 004 examples (7.1, 20.3) are in tests/test_kw_examples.py.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from conftest import REPO
from example_board import layout
from test_pack_examples import armor, example, make_pack

from vassal_adj import packs
from vassal_adj.errors import PackError

KASSERINE = REPO / "modules" / "kasserine"

ROUGH = """
[rules.rough]
impl = "terrain.prohibited"
rule_ref = "16.11"
prohibited = { rough = ["mechanized"] }
through = ["road"]
"""


def outcomes(d: Path) -> list[tuple[str, str]]:
    return [(p.level, p.message) for p in packs.validate(d, layout=layout()) if "examples[" in p.message]


def kasserine_with(tmp_path: Path, examples: str) -> Path:
    d = tmp_path / "kasserine"
    shutil.copytree(KASSERINE, d, ignore=shutil.ignore_patterns("example"))
    with (d / "pack.toml").open("a", encoding="utf-8") as f:
        f.write(examples)
    return d


def test_23_a_reinforcement_on_the_map_before_its_turn_is_not_legal(tmp_path: Path) -> None:
    unit = '{ name = "3-2-16 (580)", at = "2526" }'
    on_time = example("23", "position", unit, "{ legal = true }", 'turn = 2\nuses = "axis_reinforcements"')
    early = example("23", "position", unit, "{ legal = false }", 'turn = 1\nuses = "axis_reinforcements"')
    wrong = example("23", "position", unit, "{ legal = true }", 'turn = 1\nuses = "axis_reinforcements"')
    got = outcomes(kasserine_with(tmp_path, on_time + early + wrong))
    n = len(got) - 3  # the pack's own examples come first
    assert got[n][0] == "note" and got[n][1].endswith("3-2-16 (580) at 2526: legal, as the rulebook says")
    assert got[n + 1][0] == "note" and got[n + 1][1].endswith("not legal, as the rulebook says")
    assert got[n + 2] == (
        "error",
        "examples[4] (23, position): 3-2-16 (580) at 2526: the rulebook says legal; the rules on this terrain say "
        "not legal (Axis 3-2-16 (580) (2526) is in play on Game-Turn 1: it arrived early; "
        "it enters on Game-Turn 2 [23])",
    )


def test_16_11_a_rule_that_reads_no_turn_mechanized_in_rough_only_by_road(tmp_path: Path) -> None:
    text = ROUGH + example("16.12", "position", armor("1013"), "{ legal = true }", 'uses = "rough"')
    text += example("16.11", "position", armor("1113"), "{ legal = false }", 'uses = "rough"')
    d = make_pack(tmp_path, "")
    (d / "pack.toml").write_text((d / "pack.toml").read_text(encoding="utf-8") + text, encoding="utf-8")
    assert [level for level, _ in outcomes(d)] == ["note", "note"]


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        ("", "examples[0].uses: this kind runs the rule `uses` names"),
        ('uses = "rough"\nturn = 0', "examples[0].turn: expected a Game-Turn >= 1, got 0"),
        ('uses = "rough"\nscenario = "x"', "examples[0].scenario: unknown scenario 'x' (the pack's: none)"),
        ('uses = "rough"\nphase = 3', "examples[0].phase: expected str"),
    ],
)
def test_a_bad_position_example_is_a_pack_error(tmp_path: Path, extra: str, message: str) -> None:
    d = make_pack(tmp_path, "")
    text = ROUGH + example("16.11", "position", armor("1113"), "{ legal = false }", extra)
    (d / "pack.toml").write_text((d / "pack.toml").read_text(encoding="utf-8") + text, encoding="utf-8")
    with pytest.raises(PackError) as e:
        packs.validate(d, layout=layout())
    assert e.value.message.startswith(message)
