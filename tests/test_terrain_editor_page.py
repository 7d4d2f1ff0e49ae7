"""`vassal-adj terrain edit` without a browser: the grid the page carries, the page itself, and bad input.

The page's script looks hexes up, it never derives a label; so the grid data must be VASSAL's:
the real engine (../shared/tools/vassal-oracle, skipped when absent, failed under
REQUIRE_ORACLE=1) names every centre the page holds with the label the page gives it.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
from pathlib import Path

import pytest
from click.testing import CliRunner
from conftest import CORPUS, REPO, need_corpus

import vassal_adj
from vassal_adj.cli import main
from vassal_adj.errors import FormatError
from vassal_adj.model.geometry import hexes as hx
from vassal_adj.model.terrain import Place, TerrainMap, TerrainVocabulary
from vassal_adj.packs import load_pack
from vassal_adj.report.terrain_editor import doubtful_sides, editor_data, editor_html, low_confidence
from vassal_adj.terrain_sample import labelled_sides, pick_layout

PACK = REPO / "modules" / "kasserine"
MODULE = PACK / "example" / "Kasserine.vmod"
ORACLE = CORPUS.parent / "tools" / "vassal-oracle" / "vassal-oracle"
ORACLE_HOME = Path(os.environ.get("VASSAL_ORACLE_HOME", Path.home() / ".cache" / "vassal-oracle"))


def run(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(main, list(args))
    return result.exit_code, result.output


@pytest.fixture(scope="module")
def layout():
    return pick_layout(vassal_adj.load_module(MODULE).maps["Main Map"], None)


def test_the_page_holds_every_labelled_hex_its_centre_and_every_hexside(layout) -> None:
    data = editor_data(layout, TerrainMap(load_pack(PACK).pack.vocabulary))
    assert [h[0] for h in data["hexes"]] == layout.labels() and len(data["hexes"]) == 1014
    assert all(tuple(layout.center(lab)) == (x, y) for lab, x, y in data["hexes"])
    pairs = {frozenset((data["hexes"][a][0], data["hexes"][b][0])) for a, b in data["sides"]}
    assert len(pairs) == len(data["sides"]) == len(labelled_sides(layout))
    assert all(hx.distance(layout.require(a), layout.require(b)) == 1 for a, b in map(sorted, pairs))
    # Flat-topped hexes (not sideways): the corners lie a radius (2/3 dx) left and right of the centre.
    assert data["corners"][0] == [round(layout.grid.dx * 2 / 3, 3), 0.0]


def test_the_pack_terrain_is_carried_by_index(layout) -> None:
    tmap = load_pack(PACK).terrain(layout)
    data = editor_data(layout, tmap)
    label = [h[0] for h in data["hexes"]]
    terrain = {label[i]: ts for i, ts in data["terrain"]}
    assert terrain["1319"] == ["clear", "town"] and len(terrain) == 1014
    places = {p["name"]: [label[i] for i in p["hexes"]] for p in data["places"]}
    assert places["Thelepte"] == ["1319"] and places["Allied supply"][:3] == ["0107", "0106", "0105"]
    sides = {tuple(sorted(label[i] for i in data["sides"][s])): fs for s, fs in data["features"]}
    assert len(sides) == len(tmap.side_features)


def test_low_confidence_notes_are_read_from_the_bootstraps_comments() -> None:
    text = (
        "# sampled by 'vassal-adj terrain sample'\n"
        "hex,0312,rough  # low confidence 0.48: clear 0.41\n"
        "hex,0313,clear\n"
        "hex,0314,clear  # a note of the author's\n"
        "hexside,0312/0413,road  # weak: road 0.12 (check)\n"
        "HEX , 0315 , clear # Low confidence 0.00: no sample matched a terrain colour\r\n"
    )
    assert low_confidence(text) == {
        "0312": "low confidence 0.48: clear 0.41",
        "0315": "Low confidence 0.00: no sample matched a terrain colour",
    }


def test_doubtful_hexsides_are_read_from_the_bootstraps_comments(layout) -> None:
    text = (
        "hexside,0312/0412,road  # weak: road 0.12 (check)\n"
        "hexside,0312/0411,road\n"
        "# hexside,0507/0508,stream  # maybe: share 0.06 (min 0.10)\n"
        "# hexside,0101/0909,stream  # maybe: share 0.06 (min 0.10)\n"
    )
    doubts = doubtful_sides(text)
    assert doubts == [
        ("0312/0412", "weak: road 0.12 (check)", None),
        ("0507/0508", "maybe: share 0.06 (min 0.10)", "stream"),
        ("0101/0909", "maybe: share 0.06 (min 0.10)", "stream"),
    ]
    data = editor_data(layout, TerrainMap(TerrainVocabulary(frozenset({"clear"}), frozenset())), doubts=doubts)
    label = [h[0] for h in data["hexes"]]
    # 0101/0909 is no hexside (a comment the reader skips): the page skips it too
    assert [(sorted(label[i] for i in data["sides"][s]), note, f) for s, note, f in data["doubts"]] == [
        (["0312", "0412"], "weak: road 0.12 (check)", None),
        (["0507", "0508"], "maybe: share 0.06 (min 0.10)", "stream"),
    ]


def test_the_page_is_one_file_that_needs_no_network(layout) -> None:
    voc = TerrainVocabulary(frozenset({"clear"}), frozenset({"road"}))
    tricky = Place("</script><b>x", frozenset({"town"}), (layout.require("0101"),))
    data = editor_data(layout, TerrainMap(voc, named_places=(tricky,)), source={"module": "K.vmod"})
    page = editor_html(data, b"\x89PNG\r\n\x1a\n", "Terrain & <co>")  # the bytes as they are
    assert not re.search(r"""(src|href)\s*=\s*["']?(https?:|//)""", page)
    assert "<link" not in page and "@import" not in page and "fetch(" not in page
    assert '<img id="picture" alt="" hidden src="data:image/png;base64,' in page
    assert "<title>Terrain &amp; &lt;co&gt;</title>" in page
    payload = page.split('<script type="application/json" id="editor-data">')[1].split("</script>")[0]
    assert json.loads(payload)["places"][0]["name"] == "</script><b>x"  # kept whole, and not ending the script


