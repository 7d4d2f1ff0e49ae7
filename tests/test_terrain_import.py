"""`vassal-adj terrain import`: the Terrain extension's terrainMaps (VASSAL-FORMATS.md section 11)
read into the pack's terrain file, on modules built to the extension's format by a test helper.

Three grids: a plain one, a sideways one and one with numbering offsets. The labels are worked
by hand from sections 8.2-8.3 and 11.3, and checked against `vassal-adj where` at each hex
centre (and, for the offsets grid, against VASSAL itself through the oracle's `labels`).
"""

from __future__ import annotations

import json
import os
import subprocess
import zipfile
from pathlib import Path

import pytest
from click.testing import CliRunner
from conftest import CORPUS, need_corpus
from terrain_ext_module import TerrainModule, write_terrain_module

from vassal_adj.cli import main
from vassal_adj.errors import FormatError, Where
from vassal_adj.load import load_module
from vassal_adj.model.module import HexGridDef
from vassal_adj.model.terrain import TerrainVocabulary
from vassal_adj.parse.terrain_file import read_terrain_on
from vassal_adj.parse.terrain_maps import parse_terrain_map
from vassal_adj.terrain_import import import_module_terrain

ORACLE = CORPUS.parent / "tools" / "vassal-oracle" / "vassal-oracle"
ORACLE_HOME = Path(os.environ.get("VASSAL_ORACLE_HOME", Path.home() / ".cache" / "vassal-oracle"))
NAMES = """
[hex]
Clear = "clear"
Woods = "forest"
Rough = "rough"
[edge]
River = "river"
[line]
Road = "road"
[attribute.Elevation]
"0" = ""
"2" = "hill"
"""
SQRT3_64 = "55.42562584220407"

# Section 11.4's example, then records the import must report (lines 7, 9, 10, 11).
PLAIN = TerrainModule(
    grid={"dx": SQRT3_64, "dy": "64.0", "x0": "0", "y0": "32", "sideways": "false"},
    numbering={},
    crlf=True,
    records=[
        ["h", "0", "0", "Woods"],
        ["h", "0", "1", "Rough"],
        ["e", "0", "0", "0", "1", "River"],
        ["l", "0", "1", "1", "1", "Road"],
        ["l", "1", "1", "0", "1", "Road"],
        ["a", "0", "1", "Elevation", "2"],
        ["h", "3", "2", "Fo,rest"],  # line 7: not defined
        ["h", "2", "1", "Clear"],
        ["h", "40", "2", "Woods"],  # line 9: off the grid
        ["h", "-1", "2", "Woods"],  # line 10: cut by the board's edge, centre off the board
        ["l", "0", "0", "2", "2", "Road"],  # line 11: not neighbours
    ],
)
# Sideways: the file's (column, row) is the grid's raw (row, column) (11.3).
SIDEWAYS = TerrainModule(
    grid={"dx": "52.0", "dy": "60.0", "x0": "30", "y0": "36", "sideways": "true"},
    numbering={},
    width=500,
    height=420,
    package="avl.",
    records=[
        ["h", "3", "2", "Woods"],
        ["h", "0", "0", "Rough"],
        ["h", "1", "3", "Clear"],
        ["e", "0", "0", "1", "0", "River"],
        ["l", "3", "2", "3", "3", "Road"],
        ["a", "3", "2", "Elevation", "2"],
    ],
)
# Numbering offsets: columns lettered from A (hOff 0), rows numbered from 05 (vOff 5). VASSAL's
# own HexGrid class, so that the oracle (which lacks the extension's classes) builds the grid.
OFFSETS = TerrainModule(
    grid={"x0": "0", "y0": "32"},
    numbering={"hType": "A", "hOff": "0", "vOff": "5", "stagger": "true"},
    package="rsr.",
    grid_class="HexGrid",
    records=[
        ["h", "0", "0", "Woods"],
        ["h", "1", "0", "Rough"],
        ["h", "2", "3", "Clear"],
        ["e", "0", "0", "1", "0", "River"],
        ["l", "1", "0", "2", "0", "Road"],
        ["a", "2", "3", "Elevation", "2"],
    ],
)


