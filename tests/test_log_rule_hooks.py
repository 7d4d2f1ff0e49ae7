"""Log rules from a pack's hooks.py (rules/registry.py `register(..., log=True)`): `verify` calls
them on each segment of a log as it closes; `check` on a save does not (a save has no segments).

The hook is Kesselring's War 13.2, "Different contingents never move in one action" (RULES-MAP.md
W 13.2), with the example units' formations as contingents: 3-2-16 (580) is of the 21.
Panzer-Division, 1-2-9 (Lang) of Kampfgruppe Lang. Actions are opened by a chat line (N23).
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner
from conftest import REPO
from kasserine_logs import EXAMPLE, MODULE, write_log

import vassal_adj
from vassal_adj.cli import main
from vassal_adj.packs import load_pack
from vassal_adj.pbem.replay import replay
from vassal_adj.pbem.verify import verify_turn
from vassal_adj.rules.registry import REGISTRY

HOOKS = '''
from vassal_adj.rules.registry import register
from vassal_adj.rules.results import Finding, Severity


@register("test.one_contingent", log=True)
def one_contingent(segment, ctx, params):
    """Units of different formations never move in one action."""
    moved = sorted({segment.start.units[u].formation for u in segment.moves if u in segment.start.units})
    if len(moved) < 2:
        return []
    return [Finding(ctx.cite(), Severity.ERROR, f"units of {', '.join(moved)} moved in one action")]
'''
RULES = """
[rules.actions]
impl = "log.segments"
rule_ref = "6.1"
by = { chat = '(?P<side>Axis|Allied) action' }

[rules.contingents]
impl = "test.one_contingent"
rule_ref = "13.2"
"""


@pytest.fixture(autouse=True)
def _unregister():
    """The hook registers into the package registry: take it out again, as test_packs does."""
    yield
    REGISTRY._impls.pop("test.one_contingent", None)


RECCE, LANG = ("move", "Axis", "3-2-16 (580)", "2525"), ("move", "Axis", "1-2-9 (Lang)", "3920")


def hooked_pack(tmp_path: Path) -> Path:
    pack = tmp_path / "hooked"
    shutil.rmtree(pack, ignore_errors=True)
    shutil.copytree(REPO / "modules" / "kasserine", pack, ignore=shutil.ignore_patterns("example"))
    toml = pack / "pack.toml"
    text = toml.read_text(encoding="utf-8").replace("[pack]\n", '[pack]\nhooks = "hooks.py"\n', 1)
    toml.write_text(text + RULES, encoding="utf-8")
    (pack / "hooks.py").write_text(HOOKS, encoding="utf-8")
    return pack


def verified(tmp_path: Path, steps: list[tuple[str, ...]]) -> list[tuple[str, str]]:
    lp = load_pack(hooked_pack(tmp_path))
    log = write_log(tmp_path / "log.vlog", steps)
    module, game = vassal_adj.load_module(MODULE), vassal_adj.load_save(log)
    v = verify_turn(module, game, lp, replay(game.root, module, game.path))
    return [(f.rule, f.message) for f in v.findings if f.rule.endswith(":13.2")]


def test_13_2_a_hook_log_rule_judges_each_action(tmp_path: Path) -> None:
    action = ("chat", "Axis", "Axis action")
    assert verified(tmp_path, [action, RECCE, LANG]) == [
        (
            "kasserine:13.2",
            (
                "Turn 4 axis-movement, segment side='Axis': units of 21. Panzer-Division, Kampfgruppe "
                "Lang moved in one action"
            ),
        )
    ]
    assert verified(tmp_path, [action, RECCE, action, LANG]) == []


def test_a_log_rule_is_listed_as_one_and_not_run_on_a_save(tmp_path: Path) -> None:
    hooked_pack(tmp_path)
    load_pack(tmp_path / "hooked")
    assert REGISTRY.lookup("test.one_contingent").log
    r = CliRunner().invoke(
        main,
        [
            "check",
            str(EXAMPLE / "setup.vsav"),
            "--module",
            str(MODULE),
            "--pack",
            str(tmp_path / "hooked"),
            "--format",
            "json",
        ],
    )
    assert r.exit_code in (0, 1), r.output
    report = json.loads(r.output)
    assert "allied_setup" in {c["rule"] for c in report["checked"]}
    assert not {"actions", "contingents"} & {c["rule"] for c in report["checked"]}
    assert not [f for f in report["findings"] if f["rule"].endswith(":13.2")]
