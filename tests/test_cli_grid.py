"""`vassal-adj grid`, `where` and `hex` through click's CliRunner."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner
from conftest import CORPUS, REPO, SPEC

from vassal_adj.cli import main

KASSERINE = REPO / "modules" / "kasserine" / "example" / "Kasserine.vmod"
CCN = CORPUS / "CommandsAndColorsNapoleonics"


def _grids() -> list[dict]:
    try:
        return json.loads((SPEC / "oracle-labels.json").read_text(encoding="utf-8"))["grids"]
    except OSError:
        return []


GRIDS = {g["id"]: g for g in _grids()}


def run(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(main, [str(a) for a in args])
    return result.exit_code, result.stdout, result.stderr


def _kasserine() -> str:
    if not KASSERINE.is_file():
        pytest.skip("Kasserine example module not built")
    return str(KASSERINE)


def _layout_args(g: dict) -> list[str]:
    """Lay the map out as the oracle did (read its map_layout)."""
    layout = g["map_layout"]
    if g["module"] == "CommandsAndColorsNapoleonics":
        return ["--save", str(CCN / "B00 - Standard Map empty.vsav")]
    if len(layout["boards"]) == 1:
        return ["--board", layout["boards"][0]["board"]]
    raise AssertionError(layout)


@pytest.mark.parametrize("gid", [g for g in GRIDS if not g.startswith("ViveLEmpereur")])
def test_where_agrees_with_the_engine(gid: str) -> None:
    # (Vive l'Empereur is left out: its board image is missing from the corpus, so the board
    # is 0x0 here while the oracle assumed 2640x2040; test_hexgrid covers its labels.)
    g = GRIDS[gid]
    module = sorted((CORPUS / g["module"]).glob("*.vmod"))
    if not module:
        pytest.skip("corpus module missing")
    block = g["pixel_to_name"]
    sample = [dict(zip(block["columns"], r, strict=True)) for r in block["rows"]][::25]
    ox, oy = g["map_layout"]["board_origin_in_map"]
    for r in sample:
        assert (r["mx"], r["my"]) == (r["bx"] + ox, r["by"] + oy)  # as the oracle header says
        code, out, err = run(
            "where", module[0], str(r["mx"]), str(r["my"]), "--map", g["map"], *_layout_args(g), "--json"
        )
        assert code == 0, err
        data = json.loads(out)
        want = r["map_name"]
        assert (data["label"] or "offboard") == want, (r, data)
        if data["board"] == g["board"]:
            assert data["board_xy"] == [r["bx"], r["by"]]
            assert data["zone"] == r["zone"]


def test_where_text_and_board_coordinates() -> None:
    k = _kasserine()
    code, out, _ = run("where", k, "140", "688")
    assert code == 0 and out.startswith("0312  (board 'Kasserine' pixel 140,688")
    code, out, _ = run("where", k, "140", "688", "--board-coords", "--json")
    assert json.loads(out)["label"] == "0312"
    code, out, _ = run("where", k, "5000", "5")
    assert code == 0 and out.startswith("offboard")


def test_hex_neighbours_on_kasserine() -> None:
    code, out, _ = run("hex", _kasserine(), "0312", "--json")
    assert code == 0
    data = json.loads(out)
    assert data["center"] == [140, 688]
    got = {n["direction"]: n["label"] for n in data["neighbors"]}
    assert sorted(got.values()) == ["0211", "0212", "0311", "0313", "0411", "0412"]
    assert got == {"N": "0311", "NE": "0411", "SE": "0412", "S": "0313", "SW": "0212", "NW": "0211"}
    # By hand from the centres: columns 52 px apart, even-numbered columns 30 px lower.
    centres = {n["label"]: tuple(n["center"]) for n in data["neighbors"]}
    assert centres["0411"] == (192, 658) and centres["0211"] == (88, 658)
    assert centres["0311"] == (140, 628) and centres["0313"] == (140, 748)
    code, out, _ = run("hex", _kasserine(), "0101")
    assert code == 0 and "N  off the map" in out and "NE off the map" in out and "SE 0201" in out


def test_grid_in_words() -> None:
    code, out, _ = run("grid", _kasserine())
    assert code == 0
    assert "hex grid on board 'Kasserine': 1014 hexes, labels 0101 to 3926" in out
    assert "columns: 2-digit numbers 01 to 39 (39), left to right" in out
    assert "column 02 sits half a hex lower than column 01" in out
    code, out, _ = run("grid", _kasserine(), "--json")
    assert json.loads(out)["hex_grids"][0]["columns"]["count"] == 39


def test_grid_on_corpus_modules() -> None:
    ccn = sorted(CCN.glob("*.vmod"))
    if not ccn:
        pytest.skip("corpus missing")
    code, out, _ = run("grid", ccn[0])
    assert code == 0 and "letters A to I (9), bottom to top (descending numbering)" in out
    for name in ("Kassala", "Dreadball"):
        code, out, _ = run("grid", min((CORPUS / name).glob("*.vmod")))
        assert code == 0 and "no numbering" in out
    code, out, _ = run("grid", min((CORPUS / "VassalTestPredefinedSetups").glob("*.vmod")))
    assert code == 2 and "no map with a grid" in _


@pytest.mark.parametrize(
    "args, message",
    [
        (["hex", "K", "9999"], "no hex '9999' on map 'Main Map' (hexes: 0101 to 3926"),
        (["hex", "K", "0312", "--map", "Nope"], "no map 'Nope' in module 'Kasserine'; maps: 'Main Map'"),
        (["where", "K", "1", "1", "--board", "Nope"], "no board 'Nope' (boards: 'Kasserine')"),
    ],
)
def test_usage_errors_exit_2(args: list[str], message: str) -> None:
    args = [_kasserine() if a == "K" else a for a in args]
    code, out, err = run(*args)
    assert code == 2 and message in err and out == ""


def test_unplaced_map_and_unnumbered_grid_exit_2() -> None:
    ccn = sorted(CCN.glob("*.vmod"))
    kassala = sorted((CORPUS / "Kassala").glob("*.vmod"))
    if not ccn or not kassala:
        pytest.skip("corpus missing")
    code, _, err = run("where", ccn[0], "10", "10")
    assert code == 2 and "no default board layout" in err and "'Inland', 'Side Board'" in err
    code, _, err = run("hex", kassala[0], "0101")
    assert code == 2 and "no numbered hex grid" in err


@pytest.mark.parametrize("command", ["grid", "where", "hex"])
def test_help_has_examples(command: str) -> None:
    code, out, _ = run(command, "--help")
    assert code == 0 and "Example:" in out and f"vassal-adj {command} " in out and "--format json" in out