def run_import(tmp_path: Path, module: TerrainModule, *extra: str, names: str | None = NAMES):
    vmod = write_terrain_module(tmp_path / "game.vmod", module)
    args = ["terrain", "import", str(vmod), "-o", str(tmp_path / "terrain.csv"), *extra]
    if names is not None:
        (tmp_path / "names.toml").write_text(names)
        args += ["--map-names", str(tmp_path / "names.toml")]
    result = CliRunner().invoke(main, args)
    return vmod, result


def lines_of(path: Path) -> set[str]:
    return {line for line in path.read_text().splitlines() if line and not line.startswith("#")}


def raw_centre(module: TerrainModule, column: int, row: int) -> tuple[int, int]:
    """Section 8.2's centre of the hex the extension writes as (column, row), in board pixels."""
    g = module.grid
    dy = float(g.get("dy", "64.0"))
    dx = float(g.get("dx", SQRT3_64))
    x0, y0 = int(g.get("x0", "0")), int(g.get("y0", "32"))
    i, j = (row, column) if g.get("sideways") == "true" else (column, row)
    u = int(dx * i) + x0
    v = int(dy * j) + y0 if i % 2 == 0 else int(dy * j + dy / 2) + y0
    return (v, u) if g.get("sideways") == "true" else (u, v)


def where_label(vmod: Path, x: int, y: int) -> str:
    result = CliRunner().invoke(main, ["where", str(vmod), str(x), str(y), "--format", "json"])
    assert result.exit_code == 0, result.output
    return json.loads(result.output)["label"]


@pytest.mark.parametrize(
    ("module", "expected"),
    [
        # 8.3 with the defaults: raw (0,0) is 0101; odd raw column 1 is staggered one row down, so
        # raw (1,1) is 0203; 11.4: "e,0,0,0,1,River" is the side 0101/0102, the two Road lines one side.
        (
            PLAIN,
            {
                "hex,0101,forest",
                "hex,0102,hill rough",
                "hex,0302,clear",
                "hexside,0101/0102,river",
                "hexside,0102/0203,road",
            },
        ),
        # Sideways: file (3,2) is the grid's raw (2,3): column 2 -> 03, row 3 -> 04: 0304; file (1,3)
        # is raw (3,1), odd, staggered: 0403; file (3,3) is raw (3,3): 0405, a neighbour of 0304.
        (
            SIDEWAYS,
            {
                "hex,0304,forest hill",
                "hex,0101,rough",
                "hex,0403,clear",
                "hexside,0101/0102,river",
                "hexside,0304/0405,road",
            },
        ),
        # hType A with hOff 0: column 0 is A; vOff 5: row 0 is 05; raw (1,0), staggered, is B06;
        # raw (2,3) is C08; raw (2,0) is C05.
        (
            OFFSETS,
            {"hex,A05,forest", "hex,B06,rough", "hex,C08,clear hill", "hexside,A05/B06,river", "hexside,B06/C05,road"},
        ),
    ],
    ids=["plain", "sideways", "offsets"],
)
def test_11_3_raw_indices_become_vassal_labels(tmp_path: Path, module: TerrainModule, expected: set[str]) -> None:
    """11.3: "Column and row are the grid's raw indices ... To import, turn each (column, row) into
    the hex of the board's grid (8.2), then into the label with the grid's numbering (8.3)"."""
    vmod, result = run_import(tmp_path, module)
    assert result.exit_code == 0, result.output
    assert lines_of(tmp_path / "terrain.csv") == expected
    # The label of every hex record is the one `vassal-adj where` gives at that hex's centre.
    written = {line.split(",")[1]: line for line in expected if line.startswith("hex,")}
    for rec in module.records[:3]:
        label = where_label(vmod, *raw_centre(module, int(rec[1]), int(rec[2])))
        assert label in written, (rec, label)


def test_the_file_reads_back_as_the_pack_terrain_of_the_board(tmp_path: Path) -> None:
    """docs/terrain.md: the output is `write_terrain`'s, so `read_terrain_on` reads it back equal."""
    vmod, result = run_import(tmp_path, SIDEWAYS)
    assert result.exit_code == 0, result.output
    run = import_module_terrain(str(vmod), None, str(tmp_path / "names.toml"))
    vocabulary = TerrainVocabulary(frozenset({"clear", "forest", "rough", "hill"}), frozenset({"river", "road"}))
    back = read_terrain_on(
        run.layout, (tmp_path / "terrain.csv").read_text(), path="terrain.csv", vocabulary=vocabulary
    )
    assert back.hex_terrain == run.imported.terrain.hex_terrain
    assert back.side_features == run.imported.terrain.side_features


