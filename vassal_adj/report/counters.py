"""Pieces drawn on a map picture with the module's own images, as VASSAL composes them.

VASSAL draws a piece from the inside out (VASSAL-FORMATS.md 6.3, 6.6): the BasicPiece image
centred on the piece's position, then each active Layer (``emb2;``) over it, innermost first,
its current level's image centred on the position moved by the layer's x/y offset and scaled
by its scale. A piece without any image draws nothing. Pieces at one spot are one stack,
drawn bottom first, each a little up and to the right of the one below (VASSAL's default
stack metrics for a stack that is not expanded).

`counter_looks` reads, once per file, every piece's look from its AddPiece (the opening's and
those a log's steps add); the level a layer shows is taken from the position's own piece
(`Piece.properties`, ``<layer>_Level``, which a replay keeps up to date), so a counter flipped
during a log is drawn flipped at the end. A piece drawn as masked (`Counters.draw`'s `masked`:
a player who may not see it) shows only its Mask's image (spec 6.9: the mask image, or the
image a ``G`` display style names), or nothing when the Mask has none, never its own images.
"""

from __future__ import annotations

import io
import re
from collections.abc import Callable, Collection, Iterable, Mapping
from dataclasses import dataclass

from PIL import Image

from vassal_adj.errors import VassalAdjError
from vassal_adj.model.module import Module
from vassal_adj.model.pieces import Piece
from vassal_adj.parse.commands import Node, iter_texts
from vassal_adj.parse.tokens import split
from vassal_adj.parse.traits import Embellishment, Obscurable, PieceDef, expand_prototypes, parse_add_piece_text

__all__ = ["CounterLook", "Counters", "counter_looks"]

# VASSAL's StackMetrics defaults for a stack that is not expanded: each piece 2 pixels right
# of and 4 pixels above the one below it.
STACK_STEP = (2, -4)
_ADD = re.compile(r"\+/(?![^/]*[^/\\]/stack/)").match  # an AddPiece that is not a stack


@dataclass(frozen=True)
class _Layer:
    """One Layer trait: its level images, offset and scale (spec 6.6 fields 14-16, 31) and
    the level the piece was added with (`value`, signed: > 0 active)."""

    name: str
    images: tuple[str, ...]
    dx: int
    dy: int
    scale: float
    value: int
    always_active: bool


@dataclass(frozen=True)
class CounterLook:
    """What a piece is drawn from: its BasicPiece image and its layers, innermost first, and
    the image its Mask shows to a player who may not see it ("" when none)."""

    image: str
    layers: tuple[_Layer, ...]
    mask: str = ""

    def images(self, properties: Mapping[str, str], masked: bool = False) -> list[tuple[str, int, int, float]]:
        """(image name, x offset, y offset, scale) to draw, bottom first, for a piece whose
        layers stand at the levels `properties` give (``<layer>_Level``, else as added)."""
        if masked:
            return [(self.mask, 0, 0, 1.0)] if self.mask else []
        out = [(self.image, 0, 0, 1.0)] if self.image else []
        for layer in self.layers:
            value = _int(properties.get(layer.name + "_Level"), layer.value) if layer.name else layer.value
            level = abs(value) if value else (1 if layer.always_active else 0)
            if (value > 0 or layer.always_active) and 0 < level <= len(layer.images) and layer.images[level - 1]:
                out.append((layer.images[level - 1], layer.dx, layer.dy, layer.scale))
        return out


def _int(text: str | None, default: int) -> int:
    try:
        return int(text or "")
    except ValueError:
        return default


def _float(text: str, default: float) -> float:
    try:
        return float(text) if text else default
    except ValueError:
        return default


def _layer(t: Embellishment) -> _Layer:
    f = split(t.type, ";") + [""] * 32  # f[i] is spec field i
    scale = _float(f[31], 1.0)
    return _Layer(
        t.name, t.image_names, _int(f[14], 0), _int(f[15], 0), scale if scale > 0 else 1.0, t.value, t.always_active
    )


def _look(piece: PieceDef) -> CounterLook | None:
    basic = piece.basic
    if basic is None:
        return None
    layers = tuple(_layer(t) for t in reversed(piece.traits) if isinstance(t, Embellishment))
    mask = next((t for t in piece.traits if isinstance(t, Obscurable)), None)
    return CounterLook(basic.image, layers, _mask_image(mask) if mask is not None else "")