def test_a_board_without_a_picture_still_gets_a_page(layout) -> None:
    page = editor_html(editor_data(layout, TerrainMap(TerrainVocabulary(frozenset({"clear"}), frozenset()))), None, "t")
    assert '<img id="picture" alt="" hidden src="">' in page


# -- the command line -------------------------------------------------------------------------
def test_cli_writes_the_page(tmp_path: Path) -> None:
    out = tmp_path / "editor.html"
    code, text = run("terrain", "edit", str(MODULE), "--pack", "kasserine", "-o", str(out))
    assert code == 0, text
    assert "1014 hexes of board 'Kasserine'" in text and "terrain.csv" in text
    page = out.read_text(encoding="utf-8")
    assert "data:image/png;base64," in page and "terrainEditor" in page


@pytest.mark.parametrize(
    "draft, message",
    [
        ("hex,0312,swamp\n", "draft.csv: line 1: unknown terrain type 'swamp' (known: clear, rough, town)"),
        ("hex,0101,clear\nhexside,0312/0512,road\n", "draft.csv: line 2: bad hexside '0312/0512'"),
        ("hex,4026,clear\n", "draft.csv: line 1: bad hex range '4026': '4026' is neither a hex on board 'Kasserine'"),
    ],
)
def test_cli_a_bad_draft_is_an_error_naming_the_line(tmp_path: Path, draft: str, message: str) -> None:
    path = tmp_path / "draft.csv"
    path.write_text(draft, encoding="utf-8")
    code, text = run(
        "terrain", "edit", str(MODULE), "--pack", "kasserine", "--terrain", str(path), "-o", str(tmp_path / "e.html")
    )
    assert code == 2 and message in text, text
    assert not (tmp_path / "e.html").exists() and path.read_text(encoding="utf-8") == draft