def test_11_2_undefined_terrain_and_hexes_off_the_grid_are_reported_with_their_line(tmp_path: Path) -> None:
    """11.2: "A record naming a terrain that the module's definitions do not hold is dropped by the
    extension without a word. An importer should report it instead (file, line, name)"; 11.3:
    "Indices from -1 to the last column/row + 1 are valid (hexes cut by the board edge)"."""
    vmod, result = run_import(tmp_path, PLAIN)
    assert result.exit_code == 0
    place = f"{vmod}!terrainMaps/Main.txt"
    expected = [
        f"{place}: line 7: hex terrain 'Fo,rest' is not defined in the module's TerrainDefinitions",
        f"{place}: line 9: hex (40,2) is off the grid",
        f"{place}: line 10: hex (-1,2) (VASSAL names it '0004') has its centre off the board",
        f"{place}: line 11: line 'Road' joins hexes 0101 and 0303, which are not neighbours",
    ]
    header = [line for line in (tmp_path / "terrain.csv").read_text().splitlines() if line.startswith("# warning: ")]
    assert len(header) == len(expected)
    for want, stderr_line, head_line in zip(expected, result.stderr.splitlines(), header, strict=True):
        assert stderr_line.startswith("warning: " + want)
        assert head_line.startswith("# warning: " + want)
    assert "11 records, 7 used;" in result.stdout and "4 warning(s)" in result.stdout


def test_names_the_table_does_not_map_are_listed_and_left_out(tmp_path: Path) -> None:
    """Issue 13: "Terrain names map to the pack's vocabulary through a small mapping table
    (`--map-names names.toml`), with unmapped names listed"."""
    names = NAMES.replace('Rough = "rough"\n', "").replace('"2" = "hill"\n', "")
    _, result = run_import(tmp_path, SIDEWAYS, names=names)
    assert result.exit_code == 0, result.output
    assert "warning: unmapped: hex terrain 'Rough': 1 left out (line 2)" in result.stderr
    assert "warning: unmapped: attribute 'Elevation' value '2': 1 left out (line 6)" in result.stderr
    text = (tmp_path / "terrain.csv").read_text()
    assert "# unmapped: hex terrain 'Rough': 1 left out (line 2)" in text
    assert lines_of(tmp_path / "terrain.csv") == {
        "hex,0304,forest",
        "hex,0403,clear",
        "hexside,0101/0102,river",
        "hexside,0304/0405,road",
    }


def test_without_a_table_one_word_names_are_kept_and_attributes_listed(tmp_path: Path) -> None:
    """Without --map-names each name is written as the module writes it; an attribute's values are
    not terrain types, so every hex's value (11.2: "a hex without one takes the definition's
    `default`") is listed as unmapped."""
    _, result = run_import(tmp_path, OFFSETS, names=None)
    assert result.exit_code == 0, result.output
    assert lines_of(tmp_path / "terrain.csv") == {
        "hex,A05,Woods",
        "hex,B06,Rough",
        "hex,C08,Clear",
        "hexside,A05/B06,River",
        "hexside,B06/C05,Road",
    }
    assert "attribute 'Elevation' value '0' (its default)" in result.stderr
    assert "left out (hexes taking the default)" in result.stderr


def test_11_2_sequence_encoder_escapes_and_both_line_ends() -> None:
    """11.2: "a `,` inside a name is written `\\,` ... Line ends are the writing machine's (CRLF on
    Windows, LF elsewhere): accept both"."""
    data = b"h,3,2,Fo\\,rest\r\nl,1,1,0,1,Road\n\r\na,0,1,Elevation,'2'\r\nh,0,0,\n"
    records, extra = parse_terrain_map(data, Where(path="m.vmod", entry="terrainMaps/B.txt"))
    assert [(r.line, r.kind, r.a, r.b, r.name, r.value) for r in records] == [
        (1, "h", (3, 2), None, "Fo,rest", ""),
        (2, "l", (1, 1), (0, 1), "Road", ""),
        (4, "a", (0, 1), None, "Elevation", "2"),
        (5, "h", (0, 0), None, "", ""),
    ]
    assert extra == []


