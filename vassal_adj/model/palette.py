"""The terrain bootstrap's palette and its pure classifier: map colours -> terrain and features.

A palette (docs/terrain.md, "Terrain bootstrap") says which colours of a board picture mean
which terrain type, which colours mean a hexside feature (a road crossing the side, a river
along it), and which colours mean nothing (hex outlines, printed labels). This module reads
the parsed TOML into a `Palette`, classifies pixels by their nearest palette colour, and
turns the classes of a hex's samples into a terrain type and a confidence. Reading images
and files is the caller's business (`vassal_adj.terrain_sample`).

Colours are compared in CIE Lab, not RGB: Lab is built so that equal distances look about
equally different to the eye, and the author picks palette colours by eye. In RGB a step in
dark greens counts as much as the same step in pale yellows although the first is far more
visible, so a dark forest and a dark river would be confused long before two pale fields.

>>> p = palette_from_dict({"terrain": {"clear": {"colours": ["#f0f0c0"]},
...                                    "forest": {"colours": [[40, 110, 40]]}}}, "p.toml")
>>> c = Classifier(p)
>>> [p.names[k] for k in c.classify(np.array([[235, 238, 190], [50, 100, 45]], dtype=np.uint8))]
['clear', 'forest']
"""

from __future__ import annotations

import difflib
import math
import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np

from vassal_adj.errors import PackError, Where

__all__ = ["Classifier", "ColourClass", "Palette", "disc_lattice", "palette_from_dict", "rgb_to_lab", "side_offsets"]

Rgb = tuple[int, int, int]
UNKNOWN = -1  # a pixel farther than max_distance from every palette colour
_TOP_KEYS = {
    "radius": (0.05, 1.0),
    "side_length": (0.05, 1.0),
    "side_width": (0.02, 1.0),
    "min_confidence": (0.0, 1.0),
    "max_distance": (1.0, 300.0),
}
_DEFAULTS = {"radius": 0.6, "side_length": 0.5, "side_width": 0.3, "min_confidence": 0.6, "max_distance": 35.0}
_KINDS = ("crossing", "edge")


@dataclass(frozen=True)
class ColourClass:
    """A terrain type or hexside feature and the palette colours that mean it."""

    name: str
    colours: tuple[Rgb, ...]
    min_share: float = 0.0  # features: share of a hexside's samples needed to say "present"
    kind: str = "crossing"  # features: "crossing" (road, hex to hex) or "edge" (river along the side)


@dataclass(frozen=True)
class Palette:
    """A validated palette. Sizes are fractions of the hex geometry, so one palette fits any scale.

    `radius`: the sample disc around a hex centre, as a fraction of the centre-to-side
    distance (kept below 1 so that outlines and neighbours stay out). `side_length` and
    `side_width`: the patch sampled at a hexside midpoint, along the side (fraction of its
    length) and across it (fraction of the centre-to-centre distance).
    """

    terrain: tuple[ColourClass, ...]
    features: tuple[ColourClass, ...] = ()
    ignore: tuple[Rgb, ...] = ()
    radius: float = _DEFAULTS["radius"]
    side_length: float = _DEFAULTS["side_length"]
    side_width: float = _DEFAULTS["side_width"]
    min_confidence: float = _DEFAULTS["min_confidence"]
    max_distance: float = _DEFAULTS["max_distance"]  # CIE76 Delta E; about 2 is barely visible

    @property
    def names(self) -> list[str]:
        """Class index -> name: terrain types first, then features, then "(ignore)"."""
        return [c.name for c in self.terrain] + [c.name for c in self.features] + ["(ignore)"]


# -- reading -------------------------------------------------------------------------------
def _fail(path: str, key: str, message: str) -> PackError:
    return PackError(f"{key}: {message}", Where(path=path))


def _check_keys(path: str, where: str, table: Mapping[str, Any], known: set[str]) -> None:
    for k in table:
        if k not in known:
            close = difflib.get_close_matches(k, sorted(known), n=1)
            hint = f"; did you mean {close[0]!r}?" if close else ""
            raise _fail(path, f"{where}{k}", f"unknown key (known: {', '.join(sorted(known))}){hint}")


def _colour(path: str, key: str, value: Any) -> Rgb:
    if isinstance(value, str) and re.fullmatch(r"#[0-9a-fA-F]{6}", value.strip()):
        v = value.strip()
        return int(v[1:3], 16), int(v[3:5], 16), int(v[5:7], 16)
    if (
        isinstance(value, list)
        and len(value) == 3
        and all(isinstance(c, int) and not isinstance(c, bool) and 0 <= c <= 255 for c in value)
    ):
        return value[0], value[1], value[2]
    raise _fail(path, key, f"bad colour {value!r}: give [R, G, B] with 0-255 integers or '#rrggbb'")


