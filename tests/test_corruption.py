"""Damaged inputs raise VassalAdjError and nothing else, through the whole reading pipeline.

test_codec_corruption.py damages the bytes of corpus files (most then fail at the zip layer);
here the damage is inside well-formed archives: the command stream of every save and the
buildFile of every module are cut and mutated, then read as a user's command would read them.
"""

from __future__ import annotations

import contextlib
import random
import zipfile
from pathlib import Path

import pytest
from conftest import MODULES, SAVES, ids

import vassal_adj
from vassal_adj.codec.obfuscation import decode_saved_game, encode_saved_game
from vassal_adj.errors import VassalAdjError
from vassal_adj.parse.builder import game_pieces

VARIANTS = 12
# Characters that carry structure in VASSAL text: damage there reaches every parser branch.
STRUCTURAL = "\x1b\t\\/;,:|'$<>\"=&0123456789-+"
SMALL_SAVES = [p for p in SAVES if p.stat().st_size < 60_000]
SMALL_MODULES = [p for p in MODULES if p.stat().st_size < 3_000_000]


def mutations(text: str, seed: int) -> list[str]:
    rng = random.Random(seed)
    out = []
    for k in range(VARIANTS):
        chars = list(text)
        if k % 3 == 0:
            chars = chars[: rng.randrange(1, len(chars))]  # truncated
        else:
            for _ in range(1 + k):
                i = rng.randrange(len(chars))
                if rng.random() < 0.3:
                    del chars[i]
                else:
                    chars[i] = rng.choice(STRUCTURAL)
        out.append("".join(chars))
    return out


def rezip(path: Path, entry: str, data: bytes, out: Path) -> Path:
    with zipfile.ZipFile(path) as src, zipfile.ZipFile(out, "w") as dst:
        for info in src.infolist():
            dst.writestr(info, data if info.filename == entry else src.read(info.filename))
    return out


def read_everything(path: Path, module: object | None = None) -> None:
    game = vassal_adj.load_save(path)
    for _, _, node in game.nodes():
        _ = node.command
    game_pieces(game.root, module, str(path))  # type: ignore[arg-type]
    game.secrets()


@pytest.mark.parametrize("path", SMALL_SAVES, ids=ids(SMALL_SAVES))
def test_damaged_command_streams_raise_only_vassal_errors(path: Path, tmp_path: Path) -> None:
    text, codec = decode_saved_game(zipfile.ZipFile(path).read("savedGame"))
    for n, damaged in enumerate(mutations(text, seed=len(text))):
        target = rezip(path, "savedGame", encode_saved_game(damaged, codec), tmp_path / f"{n}.vsav")
        try:
            read_everything(target)  # much damage is tolerated, as VASSAL keeps unknown commands
        except VassalAdjError as e:
            assert f"{target}!savedGame: command " in str(e)


@pytest.mark.parametrize("path", SMALL_MODULES, ids=ids(SMALL_MODULES))
def test_damaged_build_files_raise_only_vassal_errors(path: Path, tmp_path: Path) -> None:
    names = zipfile.ZipFile(path).namelist()
    entry = "buildFile.xml" if "buildFile.xml" in names else "buildFile"
    xml = zipfile.ZipFile(path).read(entry).decode("utf-8")
    errors = 0
    for n, damaged in enumerate(mutations(xml, seed=len(xml))):
        target = rezip(path, entry, damaged.encode("utf-8"), tmp_path / f"{n}.vmod")
        try:
            vassal_adj.load_module(target)
        except VassalAdjError as e:
            assert str(target) in str(e) and entry in str(e)
            errors += 1
    assert errors >= 1  # a truncated XML document at least must be refused


def test_the_example_save_survives_damaged_piece_states(tmp_path: Path) -> None:
    from conftest import REPO

    example = REPO / "modules" / "kasserine" / "example"
    module = vassal_adj.load_module(example / "Kasserine.vmod")
    text, codec = decode_saved_game(zipfile.ZipFile(example / "setup.vsav").read("savedGame"))
    for n, damaged in enumerate(mutations(text, seed=7)):
        target = rezip(example / "setup.vsav", "savedGame", encode_saved_game(damaged, codec), tmp_path / f"{n}.vsav")
        with contextlib.suppress(VassalAdjError):
            read_everything(target, module)
