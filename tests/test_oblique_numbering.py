"""Oblique hex numbering (VASSAL 3.8's ObliqueHexGridNumbering, VASSAL-FORMATS.md 8.3 and pitfall 5):
read from a module, named as VASSAL 3.8 names (the slant added after descend and stagger), and a
label taken back to the hex VASSAL shows it on, as on the printed map: the slant is undone, where
VASSAL's own getLocation does not undo it (docs/grids.md). Both directions, worked by hand.

The grid is the spec's vector H7 (dx 55.4256, dy 64, origin (0, 32), board 1000 x 800).
"""

from __future__ import annotations

import json
import zipfile
from pathlib import Path

import pytest
from click.testing import CliRunner
from conftest import SPEC, need_corpus

import vassal_adj
from vassal_adj import cli
from vassal_adj.model.geometry.layout import HexLayout
from vassal_adj.model.geometry.maps import module_map

DX = 55.42562584220407
P = "VASSAL.build.module.map.boardPicker.board."


def _module(tmp_path: Path, stagger: bool, extra: str = "") -> Path:
    build = f"""<?xml version="1.0" encoding="UTF-8" standalone="no"?>
<VASSAL.build.GameModule name="Slanted" version="1.0" VassalVersion="3.8.0">
  <VASSAL.build.module.Map mapName="Main Map" edgeHeight="0" edgeWidth="0">
    <VASSAL.build.module.map.BoardPicker>
      <VASSAL.build.module.map.boardPicker.Board name="Test" width="1000" height="800">
        <{P}HexGrid dx="{DX}" dy="64" x0="0" y0="32" sideways="false" snapTo="true">
          <{P}mapgrid.ObliqueHexGridNumbering first="H" sep="" hType="N" vType="N" hLeading="1"
              vLeading="1" hOff="1" vOff="1" stagger="{str(stagger).lower()}" {extra}
              locationFormat="$gridLocation$"/>
        </{P}HexGrid>
      </VASSAL.build.module.map.boardPicker.Board>
    </VASSAL.build.module.map.BoardPicker>
  </VASSAL.build.module.Map>
</VASSAL.build.GameModule>
"""
    path = tmp_path / f"slanted-{stagger}{'-' + str(len(extra)) if extra else ''}.vmod"
    with zipfile.ZipFile(path, "w") as zf:
        zf.writestr("buildFile.xml", build)
        zf.writestr("moduledata", b'<?xml version="1.0"?><data version="1"><name>Slanted</name></data>')
    return path


def _run(*args: str) -> dict:
    result = CliRunner().invoke(cli.main, [*args, "--format", "json"])
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


def test_8_3_the_element_is_read_and_names_as_vassal_3_8(tmp_path: Path) -> None:
    grid = vassal_adj.load_module(_module(tmp_path, stagger=True)).maps["Main Map"].boards["Test"].grid
    assert grid is not None and grid.numbering is not None and grid.numbering.oblique
    path = SPEC / "vectors.json"
    if not path.is_file():
        need_corpus()
        pytest.skip(f"no {path}")
    config = next(
        c
        for c in json.loads(path.read_text(encoding="utf-8"))["hex_grid"]["configs"]
        if c["numbering_class"] == "ObliqueHexGridNumbering"
    )
    placed = module_map(vassal_adj.load_module(_module(tmp_path, stagger=True)), "Main Map")
    for case in config["cases"]:
        assert placed.location_name(*case["board_point"]) == case["location_name"], case


