"""The example logs (scripts/example_logs.py) read back as written: `verify` replays every move,
roll, undo and turn change, never shows a password, finds the one unit out of place between
two logs; and the logs are wrong in exactly their LOG_FAULTS, by vassal_adj's own rules."""

from __future__ import annotations

import dataclasses
import importlib
import json
import sys

import pytest
from click.testing import CliRunner
from conftest import REPO

import vassal_adj
from vassal_adj.cli import main
from vassal_adj.model.events import DieRolled, Moved, Replay, TurnChanged
from vassal_adj.model.module import Module
from vassal_adj.model.pieces import Piece
from vassal_adj.model.state import GameState, Position
from vassal_adj.model.units import Unit
from vassal_adj.packs import find_pack
from vassal_adj.parse.commands import encode, log_steps
from vassal_adj.pbem.replay import replay
from vassal_adj.rules.mechanisms.movement import legal_path
from vassal_adj.rules.mechanisms.movement_rules import movement_rules

EXAMPLE = REPO / "modules" / "kasserine" / "example"
MODULE = EXAMPLE / "Kasserine.vmod"
sys.path.insert(0, str(REPO / "scripts"))
el = importlib.import_module("example_logs")
LOGS = {el.AXIS_LOG: el.AXIS_STEPS, el.RESTART_LOG: el.RESTART_STEPS, el.WRONG_START_LOG: el.ALLIED_STEPS}
SECRETS = [pw for _, pw in el.PLAYERS.values()]


@pytest.fixture(scope="module")
def module() -> Module:
    return vassal_adj.load_module(MODULE)


def _replay(name: str, module) -> Replay:
    game = vassal_adj.load_save(EXAMPLE / name)
    return replay(game.root, module, game.path)


def _expected_moves(name: str) -> list[tuple[str, str, str]]:
    """(unit, from, to) of every move of a log, from the script's own step lists."""
    places = {
        unit: where
        for (_, unit), (_, where) in el.turn4_places(importlib.import_module("example_module").read_pack()).items()
    }
    if name == el.WRONG_START_LOG:  # it opens where the Axis log ends, one unit put back
        for _, _, unit, to in (s for s in el.AXIS_STEPS if s[0] == "move"):
            places[unit] = to
        places[el.WRONG_START_UNIT[1]] = el.WRONG_START_UNIT[2]
    out = []
    for _, _, unit, to in (s for s in LOGS[name] if s[0] == "move"):
        out.append((unit, places[unit], to))
        places[unit] = to
    return out


@pytest.mark.parametrize("name", list(LOGS))
def test_the_log_parses_as_a_log_of_the_example_module(name: str) -> None:
    game = vassal_adj.load_save(EXAMPLE / name)
    assert game.is_log and len(log_steps(game.root)) == len(LOGS[name])
    assert game.module_metadata["name"] == "Kasserine"
    assert set(game.secrets()) == set(SECRETS)  # the roster and the movers' password fields


@pytest.mark.parametrize("name", list(LOGS))
def test_replay_reports_every_move_roll_undo_and_turn_change(name: str, module) -> None:
    rp = _replay(name, module)
    assert rp.problems == ()
    moves = [e for e in rp.events() if isinstance(e, Moved)]
    assert [(e.name, e.origin.label, e.to.label) for e in moves] == _expected_moves(name)
    mover = {"Axis": "Erwin", "Allied": "Lloyd"}[LOGS[name][0][1]]
    assert {e.player for e in moves} == {mover}
    rolls = [(e.button, e.result) for e in rp.events() if isinstance(e, DieRolled) and not e.undo]
    assert rolls == [(el.DICE, s[2]) for s in LOGS[name] if s[0] == "roll"]
    turns = [dict(e.values)["Phase"] for e in rp.events() if isinstance(e, TurnChanged)]
    assert turns == [s[2] for s in LOGS[name] if s[0] == "turn"]
    undos = [(s.number, s.undoes) for s in rp.steps if s.undo]
    assert undos == ([(14, 13)] if name == el.AXIS_LOG else [])
    counts = rp.counts()
    assert (counts["moves"], counts["die rolls"], counts["undos"]) == (len(moves), len(rolls), len(undos))


@pytest.mark.parametrize("fmt", ["text", "json"])
@pytest.mark.parametrize("name", list(LOGS))
def test_verify_runs_and_never_prints_a_password(name: str, fmt: str) -> None:
    # --no-rules: the listing alone (the pack that fits would judge the faults: exit 1, test_verify_example.py)
    result = CliRunner().invoke(
        main, ["verify", str(EXAMPLE / name), "--module", str(MODULE), "--format", fmt, "--no-rules"]
    )
    assert result.exit_code == 0, result.output
    assert all(pw not in result.output for pw in SECRETS)
    if fmt == "text":
        assert all(
            f"{unit}: Main Map {a}" in result.output or f"{unit}: Holding Boxes {a}" in result.output
            for unit, a, _ in _expected_moves(name)
        )


def test_verify_finds_the_unit_the_next_log_starts_elsewhere() -> None:
    files = [str(EXAMPLE / el.AXIS_LOG), str(EXAMPLE / el.WRONG_START_LOG)]
    result = CliRunner().invoke(main, ["verify", *files, "--module", str(MODULE), "--format", "json", "--no-rules"])
    assert result.exit_code == 0, result.output
    fault = next(f for f in el.LOG_FAULTS if f["kind"] == "wrong start")
    findings = [f for f in json.loads(result.output)["findings"] if f["rule"] == fault["rule"]]
    assert [f["severity"] for f in findings] == ["warning"]
    assert fault["unit"] in findings[0]["message"] and findings[0]["hexes"] == list(fault["hexes"])
    assert all(pw not in result.output for pw in SECRETS)


