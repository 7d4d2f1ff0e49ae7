"""The terrain painter: one self-contained HTML page to paint a pack's terrain file on the board picture.

`vassal-adj terrain edit` writes it. Everything the page needs is inside it: the board picture
as a ``data:`` URI, the scripts and style sheet inline (shipped beside this module: the map,
the view and the drawing in terrain_editor.js, the file it saves in terrain_editor_save.js, the
panel and the pointer in terrain_editor_ui.js, and terrain_editor.css), and the board's hex grid
as data. The grid is computed here, by the model's geometry (`HexLayout`): every hex's label and
centre pixel as VASSAL places them, the corner offsets of a hex, and the hexsides as pairs of
hexes. The script only looks those up (the hex under the pointer is the one with the nearest
centre), so it never re-derives VASSAL's numbering. "Save" writes the pack's terrain format (docs/terrain.md) from
the same labels.
"""

from __future__ import annotations

import base64
import html
import io
import json
import re
import warnings
from importlib import resources

from PIL import Image

from vassal_adj.errors import FormatError, Where
from vassal_adj.model.geometry import hexes as hx
from vassal_adj.model.geometry.hexes import Hex
from vassal_adj.model.geometry.layout import HexLayout, hex_radii
from vassal_adj.model.terrain import TerrainMap
from vassal_adj.report.terrain_preview import FEATURE_COLOURS, LOW, TINTS

__all__ = ["doubtful_sides", "editor_data", "editor_html", "low_confidence"]

# A hex line the terrain bootstrap marked: "hex,0312,rough  # low confidence 0.48: clear 0.41".
_LOW = re.compile(r"^\s*hex\s*,\s*([^,#\s]+)\s*,[^#]*#\s*(low confidence[^#]*?)\s*$", re.IGNORECASE)
_MIME = ((b"\x89PNG", "image/png"), (b"\xff\xd8", "image/jpeg"), (b"GIF8", "image/gif"))


def low_confidence(text: str) -> dict[str, str]:
    """Label -> the note of every hex line the terrain bootstrap marked 'low confidence'.

    The notes are comments, which the terrain reader ignores; the page highlights those hexes
    until the author paints them, and the file it saves keeps the notes of the others.
    """
    found: dict[str, str] = {}
    for line in text.removeprefix("\ufeff").splitlines():
        m = _LOW.match(line)
        if m:
            found[m.group(1)] = m.group(2)
    return found


# The hexsides it marked: a feature only just over its minimum ("hexside,0312/0413,road  # weak:
# road 0.12 (check)"), and one seen too little, written commented out ("# hexside,0507/0508,stream
# # maybe: share 0.06 (min 0.10)").
_WEAK = re.compile(r"^\s*hexside\s*,\s*([^,#\s]+/[^,#\s]+)\s*,[^#]*#\s*(weak:[^#]*?)\s*$", re.IGNORECASE)
_MAYBE = re.compile(
    r"^\s*#\s*hexside\s*,\s*([^,#\s]+/[^,#\s]+)\s*,\s*([^,#\s]+)\s*#\s*(maybe:[^#]*?)\s*$", re.IGNORECASE
)


def doubtful_sides(text: str) -> list[tuple[str, str, str | None]]:
    """(hexside as written, note, the feature suggested or None) of every hexside the bootstrap
    marked: `weak` features it wrote, and `maybe` features it left commented out.

    The page rings them until the author sets or clears a feature there; the file it saves
    keeps the marks of the others, so the suggestions are not lost.
    """
    found: list[tuple[str, str, str | None]] = []
    for line in text.removeprefix("\ufeff").splitlines():
        if m := _WEAK.match(line):
            found.append((m.group(1), m.group(2), None))
        elif m := _MAYBE.match(line):
            found.append((m.group(1), m.group(3), m.group(2)))
    return found


def _corner_offsets(layout: HexLayout) -> list[list[float]]:
    """The six corners of a hex relative to its centre: VASSAL's dy is two apothems, dx 1.5 radii."""
    apothem, radius = hex_radii(layout)
    pts = [
        (radius, 0.0),
        (radius / 2, apothem),
        (-radius / 2, apothem),
        (-radius, 0.0),
        (-radius / 2, -apothem),
        (radius / 2, -apothem),
    ]
    return [[round(y, 3), round(x, 3)] if layout.grid.sideways else [round(x, 3), round(y, 3)] for x, y in pts]


def _css(rgb: tuple[int, int, int]) -> str:
    return "#" + "".join(f"{v:02x}" for v in rgb)


def _writable(label: str) -> bool:
    return bool(label) and "/" not in label and not any(ch.isspace() for ch in label)


