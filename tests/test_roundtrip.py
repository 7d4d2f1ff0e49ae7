"""load_save(p).write(q) on every save and log of the corpus gives back what VASSAL wrote; converted
to VASSAL 3.8's binary form (VASSAL-FORMATS.md section 3.1) and back, too."""

from __future__ import annotations

import zipfile
from pathlib import Path

import pytest
from conftest import REPO, SAVES, ids, need_corpus

import vassal_adj
from vassal_adj.codec.obfuscation import Codec, decode_saved_game
from vassal_adj.errors import UsageError
from vassal_adj.parse.builder import game_pieces
from vassal_adj.parse.commands import Node

EXAMPLES = sorted((REPO / "modules" / "kasserine" / "example").glob("*.v[sl][ao][vg]"))


def test_corpus_has_saves_and_logs() -> None:
    need_corpus()
    assert len(SAVES) >= 20
    assert any(p.suffix == ".vlog" for p in SAVES)


@pytest.mark.parametrize("path", SAVES, ids=ids(SAVES))
def test_unchanged_game_is_written_back_byte_for_byte(path: Path, tmp_path: Path) -> None:
    game = vassal_adj.load_save(path)
    out = tmp_path / "copy.bin"
    game.write(out)
    original, copy = zipfile.ZipFile(path), zipfile.ZipFile(out)
    assert [i.filename for i in copy.infolist()] == [i.filename for i in original.infolist()]
    for info in original.infolist():
        assert copy.read(info.filename) == original.read(info.filename), info.filename
        assert copy.getinfo(info.filename).compress_type == info.compress_type
        assert copy.getinfo(info.filename).date_time == info.date_time


@pytest.mark.parametrize("path", SAVES, ids=ids(SAVES))
def test_reencoded_tree_gives_the_same_text_and_bytes(path: Path, tmp_path: Path) -> None:
    game = vassal_adj.load_save(path)

    # Force re-encoding of every command: replace each node by an equal fresh one.
    def fresh(node: Node) -> Node:
        return Node(node.text, [fresh(c) for c in node.children])

    game.root = fresh(game.root)
    out = tmp_path / "copy.vsav"
    game.write(out)
    data = zipfile.ZipFile(out).read("savedGame")
    text, codec = decode_saved_game(data)
    assert text == game.text
    assert codec == game.codec
    assert data == zipfile.ZipFile(path).read("savedGame")


def test_other_key_gives_same_text(tmp_path: Path) -> None:
    need_corpus()
    path = SAVES[0]
    game = vassal_adj.load_save(path)
    out = tmp_path / "rekeyed.vsav"
    game.write(out, codec=Codec(obfuscated=True, key=0x11, upper=True))
    data = zipfile.ZipFile(out).read("savedGame")
    assert data[:7] == b"!VCSK11" and data[7:].upper() == data[7:]
    assert vassal_adj.load_save(out).text == game.text


def test_plain_unzipped_save_is_read_and_written_plain(tmp_path: Path) -> None:
    need_corpus()
    source = next(p for p in SAVES if p.name == "Default Setup.vsav")
    payload = zipfile.ZipFile(source).read("savedGame")
    old = tmp_path / "game.sav"
    old.write_bytes(decode_saved_game(payload)[0].encode("utf-8"))
    game = vassal_adj.load_save(old)
    assert game.archive.form == "plain" and not game.codec.obfuscated
    out = tmp_path / "copy"
    game.write(out)
    assert out.read_bytes() == old.read_bytes()


def test_writing_onto_the_input_is_refused_and_the_input_is_untouched(tmp_path: Path) -> None:
    need_corpus()
    copy = tmp_path / "in.vsav"
    copy.write_bytes(SAVES[0].read_bytes())
    game = vassal_adj.load_save(copy)
    game.root.children[-1].text = "end_save"  # an edit, to make sure nothing short-circuits
    with pytest.raises(UsageError):
        game.write(copy)
    assert copy.read_bytes() == SAVES[0].read_bytes()


def _entries(path: Path) -> dict[str, bytes]:
    with zipfile.ZipFile(path) as z:
        return {i.filename: z.read(i) for i in z.infolist()}


@pytest.mark.parametrize("path", SAVES + EXAMPLES, ids=ids(SAVES + EXAMPLES))
def test_3_1_converted_to_vobs_reads_the_same_game_and_converts_back_byte_for_byte(path: Path, tmp_path: Path) -> None:
    game = vassal_adj.load_save(path)
    vobs = tmp_path / "copy.vsav"
    game.write(vobs, form="vobs")
    original, converted = _entries(path), _entries(vobs)
    assert list(converted) == list(original)
    assert all(converted[n] == original[n] for n in original if n != "savedGame")
    # Section 3.1: "VOBS", the same key byte (VASSAL's hex form never chose 0 in the corpus), the XORed bytes.
    assert game.codec.key != 0
    assert converted["savedGame"][:5] == b"VOBS" + bytes([game.codec.key])
    assert len(converted["savedGame"]) - 5 == (len(original["savedGame"]) - 7) // 2
    back = vassal_adj.load_save(vobs)
    assert back.codec == Codec(obfuscated=True, key=game.codec.key, form="vobs")
    assert back.text == game.text
    assert [n.text for _, _, n in back.nodes()] == [n.text for _, _, n in game.nodes()]
    assert game_pieces(back.root) == game_pieces(game.root)
    # Written back in the form read: the same bytes.
    again = tmp_path / "again.vsav"
    back.write(again)
    assert _entries(again) == converted
    # Converted back to the hex form: the original savedGame.
    hexed = tmp_path / "hexed.vsav"
    back.write(hexed, form="vcsk")
    assert _entries(hexed) == original


def test_3_1_a_plain_save_converted_gets_a_key_vassal_could_write(tmp_path: Path) -> None:
    need_corpus()
    source = next(p for p in SAVES if p.name == "Default Setup.vsav")
    text = vassal_adj.load_save(source).text
    old = tmp_path / "game.sav"
    old.write_bytes(text.encode("utf-8"))
    game = vassal_adj.load_save(old)
    for form, header in (("vobs", b"VOBS"), ("vcsk", b"!VCSK")):
        out = tmp_path / form
        game.write(out, form=form)
        # The unzipped form is kept; only the entry's encoding changes.
        assert out.read_bytes().startswith(header)
        converted = vassal_adj.load_save(out)
        assert converted.text == text and converted.codec.key != 0 and converted.codec.form == form
