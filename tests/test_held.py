"""Objects kept within a process for the next caller (held.py): the same object for the same key,
made again when a file changes, a few at a time; and commands run one after another in one process
(as a batch runs them) print what each prints alone."""

from __future__ import annotations

import shutil
from collections import OrderedDict
from pathlib import Path

import pytest
from click.testing import CliRunner
from conftest import REPO

from vassal_adj import held
from vassal_adj.cli import main
from vassal_adj.held import held as hold
from vassal_adj.packs import load_pack

EXAMPLE = REPO / "modules" / "kasserine" / "example"
MODULE = str(EXAMPLE / "Kasserine.vmod")


@pytest.fixture(autouse=True)
def _nothing_held(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(held, "_HELD", OrderedDict())


def test_the_same_key_gives_the_same_object_and_another_key_a_new_one() -> None:
    first = hold("a", "k1", lambda: ["made"])
    assert hold("a", "k1", lambda: pytest.fail("made again")) is first
    second = hold("a", "k2", lambda: ["made again"])
    assert second == ["made again"]
    assert hold("a", "k1", lambda: ["a third"]) == ["a third"]  # k2 replaced k1: one object per name


def test_a_failed_build_holds_nothing_and_lets_the_old_object_go() -> None:
    hold("a", "k1", lambda: "old")

    def fail() -> str:
        raise ValueError("bad file")

    with pytest.raises(ValueError):
        hold("a", "k2", fail)
    assert hold("a", "k1", lambda: "new") == "new"


def test_only_the_most_recently_asked_are_held() -> None:
    for n in range(held._ROOM + 5):
        hold(f"n{n}", "k", lambda n=n: n)
    assert len(held._HELD) == held._ROOM
    hold(f"n{held._ROOM + 4}", "k", lambda: pytest.fail("the newest was let go"))
    assert hold("n0", "k", lambda: "made again") == "made again"


def test_a_pack_is_read_again_when_a_file_of_it_changes(tmp_path: Path) -> None:
    pack_dir = tmp_path / "kasserine"
    shutil.copytree(REPO / "modules" / "kasserine", pack_dir, ignore=shutil.ignore_patterns("example"))
    lp = load_pack(pack_dir)
    assert load_pack(pack_dir) is lp
    toml = pack_dir / "pack.toml"
    text = toml.read_text(encoding="utf-8")
    assert f'id = "{lp.id}"' in text
    toml.write_text(text.replace(f'id = "{lp.id}"', 'id = "kasserine-copy"', 1), encoding="utf-8")
    assert load_pack(pack_dir).id == "kasserine-copy"


def _run(argv: list[str]) -> str:
    result = CliRunner().invoke(main, argv, catch_exceptions=False)
    assert result.exit_code in (0, 1), result.output
    return result.output


def test_commands_in_one_process_print_what_each_prints_alone() -> None:
    """A batch's worker runs verify, check and vp one game after another with what it holds."""
    commands = [
        ["verify", str(EXAMPLE / "setup.vsav"), str(EXAMPLE / "turn4-axis.vlog"), "--module", MODULE],
        ["check", str(EXAMPLE / "turn3-faults.vsav"), "--module", MODULE, "--format", "json"],
        ["verify", str(EXAMPLE / "turn4-wrong-start.vlog"), "--module", MODULE, "--format", "markdown"],
        ["vp", str(EXAMPLE / "setup.vsav"), str(EXAMPLE / "turn3-faults.vsav"), "--module", MODULE],
    ]
    alone = []
    for argv in commands:
        held._HELD.clear()
        alone.append(_run(argv))
    assert held._HELD  # the last one's module, pack, terrain and board index
    in_turn = [_run(argv) for argv in [*commands, *commands]]
    assert in_turn == alone + alone