# Worked by hand (spec 8.3). Slant right (stagger true): (166, 64) is raw column 3, raw row
# round((64 - 32 - 32)/64) = 0; stagger, odd column: row 1; slant: row = 3 div 2 + 1 = 2 -> "0403".
# Back: "0403" is column 3, row 2; unslant: 2 - 3 div 2 = 1; unstagger: 0; x = int(3 dx) = 166,
# y = int(0 * 64 + 32) + 32 = 64. VASSAL's getLocation, not unslanting, gives y = int(1 * 64 + 32)
# + 32 = 128, the hex it names "0404" (row 1 + 1 = 2, slant 1 + 2 = 3).
# Slant left (stagger false): (55, 64) is raw column 1, row 0, no stagger; slant: row = 0 - 1 div 2
# + 1 = 1 -> "0202"; (0, 32): row 0 - 0 + 1 = 1 -> "0102". Back: "0202" -> row 1 + 0 - 1 = 0 -> (55, 64).
@pytest.mark.parametrize(
    ("stagger", "point", "label", "vassal_get_location"),
    [
        (True, (166, 64), "0403", ((166, 128), "0404")),
        (True, (221, 32), "0503", ((221, 160), "0505")),  # column 4: row 0 + 4 div 2 = 2
        (False, (55, 64), "0202", None),
        (False, (0, 32), "0102", ((0, 96), "0103")),  # VASSAL's getLocation keeps the "+ 1" of the slant
        (False, (221, 160), "0502", ((221, 96), "0501")),  # column 4, raw row 2: 2 - 2 + 1 = 1
    ],
)
def test_8_3_oblique_label_and_pixel_worked_by_hand(
    tmp_path: Path, stagger: bool, point: tuple[int, int], label: str, vassal_get_location: tuple | None
) -> None:
    placed = module_map(vassal_adj.load_module(_module(tmp_path, stagger)), "Main Map")
    assert placed.location_name(*point) == label
    assert placed.hex_center(label) == point
    if vassal_get_location is not None:  # where VASSAL 3.8 would send the label: another hex
        elsewhere, its_name = vassal_get_location
        assert elsewhere != point and placed.location_name(*elsewhere) == its_name != label


@pytest.mark.parametrize("stagger", [True, False])
@pytest.mark.parametrize("extra", ["", 'hDescend="true"', 'vDescend="true"'])
def test_8_3_every_hex_label_to_pixel_to_label_and_back(tmp_path: Path, stagger: bool, extra: str) -> None:
    board = vassal_adj.load_module(_module(tmp_path, stagger, extra)).maps["Main Map"].boards["Test"]
    layout = HexLayout(board.grid, board)  # type: ignore[arg-type]
    hexes = layout.hexes()
    assert len(hexes) > 200
    placed = module_map(vassal_adj.load_module(_module(tmp_path, stagger, extra)), "Main Map")
    labels = set()
    for h in hexes:
        centre = layout.center(h)
        label = placed.location_name(*centre)
        assert label is not None and placed.hex_center(label) == centre, (h, label)
        assert layout.label_of(h) == label and layout.hex_of(label) == h
        labels.add(label)
    assert len(labels) == len(hexes)  # one label per hex


def test_8_3_where_and_hex_commands_agree_on_an_oblique_grid(tmp_path: Path) -> None:
    module = str(_module(tmp_path, stagger=True))
    assert _run("where", module, "166", "64")["label"] == "0403"
    found = _run("hex", module, "0403")
    assert found["center"] == [166, 64]
    # Its neighbours, each a label `where` gives back at the pixel `hex` gives it.
    assert len(found["neighbors"]) == 6
    for n in found["neighbors"]:
        assert _run("where", module, *map(str, n["center"]))["label"] == n["label"]


@pytest.mark.parametrize(("stagger", "side"), [(True, "higher"), (False, "lower")])
def test_8_3_grid_in_words_says_rows_slant(tmp_path: Path, stagger: bool, side: str) -> None:
    # Row 01: slant right puts it at (0, 32) in column 01, (55, 0) in column 02, (110, -32) in column 03;
    # slant left at (0, -32), (55, 0), (110, 32) (its "+ 1" makes (0, 32) row 02): never alternating.
    result = CliRunner().invoke(cli.main, ["grid", str(_module(tmp_path, stagger))])
    assert result.exit_code == 0, result.output
    assert (
        f"for the same row number, each column sits half a hex {side} than the one before it "
        f"(VASSAL 3.8 oblique numbering)"
    ) in result.stdout
    assert "alternately" not in result.stdout


@pytest.mark.parametrize(
    ("stagger", "words"), [(True, "staggered, oblique, slant right"), (False, "not staggered, oblique, slant left")]
)
def test_8_3_inspect_names_the_oblique_numbering(tmp_path: Path, stagger: bool, words: str) -> None:
    result = CliRunner().invoke(cli.main, ["inspect", str(_module(tmp_path, stagger))])
    assert result.exit_code == 0, result.output
    assert f"numbering: columns numbers from 1, rows numbers from 1; {words} (VASSAL 3.8)" in result.stdout
    assert _run("inspect", str(_module(tmp_path, stagger)))["maps"][0]["boards"][0]["grid"]["numbering"]["oblique"]
