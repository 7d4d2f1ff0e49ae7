"""`verify_turn`: logs made from the Kasserine example set-up (its save text, then ESC-separated
``LOG`` steps: MovePiece and turn-tracker commands, spec 5.3, 5.6, 5.8), replayed and judged.

The set-up opens on Game-Turn 1, Axis Movement. Pieces used: Allied 2-1-14 (1/13) at 2714 and
2-3-11 (1/6) at 2613; Axis 5-3-12 (1/5) waiting in the Turn 1 box of the Holding Boxes map.
"""

from __future__ import annotations

from pathlib import Path

import pytest

import vassal_adj
from vassal_adj.codec.obfuscation import Codec
from vassal_adj.model.geometry.maps import module_map
from vassal_adj.packs import load_pack
from vassal_adj.parse.commands import Node, encode
from vassal_adj.pbem.replay import replay
from vassal_adj.pbem.verify import Verification, verify_turn
from vassal_adj.rules.results import Severity
from vassal_adj.savedgame import SavedGame

ROOT = Path(__file__).resolve().parents[1]
EXAMPLE = ROOT / "modules" / "kasserine" / "example"
LIGHT_TANKS, PANZER = "1767225600087", "1767225600017"
PHASES = ("axis-movement", "axis-combat", "allied-movement", "allied-combat")


@pytest.fixture(scope="module")
def module():
    return vassal_adj.load_module(EXAMPLE / "Kasserine.vmod")


@pytest.fixture(scope="module")
def setup():
    return vassal_adj.load_save(EXAMPLE / "setup.vsav")


@pytest.fixture(scope="module")
def pack():
    return load_pack(ROOT / "modules" / "kasserine")


def log(text: str, *kids: Node) -> Node:
    return Node("LOG\t" + text, kids)


def turn(n: int, phase: str) -> Node:
    """The tracker moved to Game-Turn `n`, `phase` (spec 5.8: the phase is a list sub-level)."""
    return log(f"TURNTurnTracker0\t0|{n};0;false;-1;{PHASES.index(phase)}\\;0\\;0\\;true,true,true,true")


class Board:
    def __init__(self, module, setup) -> None:
        self.map = module_map(module, "Main Map", save=setup)

    def move(self, piece: str, to: str, frm: str | tuple[int, int]) -> Node:
        """A drag from a hex (or a Holding Boxes spot) to a hex."""
        x, y = self.map.hex_center(to)
        if isinstance(frm, tuple):
            return log(f"M/{piece}/Main Map/{x}/{y}/null/Holding Boxes/{frm[0]}/{frm[1]}/null/pw")
        fx, fy = self.map.hex_center(frm)
        return log(f"M/{piece}/Main Map/{x}/{y}/null/Main Map/{fx}/{fy}/null/pw")


def verify(module, setup, pack, *steps: Node) -> Verification:
    root = setup.root
    game = SavedGame.new(encode(Node(root.text, [*root.children, *steps])), codec=Codec(True, 7))
    return verify_turn(module, game, pack, replay(game.root, module, game.path))


def test_a_legal_move_gives_its_cheapest_path(module, setup, pack) -> None:
    b = Board(module, setup)
    v = verify(module, setup, pack, turn(2, "allied-movement"), b.move(LIGHT_TANKS, "2512", "2714"))
    assert [(p.title, p.steps) for p in v.phases] == [
        ("Turn 1 axis-movement", None),
        ("Turn 2 allied-movement", (2, 2)),
    ]
    (f,) = v.findings
    assert (f.rule, f.severity, f.units, f.hexes) == (
        "kasserine:standard-movement",
        Severity.INFO,
        (LIGHT_TANKS,),
        ("2714", "2512"),
    )
    assert f.message == (
        "Turn 2 allied-movement: Allied 2-1-14 (1/13) moved 2714 -> 2512: legal, 2.5 of 14 MP by 2714 2713 2612 2512"
    )
    (m,) = v.moves
    assert (m.name, m.start, m.end, m.path, m.ok) == (
        "2-1-14 (1/13)",
        "2714",
        "2512",
        ("2714", "2713", "2612", "2512"),
        True,
    )


