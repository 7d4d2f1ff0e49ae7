"""Cube-coordinate hex arithmetic, checked against VASSAL's odd-column layout by hand."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from vassal_adj.model.geometry.hexes import (
    Hex,
    HexSide,
    direction_to,
    distance,
    hex_order,
    hexside,
    hexsides,
    line,
    neighbor,
    neighbors,
    ring,
    side_order,
    within,
)

coords = st.integers(min_value=-60, max_value=60)
hexes = st.builds(Hex.from_raw, coords, coords)


def test_neighbours_of_an_even_column_hex_follow_vassal_layout() -> None:
    # Raw (0, 0) is at y0; odd column 1 starts half a hex lower (VASSAL-FORMATS 8.2), so the
    # north-east neighbour of (0, 0) is raw (1, -1) and the south-east one raw (1, 0).
    assert [n.raw() for n in neighbors(Hex.from_raw(0, 0))] == [(0, -1), (1, -1), (1, 0), (0, 1), (-1, 0), (-1, -1)]


def test_neighbours_of_an_odd_column_hex_follow_vassal_layout() -> None:
    # Raw (1, 0) is half a hex below row 0: its north-east neighbour is raw (2, 0).
    assert [n.raw() for n in neighbors(Hex.from_raw(1, 0))] == [(1, -1), (2, 0), (2, 1), (1, 1), (0, 1), (0, 0)]


@given(coords, coords)
def test_raw_round_trip(col: int, row: int) -> None:
    assert Hex.from_raw(col, row).raw() == (col, row)


@given(hexes, hexes)
def test_distance_is_symmetric_and_zero_only_on_itself(a: Hex, b: Hex) -> None:
    assert distance(a, b) == distance(b, a)
    assert (distance(a, b) == 0) == (a == b)


@given(hexes)
def test_neighbours_are_one_step_away_in_both_directions(h: Hex) -> None:
    for d, n in enumerate(neighbors(h)):
        assert distance(h, n) == 1 and neighbor(h, d) == n
        assert direction_to(h, n) == d and direction_to(n, h) == (d + 3) % 6


@given(hexes, st.integers(min_value=0, max_value=6))
def test_rings_and_areas(h: Hex, k: int) -> None:
    r = ring(h, k)
    assert len(r) == (6 * k if k else 1) == len(set(r))
    assert all(distance(h, x) == k for x in r)
    assert len(within(h, k)) == 3 * k * (k + 1) + 1


@given(hexes, hexes)
def test_line_is_a_connected_path_of_the_right_length(a: Hex, b: Hex) -> None:
    path = line(a, b)
    assert path[0] == a and path[-1] == b and len(path) == distance(a, b) + 1
    assert all(distance(x, y) == 1 for x, y in zip(path, path[1:], strict=False))


def test_line_along_a_column() -> None:
    assert [h.raw() for h in line(Hex.from_raw(2, 1), Hex.from_raw(2, 5))] == [(2, k) for k in range(1, 6)]


@given(hexes, st.integers(min_value=0, max_value=5))
def test_hexside_is_the_same_from_both_hexes(h: Hex, d: int) -> None:
    n = neighbor(h, d)
    side = hexside(h, n)
    assert side == hexside(n, h) and side.other(h) == n and side.other(n) == h
    assert side in set(hexsides(n))


def test_hexside_of_hexes_that_are_not_adjacent_is_refused() -> None:
    with pytest.raises(ValueError, match="not adjacent"):
        hexside(Hex(0, 0), Hex(2, 0))
    with pytest.raises(ValueError, match="in order"):
        HexSide(Hex(1, 0), Hex(0, 0))


@given(st.lists(hexes, max_size=40))
def test_hex_order_sorts_hexes_as_their_own_order_does(hs: list[Hex]) -> None:
    # network.py sorts with the keys: the same order as Hex's and HexSide's order=True comparisons
    assert sorted(hs, key=hex_order) == sorted(hs)
    sides = [hexside(h, n) for h in hs for n in neighbors(h)]
    assert sorted(sides, key=side_order) == sorted(sides)
