"""Archive reading (by content, with limits), atomic writing, refusal to touch inputs."""

from __future__ import annotations

import hashlib
import io
import os
import shutil
import struct
import tracemalloc
import warnings
import zipfile
from pathlib import Path

import pytest
from conftest import MODULES, SAVES, ids, need_corpus

from vassal_adj.codec import archive as archive_mod
from vassal_adj.codec.archive import (
    DEFAULT_LIMITS,
    Limits,
    archive_from_bytes,
    read_archive,
    write_archive,
    write_bytes_atomic,
)
from vassal_adj.codec.obfuscation import Codec, decode_saved_game, encode_saved_game
from vassal_adj.codec.sniff import Kind, sniff
from vassal_adj.errors import FormatError, UsageError, VassalAdjError, Where

SAVE_TEXT = "begin_save\x1b\x1bend_save"


def make_zip(entries: list[tuple[str, bytes]], method: int = zipfile.ZIP_DEFLATED) -> bytes:
    buf = io.BytesIO()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # duplicate names are made on purpose
        with zipfile.ZipFile(buf, "w", method) as zf:
            for name, data in entries:
                zf.writestr(name, data)
    return buf.getvalue()


def small_save() -> bytes:
    return make_zip([("savedGame", encode_saved_game(SAVE_TEXT, Codec(True, 0x5A))), ("savedata", b"<data/>")])


def write(tmp_path: Path, name: str, data: bytes) -> str:
    path = tmp_path / name
    path.write_bytes(data)
    return str(path)


def digest(path: str | Path) -> str:
    return hashlib.sha256(Path(path).read_bytes()).hexdigest()


def patch_central(data: bytes, field_at: int, fmt: str, value: int, index: int = 0) -> bytes:
    """Overwrite a field of the `index`-th central directory record (offsets as in APPNOTE)."""
    pos = -1
    for _ in range(index + 1):
        pos = data.index(b"PK\x01\x02", pos + 1)
    out = bytearray(data)
    struct.pack_into(fmt, out, pos + field_at, value)
    return bytes(out)


# --- the corpus ---------------------------------------------------------------------------


def test_corpus_present() -> None:
    need_corpus()
    assert SAVES and MODULES


@pytest.mark.parametrize("path", SAVES + MODULES, ids=ids(SAVES + MODULES))
def test_corpus_reads(path: Path) -> None:
    arc = read_archive(path)
    assert arc.form == "zip" and arc.path == str(path)
    with zipfile.ZipFile(path) as zf:
        assert list(arc.entries) == zf.namelist()
        assert list(arc.infos) == zf.namelist()
        for name, data in arc.entries.items():
            assert data == zf.read(name)


@pytest.mark.parametrize("path", SAVES, ids=ids(SAVES))
def test_corpus_save_write_round_trip(path: Path, tmp_path: Path) -> None:
    arc = read_archive(path)
    before = digest(path)
    out = tmp_path / "copy.vsav"
    write_archive(out, arc)
    back = read_archive(out)
    assert list(back.entries) == list(arc.entries)
    assert back.entries == arc.entries
    assert back.comment == arc.comment
    for name, info in arc.infos.items():
        new = back.infos[name]
        assert new.compress_type == info.compress_type
        assert new.date_time == info.date_time
        assert new.external_attr == info.external_attr
        assert new.comment == info.comment
    assert digest(path) == before
    assert list(tmp_path.iterdir()) == [out]


def test_module_write_round_trip(tmp_path: Path) -> None:
    need_corpus()
    path = min(MODULES, key=lambda p: p.stat().st_size)
    arc = read_archive(path)
    out = tmp_path / "m.vmod"
    write_archive(out, arc)
    back = read_archive(out)
    assert list(back.entries) == list(arc.entries) and back.entries == arc.entries
    assert sniff(back) is sniff(arc)