@pytest.mark.parametrize(
    ("data", "message"),
    [
        (b"h,0,0,Woods\nh,x,1,Woods\n", "line 2: record 'h': column is not an integer: 'x'"),
        (b"e,0,0,1\n", "line 1: record 'e' needs e,column1,row1,column2,row2,terrain"),
        (b"h,0,0,Woods\n\nz,0,0\n", "line 3: unknown record 'z'"),
    ],
)
def test_a_line_that_is_no_record_is_an_error_naming_the_line(data: bytes, message: str) -> None:
    with pytest.raises(FormatError) as err:
        parse_terrain_map(data, Where(path="m.vmod", entry="terrainMaps/B.txt"))
    assert str(err.value).startswith("m.vmod!terrainMaps/B.txt: " + message)


def test_bad_input_exits_2_naming_the_file_and_line_and_writes_nothing(tmp_path: Path) -> None:
    module = TerrainModule(grid={}, numbering={}, records=[["h", "0", "0", "Woods"], ["h", "1", "one", "Woods"]])
    vmod, result = run_import(tmp_path, module)
    assert result.exit_code == 2
    assert f"{vmod}!terrainMaps/Main.txt: line 2: record 'h': row is not an integer: 'one'" in result.stderr
    assert not (tmp_path / "terrain.csv").exists()
    _, result = run_import(tmp_path, PLAIN, names="[hexes]\nClear = 'clear'\n")
    assert result.exit_code == 2
    assert "names.toml: hexes: unknown table (known: hex, edge, line, attribute)" in result.stderr
    _, result = run_import(tmp_path, PLAIN, names="[hex]\nClear = 'open ground, flat'\n")
    assert result.exit_code == 2 and "hex.Clear: 'ground,' is not a pack word" in result.stderr


def test_the_inputs_are_never_written(tmp_path: Path) -> None:
    vmod = write_terrain_module(tmp_path / "game.vmod", PLAIN)
    before = vmod.read_bytes()
    result = CliRunner().invoke(main, ["terrain", "import", str(vmod), "-o", str(vmod)])
    assert result.exit_code == 2 and "the file exists" in result.stderr
    assert vmod.read_bytes() == before


def test_a_module_without_terrain_or_with_several_boards_says_what_to_do(tmp_path: Path) -> None:
    vmod = write_terrain_module(tmp_path / "plain.vmod", PLAIN)
    with zipfile.ZipFile(vmod, "a") as zf:
        zf.writestr("terrainMaps/Other.txt", b"h,0,0,Woods\n")
    result = CliRunner().invoke(main, ["terrain", "import", str(vmod), "-o", str(tmp_path / "t.csv")])
    assert (
        result.exit_code == 2
        and "terrain for several boards ('Main', 'Other'): choose one with --board" in result.stderr
    )
    result = CliRunner().invoke(
        main, ["terrain", "import", str(vmod), "--board", "Other", "-o", str(tmp_path / "t.csv")]
    )
    assert result.exit_code == 2 and "terrain for board 'Other' but no board of that name" in result.stderr


def test_11_1_the_extension_grid_reads_as_the_hex_grid_it_extends(tmp_path: Path) -> None:
    """11.1: "Boards whose grid is the extension's `TerrainHexGrid` (a subclass of VASSAL's HexGrid
    with the same attributes and numbering child, under the same package prefix)"."""
    vmod = write_terrain_module(tmp_path / "game.vmod", SIDEWAYS)
    grid = load_module(vmod).maps["Main Map"].boards["Main"].grid
    assert isinstance(grid, HexGridDef) and grid.sideways and (grid.dx, grid.dy, grid.x0, grid.y0) == (52, 60, 30, 36)
    assert grid.numbering is not None


