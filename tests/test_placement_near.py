"""``placement.near`` (log rule, RULES-MAP N11/N12) judged by `verify` on a log of the Kasserine example
module: a unit dragged from an off-map box back onto the map is placed within n hexes of a unit of its
formation (seed 001 6.3's return of a destroyed EM, "within 4 hex of an unit of the division", is the
pack rule `em_return`; here the mechanism runs on a module whose logs the tests can write).

The example's Game-Turn 4 opening: the 21. Panzer-Division's 5-3-12 (1/5) in 2411, its 5-3-12 (2/5) in
2711, 3-4-11 (1/104) in 2516; its 2-2-9 (609) already in the Eliminated box (a departure the files do
not show).
"""

from __future__ import annotations

import shutil
from pathlib import Path

from conftest import REPO
from kasserine_logs import MODULE, write_log

import vassal_adj
from vassal_adj.packs import load_pack
from vassal_adj.pbem.replay import replay
from vassal_adj.pbem.verify import verify_turn

RULE = """
[rules.returns_near]
impl = "placement.near"
rule_ref = "R"
units = { formations = ["21. Panzer-Division"] }
of = { not_flags = ["hq"] }
within = 2
same = "formation"
"""


def _found(tmp_path: Path, steps: list[tuple[str, ...]]) -> list[tuple[str, str]]:
    pack = tmp_path / "pack"
    shutil.copytree(REPO / "modules" / "kasserine", pack, ignore=shutil.ignore_patterns("example"))
    toml = pack / "pack.toml"
    toml.write_text(toml.read_text(encoding="utf-8") + RULE, encoding="utf-8")
    log = write_log(tmp_path / "log.vlog", steps)
    module, game = vassal_adj.load_module(MODULE), vassal_adj.load_save(log)
    v = verify_turn(module, game, load_pack(pack), replay(game.root, module, game.path))
    return [(f.severity, f.message) for f in v.findings if f.rule.endswith(":R")]


def test_a_unit_eliminated_then_put_back_far_from_its_formation_is_an_error(tmp_path: Path) -> None:
    found = _found(
        tmp_path,
        [
            ("move", "Axis", "5-3-12 (1/5)", "Eliminated"),
            ("turn", "Axis", "Axis Combat"),
            ("move", "Axis", "5-3-12 (1/5)", "2411"),
        ],
    )
    # 2411 to 2711, the nearest unit of the 21. Panzer-Division: three columns, 3 hexes.
    assert found == [
        (
            "error",
            "Turn 4 axis-combat: Axis 5-3-12 (1/5) placed in 2411 from box 'Eliminated', 3 hexes from the "
            "nearest unit of 21. Panzer-Division (2711): it goes within 2 [R]",
        )
    ]


def test_put_back_next_to_a_unit_of_its_formation_is_legal(tmp_path: Path) -> None:
    found = _found(
        tmp_path,
        [
            ("move", "Axis", "5-3-12 (1/5)", "Eliminated"),
            ("turn", "Axis", "Axis Combat"),
            ("move", "Axis", "5-3-12 (1/5)", "2611"),
        ],
    )
    assert found == []


def test_a_unit_the_files_never_show_leaving_the_map_is_not_judged(tmp_path: Path) -> None:
    [(severity, message)] = _found(tmp_path, [("move", "Axis", "2-2-9 (609)", "2411")])
    assert severity == "info" and message.startswith(
        "Turn 4 axis-movement: Axis 2-2-9 (609) placed in 2411 from box 'Eliminated': not judged: the files "
        "do not show it leaving the map"
    )