def _mask_image(t: Obscurable) -> str:
    if t.display_style.startswith("G") and len(t.display_style) > 1:
        return t.display_style[1:]
    return (split(t.type, ";") + ["", ""])[2]


def counter_looks(root: Node, module: Module | None) -> dict[str, CounterLook]:
    """Piece id -> look, for every piece the file adds (its saved position and a log's steps).
    A piece added twice (removed and added back) keeps its last look."""
    prototypes = {name: p.text for name, p in module.prototypes.items()} if module is not None else {}
    out: dict[str, CounterLook] = {}
    for _index, text in iter_texts(root, 0, _ADD):
        try:
            ident, piece = parse_add_piece_text(text)
        except VassalAdjError:  # a malformed AddPiece draws nothing; the rules' readers report it
            continue
        if prototypes:
            piece = expand_prototypes(piece, prototypes)
        look = _look(piece)
        if look is not None:
            out[ident] = look
    return out


class Counters:
    """Composes and caches counter pictures; `read(name)` gives the bytes of ``images/<name>``
    of the module, or None when it has no such image (then that image is left out)."""

    def __init__(self, looks: Mapping[str, CounterLook], read: Callable[[str], bytes | None]) -> None:
        self.looks, self.read = looks, read
        self.decoded: dict[str, Image.Image | None] = {}
        self.composed: dict[tuple[tuple[str, int, int, float], ...], tuple[Image.Image, int, int] | None] = {}

    def _image(self, name: str) -> Image.Image | None:
        if name not in self.decoded:
            data = self.read(name)
            try:
                self.decoded[name] = Image.open(io.BytesIO(data)).convert("RGBA") if data else None
            except OSError:  # an image Pillow cannot read (e.g. SVG) is left out
                self.decoded[name] = None
        return self.decoded[name]

    def picture(self, piece: Piece, masked: bool = False) -> tuple[Image.Image, int, int] | None:
        """The piece's counter and where its top-left corner goes relative to the piece's
        position; None when it has no image to draw."""
        look = self.looks.get(piece.id)
        if look is None:
            return None
        parts = tuple(look.images(piece.properties, masked))
        if parts not in self.composed:
            self.composed[parts] = self._compose(parts)
        return self.composed[parts]

    def _compose(self, parts: Iterable[tuple[str, int, int, float]]) -> tuple[Image.Image, int, int] | None:
        placed: list[tuple[Image.Image, int, int]] = []
        for name, dx, dy, scale in parts:
            img = self._image(name)
            if img is None:
                continue
            if scale != 1.0:
                img = img.resize(
                    (max(1, round(img.width * scale)), max(1, round(img.height * scale))), Image.Resampling.LANCZOS
                )
            placed.append((img, dx - img.width // 2, dy - img.height // 2))
        if not placed:
            return None
        left, top = min(x for _, x, _ in placed), min(y for _, _, y in placed)
        right = max(x + i.width for i, x, _ in placed)
        bottom = max(y + i.height for i, _, y in placed)
        out = Image.new("RGBA", (right - left, bottom - top), (0, 0, 0, 0))
        for img, x, y in placed:
            out.alpha_composite(img, (x - left, y - top))
        return out, left, top

    def draw(self, canvas: Image.Image, pieces: Iterable[Piece], masked: Collection[str] = ()) -> Image.Image:
        """A copy of `canvas` (map pixels) with `pieces` drawn on it, stacks bottom first;
        the pieces whose ids are in `masked` as their Mask shows them."""
        out = canvas.convert("RGBA")
        height: dict[tuple[int, int], int] = {}
        for p in pieces:
            found = self.picture(p, p.id in masked)
            if found is None:
                continue
            img, left, top = found
            k = height.get((p.x, p.y), 0)
            height[(p.x, p.y)] = k + 1
            x, y = p.x + left + k * STACK_STEP[0], p.y + top + k * STACK_STEP[1]
            if x >= out.width or y >= out.height or x + img.width <= 0 or y + img.height <= 0:
                continue
            out.alpha_composite(img, (max(0, x), max(0, y)), (max(0, -x), max(0, -y)))
        return out.convert("RGB")
