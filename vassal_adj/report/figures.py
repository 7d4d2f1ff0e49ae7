"""The map pictures of an HTML report: the board with the pieces drawn as VASSAL draws them,
cut around each finding, and the whole map with the moves; each picture encoded once.

A picture used more than once on a page (findings at the same hexes at the same moment, as a
long log gives many) is stored once, in an SVG ``<image>`` the places that show it ``<use>``,
so the page does not carry the same bytes twice.
"""

from __future__ import annotations

import base64
import html
import re
from collections.abc import Callable, Collection, Iterable, Sequence

from PIL import Image

from vassal_adj.codec.archive import read_archive
from vassal_adj.model.geometry.layout import HexLayout
from vassal_adj.model.module import Module
from vassal_adj.model.pieces import Piece
from vassal_adj.position import GamePosition, main_layout
from vassal_adj.report.counters import Counters, counter_looks
from vassal_adj.report.pictures import (
    Arrow,
    Label,
    Rgb,
    finding_picture,
    hex_center,
    map_canvas,
    overview_picture,
    png_bytes,
)
from vassal_adj.savedgame import SavedGame

__all__ = ["Figures"]

_TOKEN = "\x00picture {}\x00"
_PLACE = re.compile("\x00picture (\\d+)\x00")


class Figures:
    """The board of the map the game is played on and the pieces' looks, read once; `None`
    pictures when the map has no numbered hex grid or no module file is given. The map is the
    one `position` plays on (the pack's ``[state] map``, position.py), placed once for it;
    without a position (no pack), the first map with a numbered hex grid."""

    def __init__(
        self,
        module: Module,
        game: SavedGame,
        module_path: str | None,
        roots: Iterable[SavedGame] = (),
        masked: Collection[str] = (),
        position: GamePosition | None = None,
    ) -> None:
        found = position.main if position is not None else main_layout(module, game)
        self.masked = frozenset(masked)  # pieces the reader may not see: drawn as their Mask shows them
        self.layout: HexLayout | None = None
        self.canvas: Image.Image | None = None
        self.map_names: tuple[str, str] = ("", "")
        self.pictures: list[tuple[str, int, int, str]] = []  # (data URI, width, height, alt)
        self.uses: list[int] = []
        self.keys: dict[object, int] = {}
        self.boards: dict[tuple[tuple[str, int, int, tuple[tuple[str, str], ...]], ...], Image.Image] = {}
        if found is None or module_path is None:
            return
        placed, self.layout = found
        self.map_names = (placed.map.name, placed.map.id)
        read = self._image_reader(module_path)
        self.canvas = map_canvas(placed, read)
        looks = {}
        for g in (*roots, game):
            looks.update(counter_looks(g.root, module))
        self.counters = Counters(looks, read)

    @staticmethod
    def _image_reader(module_path: str) -> Callable[[str], bytes | None]:
        """The module's images by name, the archive read once (a counter per piece reads many).
        A missing image is None: VASSAL draws a board without it blank, a piece without it."""
        entries = read_archive(module_path).entries
        return lambda name: entries.get("images/" + name)

    def on_map(self, pieces: Iterable[Piece]) -> list[Piece]:
        return [p for p in pieces if p.map in self.map_names]

    def board(self, pieces: Sequence[Piece]) -> Image.Image:
        """The map with `pieces` drawn on it (those on this map), computed once per position."""
        assert self.canvas is not None
        shown = self.on_map(pieces)
        key = tuple((p.id, p.x, p.y, tuple(sorted(p.properties.items()))) for p in shown)
        if key not in self.boards:
            self.boards[key] = self.counters.draw(self.canvas, shown, self.masked)
        return self.boards[key]

    def crop(
        self,
        pieces: Sequence[Piece],
        hexes: Sequence[str],
        colour: Rgb,
        units: Sequence[str],
        names: Callable[[Piece], str],
        alt: str,
        width: int = 560,
    ) -> str | None:
        """A finding's picture on the position `pieces`: its hexes outlined, its units named
        and ringed; None when no hex of it is on the map."""
        assert self.layout is not None
        at = {p.id: p for p in self.on_map(pieces)}
        cited = [at[u] for u in units if u in at]
        key = ("crop", id(self.board(pieces)), tuple(hexes), colour, width, tuple((p.id, p.x, p.y) for p in cited))
        if key in self.keys:
            return self.use(self.keys[key])
        labels = [Label((p.x, p.y), names(p)) for p in cited]
        pic = finding_picture(self.board(pieces), self.layout, hexes, colour, labels, width=width)
        if pic is None:
            return None
        return self.use(self.add(key, pic, alt))

    def overview(
        self, pieces: Sequence[Piece], arrows: Sequence[Arrow], marked: Sequence[tuple[str, Rgb]], alt: str
    ) -> str:
        assert self.layout is not None
        return self.use(self.add(("overview",), overview_picture(self.board(pieces), self.layout, arrows, marked), alt))

    def centre(self, label: str | None) -> tuple[float, float] | None:
        return hex_center(self.layout, label) if self.layout is not None and label else None

    def add(self, key: object, picture: Image.Image, alt: str) -> int:
        uri = "data:image/png;base64," + base64.b64encode(png_bytes(picture)).decode("ascii")
        self.pictures.append((uri, picture.width, picture.height, alt))
        self.uses.append(0)
        self.keys[key] = len(self.pictures) - 1
        return len(self.pictures) - 1

    def use(self, n: int) -> str:
        """A place for picture `n` in the page; `render` fills it in."""
        self.uses[n] += 1
        return _TOKEN.format(n)

    def render(self, page: str) -> str:
        """`page` with every picture place filled: an ``<img>`` for a picture used once, a
        ``<use>`` of one stored copy for a picture used more often."""
        shared = [n for n, k in enumerate(self.uses) if k > 1]

        def tag(m: re.Match[str]) -> str:
            n = int(m.group(1))
            uri, w, h, alt = self.pictures[n]
            if self.uses[n] > 1:
                return (
                    f'<svg class="pic" viewBox="0 0 {w} {h}" width="{w}" role="img" '
                    f'aria-label="{html.escape(alt)}"><use href="#picture-{n}"/></svg>'
                )
            return f'<img src="{uri}" width="{w}" height="{h}" alt="{html.escape(alt)}">'

        page = _PLACE.sub(tag, page)
        if shared:
            store = "".join(
                f'<image id="picture-{n}" width="{self.pictures[n][1]}" height="{self.pictures[n][2]}" '
                f'href="{self.pictures[n][0]}"/>'
                for n in shared
            )
            page = page.replace(
                "<body>", f'<body><svg width="0" height="0" style="position:absolute"><defs>{store}</defs></svg>', 1
            )
        return page
