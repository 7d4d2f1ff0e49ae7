"""The verify and check pages tell the truth (issue 10): legal moves listed and drawn as legal,
a move red only when a finding is about it, end-of-phase pictures at the end of the phase, the
chat and the dice listed, the units drawn with the module's own counter images, long listings
folded, a picture used twice stored once, and PNGs written without `optimize`.

Worked from the example log turn4-axis.vlog (scripts/example_logs.py): the pack judges 5-3-12
(2/5) 2711 -> 2010, 6-5-10 (501) 2613 -> 2513 and 3-4-11 (2/69) 2615 -> 2213 -> 2314 illegal
(19.2), every other unit's move legal;
3-4-11 (2/104) moves legally 2418 -> 2516 and only then overstacks there (a finding of the end
of the movement phase, about the position, not the move).
"""

from __future__ import annotations

import base64
import inspect
import io
import re
from dataclasses import replace

import lxml.html
import pytest
from click.testing import CliRunner
from conftest import REPO
from PIL import Image, ImageChops

import vassal_adj
from vassal_adj.cli import main
from vassal_adj.load import load_image
from vassal_adj.model.events import Replay
from vassal_adj.packs import find_pack
from vassal_adj.parse.builder import game_pieces
from vassal_adj.parse.commands import Node
from vassal_adj.pbem.replay import replay
from vassal_adj.pbem.verify import PhaseRecord, Verification, verify_turn
from vassal_adj.report import counters, figures, html, pictures
from vassal_adj.report.counters import Counters, counter_looks
from vassal_adj.report.html import FOLD, report_html
from vassal_adj.report.pictures import MOVE_COLOURS, Arrow, map_canvas, overview_picture
from vassal_adj.report.turn_view import TurnView, positions_at
from vassal_adj.rules.results import Finding, Severity
from vassal_adj.rules.turn import MoveCheck
from vassal_adj.state_builder import main_layout

EXAMPLE = REPO / "modules" / "kasserine" / "example"
MODULE = EXAMPLE / "Kasserine.vmod"
LOG = EXAMPLE / "turn4-axis.vlog"


@pytest.fixture(scope="module")
def verify_page() -> lxml.html.HtmlElement:
    result = CliRunner().invoke(
        main, ["verify", str(LOG), "--module", str(MODULE), "--pack", "kasserine", "--format", "html"]
    )
    assert result.exit_code == 1, result.output  # the log has errors
    return lxml.html.document_fromstring(result.output)


@pytest.fixture(scope="module")
def turn() -> TurnView:
    module, game = vassal_adj.load_module(MODULE), vassal_adj.load_save(LOG)
    rp = replay(game.root, module, game.path)
    return TurnView([(str(LOG), rp)], {str(LOG): verify_turn(module, game, find_pack("kasserine"), rp)})


def _moves(doc: lxml.html.HtmlElement) -> dict[str, tuple[str, str]]:
    return {
        r[0].text_content(): (r.get("class"), r[3].text_content())
        for r in doc.xpath("//tr[starts-with(@class, 'move-')]")
    }


def test_16_moves_the_pack_judged_legal_are_listed_legal_in_green(verify_page) -> None:
    moves = _moves(verify_page)
    for unit in ("5-3-12 (2/7)", "2-2-11 (10)", "1-2-9 (Lang)", "3-2-16 (580)"):
        assert moves[unit] == ("move-legal", "legal")
    css = verify_page.find(".//style").text
    assert "tr.move-legal td:last-child{color:#fff;background:rgb(0,150,60)}" in css
    assert MOVE_COLOURS[True] == (0, 150, 60)
    assert "0 legal" not in verify_page.text_content()


def test_19_2_a_move_is_red_only_when_a_finding_is_about_it(verify_page) -> None:
    moves = _moves(verify_page)
    illegal = {u for u, (cls, _) in moves.items() if cls == "move-illegal"}
    assert illegal == {"5-3-12 (2/5)", "6-5-10 (501)", "3-4-11 (2/69)"}  # the three 19.2 errors
    # 2/104 is cited by the end-of-phase overstack in 2516, which is not about its (legal) move.
    assert moves["3-4-11 (2/104)"] == ("move-legal", "legal")
    # A unit eliminated (moved to a box) is not judged by the move rules.
    assert moves["2-1-14 (1/13)"] == ("move-unjudged", "not judged")


