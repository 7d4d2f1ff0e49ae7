"""`verify --as SIDE`: nothing the other side's hidden pieces would reveal reaches any output.

A log on the Kasserine example holds three Axis pieces, one of each kind of concealment: a
Mask owned by the Axis side (side access), a Mask owned by the Axis player (per-player access,
the owner a password the roster maps to the side) and an Invisible piece owned by the Axis
player. Each moves, and the first changes a property. Seen as the Allies, the masked pieces
appear only by their masked name and the invisible one not at all; seen as the Axis, or by
the referee, everything shows. The Axis player's password never shows in any view.
"""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner
from conftest import REPO

import vassal_adj
from vassal_adj.cli import main
from vassal_adj.codec.obfuscation import Codec
from vassal_adj.model.geometry.maps import place_map
from vassal_adj.model.viewpoint import visibility
from vassal_adj.parse.commands import Node, encode, parse_stream
from vassal_adj.parse.tokens import join
from vassal_adj.savedgame import SavedGame

EXAMPLE = REPO / "modules" / "kasserine" / "example"
MODULE = EXAMPLE / "Kasserine.vmod"
PASSWORD = "axis-player-secret"
MASK = "obs;77,130;mask.gif;Mask;G;Axis unit;"
# Real names, a property value and hexes that appear nowhere else in the log.
SECRETS = ("Tiger Ambush", "Decoy Column", "Secret Minefield", "Strength9", "0520", "0521")


def piece(ident: str, types: list[str], states: list[str], x: int, y: int, name: str) -> str:
    type_text, state_text = f"piece;;;u.png;{name}", f"Main Map;{x};{y};0;0"
    for t, s in zip(reversed(types), reversed(states), strict=False):
        # A decorator chain nests: each trait holds the rest, TAB-encoded (spec 6.1).
        type_text, state_text = join([t, type_text], "\t"), join([s, state_text], "\t")
    return f"+/{ident}/{type_text}/{state_text}"


def hex_xy(label: str) -> tuple[int, int]:
    x, y = place_map(vassal_adj.load_module(MODULE).maps["Main Map"]).hex_center(label)
    return int(x), int(y)


def move(ident: str, frm: tuple[int, int], to: tuple[int, int]) -> Node:
    return Node(f"LOG\tM/{ident}/Main Map/{to[0]}/{to[1]}/null/Main Map/{frm[0]}/{frm[1]}/null/{PASSWORD}")


@pytest.fixture(scope="module")
def log_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    a, b, c, d = hex_xy("3010"), hex_xy("3011"), hex_xy("0520"), hex_xy("0521")
    e, f = hex_xy("3212"), hex_xy("3213")
    pieces = [
        piece("901", [MASK + "side:", "PROP;Strength;;;"], ["Axis;|0", "Strength9"], *a, "Tiger Ambush"),
        piece("902", [MASK + "player:"], [f"{PASSWORD};|0"], *e, "Decoy Column"),
        piece("903", ["hide;73,130;Hide;;player:"], [PASSWORD], *c, "Secret Minefield"),
    ]
    opening = [
        Node(""),
        Node("", [Node(p) for p in pieces]),
        Node(f"PLAYER\t{PASSWORD}\tAlice\tAxis"),
        Node("end_save"),
    ]
    changed = piece("901", [MASK + "side:", "PROP;Strength;;;"], ["Axis;|0", "Strength8"], *b, "Tiger Ambush")
    steps = [move("901", a, b), move("902", e, f), move("903", c, d), Node("LOG\tD/901/" + changed.split("/", 3)[3])]
    root = parse_stream(encode(Node("begin_save", [*opening, *steps])))
    out = tmp_path_factory.mktemp("view") / "hidden.vlog"
    SavedGame.new(encode(root), codec=Codec(obfuscated=True, key=0x2A)).write(out)
    return out


def verify(path: Path, *args: str) -> str:
    # --no-rules: these pieces are no Kasserine units and the log has no turn tracker to judge moves by
    result = CliRunner().invoke(main, ["verify", str(path), "--module", str(MODULE), "--no-rules", *args])
    assert result.exit_code == 0, result.output
    return result.output


