"""The terrain bootstrap (`vassal-adj terrain sample`): a drawn board with known terrain, a corpus
board, the palette's validation and the command line."""

from __future__ import annotations

import io
import time
import zipfile
from itertools import pairwise
from pathlib import Path

import numpy as np
import pytest
from click.testing import CliRunner
from conftest import CORPUS, need_corpus
from PIL import Image, ImageDraw

from vassal_adj.cli import main
from vassal_adj.errors import PackError
from vassal_adj.model.geometry import hexes as hx
from vassal_adj.model.geometry.layout import HexLayout
from vassal_adj.model.module import BoardDef, HexGridDef, HexNumbering
from vassal_adj.model.palette import palette_from_dict
from vassal_adj.model.terrain import TerrainVocabulary
from vassal_adj.parse.terrain_file import read_terrain_on
from vassal_adj.report.terrain_preview import preview_png
from vassal_adj.terrain_sample import sample_module

DX, DY, X0, Y0, COLS, ROWS = 52.0, 60.0, 36, 28, 9, 7
WIDTH, HEIGHT = X0 * 2 + int(DX * (COLS - 1)), Y0 + int(DY * ROWS)
COLOURS = {"clear": (232, 220, 188), "forest": (70, 125, 60), "rough": (160, 120, 80)}
ROAD, STREAM, OUTLINE, INK = (190, 50, 40), (50, 100, 210), (90, 90, 90), (30, 30, 30)
ROAD_PATH = ["0102", "0202", "0303", "0403", "0504", "0604", "0705", "0805", "0905"]
STREAM_SIDES = [("0206", "0306"), ("0306", "0307"), ("0307", "0407"), ("0506", "0507")]
PALETTE = """
min_confidence = 0.6
[terrain.clear]
colours = [[232, 220, 188]]
[terrain.forest]
colours = ["#467d3c"]
[terrain.rough]
colours = [[160, 120, 80]]
[features.road]
colours = [[190, 50, 40]]
[features.stream]
colours = [[50, 100, 210]]
kind = "edge"
[ignore]
colours = [[90, 90, 90], [30, 30, 30]]
"""
RAGNAROK = """
[terrain.clear]
colours = [[255, 249, 197]]
[terrain.forest]
colours = [[79, 123, 68], [143, 157, 67], [96, 124, 60]]
[features.road]
colours = [[240, 190, 48]]
[features.river]
colours = [[100, 150, 190]]
kind = "edge"
[ignore]
colours = [[156, 143, 102], [60, 60, 60]]
"""


def expected_terrain(label: str) -> str:
    col, row = int(label[:2]), int(label[2:])
    return ("clear", "forest", "rough")[(col + 2 * row) % 3]


def build_file(image: str | None) -> bytes:
    board = f'image="{image}"' if image else ""
    return f"""<?xml version="1.0" encoding="UTF-8" standalone="no"?>
<VASSAL.build.GameModule name="Drawn" version="1.0" VassalVersion="3.6.7">
  <VASSAL.build.module.Map mapName="Main Map" edgeHeight="0" edgeWidth="0">
    <VASSAL.build.module.map.BoardPicker>
      <setup>Main MapBoardPicker\tTest\t0\t0</setup>
      <VASSAL.build.module.map.boardPicker.Board {board} name="Test" width="{WIDTH}" height="{HEIGHT}">
        <VASSAL.build.module.map.boardPicker.board.HexGrid dx="{DX}" dy="{DY}" x0="{X0}" y0="{Y0}"
            sideways="false" snapTo="true">
          <VASSAL.build.module.map.boardPicker.board.mapgrid.HexGridNumbering first="H" sep=""
              hType="N" vType="N" hLeading="1" vLeading="1" hOff="1" vOff="1" stagger="false"
              locationFormat="$gridLocation$"/>
        </VASSAL.build.module.map.boardPicker.board.HexGrid>
      </VASSAL.build.module.map.boardPicker.Board>
    </VASSAL.build.module.map.BoardPicker>
  </VASSAL.build.module.Map>
</VASSAL.build.GameModule>
""".encode()


def write_module(path: Path, picture: bytes | None, image: str | None = "board.jpg") -> Path:
    with zipfile.ZipFile(path, "w") as zf:
        zf.writestr("buildFile.xml", build_file(image))
        zf.writestr("moduledata", b'<?xml version="1.0"?><data version="1"><name>Drawn</name></data>')
        if picture is not None and image is not None:
            zf.writestr("images/" + image, picture)
    return path


def corners(cx: float, cy: float) -> list[tuple[float, float]]:
    r, h = DX * 2 / 3, DY / 2
    return [
        (cx + r, cy),
        (cx + r / 2, cy + h),
        (cx - r / 2, cy + h),
        (cx - r, cy),
        (cx - r / 2, cy - h),
        (cx + r / 2, cy - h),
    ]