@pytest.mark.parametrize("name", ["save.txt", "save.vmod", "noextension"])
def test_save_recognised_by_content(tmp_path: Path, name: str) -> None:
    need_corpus()
    target = tmp_path / name
    shutil.copyfile(SAVES[0], target)
    arc = read_archive(target)
    assert arc.form == "zip" and sniff(arc) is Kind.SAVE


def test_module_recognised_by_content(tmp_path: Path) -> None:
    need_corpus()
    target = tmp_path / "module.sav"
    shutil.copyfile(min(MODULES, key=lambda p: p.stat().st_size), target)
    assert sniff(read_archive(target)) is Kind.MODULE


# --- plain (unzipped) saves -----------------------------------------------------------------


def test_plain_saves_from_corpus(tmp_path: Path) -> None:
    need_corpus()
    payload = read_archive(SAVES[0]).entries["savedGame"]
    text, _ = decode_saved_game(payload)
    for name, data in [("obfuscated.vsav", payload), ("decoded.zip", text.encode("utf-8"))]:
        path = write(tmp_path, name, data)
        arc = read_archive(path)
        assert arc.form == "plain" and arc.entries == {"savedGame": data} and arc.infos == {}
        assert sniff(arc) is Kind.SAVE
        assert decode_saved_game(arc.entries["savedGame"])[0] == text
        out = tmp_path / ("out-" + name)
        write_archive(out, arc)
        assert out.read_bytes() == data
        new = encode_saved_game("begin_save\x1b\x1bend_save", Codec(True, 7))
        write_archive(out, arc, {"savedGame": new})
        assert out.read_bytes() == new


def test_text_with_bom_is_not_a_plain_save() -> None:
    with pytest.raises(FormatError, match="not a VASSAL file"):
        archive_from_bytes(b"\xef\xbb\xbfbegin_save", "bom.vsav")


# --- bad input ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    "data",
    [b"", b"hello world", b"\x89PNG\r\n\x1a\n", b"<?xml version='1.0'?><data/>", b" begin_save"],
)
def test_wrong_header(tmp_path: Path, data: bytes) -> None:
    path = write(tmp_path, "x.vsav", data)
    with pytest.raises(FormatError) as err:
        read_archive(path)
    message = str(err.value)
    assert message.startswith(path + ": ")
    assert "not a VASSAL file (neither a zip archive nor a saved game)" in message


def test_missing_file_and_directory(tmp_path: Path) -> None:
    missing = str(tmp_path / "nope.vsav")
    with pytest.raises(VassalAdjError, match="cannot read file: no such file") as err:
        read_archive(missing)
    assert str(err.value).startswith(missing)
    with pytest.raises(VassalAdjError, match="cannot read file") as err:
        read_archive(tmp_path)
    assert str(err.value).startswith(str(tmp_path))


@pytest.mark.parametrize("cut", [10, 30, 60, -30, -22, -1])
def test_truncated_zip(tmp_path: Path, cut: int) -> None:
    data = small_save()
    path = write(tmp_path, "t.vsav", data[:cut])
    with pytest.raises(FormatError) as err:
        read_archive(path)
    assert str(err.value).startswith(path)
    assert "corrupt zip" in str(err.value) or "not a VASSAL file" in str(err.value)


def test_bit_flip_in_entry_data_names_the_entry(tmp_path: Path) -> None:
    data = bytearray(make_zip([("savedGame", bytes(range(256)) * 64)]))
    data[30 + len("savedGame") + 20] ^= 0x10  # inside the deflate stream
    path = write(tmp_path, "f.vsav", bytes(data))
    with pytest.raises(FormatError, match="corrupt zip entry 'savedGame'") as err:
        read_archive(path)
    assert str(err.value).startswith(f"{path}!savedGame: ")


def test_crc_mismatch(tmp_path: Path) -> None:
    data = make_zip([("savedGame", b"begin_save" * 50)], zipfile.ZIP_STORED)
    broken = bytearray(data)
    broken[30 + len("savedGame") + 3] ^= 0x01  # a stored byte: only the CRC can tell
    path = write(tmp_path, "c.vsav", bytes(broken))
    with pytest.raises(FormatError, match="(?i)crc") as err:
        read_archive(path)
    assert f"{path}!savedGame" in str(err.value)


