"""Pixel size of an image from its bytes (only the header is read)."""

from __future__ import annotations

import io
import struct
import warnings
import zlib

from vassal_adj import limits


def image_size_from_bytes(data: bytes) -> tuple[int, int] | None:
    """(width, height) of a PNG/JPEG/GIF/... image, or None when it cannot be read.

    PNG, GIF and JPEG headers are read here; any other format, or a header this reader cannot
    vouch for, goes to Pillow (lazily: it is slow to import and initialise, and most modules'
    boards are PNG or JPEG). Only the header is decoded either way, so large board images are cheap.
    SVG and other formats Pillow does not know give None.
    """
    size = header_size(data)
    return size if size is not None else _pillow_size(data)


def header_size(data: bytes) -> tuple[int, int] | None:
    """The size a PNG, GIF or JPEG header declares, read as Pillow reads it; None when the bytes are
    another format or the header is one Pillow would refuse or read differently (never a guess)."""
    if data.startswith(b"\x89PNG\r\n\x1a\n"):
        size = _png_size(data)
    elif data[:6] in (b"GIF87a", b"GIF89a"):
        size = _gif_size(data)
    elif data.startswith(b"\xff\xd8\xff"):
        size = _jpeg_size(data)
    else:
        return None
    if size is None or size[0] <= 0 or size[1] <= 0:
        return None
    # A board that large would make every per-hex index of it a hang, and Pillow refuses it
    # (its decompression-bomb limit): refused with the limit named, not read as a picture of
    # unknown size.
    if size[0] * size[1] > limits.PIXELS.value:
        raise limits.PIXELS.error(f"the picture declares {size[0]:,} x {size[1]:,} pixels")
    return size


# (bit depth, colour type) pairs Pillow opens (PngImagePlugin._MODES); others it refuses
_PNG_MODES = {
    (1, 0),
    (2, 0),
    (4, 0),
    (8, 0),
    (16, 0),
    (8, 2),
    (16, 2),
    (1, 3),
    (2, 3),
    (4, 3),
    (8, 3),
    (8, 4),
    (16, 4),
    (8, 6),
    (16, 6),
}


def _png_size(data: bytes) -> tuple[int, int] | None:
    """The IHDR chunk's size. Like Pillow, every chunk before the image data must be well formed
    with a right checksum (Pillow refuses the file otherwise)."""
    pos, size = 8, None
    while pos + 8 <= len(data):
        length, cid = struct.unpack_from(">I4s", data, pos)
        body = data[pos + 8 : pos + 8 + length]
        if not cid.isalpha() or len(body) < length or len(data) < pos + 12 + length:
            return None
        if zlib.crc32(body, zlib.crc32(cid)) != struct.unpack_from(">I", data, pos + 8 + length)[0]:
            return None
        if cid == b"IHDR":
            if length < 13 or (body[8], body[9]) not in _PNG_MODES or body[11]:
                return None
            size = struct.unpack_from(">II", body)
        elif cid in (b"IDAT", b"fdAT"):
            return size
        pos += 12 + length
    return None


def _gif_size(data: bytes) -> tuple[int, int] | None:
    """The logical screen, grown (as Pillow grows it) to hold the first frame when that frame
    reaches past it."""
    if len(data) < 13:
        return None
    width, height, flags = struct.unpack_from("<HHB", data, 6)
    pos = 13 + (3 << ((flags & 7) + 1) if flags & 0x80 else 0)
    while pos < len(data):
        block = data[pos]
        if block == 0x21:  # an extension: label, then sub-blocks up to an empty one
            pos += 2
            while pos < len(data) and data[pos]:
                pos += data[pos] + 1
            pos += 1
        elif block == 0x2C:  # the first image descriptor
            if pos + 9 > len(data):
                return None
            x0, y0, w, h = struct.unpack_from("<HHHH", data, pos + 1)
            return max(width, x0 + w), max(height, y0 + h)
        else:
            return None
    return None


# Start-of-frame markers (the frame's size), and markers without a length field
_JPEG_SOF = {0xC0, 0xC1, 0xC2, 0xC3, 0xC5, 0xC6, 0xC7, 0xC9, 0xCA, 0xCB, 0xCD, 0xCE, 0xCF}
_JPEG_BARE = {0x01, 0xD0, 0xD1, 0xD2, 0xD3, 0xD4, 0xD5, 0xD6, 0xD7}


def _jpeg_size(data: bytes) -> tuple[int, int] | None:
    """The size of the last start-of-frame before the scan, as Pillow takes it; only 8-bit frames
    of 1, 3 or 4 components, the ones Pillow opens."""
    pos, size = 2, None
    while pos + 4 <= len(data):
        if data[pos] != 0xFF:
            return None
        marker = data[pos + 1]
        if marker == 0xFF:  # fill byte before a marker
            pos += 1
            continue
        if marker in _JPEG_BARE:
            pos += 2
            continue
        if marker in (0xD8, 0xD9, 0x00):
            return None
        (length,) = struct.unpack_from(">H", data, pos + 2)
        if length < 2 or pos + 2 + length > len(data):
            return None
        if marker == 0xDA:  # start of scan: the header is over
            return size
        if marker in _JPEG_SOF:
            if length < 8 or data[pos + 4] != 8 or data[pos + 9] not in (1, 3, 4):
                return None
            height, width = struct.unpack_from(">HH", data, pos + 5)
            size = (width, height)
        pos += 2 + length
    return None


def _pillow_size(data: bytes) -> tuple[int, int] | None:
    # here, not at startup: Pillow is slow to import and is needed only for formats read above
    from PIL import Image

    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # DecompressionBombWarning: size only, nothing is decoded
            with Image.open(io.BytesIO(data)) as img:
                width, height = img.size
    except Image.DecompressionBombError as e:
        raise limits.PIXELS.error(f"the picture is too large to open ({e})") from None
    except Exception:  # Pillow raises many types for unreadable data
        return None
    if width <= 0 or height <= 0:
        return None
    return int(width), int(height)
