"""Region expressions in hex specs (rules/mechanisms/regions.py, RULES-MAP N15), worked by hand.

Hexes are labels of the example module's Kasserine board (columns 01-39, rows 01-26, label
"CCRR"); the seeds' regions are said on it with the seeds' own row and column numbers.
"""

from __future__ import annotations

import doctest

import pytest
from example_board import layout

from vassal_adj.model.terrain import Place, TerrainMap, TerrainVocabulary
from vassal_adj.rules.engine import RuleContext
from vassal_adj.rules.mechanisms import regions


def ctx() -> RuleContext:
    lay = layout()
    h = lay.hex_of
    voc = TerrainVocabulary(frozenset({"clear", "minefield"}), frozenset(), frozenset({"area", "port", "airfield"}))
    # "Bir Hacheim": seven hexes, two of them (1716, 1815) minefields
    box = ("1715", "1716", "1717", "1815", "1816", "1817", "1915")
    places = (
        Place("Bir Hacheim", frozenset({"area"}), tuple(h(x) for x in box)),
        Place("Messina", frozenset({"port"}), (h("2027"),)),
        Place("Cagliari", frozenset({"port", "airfield"}), (h("1609"),)),
        Place("Gerbini", frozenset({"airfield"}), (h("2224"),)),
    )
    terrain = {h("1716"): {"minefield"}, h("1815"): {"minefield"}, h("0101"): {"minefield"}}
    return RuleContext(TerrainMap(voc, hex_terrain=terrain, named_places=places).with_board(lay.hexes()), lay, "t")


def labels(spec: str) -> list[str]:
    c = ctx()
    return [c.label(h) for h in c.hexes([spec])]


def test_doctests() -> None:
    assert doctest.testmod(regions).failed == 0


def test_s3_0_5_bir_hacheim_without_its_minefields() -> None:
    """No Question of Surrender S3.0/5 and Sc.1-4: "placed in any non-minefield hex of Bir
    Hacheim": the place minus the minefield terrain. Of the 7 hexes, 1716 and 1815 are mined."""
    assert labels("Bir Hacheim - terrain:minefield") == ["1715", "1717", "1816", "1817", "1915"]


def test_sc1_north_of_row_10_or_south_of_row_17() -> None:
    """No Question of Surrender Sc.1: "The Italian Units can not move north of hexrow XX.10 or
    south of hexrow XX.17": rows below 10 and above 17 (rows number from the north edge).
    On a board of 39 columns: rows 1-9 and 18-26 are 18 rows of 39 hexes each."""
    got = set(labels("row<10 + row>17"))
    assert len(got) == 18 * 39
    assert {"0109", "3901", "0118", "3926"} <= got and not {"0110", "2017", "3910"} & got


def test_sc3_south_of_row_12_or_east_of_column_23() -> None:
    """No Question of Surrender Sc.3: "The German Units may not move south of row xx.12 or east
    of row 23.xx": row>12 or col>23. 2412 is east (column 24), 2313 south (row 13), 2312 neither."""
    got = set(labels("row>12 + col>23"))
    assert {"2412", "2313", "3901"} <= got and "2312" not in got
    assert len(got) == 14 * 39 + 16 * 12  # rows 13-26 whole, and columns 24-39 of rows 1-12


def test_intersection_and_comparisons() -> None:
    """`&` keeps both; `>=`, `<=` and `=` include the line itself."""
    assert labels("row>=25 & col<=2") == ["0125", "0126", "0225", "0226"]
    assert labels("col=3 & row<3") == ["0301", "0302"]


def test_27_1_ports_and_airfields_by_place_kind() -> None:
    """Kesselring's War 27.1: "Garrisons: Sixteen total, deployed on any cities, ports and/or
    airfields": every place of a kind, once each (Cagliari is both)."""
    assert labels("place-kind:port + place-kind:airfield") == ["2027", "1609", "2224"]


def test_plain_specs_are_unchanged() -> None:
    """A range, a comma list and a place still mean what they meant."""
    assert labels("0623-0923") == ["0623", "0723", "0823", "0923"]
    assert labels("0101,0102") == ["0101", "0102"]
    assert labels("Messina") == ["2027"]


@pytest.mark.parametrize(
    ("spec", "words"),
    [
        ("place-kind:harbour", "'harbour' is not a place kind of the pack"),
        ("terrain:swamp", "'swamp' is not a terrain type of the pack"),
        ("Bir Hacheim - Nowhere", "'Nowhere' is neither a place of the terrain file nor a hex range"),
    ],
)
def test_a_term_that_names_nothing_is_an_error_naming_it(spec: str, words: str) -> None:
    with pytest.raises(ValueError, match=words):
        ctx().hexes([spec])


def test_rows_need_a_numbered_board() -> None:
    c = RuleContext(TerrainMap(TerrainVocabulary(frozenset(), frozenset())), None, "t")
    with pytest.raises(ValueError, match="no numbered hex grid"):
        c.hexes(["row<10"])