@pytest.mark.parametrize(
    ("name", "why"),
    [
        ("../evil", "'..' component"),
        ("images/../../evil", "'..' component"),
        ("images\\..\\evil", "'..' component"),
        ("/abs", "absolute path"),
        ("\\abs", "absolute path"),
        ("C:/windows/x", "drive letter"),
        ("c:evil", "drive letter"),
    ],
)
def test_unsafe_entry_names(tmp_path: Path, name: str, why: str) -> None:
    path = write(tmp_path, "u.vmod", make_zip([("buildFile.xml", b"<x/>"), (name, b"x")]))
    with pytest.raises(FormatError) as err:
        read_archive(path)
    message = str(err.value)
    assert message.startswith(f"{path}!{name}: ")
    assert f"unsafe entry name {name!r}" in message and why in message


def test_names_with_dots_are_fine() -> None:
    arc = archive_from_bytes(make_zip([("images/a..b.png", b"x"), ("..x", b"y")]), "ok.vmod")
    assert list(arc.entries) == ["images/a..b.png", "..x"]


def test_zip_with_prefix_is_recognised() -> None:
    # Self-extractor style: junk before the first local header; the end record finds it.
    arc = archive_from_bytes(b"junk" * 10 + small_save(), "sfx.bin")
    assert arc.form == "zip" and sniff(arc) is Kind.SAVE


def test_empty_zip() -> None:
    arc = archive_from_bytes(make_zip([]), "empty.vmod")
    assert arc.form == "zip" and arc.entries == {}
    with pytest.raises(FormatError, match="neither a module nor a saved game"):
        sniff(arc)


def test_duplicate_names_last_wins() -> None:
    arc = archive_from_bytes(
        make_zip([("savedGame", b"first"), ("moduledata", b"m"), ("savedGame", b"second")]),
        "dup.vsav",
    )
    assert arc.entries == {"moduledata": b"m", "savedGame": b"second"}
    assert list(arc.entries) == list(arc.infos)


def test_unsupported_compression(tmp_path: Path) -> None:
    data = make_zip([("savedGame", b"begin_save" * 10)], zipfile.ZIP_BZIP2)
    path = write(tmp_path, "b.vsav", data)
    with pytest.raises(FormatError, match="unsupported compression method 12") as err:
        read_archive(path)
    assert str(err.value).startswith(f"{path}!savedGame: ")


def test_encrypted_entry(tmp_path: Path) -> None:
    data = patch_central(make_zip([("savedGame", b"x")]), 8, "<H", 0x1)
    with pytest.raises(FormatError, match="'savedGame' is encrypted"):
        archive_from_bytes(data, "e.vsav")


# --- bombs ---------------------------------------------------------------------------------


def test_entry_too_large_with_small_limits() -> None:
    data = make_zip([("savedGame", bytes(2 * 1024 * 1024))])
    limits = Limits(max_entry_size=1024 * 1024, max_ratio=1e9)
    with pytest.raises(FormatError, match="declares 2097152 bytes, more than the limit") as err:
        archive_from_bytes(data, "big.vsav", limits)
    assert str(err.value).startswith("big.vsav!savedGame: ")


def test_ratio_limit() -> None:
    data = make_zip([("savedGame", bytes(200_000))])
    with pytest.raises(FormatError, match="compression ratio .* exceeds the limit of 50") as err:
        archive_from_bytes(data, "r.vsav", Limits(max_ratio=50, ratio_min_size=1000))
    assert "possible zip bomb" in str(err.value) and "r.vsav!savedGame" in str(err.value)
    # The same entry under the ratio threshold is fine.
    assert archive_from_bytes(data, "r.vsav", Limits(max_ratio=50, ratio_min_size=10**6))