def draw_board(tmp_path: Path) -> Path:
    """The test board: three terrains in a pattern, outlines, labels, a road, a stream, noise, JPEG."""
    grid = HexGridDef(dx=DX, dy=DY, x0=X0, y0=Y0, numbering=HexNumbering(stagger=False))
    layout = HexLayout(grid, BoardDef("Test", "board.jpg", WIDTH, HEIGHT, grid=grid))
    image = Image.new("RGB", (WIDTH, HEIGHT), (250, 250, 250))
    draw = ImageDraw.Draw(image)
    for label in layout.labels():
        draw.polygon(corners(*layout.center(label)), fill=COLOURS[expected_terrain(label)])
    for label in layout.labels():
        cx, cy = layout.center(label)
        draw.line([*corners(cx, cy), corners(cx, cy)[0]], fill=OUTLINE, width=2)
        draw.text((cx - 12, cy - DY / 2 + 3), label, fill=INK)
    draw.line([layout.center(lab) for lab in ROAD_PATH], fill=ROAD, width=6, joint="curve")
    for a, b in STREAM_SIDES:  # along the side: between the two corners the hexes share
        ca, cb = corners(*layout.center(a)), corners(*layout.center(b))
        shared = [p for p in ca if any(abs(p[0] - q[0]) < 1 and abs(p[1] - q[1]) < 1 for q in cb)]
        draw.line(shared, fill=STREAM, width=5)
    noisy = np.asarray(image).astype(np.int16) + np.random.default_rng(7).normal(0, 6, (HEIGHT, WIDTH, 3)).astype(
        np.int16
    )
    out = io.BytesIO()
    Image.fromarray(np.clip(noisy, 0, 255).astype(np.uint8)).save(out, format="JPEG", quality=80)
    return write_module(tmp_path / "Drawn.vmod", out.getvalue())


@pytest.fixture
def drawn(tmp_path: Path) -> tuple[Path, Path]:
    palette = tmp_path / "palette.toml"
    palette.write_text(PALETTE, encoding="utf-8")
    return draw_board(tmp_path), palette


def test_drawn_board_every_hex_and_hexside_right(drawn: tuple[Path, Path], tmp_path: Path) -> None:
    module, palette = drawn
    out = tmp_path / "terrain.csv"
    s = sample_module(str(module), "Main Map", str(palette), str(out))
    lay = s.layout
    assert len(s.hexes) == len(lay.labels()) == COLS * ROWS
    for h, guess in s.hexes.items():
        label = lay.label_of(h)
        assert guess.terrain == expected_terrain(label), (label, guess)
        assert guess.confidence >= 0.9, (label, guess)
    road = {lay.hexside((a, b)) for a, b in pairwise(ROAD_PATH)}
    stream = {lay.hexside(pair) for pair in STREAM_SIDES}
    assert s.terrain.sides_with("road") == road
    assert s.terrain.sides_with("stream") == stream
    assert s.terrain.network("road").connected(lay.require("0102"), lay.require("0905"))
    # The file reads back to the same map, and nothing on it asks to be checked.
    voc = TerrainVocabulary(terrain=frozenset(COLOURS), features=frozenset({"road", "stream"}))
    text = out.read_text(encoding="utf-8")
    assert read_terrain_on(lay, text, path=str(out), vocabulary=voc) == s.terrain
    assert not [line for line in text.splitlines() if not line.startswith("#") and "#" in line]
    assert "# maybe" not in text  # no doubtful hexside offered either
    with Image.open(io.BytesIO(preview_png(s))) as picture:
        assert picture.size == (WIDTH, HEIGHT)


def test_a_colour_missing_from_the_palette_gives_marked_lines_that_still_read(
    drawn: tuple[Path, Path], tmp_path: Path
) -> None:
    module, _ = drawn
    palette = tmp_path / "two.toml"
    palette.write_text(PALETTE.replace("[terrain.rough]\ncolours = [[160, 120, 80]]\n", ""), encoding="utf-8")
    out = tmp_path / "terrain.csv"
    s = sample_module(str(module), "Main Map", str(palette), str(out))
    rough = [h for h in s.hexes if expected_terrain(s.layout.label_of(h)) == "rough"]
    assert rough and set(s.low()) == set(rough)
    text = out.read_text(encoding="utf-8")
    marked = [line for line in text.splitlines() if "# low confidence" in line]
    assert len(marked) == len(rough)
    assert marked[0].startswith("hex,") and "# low confidence 0.0" in marked[0]
    voc = TerrainVocabulary(terrain=frozenset({"clear", "forest"}), features=frozenset({"road", "stream"}))
    assert read_terrain_on(s.layout, text, path=str(out), vocabulary=voc) == s.terrain


