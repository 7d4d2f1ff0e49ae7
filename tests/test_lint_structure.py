"""vassal-adj lint on modules built with one defect each (issue 16, the lint section): every check
finds its defect, says where and why with a fix, and a clean module gives no finding."""

from __future__ import annotations

from pathlib import Path

from lint_modules import HEX_BOARD, M, build_file, png, prototype, slot, write_module

from vassal_adj.lint import LintFinding, Severity, lint, read_lint_input

UNIT = prototype("Unit", "mark;Side\tpiece;;;;")
TANK = slot("Tank", "1", "prototype;Unit\tpiece;;;tank.png;Tank", "\tnull;0;0;;0")
IMAGES = {"images/tank.png": png(40, 40)}


def _lint(tmp_path: Path, xml: str, files: dict[str, bytes] | None = None) -> list[LintFinding]:
    path = write_module(tmp_path / "m.vmod", xml, {**IMAGES, **(files or {})})
    return list(lint(read_lint_input(str(path))).findings)


def _only(found: list[LintFinding], check: str) -> LintFinding:
    hits = [f for f in found if f.check == check]
    assert len(hits) == 1, found
    return hits[0]


def test_a_clean_module_has_no_finding(tmp_path: Path) -> None:
    assert _lint(tmp_path, build_file(slots=TANK, prototypes=UNIT)) == []


def test_a_piece_image_missing_from_the_archive_is_an_error_naming_the_slot(tmp_path: Path) -> None:
    xml = build_file(slots=TANK + slot("Gun", "2", "prototype;Unit\tpiece;;;gun.png;Gun"), prototypes=UNIT)
    f = _only(_lint(tmp_path, xml), "images.missing")
    assert f.severity is Severity.ERROR
    assert "'gun.png'" in f.message and "PieceSlot 'Gun' (id 2)" in f.where and "images/gun.png" in f.fix


def test_an_image_named_in_another_case_is_shown_in_the_fix(tmp_path: Path) -> None:
    xml = build_file(slots=slot("Gun", "2", "piece;;;Gun.PNG;Gun"))
    f = _only(_lint(tmp_path, xml, {"images/gun.png": png(4, 4)}), "images.missing")
    assert "'images/gun.png'" in f.fix and "case-sensitive" in f.fix


def test_a_board_image_missing_and_a_layer_image_missing_are_errors(tmp_path: Path) -> None:
    layer = "emb2;Flip;128;F;;128;;;128;;;;1;false;0;0;tank-back.png;;true;Flip;;;false;;1;1;false;;;;;1.0;;true"
    xml = build_file(slots=slot("Tank", "1", f"{layer}\tpiece;;;tank.png;Tank", "1\tnull;0;0;;0"))
    path = tmp_path / "m.vmod"
    write_module(path, xml, IMAGES)
    # the board's image too: a module without images/board.png
    import zipfile

    with zipfile.ZipFile(path) as z, zipfile.ZipFile(tmp_path / "n.vmod", "w") as out:
        for n in z.namelist():
            if n != "images/board.png":
                out.writestr(n, z.read(n))
    found = lint(read_lint_input(str(tmp_path / "n.vmod"))).findings
    missing = {f.message.split("'")[1]: f for f in found if f.check == "images.missing"}
    assert set(missing) == {"board.png", "tank-back.png"}
    assert "board 'Main' of map 'Main Map'" in missing["board.png"].where
    assert "(Layer)" in missing["tank-back.png"].where


def test_a_button_icon_of_vassals_own_jar_is_not_missing_but_a_module_icon_is_a_warning(tmp_path: Path) -> None:
    extra = f'<{M}map.Zoomer icon="/images/zoom.png"/><{M}map.CounterDetailViewer icon="eye.png"/>'
    f = _only(_lint(tmp_path, build_file(extra=extra)), "images.missing")
    assert f.severity is Severity.WARNING and "'eye.png'" in f.message


def test_a_prototype_used_but_not_defined_is_an_error_offering_the_renamed_one(tmp_path: Path) -> None:
    xml = build_file(slots=TANK, prototypes=prototype("Units", "mark;Side\tpiece;;;;"))
    found = _lint(tmp_path, xml)
    f = _only(found, "prototypes.undefined")
    assert f.severity is Severity.ERROR and "'Unit' is used 1 time(s)" in f.message
    assert "'Units'" in f.fix  # the rename the author missed
    assert _only(found, "prototypes.unused").message.startswith("prototype 'Units' is defined but")


def test_a_prototype_reference_that_reads_as_a_note_is_information(tmp_path: Path) -> None:
    xml = build_file(
        slots=slot("Tank", "1", "prototype;# moves by rail\tprototype;Unit\tpiece;;;tank.png;Tank"), prototypes=UNIT
    )
    f = _only(_lint(tmp_path, xml), "prototypes.note")
    assert f.severity is Severity.INFO