def _colours(path: str, key: str, value: Any) -> tuple[Rgb, ...]:
    if not isinstance(value, list) or not value:
        raise _fail(path, key, "needs a non-empty list of colours, e.g. [[232, 220, 188], '#d6be96']")
    if len(value) == 3 and all(isinstance(c, int) for c in value):
        value = [value]  # one bare [R, G, B] is an obvious shorthand
    return tuple(_colour(path, f"{key}[{i}]", c) for i, c in enumerate(value))


def _number(path: str, key: str, value: Any, low: float, high: float) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not low <= value <= high:
        raise _fail(path, key, f"must be a number from {low:g} to {high:g}, got {value!r}")
    return float(value)


def _name(path: str, key: str, name: str) -> str:
    # The names become words of the terrain file (`TerrainVocabulary`): one word each.
    if not name or any(ch in ',"#/' or ch.isspace() for ch in name):
        raise _fail(path, key, f"bad name {name!r}: one word, no spaces, commas, '#', '/' or quotes")
    return name


def _classes(path: str, section: str, table: Any, feature: bool) -> tuple[ColourClass, ...]:
    if not isinstance(table, dict):
        raise _fail(path, section, f"must be a table of {section} types, e.g. [{section}.clear]")
    out = []
    for name, spec in table.items():
        key = f"{section}.{name}"
        _name(path, key, name)
        if not isinstance(spec, dict):
            raise _fail(path, key, "must be a table with 'colours'")
        _check_keys(path, key + ".", spec, {"colours", "min_share", "kind"} if feature else {"colours"})
        if "colours" not in spec:
            raise _fail(path, key + ".colours", "missing (the colours that mean this " + section.rstrip("s") + ")")
        colours = _colours(path, key + ".colours", spec["colours"])
        if not feature:
            out.append(ColourClass(name, colours))
            continue
        share = _number(path, key + ".min_share", spec.get("min_share", 0.1), 0.01, 1.0)
        kind = spec.get("kind", "crossing")
        if kind not in _KINDS:
            raise _fail(path, key + ".kind", f"must be one of {', '.join(_KINDS)}, got {kind!r}")
        out.append(ColourClass(name, colours, share, kind))
    return tuple(out)


def palette_from_dict(data: Mapping[str, Any], path: str) -> Palette:
    """A `Palette` from parsed TOML; PackError naming `path` and the key for any problem."""
    _check_keys(path, "", data, {"terrain", "features", "ignore", *_TOP_KEYS})
    if "terrain" not in data:
        raise _fail(path, "terrain", "missing: give at least one [terrain.<name>] table with colours")
    terrain = _classes(path, "terrain", data["terrain"], feature=False)
    if not terrain:
        raise _fail(path, "terrain", "needs at least one terrain type")
    features = _classes(path, "features", data.get("features", {}), feature=True)
    clash = {c.name for c in terrain} & {c.name for c in features}
    if clash:
        raise _fail(path, f"features.{min(clash)}", "is also a terrain type: give it one meaning")
    ignore: tuple[Rgb, ...] = ()
    if "ignore" in data:
        table = data["ignore"]
        if not isinstance(table, dict):
            raise _fail(path, "ignore", "must be a table with 'colours'")
        _check_keys(path, "ignore.", table, {"colours"})
        ignore = _colours(path, "ignore.colours", table.get("colours"))
    sizes = {k: _number(path, k, data.get(k, _DEFAULTS[k]), *_TOP_KEYS[k]) for k in _TOP_KEYS}
    return Palette(terrain, features, ignore, **sizes)


# -- colour -------------------------------------------------------------------------------
def rgb_to_lab(rgb: np.ndarray) -> np.ndarray:
    """CIE Lab (D65) of sRGB colours; `rgb` is (..., 3) in 0-255."""
    c = np.asarray(rgb, dtype=np.float64) / 255.0
    lin = np.where(c > 0.04045, ((c + 0.055) / 1.055) ** 2.4, c / 12.92)
    m = np.array([[0.4124, 0.3576, 0.1805], [0.2126, 0.7152, 0.0722], [0.0193, 0.1192, 0.9505]])
    xyz = lin @ m.T / np.array([0.95047, 1.0, 1.08883])
    f = np.where(xyz > 216 / 24389, np.cbrt(xyz), (24389 / 27 * xyz + 16) / 116)
    return np.stack([116 * f[..., 1] - 16, 500 * (f[..., 0] - f[..., 1]), 200 * (f[..., 1] - f[..., 2])], axis=-1)