def test_move_colours_are_neither_the_roads_red_nor_the_streams_blue() -> None:
    for colour in MOVE_COLOURS.values():
        r, g, b = colour
        assert not (r > 150 and g < 90 and b < 90), colour  # the board's roads
        assert not (b > 150 and r < 90 and g < 150), colour  # the board's streams


def test_end_of_phase_pictures_show_units_where_they_end(turn, verify_page) -> None:
    stack = next(f for p in turn.checks[str(LOG)].phases for f in p.findings if "stacking" in f.rule)
    after, none = turn.moments(stack)
    assert none is None
    where = {p.name: p.location for p in after}
    assert where["3-4-11 (2/104)"] == "2516" and where["3-4-11 (1/104)"] == "2516"
    # The page captions that picture with the moment it shows.
    box = next(d for d in verify_page.find_class("finding") if "units in 2516 exceed" in d.text_content())
    assert box.xpath(".//figcaption")[0].text_content() == "at the end of the phase"


def test_a_move_finding_shows_the_phase_before_and_after(turn, verify_page) -> None:
    wrong = next(f for p in turn.checks[str(LOG)].phases for f in p.findings if "(501)" in f.message)
    before, after = turn.moments(wrong)
    unit = wrong.units[0]
    assert {p.id: p.location for p in before}[unit] == "2613"
    assert {p.id: p.location for p in after}[unit] == "2513"
    box = next(d for d in verify_page.find_class("finding") if "(501) moved" in d.text_content())
    assert [c.text_content() for c in box.xpath(".//figcaption")] == ["before the phase's moves", "after them"]
    assert len(box.xpath(".//img")) == 2


def test_positions_at_step_zero_is_the_opening(turn) -> None:
    rp = turn.replays[0][1]
    assert {p.id: (p.x, p.y) for p in positions_at(rp, 0)} == {p.id: (p.x, p.y) for p in rp.opening}
    last = rp.steps[-1].number
    assert {p.id: (p.x, p.y) for p in positions_at(rp, last)} == {p.id: (p.x, p.y) for p in rp.final}


def test_the_chat_and_the_dice_are_listed(verify_page) -> None:
    chat = verify_page.xpath("//h2[.='Chat']/following-sibling::*[1]//tbody/tr")
    assert any("501, 2/7 and 2/86 attack 1/13 in 2514" in r.text_content() for r in chat)
    dice = verify_page.xpath("//h2[.='Dice']/following-sibling::*[1]//tbody/tr")
    # The undone roll says which roll took its place: Erwin's next 1d6 after the undo (issue 11).
    assert [[c.text_content() for c in r][3:] for r in dice] == [
        ["Erwin", "1d6 = 2", "undone in step 14; roll 2 took its place"],
        ["Erwin", "1d6 = 6", ""],
    ]


def _decode(img: lxml.html.HtmlElement) -> Image.Image:
    return Image.open(io.BytesIO(base64.b64decode(img.get("src").split(",", 1)[1]))).convert("RGB")


def test_counters_are_drawn_with_the_module_images() -> None:
    module, game = vassal_adj.load_module(MODULE), vassal_adj.load_save(EXAMPLE / "turn3-faults.vsav")
    placed, _ = main_layout(module, game)
    canvas = map_canvas(placed, lambda name: load_image(MODULE, name))
    pieces = [p for p in game_pieces(game.root, module) if p.map == placed.map.name]
    drawn = Counters(counter_looks(game.root, module), lambda name: load_image(MODULE, name)).draw(canvas, pieces)
    unit = next(p for p in pieces if p.name == "3-2-16 (580)")
    box = (unit.x - 20, unit.y - 20, unit.x + 20, unit.y + 20)
    # Where the unit stands the picture is the counter's image, not the bare board.
    counter = Image.open(io.BytesIO(load_image(MODULE, "axis-3_2_16__580.png"))).convert("RGB")
    assert ImageChops.difference(drawn.crop(box), canvas.crop(box)).getbbox() is not None
    cx, cy = counter.width // 2, counter.height // 2
    assert drawn.getpixel((unit.x, unit.y + 12)) == counter.getpixel((cx, cy + 12))
    # Far from every piece the board is untouched.
    assert drawn.getpixel((5, canvas.height - 5)) == canvas.getpixel((5, canvas.height - 5))


