"""The HTML report: one self-contained page, a picture per error and warning, the map with the
moves, escaped text, and never a player's password."""

from __future__ import annotations

import base64
import re
from pathlib import Path

import lxml.html
import pytest
from conftest import CORPUS, REPO, need_corpus

import vassal_adj
from vassal_adj.load import load_image
from vassal_adj.model.events import diff_pieces
from vassal_adj.model.module import Module
from vassal_adj.packs import find_pack
from vassal_adj.parse.builder import game_pieces
from vassal_adj.pbem.replay import replay
from vassal_adj.report.html import moves_of, report_html
from vassal_adj.report.pictures import SEVERITY_COLOURS, finding_picture, map_canvas
from vassal_adj.rules.engine import adjudicate
from vassal_adj.rules.results import Finding, Report, Severity
from vassal_adj.savedgame import SavedGame
from vassal_adj.state_builder import game_state, main_layout

EXAMPLE = REPO / "modules" / "kasserine" / "example"
MODULE = EXAMPLE / "Kasserine.vmod"
PNG = b"\x89PNG\r\n\x1a\n"
DATA_URI = re.compile(r"data:image/png;base64,[A-Za-z0-9+/=]+")


@pytest.fixture(scope="module")
def kasserine() -> tuple[Module, SavedGame, Report, str]:
    module = vassal_adj.load_module(MODULE)
    game = vassal_adj.load_save(EXAMPLE / "turn3-faults.vsav")
    lp = find_pack("kasserine")
    state, context, _ = game_state(module, game, lp)
    report = adjudicate(state, lp, context)
    before = replay(vassal_adj.load_save(EXAMPLE / "setup.vsav").root, module).final
    moves = moves_of(diff_pieces(before, replay(game.root, module).final), report.findings)
    page = report_html(
        report,
        module=module,
        game=game,
        module_path=str(MODULE),
        moves=moves,
        title="Kasserine, turn 3",
        source="turn3-faults.vsav",
    )
    return module, game, report, page


def test_the_page_parses_and_shows_a_picture_per_error_and_warning(kasserine) -> None:
    _, _, report, page = kasserine
    doc = lxml.html.document_fromstring(page)
    counts = report.counts()
    assert counts["error"] == 2 and counts["warning"] == 1
    findings = doc.find_class("finding")
    assert len(findings) == 3
    assert all(len(f.findall(".//img")) == 1 for f in findings)
    assert "2 errors" in doc.text_content() and "1 warning" in doc.text_content()
    # Info findings are a table row each, not pictures (59 rows: folded, see FOLD).
    rows = doc.xpath("//h2[.='Information']/following-sibling::details[1]/table//tbody/tr")
    assert len(rows) == counts["info"]


def test_the_overview_is_the_whole_map_scaled_down_with_the_moves(kasserine) -> None:
    _, _, _, page = kasserine
    doc = lxml.html.document_fromstring(page)
    overview = doc.xpath("//h2[.='The map']/following-sibling::p/img")
    assert len(overview) == 1
    width = int(overview[0].get("width"))
    assert width == 1600  # the 2048-pixel board, reduced to the limit
    moves = doc.xpath("//h2[.='The map']/following-sibling::details[1]/table//tbody/tr")
    assert len(moves) == 46  # every piece placed or moved between setup and turn 3
    # The findings (stacking 16.11 rough hex, supply) are about where units stand, not about
    # how they got there, and no pack judged these moves: none is illegal, none legal.
    assert {r.get("class") for r in moves} == {"move-unjudged"}
    assert {r[3].text_content() for r in moves} == {"not judged"}


def test_the_page_is_self_contained(kasserine) -> None:
    _, _, _, page = kasserine
    doc = lxml.html.document_fromstring(page)
    assert not doc.xpath("//script|//link|//iframe|//object")
    sources = [img.get("src") for img in doc.iter("img")]
    assert len(sources) == 4
    for src in sources:
        assert DATA_URI.fullmatch(src)
        assert base64.b64decode(src.split(",", 1)[1]).startswith(PNG)
    assert not re.search(r"(?:src|href)=\"(?!data:)", page)
    assert "url(" not in page