def test_total_size_limit() -> None:
    data = make_zip([(f"images/{i}.png", os.urandom(40_000)) for i in range(3)])
    with pytest.raises(FormatError, match="expands to more than the limit of 100000") as err:
        archive_from_bytes(data, "t.vmod", Limits(max_total_size=100_000))
    assert "t.vmod!images/2.png" in str(err.value)


def test_too_many_entries() -> None:
    data = make_zip([(f"images/{i}.png", b"x") for i in range(6)])
    # Refused from the end record's count, before zipfile reads the directory (reliability).
    with pytest.raises(FormatError, match="declares 6 entries, more than the limit of 5") as err:
        archive_from_bytes(data, "n.vmod", Limits(max_entries=5))
    assert str(err.value).startswith("n.vmod: ") and "VASSAL_ADJ_MAX_ZIP_ENTRIES" in str(err.value)


def test_default_limits_refuse_a_huge_declared_entry_without_allocating(tmp_path: Path) -> None:
    # A real 1 MiB deflated entry whose directory record claims 1 GiB (at ratio ~1000).
    data = make_zip([("savedGame", bytes(1024 * 1024))])
    data = patch_central(data, 24, "<I", 1024**3)
    path = write(tmp_path, "bomb.vsav", data)
    tracemalloc.start()
    try:
        with pytest.raises(FormatError, match="declares 1073741824 bytes") as err:
            read_archive(path)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert str(err.value).startswith(f"{path}!savedGame: ")
    assert peak < 20 * 1024 * 1024


def test_default_limits_refuse_a_streamed_zero_bomb() -> None:
    # 8 MiB of zeros compresses ~1000:1, over the default ratio limit of 500.
    data = make_zip([("savedGame", bytes(8 * 1024 * 1024))])
    assert DEFAULT_LIMITS.max_ratio < 1000
    with pytest.raises(FormatError, match="possible zip bomb"):
        archive_from_bytes(data, "z.vsav")


def test_understated_size_is_caught_while_reading() -> None:
    # The directory says 100 bytes; the stream holds more: reading stops at 100, CRC fails.
    data = make_zip([("savedGame", b"begin_save" * 1000)])
    data = patch_central(data, 24, "<I", 100)
    with pytest.raises(FormatError, match="corrupt zip entry 'savedGame'"):
        archive_from_bytes(data, "lie.vsav")


def test_reading_stops_past_the_cap() -> None:
    data = make_zip([("savedGame", bytes(3 * 1024 * 1024))])
    with zipfile.ZipFile(io.BytesIO(data)) as zf:
        info = zf.infolist()[0]
        where = Where(path="cap.vsav", entry="savedGame")
        with pytest.raises(FormatError, match="expands past the limit of 1048576 bytes"):
            archive_mod._read_entry(zf, info, DEFAULT_LIMITS, 1024 * 1024, where)


def test_oversized_plain_file(tmp_path: Path) -> None:
    path = write(tmp_path, "p.vsav", b"begin_save" + bytes(2000))
    with pytest.raises(FormatError, match="larger than the limit of 1000"):
        read_archive(path, Limits(max_total_size=1000))
    with pytest.raises(FormatError, match="larger than the limit of 500") as err:
        read_archive(path, Limits(max_entry_size=500))
    assert str(err.value).startswith(f"{path}!savedGame: ")


# --- writing ---------------------------------------------------------------------------------


def test_write_replaces_entries_keeping_order(tmp_path: Path) -> None:
    src = write(tmp_path, "in.vsav", small_save())
    arc = read_archive(src)
    new = encode_saved_game(SAVE_TEXT + "\x1bLOG\tx", Codec(True, 9))
    out = tmp_path / "out.vsav"
    write_archive(out, arc, {"savedGame": new})
    back = read_archive(out)
    assert list(back.entries) == ["savedGame", "savedata"]
    assert back.entries["savedGame"] == new and back.entries["savedata"] == b"<data/>"
    assert arc.entries["savedGame"] != new  # the archive object is not changed


