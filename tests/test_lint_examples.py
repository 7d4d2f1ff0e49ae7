"""vassal-adj lint on the shipped examples with their packs and set-ups (issue 16). Lint first found
true defects in two generators, now fixed, and these tests keep them away:

- Kasserine.vmod: 67 piece slots held an unescaped '/' in their AddPiece text (names such as
  "1-1-2/1-7 (47)"), so VASSAL read a cut name and setup.vsav's 67 pieces of those names
  differed from their slots; scripts/example_module.py `_slot_text` now escapes it.
- Tunisia1943.vmod: the same for the two "sPzAbt 501/n" slots; its predefined set-ups carried the
  players' roster entries with passwords, and their pieces the slot ids of other slots
  (example_table numbers them by the save's order); the set-ups now carry no roster and each
  piece its own slot's id (scripts/tunisia_module.py GPIDS, as the Kesselring's War generator).
- Kasserine-terrain.vmod: elements of the terrain plugin's classes, which it does not ship (on purpose:
  it stands for a module built with a custom terrain jar).
"""

from __future__ import annotations

from conftest import REPO

from vassal_adj import packs as packs_io
from vassal_adj.lint import LintReport, lint, read_lint_input
from vassal_adj.lint.inputs import LintInput
from vassal_adj.parse.records import Player

KASSERINE = REPO / "modules" / "kasserine" / "example"
TUNISIA = REPO / "modules" / "tunisia-1943" / "example"


def _lint(module: str, pack: str | None, *setups: str) -> LintReport:
    return lint(read_lint_input(module, list(setups)), packs_io.find_pack(pack) if pack else None)


def _full_names(li: LintInput) -> dict[str, str]:
    """Slot name -> the name of the piece VASSAL makes from the slot's text."""
    return {
        d.slot.entry_name: piece.name
        for d, piece in zip(li.definitions, li.expanded, strict=True)
        if d.slot is not None and piece is not None
    }


def _clean(report: LintReport) -> str:
    return "\n".join(f"{f.severity.value} {f.check}: {f.where}: {f.message}" for f in report.findings)


def test_kasserine_example_and_its_setup_lint_clean_with_slash_names_whole() -> None:
    li = read_lint_input(str(KASSERINE / "Kasserine.vmod"), [str(KASSERINE / "setup.vsav")])
    report = lint(li, packs_io.find_pack("kasserine"))
    assert not report.findings, _clean(report)
    assert {"structure", "setups", "pack kasserine"} <= {name for name, _ in report.checked}
    names = _full_names(li)
    slashed = [n for n in names if "/" in n]
    assert len(slashed) == 67 and "1-1-2/1-7 (47)" in slashed
    assert all(names[n] == n for n in names), [(n, v) for n, v in names.items() if n != v][:3]


def test_the_packs_setup_rules_run_on_a_setup_given() -> None:
    report = _lint(str(KASSERINE / "Kasserine.vmod"), "kasserine", str(KASSERINE / "turn3-faults.vsav"))
    (stack,) = [f for f in report.findings if f.check.startswith("kasserine:")]
    assert "2 Axis units in 2615 exceed the limit of 1" in stack.message and stack.severity.value == "error"


def test_tunisia_example_and_its_predefined_setups_lint_clean() -> None:
    li = read_lint_input(str(TUNISIA / "Tunisia1943.vmod"), [])
    report = lint(li, packs_io.find_pack("tunisia-1943"))
    assert not report.findings, _clean(report)
    assert ("pack tunisia-1943", 0) in report.checked and ("setups", 0) in report.checked
    assert sorted(f.where.rsplit("!", 1)[1] for f in li.setups) == ["campaign-1.vsav", "campaign-2.vsav"]
    names = _full_names(li)
    assert [n for n in names if "/" in n] == ["8-7-7-* sPzAbt 501/1", "8-7-7-* sPzAbt 501/2"]
    assert all(names[n] == n for n in names)
    # A predefined set-up gives no seat: whoever opens it would take a player's seat and password.
    assert not [r for f in li.setups for r in f.game.commands if isinstance(r, Player)]


def test_kasserine_terrain_example_names_classes_it_does_not_ship() -> None:
    report = _lint(str(KASSERINE / "Kasserine-terrain.vmod"), None)
    classes = {f.where.split("<")[1].rstrip(">") for f in report.findings if f.check == "buildfile.unknown_class"}
    assert "terrain.TerrainHexGrid" in classes and all(c.startswith("terrain.") for c in classes)


def test_a_unit_set_up_twice_and_a_piece_the_pack_cannot_map(tmp_path) -> None:
    from lint_modules import save_bytes

    from vassal_adj.load import load_save
    from vassal_adj.parse.records import AddPiece

    setup = load_save(str(KASSERINE / "setup.vsav"))
    unit = next(r for r in setup.commands if isinstance(r, AddPiece) and r.type.endswith(";1-3-7 (2/168)"))
    save = tmp_path / "twice.vsav"
    save.write_bytes(
        save_bytes([("1", unit.type, unit.state), ("2", unit.type, unit.state), ("3", "piece;;;x.png;Nobody", "")])
    )
    report = _lint(str(KASSERINE / "Kasserine.vmod"), "kasserine", str(save))
    (twice,) = [f for f in report.findings if f.check == "pack.too_many"]
    assert "2 units named" in twice.message and "places 1" in twice.message
    (unmapped,) = [f for f in report.findings if f.check == "pack.unmapped"]
    assert "'Nobody'" in unmapped.message
