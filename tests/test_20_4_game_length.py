"""The game's length bounds --turn: Kasserine's weather table (20.4) gives Turns One through
Twelve, so `--turn 13` (or 0, or -1) is a usage error naming the range, not a game turn with
no weather. A pack says its length with [state] turns, or by its weather table's length.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner
from conftest import REPO

from vassal_adj.cli import main
from vassal_adj.errors import PackError
from vassal_adj.rules.packs.pack import RulePack, StateSource

EXAMPLE = REPO / "modules" / "kasserine" / "example"
ARGS = ["check", str(EXAMPLE / "turn3-faults.vsav"), "--module", str(EXAMPLE / "Kasserine.vmod")]


def check(*extra: str) -> tuple[int, str]:
    result = CliRunner().invoke(main, [*ARGS, *extra])
    return result.exit_code, result.stdout + result.stderr


@pytest.mark.parametrize("turn", ["13", "0", "-1", "99"])
def test_20_4_a_turn_outside_one_through_twelve_is_a_usage_error(turn: str) -> None:
    code, out = check("--turn", turn)
    assert code == 2, out
    assert f"--turn {turn}: the Game-Turns of pack 'kasserine' are 1 to 12" in out


def test_20_4_turn_twelve_is_the_last_and_is_good_weather() -> None:
    code, out = check("--turn", "12", "--format", "json")
    assert code == 1, out  # the example's faults
    assert '"turn": 12' in out and '"weather": "good"' in out


def test_the_game_length_is_the_turns_key_else_the_weather_table() -> None:
    assert StateSource(weather_by_turn=("good",) * 12).game_turns == 12
    assert StateSource(turns=15).game_turns == 15
    assert StateSource().game_turns is None


def test_a_pack_with_turns_bounds_turn_without_a_weather_table(tmp_path: Path) -> None:
    pack = tmp_path / "short"
    shutil.copytree(REPO / "modules" / "kasserine", pack, ignore=shutil.ignore_patterns("example"))
    toml = pack / "pack.toml"
    text = toml.read_text(encoding="utf-8")
    table = next(line for line in text.splitlines() if line.startswith("weather_by_turn = "))
    toml.write_text(text.replace(table, "turns = 12"), encoding="utf-8")
    code, out = check("--pack", str(pack), "--turn", "13")
    assert code == 2 and "are 1 to 12" in out
    code, out = check("--pack", str(pack), "--turn", "12", "--format", "json")
    assert code == 1 and '"turn": 12' in out and '"weather": null' in out


@pytest.mark.parametrize(
    ("state", "message"),
    [
        (
            {"turns": 10, "weather_by_turn": ["good"] * 12},
            "state.weather_by_turn: 12 entries, but state.turns says the game has 10 Game-Turns",
        ),
        ({"turns": 0}, "state.turns: expected the number of Game-Turns (1 or more), got 0"),
        ({"turns": True}, "state.turns: expected int, got True (bool)"),
    ],
)
def test_turns_and_the_weather_table_agree(state: dict[str, object], message: str) -> None:
    with pytest.raises(PackError) as e:
        RulePack.from_mapping({"pack": {"id": "x", "name": "X"}, "state": state})
    assert message in str(e.value)