def test_a_prototype_that_includes_itself_is_an_error(tmp_path: Path) -> None:
    xml = build_file(slots=TANK, prototypes=prototype("Unit", "prototype;Unit\tpiece;;;;"))
    assert "includes itself" in _only(_lint(tmp_path, xml), "prototypes.cycle").message


def test_duplicate_piece_slot_ids_are_an_error_naming_both_slots(tmp_path: Path) -> None:
    xml = build_file(slots=TANK + slot("Gun", "1", "prototype;Unit\tpiece;;;tank.png;Gun"), prototypes=UNIT)
    f = _only(_lint(tmp_path, xml), "slots.duplicate_id")
    assert "'1' is used by 2 slots" in f.message and "'Gun'" in f.message and "'Tank'" in f.where


def test_a_piece_without_a_name_is_a_warning(tmp_path: Path) -> None:
    xml = build_file(slots=slot("", "3", "piece;;;tank.png;"))
    assert _only(_lint(tmp_path, xml), "pieces.unnamed").severity is Severity.WARNING


def test_a_trait_vassal_does_not_know_is_an_error(tmp_path: Path) -> None:
    xml = build_file(slots=slot("Tank", "1", "mygame.Odds;1\tpiece;;;tank.png;Tank", "\tnull;0;0;;0"))
    f = _only(_lint(tmp_path, xml), "traits.unknown")
    assert f.severity is Severity.ERROR and "'mygame.Odds;'" in f.message


def test_an_unescaped_slash_in_a_slot_name_is_an_error(tmp_path: Path) -> None:
    # VASSAL splits "+/id/type/state" on every unescaped '/': the name "2/7" is cut to "2"
    xml = build_file(slots=slot("2/7 Bn", "4", "piece;;;tank.png;2/7 Bn"))
    f = _only(_lint(tmp_path, xml), "traits.bad_fields")
    assert "5 '/' fields" in f.message and "'\\/'" in f.fix


def test_an_element_of_a_class_vassal_lacks_is_an_error_unless_the_archive_holds_it(tmp_path: Path) -> None:
    extra = "<terrain.TerrainMap/>"
    f = _only(_lint(tmp_path, build_file(extra=extra)), "buildfile.unknown_class")
    assert f.severity is Severity.ERROR and "terrain/TerrainMap.class" in f.message and "line" in f.where
    assert _lint(tmp_path, build_file(extra=extra), {"terrain/TerrainMap.class": b"\xca\xfe"}) == []


def test_a_setup_stack_on_a_board_the_map_lacks_is_an_error(tmp_path: Path) -> None:
    extra = f'<{M}map.SetupStack name="Reserves" owningBoard="Almoravid" x="10" y="10"/>'
    f = _only(_lint(tmp_path, build_file(extra=extra)), "refs.owning_board")
    assert f.severity is Severity.ERROR and "'Almoravid'" in f.message and "boards: 'Main'" in f.message


def test_a_setup_stack_at_a_label_the_grid_never_gives_is_found(tmp_path: Path) -> None:
    ok = f'<{M}map.SetupStack name="A" owningBoard="Main" useGridLocation="true" location="0203"/>'
    bad = f'<{M}map.SetupStack name="B" owningBoard="Main" useGridLocation="true" location="9999"/>'
    f = _only(_lint(tmp_path, build_file(extra=ok + bad)), "refs.setup_location")
    assert "SetupStack 'B'" in f.where and "'9999'" in f.message


def test_a_numbering_that_gives_two_hexes_one_label_is_found(tmp_path: Path) -> None:
    # no leading zeros and no separator: column 1 row 11 and column 11 row 1 are both "111"
    board = HEX_BOARD.replace("{hoff}", "1").replace('sep=""', 'sep="" vLeading="0" hLeading="0"')
    f = _only(_lint(tmp_path, build_file(board=board), {"images/board.png": png(900, 800)}), "grids.duplicate_label")
    assert "'111' (2 hexes)" in f.message


def test_a_zone_reaching_far_outside_its_board_is_a_warning(tmp_path: Path) -> None:
    zoned = (
        f'<{M}map.boardPicker.Board image="board.png" name="Main"><{M}map.boardPicker.board.ZonedGrid>'
        f'<{M}map.boardPicker.board.mapgrid.Zone name="Sea" path="0,0;700,0;700,100;0,100"/>'
        f'<{M}map.boardPicker.board.mapgrid.Zone name="Land" path="0,100;605,100;605,500;0,500"/>'
        f"</{M}map.boardPicker.board.ZonedGrid></{M}map.boardPicker.Board>"
    )
    found = [f for f in _lint(tmp_path, build_file(board=zoned)) if f.check == "zones.outside_board"]
    by_zone = {f.where.split("'")[1]: f.severity for f in found}
    assert by_zone == {"Sea": Severity.WARNING, "Land": Severity.INFO}
