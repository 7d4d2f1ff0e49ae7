"""Pictures for the Tunisia 1943 example module: the board (its INVENTED terrain, marked so on
the board itself). The holding boxes, counters and layers' badges are drawn as in the Kasserine
example (example_art.py), with its pixel font.
"""

from __future__ import annotations

from example_art import INK, OUTLINE, dashed, hex_name, hex_numbers, hexagon, hexside_lines, legend, png_bytes
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
    hexside_lines(draw, hexes, sides, r, [("river", RIVER, 5), ("wadi", WADI, 3), ("crest", CREST, 4)])
    for (a, b), features in sorted(sides.items()):
        if "main-road" in features:
            draw.line([hexes[a], hexes[b]], fill=MAIN_ROAD, width=5)
        elif "road" in features:
            dashed(draw, hexes[a], hexes[b], ROAD, 4)
    hex_numbers(draw, hexes, dy)
    for label, name in sorted(places.items()):
        hex_name(draw, hexes[label], name, size[0], INK)
    _legend(draw, size[0] - 290, 6)
    return png_bytes(image)


def _legend(draw: ImageDraw.ImageDraw, x: int, y: int) -> None:
    lines = [("MAIN ROAD", MAIN_ROAD, "line"), ("ROAD", ROAD, "dash")]
    lines += [("RIVER", RIVER, "line"), ("WADI", WADI, "line"), ("CREST", CREST, "line")]
    boxes = [(name.upper(), TINTS[name], "box") for name in ("rough", "mountain", "marsh", "city", "impassable")]
    legend(draw, (x, y), (282, 236), TINTS["clear"], "TUNISIA 1943", [*lines, *boxes], 17)
