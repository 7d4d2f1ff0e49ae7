"""Pictures for the example module: the Kasserine board, the holding boxes and the counters.

Text is drawn with a small built-in pixel font rather than a system font, so that the
pictures do not depend on which fonts or Pillow version a machine has. The board's colours
are the ones modules/kasserine/palette.toml names, so that `vassal-adj terrain sample` reads
the terrain back from the picture.
"""

from __future__ import annotations

import io
import math
from collections.abc import Iterable

from PIL import Image, ImageDraw

# 3x5 glyphs, one string of 15 bits (row by row) per character.
_GLYPHS = {
    "0": "111101101101111",
    "1": "010110010010111",
    "2": "111001111100111",
    "3": "111001111001111",
    "4": "101101111001001",
    "5": "111100111001111",
    "6": "111100111101111",
    "7": "111001010010010",
    "8": "111101111101111",
    "9": "111101111001111",
    "-": "000000111000000",
    "/": "001001010100100",
    " ": "000000000000000",
    "(": "010100100100010",
    ")": "010001001001010",
    ":": "000010000010000",
    ".": "000000000000010",
    ",": "000000000010100",
    "A": "010101111101101",
    "B": "110101110101110",
    "C": "011100100100011",
    "D": "110101101101110",
    "E": "111100110100111",
    "F": "111100110100100",
    "G": "011100101101011",
    "H": "101101111101101",
    "I": "111010010010111",
    "J": "001001001101010",
    "K": "101101110101101",
    "L": "100100100100111",
    "M": "101111111101101",
    "N": "110101101101101",
    "O": "010101101101010",
    "P": "110101110100100",
    "Q": "010101101110011",
    "R": "110101110101101",
    "S": "011100010001110",
    "T": "111010010010010",
    "U": "101101101101111",
    "V": "101101101101010",
    "W": "101101111111101",
    "X": "101101010101101",
    "Y": "101101010010010",
    "Z": "111001010100111",
}

# The board's colours (palette.toml names each of them).
CLEAR, ROUGH, HATCH, TOWN = (236, 224, 190), (184, 154, 112), (132, 104, 72), (196, 200, 214)
ROAD, TRAIL, STREAM = (200, 40, 30), (214, 130, 20), (50, 110, 220)
OUTLINE, NUMBERS, INK, BRIDGE = (150, 140, 115), (70, 60, 50), (25, 25, 25), (60, 60, 60)
WARNING = (150, 20, 20)  # the legend's "terrain invented" lines


def text_width(text: str, scale: int) -> int:
    return len(text) * 4 * scale - scale


def draw_text(draw: ImageDraw.ImageDraw, x: int, y: int, text: str, scale: int, fill: tuple[int, ...]) -> None:
    """Draw `text` (upper-cased) with its top-left corner at (x, y); unknown characters are blank."""
    for i, ch in enumerate(text.upper()):
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
    return [
        (cx + r, cy),
        (cx + r / 2, cy + h),
        (cx - r / 2, cy + h),
        (cx - r, cy),
        (cx - r / 2, cy - h),
        (cx + r / 2, cy - h),
    ]


def png_bytes(image: Image.Image) -> bytes:
    out = io.BytesIO()
    image.save(out, format="PNG", optimize=False, compress_level=9)
    return out.getvalue()