def test_text_is_escaped(kasserine) -> None:
    module, game, _, _ = kasserine
    hostile = Finding("test:1", Severity.ERROR, "<script>alert('x')</script> & <b>bold</b>", hexes=("2309",))
    page = report_html(
        [hostile], module=module, game=game, module_path=str(MODULE), title="<i>title</i>", source="a<b>.vsav"
    )
    doc = lxml.html.document_fromstring(page)
    assert not doc.xpath("//script|//b|//h1/i")
    assert "<script>alert('x')</script> & <b>bold</b>" in doc.text_content()
    assert doc.find(".//title").text == "<i>title</i>"
    # A plain list of findings (verify's) still gets its picture.
    assert len(doc.find_class("finding")[0].findall(".//img")) == 1


def test_without_a_module_file_the_page_has_no_pictures(kasserine) -> None:
    module, game, report, _ = kasserine
    page = report_html(report, module=module, game=game, module_path=None)
    doc = lxml.html.document_fromstring(page)
    assert not list(doc.iter("img"))
    assert len(doc.find_class("finding")) == 3


def test_a_path_is_drawn_through_the_hex_centres(kasserine) -> None:
    module, game, _, _ = kasserine
    placed, layout = main_layout(module, game)
    canvas = map_canvas(placed, lambda name: load_image(MODULE, name))
    path = ("2309", "2409", "2510")
    pic = finding_picture(canvas, layout, path, SEVERITY_COLOURS["error"])
    plain = finding_picture(canvas, layout, ("2309", "2510"), SEVERITY_COLOURS["error"])
    assert pic is not None and plain is not None and pic.width == 560
    # The crop is centred on the hexes: the middle of 2409 is the picture's centre, and the
    # path's line goes through it only when the hexes are adjacent in order.
    centre = (pic.width // 2, pic.height // 2)
    assert _reddish(pic.getpixel(centre))
    assert not _reddish(plain.getpixel((plain.width // 2, plain.height // 2)))
    assert finding_picture(canvas, layout, ("Eliminated",), SEVERITY_COLOURS["error"]) is None


def _reddish(rgb: tuple[int, int, int]) -> bool:
    r, g, b = rgb[:3]
    return r > 150 and g < 90 and b < 90


def _visible(page: str) -> str:
    """The page without its pictures' base64, where any short text occurs by chance."""
    return DATA_URI.sub("data:", page)


def test_no_password_reaches_the_page() -> None:
    need_corpus()
    module_path = CORPUS / "Ragnarok" / "Ragnarok.vmod"
    game = vassal_adj.load_save(CORPUS / "Ragnarok" / "ragnarok-start.vsav")
    secrets = game.secrets()
    assert secrets
    module = vassal_adj.load_module(module_path)
    piece = next(p for p in game_pieces(game.root, module) if p.map == "Main Map" and p.location)
    findings = []
    for secret in secrets:
        # A rule that leaked a password into its message, and a unit name holding one.
        findings.append(
            Finding(
                "test:1",
                Severity.ERROR,
                f"moved by {secret} into {piece.location}",
                units=(piece.id,),
                hexes=(piece.location,),
            )
        )
        findings.append(Finding("test:2", Severity.INFO, f"{secret}", units=(piece.id,)))
    report = Report("test", tuple(findings), {}, {}, {piece.id: f"unit {next(iter(secrets))}"})
    page = report_html(
        report,
        module=module,
        game=game,
        module_path=str(module_path),
        moves=[(piece.location, piece.location, f"{next(iter(secrets))}", None)],
        title="Ragnarok",
        source=str(Path("ragnarok-start.vsav")),
    )
    text = _visible(page)
    doc = lxml.html.document_fromstring(page)
    assert len(doc.find_class("finding")) == len(secrets)
    for secret in secrets:
        assert not re.search(rf"(?<![0-9A-Za-z]){re.escape(secret)}(?![0-9A-Za-z])", text)
