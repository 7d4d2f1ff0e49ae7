"""Pictures for the Tunisia 1943 example module: the board (its INVENTED terrain, marked so on
the board itself). The holding boxes, counters and layers' badges are drawn as in the Kasserine
example (example_art.py), with its pixel font.
"""

from __future__ import annotations

from example_art import INK, NUMBERS, OUTLINE, dashed, draw_text, edge, hexagon, png_bytes, text_width
from PIL import Image, ImageDraw

# Terrain tints (pack.toml [terrain] types) and hexside colours (its features).
TINTS = {
    "clear": (236, 224, 190),
    "rough": (196, 170, 124),
    "mountain": (150, 118, 84),
    "marsh": (150, 190, 170),
    "city": (196, 200, 214),
    "impassable": (90, 90, 96),
}
ROAD, MAIN_ROAD, RIVER, WADI, CREST = (214, 130, 20), (200, 40, 30), (50, 110, 220), (120, 170, 230), (70, 40, 20)
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
    """The board: terrain tints, rivers, wadis, crests, roads, hex numbers, place names, legend.

    `terrain`: label -> its terrain type; `sides`: (label, label) -> hexside features;
    `places`: label -> the name printed under it.
    """
    image = Image.new("RGB", size, TINTS["clear"])
    draw = ImageDraw.Draw(image)
    for label, (cx, cy) in hexes.items():
        corners = hexagon(cx, cy, dx, dy)
        draw.polygon(corners, fill=TINTS[terrain[label]], outline=OUTLINE)
    r = dx * 2 / 3
    for (a, b), features in sorted(sides.items()):
        for feature, colour, width in (("river", RIVER, 5), ("wadi", WADI, 3), ("crest", CREST, 4)):
            if feature in features:
                draw.line(edge(hexes[a], hexes[b], r), fill=colour, width=width)
    for (a, b), features in sorted(sides.items()):
        if "main-road" in features:
            draw.line([hexes[a], hexes[b]], fill=MAIN_ROAD, width=5)
        elif "road" in features:
            dashed(draw, hexes[a], hexes[b], ROAD, 4)
    for label, (cx, cy) in hexes.items():
        draw_text(draw, int(cx - text_width(label, 2) / 2), int(cy - dy / 2 + 4), label, 2, NUMBERS)
    for label, name in sorted(places.items()):
        cx, cy = hexes[label]
        left = max(2, min(size[0] - text_width(name, 2) - 2, int(cx - text_width(name, 2) / 2)))
        draw_text(draw, left, int(cy + 14), name, 2, INK)
    _legend(draw, size[0] - 290, 6)
    return png_bytes(image)


def _legend(draw: ImageDraw.ImageDraw, x: int, y: int) -> None:
    """The key, and the warning that this terrain is invented."""
    draw.rectangle([x, y, x + 282, y + 236], fill=TINTS["clear"], outline=INK, width=2)
    for k, text in enumerate(("TERRAIN INVENTED FOR THE", "EXAMPLE: NOT THE REAL", "TUNISIA 1943 MAP")):
        draw_text(draw, x + 10, y + 8 + 14 * k, text, 2, WARNING)
    keys = [
        ("MAIN ROAD", MAIN_ROAD, "line"),
        ("ROAD", ROAD, "dash"),
        ("RIVER", RIVER, "line"),
        ("WADI", WADI, "line"),
        ("CREST", CREST, "line"),
        *((name.upper(), TINTS[name], "box") for name in ("rough", "mountain", "marsh", "city", "impassable")),
    ]
    for k, (text, colour, kind) in enumerate(keys):
        ky = y + 56 + 17 * k
        if kind == "dash":
            dashed(draw, (x + 12, ky + 5), (x + 52, ky + 5), colour, 4)
        elif kind == "box":
            draw.rectangle([x + 12, ky, x + 52, ky + 10], fill=colour, outline=INK)
        else:
            draw.line([(x + 12, ky + 5), (x + 52, ky + 5)], fill=colour, width=5)
        draw_text(draw, x + 64, ky, text, 2, INK)
