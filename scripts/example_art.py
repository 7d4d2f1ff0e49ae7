"""Pictures for the example module: the Kasserine board and the unit counters.

Text is drawn with a small built-in pixel font rather than a system font, so that the
pictures do not depend on which fonts or Pillow version a machine has.
"""

from __future__ import annotations

import io
import math
from collections.abc import Iterable

from PIL import Image, ImageDraw

# 3x5 glyphs, one string of 15 bits (row by row) per character.
_GLYPHS = {
    "0": "111101101101111", "1": "010110010010111", "2": "111001111100111",
    "3": "111001111001111", "4": "101101111001001", "5": "111100111001111",
    "6": "111100111101111", "7": "111001010010010", "8": "111101111101111",
    "9": "111101111001111", "-": "000000111000000", "/": "001001010100100",
    " ": "000000000000000", "(": "010100100100010", ")": "010001001001010",
}


def text_width(text: str, scale: int) -> int:
    return len(text) * 4 * scale - scale


def draw_text(draw: ImageDraw.ImageDraw, x: int, y: int, text: str, scale: int, fill: tuple[int, ...]) -> None:
    """Draw `text` with its top-left corner at (x, y); unknown characters are left blank."""
    for i, ch in enumerate(text):
        bits = _GLYPHS.get(ch, _GLYPHS[" "])
        for k, bit in enumerate(bits):
            if bit == "1":
                px = x + (i * 4 + k % 3) * scale
                py = y + (k // 3) * scale
                draw.rectangle([px, py, px + scale - 1, py + scale - 1], fill=fill)


def hexagon(cx: float, cy: float, dx: float, dy: float) -> list[tuple[float, float]]:
    """Corners of a flat-topped hex of a VASSAL grid with column spacing dx and height dy."""
    r = dx * 2 / 3  # the corner radius: columns are 1.5 radii apart
    h = dy / 2
    return [(cx + r, cy), (cx + r / 2, cy + h), (cx - r / 2, cy + h),
            (cx - r, cy), (cx - r / 2, cy - h), (cx + r / 2, cy - h)]


def png_bytes(image: Image.Image) -> bytes:
    out = io.BytesIO()
    image.save(out, format="PNG", optimize=False, compress_level=9)
    return out.getvalue()


def board_picture(
    size: tuple[int, int],
    hexes: Iterable[tuple[str, tuple[int, int]]],
    dx: float,
    dy: float,
    places: dict[str, str],
) -> bytes:
    """The board: hexes outlined and numbered as the rulebook prints them, places marked."""
    image = Image.new("RGB", size, (232, 220, 188))
    draw = ImageDraw.Draw(image)
    for label, (cx, cy) in hexes:
        corners = hexagon(cx, cy, dx, dy)
        if label in places:
            draw.polygon(corners, fill=(214, 190, 150))
            draw.ellipse([cx - 6, cy - 3, cx + 6, cy + 9], fill=(150, 40, 40))
        draw.line(corners + [corners[0]], fill=(120, 110, 90), width=1)
        draw_text(draw, int(cx - text_width(label, 2) / 2), int(cy - dy / 2 + 5), label, 2, (70, 60, 50))
    return png_bytes(image)


def counter_picture(strength: str, designation: str, colour: tuple[int, int, int]) -> bytes:
    """A 44x44 counter: a unit box over the strengths, the designation on top."""
    image = Image.new("RGB", (44, 44), colour)
    draw = ImageDraw.Draw(image)
    draw.rectangle([0, 0, 43, 43], outline=(20, 20, 20))
    draw.rectangle([13, 12, 30, 23], outline=(20, 20, 20))
    draw.line([13, 12, 30, 23], fill=(20, 20, 20))
    draw.line([13, 23, 30, 12], fill=(20, 20, 20))
    scale = 1
    draw_text(draw, 22 - text_width(designation, scale) // 2, 4, designation, scale, (20, 20, 20))
    draw_text(draw, 22 - text_width(strength, scale) // 2, 32, strength, scale, (20, 20, 20))
    return png_bytes(image)


def distance(a: tuple[int, int], b: tuple[int, int]) -> float:
    return math.hypot(a[0] - b[0], a[1] - b[1])
