"""A piece that leaves a deck is drawn, and the replay says from which deck (`Moved.deck`).

VASSAL-FORMATS.md 6.4: a deck's state lists the ids of the pieces in it; a piece in a deck is at
the deck's map and spot (issue 11), and a MovePiece that takes it elsewhere draws it. The seeds
draw so: seed 003 (the series' activations): "The last chit drawn for a turn becomes the first chit
in play the next turn"; S5.6: "when a Direct Command chit is drawn, all Units of that side may be
activated". The chit logs are written to VASSAL's format (tests/chit_logs.py); VASSAL builds their
deck (one oracle call), and a real card game's log shows the same draws (the corpus).
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path

from chit_logs import DECK, DECK_X, DECK_Y, deck_module, write_chit_log
from conftest import need_corpus
from test_vassal_accepts import oracle_pieces

import vassal_adj
from vassal_adj.model.events import Moved
from vassal_adj.pbem.replay import replay

CHITS = ["Axis 21. Panzer-Division Chit", "Allied Direct Command Chit"]
STEPS = [("draw", "Axis", CHITS[0]), ("move", "Axis", "3-2-16 (580)", "2525"), ("draw", "Allied", CHITS[1])]


def moves(path: Path) -> list[Moved]:
    game = vassal_adj.load_save(path)
    rp = replay(game.root, vassal_adj.load_module(deck_module(path.parent)), game.path)
    return [e for e in rp.events() if isinstance(e, Moved)]


def test_a_chit_dragged_off_the_deck_is_drawn_from_it(tmp_path: Path) -> None:
    log = write_chit_log(tmp_path / "chits.vlog", CHITS, STEPS)
    assert [(m.name, m.deck) for m in moves(log)] == [(CHITS[0], DECK), ("3-2-16 (580)", None), (CHITS[1], DECK)]
    # VASSAL builds the opening's chits inside the deck, at its spot, the first drawn on top; the spot
    # is named by the deck, and the chits are where the replay has them as the log opens.
    module = deck_module(tmp_path)
    vassal = [p for p in oracle_pieces(module, log)["result"]["pieces"] if p["name"] in CHITS]
    assert sorted((p["name"], p["deck"], p["x"], p["y"], p["location"], p["stack_index"]) for p in vassal) == [
        (CHITS[1], DECK, DECK_X, DECK_Y, DECK, 0),
        (CHITS[0], DECK, DECK_X, DECK_Y, DECK, 1),
    ]
    game = vassal_adj.load_save(log)
    opening = replay(game.root, vassal_adj.load_module(module), game.path).opening
    assert sorted((p.name, p.map, p.x, p.y, p.location) for p in opening if p.name in CHITS) == [
        (name, "Holding Boxes", DECK_X, DECK_Y, DECK) for name in sorted(CHITS)
    ]


def test_a_chit_put_back_on_its_deck_is_no_draw_and_drawn_again_it_is(tmp_path: Path) -> None:
    """A piece dropped on a deck joins it (VASSAL merges a piece dropped on a deck into it): that
    move draws nothing; dragged off again, the chit is drawn again."""
    steps = [("draw", "Axis", CHITS[0]), ("return", "Axis", CHITS[0]), ("draw", "Axis", CHITS[0])]
    log = write_chit_log(tmp_path / "chits.vlog", CHITS, steps)
    assert [(m.name, m.deck) for m in moves(log)] == [(CHITS[0], DECK), (CHITS[0], None), (CHITS[0], DECK)]


def test_a_real_card_game_log_draws_its_cards_from_its_decks() -> None:
    """Commands & Colors: Napoleonics' tutorial (corpus): step 35 reports "Tutorial (Solitaire) draws
    Command Card to French Hand from Command Card Deck" five times; the cards come off the module's
    "Draw Deck" (first filled from the hidden deck "CommandCardsNew", moved in step 13)."""
    case = need_corpus() / "CommandsAndColorsNapoleonics"
    game = vassal_adj.load_save(case / "CCNv4 Tutorial.vlog")
    rp = replay(game.root, vassal_adj.load_module(case / "CommandsAndColorsNapoleonics.vmod"), game.path)
    step = {s.number: s for s in rp.steps}
    drawn = [(e.deck, e.to.map) for e in step[35].events if isinstance(e, Moved)]
    assert drawn == [("Draw Deck", "French Hand")] * 5
    filled = Counter(e.deck for e in step[13].events if isinstance(e, Moved) and e.deck)
    assert filled == {"CommandCardsNew": 75, "TacticCards": 50}  # the 75 Command and 50 Tactician cards
