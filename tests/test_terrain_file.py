"""The pack terrain file: reading, every error with its line, writing, round trips."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import pytest
from conftest import REPO
from hypothesis import given
from hypothesis import strategies as st

from vassal_adj.errors import PackError
from vassal_adj.model.geometry.hexes import Hex, hexside, neighbor
from vassal_adj.model.terrain import Place, TerrainMap, TerrainVocabulary
from vassal_adj.parse.terrain_file import read_terrain, write_terrain

PATH = "modules/test/terrain.csv"
VOC = TerrainVocabulary(
    terrain={"clear", "rough", "town", "mountain"}, features={"road", "trail", "stream", "bridge", "minefield"}
)
COMPASS = {"N": 0, "NE": 1, "SE": 2, "S": 3, "SW": 4, "NW": 5}


class FakeLayout:
    """Kasserine-style labels CCRR from 01, even columns half a hex lower (raw = label - 1)."""

    def __init__(self, columns: int = 39, rows: int = 26) -> None:
        self.by_label = {f"{c + 1:02d}{r + 1:02d}": Hex.from_raw(c, r) for c in range(columns) for r in range(rows)}
        self.by_hex = {h: lab for lab, h in self.by_label.items()}
        self.expanded: list[str] = []

    def resolve(self, label: str) -> Hex | None:
        return self.by_label.get(label)

    def label_of(self, h: Hex) -> str | None:
        return self.by_hex.get(h)

    def expand(self, word: str) -> list[str]:
        self.expanded.append(word)
        if "-" not in word:
            return [word]
        a, b = word.split("-")  # ValueError for "a-b-c"
        if not re.fullmatch(r"\d{4}", a) or not re.fullmatch(r"\d{4}", b):
            raise ValueError("a range is two four-digit labels joined by '-'")
        (ca, ra), (cb, rb) = (int(a[:2]), int(a[2:])), (int(b[:2]), int(b[2:]))
        if ra == rb:
            step = 1 if cb >= ca else -1
            return [f"{c:02d}{ra:02d}" for c in range(ca, cb + step, step)]
        if ca == cb:
            step = 1 if rb >= ra else -1
            return [f"{ca:02d}{r:02d}" for r in range(ra, rb + step, step)]
        raise ValueError("the ends are neither in one row nor in one column")

    def side(self, spec: str) -> tuple[str, str]:
        a, slash, b = spec.partition("/")
        if not slash:
            raise ValueError("expected 'hex/hex' or 'hex/direction'")
        if b not in COMPASS:
            return a, b
        h = self.resolve(a)
        if h is None:
            raise ValueError(f"unknown hex label {a!r}")
        other = self.label_of(neighbor(h, COMPASS[b]))
        if other is None:
            raise ValueError(f"the {b} side of {a} is the board edge")
        return a, other


def read(text: str, layout: FakeLayout | None = None, with_side: bool = True, **kw: Any) -> TerrainMap:
    lay = layout or FakeLayout()
    return read_terrain(
        text,
        path=PATH,
        vocabulary=VOC,
        resolve=lay.resolve,
        expand=lay.expand,
        side=lay.side if with_side else None,
        label_of=lay.label_of,
        **kw,
    )


def H(label: str) -> Hex:
    h = FakeLayout().resolve(label)
    assert h is not None
    return h


def test_records_comments_and_blank_lines() -> None:
    text = (
        "\ufeff# a comment\n\n   \nhex,2714,clear town   # Sbeitla\r\nHEX , 0312 , rough\n"
        'hexside,0312/0412 0312/N,stream\nplace,"Sbeitla, the town #1",town objective,2714\n'
        "offmap,0101 0102,,,\n"
    )
    m = read(text)
    assert m.terrain(H("2714")) == {"clear", "town"} and m.terrain(H("0312")) == {"rough"}
    assert m.has_feature(H("0412"), H("0312"), "stream") and m.has_feature(H("0311"), H("0312"), "stream")
    assert m.place("Sbeitla, the town #1").kinds == {"town", "objective"}
    assert m.off_map == {H("0101"), H("0102")}


def test_ranges_are_expanded_by_the_injected_callable_in_order() -> None:
    lay = FakeLayout()
    m = read("hex,0101-0104 0201,rough\nplace,Allied supply,supply-source,0107-0101 0101-0901\n", lay)
    assert m.hexes() == {H("0101"), H("0102"), H("0103"), H("0104"), H("0201")}
    assert m.place("Allied supply").hexes[:3] == (H("0107"), H("0106"), H("0105"))
    assert len(m.place("Allied supply").hexes) == 7 + 8  # 0101 once
    assert lay.expanded == ["0101-0104", "0201", "0107-0101", "0101-0901"]


def test_hexside_features_add_up_and_paths_mark_every_side() -> None:
    m = read("path,0101-0104,road\nhexside,0102/0103,stream bridge\npath,0104 0104 0204,trail\n")
    assert m.features(hexside(H("0102"), H("0103"))) == {"road", "stream", "bridge"}
    assert m.network("road").path(H("0101"), H("0104")) == [H("0101"), H("0102"), H("0103"), H("0104")]
    assert m.has_feature(H("0104"), H("0204"), "trail")


def test_the_same_terrain_twice_is_allowed() -> None:
    assert read("hex,0101-0103,rough\nhex,0102,rough\n").terrain(H("0102")) == {"rough"}


def test_without_a_side_callable_only_label_pairs_are_understood() -> None:
    assert read("hexside,0312/0412,road\n", with_side=False).has_feature(H("0312"), H("0412"), "road")
    with pytest.raises(PackError, match=r"unknown hex label 'N' \(from '0312/N'\)"):
        read("hexside,0312/N,road\n", with_side=False)
    with pytest.raises(PackError, match="expected two hex labels joined by '/'"):
        read("hexside,0312-0412,road\n", with_side=False)


ERRORS = [
    ("hexes,0101,clear", r"unknown record 'hexes' \(expected one of: hex, hexside, path, place, offmap\)"),
    ("hex,0101", r"a 'hex' line needs 3 fields \(hex,<hexes>,<terrain types>\), got 2"),
    ("place,Sbeitla,town", r"a 'place' line needs 4 fields \(place,<name>,<kinds>,<hexes>\), got 3"),
    ("hex,0101,clear,town", "a 'hex' line needs 3 fields"),
    ("hex,9999,clear", "unknown hex label '9999'"),
    ("hex,3826-4026,clear", r"unknown hex label '4026' \(from '3826-4026'\)"),
    ("hex,0101-0202,clear", "bad hex range '0101-0202': the ends are neither in one row nor in one column"),
    ("hex,0101-02-03,clear", "bad hex range '0101-02-03'"),
    ("hex,0101,swamp", r"unknown terrain type 'swamp' \(known: clear, mountain, rough, town\)"),
    ("hex, ,clear", "no hex given"),
    ("hexside,0312/0512,road", r"hexes '0312' and '0512' are not adjacent \(hexside '0312/0512'\)"),
    ("hexside,0312/0312,road", "hexes '0312' and '0312' are not adjacent"),
    ("hexside,0312,road", "bad hexside '0312': expected 'hex/hex' or 'hex/direction'"),
    ("hexside,0101/N,road", "bad hexside '0101/N': the N side of 0101 is the board edge"),
    ("hexside,0312/0412,raod", r"unknown hexside feature 'raod' \(known: bridge, minefield, road, stream, trail\)"),
    ("path,0101 0103,road", r"hexes '0101' and '0103' are not adjacent \(consecutive on the path\)"),
    ("path,0101,road", "a path needs at least two hexes, got '0101'"),
    ("place,Sbeitla,capital,2714", r"unknown place kind 'capital' \(known: entry, objective, supply-source, town\)"),
    ('place,"",town,2714', "place with no name"),
    ('place,"Sbeitla,town,2714', "malformed line: unbalanced double quote"),
    ("place,Hill #3,town,0101", r"got 2 \('#' starts a comment: quote a field that holds one\)"),
    ("offmap,0000", "unknown hex label '0000'"),
]


@pytest.mark.parametrize(("line", "message"), ERRORS, ids=[m[:30] for _, m in ERRORS])
def test_every_error_names_file_line_and_value(line: str, message: str) -> None:
    text = f"# header\nhex,0505,clear\n\n{line}\nhex,0606,clear\n"
    with pytest.raises(PackError, match=message) as info:
        read(text)
    err = info.value
    assert err.where is not None and err.where.path == PATH and err.where.line == 4
    assert str(err).startswith(f"{PATH}: line 4: ") and err.message[0].islower()


def test_a_hex_given_twice_with_different_terrain_names_both_lines() -> None:
    with pytest.raises(
        PackError,
        match=r"line 5: hex '0102' given twice with different terrain: "
        r"line 2 says 'rough', this line says 'clear town'",
    ):
        read("# rough ridge\nhex,0101-0103,rough\n\n# oops\nhex,0102,town clear\n")


def test_a_place_given_twice_names_the_first_line() -> None:
    with pytest.raises(PackError, match="line 3: place 'Sbeitla' already defined on line 1"):
        read("place,Sbeitla,town,2714\nhex,2714,town\nplace,Sbeitla,objective,2714\n")


def test_the_writer_output_is_sorted_commented_and_quoted() -> None:
    m = TerrainMap(
        VOC,
        {H("0102"): {"town", "clear"}, H("0101"): {"rough"}},
        {hexside(H("0202"), H("0102")): {"road", "stream"}},
        (Place('Fort "A", #2', {"objective"}, (H("0102"), H("0101"))),),
        frozenset({H("0103")}),
    )
    text = write_terrain(m, FakeLayout().label_of)
    body = [ln for ln in text.splitlines() if ln and not ln.startswith("#")]
    assert body == [
        "hex,0101,rough",
        "hex,0102,clear town",
        "hexside,0102/0202,road stream",
        'place,"Fort ""A"", #2",objective,0102 0101',
        "offmap,0103",
    ]
    assert "# terrain types: clear mountain rough town" in text
    assert read(text) == m


def test_the_writer_refuses_hexes_without_a_label() -> None:
    m = TerrainMap(VOC, {Hex.from_raw(50, 50): {"rough"}})
    with pytest.raises(ValueError, match="has no label"):
        write_terrain(m, FakeLayout().label_of)


def test_an_empty_map_round_trips() -> None:
    m = TerrainMap(VOC)
    assert read(write_terrain(m, FakeLayout().label_of)) == m


SMALL = FakeLayout(8, 8)
hexes = st.sampled_from(sorted(SMALL.by_hex))
names = st.text(st.sampled_from('ab Z,#"-é'), min_size=1, max_size=8).filter(lambda s: s == s.strip())


@st.composite
def terrain_maps(draw: Callable[..., Any]) -> TerrainMap:
    terrain = draw(st.dictionaries(hexes, st.frozensets(st.sampled_from(sorted(VOC.terrain)), min_size=1)))
    sides = {}
    for h, d in draw(st.lists(st.tuples(hexes, st.integers(0, 5)), max_size=12)):
        n = neighbor(h, d)
        if n in SMALL.by_hex:
            sides[hexside(h, n)] = draw(st.frozensets(st.sampled_from(sorted(VOC.features)), min_size=1))
    places = [
        Place(
            name,
            draw(st.frozensets(st.sampled_from(sorted(VOC.place_kinds)), min_size=1)),
            tuple(draw(st.lists(hexes, min_size=1, max_size=4))),
        )
        for name in draw(st.lists(names, unique=True, max_size=3))
    ]
    return TerrainMap(VOC, terrain, sides, tuple(places), draw(st.frozensets(hexes, max_size=15)))


@given(terrain_maps())
def test_read_of_write_is_the_same_map(m: TerrainMap) -> None:
    text = write_terrain(m, SMALL.label_of)
    again = read(text, SMALL)
    assert again == m and hash(again) == hash(m)
    assert [p.hexes for p in again.places()] == [p.hexes for p in m.places()]
    assert write_terrain(again, SMALL.label_of) == text


def _doc_example() -> str:
    doc = (REPO / "docs" / "terrain.md").read_text(encoding="utf-8")
    blocks = re.findall(r"```csv\n(.*?)```", doc, re.DOTALL)
    assert blocks, "docs/terrain.md has no ```csv example"
    return blocks[0]


def test_the_kasserine_example_in_the_docs_reads() -> None:
    voc = TerrainVocabulary(terrain={"clear", "rough", "town"}, features={"road", "trail", "stream", "bridge"})
    lay = FakeLayout()
    m = read_terrain(
        _doc_example(),
        path="docs/terrain.md",
        vocabulary=voc,
        resolve=lay.resolve,
        expand=lay.expand,
        side=lay.side,
        label_of=lay.label_of,
    )
    towns = {p.name: [lay.label_of(h) for h in p.hexes] for p in m.places("town")}
    assert towns == {
        "Tebessa": ["0306"],
        "El Ma el Abiod": ["0312"],
        "Thelepte": ["1319"],
        "Thala": ["1704"],
        "Sbiba": ["2706"],
        "Sbeitla": ["2714"],
    }
    axis = m.place("Axis supply")
    assert len(axis.hexes) == 9 + 19 + 10  # 0623-1423, 2126-3926, 3926-3916 (3926 counted once)
    allied = m.place("Allied supply")
    assert {"0107", "0101", "0901", "1301", "1901", "2401", "3001"} <= {lay.label_of(h) for h in allied.hexes}
    assert len(allied.hexes) == 7 + 8 + 7 + 7  # 0107-0101, 0101-0901, 1301-1901, 2401-3001
    assert {p.name for p in m.places("objective")} == {"Tebessa", "Thelepte", "Sbeitla"}


def test_reading_with_the_example_boards_layout() -> None:
    from conftest import REPO

    import vassal_adj
    from vassal_adj.model.geometry.maps import board_hex_layouts
    from vassal_adj.parse.terrain_file import read_terrain_on

    board = (
        vassal_adj.load_module(REPO / "modules/kasserine/example/Kasserine.vmod").maps["Main Map"].boards["Kasserine"]
    )
    layout = board_hex_layouts(board)[0]
    voc = TerrainVocabulary(terrain=frozenset({"clear", "town"}), features=frozenset({"road", "stream"}))
    text = (
        "hex,2714,clear town\nhexside,0312/N,stream\npath,0306 0406 0507,road\n"
        "place,Axis supply,supply-source,0623-1423 2126-3926 3926-3916\n"
    )
    m = read_terrain_on(layout, text, path="t.csv", vocabulary=voc)
    assert m.terrain(layout.hex_of("2714")) == frozenset({"clear", "town"})
    assert m.has_feature(layout.hex_of("0312"), layout.hex_of("0311"), "stream")  # N of 0312 is 0311
    assert m.network("road").connected(layout.hex_of("0306"), layout.hex_of("0507"))
    assert len(m.place("Axis supply").hexes) == 9 + 19 + 10  # 17.11: 3926 is in two ranges
    with pytest.raises(PackError, match="line 1.*not adjacent"):
        read_terrain_on(layout, "hexside,0312/0512,road\n", path="t.csv", vocabulary=voc)
    with pytest.raises(PackError, match="line 1.*'4001'"):
        read_terrain_on(layout, "hex,4001,clear\n", path="t.csv", vocabulary=voc)
