"""Pictures for the HTML report, drawn with Pillow on the module's own board images.

`map_canvas` lays the boards of a map out as VASSAL places them (reversed boards turned,
the edge buffer in the map's background colour), so map pixels of the save and of the hex
layouts are canvas pixels. `finding_picture` cuts the part around a finding's hexes and
outlines them; `overview_picture` draws every move of the turn as an arrow on the whole
map. Nothing here decides what is legal: the colours and hexes come from the caller.
"""

from __future__ import annotations

import io
import itertools
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from PIL import Image, ImageDraw, ImageFont

from vassal_adj import limits
from vassal_adj.errors import VassalAdjError
from vassal_adj.model.geometry.layout import HexLayout, hex_radii
from vassal_adj.model.geometry.maps import PlacedMap

__all__ = [
    "MOVE_COLOURS",
    "SEVERITY_COLOURS",
    "Arrow",
    "Label",
    "finding_picture",
    "hex_center",
    "map_canvas",
    "overview_picture",
    "png_bytes",
]

Rgb = tuple[int, int, int]
Point = tuple[float, float]

# Okabe-Ito based, readable on a busy board and for colour-blind readers.
SEVERITY_COLOURS: dict[str, Rgb] = {"error": (213, 0, 0), "warning": (230, 130, 0), "info": (0, 114, 178)}
# Moves are never red or blue: boards commonly draw roads red and streams blue.
MOVE_COLOURS: dict[bool | None, Rgb] = {True: (0, 150, 60), False: (200, 0, 150), None: (40, 40, 40)}
_BLANK: Rgb = (235, 235, 235)  # a board whose image the module lacks: VASSAL draws it blank


@dataclass(frozen=True)
class Arrow:
    """A move to draw: map pixels of origin and destination, the arrow's colour, and the
    points it passes between them (a path the rules found), if any."""

    start: Point
    end: Point
    colour: Rgb
    via: tuple[Point, ...] = ()


@dataclass(frozen=True)
class Label:
    """A unit name written next to a map pixel."""

    at: Point
    text: str


def _font(size: int) -> ImageFont.ImageFont | ImageFont.FreeTypeFont:
    try:
        return ImageFont.load_default(size=size)
    except TypeError:  # Pillow < 10.1 has only the fixed-size bitmap font
        return ImageFont.load_default()


def _rgb(text: str | None, default: Rgb) -> Rgb:
    """A VASSAL colour attribute ``"r,g,b"``; the default when absent or malformed."""
    try:
        r, g, b = (int(v) for v in (text or "").split(","))
    except ValueError:
        return default
    return (r, g, b)


def map_canvas(placed: PlacedMap, image: Callable[[str], bytes | None]) -> Image.Image:
    """The whole map as one RGB picture in map pixels: every board's image at its place.

    `image(name)` gives the bytes of ``images/<name>`` of the module, or None when missing.
    """
    edge_w, edge_h = placed.map.edge_width, placed.map.edge_height
    width = max((pb.x + pb.width for pb in placed.placed), default=1) + edge_w
    height = max((pb.y + pb.height for pb in placed.placed), default=1) + edge_h
    # Each board is bounded when the module is read; their sum and the map's edges are not.
    found = f"map {placed.map.name!r} with its boards and edges is {width:,} x {height:,} pixels"
    limits.PIXELS.check(width * height, found)
    background = _rgb(placed.map.attributes.get("backgroundcolor"), (255, 255, 255))
    canvas = Image.new("RGB", (max(1, width), max(1, height)), background)
    for pb in placed.placed:
        data = image(pb.board.image) if pb.board.image else None
        if data is None:
            canvas.paste(_BLANK, (pb.x, pb.y, pb.x + pb.width, pb.y + pb.height))
            continue
        with Image.open(io.BytesIO(data)) as img:
            board = img.convert("RGB")
        if pb.reversed:  # VASSAL turns a reversed board by 180 degrees
            board = board.transpose(Image.Transpose.ROTATE_180)
        canvas.paste(board, (pb.x, pb.y))
    return canvas


def hex_center(layout: HexLayout, label: str) -> Point | None:
    """The map pixel of a hex label, or None when the label is not a hex on the map."""
    try:
        return layout.center(label)
    except VassalAdjError:
        return None


