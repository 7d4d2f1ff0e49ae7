"""The Tunisia 1943 pack's worked examples ([[examples]] of modules/tunisia-1943/pack.toml: 2.1, 3,
4.1, 4.2, 5.1, 9.2, 12, Campaign II, each quoting the seed ../shared/seeds/001_9467744547cf47c5.txt)
run on the example board, as `vassal-adj packs validate modules/tunisia-1943 --module GAME.vmod` runs
them: every one gives the rulebook's verdict, and the terrain file reads on the board.
"""

from __future__ import annotations

from tunisia_board import LAYOUT, PACK_DIR

from vassal_adj import packs


def test_every_worked_example_gives_the_rulebook_s_verdict_on_the_example_board() -> None:
    problems = packs.validate(PACK_DIR, layout=LAYOUT)
    assert [p for p in problems if p.level != "note"] == []
    verdicts = [p.message for p in problems if "as the rulebook says" in p.message]
    assert len(verdicts) == 14
    assert any("examples[7] (4.2, movement)" in m for m in verdicts)