def test_the_check_overview_shows_the_units() -> None:
    result = CliRunner().invoke(
        main,
        [
            "check",
            str(EXAMPLE / "turn3-faults.vsav"),
            "--module",
            str(MODULE),
            "--pack",
            "kasserine",
            "--format",
            "html",
        ],
    )
    doc = lxml.html.document_fromstring(result.output)
    (img,) = doc.xpath("//h2[.='The map']/following-sibling::p/img")
    shown = _decode(img)
    module, game = vassal_adj.load_module(MODULE), vassal_adj.load_save(EXAMPLE / "turn3-faults.vsav")
    placed, _ = main_layout(module, game)
    full = map_canvas(placed, lambda name: load_image(MODULE, name))
    bare = full.resize(shown.size, Image.Resampling.LANCZOS)  # as the overview reduces it
    scale = shown.width / full.width
    # 1/13 in 2113 is in no finding's hex: nothing but its counter is drawn there.
    unit = next(p for p in game_pieces(game.root, module) if p.name == "2-1-14 (1/13)")
    assert unit.location == "2113"
    x, y = round(unit.x * scale), round(unit.y * scale)
    box = (x - 6, y - 6, x + 6, y + 6)
    assert ImageChops.difference(shown.crop(box), bare.crop(box)).getbbox() is not None


def test_a_layer_shows_the_level_the_piece_stands_at() -> None:
    # Layer "Step" with two level images, offset 3,-2 (spec 6.6 fields 14, 15, 16, 19), at level 2.
    layer = "emb2;;128;A;;128;;;128;;;;1;false;3;-2;full.png,reduced.png;,;true;Step;;;false;;1;1;false"
    root = Node("begin_save", [Node(f"+/7/{layer}\tpiece;;;base.png;Unit/2\tnull;0;0;;0")])
    look = counter_looks(root, None)["7"]
    assert look.images({}) == [("base.png", 0, 0, 1.0), ("reduced.png", 3, -2, 1.0)]
    assert look.images({"Step_Level": "1"}) == [("base.png", 0, 0, 1.0), ("full.png", 3, -2, 1.0)]
    assert look.images({"Step_Level": "-1"}) == [("base.png", 0, 0, 1.0)]  # inactive: not drawn


def test_long_listings_are_folded_and_a_picture_used_twice_is_stored_once() -> None:
    module, game = vassal_adj.load_module(MODULE), vassal_adj.load_save(EXAMPLE / "turn3-faults.vsav")
    twice = [Finding(f"test:{k}", Severity.WARNING, "same place", hexes=("2309",)) for k in range(2)]
    info = [Finding("test:info", Severity.INFO, f"note {k}") for k in range(FOLD + 1)]
    page = report_html([*twice, *info], module=module, game=game, module_path=str(MODULE))
    doc = lxml.html.document_fromstring(page)
    assert len(doc.xpath("//details/table//tbody/tr")) == FOLD + 1
    stored = doc.xpath("//defs/image")
    assert len(stored) == 1  # both findings show one picture, stored once
    uses = doc.xpath("//div[contains(@class, 'finding')]//svg/use")
    assert [u.get("href") for u in uses] == ["#" + stored[0].get("id")] * 2
    assert page.count("data:image/png;base64,") == 2  # the shared crop and the overview


def test_pictures_are_encoded_without_png_optimize() -> None:
    for mod in (pictures, figures, html, counters):
        assert not re.search(r"optimize\s*=\s*True", inspect.getsource(mod)), mod.__name__


def test_beyond_the_picture_limit_errors_and_warnings_are_listed_without_pictures(monkeypatch) -> None:
    module, game = vassal_adj.load_module(MODULE), vassal_adj.load_save(EXAMPLE / "turn3-faults.vsav")
    monkeypatch.setattr(html, "PICTURES", 2)
    found = [
        Finding("test:w", Severity.WARNING, "a warning", hexes=("2309",)),
        *(Finding(f"test:e{k}", Severity.ERROR, f"error {k}", hexes=(f"{2310 + k}",)) for k in range(3)),
    ]
    doc = lxml.html.document_fromstring(report_html(found, module=module, game=game, module_path=str(MODULE)))
    # Errors first: the two pictures are of errors; the third error and the warning are table rows.
    assert [d.xpath(".//h3")[0].text_content() for d in doc.find_class("finding")] == ["errortest:e0", "errortest:e1"]
    rows = doc.xpath("//p[contains(., 'listed without pictures')]/following-sibling::table[1]//tbody/tr")
    assert [r[1].text_content() for r in rows] == ["test:e2", "test:w"]


