"""Kesselring's War (seed 004): `packs validate` runs the seed's own examples of play ([[examples]]
of modules/kesselrings-war/pack.toml) on the example board and module, and each can fail.

The seed's words: 10.0 "A British brigade may stack with a US division"; 10.1 "Two divisions, one
regiment and one garrison could stack in a hex"; 12.2 "An Allied unit with an MF of 6 in Anzio
(hex 2913) can trace a LOC through connected roads back to an Allied garrison in Gaeta (hex
2916)"; 12.3 "A mechanized unit cannot trace an LOC through a hex containing a mountain or volcano
except along a road, as in hex 3024"; 13.5 "one half (0.5) MP per connected road hexes"; 13.6 "A
motorized unit with a MF of 4 could move up to 12 hexes via road"; 7.1 "The German 4th Parachute
Division becomes available on GT 6"; 20.3 "An Allied TAC unit with a range of 12 could fly up to
twelve hexes away from a base on the Foggia airfield hex (hex 3321)".
"""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner
from conftest import REPO

from vassal_adj import packs
from vassal_adj.cli import main
from vassal_adj.errors import PackError

PACK = REPO / "modules" / "kesselrings-war"
MODULE = PACK / "example" / "KesselringsWar.vmod"


def validate(pack: Path = PACK) -> tuple[int, list[str]]:
    result = CliRunner().invoke(main, ["packs", "validate", str(pack), "--module", str(MODULE)])
    return result.exit_code, [line for line in result.output.splitlines() if "examples[" in line]


def copy_with(tmp_path: Path, old: str, new: str) -> Path:
    d = tmp_path / "kesselrings-war"
    shutil.copytree(PACK, d, ignore=shutil.ignore_patterns("example"))
    text = (d / "pack.toml").read_text(encoding="utf-8")
    assert old in text
    (d / "pack.toml").write_text(text.replace(old, new), encoding="utf-8")
    return d


def test_packs_validate_runs_every_seed_example_of_play_and_each_holds() -> None:
    status, lines = validate()
    assert status == 0, lines
    assert all("as the rulebook says" in line for line in lines)
    rules = [re.search(r"examples\[\d+\] \(([\d.]+), (\w+)\)", line).groups() for line in lines]
    assert rules == [
        ("10.1", "stacking"),
        ("10.1", "stacking"),
        ("10.0", "stacking"),
        ("12.2", "supply"),
        ("12.4", "supply"),
        ("12.3", "movement"),
        ("12.3", "movement"),
        ("13.5", "movement"),
        ("13.6", "movement"),
        ("13.6", "movement"),
        ("7.1", "position"),
        ("7.1", "position"),
        ("20.3", "position"),
        ("20.3", "position"),
    ]
    assert "examples[3] (12.2, supply): an Allied unit with an MF of 6 at 2913: in supply" in lines[3]
    assert "examples[8] (13.6, movement): 2 NZ [NZ motorized XX] 5-5-4 GT5 at 2725" in lines[8]
    assert "legal, cost 4 MP, as the rulebook says" in lines[8]


def test_13_6_a_motorized_unit_with_mf_4_moves_12_road_hexes_not_24(tmp_path: Path) -> None:
    # "triple their movement along roads" read as a third of 13.5's half MP (1/6 a hex) lets MF 4
    # run 24 road hexes; the seed's example says 12: the worked example catches the misreading.
    d = copy_with(tmp_path, "motorized = 0.3333", "motorized = 0.1667")
    status, lines = validate(d)
    assert status == 1
    assert "examples[8] (13.6, movement): 2 NZ [NZ motorized XX] 5-5-4 GT5 at 2725" in lines[8]
    assert lines[8].endswith("the rulebook says legal, cost 4 MP; the rules on this terrain say legal, cost 2 MP")
    assert lines[9].endswith("the rulebook says not legal; the rules on this terrain say legal")


def test_12_2_the_loc_from_anzio_needs_the_garrison_in_gaeta(tmp_path: Path) -> None:
    # 12.4 "Allies: A Garrison unit in any port hex": the example's garrison moved off Gaeta (2916)
    # to a clear hex is no source, so the Anzio unit is out of supply and the example fails.
    old = '{ name = "Garrison A1 [AL garrison] 0-2 *", at = "2916" }'
    status, lines = validate(copy_with(tmp_path, old, old.replace("2916", "2920")))
    assert status == 1
    assert "examples[3] (12.2, supply)" in lines[3] and "the rulebook says in supply; the rules on this" in lines[3]


def test_a_log_rule_runs_no_position_example(tmp_path: Path) -> None:
    # log.segments judges a log's segments (verify); an example is one position
    new = 'uses = "action_segments"\n\n[[examples]]\nrule = "20.3"'
    d = copy_with(tmp_path, 'uses = "air_range_allied"\n\n[[examples]]\nrule = "20.3"', new)
    with pytest.raises(PackError) as e:
        packs.validate(d)
    assert e.value.message.startswith("examples[12].uses: rule 'action_segments' is 'log.segments'")
