"""vassal-adj lint on the shipped examples with their packs and set-ups (issue 16). The findings are
real defects of the example generators, reported to the lead rather than hidden:

- Kasserine.vmod: 67 piece slots whose AddPiece text holds an unescaped '/' (names such as
  "1-1-2/1-7 (47)"; scripts/example_module.py `_slot_text` joins with "/" without escaping), so
  VASSAL reads a cut name, and setup.vsav's 67 pieces of those names differ from their slots.
- Tunisia1943.vmod: the same for the two "sPzAbt 501/n" slots; the predefined set-ups carry the
  players' roster entries with passwords (scripts/example_table.py writes PLAYER into every save),
  and their pieces carry the slot ids of other slots (example_table numbers them by the save's
  order, the module by all counters), so Refresh Counters would turn them into other units.
- Kasserine-terrain.vmod: elements of the terrain plugin's classes, which it does not ship (on purpose:
  it stands for a module built with a custom terrain jar).
"""

from __future__ import annotations

from collections import Counter

from conftest import REPO

from vassal_adj import packs as packs_io
from vassal_adj.lint import LintReport, lint, read_lint_input

KASSERINE = REPO / "modules" / "kasserine" / "example"
TUNISIA = REPO / "modules" / "tunisia-1943" / "example"


def _lint(module: str, pack: str | None, *setups: str) -> LintReport:
    return lint(read_lint_input(module, list(setups)), packs_io.find_pack(pack) if pack else None)


def _checks(report: LintReport) -> Counter[str]:
    return Counter(f.check for f in report.findings)


def test_kasserine_example_slots_with_an_unescaped_slash_and_its_setup() -> None:
    report = _lint(str(KASSERINE / "Kasserine.vmod"), "kasserine", str(KASSERINE / "setup.vsav"))
    assert _checks(report) == {"traits.bad_fields": 67, "setups.refresh": 67}
    assert any("'1-1-2/1-7 (47)'" in f.where for f in report.findings if f.check == "traits.bad_fields")


def test_the_packs_setup_rules_run_on_a_setup_given() -> None:
    report = _lint(str(KASSERINE / "Kasserine.vmod"), "kasserine", str(KASSERINE / "turn3-faults.vsav"))
    (stack,) = [f for f in report.findings if f.check.startswith("kasserine:")]
    assert "2 Axis units in 2615 exceed the limit of 1" in stack.message and stack.severity.value == "error"


def test_tunisia_example_setups_carry_passwords_and_other_slots_ids() -> None:
    report = _lint(str(TUNISIA / "Tunisia1943.vmod"), "tunisia-1943")
    assert _checks(report) == {"setups.seat_taken": 4, "traits.bad_fields": 2, "setups.refresh": 175}
    assert ("pack tunisia-1943", 0) in report.checked


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
