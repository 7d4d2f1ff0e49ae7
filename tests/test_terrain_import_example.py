"""`vassal-adj terrain import` on the Kasserine example: Kasserine-terrain.vmod carries
modules/kasserine/terrain.csv as the Terrain extension stores it (VASSAL-FORMATS.md section 11;
scripts/example_terrain_module.py writes it), and the import gives the pack's terrain back.

The records are worked by hand from 11.3 ("Column and row are the grid's raw indices relative
to the board, not the labels VASSAL shows") on the example's grid: hOff = vOff = 1, no stagger,
so label CCRR is raw column CC - 1, raw row RR - 1.
"""

from __future__ import annotations

import sys
import zipfile
from pathlib import Path

import pytest
from click.testing import CliRunner
from conftest import REPO
from test_vassal_accepts import oracle_pieces

import vassal_adj
from vassal_adj.cli import main
from vassal_adj.load import load_module
from vassal_adj.model.geometry import hexes as hx
from vassal_adj.model.geometry.maps import board_hex_layouts
from vassal_adj.pack_files import load_pack
from vassal_adj.parse.builder import game_pieces

PACK = REPO / "modules" / "kasserine"
EXAMPLE = PACK / "example"
MODULE = EXAMPLE / "Kasserine-terrain.vmod"
NAMES = EXAMPLE / "terrain-names.toml"
ENTRY = "terrainMaps/Kasserine.txt"