def editor_data(
    layout: HexLayout,
    terrain: TerrainMap,
    *,
    low: dict[str, str] | None = None,
    doubts: list[tuple[str, str, str | None]] | None = None,
    source: dict[str, str] | None = None,
) -> dict[str, object]:
    """The page's data: the labelled hexes of `layout`, its hexsides, and what `terrain` puts on them.

    Raises ValueError when a label could not be written in a terrain file, or when `terrain`
    names a hex that is not a labelled hex of this board (the reader resolves labels on the
    same layout, so that means the map was read on another board).
    """
    hexes = [h for h in layout.hexes() if layout.label_of(h) is not None]
    labels = [layout.label_of(h) or "" for h in hexes]
    if bad := [lab for lab in labels if not _writable(lab)]:
        raise ValueError(f"label {bad[0]!r} cannot be written in a terrain file (space or '/')")
    index = {h: i for i, h in enumerate(hexes)}
    number = {lab: i for i, lab in enumerate(labels)}

    def at(h: Hex, what: str) -> int:
        if h not in index:
            raise ValueError(f"{what} names hex {layout.label_of(h) or h} that is not a labelled hex of {layout.where}")
        return index[h]

    sides: list[list[int]] = []
    side_index: dict[hx.HexSide, int] = {}
    for i, h in enumerate(hexes):
        for n in hx.neighbors(h):
            j = index.get(n)
            if j is not None and i < j:
                side_index[hx.hexside(h, n)] = len(sides)
                sides.append([i, j])
    features = []
    for side, names in terrain.side_features.items():
        a, b = at(side.a, "a hexside"), at(side.b, "a hexside")
        features.append([side_index[hx.hexside(hexes[a], hexes[b])], sorted(names)])
    voc = terrain.vocabulary
    centres = [layout.center(h) for h in hexes]
    width, height = layout.board.width, layout.board.height
    return {
        "source": source or {},
        "size": [width, height],
        "corners": _corner_offsets(layout),
        "hexes": [[lab, x, y] for lab, (x, y) in zip(labels, centres, strict=True)],
        "sides": sides,
        "vocabulary": {
            "terrain": sorted(voc.terrain),
            "features": sorted(voc.features),
            "place_kinds": sorted(voc.place_kinds),
        },
        "terrain": [[at(h, "a hex line"), sorted(ts)] for h, ts in terrain.hex_terrain.items()],
        "features": sorted(features),
        "places": [
            {"name": p.name, "kinds": sorted(p.kinds), "hexes": [at(h, f"place {p.name!r}") for h in p.hexes]}
            for p in terrain.named_places
        ],
        "offmap": sorted(at(h, "an offmap line") for h in terrain.off_map),
        "low": {str(number[lab]): note for lab, note in (low or {}).items() if lab in number},
        "doubts": _doubts(doubts or [], number, hexes, side_index),
        "colours": {
            "tints": [_css(c) for c in TINTS],
            "features": [_css(c) for c in FEATURE_COLOURS],
            "low": _css(LOW),
        },
    }


def _doubts(
    doubts: list[tuple[str, str, str | None]],
    number: dict[str, int],
    hexes: list[Hex],
    side_index: dict[hx.HexSide, int],
) -> list[list[object]]:
    """[side index, note, suggested feature or None] of each doubtful hexside written "A/B" with
    two adjacent labels of the board. They come from comments, which the reader skips, so a
    comment naming no hexside of the board is skipped too."""
    out: list[list[object]] = []
    for spec, note, feature in doubts:
        a, b = (number.get(lab) for lab in spec.split("/", 1))
        if a is not None and b is not None and hx.distance(hexes[a], hexes[b]) == 1:
            out.append([side_index[hx.hexside(hexes[a], hexes[b])], note, feature])
    return out


def _image_uri(data: bytes, where: str) -> str:
    """A data: URI of the board picture: its own bytes when a browser reads the format, else a PNG."""
    mime = next((m for magic, m in _MIME if data.startswith(magic)), None)
    if mime is None and b"<svg" in data[:4096]:
        mime = "image/svg+xml"
    if mime is None:
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")  # DecompressionBombWarning: corpus boards are large
                with Image.open(io.BytesIO(data)) as img:
                    out = io.BytesIO()
                    img.convert("RGBA").save(out, format="PNG", compress_level=1)
        except Exception as e:  # noqa: BLE001  (Pillow raises many types for unreadable data)
            raise FormatError(f"cannot read the board picture: {e}", Where(path=where)) from None
        data, mime = out.getvalue(), "image/png"
    return f"data:{mime};base64," + base64.b64encode(data).decode("ascii")


def _asset(name: str) -> str:
    return resources.files("vassal_adj.report").joinpath(name).read_text(encoding="utf-8")


def _script_safe(text: str) -> str:
    """Text for inside a <script> element: no '</' that would end it early."""
    return text.replace("</", "<\\/")


def editor_html(data: dict[str, object], image: bytes | None, title: str, image_where: str = "board picture") -> str:
    """The whole page: `editor_data`'s data, the picture (None: a plain board), script and style inline.

    FormatError naming `image_where` when the picture is in no format a browser or Pillow reads.
    """
    payload = _script_safe(json.dumps(data, separators=(",", ":")))
    picture = _image_uri(image, image_where) if image is not None else ""
    return f"""<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>{html.escape(title)}</title>
<style>
{_asset("terrain_editor.css")}</style>
</head>
<body>
<aside id="panel">
<h1>{html.escape(title)}</h1>
<div id="tools"></div>
</aside>
<main id="view"><canvas id="board"></canvas><div id="status" role="status"></div></main>
<img id="picture" alt="" hidden src="{picture}">
<script type="application/json" id="editor-data">{payload}</script>
<script>
{_asset("terrain_editor.js")}</script>
<script>
{_asset("terrain_editor_save.js")}</script>
<script>
{_asset("terrain_editor_ui.js")}</script>
</body>
</html>
"""
