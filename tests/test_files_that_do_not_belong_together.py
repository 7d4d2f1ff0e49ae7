"""Files that do not belong together say so (issue 10): a save or log whose `moduledata` names
another module than `--module` stops check, verify and vp with exit 2 naming both files and both
names and versions; another version of the same module is a note; a save with no `moduledata`
is read with a note saying it names no module. A pack named with `--pack` whose `[pack.module]`
does not match the module stops with exit 2 naming the pack's patterns and the module, before
the pack's terrain file is read on a board it was not drawn for.

The corpus save is Kassala's 'Default Setup.vsav' (moduledata: Kassala 0.2.0); the example
module is 'Kasserine' version 0.2 (scripts/make_example.py writes the same name and version
into the example saves' moduledata, so they pass).
"""

from __future__ import annotations

import json
import zipfile
from pathlib import Path

import pytest
from click.testing import CliRunner
from conftest import CORPUS, REPO, need_corpus

from vassal_adj.cli import main
from vassal_adj.errors import UsageError
from vassal_adj.load import load_module, load_save, same_module

EXAMPLE = REPO / "modules" / "kasserine" / "example"
MODULE = str(EXAMPLE / "Kasserine.vmod")
SAVE, LOG = str(EXAMPLE / "turn3-faults.vsav"), str(EXAMPLE / "turn4-axis.vlog")
KASSALA = CORPUS / "Kassala"
KASSALA_SAVE, KASSALA_MODULE = str(KASSALA / "Default Setup.vsav"), str(KASSALA / "Kassala.vmod")


def run(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(main, list(args))
    return result.exit_code, result.output


def with_moduledata(tmp_path: Path, source: str, moduledata: bytes | None) -> str:
    """A copy of `source` whose moduledata entry is `moduledata` (None: no such entry)."""
    out = tmp_path / Path(source).name
    with zipfile.ZipFile(source) as zin, zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as zout:
        for info in zin.infolist():
            if info.filename != "moduledata":
                zout.writestr(info, zin.read(info))
        if moduledata is not None:
            zout.writestr("moduledata", moduledata)
    return str(out)


def moduledata(name: str, version: str) -> bytes:
    return (
        f'<?xml version="1.0" encoding="UTF-8" standalone="no"?>\n<data version="1">\n  <version>{version}'
        f"</version>\n  <VassalVersion>3.7.12</VassalVersion>\n  <name>{name}</name>\n</data>\n"
    ).encode()


@pytest.mark.parametrize("command", [["check"], ["verify"], ["vp"]])
def test_a_save_of_another_module_is_a_usage_error_naming_both(command: list[str]) -> None:
    need_corpus()
    code, out = run(*command, KASSALA_SAVE, "--module", MODULE)
    assert code == 2, out
    assert KASSALA_SAVE in out and MODULE in out
    assert "module 'Kassala' version '0.2.0'" in out and "module 'Kasserine' version '0.2'" in out


def test_verify_stops_on_any_file_of_another_module() -> None:
    need_corpus()
    code, out = run("verify", LOG, KASSALA_SAVE, "--module", MODULE)
    assert code == 2, out
    assert f"{KASSALA_SAVE}: the game was saved with module 'Kassala'" in out


@pytest.mark.parametrize("command", [["check", KASSALA_SAVE], ["vp", KASSALA_SAVE], ["verify", LOG]])
def test_a_pack_that_does_not_fit_the_module_is_a_usage_error_naming_its_pack_module(command: list[str]) -> None:
    need_corpus()
    code, out = run(*command, "--module", KASSALA_MODULE, "--pack", "kasserine")
    assert code == 2, out
    assert "pack 'kasserine' does not fit the module: its [pack.module]" in out
    assert "name 'Kasserine.*' version '.*'" in out and "the module is 'Kassala' version '0.2.0'" in out
    assert "terrain" not in out  # not a terrain-file error: found before the terrain file is read


def test_the_example_files_belong_to_the_example_module() -> None:
    module = load_module(MODULE)
    for path in (SAVE, LOG, str(EXAMPLE / "setup.vsav")):
        assert same_module(load_save(path), module, MODULE) == [], path
    code, out = run("check", SAVE, "--module", MODULE, "--format", "json")
    assert code == 1, out  # the faults the example save was built with
    assert not [n for n in json.loads(out)["notes"] if "moduledata" in n or "saved with" in n]


def test_another_version_of_the_module_is_a_note(tmp_path: Path) -> None:
    save = with_moduledata(tmp_path, SAVE, moduledata("Kasserine", "0.1"))
    code, out = run("check", save, "--module", MODULE, "--format", "json")
    assert code == 1, out  # judged as usual
    assert (
        f"{save} was saved with version '0.1' of module 'Kasserine'; {MODULE} is version '0.2': pieces or maps "
        "that changed between them may be read wrongly"
    ) in json.loads(out)["notes"]


def test_a_save_without_moduledata_is_read_with_a_note(tmp_path: Path) -> None:
    log = with_moduledata(tmp_path, LOG, None)
    code, out = run("verify", log, "--module", MODULE, "--format", "json")
    assert code == 1, out  # its moves are judged: the log's faults
    assert (
        f"{log} names no module (no name in a moduledata entry): not checked that it was saved with {MODULE} "
        "(module 'Kasserine')"
    ) in json.loads(out)["notes"]


def test_a_version_ending_the_module_name_is_not_the_name(tmp_path: Path) -> None:
    module = load_module(MODULE)
    for name in ("Kasserine V0.2", "kasserine 0.1.3", "Kasserine (v3.7.9)"):
        game = load_save(with_moduledata(tmp_path, SAVE, moduledata(name, "0.2")))
        assert same_module(game, module, MODULE) == [], name
    for name in ("Kasserine 1943", "Kasserine Pass", "Kassala 0.2"):
        with pytest.raises(UsageError, match=f"saved with module '{name}'"):
            same_module(load_save(with_moduledata(tmp_path, SAVE, moduledata(name, "0.2"))), module, MODULE)