def test_drags_in_several_steps_are_one_move(module, setup, pack) -> None:
    b = Board(module, setup)
    v = verify(
        module,
        setup,
        pack,
        turn(2, "allied-movement"),
        b.move(LIGHT_TANKS, "2612", "2714"),
        b.move(LIGHT_TANKS, "2512", "2612"),
    )
    (m,) = v.moves
    assert (m.start, m.end, m.drags) == ("2714", "2512", 2)
    assert v.phases[-1].steps == (2, 3)


def test_an_undone_move_is_not_checked(module, setup, pack) -> None:
    b = Board(module, setup)
    forth = b.move(LIGHT_TANKS, "2512", "2714")
    back = log(
        "UNDO\ttrue", Node("", [log("CHAT* UNDO: * moves *"), b.move(LIGHT_TANKS, "2714", "2512")]), log("UNDO\tfalse")
    )
    v = verify(module, setup, pack, turn(2, "allied-movement"), forth, back)
    assert v.moves == () and v.findings == ()


def test_stacking_is_checked_at_the_end_of_the_movement_phase(module, setup, pack) -> None:
    b = Board(module, setup)
    v = verify(
        module, setup, pack, turn(2, "allied-movement"), b.move(LIGHT_TANKS, "2613", "2714"), turn(2, "allied-combat")
    )
    errors = [f for f in v.findings if f.severity == Severity.ERROR]
    assert [(f.rule, f.message, f.hexes) for f in errors] == [
        (
            "kasserine:assumption stacking_limit",
            "end of Turn 2 allied-movement: 2 Allied units in 2613 exceed the limit "
            "of 1 [assumption stacking_limit: 1976 SPI quadrigame rules (Four Battles in North Africa), as publicly "
            "described: units may not stack]",
            ("2613",),
        )
    ]
    assert v.moves[0].ok  # the move itself is legal; the stack it ends in is not


def test_a_move_in_the_other_sides_phase_is_an_error(module, setup, pack) -> None:
    b = Board(module, setup)
    v = verify(module, setup, pack, b.move(LIGHT_TANKS, "2512", "2714"))  # the log opens in Axis Movement
    (f,) = v.findings
    assert f.rule == "kasserine:23.71" and f.severity == Severity.ERROR
    assert f.message.startswith(
        "Turn 1 axis-movement: Allied 2-1-14 (1/13) moved 2714 -> 2512 in the axis-movement phase"
    )


def test_23_72_a_set_up_unit_moved_on_turn_1(module, setup, pack) -> None:
    b = Board(module, setup)
    v = verify(module, setup, pack, turn(1, "allied-movement"), b.move(LIGHT_TANKS, "2512", "2714"))
    assert [f.rule for f in v.findings if f.severity == Severity.ERROR] == ["kasserine:23.72"]


def test_a_reinforcement_enters_from_its_box(module, setup, pack) -> None:
    # 23: 5-3-12 (1/5) appears on Game-Turn One at 3726; it waits at (36, 120) in the Turn 1 box.
    b = Board(module, setup)
    v = verify(module, setup, pack, b.move(PANZER, "3726", (36, 120)), b.move(PANZER, "3724", "3726"))
    (m,) = v.moves
    assert (m.kind, m.start, m.end, m.ok, m.path) == ("entry", "box 'Turn 1'", "3724", True, ("3726", "3725", "3724"))
    (f,) = v.findings
    assert f.severity == Severity.INFO and "(entering at 3726): legal, 2 of 12 MP" in f.message  # 3726 clear: 1
    # entering at 3919, next to the Allied 3-2-12 (3/1) at 3819, it must stop there (19.2)
    v = verify(module, setup, pack, b.move("1767225600001", "3919", (36, 70)), b.move("1767225600001", "3817", "3919"))
    assert [f.rule for f in v.findings] == ["kasserine:19.2"]
