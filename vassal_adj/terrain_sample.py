"""The terrain bootstrap: read a board picture and write a terrain file for the author to correct.

`vassal-adj terrain sample` calls `sample_module`. For every hex of the board's hex grid it
samples the picture on a disc around the centre, classifies each pixel by the nearest
palette colour (`model.palette`), and takes the terrain most samples agree on; the share
that agrees is the confidence. At the midpoint of every hexside it samples a small patch
and marks a feature (road, river, ...) present when enough of the patch has its colour.
The result is a `TerrainMap` written with `write_terrain`, so it reads back with
`read_terrain_on`; lines the author should check carry a comment saying why.
"""

from __future__ import annotations

import csv
import io
import os
import time
import tomllib
import warnings
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
from PIL import Image

from vassal_adj.codec.atomic import write_bytes_atomic
from vassal_adj.errors import FormatError, PackError, UsageError, Where
from vassal_adj.load import load_image, load_module
from vassal_adj.model.geometry import hexes as hx
from vassal_adj.model.geometry.hexes import Hex, HexSide
from vassal_adj.model.geometry.layout import HexLayout, hex_radii
from vassal_adj.model.geometry.maps import board_hex_layouts
from vassal_adj.model.module import MapDef, Module
from vassal_adj.model.palette import Classifier, Palette, disc_lattice, palette_from_dict, side_offsets
from vassal_adj.model.terrain import TerrainMap, TerrainVocabulary
from vassal_adj.parse import toml_text
from vassal_adj.parse.terrain_file import write_terrain
from vassal_adj.terrain_accuracy import Accuracy, compare, read_reference

__all__ = ["HexGuess", "Sampling", "pick_layout", "read_palette", "sample_board", "sample_module", "terrain_text"]

_CHUNK = 256  # hexes classified at once: bounds the (hexes x samples x colours) distance array


@dataclass(frozen=True)
class HexGuess:
    """What the samples of one hex say: the winner, its share, and the runner-up."""

    terrain: str
    confidence: float
    runner_up: str | None
    runner_share: float


@dataclass
class Sampling:
    """The result of sampling one board: the terrain map and why each line says what it says."""

    layout: HexLayout
    palette: Palette
    terrain: TerrainMap
    hexes: dict[Hex, HexGuess]
    side_shares: dict[HexSide, dict[str, float]]  # every sampled hexside: share per feature
    size: tuple[int, int]
    image: np.ndarray = field(repr=False, compare=False)  # the board picture sampled (RGB), for a preview
    seconds: float = 0.0
    extra: dict[str, object] = field(default_factory=dict)
    accuracy: Accuracy | None = None  # against a reference terrain (`--compare`), when one was given

    def low(self) -> list[Hex]:
        """Hexes whose confidence is below the palette's minimum, in label order."""
        return [
            h for h in self.layout.hexes() if h in self.hexes and self.hexes[h].confidence < self.palette.min_confidence
        ]


def read_palette(path: str | os.PathLike[str]) -> Palette:
    """Read and validate a palette TOML file (PackError naming the file and the key)."""
    name = os.fspath(path)
    try:
        text = Path(name).read_text(encoding="utf-8-sig")
    except FileNotFoundError:
        raise UsageError("palette file not found", Where(path=name)) from None
    except (OSError, UnicodeDecodeError) as e:
        raise UsageError(f"cannot read palette file: {e}", Where(path=name)) from None
    try:
        data = toml_text.loads(text)
    except tomllib.TOMLDecodeError as e:
        raise PackError(f"not valid TOML: {e}", Where(path=name)) from None
    return palette_from_dict(data, name)


def pick_layout(mdef: MapDef, board: str | None) -> HexLayout:
    """The one numbered hex grid to sample: on `board`, or on the map's only board with one."""
    boards = (
        [mdef.board(board)]
        if board is not None
        else [b for b in mdef.boards.values() if any(lay.numbered for lay in board_hex_layouts(b))]
    )
    if not boards:
        raise UsageError(
            f"map {mdef.name!r} has no board with a numbered hex grid (boards: "
            f"{', '.join(repr(n) for n in mdef.boards) or 'none'})"
        )
    if len(boards) > 1:
        raise UsageError(
            f"map {mdef.name!r} has several boards with hex grids "
            f"({', '.join(repr(b.name) for b in boards)}): choose one with --board"
        )
    layouts = [lay for lay in board_hex_layouts(boards[0]) if lay.numbered]
    if len(layouts) != 1:
        what = (
            "no numbered hex grid"
            if not layouts
            else f"{len(layouts)} numbered hex grids ({'; '.join(lay.where for lay in layouts)})"
        )
        raise UsageError(f"board {boards[0].name!r} has {what}: the bootstrap samples exactly one grid")
    return layouts[0]


