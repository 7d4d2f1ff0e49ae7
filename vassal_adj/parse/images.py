"""Pixel size of an image from its bytes (only the header is read)."""

from __future__ import annotations

import io
import warnings


def image_size_from_bytes(data: bytes) -> tuple[int, int] | None:
    """(width, height) of a PNG/JPEG/GIF/... image, or None when Pillow cannot read it.

    Only the header is decoded (`Image.open` is lazy), so large board images are cheap.
    SVG and other formats Pillow does not know give None.
    """
    # here, not at startup: Pillow is slow to import and most commands never call this
    from PIL import Image

    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # DecompressionBombWarning: size only, nothing is decoded
            with Image.open(io.BytesIO(data)) as img:
                width, height = img.size
    except Exception:  # Pillow raises many types for unreadable data
        return None
    if width <= 0 or height <= 0:
        return None
    return int(width), int(height)