def _corners(layout: HexLayout, c: Point, shrink: float = 1.0) -> list[Point]:
    apothem, radius = (v * shrink for v in hex_radii(layout))
    pts = [
        (radius, 0.0),
        (radius / 2, apothem),
        (-radius / 2, apothem),
        (-radius, 0.0),
        (-radius / 2, -apothem),
        (radius / 2, -apothem),
    ]
    if layout.grid.sideways:  # pointy-topped: the flat hexagon turned a quarter
        return [(c[0] + y, c[1] + x) for x, y in pts]
    return [(c[0] + x, c[1] + y) for x, y in pts]


def _arrow(draw: ImageDraw.ImageDraw, pts: Sequence[Point], colour: Rgb, width: int, head: float) -> None:
    """A polyline with an arrowhead at its last point, over a white casing to stand out."""
    if len(pts) < 2:
        return
    (x0, y0), (x1, y1) = pts[-2], pts[-1]
    d = math.hypot(x1 - x0, y1 - y0) or 1.0
    ux, uy = (x1 - x0) / d, (y1 - y0) / d
    back = (x1 - ux * head, y1 - uy * head)
    left = (back[0] - uy * head * 0.55, back[1] + ux * head * 0.55)
    right = (back[0] + uy * head * 0.55, back[1] - ux * head * 0.55)
    shaft = [*pts[:-1], back]
    draw.line(shaft, fill=(255, 255, 255), width=width + 4, joint="curve")
    draw.polygon([pts[-1], left, right], fill=(255, 255, 255), outline=(255, 255, 255), width=3)
    draw.line(shaft, fill=colour, width=width, joint="curve")
    draw.polygon([pts[-1], left, right], fill=colour)


def _text_box(
    draw: ImageDraw.ImageDraw,
    at: Point,
    text: str,
    font: ImageFont.ImageFont | ImageFont.FreeTypeFont,
    colour: Rgb,
    bounds: tuple[int, int],
) -> float:
    """Text on a white box whose top centre is `at`, kept inside the picture; its height."""
    left, top, right, bottom = draw.textbbox((0, 0), text, font=font)
    w, h = right - left + 8, bottom - top + 6
    x = min(max(0.0, at[0] - w / 2), bounds[0] - w)
    y = min(max(0.0, at[1]), bounds[1] - h)
    draw.rectangle([x, y, x + w, y + h], fill=(255, 255, 255), outline=colour, width=2)
    draw.text((x + 4 - left, y + 3 - top), text, fill=(0, 0, 0), font=font)
    return h + 1


def _is_path(layout: HexLayout, labels: Sequence[str]) -> bool:
    """Whether the labels are a walk of adjacent hexes: only then is a line through them a path.
    (A finding may list unrelated hexes, e.g. two overstacked hexes.)"""
    try:
        return len(labels) > 1 and all(b in layout.neighbors(a) for a, b in itertools.pairwise(labels))
    except VassalAdjError:
        return False


