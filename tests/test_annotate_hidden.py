"""`check --as SIDE` and annotated saves never give hidden pieces away (reliability r13).

An annotated copy is opened by every player: a marker named after a masked or invisible unit,
placed in its hex, or a chat line citing it, tells the other side what and where it is. A
player's report (`check --as SIDE`) leaves out findings about what that side may not see.
"""

from __future__ import annotations

from functools import partial
from pathlib import Path

import pytest
from click.testing import CliRunner
from conftest import REPO

import vassal_adj
from vassal_adj.cli import main
from vassal_adj.cli.hiding import withheld
from vassal_adj.codec.obfuscation import Codec
from vassal_adj.parse.commands import Node, encode
from vassal_adj.report.annotate import annotate
from vassal_adj.rules.results import Finding, Severity
from vassal_adj.savedgame import SavedGame

EXAMPLE = REPO / "modules" / "kasserine" / "example"
MODULE = str(EXAMPLE / "Kasserine.vmod")
TAB = "\t"
NAME = "Secret Minefield"  # in no finding of the example's set-up: only this piece can bring it in


@pytest.fixture(scope="module")
def hidden_save(tmp_path_factory: pytest.TempPathFactory) -> Path:
    # An invisible piece (Invisible trait, access by side) the Axis player hides at 0520; every
    # Kasserine unit of the set-up is missing, so the pack has findings to annotate, and this
    # piece, which the pack cannot make a unit of, is one of them.
    piece = f"+/7770003/hide;73,130;Hide;;side:{TAB}piece;;;u.png;{NAME}/Axis{TAB}Main Map;244;1228;0;0"
    root = Node("begin_save", [Node(""), Node("", [Node(piece)]), Node("PLAYER\tpw1\tAlice\tAxis"), Node("end_save")])
    out = tmp_path_factory.mktemp("hidden") / "hidden.vsav"
    SavedGame.new(encode(root), codec=Codec(obfuscated=True, key=0x2A)).write(out)
    return out


def run(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(main, list(args))
    assert result.exit_code in (0, 1), result.output
    return result.exit_code, result.stdout


def added_text(original: Path, annotated: Path) -> str:
    """What the annotated copy adds to the original's command text."""
    before = vassal_adj.load_save(original).text
    after = vassal_adj.load_save(annotated).text
    assert after.startswith(before[: -len("end_save")])
    return after[len(before) - len("end_save") :]


def test_the_referee_report_shows_the_hidden_piece_and_says_so(hidden_save: Path) -> None:
    _, out = run("check", str(hidden_save), "--module", MODULE, "--pack", "kasserine")
    assert NAME in out
    assert "referee's view: 1 hidden piece(s)" in out


def test_check_as_the_other_side_leaves_the_hidden_piece_out(hidden_save: Path) -> None:
    _, out = run("check", str(hidden_save), "--module", MODULE, "--pack", "kasserine", "--as", "Allied")
    assert NAME not in out
    assert "1 finding(s) about pieces Allied may not see are left out" in out


def test_check_as_the_owner_shows_it(hidden_save: Path) -> None:
    _, out = run("check", str(hidden_save), "--module", MODULE, "--pack", "kasserine", "--as", "Axis")
    assert NAME in out


def test_check_as_an_unknown_side_is_a_usage_error(hidden_save: Path) -> None:
    result = CliRunner().invoke(main, ["check", str(hidden_save), "--module", MODULE, "--as", "Axsi"])
    assert result.exit_code == 2 and "Allied, Axis" in result.output


@pytest.mark.parametrize("view", [[], ["--as", "Axis"], ["--as", "Allied"]])
def test_the_annotated_copy_never_cites_a_hidden_piece(hidden_save: Path, tmp_path: Path, view: list[str]) -> None:
    out = tmp_path / "annotated.vsav"
    run("check", str(hidden_save), "--module", MODULE, "--pack", "kasserine", "--annotate", str(out), *view)
    added = added_text(hidden_save, out)
    assert NAME not in added and "0520" not in added
    # --as Allied has left the finding out of the report already; the others leave it out here
    assert ("1 finding(s) about pieces hidden from a player are left out." in added) == (view != ["--as", "Allied"])
    assert "kasserine:23" in added  # the other findings are still written


@pytest.mark.parametrize("hide", [True, False])
def test_annotate_withholds_the_pieces_it_is_told_to(hidden_save: Path, tmp_path: Path, hide: bool) -> None:
    # verify and check both pass `withheld(..., side=None)`: a warning citing the invisible piece
    # gets a marker in its hex and a chat line only when nothing is withheld.
    finding = Finding(rule="x:1", severity=Severity.WARNING, message="a hidden unit", units=("7770003",))
    out = tmp_path / "annotated.vsav"
    module = vassal_adj.load_module(MODULE)
    hold = partial(withheld, units=None, side=None) if hide else None
    markers = annotate(vassal_adj.load_save(hidden_save), [finding], out, module=module, withhold=hold)
    assert (NAME in added_text(hidden_save, out)) is not hide
    assert len(markers) == (0 if hide else 1)
