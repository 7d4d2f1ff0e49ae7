"""Issue 10: `verify`'s progress line counts the steps of a long log ("verify: log 1/1, step
1200/3000"), through a callback the replay and the walk of the pack's checks call as they go;
only on a terminal, and only once two seconds have passed."""

from __future__ import annotations

import importlib
import io
import itertools
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner
from conftest import REPO

from vassal_adj import cli
from vassal_adj.cli import output as cli_output
from vassal_adj.load import load_save
from vassal_adj.packs import load_pack
from vassal_adj.parse.commands import log_steps
from vassal_adj.pbem.replay import STEPS_PER_CALL, replay
from vassal_adj.pbem.verify import verify_turn

sys.path.insert(0, str(REPO / "scripts"))
BENCH = importlib.import_module("bench_verify")  # its long log: Allied drags, phase after phase
EXAMPLE = REPO / "modules" / "kasserine" / "example"

MOVES = 150  # 182 logged steps: three calls' worth and the last


@pytest.fixture(scope="module")
def long_log(tmp_path_factory: pytest.TempPathFactory) -> tuple[object, object, Path]:
    module, game = BENCH.make_log(MOVES)
    path = tmp_path_factory.mktemp("progress") / "long.vlog"
    game.write(path)
    return module, game, path


def _counts(calls: list[tuple[int, int]], total: int) -> None:
    """The calls count the steps up to `total`, one every STEPS_PER_CALL steps and the last."""
    assert {t for _, t in calls} == {total}
    assert [d for d, _ in calls] == [*range(STEPS_PER_CALL, total, STEPS_PER_CALL), total]


def test_the_replay_and_the_walk_count_the_steps_of_a_long_log(long_log) -> None:
    module, game, _ = long_log
    replayed: list[tuple[int, int]] = []
    rp = replay(game.root, module, game.path, on_step=lambda d, t: replayed.append((d, t)))
    assert len(rp.steps) > 3 * STEPS_PER_CALL
    _counts(replayed, len(rp.steps))
    judged: list[tuple[int, int]] = []
    verify_turn(module, game, load_pack(EXAMPLE.parent), rp, on_step=lambda d, t: judged.append((d, t)))
    _counts(judged, len(rp.steps))


def test_a_save_has_no_steps_to_count() -> None:
    calls: list[tuple[int, int]] = []
    rp = replay(load_save(EXAMPLE / "setup.vsav").root, on_step=lambda d, t: calls.append((d, t)))
    assert rp.steps == () and calls == []


class _Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def _args(path: Path) -> list[str]:
    return ["verify", str(path), "--module", str(EXAMPLE / "Kasserine.vmod"), "--pack", "kasserine"]


def test_on_a_terminal_the_line_counts_the_steps_replayed_then_judged(long_log, monkeypatch, capsys) -> None:
    _, game, path = long_log
    total = len(log_steps(game.root))
    ticks = itertools.count()
    monkeypatch.setattr(cli_output, "_clock", lambda: float(next(ticks)))  # a second a reading: past 2 s at once
    screen = _Terminal()
    monkeypatch.setattr(sys, "stderr", screen)
    code = cli.main.main(_args(path), standalone_mode=False)
    assert code in (None, 0, 1)  # a report was made
    assert capsys.readouterr().out.startswith("verify (module")  # the report, on standard output
    text = screen.getvalue()
    counted = [*range(STEPS_PER_CALL, total, STEPS_PER_CALL), total]
    shown = [f"verify: log 1/1, step {n}/{total} {how}" for how in ("replayed", "judged") for n in counted]
    places = [text.find(s) for s in shown]
    assert -1 not in places, text
    assert places == sorted(places)  # in the order the work went
    assert text.endswith("\r") and text.rsplit("\r", 2)[-2].strip() == ""  # wiped before the report


def test_off_a_terminal_nothing_is_written_on_standard_error(long_log, monkeypatch) -> None:
    _, _, path = long_log
    ticks = itertools.count()
    monkeypatch.setattr(cli_output, "_clock", lambda: float(next(ticks)))  # long past two seconds
    result = CliRunner().invoke(cli.main, _args(path))
    assert result.exit_code in (0, 1), result.output
    assert result.stderr == ""
    assert "verify: log" not in result.stdout
