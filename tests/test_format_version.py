"""``--format-version read|3.7|3.8``: the savedGame form of the save ``--annotate`` writes (VASSAL-FORMATS.md
section 3, the hex ``!VCSK`` form of VASSAL 3.0-3.7; section 3.1, the binary ``VOBS`` form of 3.8).

The oracle (VASSAL 3.6) cannot open the 3.8 form: it shows only that the hex form written from a 3.8
save still loads, with every piece where the original has it.
"""

from __future__ import annotations

import zipfile
from pathlib import Path

import pytest
from click.testing import CliRunner
from conftest import REPO
from test_vassal_accepts import oracle_pieces

import vassal_adj
from vassal_adj import cli
from vassal_adj.codec.obfuscation import Codec
from vassal_adj.parse.builder import game_pieces

EXAMPLE = REPO / "modules" / "kasserine" / "example"
MODULE, SAVE = EXAMPLE / "Kasserine.vmod", EXAMPLE / "turn3-faults.vsav"


def _check_annotate(save: Path, out: Path, *extra: str) -> tuple[int, str]:
    result = CliRunner().invoke(cli.main, ["check", str(save), "--module", str(MODULE), "--annotate", str(out), *extra])
    return result.exit_code, result.stderr


@pytest.fixture(scope="module")
def vobs_save(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The example save as VASSAL 3.8 would have written it."""
    out = tmp_path_factory.mktemp("vobs") / "turn3-faults-3.8.vsav"
    vassal_adj.load_save(SAVE).write(out, form="vobs")
    return out


@pytest.fixture(scope="module")
def annotated(vobs_save: Path, tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """The 3.8 save annotated with each --format-version, and the original annotated as read."""
    out = tmp_path_factory.mktemp("annotated")
    files = {"hex original": out / "hex-read.vsav"}
    assert _check_annotate(SAVE, files["hex original"])[0] == 1  # the example has error findings
    for version in ("read", "3.7", "3.8"):
        files[version] = out / f"vobs-{version}.vsav"
        code, err = _check_annotate(vobs_save, files[version], "--format-version", version)
        assert code == 1 and "marker(s) written" in err, err
    return files


def _saved_game(path: Path) -> bytes:
    with zipfile.ZipFile(path) as z:
        return z.read("savedGame")


def test_read_keeps_the_3_8_form_and_its_key(annotated: dict[str, Path], vobs_save: Path) -> None:
    key = vassal_adj.load_save(SAVE).codec.key
    assert _saved_game(annotated["read"])[:5] == _saved_game(vobs_save)[:5] == b"VOBS" + bytes([key])
    assert _saved_game(annotated["3.8"]) == _saved_game(annotated["read"])


def test_3_7_writes_the_hex_form_of_the_same_game(annotated: dict[str, Path]) -> None:
    # The same key, in hex: the very bytes annotating the original hex file gives.
    assert _saved_game(annotated["3.7"]) == _saved_game(annotated["hex original"])
    game = vassal_adj.load_save(annotated["3.7"])
    assert game.codec == Codec(obfuscated=True, key=vassal_adj.load_save(SAVE).codec.key)
    assert game.text == vassal_adj.load_save(annotated["read"]).text


def test_3_8_converts_a_hex_save(tmp_path: Path, annotated: dict[str, Path]) -> None:
    out = tmp_path / "annotated-3.8.vsav"
    assert _check_annotate(SAVE, out, "--format-version", "3.8")[0] == 1
    game = vassal_adj.load_save(out)
    assert game.codec == Codec(obfuscated=True, key=vassal_adj.load_save(SAVE).codec.key, form="vobs")
    assert game.text == vassal_adj.load_save(annotated["hex original"]).text


def test_verify_annotate_takes_the_format_version_too(tmp_path: Path, vobs_save: Path) -> None:
    out = tmp_path / "verified-3.7.vsav"
    result = CliRunner().invoke(
        cli.main,
        [
            "verify",
            str(EXAMPLE / "setup.vsav"),
            str(vobs_save),
            "--module",
            str(MODULE),
            "--annotate",
            str(out),
            "--format-version",
            "3.7",
        ],
    )
    assert "marker(s) written" in result.stderr, result.output
    assert _saved_game(out).startswith(b"!VCSK")


@pytest.mark.parametrize("command", ["check", "verify"])
def test_format_version_without_annotate_is_a_usage_error(command: str) -> None:
    result = CliRunner().invoke(cli.main, [command, str(SAVE), "--module", str(MODULE), "--format-version", "3.8"])
    assert result.exit_code == 2 and "--format-version is the form of the save --annotate writes" in result.stderr


def test_an_unknown_format_version_is_a_usage_error(tmp_path: Path) -> None:
    code, err = _check_annotate(SAVE, tmp_path / "out.vsav", "--format-version", "3.9")
    assert code == 2 and "'3.9' is not one of 'read', '3.7', '3.8'" in err
    assert not (tmp_path / "out.vsav").exists()


def test_the_help_documents_the_versions() -> None:
    for command in ("check", "verify"):
        out = CliRunner().invoke(cli.main, [command, "--help"]).stdout
        assert "--format-version [read|3.7|3.8]" in out and "VOBS" in out and "!VCSK" in out


def test_vassal_loads_the_hex_form_written_from_a_3_8_save(annotated: dict[str, Path]) -> None:
    result = oracle_pieces(MODULE, annotated["3.7"])
    vassal = {p["id"]: (p["map"], p["x"], p["y"]) for p in result["result"]["pieces"]}
    module = vassal_adj.load_module(MODULE)
    original = vassal_adj.load_save(SAVE)
    for piece in game_pieces(original.root, module):
        assert vassal[piece.id] == (piece.map, piece.x, piece.y)
    assert len(vassal) > 99  # and the markers
