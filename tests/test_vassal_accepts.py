"""The real VASSAL engine (3.6, headless, via ../shared/tools/vassal-oracle) loads what we write.

Skipped when the oracle is not set up, unless REQUIRE_ORACLE=1 (as in CI).
"""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import pytest
from conftest import CORPUS, REPO, need_corpus

import vassal_adj
from vassal_adj.codec.obfuscation import Codec
from vassal_adj.parse.builder import game_pieces
from vassal_adj.parse.commands import iter_nodes, log_steps, unlogged
from vassal_adj.pbem.replay import replay

ORACLE = CORPUS.parent / "tools" / "vassal-oracle" / "vassal-oracle"
ORACLE_HOME = Path(os.environ.get("VASSAL_ORACLE_HOME", Path.home() / ".cache" / "vassal-oracle"))
EXAMPLE = REPO / "modules" / "kasserine" / "example"


def oracle_pieces(module: Path, save: Path, *more: str) -> dict:
    if not (ORACLE.exists() and (ORACLE_HOME / "oracle-env.json").exists()):
        if os.environ.get("REQUIRE_ORACLE") == "1":
            pytest.fail(f"vassal-oracle not set up (run {ORACLE.parent}/setup.sh)")
        pytest.skip("vassal-oracle not set up")
    done = subprocess.run(
        [str(ORACLE), "pieces", str(module), str(save), "--strict", *more], capture_output=True, text=True, timeout=300
    )
    result = json.loads(done.stdout)
    assert done.returncode == 0 and result["ok"], result.get("error")
    return result


@pytest.mark.parametrize("save", ["setup.vsav", "turn3-faults.vsav"])
def test_vassal_loads_the_example_save_with_every_piece_at_its_place(save: str) -> None:
    result = oracle_pieces(EXAMPLE / "Kasserine.vmod", EXAMPLE / save)
    vassal = {p["id"]: (p["name"], p["map"], p["x"], p["y"], p["location"]) for p in result["result"]["pieces"]}
    module = vassal_adj.load_module(EXAMPLE / "Kasserine.vmod")
    game = vassal_adj.load_save(EXAMPLE / save)
    ours = {p.id: (p.name, p.map, p.x, p.y, p.location) for p in game_pieces(game.root, module)}
    assert len(ours) == 99  # 96 counters, two withdrawal markers, the turn marker
    assert vassal == ours
    # Every piece has a name VASSAL gives: a hex label on the map, a box name off it.
    assert all(p[4] not in (None, "offboard") for p in ours.values())
    assert result["load"]["decoded_commands"].get("TurnTracker$SetTurn") == 1


@pytest.mark.parametrize("log", ["turn4-axis.vlog", "turn4-restart.vlog", "turn4-wrong-start.vlog"])
def test_vassal_loads_the_example_log_and_decodes_its_steps(log: str) -> None:
    result = oracle_pieces(EXAMPLE / "Kasserine.vmod", EXAMPLE / log)
    vassal = {p["id"]: (p["name"], p["map"], p["x"], p["y"], p["location"]) for p in result["result"]["pieces"]}
    module = vassal_adj.load_module(EXAMPLE / "Kasserine.vmod")
    game = vassal_adj.load_save(EXAMPLE / log)
    opening = {p.id: (p.name, p.map, p.x, p.y, p.location) for p in replay(game.root, module).opening}
    assert vassal == opening and len(opening) == 99  # the oracle builds the position a log opens on
    # Every LOG entry decodes, except what the oracle's engine (3.6.0) predates: the undo
    # markers of 3.6.7 and the container id ("Module") ending 3.6.7's MutableProperty commands.
    texts = [unlogged(n.text) for s in log_steps(game.root) for _, _, n in iter_nodes(s)]
    newer = sum(1 for t in texts if t.startswith(("UNDO\t", "MutableProperty\t")))
    assert result["load"]["decoded_commands"]["BasicLogger$LogCommand"] == len(texts) - newer


def test_vassal_loads_a_corpus_save_we_rewrote_with_another_key(tmp_path: Path) -> None:
    need_corpus()
    source = CORPUS / "Kassala" / "Default Setup.vsav"
    out = tmp_path / "rewritten.vsav"
    vassal_adj.load_save(source).write(out, codec=Codec(obfuscated=True, key=0xC3, upper=True))
    before = oracle_pieces(CORPUS / "Kassala" / "Kassala.vmod", source)["result"]["pieces"]
    after = oracle_pieces(CORPUS / "Kassala" / "Kassala.vmod", out)["result"]["pieces"]
    assert after == before and len(after) == 23
