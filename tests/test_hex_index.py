"""The hex index of a layout (model/geometry/hex_index.py) answers as the slow definitions do.

Issue 10 (quick to start) made the index name each hex once and made label lookups go
through it. A label belongs to a hex when `hex_of` gives that hex back for the name VASSAL
shows at its centre; a label resolves when `hex_of` finds it and the hex is on the map.
These tests hold the index to exactly those definitions on grids of every kind, oblique
numbering included (whose slant the label -> centre direction undoes, docs/grids.md, so that
there too every hex has its label).
"""

from __future__ import annotations

import pytest

from vassal_adj.errors import UsageError
from vassal_adj.model.geometry.layout import HexLayout
from vassal_adj.model.geometry.numbering import parse_grid_location
from vassal_adj.model.module import BoardDef, HexGridDef, HexNumbering, ZoneDef

BOARD = BoardDef("B", None, 520, 430)
ZONE = ZoneDef(
    "Front",
    ((40, 30), (470, 60), (430, 400), (60, 380)),
    location_format="$name$:$gridLocation$",
    grid=HexGridDef(dx=40.0, dy=46.0, x0=50, y0=40, numbering=HexNumbering(sep=".")),
)
LAYOUTS = {
    "plain": HexLayout(HexGridDef(dx=52.0, dy=60.0, x0=36, y0=28, numbering=HexNumbering(stagger=False)), BOARD),
    "stagger": HexLayout(HexGridDef(dx=40.0, dy=46.0, x0=20, y0=20, numbering=HexNumbering()), BOARD),
    "descending rows": HexLayout(
        HexGridDef(dx=40.0, dy=46.0, x0=20, y0=20, numbering=HexNumbering(v_descend=True)), BOARD
    ),
    "sideways descending letters": HexLayout(
        HexGridDef(
            dx=40.0,
            dy=46.0,
            x0=20,
            y0=20,
            sideways=True,
            numbering=(HexNumbering(first="V", h_type="A", h_descend=True, sep="-")),
        ),
        BOARD,
    ),
    "oblique": HexLayout(HexGridDef(dx=40.0, dy=46.0, x0=20, y0=20, numbering=HexNumbering(oblique=True)), BOARD),
    "oblique descending": HexLayout(
        HexGridDef(
            dx=40.0,
            dy=46.0,
            x0=20,
            y0=20,
            numbering=(HexNumbering(oblique=True, stagger=False, h_descend=True, h_off=0, v_off=-3)),
        ),
        BOARD,
    ),
    "zone with its format": HexLayout(ZONE.grid, BOARD, zone=ZONE),  # type: ignore[arg-type]
}


def _slow_label(lay: HexLayout, h) -> str | None:  # type: ignore[no-untyped-def]
    name = lay._local_name(*lay._local_center(h))
    return name if name is not None and lay.hex_of(name) == h else None


def _slow_resolve(lay: HexLayout, label: str):  # type: ignore[no-untyped-def]
    h = lay.hex_of(label)
    return h if h is not None and lay.on_map(h) else None


@pytest.mark.parametrize("name", LAYOUTS)
def test_each_hex_is_labelled_exactly_when_hex_of_gives_it_back(name: str) -> None:
    lay = LAYOUTS[name]
    hexes = lay.hexes()
    assert len(hexes) > 20 and all(lay.on_map(h) for h in hexes)
    labelled = [h for h in hexes if _slow_label(lay, h) is not None]
    assert [lay.label_of(h) for h in hexes] == [_slow_label(lay, h) for h in hexes]
    assert lay.labels() == [_slow_label(lay, h) for h in labelled]
    assert len(labelled) == len(hexes)


@pytest.mark.parametrize("name", LAYOUTS)
def test_a_label_resolves_exactly_when_hex_of_finds_it_on_the_map(name: str) -> None:
    lay = LAYOUTS[name]
    names = {lay._local_name(*lay._local_center(h)) for h in lay.hexes()} - {None}
    # Names just beyond the board: hex_of finds their hexes, which are off the map.
    beyond = {lay._local_name(*lay._local_center(n)) for h in lay.hexes() for n in _around(h)} - {None} - names
    assert beyond
    for label in sorted(names | beyond | {"9999", "", "Front:"}):
        want = _slow_resolve(lay, label)  # type: ignore[arg-type]
        if want is None:
            with pytest.raises(UsageError):
                lay.require(label)  # type: ignore[arg-type]
        else:
            assert lay.require(label) == want  # type: ignore[arg-type]


def _around(h):  # type: ignore[no-untyped-def]
    from vassal_adj.model.geometry.hexes import neighbors

    return neighbors(h)


def test_a_location_format_naming_a_coordinate_twice_reads_the_first() -> None:
    # "$column$-$row$ ($column$)": VASSAL's parser takes the first group of each coordinate.
    num = HexNumbering(stagger=False, location_format="$column$-$row$ ($column$)")
    assert parse_grid_location(num, "12-05 (07)") == (11, 4)
    assert parse_grid_location(num, "12-05") is None


def test_a_location_format_without_a_row_parses_nothing() -> None:
    assert parse_grid_location(HexNumbering(location_format="$column$"), "12") is None
