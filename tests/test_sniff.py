"""Classifying archives as VASSAL does (VASSAL-FORMATS.md section 1)."""

from __future__ import annotations

import zipfile
from pathlib import Path

import pytest
from conftest import MODULES, SAVES, ids, need_corpus

from vassal_adj.codec.archive import Archive, read_archive
from vassal_adj.codec.sniff import Kind, build_file_entry, sniff
from vassal_adj.errors import FormatError

MODULE_XML = b'<?xml version="1.0" encoding="UTF-8"?>\n<VASSAL.build.GameModule name="x">\n'
EXTENSION_XML = b'<?xml version="1.0"?>\n<VASSAL.build.module.ModuleExtension module="x">\n'


def arc(**entries: bytes) -> Archive:
    return Archive(path="t.vmod", form="zip", entries=dict(entries))


def test_corpus_present() -> None:
    need_corpus()
    assert SAVES and MODULES


@pytest.mark.parametrize("path", SAVES, ids=ids(SAVES))
def test_corpus_saves_and_logs_are_saves(path: Path) -> None:
    assert sniff(read_archive(path)) is Kind.SAVE


@pytest.mark.parametrize("path", MODULES, ids=ids(MODULES))
def test_corpus_modules_are_modules(path: Path) -> None:
    archive = read_archive(path)
    assert sniff(archive) is Kind.MODULE
    name = build_file_entry(archive)
    assert name in ("buildFile.xml", "buildFile")
    with zipfile.ZipFile(path) as zf:
        names = zf.namelist()
    assert name == ("buildFile.xml" if "buildFile.xml" in names else "buildFile")


def test_corpus_has_modules_sniffed_from_the_build_file() -> None:
    # ViveLEmpereur and FieldsOfFire2 have no moduledata: the build-file sniff decides.
    need_corpus()
    without = [p for p in MODULES if "moduledata" not in read_archive(p).entries]
    assert without
    for path in without:
        assert sniff(read_archive(path)) is Kind.MODULE


def test_saved_game_wins_over_everything() -> None:
    assert sniff(arc(savedGame=b"", **{"buildFile.xml": EXTENSION_XML}, extensiondata=b"")) is Kind.SAVE
    assert sniff(Archive("p.vsav", "plain", {"savedGame": b"begin_save"})) is Kind.SAVE


def test_metadata_decides_before_the_build_file() -> None:
    assert sniff(arc(buildFile=MODULE_XML, extensiondata=b"")) is Kind.EXTENSION
    assert sniff(arc(buildFile=EXTENSION_XML, moduledata=b"")) is Kind.MODULE
    assert sniff(arc(buildFile=b"", extensiondata=b"", moduledata=b"")) is Kind.EXTENSION


@pytest.mark.parametrize(
    ("text", "kind"),
    [
        (MODULE_XML, Kind.MODULE),
        (EXTENSION_XML, Kind.EXTENSION),
        (b"<VASSAL.launch.BasicModule>", Kind.MODULE),
        (MODULE_XML.replace(b"\n", b"\r\n"), Kind.MODULE),
        (b"\r" * 8 + EXTENSION_XML.replace(b"\n", b"\r"), Kind.EXTENSION),
        (b"\n" * 9 + b"<VASSAL.build.module.ModuleExtension>", Kind.EXTENSION),
        (b"\r\n" * 9 + b"<VASSAL.build.GameModule>", Kind.MODULE),
    ],
)
def test_build_file_sniff(text: bytes, kind: Kind) -> None:
    assert sniff(arc(**{"buildFile.xml": text})) is kind
    assert sniff(arc(buildFile=text)) is kind


def test_build_file_sniff_reads_only_ten_lines() -> None:
    late = b"\n" * 10 + b"<VASSAL.build.GameModule>"
    with pytest.raises(FormatError, match="first 10 lines") as err:
        sniff(arc(**{"buildFile.xml": late}))
    assert str(err.value).startswith("t.vmod!buildFile.xml: neither a module nor an extension")


def test_neither_module_nor_save() -> None:
    with pytest.raises(FormatError) as err:
        sniff(arc(moduledata=b"", **{"images/a.png": b""}))
    assert str(err.value) == (
        "t.vmod: neither a module nor a saved game: no buildFile.xml, buildFile or savedGame entry"
    )


def test_build_file_entry_prefers_xml() -> None:
    assert build_file_entry(arc(buildFile=b"old", **{"buildFile.xml": b"new"})) == "buildFile.xml"
    assert build_file_entry(arc(buildFile=b"old")) == "buildFile"
    with pytest.raises(FormatError, match="no buildFile.xml or buildFile entry"):
        build_file_entry(arc(savedGame=b""))