@pytest.mark.parametrize(
    "module, map_name, board, hexes, palette",
    [
        ("Ragnarok/Ragnarok.vmod", "Main Map", None, 467, RAGNAROK),
        (
            "CommandsAndColorsNapoleonics/CommandsAndColorsNapoleonics.vmod",
            "Main Map",
            "Inland",
            113,
            "[terrain.grass]\ncolours = [[176, 196, 120], [168, 189, 115]]\n[ignore]\ncolours = [[123, 127, 93]]\n",
        ),
    ],
    ids=["Ragnarok", "CommandsAndColors-Inland"],
)
def test_corpus_board(module: str, map_name: str, board: str | None, hexes: int, palette: str, tmp_path: Path) -> None:
    need_corpus()
    path = CORPUS / module
    (tmp_path / "p.toml").write_text(palette, encoding="utf-8")
    out = tmp_path / "t.csv"
    start = time.perf_counter()
    s = sample_module(str(path), map_name, str(tmp_path / "p.toml"), str(out), board)
    png = preview_png(s)
    assert time.perf_counter() - start < 15  # a few seconds with the preview; generous for slow CI
    lay = s.layout
    assert len(s.hexes) == len(lay.hexes()) == hexes
    voc = TerrainVocabulary(
        terrain=frozenset(c.name for c in s.palette.terrain), features=frozenset(f.name for f in s.palette.features)
    )
    back = read_terrain_on(lay, out.read_text(encoding="utf-8"), path=str(out), vocabulary=voc)
    assert back == s.terrain and set(back.hexes()) == set(lay.hexes())
    with Image.open(io.BytesIO(png)) as picture:
        assert picture.size == (lay.board.width, lay.board.height)


def test_ragnarok_sees_its_road_and_forest(tmp_path: Path) -> None:
    need_corpus()
    # Not a reading of the map, only a check that the colours mean something: the big
    # forest in the north-west, open plain in the middle, and a road and a river somewhere.
    (tmp_path / "p.toml").write_text(RAGNAROK, encoding="utf-8")
    s = sample_module(
        str(CORPUS / "Ragnarok/Ragnarok.vmod"), "Main Map", str(tmp_path / "p.toml"), str(tmp_path / "t.csv")
    )
    lay = s.layout
    assert s.hexes[lay.require("0107")].terrain == "forest"
    assert s.hexes[lay.require("1012")].terrain == "clear"
    assert s.terrain.sides_with("road") and s.terrain.sides_with("river")
    assert all(hx.distance(side.a, side.b) == 1 for side in s.terrain.sides_with("road"))


# -- the palette ------------------------------------------------------------------------------
@pytest.mark.parametrize(
    "data, message",
    [
        ({}, "p.toml: terrain: missing"),
        ({"terrain": {"clear": {}}}, "p.toml: terrain.clear.colours: missing"),
        (
            {"terrain": {"clear": {"colors": [[1, 2, 3]]}}},
            "terrain.clear.colors: unknown key (known: colours); did you mean 'colours'?",
        ),
        ({"terrain": {"clear": {"colours": [[1, 2, 300]]}}}, "terrain.clear.colours[0]: bad colour [1, 2, 300]"),
        ({"terrain": {"clear": {"colours": ["#12345"]}}}, "terrain.clear.colours[0]: bad colour '#12345'"),
        ({"terrain": {"open ground": {"colours": ["#123456"]}}}, "terrain.open ground: bad name"),
        ({"terrain": {"a": {"colours": ["#123456"]}}, "radius": 2}, "radius: must be a number from 0.05 to 1"),
        (
            {"terrain": {"a": {"colours": ["#123456"]}}, "features": {"a": {"colours": ["#123456"]}}},
            "features.a: is also a terrain type",
        ),
        (
            {"terrain": {"a": {"colours": ["#123456"]}}, "features": {"r": {"colours": ["#123456"], "kind": "x"}}},
            "features.r.kind: must be one of crossing, edge",
        ),
        (
            {"terrain": {"a": {"colours": ["#123456"]}}, "ignore": {"colours": []}},
            "ignore.colours: needs a non-empty list",
        ),
    ],
)
def test_palette_errors_name_the_file_and_the_key(data: dict, message: str) -> None:
    with pytest.raises(PackError) as e:
        palette_from_dict(data, "p.toml")
    assert message in str(e.value)


def test_palette_defaults_and_shorthand() -> None:
    p = palette_from_dict({"terrain": {"clear": {"colours": [232, 220, 188]}}}, "p.toml")
    assert p.terrain[0].colours == ((232, 220, 188),)
    assert (p.radius, p.min_confidence) == (0.6, 0.6)


