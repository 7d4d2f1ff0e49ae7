"""vassal-adj lint on the set-ups a module ships (issue 16): pieces Refresh Counters would change,
pieces of no slot, set-up files missing, and a seat taken with its password (never printed)."""

from __future__ import annotations

from pathlib import Path

from lint_modules import M, build_file, png, prototype, save_bytes, slot, write_module

from vassal_adj.lint import LintFinding, Severity, lint, read_lint_input

UNIT = prototype("Unit", "mark;Side\tpiece;;;;")
TANK = slot("Tank", "7", "prototype;Unit\tpiece;;;tank.png;Tank", "\tnull;0;0;;0")
# The piece VASSAL makes of the slot: the prototype's traits in place of the reference.
TANK_TYPE = "mark;Side\tpiece;;;tank.png;Tank"
TANK_STATE = "\tMain Map;100;100;7;0"
SETUP = f'<{M}PredefinedSetup name="Scenario 1" file="s1.vsav" useFile="true"/>'


def _lint(tmp_path: Path, save: bytes | None, *, setups: str = SETUP) -> list[LintFinding]:
    files = {"images/tank.png": png(40, 40)}
    if save is not None:
        files["s1.vsav"] = save
    path = write_module(tmp_path / "m.vmod", build_file(slots=TANK, prototypes=UNIT, setups=setups), files)
    return list(lint(read_lint_input(str(path))).findings)


def test_a_setup_whose_pieces_match_their_slots_has_no_finding(tmp_path: Path) -> None:
    assert _lint(tmp_path, save_bytes([("1", TANK_TYPE, TANK_STATE)])) == []


def test_a_piece_whose_traits_differ_from_its_slot_is_what_refresh_counters_would_change(tmp_path: Path) -> None:
    old = "mark;Side\tpiece;;;tank-old.png;Tank"  # the slot's image changed since the set-up was saved
    (f,) = _lint(tmp_path, save_bytes([("1", old, TANK_STATE), ("2", TANK_TYPE, TANK_STATE)]))
    assert f.check == "setups.refresh" and f.severity is Severity.WARNING
    assert "1 piece(s) differ from the module's piece slot 'Tank'" in f.message and "tank-old.png" in f.message
    assert f.where.endswith("m.vmod!s1.vsav: 'Tank' (piece 1)") and "Refresh Counters" in f.fix


def test_a_piece_of_no_slot_is_a_warning(tmp_path: Path) -> None:
    (f,) = _lint(tmp_path, save_bytes([("1", "piece;;;tank.png;Ghost", "Main Map;1;1;99;0")]))
    assert f.check == "setups.no_slot" and "'Ghost'" in f.message


def test_a_seat_taken_is_an_error_that_never_prints_the_password(tmp_path: Path) -> None:
    found = _lint(tmp_path, save_bytes([("1", TANK_TYPE, TANK_STATE)], roster=[("s3cret-pw", "Hans", "Axis")]))
    (f,) = found
    assert f.check == "setups.seat_taken" and f.severity is Severity.ERROR
    assert "'Hans'" in f.message and "'Axis'" in f.message and "not shown" in f.message
    assert all("s3cret-pw" not in (x.message + x.where + x.fix) for x in found)


def test_a_setup_file_the_archive_lacks_is_an_error(tmp_path: Path) -> None:
    (f,) = _lint(tmp_path, None)
    assert f.check == "setups.missing_file" and "'s1.vsav'" in f.message and "'Scenario 1'" in f.where


def test_an_unreadable_setup_is_an_error_about_the_module_not_bad_input(tmp_path: Path) -> None:
    (f,) = _lint(tmp_path, b"not a save at all")
    assert f.check == "setups.unreadable" and f.where.endswith("!s1.vsav")


def test_a_setup_selecting_a_board_the_module_lacks_is_an_error(tmp_path: Path) -> None:
    save = save_bytes([("1", TANK_TYPE, TANK_STATE)])
    import io
    import zipfile

    from vassal_adj.codec.obfuscation import Codec, decode_saved_game, encode_saved_game

    data = zipfile.ZipFile(io.BytesIO(save)).read("savedGame")
    text, _ = decode_saved_game(data, None)
    text = text.replace("end_save", "Main MapBoardPicker\tOld Board\t0\t0\x1bend_save")
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as z:
        z.writestr("savedGame", encode_saved_game(text, Codec(obfuscated=True, key=1)))
    (f,) = _lint(tmp_path, buf.getvalue())
    assert f.check == "setups.missing_board" and "'Old Board'" in f.message