def test_cli_refuses_bad_input(tmp_path: Path) -> None:
    code, text = run("terrain", "edit", str(MODULE), "--pack", "kasserine", "-o", str(MODULE))
    assert code == 2 and "the file exists" in text
    code, text = run(
        "terrain",
        "edit",
        str(MODULE),
        "--pack",
        "kasserine",
        "--terrain",
        str(tmp_path / "no.csv"),
        "-o",
        str(tmp_path / "e.html"),
    )
    assert code == 2 and "no.csv: terrain file not found" in text
    code, text = run(
        "terrain", "edit", str(MODULE), "--pack", "kasserine", "--board", "Nowhere", "-o", str(tmp_path / "e.html")
    )
    assert code == 2 and "Nowhere" in text
    bare = tmp_path / "bare"
    bare.mkdir()
    (bare / "pack.toml").write_text(
        '[pack]\nformat = 1\nid = "bare"\nname = "Bare"\n[pack.module]\nname = "Kasserine.*"\n', encoding="utf-8"
    )
    code, text = run("terrain", "edit", str(MODULE), "--pack", str(bare), "-o", str(tmp_path / "e.html"))
    assert code == 2 and "names no terrain types" in text
    assert not (tmp_path / "e.html").exists()


def test_cli_help_has_an_example() -> None:
    code, text = run("terrain", "edit", "--help")
    assert code == 0 and "Example:" in text and "--terrain" in text and "--pack" in text
    code, text = run("terrain", "--help")
    assert code == 0 and "edit" in text


# -- the real engine --------------------------------------------------------------------------
def test_vassal_names_every_centre_the_page_holds_with_its_label(tmp_path: Path) -> None:
    """Ragnarok: a sideways grid inside a zone, the largest numbered board of the corpus (467 hexes)."""
    need_corpus()
    if not (ORACLE.exists() and (ORACLE_HOME / "oracle-env.json").exists()):
        if os.environ.get("REQUIRE_ORACLE") == "1":
            pytest.fail(f"vassal-oracle not set up (run {ORACLE.parent}/setup.sh)")
        pytest.skip("vassal-oracle not set up")
    module = CORPUS / "Ragnarok/Ragnarok.vmod"
    lay = pick_layout(vassal_adj.load_module(module).maps["Main Map"], None)
    data = editor_data(lay, TerrainMap(TerrainVocabulary(frozenset({"clear"}), frozenset())))
    points = tmp_path / "points.json"
    points.write_text(json.dumps([[x, y] for _, x, y in data["hexes"]]), encoding="utf-8")
    done = subprocess.run(
        [str(ORACLE), "labels", str(module), "--map", "Main Map", "--board", lay.board.name, "--points", str(points)],
        capture_output=True,
        text=True,
        timeout=300,
    )
    result = json.loads(done.stdout)
    assert done.returncode == 0 and result["ok"], result.get("error")
    named = [(p["location"], p["x"], p["y"]) for p in result["result"]["points"]]
    assert named == [tuple(h) for h in data["hexes"]] and len(named) == 467


def test_the_picture_keeps_its_format_or_is_refused_naming_it(layout) -> None:
    data = editor_data(layout, TerrainMap(TerrainVocabulary(frozenset({"clear"}), frozenset())))
    svg = b'<?xml version="1.0"?>\n<svg xmlns="http://www.w3.org/2000/svg" width="9" height="9"/>'
    assert 'src="data:image/svg+xml;base64,' in editor_html(data, svg, "t")
    with pytest.raises(FormatError, match=r"K\.vmod!images/map\.png: cannot read the board picture"):
        editor_html(data, b"not a picture", "t", "K.vmod!images/map.png")
