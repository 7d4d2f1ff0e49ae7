"""--annotate with a log: a game exchanged only as logs is annotated at the log's END (spec 5.6:
the position VASSAL shows once every step is replayed), written as a save VASSAL opens
(pbem/log_end.py), with the markers on the units where the steps leave them.

The oracle parts skip when vassal-oracle is not set up, unless REQUIRE_ORACLE=1.
"""

from __future__ import annotations

import hashlib
from pathlib import Path

from click.testing import CliRunner
from conftest import CORPUS, REPO, need_corpus
from test_vassal_accepts import oracle_pieces

import vassal_adj
from vassal_adj.cli import main
from vassal_adj.packs import find_pack
from vassal_adj.parse.builder import game_pieces
from vassal_adj.parse.commands import iter_nodes, log_steps
from vassal_adj.parse.dice import unwrap
from vassal_adj.parse.records import GlobalProperty, MutableProperty
from vassal_adj.pbem.log_end import end_save
from vassal_adj.pbem.log_state import opening_turn
from vassal_adj.pbem.replay import replay

EXAMPLE = REPO / "modules" / "kasserine" / "example"
MODULE = EXAMPLE / "Kasserine.vmod"
AXIS = EXAMPLE / "turn4-axis.vlog"
COT = CORPUS / "CaptureOfTheTerritory"
CCN = CORPUS / "CommandsAndColorsNapoleonics"


def places(pieces) -> dict[str, tuple]:
    return {p.id: (p.name, p.map, p.x, p.y, p.location) for p in pieces}


def annotate_log(command: str, log: Path, module: Path, out: Path, *more: str) -> str:
    before = hashlib.sha256(log.read_bytes()).hexdigest()
    result = CliRunner().invoke(main, [command, str(log), "--module", str(module), *more, "--annotate", str(out)])
    assert result.exit_code in (0, 1), result.output
    assert hashlib.sha256(log.read_bytes()).hexdigest() == before  # the log itself is never written
    return result.output


def test_verify_annotates_a_log_at_its_end_and_vassal_opens_it_with_every_piece_there(tmp_path: Path) -> None:
    out = tmp_path / "turn4-axis-annotated.vsav"
    said = annotate_log("verify", AXIS, MODULE, out)
    assert "6 marker(s) written to" in said
    module = vassal_adj.load_module(MODULE)
    end = places(replay(vassal_adj.load_save(AXIS).root, module).final)
    written = places(game_pieces(vassal_adj.load_save(out).root, module))
    markers = {k: v for k, v in written.items() if k not in end}
    assert {k: v for k, v in written.items() if k in end} == end and len(markers) == 6
    vassal = oracle_pieces(MODULE, out)
    assert places_of(vassal) == written  # VASSAL builds the replay's end position, markers included
    # 2/5's 19.2 error marks it where its move ended (2010), not where the log opened (2711).
    assert any(v[4] == "2010" and "5-3-12 (2/5)" in v[0] for v in markers.values())
    assert not any(v[4] == "2711" for v in markers.values())


def places_of(oracle: dict) -> dict[str, tuple]:
    return {p["id"]: (p["name"], p["map"], p["x"], p["y"], p["location"]) for p in oracle["result"]["pieces"]}


def test_check_annotates_a_log_at_the_end_it_judges(tmp_path: Path) -> None:
    out = tmp_path / "turn4-axis-checked.vsav"
    said = annotate_log("check", AXIS, MODULE, out, "--pack", "kasserine")
    assert "marker(s) written to" in said
    module = vassal_adj.load_module(MODULE)
    saved = vassal_adj.load_save(out)
    assert not saved.is_log
    end = places(replay(vassal_adj.load_save(AXIS).root, module).final)
    written = places(game_pieces(saved.root, module))
    assert {k: v for k, v in written.items() if k in end} == end and len(written) > len(end)  # and its markers
    # The turn tracker is restored as the log leaves it: the Allied Movement Phase of turn 4.
    assert opening_turn(module, saved, find_pack("kasserine")) == (4, "allied-movement")
    assert opening_turn(module, vassal_adj.load_save(AXIS), find_pack("kasserine")) == (4, "axis-movement")


def test_a_corpus_log_that_adds_every_piece_ends_in_vassal_where_its_replay_ends(tmp_path: Path) -> None:
    need_corpus()
    out = tmp_path / "5x5-end.vsav"
    annotate_log("verify", COT / "5x5_startup.vlog", COT / "CaptureOfTheTerritory.vmod", out)
    module = vassal_adj.load_module(COT / "CaptureOfTheTerritory.vmod")
    rp = replay(vassal_adj.load_save(COT / "5x5_startup.vlog").root, module)
    assert not rp.opening and len(rp.final) == 6  # the log opens on an empty board and adds all six
    assert places_of(oracle_pieces(COT / "CaptureOfTheTerritory.vmod", out)) == places(rp.final)


def test_5_6_the_end_of_the_ccn_tutorial_log_keeps_its_decks_stacks_and_global_properties() -> None:
    need_corpus()
    log = vassal_adj.load_save(CCN / "CCNv4 Tutorial.vlog")
    root = end_save(log.root)
    rp = replay(log.root)
    assert places(game_pieces(root)) == places(rp.final) != places(rp.opening)
    assert not log_steps(root) and root.children[-1].text == "end_save"
    # Each global property restored as its last change in the steps leaves it.
    last = {}
    for step in log_steps(log.root):
        for _, _, node in iter_nodes(step):
            if isinstance(cmd := unwrap(node.command), MutableProperty):
                last[cmd.name] = cmd.new
    restored = {c.name: c.value for k in root.children if isinstance(c := k.command, GlobalProperty)}
    changed = {n for n in last if n in restored}
    assert changed and all(restored[n] == last[n] for n in changed)
    # A piece the steps never touched keeps its AddPiece text byte for byte.
    (pieces,) = [k for k in root.children if not k.text and k.children]
    opening = {t.text for k in log.root.children if not k.text for t in k.children}
    assert len(opening & {t.text for t in pieces.children}) > 100
    # Every deck stays, the empty ones too (a place to put cards on); the stacks VASSAL drops when
    # empty (42,006 of the saved part's) do not come back.
    decks = {t.text.split("/")[1] for t in log.root.children[1].children if "/deck;" in t.text}
    assert len(decks) == 14 and decks <= {t.text.split("/")[1] for t in pieces.children}
    assert len(pieces.children) < 300