def test_write_unknown_entry_is_refused(tmp_path: Path) -> None:
    arc = archive_from_bytes(small_save(), "in.vsav")
    with pytest.raises(UsageError, match="cannot replace entry 'nope'"):
        write_archive(tmp_path / "o.vsav", arc, {"nope": b""})
    assert list(tmp_path.iterdir()) == []


def test_write_keeps_zero_external_attr_and_comment(tmp_path: Path) -> None:
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as zf:
        info = zipfile.ZipInfo("savedGame", (2001, 2, 3, 4, 5, 6))
        info.compress_type = zipfile.ZIP_STORED
        info.comment = b"entry comment"
        zf.writestr(info, b"begin_save")
        info.external_attr = 0  # what java.util.zip writes
        zf.comment = b"archive comment"
    arc = archive_from_bytes(buf.getvalue(), "j.vsav")
    out = tmp_path / "j.vsav"
    write_archive(out, arc)
    with zipfile.ZipFile(out) as zf:
        info = zf.getinfo("savedGame")
        assert info.external_attr == 0 and info.comment == b"entry comment"
        assert info.date_time == (2001, 2, 3, 4, 5, 6)
        assert info.compress_type == zipfile.ZIP_STORED
        assert zf.comment == b"archive comment"


def test_refuses_to_write_onto_input(tmp_path: Path) -> None:
    src = write(tmp_path, "in.vsav", small_save())
    before = digest(src)
    arc = read_archive(src)
    link = tmp_path / "link.vsav"
    os.symlink(src, link)
    other = tmp_path / "other.vmod"
    other.write_bytes(b"module")
    for target, protect in [(src, ()), (link, ()), (tmp_path / "." / "in.vsav", ()), (other, [other])]:
        with pytest.raises(UsageError, match="refusing to write onto input file") as err:
            write_archive(target, arc, {"savedGame": b"begin_save"}, protect=protect)
        assert str(target) in str(err.value)
    assert digest(src) == before and other.read_bytes() == b"module"
    with pytest.raises(UsageError):
        write_bytes_atomic(other, b"x", protect=[str(other)])
    assert sorted(p.name for p in tmp_path.iterdir()) == ["in.vsav", "link.vsav", "other.vmod"]


def test_write_error_leaves_no_temp_file_and_old_target(tmp_path: Path, monkeypatch) -> None:
    arc = archive_from_bytes(small_save(), "mem.vsav")
    out = tmp_path / "out.vsav"
    out.write_bytes(b"old")

    def boom(src: str, dst: str) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(archive_mod.os, "replace", boom)
    with pytest.raises(VassalAdjError, match="cannot write file: no space left") as err:
        write_archive(out, arc)
    assert str(err.value).startswith(str(out))
    assert out.read_bytes() == b"old"
    assert [p.name for p in tmp_path.iterdir()] == ["out.vsav"]


def test_write_failure_inside_zip_leaves_no_temp_file(tmp_path: Path) -> None:
    arc = archive_from_bytes(small_save(), "mem.vsav")
    with pytest.raises(TypeError):
        write_archive(tmp_path / "o.vsav", arc, {"savedGame": 12345})  # type: ignore[dict-item]
    assert list(tmp_path.iterdir()) == []


def test_write_into_missing_directory(tmp_path: Path) -> None:
    target = tmp_path / "no" / "such" / "o.vsav"
    with pytest.raises(VassalAdjError, match="cannot write into folder .*: no such file or directory") as err:
        write_bytes_atomic(target, b"x")
    assert str(target) in str(err.value) and repr(str(target.parent)) in str(err.value)
    assert list(tmp_path.iterdir()) == []


def test_write_bytes_atomic_replaces_and_sets_normal_mode(tmp_path: Path) -> None:
    target = tmp_path / "a.txt"
    target.write_bytes(b"old")
    write_bytes_atomic(target, b"new")
    assert target.read_bytes() == b"new"
    mask = os.umask(0)
    os.umask(mask)
    assert target.stat().st_mode & 0o777 == 0o666 & ~mask
    assert [p.name for p in tmp_path.iterdir()] == ["a.txt"]