def test_the_restart_log_has_the_same_opening_and_other_rolls(module) -> None:
    def opening(name: str) -> str:
        root = vassal_adj.load_save(EXAMPLE / name).root
        root.children = root.children[: len(root.children) - len(log_steps(root))]
        return encode(root)

    assert opening(el.RESTART_LOG) == opening(el.AXIS_LOG)
    fault = next(f for f in el.LOG_FAULTS if f["kind"] == "restart")
    rolls = {
        n: tuple(e.result for e in _replay(n, module).events() if isinstance(e, DieRolled) and not e.undo)
        for n in (el.RESTART_LOG, el.AXIS_LOG)
    }
    assert (rolls[el.RESTART_LOG], rolls[el.AXIS_LOG]) == (fault["results"], fault["other_results"])


def test_log_faults_name_the_steps_that_commit_them(module) -> None:
    rp = _replay(el.AXIS_LOG, module)
    assert {f["kind"] for f in el.LOG_FAULTS} == {
        "illegal path",
        "zoc to zoc",
        "stop in zoc",
        "overstack",
        "reroll",
        "restart",
        "wrong start",
    }
    for f in el.LOG_FAULTS:
        if f["file"] == el.AXIS_LOG and "unit" in f:
            (move,) = [e for e in rp.steps[f["step"] - 1].events if isinstance(e, Moved)]
            assert (move.name, move.origin.label, move.to.label) == (f["unit"], *f["hexes"])
    reroll = next(f for f in el.LOG_FAULTS if f["kind"] == "reroll")
    step = rp.steps[reroll["step"] - 1]
    assert step.undo and step.undoes == reroll["undoes"]
    after = [
        e.result for s in rp.steps[reroll["undoes"] - 1 :] for e in s.events if isinstance(e, DieRolled) and not e.undo
    ]
    assert tuple(after) == reroll["results"]


def _state(pieces: dict[str, Piece], unitmap, lay, phase: str) -> GameState:
    units, positions = {}, {}
    for p in pieces.values():
        u = unitmap.map_piece(p)
        if isinstance(u, Unit) and p.map == "Main Map":
            units[u.id], positions[u.id] = u, Position(lay.require(p.location), p.location)
    return GameState(units, positions, 4, phase, "good")


@pytest.mark.parametrize("name, phase", [(el.AXIS_LOG, "axis-movement"), (el.WRONG_START_LOG, "allied-movement")])
def test_every_move_is_legal_but_the_faults(name: str, phase: str, module) -> None:
    lp = find_pack("kasserine")
    lay = importlib.import_module("example_module").layout()
    terrain = lp.terrain(lay)
    rules = movement_rules(lp.pack.rule("movement").params)
    rp = _replay(name, module)
    pieces = {p.id: p for p in rp.opening}
    # Each drag judged alone from where the unit stood: a drag out of the zone a unit stopped in
    # ("stop in zoc") starts in that zone, and may not leave it (19.2).
    faults = {
        f["step"]: f
        for f in el.LOG_FAULTS
        if f["file"] == name and f["kind"] in ("illegal path", "zoc to zoc", "stop in zoc")
    }
    for step in rp.steps:
        if any(isinstance(e, TurnChanged) for e in step.events):
            break  # the movement phase ends
        for e in (e for e in step.events if isinstance(e, Moved)):
            if e.origin.map == e.to.map == "Main Map":
                state = _state(pieces, lp.unitmap, lay, phase)
                verdict = legal_path(state, terrain, e.piece, None, lay.require(e.to.label), rules)
                fault = faults.pop(step.number, None)
                assert verdict.ok == (fault is None), (step.number, e.name, verdict.reason)
                if fault and fault["kind"] == "illegal path":  # ways within the allowance break 16.11 or 19.2
                    goal = lay.require(e.to.label)
                    no_rough, no_zoc = (
                        legal_path(state, terrain, e.piece, None, goal, dataclasses.replace(rules, **kw))
                        for kw in ({"prohibitions": ()}, {"zoc": None})
                    )
                    for free in (no_rough, no_zoc):
                        assert free.ok and free.cost <= verdict.allowance < verdict.cost
                    assert any("rough" in terrain.terrain(h) for h in no_rough.path)
                    assert verdict.rule_ref == rules.zoc.rule_ref and "[16.11]" in verdict.reason
                if fault and fault["kind"] in ("zoc to zoc", "stop in zoc"):
                    assert verdict.rule_ref and "zone of control" in verdict.reason
            pieces[e.piece] = dataclasses.replace(
                pieces[e.piece], map=e.to.map, x=e.to.x, y=e.to.y, location=e.to.label
            )
    assert faults == {}
    # At the end of the movement phase the moving side has only the stacks LOG_FAULTS names
    # (the Allied log opens on the Axis stack of turn4-axis.vlog: not the Allies' doing).
    state = _state(pieces, lp.unitmap, lay, phase)
    side = phase.split("-")[0].capitalize()
    stacks = sorted(
        tuple(sorted(state.units[i].name for i in ids))
        for ids in state.occupied().values()
        if len(ids) > 1 and state.units[ids[0]].side == side
    )
    assert stacks == [tuple(f["units"]) for f in el.LOG_FAULTS if f["file"] == name and f["kind"] == "overstack"]
