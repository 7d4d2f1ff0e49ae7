"""Tunisia 1943 9.3 in a log: `verify` traces supply at the end of each player's supply phase, for that
player's units (seed 001 9.3: "The supply check for every unit makes at the end of the phase for each
player, but solely for the units of player who has just acted"), and only there.

The log is written by the example generator (scripts/make_tunisia_example.py) on the example's
Campaign I, Game-Turn 3 position with the 334. ID's EM destroyed (waiting in the Turn 4 box, 6.3):
the Axis player ends the exploitation phase, then the supply phase, then the Allied player starts.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner
from conftest import REPO

from vassal_adj.cli import main

sys.path.insert(0, str(REPO / "scripts"))

import make_tunisia_example as mte  # noqa: E402
import tunisia_faults as tf  # noqa: E402

GRENS = ("4-5-5-7 Gren 754 (334.ID)", "4-5-5-7 Gren 755 (334.ID)", "4-5-5-7 Gren 756 (334.ID)")


def _log(tmp: Path, steps: list[tuple[str, ...]]) -> Path:
    game = ("I", 3, "Axis Exploitation", {**tf.TURN3, tf.EM_334: "Turn 4"}, tf.SUSTAINED, steps, "9.3 in a log")
    with pytest.MonkeyPatch.context() as mp:
        # the module carries the campaigns' set-ups: they are written too
        mp.setattr(mte, "GAMES", {name: tf.GAMES[name] for name in mte.SETUPS.values()} | {"supply.vlog": game})
        mte.main(tmp)
    return tmp / "supply.vlog"


def _findings(tmp: Path, log: Path) -> list[dict]:
    """The supply findings (9.1, 6.3, 9.2) of `verify` on the log, as its JSON gives them."""
    result = CliRunner().invoke(
        main, ["verify", str(log), "--module", str(tmp / "Tunisia1943.vmod"), "--format", "json"]
    )
    assert result.exit_code in (0, 1), result.output
    found = json.loads(result.output)["findings"]
    return [f for f in found if f["rule"] in ("tunisia-1943:6.3", "tunisia-1943:9.2", "tunisia-1943:9.1")]


def _unit(f: dict) -> str:
    """The unit a supply finding is about, as its message names it ("... Axis <name> in <hex> ...")."""
    return f["message"].split(": Axis ", 1)[1].split(" in ", 1)[0]


def test_9_3_the_axis_supply_phase_end_traces_the_axis_units(tmp_path: Path) -> None:
    # The Axis supply phase ends (the tracker moves on to Allied Sustain): the 334. ID's three
    # regiments are out of supply, their EM off the map (6.3), and carry no marker (9.2).
    log = _log(tmp_path, [("turn", "Axis", "Axis Supply"), ("turn", "Axis", "Allied Sustain")])
    found = _findings(tmp_path, log)
    out = [f for f in found if f["rule"] == "tunisia-1943:6.3"]
    assert sorted(_unit(f) for f in out) == sorted(GRENS)
    assert all(
        f["message"].startswith("end of Turn 3 axis-supply: ") and "in Turn 4 [6.3]" in f["message"] for f in out
    )
    assert sorted(_unit(f) for f in found if f["rule"] == "tunisia-1943:9.2") == sorted(GRENS)
    assert len(found) == 6 and all(f["severity"] == "warning" for f in found)


def test_9_3_no_supply_check_before_the_supply_phase_ends(tmp_path: Path) -> None:
    # The exploitation phase ends but the supply phase has not: nothing is traced yet ("a unit
    # surrounded during the enemy phase gets a normal phase in order to break the encirclement").
    log = _log(tmp_path, [("turn", "Axis", "Axis Supply")])
    assert _findings(tmp_path, log) == []
