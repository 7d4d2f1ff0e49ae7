"""`terrain sample --compare T`: the sampling's accuracy against a reference terrain, per terrain
type and per hexside feature, printed as a table, and the disagreements marked on the preview.

The hand-made case: the drawn board of tests/test_terrain_sample.py, which the sampling reads
exactly (63 hexes, 21 each of clear, forest and rough; a road along ROAD_PATH; four stream
hexsides; 158 hexsides between labelled hexes), against a reference that differs from the
drawing in known places:

- 0505 (drawn clear) is written forest; 0102 (drawn rough) is "rough town"; 0103 is left out;
- the road stops at 0805 (the drawn road goes on to 0905); 0101/0102 is a stream hexside
  (none drawn there); the stream hexside 0206/0306 also has a bridge.

Worked by hand: 62 hexes compared (0103 has no terrain in the reference), 61 right (0102's
"rough" is one of "rough town"; 0505 is wrong). clear: reference 20, found 20, extra 1 (0505);
forest: reference 21 (20 drawn + 0505), found 20, missed 1; rough 21 of 21; town: reference
1, missed 1. Hexsides: 158 compared, 155 right (0805/0905, 0101/0102, 0206/0306 differ); road
7 found, 1 extra; stream 4 of 5 found; bridge 0 of 1.
"""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest
from conftest import CORPUS, need_corpus
from PIL import Image
from test_terrain_sample import PALETTE, RAGNAROK, draw_board, expected_terrain

from vassal_adj.cli import main
from vassal_adj.errors import VassalAdjError
from vassal_adj.report.terrain_preview import DIFFERS, preview_png
from vassal_adj.terrain_accuracy import Tally, accuracy_table
from vassal_adj.terrain_sample import sample_module

REFERENCE_CHANGES = {"0505": "forest", "0102": "rough town"}
OUT_OF_REFERENCE = "0103"
REFERENCE_SIDES = """\
path,0102 0202 0303 0403 0504 0604 0705 0805,road
hexside,0206/0306 0306/0307 0307/0407 0506/0507 0101/0102,stream
hexside,0206/0306,bridge
"""


def reference_text(labels: list[str]) -> str:
    lines = [
        f"hex,{lab},{REFERENCE_CHANGES.get(lab, expected_terrain(lab))}" for lab in labels if lab != OUT_OF_REFERENCE
    ]
    return "\n".join(["# the drawn board's terrain, changed in known places", *lines, REFERENCE_SIDES])


@pytest.fixture
def case(tmp_path: Path) -> tuple[Path, Path, Path]:
    palette = tmp_path / "palette.toml"
    palette.write_text(PALETTE, encoding="utf-8")
    module = draw_board(tmp_path)
    labels = [f"{c:02d}{r:02d}" for c in range(1, 10) for r in range(1, 8)]
    reference = tmp_path / "reference.csv"
    reference.write_text(reference_text(labels), encoding="utf-8")
    return module, palette, reference


def test_accuracy_per_terrain_type_and_feature(case: tuple[Path, Path, Path], tmp_path: Path) -> None:
    module, palette, reference = case
    s = sample_module(str(module), "Main Map", str(palette), str(tmp_path / "draft.csv"), reference=str(reference))
    a = s.accuracy
    assert a is not None
    assert (a.hexes, a.hexes_right, a.unlisted) == (62, 61, 1)
    assert a.terrain == (
        Tally("clear", 20, 20, 1),
        Tally("forest", 21, 20, 0),
        Tally("rough", 21, 21, 0),
        Tally("town", 1, 0, 0),
    )
    assert (a.sides, a.sides_right) == (158, 155)
    assert a.features == (Tally("bridge", 1, 0, 0), Tally("road", 7, 7, 1), Tally("stream", 5, 4, 0))
    lay = s.layout
    assert {lay.label_of(h) for h in a.wrong_hexes} == {"0505"}
    assert {lay.hexside_name(x) for x in a.wrong_sides} == {
        lay.hexside_name(lay.hexside(p)) for p in (("0805", "0905"), ("0101", "0102"), ("0206", "0306"))
    }
    assert accuracy_table(a) == [
        f"against {reference}: hexes 61/62 right (98.4%), 1 with no terrain in the reference not compared; "
        "hexsides 155/158 right (98.1%)",
        "  terrain  reference  found  missed  extra",
        "  clear           20     20       0      1",
        "  forest          21     20       1      0",
        "  rough           21     21       0      0",
        "  town             1      0       1      0",
        "  feature  reference  found  missed  extra",
        "  bridge           1      0       1      0",
        "  road             7      7       0      1",
        "  stream           5      4       1      0",
    ]


def test_the_preview_marks_the_disagreements(case: tuple[Path, Path, Path], tmp_path: Path) -> None:
    """A cyan ring at the midpoint of each hexside that differs, a cyan outline in each hex that
    differs; none where the two agree."""
    module, palette, reference = case
    s = sample_module(str(module), "Main Map", str(palette), str(tmp_path / "draft.csv"), reference=str(reference))
    lay = s.layout
    with Image.open(io.BytesIO(preview_png(s))) as picture:
        rgb = picture.convert("RGB")

    def cyan_near(x: float, y: float, r: float) -> bool:
        pts = [(round(x + dx), round(y + dy)) for dx in range(-int(r), int(r) + 1) for dy in range(-int(r), int(r) + 1)]
        return any(rgb.getpixel(p) == DIFFERS for p in pts if 0 <= p[0] < rgb.width and 0 <= p[1] < rgb.height)

    def midpoint(a: str, b: str) -> tuple[float, float]:
        (ax, ay), (bx, by) = lay.center(a), lay.center(b)
        return (ax + bx) / 2, (ay + by) / 2

    apothem = 30  # DY / 2 of the drawn board
    ring = apothem * 0.3
    mx, my = midpoint("0805", "0905")
    assert cyan_near(mx + ring, my, 3) and cyan_near(mx - ring, my, 3)
    mx, my = midpoint("0404", "0405")  # no difference there
    assert not cyan_near(mx, my, ring + 3)
    cx, cy = lay.center("0505")
    assert cyan_near(cx, cy + apothem * 0.8, 3)  # the outline, inside the hex
    assert not cyan_near(cx, cy, apothem * 0.4)
    cx, cy = lay.center("0707")
    assert not cyan_near(cx, cy, apothem)


