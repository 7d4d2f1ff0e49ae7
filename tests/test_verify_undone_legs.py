"""Undone drags are not legs of a move (`verify_turn` on logs built from the Kasserine example
set-up, as tests/test_verify_builder.py builds them): the undo brackets of VASSAL 3.6.7+
(``UNDO<TAB>true`` ... ``UNDO<TAB>false``) and the undo steps of older logs, which hold the
``* UNDO:`` report and the inverse commands (the report first or last, as the undone action wrote
it last or first), all take the drag back. The Allied 2-1-14
(1/13) sets up at 2714 (14 MP); the log moves to Game-Turn 2, Allied Movement.
"""

from __future__ import annotations

from test_verify_builder import (  # noqa: F401 (fixtures)
    LIGHT_TANKS,
    Board,
    log,
    module,
    pack,
    setup,
    turn,
    verify,
)

from vassal_adj.parse.commands import Node
from vassal_adj.rules.results import Severity


def test_an_undone_drag_is_not_a_leg(module, setup, pack) -> None:  # noqa: F811
    b = Board(module, setup)
    alone = verify(module, setup, pack, turn(2, "allied-movement"), b.move(LIGHT_TANKS, "2612", "2714"))
    (want,) = alone.moves
    forth = b.move(LIGHT_TANKS, "2512", "2714")
    bracket = log(
        "UNDO\ttrue", Node("", [log("CHAT* UNDO: * moves *"), b.move(LIGHT_TANKS, "2714", "2512")]), log("UNDO\tfalse")
    )
    older = log("CHAT* UNDO: * moves *", b.move(LIGHT_TANKS, "2714", "2512"))  # before 3.6.7: inverse commands
    echo_last = log(b.move(LIGHT_TANKS, "2714", "2512").text[4:], log("CHAT* UNDO: * moves *"))
    for undo in (bracket, older, echo_last):
        v = verify(module, setup, pack, turn(2, "allied-movement"), forth, undo, b.move(LIGHT_TANKS, "2612", "2714"))
        (m,) = v.moves
        # One leg from where the undo left the unit, costing what that drag alone costs.
        assert (m.drags, m.start, m.end, m.ok, m.cost, m.path) == (1, "2714", "2612", True, want.cost, want.path)
        assert [f.severity for f in v.findings] == [Severity.INFO]


def test_a_drag_back_by_hand_is_a_leg(module, setup, pack) -> None:  # noqa: F811
    # Without an undo, dragging the unit back is movement: out and back both cost.
    b = Board(module, setup)
    v = verify(
        module,
        setup,
        pack,
        turn(2, "allied-movement"),
        b.move(LIGHT_TANKS, "2512", "2714"),
        b.move(LIGHT_TANKS, "2714", "2512"),
    )
    (m,) = v.moves
    assert (m.drags, m.start, m.end, m.ok, m.cost) == (2, "2714", "2714", True, 5)  # 2.5 MP each way by road
    assert m.path == ("2714", "2713", "2612", "2512", "2612", "2713", "2714")