# -- the command line -------------------------------------------------------------------------
def run(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(main, list(args))
    return result.exit_code, result.output


def test_cli_writes_the_file_and_reports(drawn: tuple[Path, Path], tmp_path: Path) -> None:
    module, palette = drawn
    code, out = run("terrain", "sample", str(module), "--palette", str(palette), "-o", str(tmp_path / "t.csv"))
    assert code == 0, out
    assert "sampled 63 hexes on board 'Test'" in out and "0 hex(es) below confidence 0.60" in out
    code, out = run(
        "terrain", "sample", str(module), "--palette", str(palette), "-o", str(tmp_path / "u.csv"), "--json"
    )
    assert code == 0 and '"schema_version"' in out and '"road": 8' in out
    preview = tmp_path / "p.png"
    code, out = run(
        "terrain",
        "sample",
        str(module),
        "--palette",
        str(palette),
        "-o",
        str(tmp_path / "v.csv"),
        "--preview",
        str(preview),
    )
    assert code == 0 and f"and {preview}" in out
    with Image.open(preview) as picture:
        assert picture.size == (WIDTH, HEIGHT)
    code, out = run(
        "terrain",
        "sample",
        str(module),
        "--palette",
        str(palette),
        "-o",
        str(tmp_path / "w.csv"),
        "--preview",
        str(palette),
    )
    assert code == 2 and "the file exists" in out
    assert palette.read_text(encoding="utf-8") == PALETTE


@pytest.mark.parametrize("option", ["-o", "--preview"])
def test_cli_never_replaces_an_existing_file(drawn: tuple[Path, Path], tmp_path: Path, option: str) -> None:
    # A terrain file an author corrected by hand is not lost to a new draft (reliability r14).
    module, palette = drawn
    precious = tmp_path / "precious.csv"
    precious.write_text("my hand-corrected terrain file\n", encoding="utf-8")
    outputs = {"-o": str(tmp_path / "new.csv"), "--preview": str(tmp_path / "new.png"), option: str(precious)}
    code, out = run(
        "terrain", "sample", str(module), "--palette", str(palette), *[x for kv in outputs.items() for x in kv]
    )
    assert code == 2 and "the file exists" in out
    assert precious.read_text(encoding="utf-8") == "my hand-corrected terrain file\n"
    assert not (tmp_path / "new.csv").exists()


def test_cli_help_has_an_example() -> None:
    code, out = run("terrain", "sample", "--help")
    assert code == 0 and "Example:" in out and "--palette" in out and "--preview" in out
    code, out = run("terrain", "--help")
    assert code == 0 and "sample" in out


def test_cli_errors_exit_2(drawn: tuple[Path, Path], tmp_path: Path) -> None:
    module, palette = drawn
    out = str(tmp_path / "t.csv")
    bad = tmp_path / "bad.toml"
    bad.write_text("[terrain.clear]\ncolors = [[1, 2, 3]]\n", encoding="utf-8")
    code, text = run("terrain", "sample", str(module), "--palette", str(bad), "-o", out)
    assert code == 2 and "bad.toml: terrain.clear.colors: unknown key" in text
    bad.write_text("[terrain.clear\n", encoding="utf-8")
    code, text = run("terrain", "sample", str(module), "--palette", str(bad), "-o", out)
    assert code == 2 and "not valid TOML" in text
    code, text = run("terrain", "sample", str(module), "--palette", str(tmp_path / "none.toml"), "-o", out)
    assert code == 2 and "palette file not found" in text
    code, text = run("terrain", "sample", str(module), "--map", "Nowhere", "--palette", str(palette), "-o", out)
    assert code == 2 and "no map 'Nowhere'" in text
    code, text = run("terrain", "sample", str(module), "--board", "Other", "--palette", str(palette), "-o", out)
    assert code == 2 and "no board 'Other'" in text
    missing = write_module(tmp_path / "NoImage.vmod", None)
    code, text = run("terrain", "sample", str(missing), "--palette", str(palette), "-o", out)
    assert code == 2 and "board 'Test' uses image 'board.jpg'" in text and "images/board.jpg" in text
    code, text = run("terrain", "sample", str(module), "--palette", str(palette), "-o", str(palette))
    assert code == 2 and "the file exists" in text
    assert palette.read_text(encoding="utf-8") == PALETTE


def test_example_palette_finds_the_six_places(tmp_path: Path) -> None:
    repo = Path(__file__).resolve().parents[1]
    s = sample_module(
        str(repo / "modules/kasserine/example/Kasserine.vmod"),
        "Main Map",
        str(repo / "modules/kasserine/palette.toml"),
        str(tmp_path / "t.csv"),
    )
    towns = sorted(s.layout.label_of(h) for h, g in s.hexes.items() if g.terrain == "town")
    assert towns == ["0306", "0312", "1319", "1704", "2706", "2714"]
    assert not s.low()