def test_cli_prints_the_table_and_json(case: tuple[Path, Path, Path], tmp_path: Path) -> None:
    from click.testing import CliRunner

    module, palette, reference = case
    before = reference.read_bytes()
    args = ["terrain", "sample", str(module), "--map", "Main Map", "--palette", str(palette)]
    args += ["--compare", str(reference)]
    result = CliRunner().invoke(main, [*args, "-o", str(tmp_path / "a.csv"), "--preview", str(tmp_path / "a.png")])
    assert result.exit_code == 0, result.output
    assert "hexes 61/62 right (98.4%)" in result.output
    assert "  road             7      7       0      1" in result.output
    result = CliRunner().invoke(main, [*args, "-o", str(tmp_path / "b.csv"), "--json"])
    data = json.loads(result.output)["compare"]
    assert data["hexes_right"] == 61 and data["features"]["stream"] == {
        "reference": 5,
        "found": 4,
        "missed": 1,
        "extra": 0,
    }
    # the reference is an input: never the output
    result = CliRunner().invoke(main, [*args, "-o", str(reference)])
    assert result.exit_code == 2 and reference.read_bytes() == before


def test_a_reference_that_does_not_read_names_the_file_and_line(case: tuple[Path, Path, Path], tmp_path: Path) -> None:
    module, palette, reference = case
    reference.write_text("hex,0101,clear\nhex,9999,clear\n", encoding="utf-8")
    with pytest.raises(VassalAdjError) as e:
        sample_module(str(module), "Main Map", str(palette), str(tmp_path / "c.csv"), reference=str(reference))
    assert e.value.where is not None and e.value.where.path == str(reference) and e.value.where.line == 2
    assert not (tmp_path / "c.csv").exists()  # nothing written


def test_kasserine_example_board_against_its_terrain_file(tmp_path: Path) -> None:
    """The example board is drawn from modules/kasserine/terrain.csv: every hex comes back
    right. Of the 2913 hexsides, 8 differ, each for a reason one can see on the board: the six
    bridges (the palette has no bridge colour: a bridge is a tick across the stream), 1319/1320
    where a trail runs under the road (the road's colour covers it), and 0125/0126, where the
    board's legend draws a road sample over the map."""
    kasserine = Path(__file__).resolve().parents[1] / "modules" / "kasserine"
    s = sample_module(
        str(kasserine / "example" / "Kasserine.vmod"),
        "Main Map",
        str(kasserine / "palette.toml"),
        str(tmp_path / "draft.csv"),
        reference=str(kasserine / "terrain.csv"),
    )
    a = s.accuracy
    assert a is not None
    assert (a.hexes, a.hexes_right, a.unlisted) == (1014, 1014, 0)
    assert (a.sides, a.sides_right) == (2913, 2905)
    tallies = {t.name: (t.reference, t.found, t.extra) for t in a.features}
    assert tallies == {"bridge": (6, 0, 0), "road": (155, 155, 1), "stream": (116, 116, 0), "trail": (78, 77, 0)}
    lay = s.layout
    assert {lay.hexside_name(x) for x in a.wrong_sides} == {
        lay.hexside_name(lay.hexside(p))
        for p in (
            ("1816", "1916"),
            ("1813", "1914"),
            ("3016", "3117"),
            ("2004", "2104"),
            ("1710", "1711"),
            ("2816", "2817"),
            ("1319", "1320"),
            ("0125", "0126"),
        )
    }


def test_corpus_board_against_its_own_draft_corrected_in_one_hex(tmp_path: Path) -> None:
    """On a real board (Ragnarok: 467 hexes, its own labels), a draft compared with itself is all
    right; with one hex corrected by hand (1012, open plain, written forest) exactly that hex differs."""
    need_corpus()
    module, palette = str(CORPUS / "Ragnarok/Ragnarok.vmod"), tmp_path / "p.toml"
    palette.write_text(RAGNAROK, encoding="utf-8")
    draft = tmp_path / "draft.csv"
    first = sample_module(module, "Main Map", str(palette), str(draft))
    assert first.hexes[first.layout.require("1012")].terrain == "clear"
    corrected = tmp_path / "corrected.csv"
    text = draft.read_text(encoding="utf-8")
    assert "\nhex,1012,clear\n" in text
    corrected.write_text(text.replace("\nhex,1012,clear\n", "\nhex,1012,forest\n"), encoding="utf-8")
    s = sample_module(module, "Main Map", str(palette), str(tmp_path / "again.csv"), reference=str(corrected))
    a = s.accuracy
    assert a is not None
    assert (a.hexes, a.hexes_right, a.sides, a.sides_right) == (467, 466, a.sides, a.sides)
    assert {s.layout.label_of(h) for h in a.wrong_hexes} == {"1012"}
    clear = next(t for t in a.terrain if t.name == "clear")
    assert clear.extra == 1 and clear.missed == 0
