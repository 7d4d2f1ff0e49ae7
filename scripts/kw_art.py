"""Pictures for the Kesselring's War example module: the board (its INVENTED terrain, marked so on
the board itself), the displays, the Reduced layer's band. Counters and markers are drawn as in
the other examples (example_art.py), with its pixel font.
"""

from __future__ import annotations

from collections.abc import Iterable

from example_art import INK, NUMBERS, OUTLINE, dashed, draw_text, edge, hexagon, png_bytes, text_width
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
WARNING = (150, 20, 20)


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
    for (a, b), features in sorted(sides.items()):
        for feature, colour, width in (("river", RIVER, 5), ("strait", STRAIT, 6), ("all-sea", ALL_SEA, 6)):
            if feature in features:
                draw.line(edge(hexes[a], hexes[b], r), fill=colour, width=width)
    for (a, b), features in sorted(sides.items()):
        if "road" in features:
            dashed(draw, hexes[a], hexes[b], ROAD, 4)
    for label, (cx, cy) in hexes.items():
        draw_text(draw, int(cx - text_width(label, 2) / 2), int(cy - dy / 2 + 4), label, 2, NUMBERS)
    for label, name in sorted(places.items()):
        cx, cy = hexes[label]
        left = max(2, min(size[0] - text_width(name, 2) - 2, int(cx - text_width(name, 2) / 2)))
        draw_text(draw, left, int(cy + 14), name, 2, INK)
    _legend(draw, size[0] - 300, 1560)  # over the sea south-east of Foggia
    return png_bytes(image)


def _legend(draw: ImageDraw.ImageDraw, x: int, y: int) -> None:
    """The key, and the warning that this terrain is invented."""
    draw.rectangle([x, y, x + 292, y + 222], fill=TINTS["clear"], outline=INK, width=2)
    for k, text in enumerate(("TERRAIN INVENTED FOR THE", "EXAMPLE: NOT THE REAL", "KESSELRINGS WAR MAP")):
        draw_text(draw, x + 10, y + 8 + 14 * k, text, 2, WARNING)
    keys = [
        ("ROAD", ROAD, "dash"),
        ("RIVER", RIVER, "line"),
        ("STRAIT", STRAIT, "line"),
        ("ALL-SEA HEXSIDE", ALL_SEA, "line"),
        *((name.upper(), TINTS[name], "box") for name in ("rough", "mountain", "volcano", "city")),
    ]
    for k, (text, colour, kind) in enumerate(keys):
        ky = y + 56 + 19 * k
        if kind == "dash":
            dashed(draw, (x + 12, ky + 5), (x + 52, ky + 5), colour, 4)
        elif kind == "box":
            draw.rectangle([x + 12, ky, x + 52, ky + 10], fill=colour, outline=INK)
        else:
            draw.line([(x + 12, ky + 5), (x + 52, ky + 5)], fill=colour, width=5)
        draw_text(draw, x + 64, ky, text, 2, INK)


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
