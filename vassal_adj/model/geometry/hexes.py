"""Pure hex arithmetic in cube coordinates: neighbours, distance, rings, lines, hexsides.

A `Hex` knows nothing of pixels or labels; `model.grid` places hexes on a board the way
VASSAL does. VASSAL numbers hexes by raw column and row with odd columns shifted half a hex
down (VASSAL-FORMATS.md 8.2); `Hex.from_raw` and `Hex.raw` convert between that "odd-q"
offset layout and cube coordinates. A sideways grid uses the same conversion in its swapped
frame, so nothing here depends on orientation.

>>> a, b = Hex.from_raw(0, 0), Hex.from_raw(3, 2)
>>> distance(a, b)
4
>>> len(ring(a, 2)), len(within(a, 2))
(12, 19)
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass


@dataclass(frozen=True, slots=True, order=True)
class Hex:
    """A hex in cube coordinates (q, r, s) with q + r + s == 0; s is derived."""

    q: int
    r: int

    @property
    def s(self) -> int:
        return -self.q - self.r

    @classmethod
    def from_raw(cls, column: int, row: int) -> Hex:
        """The hex at VASSAL's raw grid index (odd columns half a hex lower)."""
        return cls(column, row - (column - (column & 1)) // 2)

    def raw(self) -> tuple[int, int]:
        """VASSAL's raw (column, row) index of this hex; inverse of `from_raw`."""
        return self.q, self.r + (self.q - (self.q & 1)) // 2

    def __add__(self, other: Hex) -> Hex:
        return Hex(self.q + other.q, self.r + other.r)

    def __sub__(self, other: Hex) -> Hex:
        return Hex(self.q - other.q, self.r - other.r)

    def scaled(self, k: int) -> Hex:
        return Hex(self.q * k, self.r * k)


# In a grid that is not sideways (flat-topped hexes, raw row growing downwards) these are,
# in order: north, north-east, south-east, south, south-west, north-west.
DIRECTIONS: tuple[Hex, ...] = (
    Hex(0, -1),
    Hex(1, -1),
    Hex(1, 0),
    Hex(0, 1),
    Hex(-1, 1),
    Hex(-1, 0),
)


def neighbor(h: Hex, direction: int) -> Hex:
    """The neighbour of `h` in direction 0-5 (see `DIRECTIONS`)."""
    return h + DIRECTIONS[direction % 6]


def neighbors(h: Hex) -> tuple[Hex, ...]:
    """The six neighbours of `h`, in direction order."""
    return tuple(h + d for d in DIRECTIONS)


def direction_to(a: Hex, b: Hex) -> int | None:
    """The direction 0-5 from `a` to its neighbour `b`, or None when they are not adjacent."""
    d = b - a
    try:
        return DIRECTIONS.index(d)
    except ValueError:
        return None


def distance(a: Hex, b: Hex) -> int:
    """Number of hex steps from `a` to `b`."""
    d = a - b
    return (abs(d.q) + abs(d.r) + abs(d.s)) // 2


def ring(center: Hex, radius: int) -> list[Hex]:
    """The hexes at exactly `radius` steps from `center` (just `center` for radius 0)."""
    if radius < 0:
        raise ValueError(f"negative radius {radius}")
    if radius == 0:
        return [center]
    out = []
    h = center + DIRECTIONS[4].scaled(radius)
    for side in range(6):
        for _ in range(radius):
            out.append(h)
            h = h + DIRECTIONS[side]
    return out


def within(center: Hex, radius: int) -> list[Hex]:
    """Every hex at most `radius` steps from `center`, nearest rings first."""
    return [h for k in range(radius + 1) for h in ring(center, k)]


def _round(q: float, r: float) -> Hex:
    s = -q - r
    rq, rr, rs = round(q), round(r), round(s)
    dq, dr, ds = abs(rq - q), abs(rr - r), abs(rs - s)
    if dq > dr and dq > ds:
        rq = -rr - rs
    elif dr > ds:
        rr = -rq - rs
    return Hex(int(rq), int(rr))


def line(a: Hex, b: Hex) -> list[Hex]:
    """The hexes a straight line from the centre of `a` to the centre of `b` passes through.

    Ends included. Where the line runs exactly along a hexside, the hex on one consistent
    side is taken (a tiny nudge), so the result is always a connected path of adjacent hexes;
    rules that treat such lines specially can test `line(b, a)` as well.
    """
    n = distance(a, b)
    if n == 0:
        return [a]
    eps = 1e-6
    aq, ar = a.q + eps, a.r + 2 * eps
    bq, br = b.q + eps, b.r + 2 * eps
    return [_round(aq + (bq - aq) * i / n, ar + (br - ar) * i / n) for i in range(n + 1)]


@dataclass(frozen=True, slots=True, order=True)
class HexSide:
    """The side shared by two adjacent hexes; the same object whichever hex it is named from."""

    a: Hex
    b: Hex

    def __post_init__(self) -> None:
        if self.b < self.a:
            raise ValueError("HexSide hexes must be in order: use hexside(a, b)")
        if distance(self.a, self.b) != 1:
            raise ValueError(f"hexes {self.a} and {self.b} are not adjacent")

    def hexes(self) -> tuple[Hex, Hex]:
        return self.a, self.b

    def other(self, h: Hex) -> Hex:
        """The hex across this side from `h`."""
        if h == self.a:
            return self.b
        if h == self.b:
            return self.a
        raise ValueError(f"{h} is not on this hexside")


def hex_order(h: Hex) -> tuple[int, int]:
    """The key of Hex's own order (its fields, as order=True compares them): sorting many hexes
    with it calls no generated ``__lt__`` per comparison (startup time, issue 10)."""
    return h.q, h.r


def side_order(s: HexSide) -> tuple[int, int, int, int]:
    """The key of HexSide's own order (hex a, then hex b), as `hex_order` is Hex's."""
    return s.a.q, s.a.r, s.b.q, s.b.r


def hexside(a: Hex, b: Hex) -> HexSide:
    """The canonical side between adjacent hexes `a` and `b` (ValueError if not adjacent)."""
    return HexSide(a, b) if a < b else HexSide(b, a)


def hexsides(h: Hex) -> Iterator[HexSide]:
    """The six sides of `h`, in direction order."""
    for n in neighbors(h):
        yield hexside(h, n)
