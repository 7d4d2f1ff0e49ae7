"""Small modules for the lint tests, each built with the defects a test asks for: a buildFile
written as VASSAL writes it, images, and predefined set-up saves in VASSAL's hex form."""

from __future__ import annotations

import io
import struct
import zipfile
import zlib
from pathlib import Path
from xml.sax.saxutils import escape, quoteattr

from vassal_adj.codec.obfuscation import Codec, encode_saved_game
from vassal_adj.parse.tokens import join

M = "VASSAL.build.module."


def png(width: int, height: int) -> bytes:
    """A valid PNG header of the given size (lint reads only the header)."""

    def chunk(kind: bytes, body: bytes) -> bytes:
        return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(body, zlib.crc32(kind)))

    ihdr = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", ihdr) + chunk(b"IDAT", zlib.compress(b"")) + chunk(b"IEND", b"")


def slot(name: str, gpid: str, type_text: str, state: str = "null;0;0;;0") -> str:
    text = escape(f"+/null/{type_text}/{state}")
    tag = "VASSAL.build.widget.PieceSlot"
    return f'<{tag} entryName={quoteattr(name)} gpid="{gpid}">{text}</{tag}>'


def prototype(name: str, type_text: str) -> str:
    text = escape(f"+/null/{type_text}/")
    return f"<{M}PrototypeDefinition name={quoteattr(name)}>{text}</{M}PrototypeDefinition>"


HEX_BOARD = (
    f'<{M}map.boardPicker.Board image="board.png" name="Main">'
    f'<{M}map.boardPicker.board.HexGrid dx="60" dy="52" x0="30" y0="30" sideways="false">'
    f'<{M}map.boardPicker.board.mapgrid.HexGridNumbering first="H" hOff="{{hoff}}" vOff="1" stagger="true" sep=""/>'
    f"</{M}map.boardPicker.board.HexGrid></{M}map.boardPicker.board.Board>"
).replace("board.Board>", "Board>")


def build_file(*, slots: str = "", prototypes: str = "", board: str = "", extra: str = "", setups: str = "") -> str:
    board = board or HEX_BOARD.replace("{hoff}", "1")
    return (
        '<?xml version="1.0" encoding="UTF-8" standalone="no"?>\n'
        '<VASSAL.build.GameModule name="Lint Test" version="1.0" VassalVersion="3.6.7" nextPieceSlotId="100">'
        f'<{M}Map mapName="Main Map"><{M}map.BoardPicker>{board}</{M}map.BoardPicker>{extra}</{M}Map>'
        f'<{M}PieceWindow name="Pieces"><VASSAL.build.widget.ListWidget entryName="Counters">{slots}'
        "</VASSAL.build.widget.ListWidget></" + M + "PieceWindow>"
        f"<{M}PrototypesContainer>{prototypes}</{M}PrototypesContainer>{setups}"
        "</VASSAL.build.GameModule>"
    )


def save_bytes(pieces: list[tuple[str, str, str]], *, roster: list[tuple[str, str, str]] = ()) -> bytes:
    """A .vsav (zip) of AddPiece commands (id, type, state) and PLAYER entries (password, name, side)."""
    esc = "\x1b"
    parts = ["begin_save", ""]
    parts += ["+/" + join([pid, t, s], "/") for pid, t, s in pieces]  # "/" in a name escaped, as VASSAL does
    parts += [f"PLAYER\t{pw}\t{name}\t{side}" for pw, name, side in roster]
    parts.append("end_save")
    text = esc.join(parts)
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as z:
        z.writestr("savedGame", encode_saved_game(text, Codec(obfuscated=True, key=0x2A)))
    return buf.getvalue()


def write_module(path: Path, xml: str, files: dict[str, bytes] | None = None) -> Path:
    """A .vmod holding `xml` as buildFile.xml, board.png (600x500) unless `files` replaces it, and `files`."""
    entries = {"images/board.png": png(600, 500), **(files or {})}
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as z:
        z.writestr("buildFile.xml", xml.encode("utf-8"))
        for name, data in entries.items():
            z.writestr(name, data)
    return path