def test_vassal_names_the_offsets_grid_as_the_import_does(tmp_path: Path) -> None:
    """The oracle (VASSAL 3.6) names the centres of the imported hexes as the file does."""
    if not (ORACLE.exists() and (ORACLE_HOME / "oracle-env.json").exists()):
        if os.environ.get("REQUIRE_ORACLE") == "1":
            pytest.fail(f"vassal-oracle not set up (run {ORACLE.parent}/setup.sh)")
        pytest.skip("vassal-oracle not set up")
    vmod, result = run_import(tmp_path, OFFSETS)
    assert result.exit_code == 0, result.output
    points = [raw_centre(OFFSETS, int(r[1]), int(r[2])) for r in OFFSETS.records[:3]]
    args = [str(ORACLE), "labels", str(vmod), "--map", "Main Map", "--board", "Main"]
    done = subprocess.run(
        args + [a for p in points for a in ("--point", f"{p[0]},{p[1]}")], capture_output=True, text=True, timeout=300
    )
    out = json.loads(done.stdout)
    assert done.returncode == 0 and out["ok"], out.get("error")
    assert [p["location"] for p in out["result"]["points"]] == ["A05", "B06", "C08"]


def test_11_2_a_hex_without_an_attribute_takes_the_default(tmp_path: Path) -> None:
    """11.2: "`a` ... written only when the value is not empty; a hex without one takes the
    definition's `default`" (the helper's Elevation defaults to 0)."""
    vmod, result = run_import(tmp_path, SIDEWAYS, names=NAMES.replace('"0" = ""', '"0" = "low"'))
    assert result.exit_code == 0, result.output
    run = import_module_terrain(str(vmod), None, str(tmp_path / "names.toml"))
    hexes = {
        line.split(",")[1]: set(line.split(",")[2].split())
        for line in lines_of(tmp_path / "terrain.csv")
        if line.startswith("hex,")
    }
    assert set(hexes) == set(run.layout.labels())  # every hex of the board has an elevation
    assert hexes["0304"] == {"forest", "hill"}  # "a,3,2,Elevation,2": not the default
    assert hexes["0101"] == {"rough", "low"} and hexes["0102"] == {"low"}


def test_11_2_an_empty_name_is_no_terrain_and_a_later_record_wins(tmp_path: Path) -> None:
    """11.2: "Empty terrain name: the extension writes an empty field for 'no terrain'"; the
    extension keeps one terrain per hex, so of two records for one hex the later holds (and the
    import says so)."""
    module = TerrainModule(
        grid={},
        numbering={},
        records=[["h", "0", "0", "Woods"], ["h", "0", "1", "Woods"], ["h", "0", "1", ""], ["h", "0", "0", "Rough"]],
    )
    vmod, result = run_import(tmp_path, module)
    assert result.exit_code == 0, result.output
    assert lines_of(tmp_path / "terrain.csv") == {"hex,0101,rough"}
    assert result.stderr.splitlines() == [
        f"warning: {vmod}!terrainMaps/Main.txt: line 3: hex 0102 given twice: line 2 says 'Woods', this line says '';"
        " this line wins, as in the extension",
        f"warning: {vmod}!terrainMaps/Main.txt: line 4: hex 0101 given twice: line 1 says 'Woods', this line says "
        "'Rough'; this line wins, as in the extension",
    ]


def test_a_corpus_module_without_terrain_maps_is_told_so(tmp_path: Path) -> None:
    """No corpus module carries the Terrain extension (no terrainMaps entry, no TerrainDefinitions):
    the import says so and exits 2 rather than write an empty file."""
    need_corpus()
    vmod = CORPUS / "Kassala" / "Kassala.vmod"
    result = CliRunner().invoke(main, ["terrain", "import", str(vmod), "-o", str(tmp_path / "t.csv")])
    assert result.exit_code == 2
    assert "no terrainMaps/<board>.txt entry: it carries no Terrain extension map" in result.stderr
    assert not (tmp_path / "t.csv").exists()


def test_json_output_counts_what_was_imported(tmp_path: Path) -> None:
    _, result = run_import(tmp_path, PLAIN, "--format", "json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert (data["board"], data["entry"], data["records"], data["used"]) == ("Main", "terrainMaps/Main.txt", 11, 7)
    assert (data["hexes"], data["hexsides"], len(data["warnings"]), data["unmapped"]) == (3, 2, 4, [])