def finding_picture(
    canvas: Image.Image,
    layout: HexLayout,
    hexes: Sequence[str],
    colour: Rgb,
    labels: Sequence[Label] = (),
    *,
    width: int = 560,
) -> Image.Image | None:
    """The part of the map around `hexes`, enlarged or reduced to `width` pixels: the hexes
    outlined in `colour`, the path drawn through their centres when they are adjacent in
    order (a start dot, an arrowhead at the end), and each label written below its point,
    which is ringed when it is outside the outlined hexes.
    None when no hex of the finding is on this layout."""
    centres = [c for c in (hex_center(layout, h) for h in hexes) if c is not None]
    if not centres:
        return None
    apothem, radius = hex_radii(layout)
    # At least five hexes across, so the reader sees the terrain around the finding.
    span = max(radius * 5, apothem * 5)
    xs = [c[0] for c in centres] + [lab.at[0] for lab in labels]
    ys = [c[1] for c in centres] + [lab.at[1] for lab in labels]
    cx, cy = (min(xs) + max(xs)) / 2, (min(ys) + max(ys)) / 2
    half_w = max(span, (max(xs) - min(xs)) / 2 + radius * 2)
    half_h = max(span * 0.7, (max(ys) - min(ys)) / 2 + apothem * 2.5)
    box = (
        max(0, int(cx - half_w)),
        max(0, int(cy - half_h)),
        min(canvas.width, int(cx + half_w)),
        min(canvas.height, int(cy + half_h)),
    )
    scale = width / max(1, box[2] - box[0])
    size = (width, max(1, round((box[3] - box[1]) * scale)))
    out = canvas.crop(box).resize(size, Image.Resampling.LANCZOS)
    layer = Image.new("RGBA", out.size, (0, 0, 0, 0))
    draw = ImageDraw.Draw(layer)

    def local(p: Point) -> Point:
        return ((p[0] - box[0]) * scale, (p[1] - box[1]) * scale)

    line = max(3, round(apothem * scale / 9))
    for c in centres:
        corners = [local(p) for p in _corners(layout, c, 0.94)]
        draw.polygon(corners, fill=(*colour, 30))
        draw.line([*corners, corners[0]], fill=(*colour, 255), width=line, joint="curve")
    if _is_path(layout, hexes):
        pts = [local(c) for c in centres]
        r = line * 2.2
        draw.ellipse(
            [pts[0][0] - r, pts[0][1] - r, pts[0][0] + r, pts[0][1] + r],
            fill=(*colour, 255),
            outline=(255, 255, 255),
            width=2,
        )
        _arrow(draw, pts, colour, line * 2, head=apothem * scale * 0.5)
    for at in {lab.at for lab in labels}:
        if any(math.dist(at, c) < apothem for c in centres):
            continue  # its hex is outlined already; a ring would hide the counter's values
        x, y = local(at)  # a cited unit outside the finding's hexes (e.g. one exerting a zone of control)
        r = apothem * scale * 0.8
        draw.ellipse([x - r, y - r, x + r, y + r], outline=(255, 255, 255, 255), width=line + 4)
        draw.ellipse([x - r, y - r, x + r, y + r], outline=(*colour, 255), width=line)
    font = _font(max(14, round(apothem * scale / 3)))
    below: dict[Point, float] = {}  # units of one stack share a point: list their names downwards
    for lab in labels:
        x, y = local(lab.at)
        top = below.get(lab.at, y + apothem * scale * 0.55)
        below[lab.at] = top + _text_box(draw, (x, top), lab.text, font, colour, out.size)
    return Image.alpha_composite(out.convert("RGBA"), layer).convert("RGB")


def overview_picture(
    canvas: Image.Image,
    layout: HexLayout | None,
    arrows: Sequence[Arrow],
    marked: Sequence[tuple[str, Rgb]] = (),
    *,
    max_width: int = 1600,
) -> Image.Image:
    """The whole map, reduced to at most `max_width` pixels wide, with every arrow drawn and
    the `marked` hexes (label, colour) outlined. Arrows of zero length are drawn as dots."""
    scale = min(1.0, max_width / canvas.width)
    size = (max(1, round(canvas.width * scale)), max(1, round(canvas.height * scale)))
    out = canvas.resize(size, Image.Resampling.LANCZOS).convert("RGBA")
    layer = Image.new("RGBA", out.size, (0, 0, 0, 0))
    draw = ImageDraw.Draw(layer)
    unit = hex_radii(layout)[0] * scale if layout is not None else 12.0
    width = max(2, round(unit / 6))
    if layout is not None:
        for label, colour in marked:
            c = hex_center(layout, label)
            if c is not None:
                corners = [(x * scale, y * scale) for x, y in _corners(layout, c, 0.94)]
                draw.polygon(corners, fill=(*colour, 70))
                draw.line([*corners, corners[0]], fill=(*colour, 255), width=width + 1, joint="curve")
    for a in arrows:
        start = (a.start[0] * scale, a.start[1] * scale)
        end = (a.end[0] * scale, a.end[1] * scale)
        if math.hypot(end[0] - start[0], end[1] - start[1]) < 1:
            r = width * 1.5
            draw.ellipse([end[0] - r, end[1] - r, end[0] + r, end[1] + r], fill=(*a.colour, 255))
            continue
        r = width * 1.2
        draw.ellipse([start[0] - r, start[1] - r, start[0] + r, start[1] + r], fill=(*a.colour, 255))
        via = [(x * scale, y * scale) for x, y in a.via]
        _arrow(draw, [start, *via, end], a.colour, width, head=max(8.0, unit * 0.7))
    return Image.alpha_composite(out, layer).convert("RGB")


def png_bytes(picture: Image.Image) -> bytes:
    """PNG bytes of a picture. Not `optimize`d: that halves the speed of a page for 1-2% of its size."""
    buf = io.BytesIO()
    picture.save(buf, format="PNG")
    return buf.getvalue()