def run(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(main, list(args))
    return result.exit_code, result.output


@pytest.fixture(scope="module")
def imported(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("import") / "kasserine-imported.csv"
    code, output = run("terrain", "import", str(MODULE), "--map-names", str(NAMES), "-o", str(out))
    assert code == 0, output
    assert "1596 records, 1596 used" in output and "0 warning(s), 0 unmapped name(s)" in output, output
    return out


def test_import_gives_back_every_hex_and_hexside_of_the_pack_terrain(imported: Path) -> None:
    """Every hex's terrain and every hexside's features equal terrain.csv's, both read by the pack's reader."""
    board = load_module(str(EXAMPLE / "Kasserine.vmod")).maps["Main Map"].boards["Kasserine"]
    layout = board_hex_layouts(board)[0]
    pack = load_pack(PACK)
    want, got = pack.terrain(layout), pack.terrain(layout, path=imported)
    hexes = [h for h in layout.hexes() if layout.label_of(h) is not None]
    assert len(hexes) == 1014
    assert {layout.label_of(h): got.terrain(h) for h in hexes} == {layout.label_of(h): want.terrain(h) for h in hexes}
    sides = {hx.hexside(h, n) for h in hexes for n in hx.neighbors(h)}
    assert {s: got.features(s) for s in sides} == {s: want.features(s) for s in sides}
    assert len(want.sides_with("road", "trail", "stream", "bridge")) == 337  # not an empty comparison
    assert got.places() == ()  # the extension has no places: the author adds them (docs/terrain.md)


def test_records_are_raw_indices_worked_by_hand() -> None:
    """11.3 on the example grid: Tebessa 0306 is raw (2, 5); the road 0205-0306 ("Tebessa - Allied
    rear") is a line from each end, 0205 being raw (1, 4); 11.2: "e ... written once, with
    (column1, row1) <= (column2, row2)"."""
    with zipfile.ZipFile(MODULE) as zf:
        lines = zf.read(ENTRY).decode("utf-8").splitlines()
    assert "h,2,5,Town" in lines
    assert "h,0,0,Clear" in lines  # 0101
    assert {"l,1,4,2,5,Road", "l,2,5,1,4,Road"} <= set(lines)
    for line in lines:
        if line.startswith("e,"):
            c1, r1, c2, r2 = map(int, line.split(",")[1:5])
            assert (c1, r1) <= (c2, r2), line


def test_the_module_is_the_example_plus_the_extension(tmp_path: Path) -> None:
    """Kasserine-terrain.vmod is Kasserine.vmod with the board's grid a TerrainHexGrid, the
    TerrainDefinitions and the terrainMaps entry; the committed files are what make_example writes."""
    with zipfile.ZipFile(EXAMPLE / "Kasserine.vmod") as a, zipfile.ZipFile(MODULE) as b:
        assert set(b.namelist()) == set(a.namelist()) | {ENTRY}
        assert all(a.read(n) == b.read(n) for n in a.namelist() if n != "buildFile.xml")
        build = b.read("buildFile.xml").decode("utf-8")
    assert build.count("<terrain.TerrainHexGrid ") == 1 and build.count("<terrain.TerrainDefinitions>") == 1
    assert build.count("<terrain.HexTerrain ") == 3 and build.count("<terrain.LineTerrain ") == 2
    sys.path.insert(0, str(REPO / "scripts"))
    import make_example

    make_example.main(tmp_path, tmp_path / "terrain.csv")
    assert (tmp_path / NAMES.name).read_bytes() == NAMES.read_bytes(), "run scripts/make_example.py"
    # PNG bytes depend on the zlib build (tests/test_example.py compares their pixels); the
    # pictures are Kasserine.vmod's, asserted above.
    with zipfile.ZipFile(MODULE) as committed, zipfile.ZipFile(tmp_path / MODULE.name) as made:
        assert committed.namelist() == made.namelist()
        for entry in committed.namelist():
            if not entry.endswith(".png"):
                assert committed.read(entry) == made.read(entry), f"{entry} differs: run scripts/make_example.py"


def test_packs_validate_passes_with_its_worked_examples_on_the_imported_terrain(imported: Path) -> None:
    code, output = run(
        "packs", "validate", str(PACK), "--module", str(EXAMPLE / "Kasserine.vmod"), "--terrain", str(imported)
    )
    assert code == 0, output
    assert ": valid" in output.strip().splitlines()[-1], output
    assert "as the rulebook says" in output  # the worked examples ran


def test_sample_compare_against_the_imported_terrain(imported: Path, tmp_path: Path) -> None:
    """The sampled picture against the imported file: the same figures as against terrain.csv
    (tests/test_sample_compare.py): every hex right, 8 hexsides the picture cannot show."""
    code, output = run(
        "terrain", "sample", str(EXAMPLE / "Kasserine.vmod"), "--map", "Main Map",
        "--palette", str(PACK / "palette.toml"), "-o", str(tmp_path / "draft.csv"), "--compare", str(imported),
    )  # fmt: skip
    assert code == 0, output
    assert "hexes 1014/1014 right (100.0%); hexsides 2905/2913 right" in output, output


def test_vassal_loads_the_terrain_module_without_the_extension_classes() -> None:
    """VASSAL without the extension installed strips its two classes and still builds every
    piece at its place (tests/test_vassal_accepts.py does the same on Kasserine.vmod)."""
    result = oracle_pieces(MODULE, EXAMPLE / "setup.vsav")
    stripped = {s["element"]: s["reason"] for s in result["module"]["stripped"]}
    assert {"terrain.TerrainDefinitions", "terrain.TerrainHexGrid"} <= set(stripped)
    assert "custom (non-VASSAL) class" in stripped["terrain.TerrainHexGrid"]
    vassal = {p["id"]: (p["name"], p["map"], p["x"], p["y"]) for p in result["result"]["pieces"]}
    game = vassal_adj.load_save(EXAMPLE / "setup.vsav")
    ours = {p.id: (p.name, p.map, p.x, p.y) for p in game_pieces(game.root, load_module(str(MODULE)))}
    assert len(ours) == 99 and vassal == ours
    # Without the TerrainHexGrid VASSAL has no hex labels there: the pieces on the board are "offboard".
    on_board = [p["location"] for p in result["result"]["pieces"] if p.get("board") == "Kasserine"]
    assert on_board and set(on_board) == {"offboard"}


def test_check_reads_the_terrain_hex_grid_as_the_hex_grid_it_extends() -> None:
    """VASSAL-FORMATS.md 11.1: TerrainHexGrid is "a subclass of VASSAL's HexGrid with the same
    attributes and numbering child": `check` on the faulty save gives the same report with either module."""
    save = str(EXAMPLE / "turn3-faults.vsav")
    plain = run("check", save, "--module", str(EXAMPLE / "Kasserine.vmod"), "--pack", "kasserine")
    with_terrain = run("check", save, "--module", str(MODULE), "--pack", "kasserine")
    assert plain[0] == 1 and "16.11" in plain[1]  # the example's faults are found
    assert with_terrain == plain
