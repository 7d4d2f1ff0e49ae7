"""Segments opened by a deck draw (N23 `by = { draw = deck, name = regex }`, rules/segments.py).

Seed 003 (No Question of Surrender; its activations are the series' rules the seed refers to):
"The last chit drawn for a turn becomes the first chit in play the next turn"; Sc.1: "Place the
French and Italian Direct Command Chits and the 1re Brigade Française Libre and 103 Ariete Division
Activation Chits in the mug"; S5.6: "when a Direct Command chit is drawn, all Units of that side may
be activated; there is no nationality restriction". Each chit drawn opens an activation in which its
formation moves (a Direct Command chit: its whole side). Seed 004 (Kesselring's War) 13.2: "A unit may
move more than once in an Action Phase, if each move is made in different Action Segments"; 6.1:
"Only one Action may be taken during an Action Segment": a unit moves again in a later segment with
a new allowance, and within one it has one.

The logs are written to VASSAL's format for the example module with a chit deck (tests/chit_logs.py;
VASSAL builds the deck: tests/test_deck_draws.py), judged with a copy of the Kasserine pack. 3-2-16
(580) (21. Panzer-Division, 16 MP) at 3113: 3113 -> 2525 costs 8.5 MP, 2525 -> 3920 12 MP.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from chit_logs import DECK, deck_module, write_chit_log
from test_segments import errors, pack_with

import vassal_adj
from vassal_adj.model.events import ChatLine, Moved, Place
from vassal_adj.packs import load_pack
from vassal_adj.pbem.replay import replay
from vassal_adj.pbem.verify import Verification, verify_turn
from vassal_adj.rules.results import Severity
from vassal_adj.rules.segments import Opened, Segmenting, opened_by, segmenting

ACTIVATIONS = f'''
[rules.activations]
impl = "log.segments"
rule_ref = "activation"
by = {{ draw = "{DECK}", name = '^(?P<side>Axis|Allied) (?:(?P<kind>Direct Command)|(?P<formation>.+)) Chit$' }}
movers = {{ "Direct Command" = {{ sides = ["$side"] }}, "*" = {{ formations = ["$formation"] }} }}
'''
PANZER, US_ARMOR, AXIS_DC = (
    "Axis 21. Panzer-Division Chit",
    "Allied US 1st Armored Division Chit",
    "Axis Direct Command Chit",
)
CHITS = [PANZER, US_ARMOR, AXIS_DC, "Random Event"]
TO_2525, TO_3920 = ("move", "Axis", "3-2-16 (580)", "2525"), ("move", "Axis", "3-2-16 (580)", "3920")


def chit_pack(tmp_path: Path, rules: str) -> Path:
    """The Kasserine pack copy with `rules`, whose units file leaves the chits out (they are no units)."""
    pack = pack_with(tmp_path, rules)
    units = pack / "units.toml"
    text = units.read_text(encoding="utf-8")
    units.write_text(text.replace("ignore = [", "ignore = ['.* Chit', 'Random Event', ", 1), encoding="utf-8")
    return pack


def verify(tmp_path: Path, rules: str, steps: list[tuple[str, ...]], **kw: dict[str, str]) -> Verification:
    log = write_chit_log(tmp_path / "log.vlog", CHITS, steps, **kw)
    module, game = vassal_adj.load_module(deck_module(tmp_path)), vassal_adj.load_save(log)
    return verify_turn(module, game, load_pack(chit_pack(tmp_path, rules)), replay(game.root, module, game.path))


def test_activation_a_chit_drawn_opens_an_activation_of_its_formation(tmp_path: Path) -> None:
    """The 21. Panzer-Division's chit is drawn: 580 (of it) moves; 1-2-9 (Lang) (Kampfgruppe Lang) may not."""
    v = verify(tmp_path, ACTIVATIONS, [("draw", "Axis", PANZER), TO_2525, ("move", "Axis", "1-2-9 (Lang)", "3920")])
    where = "segment chit='Axis 21. Panzer-Division Chit' side='Axis' formation='21. Panzer-Division'"
    assert errors(v) == [
        f"Turn 4 axis-movement, {where}: Axis 1-2-9 (Lang) moved in the {where}, in which only "
        "units of 21. Panzer-Division may move [activation]"
    ]
    assert [(p.segment, [m.name for m in p.moves]) for p in v.phases] == [(where, ["3-2-16 (580)", "1-2-9 (Lang)"])]


