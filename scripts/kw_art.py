"""Pictures for the Kesselring's War example module: the board (its INVENTED terrain, marked so on
the board itself), the displays, the Reduced layer's band. Counters and markers are drawn as in
the other examples (example_art.py), with its pixel font.
"""

from __future__ import annotations

from collections.abc import Iterable

from example_art import (
    INK,
    OUTLINE,
    dashed,
    draw_text,
    hex_name,
    hex_numbers,
    hexagon,
    hexside_lines,
    legend,
    png_bytes,
)
from PIL import Image, ImageDraw

# Terrain tints (pack.toml [terrain] types) and hexside colours (its features).
TINTS = {
    "clear": (236, 224, 190),
    "rough": (196, 170, 124),
    "mountain": (150, 118, 84),
    "volcano": (120, 60, 50),
    "city": (196, 200, 214),
    "sea": (150, 190, 225),
}
ROAD, RIVER, STRAIT, ALL_SEA = (214, 130, 20), (50, 110, 220), (20, 60, 160), (30, 30, 90)


def board_picture(
    size: tuple[int, int],
    hexes: dict[str, tuple[int, int]],
    terrain: dict[str, str],
    sides: dict[tuple[str, str], set[str]],
    places: dict[str, str],
    dx: float,
    dy: float,
) -> bytes:
    """The board: terrain tints, hexside features, roads, hex numbers, place names, legend.

    `terrain`: label -> its terrain type; `sides`: (label, label) -> hexside features;
    `places`: label -> the name printed under it.
    """
    image = Image.new("RGB", size, TINTS["sea"])
    draw = ImageDraw.Draw(image)
    for label, (cx, cy) in hexes.items():
        draw.polygon(hexagon(cx, cy, dx, dy), fill=TINTS[terrain[label]], outline=OUTLINE)
    r = dx * 2 / 3
    hexside_lines(draw, hexes, sides, r, [("river", RIVER, 5), ("strait", STRAIT, 6), ("all-sea", ALL_SEA, 6)])
    for (a, b), features in sorted(sides.items()):
        if "road" in features:
            dashed(draw, hexes[a], hexes[b], ROAD, 4)
    hex_numbers(draw, hexes, dy)
    for label, name in sorted(places.items()):
        hex_name(draw, hexes[label], name, size[0], INK)
    _legend(draw, size[0] - 300, 1560)  # over the sea south-east of Foggia
    return png_bytes(image)


def _legend(draw: ImageDraw.ImageDraw, x: int, y: int) -> None:
    keys = [
        ("ROAD", ROAD, "dash"),
        ("RIVER", RIVER, "line"),
        ("STRAIT", STRAIT, "line"),
        ("ALL-SEA HEXSIDE", ALL_SEA, "line"),
    ]
    boxes = [(name.upper(), TINTS[name], "box") for name in ("rough", "mountain", "volcano", "city")]
    legend(draw, (x, y), (292, 222), TINTS["clear"], "KESSELRINGS WAR", [*keys, *boxes], 19)


def displays_picture(size: tuple[int, int], boxes: Iterable[tuple[str, tuple[int, int, int, int]]]) -> bytes:
    """The displays: one framed, titled rectangle per zone; an AP box shows its number only."""
    image = Image.new("RGB", size, (214, 208, 192))
    draw = ImageDraw.Draw(image)
    for name, (x0, y0, x1, y1) in boxes:
        draw.rectangle([x0, y0, x1 - 1, y1 - 1], fill=(245, 240, 226), outline=INK, width=3)
        side, rest = name.split(" ", 1)
        if rest.startswith("AP "):
            draw_text(draw, x0 + 8, y0 + 8, side[:2], 2, INK)
            draw_text(draw, x0 + 8, y0 + 22, rest[3:], 3, INK)
        else:
            draw_text(draw, x0 + 10, y0 + 10, name, 3 if x1 - x0 > 300 else 2, INK)
    return png_bytes(image)
