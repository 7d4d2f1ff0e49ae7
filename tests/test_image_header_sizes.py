"""Board sizes read from the image header (issue 10, quick to start): the same answer Pillow gives,
without importing it. Every image of the corpus modules and of the example module is compared, and
made-up GIF/JPEG/PNG cases cover what the corpus lacks."""

from __future__ import annotations

import io
import zipfile

import pytest
from conftest import MODULES, REPO, ids, need_corpus
from PIL import Image

from vassal_adj.errors import FormatError
from vassal_adj.parse.images import _pillow_size, header_size, image_size_from_bytes

EXAMPLE = REPO / "modules" / "kasserine" / "example" / "Kasserine.vmod"


def _images(path) -> list[tuple[str, bytes]]:
    with zipfile.ZipFile(path) as z:
        return [(n, z.read(n)) for n in z.namelist() if n.startswith("images/") and not n.endswith("/")]


@pytest.mark.parametrize("path", [*MODULES, EXAMPLE], ids=ids([*MODULES, EXAMPLE]))
def test_every_module_image_has_the_size_pillow_reads(path) -> None:
    if path != EXAMPLE:
        need_corpus()
    images = _images(path)  # some corpus modules come without their images
    for name, data in images:
        assert image_size_from_bytes(data) == _pillow_size(data), name
        read = header_size(data)
        assert read is None or read == _pillow_size(data), name


def test_the_example_boards_are_read_without_pillow() -> None:
    # The example's images are PNG/JPEG: the header reader answers for all of them.
    assert _images(EXAMPLE) and all(header_size(data) is not None for _, data in _images(EXAMPLE))


def _made(fmt: str, size: tuple[int, int], mode: str = "RGB", **options) -> bytes:
    out = io.BytesIO()
    Image.new(mode, size).save(out, fmt, **options)
    return out.getvalue()


@pytest.mark.parametrize(
    ("fmt", "mode", "options"),
    [
        ("PNG", "RGB", {}),
        ("PNG", "P", {}),
        ("PNG", "RGBA", {}),
        ("PNG", "L", {"optimize": True}),
        ("JPEG", "RGB", {}),
        ("JPEG", "L", {}),
        ("JPEG", "CMYK", {}),
        ("JPEG", "RGB", {"progressive": True}),
        ("JPEG", "RGB", {"exif": b"Exif\x00\x00II*\x00\x08\x00\x00\x00\x00\x00"}),
        ("GIF", "P", {}),
        ("GIF", "L", {}),
        ("GIF", "RGB", {"interlace": False}),
    ],
)
def test_made_images_have_the_size_pillow_reads(fmt, mode, options) -> None:
    data = _made(fmt, (317, 211), mode, **options)
    assert header_size(data) == (317, 211) == _pillow_size(data)


def test_a_gif_frame_past_the_logical_screen_grows_it_as_pillow_does() -> None:
    data = bytearray(_made("GIF", (40, 30), "P"))
    data[6:10] = (20).to_bytes(2, "little") + (10).to_bytes(2, "little")  # screen smaller than the frame
    assert header_size(bytes(data)) == (40, 30) == _pillow_size(bytes(data))


def test_a_png_with_a_broken_checksum_is_left_to_pillow_which_refuses_it() -> None:
    data = bytearray(_made("PNG", (50, 60)))
    data[29] ^= 0xFF  # the IHDR checksum
    assert header_size(bytes(data)) is None
    assert image_size_from_bytes(bytes(data)) is None


def test_truncated_or_foreign_bytes_are_not_guessed() -> None:
    png = _made("PNG", (50, 60))
    jpeg = _made("JPEG", (50, 60))
    for data in (png[:20], jpeg[:10], b"GIF89a\x01", b'<svg xmlns="http://www.w3.org/2000/svg"/>', b""):
        assert header_size(data) is None
        assert image_size_from_bytes(data) == _pillow_size(data)


def test_a_bmp_is_read_by_pillow() -> None:
    data = _made("BMP", (33, 44))
    assert header_size(data) is None
    assert image_size_from_bytes(data) == (33, 44)


def test_a_board_over_pillows_bomb_limit_is_refused_naming_the_limit() -> None:
    """A header may declare any size; past Pillow's decompression-bomb limit both readers refuse
    it with the limit named (reliability r11), so no grid index is ever built for a 20000 x 20000
    "board" (a hang, not a map) and the user learns why."""
    import struct
    import zlib

    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    def png(w: int, h: int) -> bytes:
        head = chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, 8, 2, 0, 0, 0))
        return b"\x89PNG\r\n\x1a\n" + head + chunk(b"IDAT", b"") + chunk(b"IEND", b"")

    assert header_size(png(3000, 2000)) == _pillow_size(png(3000, 2000)) == (3000, 2000)
    for reader in (header_size, _pillow_size, image_size_from_bytes):
        with pytest.raises(FormatError, match="VASSAL_ADJ_MAX_PIXELS"):
            reader(png(20000, 20000))
