"""`vp --format bbcode`: the victory points as a BoardGameGeek post (22.4's running total)."""

from __future__ import annotations

import re
from pathlib import Path

from click.testing import CliRunner

from vassal_adj.cli import main

EXAMPLE = Path(__file__).resolve().parent.parent / "modules" / "kasserine" / "example"


def test_vp_bbcode_keeps_the_columns_in_a_fixed_width_block() -> None:
    result = CliRunner().invoke(
        main,
        ["vp", str(EXAMPLE / "turn4-axis.vlog"), "--module", str(EXAMPLE / "Kasserine.vmod"), "--format", "bbcode"],
    )
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert lines[:3] == ["[b]Victory points (kasserine:22.4)[/b]", "[b]Total: 16 VP, Allied Decisive[/b]", "[c]"]
    assert lines[-1] == "[/c]"
    # 22.41.5: 2-1-14 (1/13) eliminated, attack 2 + defense 1 = +3, the running total 16, aligned as in text.
    assert "22.41.5                    +3    4    16  Allied 2-1-14 (1/13) eliminated (attack 2 + defense 1)" in lines
    assert {m.group(1) for m in re.finditer(r"\[/?(\w+)", result.output)} == {"b", "c"}
