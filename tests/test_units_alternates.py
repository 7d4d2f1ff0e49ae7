"""Alternate counters (impl units.alternates, rules/mechanisms/alternates.py; RULES-MAP N28) with a second
game's parameters, worked by hand from the rules' words.

No Question of Surrender (seed 003) S5.6: "There are two Axis Direct Command chits included in the game.
Only one should be used, and the Axis player can decide to use either the Italian version ("Ordine
Directo") or the German version ("Direkten Befehl")." The two chits share an attribute; the one not used
stays in the box of unused chits (the module's; named here "Unused Chits"), the one used goes into the mug.
"""

from __future__ import annotations

import pytest
from test_stacking_pools import CTX

from vassal_adj.model.geometry.hexes import Hex
from vassal_adj.model.state import Box, GameState, Position
from vassal_adj.model.units import Unit
from vassal_adj.rules.mechanisms.alternates import units_alternates
from vassal_adj.rules.registry import Params, load_builtin_rules
from vassal_adj.rules.results import Severity

S5_6 = {"group_attr": "direct-command", "not_in_play": ["Unused Chits"], "units": {"kinds": ["chit"]}}


def chit(uid: str, name: str) -> Unit:
    return Unit(uid, name, "Axis", "chit", 0, attrs={"direct-command": "axis"})


ORDINE = chit("1", "Ordine Directo")
BEFEHL = chit("2", "Direkten Befehl")


def check(where: dict[Unit, Position], **given: object) -> list:
    p = Params({**load_builtin_rules().lookup("units.alternates").defaults(), **given})
    st = GameState({u.id: u for u in where}, {u.id: pos for u, pos in where.items()}, 1, "activations")
    return [f for f in units_alternates(st, CTX, p) if f.severity == Severity.ERROR]


def test_s5_6_one_direct_command_chit_in_the_mug_the_other_unused() -> None:
    """S5.6 "Only one should be used": the Italian chit in the mug, the German one unused: legal."""
    assert check({ORDINE: Position(box="Mug"), BEFEHL: Position(box="Unused Chits")}, **S5_6) == []


def test_s5_6_both_direct_command_chits_in_play() -> None:
    """Both chits out of the unused box (one in the mug, one drawn and on the map) break S5.6."""
    (found,) = check({ORDINE: Position(box="Mug"), BEFEHL: Position(Hex.from_raw(20, 9), "21.10")}, **S5_6)
    assert found.message == (
        "2 counters of one unit (direct-command 'axis') are in play: Direkten Befehl in 21.10 and Ordine Directo "
        "in box 'Mug'; they are used alternately, one at a time in play, the others in Unused Chits boxes"
    )
    assert found.units == ("2", "1") and found.hexes == ("21.10",)


def test_a_box_is_named_by_its_kind_too() -> None:
    """`not_in_play` names a box by the pack's [boxes] kind as well as by its name."""
    unused = Position(box="Spare", named=Box("spare", "unused"))
    assert check({ORDINE: Position(box="Mug"), BEFEHL: unused}, **{**S5_6, "not_in_play": ["unused"]}) == []


def test_max_in_play_and_the_selector() -> None:
    """`max_in_play = 2` lets both in; a selector that leaves the chits out judges nothing."""
    both = {ORDINE: Position(box="Mug"), BEFEHL: Position(box="Mug")}
    assert len(check(both, **S5_6)) == 1
    assert check(both, **{**S5_6, "max_in_play": 2}) == []
    assert check(both, **{**S5_6, "units": {"kinds": ["infantry"]}}) == []


def test_a_piece_whose_place_is_unknown_is_not_counted() -> None:
    """A counter with no place the save tells is never guessed to be in play."""
    assert check({ORDINE: Position(box="Mug"), BEFEHL: Position()}, **S5_6) == []


def test_bad_parameters_name_their_key() -> None:
    """A `max_in_play` of 0 or a selector with an unknown key is the pack's fault (the engine makes the
    ValueError a PackError), named by its key path."""
    for bad, words in (({"max_in_play": 0}, "max_in_play"), ({"units": {"kind": ["chit"]}}, "units.kind")):
        with pytest.raises(ValueError, match=words):
            check({ORDINE: Position(box="Mug")}, **{**S5_6, **bad})