@pytest.mark.parametrize("fmt", ["text", "markdown", "json", "html"])
def test_as_allied_nothing_of_the_axis_hidden_pieces_leaks(log_file: Path, fmt: str) -> None:
    # Image data is base64: a four-letter label could turn up in it by chance.
    out = re.sub(r"data:image/png;base64,[A-Za-z0-9+/=]+", "", verify(log_file, "--as", "Allied", "--format", fmt))
    for secret in (*SECRETS, PASSWORD):
        assert secret not in out, (secret, fmt)
    assert out.count("Axis unit") >= 2  # the two masked pieces' moves, by their masked name


@pytest.mark.parametrize("fmt", ["text", "markdown", "json"])
def test_the_owner_side_and_the_referee_see_everything(log_file: Path, fmt: str) -> None:
    for view in (["--as", "Axis"], []):
        out = verify(log_file, *view, "--format", fmt)
        assert PASSWORD not in out
        for secret in SECRETS:
            assert secret in out, (secret, view, fmt)


def test_json_says_whose_view_it_is(log_file: Path) -> None:
    data = json.loads(verify(log_file, "--as", "Allied", "--format", "json"))
    assert (data["as_side"], data["referee_view"], data["hidden_pieces_shown"]) == ("Allied", False, 0)
    moves = [e for f in data["files"] for s in f["steps"] for e in s["events"] if e["kind"] == "move"]
    assert len(moves) == 2 and {m["name"] for m in moves} == {"Axis unit"}
    assert json.loads(verify(log_file, "--format", "json"))["referee_view"] is True


def test_an_unknown_side_is_a_usage_error(log_file: Path) -> None:
    result = CliRunner().invoke(main, ["verify", str(log_file), "--module", str(MODULE), "--as", "Axsi"])
    assert result.exit_code == 2 and "Axis, Allied" in result.output or "Allied, Axis" in result.output


def test_visibility_rules() -> None:
    assert visibility(None, (), "Allied") == "full"
    assert visibility("masked", ("Axis",), "Axis") == "full"
    assert visibility("masked", ("Axis",), "Allied") == "masked"
    assert visibility("masked+invisible", ("Axis",), "Allied") == "hidden"
    assert visibility("invisible", (), "Axis") == "hidden"  # an owner nobody can tell: hidden from all


def test_units_the_pack_hides_are_disguised_from_the_other_side(tmp_path: Path) -> None:
    # A pack that hides the Axis 1-2-9 (Lang) from the Allies, as No Question of Surrender S4.3 hides
    # which AT-gun markers are real: the Allied view names it only "Axis hidden unit"; chat lines
    # stay (every player saw them in VASSAL).
    pack = tmp_path / "pack"
    shutil.copytree(REPO / "modules" / "kasserine", pack, ignore=shutil.ignore_patterns("example"))
    with (pack / "units.toml").open("a", encoding="utf-8") as f:
        f.write('\n[[group]]\nmatch = { designation = "Lang" }\nflags = ["hidden"]\n')
    log = EXAMPLE / "turn4-axis.vlog"

    def events(*view: str) -> list[dict]:
        result = CliRunner().invoke(
            main, ["verify", str(log), "--module", str(MODULE), "--pack", str(pack), "--format", "json", *view]
        )
        assert result.exit_code == 1, result.output  # the log's faults are errors
        data = json.loads(result.output)
        return [e for f in data["files"] for s in f["steps"] for e in s["events"] if e["kind"] != "chat"]

    allied = [e for e in events("--as", "Allied") if "Lang" in json.dumps(e) or e.get("name") == "Axis hidden unit"]
    assert allied and all(e["name"] == "Axis hidden unit" and "Lang" not in json.dumps(e) for e in allied)
    assert any(e.get("name") == "1-2-9 (Lang)" for e in events("--as", "Axis"))
    assert any(e.get("name") == "1-2-9 (Lang)" for e in events())


def test_the_referee_html_says_hidden_pieces_are_shown(log_file: Path) -> None:
    assert "hidden pieces shown: " in verify(log_file, "--format", "html")
    assert "hidden pieces shown" not in verify(log_file, "--as", "Allied", "--format", "html")