def _decode(data: bytes, where: str) -> np.ndarray:
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # DecompressionBombWarning: corpus boards are large
            with Image.open(io.BytesIO(data)) as img:
                return np.asarray(img.convert("RGB"))
    except Exception as e:  # noqa: BLE001  (Pillow raises many types for unreadable data)
        raise FormatError(f"cannot read the board picture: {e}", Where(path=where)) from None


def _pixels(image: np.ndarray, points: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The RGB at each point (..., 2) and whether the point lies on the picture."""
    xi, yi = np.rint(points[..., 0]).astype(np.int64), np.rint(points[..., 1]).astype(np.int64)
    h, w = image.shape[:2]
    valid = (xi >= 0) & (xi < w) & (yi >= 0) & (yi < h)
    return image[np.clip(yi, 0, h - 1), np.clip(xi, 0, w - 1)], valid


def labelled_sides(layout: HexLayout) -> list[tuple[HexSide, Hex, Hex]]:
    """Every hexside between two labelled on-map hexes, once each, in label order."""
    on = {h for h in layout.hexes() if layout.label_of(h) is not None}
    seen: dict[HexSide, tuple[HexSide, Hex, Hex]] = {}
    for h in layout.hexes():
        if h not in on:
            continue
        for n in hx.neighbors(h):
            if n in on:
                s = hx.hexside(h, n)
                seen.setdefault(s, (s, h, n))
    return list(seen.values())


def sample_board(image: np.ndarray, layout: HexLayout, palette: Palette) -> Sampling:
    """Classify every labelled hex and hexside of `layout` on the picture (H, W, 3 uint8)."""
    start = time.perf_counter()
    clf = Classifier(palette)
    apothem, corner = hex_radii(layout)
    hexes = [h for h in layout.hexes() if layout.label_of(h) is not None]
    names = [c.name for c in palette.terrain]
    guesses: dict[Hex, HexGuess] = {}
    offsets, inside, side = disc_lattice(palette.radius * apothem)
    for k in range(0, len(hexes), _CHUNK):
        chunk = hexes[k : k + _CHUNK]
        centres = np.array([layout.center(h) for h in chunk], dtype=np.float64)
        rgb, valid = _pixels(image, centres[:, None, :] + offsets[None, :, :])
        votes, voters = clf.hex_votes(clf.classify(rgb), valid & inside, side)
        order = np.argsort(-votes, axis=1, kind="stable")  # ties go to the type listed first
        for i, h in enumerate(chunk):
            n = max(int(voters[i]), 1)
            first, second = int(order[i, 0]), (int(order[i, 1]) if len(names) > 1 else None)
            share2 = votes[i, second] / n if second is not None else 0.0
            guesses[h] = HexGuess(
                names[first],
                float(votes[i, first] / n),
                names[second] if second is not None and share2 > 0 else None,
                float(share2),
            )
    sides = labelled_sides(layout)
    shares: dict[HexSide, dict[str, float]] = {}
    features: dict[HexSide, frozenset[str]] = {}
    if palette.features and sides:
        a = np.array([layout.center(s[1]) for s in sides], dtype=np.float64)
        b = np.array([layout.center(s[2]) for s in sides], dtype=np.float64)
        pts = side_offsets(a, b, palette.side_length * corner, palette.side_width * 2 * apothem)
        rgb, valid = _pixels(image, pts)
        table = clf.side_shares(clf.classify(rgb), valid)
        for (s, _, _), row in zip(sides, table, strict=True):
            shares[s] = {f.name: float(v) for f, v in zip(palette.features, row, strict=True)}
            present = frozenset(f.name for f, v in zip(palette.features, row, strict=True) if v >= f.min_share)
            if present:
                features[s] = present
    voc = TerrainVocabulary(terrain=frozenset(names), features=frozenset(f.name for f in palette.features))
    tmap = TerrainMap(voc, {h: frozenset({g.terrain}) for h, g in guesses.items()}, features)
    size = (int(image.shape[1]), int(image.shape[0]))
    return Sampling(layout, palette, tmap, guesses, shares, size, image, time.perf_counter() - start)


# -- the file for the author --------------------------------------------------------------
def _hex_note(g: HexGuess, threshold: float) -> str:
    if g.confidence >= threshold:
        return ""
    if g.confidence == 0:
        return "  # low confidence 0.00: no sample matched a terrain colour"
    other = f": {g.runner_up} {g.runner_share:.2f}" if g.runner_up else ""
    return f"  # low confidence {g.confidence:.2f}{other}"


def _side_note(s: Sampling, side: HexSide) -> str:
    # Just over the minimum: a blend at the edge of a nearby line can get that far.
    weak = [
        f"{f.name} {s.side_shares[side][f.name]:.2f}"
        for f in s.palette.features
        if f.name in s.terrain.features(side) and s.side_shares[side][f.name] < 1.5 * f.min_share
    ]
    return f"  # weak: {', '.join(weak)} (check)" if weak else ""


def terrain_text(s: Sampling, header: list[str]) -> str:
    """`write_terrain` of the sampling, with a comment on every line the author should check.

    Hexsides where a feature's colour was seen but too little of it (at least half the
    minimum share) are listed at the end as commented-out lines: uncomment the right ones.
    """
    lay = s.layout
    by_label = {lay.label_of(h): h for h in s.hexes}
    sides = {lay.hexside_name(side): side for side in s.side_shares}
    out = [f"# {line}" if line else "#" for line in header]
    for line in write_terrain(s.terrain, lay.label_of).splitlines():
        fields = next(csv.reader([line])) if line and not line.startswith("#") else []
        if len(fields) >= 2 and fields[0] == "hex" and fields[1] in by_label:
            line += _hex_note(s.hexes[by_label[fields[1]]], s.palette.min_confidence)
        elif len(fields) >= 2 and fields[0] == "hexside" and fields[1] in sides:
            line += _side_note(s, sides[fields[1]])
        out.append(line)
    maybe = []
    for name, side in sorted(sides.items()):
        for f in s.palette.features:
            share = s.side_shares[side][f.name]
            if f.name not in s.terrain.features(side) and share >= f.min_share / 2:
                maybe.append(f"# hexside,{name},{f.name}  # maybe: share {share:.2f} (min {f.min_share:.2f})")
    if maybe:
        out += ["", "# hexsides where a little of a feature's colour was seen (uncomment the right ones)"]
        out += maybe
    return "\n".join(out) + "\n"


def sample_module(
    module: str,
    map_name: str | None,
    palette_path: str,
    out: str,
    board: str | None = None,
    pick_map: Callable[[Module, str | None], MapDef] | None = None,
    reference: str | None = None,
) -> Sampling:
    """Sample the board of `map_name` in `module` and write `out`; the Sampling returned keeps
    the picture, for a preview (`report.terrain_preview`, which the command line writes), and
    its accuracy against the terrain file `reference` when one is given (terrain_accuracy.py).

    `pick_map(module, name) -> MapDef` chooses the map; the CLI passes its own rule, the
    same as its other commands' (by default the map must be named).
    """
    palette = read_palette(palette_path)
    mod = load_module(module)
    mdef = (pick_map or _map)(mod, map_name)
    layout = pick_layout(mdef, board)
    if layout.board.image is None:
        raise UsageError(
            f"board {layout.board.name!r} has no image (VASSAL paints it a plain colour): there is no picture to sample"
        )
    image = _decode(
        load_image(module, layout.board.image, board=layout.board.name), f"{module}!images/{layout.board.image}"
    )
    ref = read_reference(reference, layout) if reference is not None else None  # before writing: a bad one stops all
    s = sample_board(image, layout, palette)
    if ref is not None and reference is not None:
        s.accuracy = compare(
            {h: g.terrain for h, g in s.hexes.items()},
            (t[0] for t in labelled_sides(layout)),
            s.terrain.side_features,
            ref,
            reference,
        )
    low = s.low()
    header = [
        (
            f"sampled by 'vassal-adj terrain sample' from {os.path.basename(module)}, map "
            f"{mdef.name!r}, {layout.where}, image {layout.board.image!r}"
        ),
        (
            f"palette {os.path.basename(palette_path)}: {len(s.hexes)} hexes, {len(low)} below "
            f"confidence {palette.min_confidence:.2f} (marked 'low confidence'), "
            f"{len(s.terrain.side_features)} hexsides with features"
        ),
        "a first draft from colours: check it against the map, correct it, then remove this note",
        "",
    ]
    write_bytes_atomic(
        out,
        terrain_text(s, header).encode("utf-8"),
        protect=[module, palette_path, *([reference] if reference else [])],
    )
    s.extra.update(map=mdef.name, board=layout.board.name, low=len(low))
    return s


def _map(mod: Module, name: str | None) -> MapDef:
    if name is None:
        raise UsageError("give the map with --map")
    found = mod.map_by_id(name)
    if found is None:
        raise UsageError(
            f"no map {name!r} in module {mod.name!r}; maps: {', '.join(repr(n) for n in mod.maps) or 'none'}"
        )
    return found


def summary(s: Sampling) -> dict[str, object]:
    """What a run did, for the command line (text or --json)."""
    counts: dict[str, int] = {}
    for g in s.hexes.values():
        counts[g.terrain] = counts.get(g.terrain, 0) + 1
    sides: dict[str, int] = {}
    for fs in s.terrain.side_features.values():
        for f in fs:
            sides[f] = sides.get(f, 0) + 1
    return {
        "map": s.extra.get("map"),
        "board": s.layout.board.name,
        "zone": s.layout.zone.name if s.layout.zone else None,
        "image_size": list(s.size),
        "hexes": len(s.hexes),
        "terrain": dict(sorted(counts.items())),
        "hexsides": dict(sorted(sides.items())),
        "min_confidence": s.palette.min_confidence,
        "low_confidence": [s.layout.label_of(h) for h in s.low()],
        "seconds": round(s.seconds, 3),
        **({"compare": s.accuracy.as_dict()} if s.accuracy is not None else {}),
    }
