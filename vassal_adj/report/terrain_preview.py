"""The terrain bootstrap's preview: the board picture with what the sampling decided drawn on it.

Hexes are tinted by terrain type, hexside features are drawn as coloured bars (across the
side for a road that runs hex to hex, along it for a river that follows it), and hexes
whose confidence is below the palette's minimum get a thick magenta outline and an X, so
the author finds them at a glance. When the sampling was compared with a reference terrain
(`--compare`), the hexes whose terrain differs get a cyan outline and the hexsides whose
features differ a cyan ring at their midpoint. The tints are a fixed colour-blind-safe set (Okabe-Ito),
not the palette's own colours: a hex tinted with its own colour would look unchanged.
"""

from __future__ import annotations

import io
import math

from PIL import Image, ImageDraw, ImageFont

from vassal_adj.model.geometry.layout import hex_radii
from vassal_adj.terrain_sample import Sampling

__all__ = ["preview_png"]

TINTS = [
    (230, 159, 0),
    (86, 180, 233),
    (0, 158, 115),
    (240, 228, 66),
    (0, 114, 178),
    (213, 94, 0),
    (204, 121, 167),
    (120, 120, 120),
]
FEATURE_COLOURS = [(200, 0, 0), (0, 60, 220), (130, 0, 170), (0, 0, 0), (0, 140, 60), (255, 120, 0)]
LOW = (255, 0, 255)
DIFFERS = (0, 230, 230)  # cyan: in none of the sets above
TINT_ALPHA = 90


def _corners(cx: float, cy: float, apothem: float, radius: float, sideways: bool) -> list[tuple[float, float]]:
    pts = [
        (radius, 0.0),
        (radius / 2, apothem),
        (-radius / 2, apothem),
        (-radius, 0.0),
        (-radius / 2, -apothem),
        (radius / 2, -apothem),
    ]
    return [(cx + y, cy + x) if sideways else (cx + x, cy + y) for x, y in pts]


def _font(size: int) -> ImageFont.ImageFont | ImageFont.FreeTypeFont:
    try:
        return ImageFont.load_default(size=size)
    except TypeError:  # Pillow < 10.1 has only the fixed-size bitmap font
        return ImageFont.load_default()