def test_13_2_a_unit_moves_in_two_activations_with_an_enemy_activation_between(tmp_path: Path) -> None:
    """580 moves in its formation's activation, 1/6 (US 1st Armored Division) in the Allied one drawn
    next, and 580 again when the Axis Direct Command chit is drawn (S5.6: every Axis unit may move):
    each move has the allowance of its own segment."""
    steps = [
        ("draw", "Axis", PANZER),
        TO_2525,
        ("draw", "Allied", US_ARMOR),
        ("move", "Allied", "2-3-11 (1/6)", "2115"),
        ("draw", "Axis", AXIS_DC),
        TO_3920,
    ]
    v = verify(tmp_path, ACTIVATIONS, steps)
    assert errors(v) == []
    assert [(p.segment, m.name, m.start, m.end, m.ok) for p in v.phases for m in p.moves] == [
        (f"segment chit={PANZER!r} side='Axis' formation='21. Panzer-Division'", "3-2-16 (580)", "3113", "2525", True),
        (
            f"segment chit={US_ARMOR!r} side='Allied' formation='US 1st Armored Division'",
            "2-3-11 (1/6)",
            "2015",
            "2115",
            True,
        ),
        (f"Direct Command chit={AXIS_DC!r} side='Axis'", "3-2-16 (580)", "2525", "3920", True),
    ]


def test_6_1_a_unit_exceeds_its_allowance_within_one_activation(tmp_path: Path) -> None:
    v = verify(tmp_path, ACTIVATIONS, [("draw", "Axis", PANZER), TO_2525, TO_3920, ("draw", "Allied", US_ARMOR)])
    (error,) = errors(v)
    assert "Axis 3-2-16 (580) moved 3113 -> 2525 -> 3920: leg 2, 2525 -> 3920: needs 12 MP more after 8.5 MP" in error


def test_a_chit_the_name_pattern_does_not_read_opens_a_segment_in_which_who_moves_is_not_known(tmp_path: Path) -> None:
    """Seed 003 Sc.4: "place the Random Event chit into the mug, along with all the other chits": drawn,
    it ends the activation before it; a unit moving after it is not judged legal: who may move is unknown."""
    v = verify(tmp_path, ACTIVATIONS, [("draw", "Axis", PANZER), TO_2525, ("draw", "Axis", "Random Event"), TO_3920])
    assert errors(v) == []
    (warning,) = [f.message for f in v.findings if f.severity == Severity.WARNING]
    assert warning == (
        "Turn 4 axis-movement, segment chit='Random Event': units moved in the segment chit='Random "
        "Event', which no opener gave a formation: who may move in it is not checked [activation]"
    )


def test_a_draw_from_another_deck_or_an_undone_draw_opens_nothing() -> None:
    cut = Segmenting("draw", deck=DECK)
    here, there = Place("Holding Boxes", 1000, 950), Place("Holding Boxes", 1080, 950)
    drawn = Moved(piece="1", name=PANZER, origin=here, to=there, deck=DECK, command=1, step=1)
    assert opened_by(cut, [drawn]) == Opened("segment", {"chit": PANZER})
    assert (
        opened_by(cut, [Moved(piece="1", name=PANZER, origin=here, to=there, deck="Discards", command=1, step=1)])
        is None
    )
    assert (
        opened_by(cut, [Moved(piece="1", name=PANZER, origin=here, to=there, deck=DECK, command=1, step=1, undo=True)])
        is None
    )
    assert opened_by(cut, [ChatLine(text=PANZER, command=1, step=1)]) is None


@pytest.mark.parametrize(
    ("by", "message"),
    [
        ('{ draw = "" }', "by: expected"),
        ('{ draw = "Mug", chat = "x" }', "by: expected"),
        ('{ draw = "Mug", name = "(" }', "by.name: not a regular expression"),
    ],
)
def test_a_draw_opener_that_does_not_fit_is_a_pack_error(tmp_path: Path, by: str, message: str) -> None:
    pack = pack_with(tmp_path, f'\n[rules.a]\nimpl = "log.segments"\nrule_ref = "x"\nby = {by}\n')
    with pytest.raises(ValueError, match=rf"rules.a: {message}"):
        segmenting(load_pack(pack).pack)
