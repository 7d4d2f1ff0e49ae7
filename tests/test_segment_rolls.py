"""The die rolls of a segment (rules/segments.py `Segment.rolls`, recorded by pbem/verify.py): each
roll with the number of drags before it, so that a rule can tell whether a die was rolled during a
unit's move (seed 001 4.3: the armoured breakthrough's cohesion test, rules/crossing.py). Logs of the
Kasserine example module (tests/kasserine_logs.py) with a pack copy whose hooks.py reports them;
and a piece's layer change, which verify applies to its unit."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from conftest import REPO
from kasserine_logs import MODULE, write_log

import vassal_adj
from vassal_adj.model.events import Changed, Place, PropertyChange
from vassal_adj.model.pieces import Piece
from vassal_adj.packs import load_pack
from vassal_adj.pbem.log_state import changed
from vassal_adj.pbem.replay import replay
from vassal_adj.pbem.verify import verify_turn
from vassal_adj.rules.registry import REGISTRY

HOOKS = '''
from vassal_adj.rules.registry import register
from vassal_adj.rules.results import Finding, Severity


@register("test.rolls", log=True)
def rolls(segment, ctx, params):
    """The segment's rolls: drags before each."""
    return [Finding(ctx.cite(), Severity.INFO, f"rolls {[before for before, _ in segment.rolls]}")]
'''
RULES = '\n[rules.rolls]\nimpl = "test.rolls"\nrule_ref = "4.3"\n'
TO_2525, TO_3920 = ("move", "Axis", "3-2-16 (580)", "2525"), ("move", "Axis", "3-2-16 (580)", "3920")


@pytest.fixture(autouse=True)
def _unregister():
    yield
    REGISTRY._impls.pop("test.rolls", None)


def rolls(tmp_path: Path, steps: list[tuple[str, ...]]) -> list[str]:
    pack = tmp_path / "hooked"
    shutil.copytree(REPO / "modules" / "kasserine", pack, ignore=shutil.ignore_patterns("example"))
    toml = pack / "pack.toml"
    text = toml.read_text(encoding="utf-8").replace("[pack]\n", '[pack]\nhooks = "hooks.py"\n', 1)
    toml.write_text(text + RULES, encoding="utf-8")
    (pack / "hooks.py").write_text(HOOKS, encoding="utf-8")
    log = write_log(tmp_path / "log.vlog", steps)
    module, game = vassal_adj.load_module(MODULE), vassal_adj.load_save(log)
    v = verify_turn(module, game, load_pack(pack), replay(game.root, module, game.path))
    return [f.message.split(": ", 1)[1] for f in v.findings if f.rule.endswith(":4.3")]


def test_a_roll_between_two_drags_comes_after_the_first(tmp_path: Path) -> None:
    assert rolls(tmp_path, [TO_2525, ("roll", "Axis", "4"), TO_3920]) == ["rolls [1]"]


def test_rolls_before_any_drag_and_after_the_last(tmp_path: Path) -> None:
    steps = [("roll", "Axis", "2"), TO_2525, TO_3920, ("roll", "Axis", "5")]
    assert rolls(tmp_path, steps) == ["rolls [0, 2]"]


def test_a_layer_change_reaches_the_unit_of_the_piece() -> None:
    """pbem/log_state.py `changed`: a ChangePiece sets a layer (Tunisia 1943 10, a division sustained:
    the EM's Sustained layer), and the piece verify re-maps to a unit has the new properties."""
    piece = Piece("em", "EM 2-6 (HG)", "Main Map", 1, 2, properties={"Side": "Axis", "Sustained_Active": "false"})
    event = Changed(
        piece="em",
        name="EM 2-6 (HG)",
        name_before="EM 2-6 (HG)",
        at=Place("Main Map", 1, 2),
        properties=(PropertyChange("Sustained_Active", "false", "true"), PropertyChange("Old", "x", None)),
        command=3,
        step=2,
    )
    assert changed(piece, event).properties == {"Side": "Axis", "Sustained_Active": "true"}