def test_a_masked_piece_shows_only_its_mask_to_who_may_not_see_it() -> None:
    # Mask (spec 6.9): image mask.png, inset style; with style "G<image>" that image instead.
    inset = "obs;M;mask.png;Mask;I;Unknown;side:"
    use_image = "obs;M;;Mask;Gfog.png;Unknown;side:"
    root = Node(
        "begin_save",
        [Node(f"+/{k}/{t}\tpiece;;;real.png;Unit/Axis;\tnull;0;0;;0") for k, t in ((1, inset), (2, use_image))],
    )
    looks = counter_looks(root, None)
    assert looks["1"].images({}) == [("real.png", 0, 0, 1.0)]  # the referee, or its owner
    assert looks["1"].images({}, masked=True) == [("mask.png", 0, 0, 1.0)]
    assert looks["2"].images({}, masked=True) == [("fog.png", 0, 0, 1.0)]
    # Drawn masked, nothing of the real image reaches the picture.
    images = {
        "real.png": Image.new("RGBA", (10, 10), (255, 0, 0, 255)),
        "mask.png": Image.new("RGBA", (10, 10), (0, 0, 255, 255)),
    }

    def read(name: str) -> bytes | None:
        buf = io.BytesIO()
        images[name].save(buf, format="PNG")
        return buf.getvalue()

    piece = next(p for p in game_pieces(root) if p.id == "1")
    board = Image.new("RGB", (40, 40), (255, 255, 255))
    shown = Counters(looks, read).draw(board, [replace(piece, map="m", x=20, y=20)], masked={"1"})
    assert shown.getpixel((20, 20)) == (0, 0, 255)


def test_19_2_the_unit_exerting_a_zone_of_control_is_not_the_move_at_fault() -> None:
    # A move finding names the mover first; a unit after it (the enemy whose zone of control
    # stopped the move, 19.2) made no move of its own that the finding is about.
    phase = PhaseRecord(
        4,
        "axis-movement",
        (1, 2),
        (
            MoveCheck("a", "6-5-10 (501)", "Axis", "move", "2613", "2513", 1, ok=False),
            MoveCheck("b", "2-1-14 (1/13)", "Allied", "move", "2515", "2514", 1, ok=True),
            MoveCheck("c", "5-3-12 (2/7)", "Axis", "move", "2714", "2515", 1, ok=True),
        ),
        (
            Finding("kasserine:19.2", Severity.ERROR, "Turn 4 axis-movement: ... zone of control", units=("a", "b")),
            Finding("kasserine:23.72", Severity.ERROR, "Turn 4 axis-movement: frozen", units=("c",)),
            Finding("kasserine:17.11", Severity.WARNING, "end of Turn 4 axis-movement: out of supply", units=("b",)),
        ),
    )
    view = TurnView([("t.vlog", Replay((), (), ()))], {"t.vlog": Verification("kasserine", phase.findings, (phase,))})
    # c's path was legal, but a finding about its move (23.72) makes the move illegal.
    assert {m[2]: m[3] for m in view.moves()} == {"6-5-10 (501)": False, "2-1-14 (1/13)": True, "5-3-12 (2/7)": False}


def test_the_moves_between_two_saves_are_listed_not_judged() -> None:
    result = CliRunner().invoke(
        main,
        [
            "verify",
            str(EXAMPLE / "setup.vsav"),
            str(EXAMPLE / "turn3-faults.vsav"),
            "--module",
            str(MODULE),
            "--format",
            "html",
        ],
    )
    doc = lxml.html.document_fromstring(result.output)
    moves = _moves(doc)
    assert len(doc.xpath("//tr[starts-with(@class, 'move-')]")) == 46  # as test_report_html's check page
    assert set(moves.values()) == {("move-unjudged", "not judged")}


def test_16_a_judged_move_is_drawn_along_the_path_the_pack_found(turn) -> None:
    blank = Image.new("RGB", (200, 200), (255, 255, 255))
    straight = Arrow((20, 20), (180, 20), MOVE_COLOURS[True])
    bent = Arrow((20, 20), (180, 20), MOVE_COLOURS[True], via=((100, 120),))
    assert overview_picture(blank, None, [straight]).getpixel((100, 120)) == (255, 255, 255)
    assert overview_picture(blank, None, [bent]).getpixel((100, 120)) == MOVE_COLOURS[True]
    # The page passes the pack's path: 5-3-12 (2/5)'s cheapest attempt 2711 ... 2010 (19.2).
    (move,) = [m for m in turn.moves() if m.name == "5-3-12 (2/5)"]
    assert move.ok is False and move.path[0] == "2711" and move.path[-1] == "2010" and len(move.path) == 14
