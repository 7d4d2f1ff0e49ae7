"""A `savedGame` entry that is neither obfuscated (VASSAL-FORMATS.md sections 3, 3.1) nor a saved
game's command text (section 5.2: one tree whose root is ``begin_save``) is an error naming the file
and the entry, exit status 2: never an empty game with exit 0 (the silent loss pitfall 2 warns of)."""

from __future__ import annotations

import zipfile
from pathlib import Path

import pytest
from click.testing import CliRunner
from conftest import REPO

import vassal_adj
from vassal_adj import cli
from vassal_adj.codec.obfuscation import Codec, encode_saved_game
from vassal_adj.errors import FormatError

SETUP = REPO / "modules" / "kasserine" / "example" / "setup.vsav"


def _save(tmp_path: Path, payload: bytes, name: str = "bad.vsav") -> Path:
    """A copy of the example save with its savedGame entry replaced by `payload`."""
    out = tmp_path / name
    with zipfile.ZipFile(SETUP) as src, zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as dst:
        for info in src.infolist():
            dst.writestr(info.filename, payload if info.filename == "savedGame" else src.read(info))
    return out


def _xor(text: str, key: int) -> bytes:
    return bytes(b ^ key for b in text.encode("utf-8"))


GAME = "begin_save\x1b\x1bend_save"
CASES = {
    # Binary junk: bytes no UTF-8 text has.
    "binary junk": (bytes(range(256)) * 4, "neither obfuscated .* nor command text: not valid utf-8"),
    # A later header this reader does not know (as VOBS was to one knowing only !VCSK): the XORed
    # bytes of ASCII text are ASCII, so it reads as text, but not as a game.
    "unknown header": (
        b"VOB2Z" + _xor(GAME, 0x5A),
        (
            r"neither obfuscated .* nor a saved game's command text: "
            r"it starts with 'VOB2Z8\?=.*', not 'begin_save'"
        ),
    ),
    "no command": (b"Hello, this is not a game", "it starts with 'Hello, this is n', not 'begin_save'"),
    "empty entry": (b"", "it starts with '', not 'begin_save'"),
    "a NUL": (b"begin_save\x1b\x1b+/1/piece;;;a.png;A\x00\x00\x00\x1bend_save", "binary data, a NUL at character 31"),
    "another first command": (b"begin_saved\x1bend_save", "not 'begin_save'"),
    # Obfuscated, and the obfuscation is sound, but what it hides is no game.
    "vcsk hiding junk": (
        encode_saved_game("\x7fELF junk", Codec(True, 9)),
        r"de-obfuscated \(vcsk form\), is not a saved game's command text: it starts with '\\x7fELF",
    ),
    "vobs hiding a NUL": (
        encode_saved_game("begin_save\x1b\x00", Codec(True, 9, form="vobs")),
        r"de-obfuscated \(vobs form\).*a NUL at character 11",
    ),
    "vobs cut after its key": (b"VOBS\x09", r"\(vobs form\).*it starts with '', not 'begin_save'"),
    "vobs cut inside begin_save": (b"VOBS\x09" + _xor("begin", 9), "it starts with 'begin', not 'begin_save'"),
    "vobs without its key": (b"VOBS", "no key byte after 'VOBS'"),
    "vcsk with odd digits": (b"!VCSK5a383f3", "odd number of hex digits"),
    "vcsk with a non-hex digit": (b"!VCSK5a383g", "non-hex digit b'g'"),
}


@pytest.mark.parametrize("case", CASES)
def test_5_2_a_saved_game_entry_that_is_no_game_is_an_error(case: str, tmp_path: Path) -> None:
    payload, message = CASES[case]
    path = _save(tmp_path, payload)
    with pytest.raises(FormatError, match=message) as err:
        vassal_adj.load_save(path)
    assert str(err.value).startswith(f"{path}!savedGame: ")


@pytest.mark.parametrize("command", ["pieces", "decode"])
def test_5_2_no_game_exits_2_naming_file_and_entry(command: str, tmp_path: Path) -> None:
    path = _save(tmp_path, b"VOB2Z" + _xor(GAME, 0x5A))
    result = CliRunner().invoke(cli.main, [command, str(path)])
    assert result.exit_code == 2, result.output
    assert f"{path}!savedGame" in result.stderr and "not 'begin_save'" in result.stderr
    assert result.stdout == ""


def test_5_2_an_unzipped_save_that_is_no_game_names_the_file(tmp_path: Path) -> None:
    path = tmp_path / "old.sav"
    path.write_bytes(b"VOBS\x01" + _xor("not a game", 1))
    with pytest.raises(FormatError, match="de-obfuscated \\(vobs form\\)") as err:
        vassal_adj.load_save(path)
    assert str(err.value).startswith(f"{path}: ")


def test_5_2_the_smallest_game_is_read(tmp_path: Path) -> None:
    # The bare tree of section 5.2 passes the checks, in every form.
    for codec in (Codec(False), Codec(True, 7), Codec(True, 7, form="vobs")):
        game = vassal_adj.load_save(
            _save(tmp_path, encode_saved_game(GAME, codec), f"{codec.form}{codec.obfuscated}.vsav")
        )
        assert game.text == GAME and game.codec == codec