def dashed(
    draw: ImageDraw.ImageDraw,
    a: tuple[float, float],
    b: tuple[float, float],
    fill: tuple[int, ...],
    width: int,
    dash: float = 9.0,
) -> None:
    length = math.hypot(b[0] - a[0], b[1] - a[1])
    n = max(1, int(length // dash))
    for k in range(0, n, 2):
        t0, t1 = k / n, min(1.0, (k + 1) / n)
        draw.line(
            [
                (a[0] + (b[0] - a[0]) * t0, a[1] + (b[1] - a[1]) * t0),
                (a[0] + (b[0] - a[0]) * t1, a[1] + (b[1] - a[1]) * t1),
            ],
            fill=fill,
            width=width,
        )


def edge(a: tuple[float, float], b: tuple[float, float], r: float) -> tuple[tuple[float, float], tuple[float, float]]:
    """The hexside between two neighbouring centres: its two corners."""
    mx, my = (a[0] + b[0]) / 2, (a[1] + b[1]) / 2
    d = math.hypot(b[0] - a[0], b[1] - a[1])
    px, py = -(b[1] - a[1]) / d * r / 2, (b[0] - a[0]) / d * r / 2
    return (mx + px, my + py), (mx - px, my - py)


def board_picture(
    size: tuple[int, int],
    hexes: dict[str, tuple[int, int]],
    terrain: dict[str, set[str]],
    sides: dict[tuple[str, str], set[str]],
    towns: dict[str, str],
    landmarks: dict[str, str],
    dx: float,
    dy: float,
) -> bytes:
    """The board: terrain tints, roads, trails, streams, towns, hex outlines and numbers, legend.

    `terrain`: label -> terrain types; `sides`: (label, label) -> hexside features; `towns`
    and `landmarks`: label -> name (towns get a town tint and blocks, landmarks a name only).
    """
    image = Image.new("RGB", size, CLEAR)
    draw = ImageDraw.Draw(image)
    rough_mask = Image.new("L", size, 0)
    mask = ImageDraw.Draw(rough_mask)
    for label, (cx, cy) in hexes.items():
        corners = hexagon(cx, cy, dx, dy)
        if "town" in terrain[label]:
            draw.polygon(corners, fill=TOWN)
        elif "rough" in terrain[label]:
            mask.polygon(corners, fill=255)
    # Rough ground: a brown tint hatched with darker diagonals, cut to the rough hexes.
    hatch = Image.new("RGB", size, ROUGH)
    hd = ImageDraw.Draw(hatch)
    for k in range(-size[1], size[0], 9):
        hd.line([(k, size[1]), (k + size[1], 0)], fill=HATCH, width=2)
    image.paste(hatch, (0, 0), rough_mask)
    for cx, cy in hexes.values():
        corners = hexagon(cx, cy, dx, dy)
        draw.line(corners + [corners[0]], fill=OUTLINE, width=1)
    r = dx * 2 / 3
    hexside_lines(draw, hexes, sides, r, [("stream", STREAM, 5)])
    for (a, b), features in sorted(sides.items()):
        if "trail" in features and "road" not in features:
            dashed(draw, hexes[a], hexes[b], TRAIL, 4)
    for (a, b), features in sorted(sides.items()):
        if "road" in features:
            draw.line([hexes[a], hexes[b]], fill=ROAD, width=5)
            # A road centre is round, so that bends do not show notches.
            for x, y in (hexes[a], hexes[b]):
                draw.ellipse([x - 2, y - 2, x + 2, y + 2], fill=ROAD)
        if "bridge" in features:
            (x0, y0), (x1, y1) = edge(hexes[a], hexes[b], r * 0.7)
            ux, uy = (hexes[b][0] - hexes[a][0]) / dy * 6, (hexes[b][1] - hexes[a][1]) / dy * 6
            for s in (-1, 1):
                draw.line([(x0 + s * ux, y0 + s * uy), (x1 + s * ux, y1 + s * uy)], fill=BRIDGE, width=3)
    hex_numbers(draw, hexes, dy)
    for label, name in towns.items():
        cx, cy = hexes[label]
        for ox, oy in ((-7, -5), (2, -7), (-3, 2), (5, 1)):
            draw.rectangle([cx + ox, cy + oy, cx + ox + 4, cy + oy + 4], fill=INK)
        hex_name(draw, hexes[label], name, size[0], INK)
    for label, name in landmarks.items():
        hex_name(draw, hexes[label], name, size[0], NUMBERS)
    _legend(draw, 6, size[1] - 150)
    return png_bytes(image)


def hexside_lines(
    draw: ImageDraw.ImageDraw,
    hexes: dict[str, tuple[int, int]],
    sides: dict[tuple[str, str], set[str]],
    r: float,
    styles: Iterable[tuple[str, tuple[int, int, int], int]],
) -> None:
    """Each hexside of a feature of `styles` (feature, colour, width) drawn along the side."""
    styles = tuple(styles)
    for (a, b), features in sorted(sides.items()):
        for feature, colour, width in styles:
            if feature in features:
                draw.line(edge(hexes[a], hexes[b], r), fill=colour, width=width)


def hex_numbers(draw: ImageDraw.ImageDraw, hexes: dict[str, tuple[int, int]], dy: float) -> None:
    for label, (cx, cy) in hexes.items():
        draw_text(draw, int(cx - text_width(label, 2) / 2), int(cy - dy / 2 + 4), label, 2, NUMBERS)


def hex_name(
    draw: ImageDraw.ImageDraw, centre: tuple[int, int], name: str, width: int, colour: tuple[int, int, int]
) -> None:
    """A name centred under a hex, kept on a board `width` pixels wide."""
    cx, cy = centre
    left = max(2, min(width - text_width(name, 2) - 2, int(cx - text_width(name, 2) / 2)))
    draw_text(draw, left, int(cy + 14), name, 2, colour)


def legend(
    draw: ImageDraw.ImageDraw,
    corner: tuple[int, int],
    size: tuple[int, int],
    fill: tuple[int, int, int],
    map_name: str,
    keys: list[tuple[str, tuple[int, int, int], str]],
    step: int,
) -> None:
    """The key, and the warning that this terrain is invented (not the real `map_name` map). A key
    is (text, colour, kind), kind "line", "dash" or "box"; one every `step` pixels."""
    x, y = corner
    draw.rectangle([x, y, x + size[0], y + size[1]], fill=fill, outline=INK, width=2)
    for k, text in enumerate(("TERRAIN INVENTED FOR THE", "EXAMPLE: NOT THE REAL", f"{map_name} MAP")):
        draw_text(draw, x + 10, y + 8 + 14 * k, text, 2, WARNING)
    for k, (text, colour, kind) in enumerate(keys):
        ky = y + 56 + step * k
        if kind == "dash":
            dashed(draw, (x + 12, ky + 5), (x + 52, ky + 5), colour, 4)
        elif kind == "box":
            draw.rectangle([x + 12, ky, x + 52, ky + 10], fill=colour, outline=INK)
        else:
            draw.line([(x + 12, ky + 5), (x + 52, ky + 5)], fill=colour, width=5)
        draw_text(draw, x + 64, ky, text, 2, INK)


def _legend(draw: ImageDraw.ImageDraw, x: int, y: int) -> None:
    keys = [("ROAD", ROAD, "line"), ("TRAIL", TRAIL, "dash"), ("STREAM, BRIDGE", STREAM, "line")]
    legend(draw, (x, y), (262, 144), CLEAR, "KASSERINE", [*keys, ("ROUGH", ROUGH, "box"), ("TOWN", TOWN, "box")], 17)
    # the bridge across the stream's key (the third), clear of the other keys and texts
    ky = y + 56 + 17 * 2
    draw.line([(x + 30, ky - 1), (x + 30, ky + 11)], fill=BRIDGE, width=3)


def boxes_picture(size: tuple[int, int], boxes: Iterable[tuple[str, tuple[int, int, int, int]]]) -> bytes:
    """The holding boxes: one framed, titled rectangle per zone of the board."""
    image = Image.new("RGB", size, (214, 208, 192))
    draw = ImageDraw.Draw(image)
    for name, (x0, y0, x1, y1) in boxes:
        draw.rectangle([x0, y0, x1 - 1, y1 - 1], fill=(245, 240, 226), outline=INK, width=3)
        draw_text(draw, x0 + 12, y0 + 12, name, 4, INK)
    return png_bytes(image)


def counter_picture(strength: str, designation: str, colour: tuple[int, int, int]) -> bytes:
    """A 44x44 counter: the designation on top, a unit box, the strengths below."""
    image = Image.new("RGB", (44, 44), colour)
    draw = ImageDraw.Draw(image)
    draw.rectangle([0, 0, 43, 43], outline=INK)
    draw.rectangle([13, 13, 30, 25], outline=INK)
    draw_text(draw, 22 - text_width(designation, 1) // 2, 4, designation, 1, INK)
    draw_text(draw, 22 - text_width(strength, 1) // 2, 33, strength, 1, INK)
    return png_bytes(image)


def marker_picture(lines: list[str], colour: tuple[int, int, int]) -> bytes:
    """A 44x44 marker with a few short lines of text."""
    image = Image.new("RGB", (44, 44), colour)
    draw = ImageDraw.Draw(image)
    draw.rectangle([0, 0, 43, 43], outline=INK, width=2)
    top = 22 - (len(lines) * 9 - 4) // 2
    for k, text in enumerate(lines):
        draw_text(draw, 22 - text_width(text, 1) // 2, top + 9 * k, text, 1, INK)
    return png_bytes(image)


def badge_picture(lines: list[str], colour: tuple[int, int, int]) -> bytes:
    """A layer's picture: a 44-pixel-wide band of text over the counter's lower half."""
    height = 4 + 7 * len(lines)
    image = Image.new("RGB", (44, height), colour)
    draw = ImageDraw.Draw(image)
    draw.rectangle([0, 0, 43, height - 1], outline=INK)
    for k, text in enumerate(lines):
        draw_text(draw, 22 - text_width(text, 1) // 2, 2 + 7 * k, text, 1, INK)
    return png_bytes(image)