def _legend(draw: ImageDraw.ImageDraw, s: Sampling, scale: int) -> None:
    rows: list[tuple[str, tuple[int, int, int], str]] = []
    rows += [(c.name, TINTS[i % len(TINTS)], "tint") for i, c in enumerate(s.palette.terrain)]
    rows += [(f.name, FEATURE_COLOURS[i % len(FEATURE_COLOURS)], "bar") for i, f in enumerate(s.palette.features)]
    rows.append((f"confidence < {s.palette.min_confidence:.2f}", LOW, "x"))
    if s.accuracy is not None:
        rows.append(("differs from the reference", DIFFERS, "ring"))
    font = _font(12 * scale)
    line = 16 * scale
    width = max(int(draw.textlength(name, font=font)) for name, _, _ in rows) + 30 * scale
    draw.rectangle([4, 4, 12 + width, 10 + line * len(rows)], fill=(255, 255, 255, 220), outline=(0, 0, 0, 255))
    for i, (name, colour, how) in enumerate(rows):
        y = 8 + i * line
        box = [10, y + 2 * scale, 10 + 14 * scale, y + 12 * scale]
        if how == "tint":
            draw.rectangle(box, fill=(*colour, 200), outline=(0, 0, 0, 255))
        elif how == "ring":
            draw.ellipse(box, outline=(*colour, 255), width=2 * scale)
        elif how == "bar":
            draw.line(
                [box[0], (box[1] + box[3]) // 2, box[2], (box[1] + box[3]) // 2], fill=(*colour, 255), width=3 * scale
            )
        else:
            draw.line([box[0], box[1], box[2], box[3]], fill=(*colour, 255), width=2 * scale)
            draw.line([box[0], box[3], box[2], box[1]], fill=(*colour, 255), width=2 * scale)
        draw.text((16 + 14 * scale, y), name, fill=(0, 0, 0, 255), font=font)


def _differences(draw: ImageDraw.ImageDraw, s: Sampling, apothem: float, radius: float, bar: int) -> None:
    """Cyan where the sampling and the reference terrain disagree: hex outlines, rings on hexsides."""
    assert s.accuracy is not None
    lay = s.layout
    for h in s.accuracy.wrong_hexes:
        corners = _corners(*lay.center(h), apothem * 0.8, radius * 0.8, lay.grid.sideways)
        draw.line([*corners, corners[0]], fill=(*DIFFERS, 255), width=bar, joint="curve")
    r = apothem * 0.3
    for side in s.accuracy.wrong_sides:
        (ax, ay), (bx, by) = lay.center(side.a), lay.center(side.b)
        mx, my = (ax + bx) / 2, (ay + by) / 2
        draw.ellipse([mx - r, my - r, mx + r, my + r], outline=(*DIFFERS, 255), width=bar)


def preview_png(s: Sampling) -> bytes:
    """PNG bytes of the board picture sampled (same size) with the sampling drawn over it."""
    base = Image.fromarray(s.image).convert("RGBA")
    layer = Image.new("RGBA", base.size, (0, 0, 0, 0))
    draw = ImageDraw.Draw(layer)
    lay = s.layout
    apothem, radius = hex_radii(lay)
    tint = {c.name: TINTS[i % len(TINTS)] for i, c in enumerate(s.palette.terrain)}
    low = set(s.low())
    for h, g in s.hexes.items():
        cx, cy = lay.center(h)
        corners = _corners(cx, cy, apothem, radius, lay.grid.sideways)
        draw.polygon(corners, fill=(*tint[g.terrain], TINT_ALPHA), outline=(0, 0, 0, 90))
    bar = max(3, round(apothem / 10))
    colour = {f.name: FEATURE_COLOURS[i % len(FEATURE_COLOURS)] for i, f in enumerate(s.palette.features)}
    kind = {f.name: f.kind for f in s.palette.features}
    for side, names in s.terrain.side_features.items():
        (ax, ay), (bx, by) = lay.center(side.a), lay.center(side.b)
        mx, my, dx, dy = (ax + bx) / 2, (ay + by) / 2, bx - ax, by - ay
        for k, name in enumerate(sorted(names)):
            shift = (k - (len(names) - 1) / 2) * bar * 1.5  # several features side by side
            n = math.hypot(dx, dy) or 1.0
            ux, uy = -dy / n, dx / n  # along the side
            if kind[name] == "edge":
                half = radius * 0.4
                ox, oy = mx + shift * dx / n, my + shift * dy / n
                pts = [(ox - ux * half, oy - uy * half), (ox + ux * half, oy + uy * half)]
            else:
                ox, oy = mx + ux * shift, my + uy * shift
                pts = [(ox - dx * 0.22, oy - dy * 0.22), (ox + dx * 0.22, oy + dy * 0.22)]
            draw.line(pts, fill=(*colour[name], 255), width=bar)
    for h in low:
        cx, cy = lay.center(h)
        corners = _corners(cx, cy, apothem * 0.92, radius * 0.92, lay.grid.sideways)
        draw.line([*corners, corners[0]], fill=(*LOW, 255), width=bar, joint="curve")
        r = apothem * 0.35
        draw.line([(cx - r, cy - r), (cx + r, cy + r)], fill=(*LOW, 255), width=bar)
        draw.line([(cx - r, cy + r), (cx + r, cy - r)], fill=(*LOW, 255), width=bar)
    if s.accuracy is not None:
        _differences(draw, s, apothem, radius, bar)
    _legend(draw, s, max(1, round(min(base.size) / 800)))
    out = io.BytesIO()
    # The fastest zlib level: a board-sized PNG at the default level takes seconds to write.
    Image.alpha_composite(base, layer).convert("RGB").save(out, format="PNG", compress_level=1)
    return out.getvalue()