class Classifier:
    """Nearest palette colour in Lab for each pixel: a class index into `palette.names`."""

    def __init__(self, palette: Palette) -> None:
        self.palette = palette
        colours: list[Rgb] = []
        owner: list[int] = []
        for k, cls in enumerate(palette.terrain + palette.features):
            colours += cls.colours
            owner += [k] * len(cls.colours)
        self.ignore_class = len(palette.terrain) + len(palette.features)
        colours += palette.ignore
        owner += [self.ignore_class] * len(palette.ignore)
        self._lab = rgb_to_lab(np.array(colours, dtype=np.float64))
        self._owner = np.array(owner, dtype=np.int64)

    def classify(self, pixels: np.ndarray) -> np.ndarray:
        """Class index per pixel of `pixels` (..., 3), UNKNOWN (-1) when nothing is near enough."""
        lab = rgb_to_lab(pixels)
        d2 = ((lab[..., None, :] - self._lab) ** 2).sum(axis=-1)
        nearest = d2.argmin(axis=-1)
        out = self._owner[nearest]
        far = np.take_along_axis(d2, nearest[..., None], axis=-1)[..., 0] > self.palette.max_distance**2
        return np.where(far, UNKNOWN, out)

    def hex_votes(self, classes: np.ndarray, valid: np.ndarray, side: int = 0) -> tuple[np.ndarray, np.ndarray]:
        """(votes per terrain type (N, T), voters (N,)) for N hexes of M samples each.

        Voters are the samples on the picture that are terrain colours or match nothing:
        feature pixels (a road through the centre) and ignored ones (labels) do not vote,
        but an unknown colour does count against the winner, so a palette that misses a
        colour shows up as low confidence instead of a confident guess. When the samples
        are a square lattice of `side` x `side` (`disc_lattice`), their lattice neighbours
        do not vote either: the edge of a line or a printed digit is a blend of two colours
        (antialiasing, JPEG), and a blend of a red road on green forest looks like rough.
        """
        t = len(self.palette.terrain)
        silent = valid & (classes >= t)
        if side:
            grid = silent.reshape(len(classes), side, side)
            near = grid.copy()
            near[:, 1:, :] |= grid[:, :-1, :]
            near[:, :-1, :] |= grid[:, 1:, :]
            wide = near.copy()
            wide[:, :, 1:] |= near[:, :, :-1]
            wide[:, :, :-1] |= near[:, :, 1:]
            valid = valid & ~wide.reshape(classes.shape)
        votes = np.stack([((classes == k) & valid).sum(axis=1) for k in range(t)], axis=1)
        voters = votes.sum(axis=1) + ((classes == UNKNOWN) & valid).sum(axis=1)
        return votes, voters

    def side_shares(self, classes: np.ndarray, valid: np.ndarray) -> np.ndarray:
        """Share (S, F) of each feature's colour among a hexside's samples (ignored ones left out)."""
        t, f = len(self.palette.terrain), len(self.palette.features)
        counted = (valid & (classes != self.ignore_class)).sum(axis=1)
        hits = (
            np.stack([((classes == t + k) & valid).sum(axis=1) for k in range(f)], axis=1)
            if f
            else np.zeros((len(classes), 0), dtype=np.int64)
        )
        return hits / np.maximum(counted, 1)[:, None]


# -- where to sample ----------------------------------------------------------------------
def _step(area: float, max_samples: int) -> float:
    # A regular lattice: at most about max_samples points, never finer than one pixel.
    return max(1.0, math.sqrt(area / max_samples))


def disc_lattice(radius: float, max_samples: int = 400) -> tuple[np.ndarray, np.ndarray, int]:
    """(offsets (n*n, 2), inside the disc (n*n,), n): a square lattice over a disc of `radius`.

    The whole square is kept (with a mask) so that `Classifier.hex_votes` can find each
    sample's lattice neighbours by shifting.
    """
    step = _step(math.pi * radius * radius, max_samples)
    n = 2 * int(radius / step) + 1
    r = (np.arange(n) - n // 2) * step
    xs, ys = np.meshgrid(r, r)
    inside = (xs**2 + ys**2 <= radius**2).ravel()
    return np.stack([xs.ravel(), ys.ravel()], axis=1), inside, n


def side_offsets(a: np.ndarray, b: np.ndarray, length: float, width: float, per_axis: int = 15) -> np.ndarray:
    """(S, M, 2) points of a patch at the midpoint of each hexside between centres a, b (S, 2).

    The patch runs `length` (pixels) along the side and `width` across it, so a road that
    crosses the side anywhere near the middle, or a river that wanders along it, is hit.
    """
    d = (b - a).astype(np.float64)
    across = d / np.maximum(np.hypot(d[:, 0], d[:, 1]), 1e-9)[:, None]
    along = np.stack([-across[:, 1], across[:, 0]], axis=1)
    u = np.linspace(-length / 2, length / 2, per_axis)
    v = np.linspace(-width / 2, width / 2, max(3, per_axis // 2))
    uu, vv = (g.ravel() for g in np.meshgrid(u, v))
    mid = (a + b) / 2.0
    return mid[:, None, :] + uu[None, :, None] * along[:, None, :] + vv[None, :, None] * across[:, None, :]
