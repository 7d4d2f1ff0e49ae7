"""Marker states (N21, marker.state) are judged on the position every phase of a log leaves, with the
units' flags following the log's changes of their pieces (pbem/phase_checks.py).

Tunisia 1943 7.4: "*: this symbol indicates that the units in defense lose their ZoC for the
exploitation phase that follows. Placing a Loss of ZoC marker on the units." The example module of
the Kasserine pack (the one whose logs the tests can write) has no exploitation phase: its turn is
Axis Movement, Axis Combat, Allied Movement, Allied Combat. A copy of the pack reads a layer
``LossOfZoC`` as the flag `loss-of-zoc` and lets an Allied unit carry it from the Axis combat phase to
the end of that phase (the phase that follows, here, being the Allied movement phase). In the log, the
Allied unit 2-3-11 (1/6) is given the layer in the Axis combat phase, then the log passes to the Allied
movement phase and on to the Allied combat phase with the layer still on (an error), or with it taken
off first (legal).
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from kasserine_logs import MODULE, write_log
from test_segments import pack_with

import vassal_adj
from vassal_adj.model.events import Changed, ChatLine, Place, PropertyChange, Replay
from vassal_adj.packs import load_pack
from vassal_adj.pbem.replay import replay
from vassal_adj.pbem.verify import Verification, verify_turn
from vassal_adj.rules.results import Severity

RULE = """
[rules.loss_of_zoc]
impl = "marker.state"
rule_ref = "7.4"
phases = ["axis-movement", "axis-combat", "allied-movement", "allied-combat"]
[[rules.loss_of_zoc.states]]
flag = "loss-of-zoc"
units = { sides = ["Allied"] }
set_from = "axis-combat"
reset_at = "after-phase:axis-combat"
"""
LAYER = '\n[[group]]\nmatch = { LossOfZoC_Active = "true" }\nflags = ["loss-of-zoc", "no-zoc"]\n'
UNIT = "2-3-11 (1/6)"
STEPS = [
    ("turn", "Axis", "Axis Combat"),
    ("chat", "Axis", "LossOfZoC on"),
    ("chat", "Axis", "LossOfZoC off"),
    ("turn", "Allied", "Allied Movement"),
    ("turn", "Allied", "Allied Combat"),
]


def _layered(rp: Replay, off: bool) -> Replay:
    """The replay with each "LossOfZoC on/off" chat step made a change of UNIT's layer (a ChangePiece);
    "off" is left a chat line unless `off`."""
    piece = next(p for p in rp.opening if p.name == UNIT)
    at = Place(piece.map, piece.x, piece.y, piece.location)
    steps = []
    for s in rp.steps:
        chat = next((e for e in s.events if isinstance(e, ChatLine) and "LossOfZoC" in e.text), None)
        if chat is not None and (chat.text.endswith("on") or off):
            on = chat.text.endswith("on")
            flip = PropertyChange("LossOfZoC_Active", "false" if on else "true", "true" if on else "false")
            change = Changed(
                command=chat.command,
                step=chat.step,
                piece=piece.id,
                name=UNIT,
                at=at,
                name_before=UNIT,
                properties=(flip,),
            )
            s = replace(s, events=(change,))
        steps.append(s)
    return replace(rp, steps=tuple(steps))


def run(tmp_path: Path, off: bool) -> Verification:
    pack = pack_with(tmp_path, RULE)
    (pack / "units.toml").write_text((pack / "units.toml").read_text(encoding="utf-8") + LAYER, encoding="utf-8")
    log = write_log(tmp_path / "log.vlog", STEPS)
    module, game = vassal_adj.load_module(MODULE), vassal_adj.load_save(log)
    return verify_turn(module, game, load_pack(pack), _layered(replay(game.root, module, game.path), off))


def test_7_4_loss_of_zoc_left_on_into_the_next_phase(tmp_path: Path) -> None:
    """The layer set in the Axis combat phase and still on as the Allied movement phase ends: one error, at
    the end of that phase; none at the end of the Axis combat phase."""
    found = [f.message for f in run(tmp_path, off=False).findings if f.rule.endswith(":7.4")]
    assert found == [
        "end of Turn 4 allied-movement: Allied 2-3-11 (1/6) in 2015 carries loss-of-zoc in phase allied-movement: "
        "it stands only from phase axis-combat to the end of phase axis-combat [7.4]"
    ]


def test_7_4_loss_of_zoc_taken_off_in_time(tmp_path: Path) -> None:
    """The same log with the layer taken off before the Axis combat phase ends: no finding."""
    v = run(tmp_path, off=True)
    assert [f.message for f in v.findings if f.rule.endswith(":7.4") and f.severity != Severity.INFO] == []
