"""`annotate`: a copy of the save with the findings added, every original byte kept, and
the real VASSAL engine loads it with the markers where the units are.

The oracle parts skip when vassal-oracle is not set up, unless REQUIRE_ORACLE=1.
"""

from __future__ import annotations

import hashlib
import zipfile
from pathlib import Path

import pytest
from conftest import CORPUS, REPO, need_corpus
from test_vassal_accepts import oracle_pieces

import vassal_adj
from vassal_adj.errors import UsageError
from vassal_adj.model.module import Module
from vassal_adj.packs import find_pack
from vassal_adj.parse.builder import game_pieces
from vassal_adj.parse.records import PublicNotes
from vassal_adj.parse.traits import BasicPiece, Labeler, Marker, parse_add_piece_text
from vassal_adj.report.annotate import annotate
from vassal_adj.rules.engine import adjudicate
from vassal_adj.rules.results import Finding, Severity
from vassal_adj.savedgame import SavedGame
from vassal_adj.state_builder import game_state

EXAMPLE = REPO / "modules" / "kasserine" / "example"
MODULE = EXAMPLE / "Kasserine.vmod"
SAVE = EXAMPLE / "turn3-faults.vsav"
END = "\x1bend_save"


def _digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


@pytest.fixture(scope="module")
def kasserine() -> tuple[Module, SavedGame, tuple[Finding, ...]]:
    module = vassal_adj.load_module(MODULE)
    game = vassal_adj.load_save(SAVE)
    lp = find_pack("kasserine")
    state, context, _ = game_state(module, game, lp)
    return module, game, adjudicate(state, lp, context).findings


@pytest.fixture(scope="module")
def annotated(kasserine, tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, list]:
    module, game, findings = kasserine
    before = _digest(SAVE)
    out = tmp_path_factory.mktemp("annotate") / "turn3-annotated.vsav"
    markers = annotate(game, findings, out, module=module)
    assert _digest(SAVE) == before  # the input is never touched
    return out, markers


def test_every_original_command_is_kept_byte_for_byte(kasserine, annotated) -> None:
    _, game, _ = kasserine
    out, _ = annotated
    new = vassal_adj.load_save(out)
    assert game.text.endswith(END) and new.text.endswith(END)
    assert new.text.startswith(game.text[: -len(END)])
    old_nodes = [n.text for _, _, n in game.nodes()]
    new_nodes = [n.text for _, _, n in new.nodes()]
    assert new_nodes[: len(old_nodes) - 1] == old_nodes[:-1] and new_nodes[-1] == "end_save"
    assert new.codec == game.codec
    # The other zip entries are the same bytes, in the same order.
    with zipfile.ZipFile(SAVE) as a, zipfile.ZipFile(out) as b:
        assert a.namelist() == b.namelist()
        assert all(a.read(n) == b.read(n) for n in a.namelist() if n != "savedGame")


def test_the_game_object_is_not_changed(kasserine, annotated) -> None:
    _, game, _ = kasserine
    assert game.encoded_text() == game.text


def test_a_marker_on_every_unit_cited_by_an_error_or_warning(kasserine, annotated) -> None:
    module, game, findings = kasserine
    out, markers = annotated
    pieces = {p.id: p for p in game_pieces(game.root, module)}
    cited = {u for f in findings if f.severity != Severity.INFO for u in f.units}
    assert {(m.label, m.units) for m in markers} == {
        ("assumption stacking_limit error", ("3-4-11 (2/69)", "3-4-11 (2/86)")),
        ("16.11 error", ("5-3-12 (1/5)",)),
        ("17.11 warning", ("3-2-16 (580)",)),
    }
    new = vassal_adj.load_save(out)
    added = {p.id: p for p in game_pieces(new.root, module)}
    for m in markers:
        units = [pieces[u] for u in cited if pieces[u].name in m.units]
        assert all(added[m.id].location == u.location for u in units)
    texts = [n.text for _, _, n in new.nodes() if n.text.startswith("+/")]
    for m in markers:
        text = next(t for t in texts if t.startswith(f"+/{m.id}/"))
        _, piece = parse_add_piece_text(text)
        assert [type(t) for t in piece.traits] == [Labeler, Marker, BasicPiece]
        assert piece.traits[0].label == m.label


def test_the_findings_are_listed_in_chat(kasserine, annotated) -> None:
    _, _, findings = kasserine
    out, _ = annotated
    chat = [n.text for _, _, n in vassal_adj.load_save(out).nodes() if n.text.startswith("CHAT")]
    problems = [f for f in findings if f.severity != Severity.INFO]
    assert len(chat) == 1 + len(problems)
    assert "2 error(s), 1 warning(s)" in chat[0]
    assert all(f.rule in line for f, line in zip(problems, chat[1:], strict=False))


def test_chat_text_is_escaped_for_vassal_html(kasserine, tmp_path: Path) -> None:
    module, game, _ = kasserine
    out = tmp_path / "escaped.vsav"
    annotate(game, [Finding("t:1", Severity.ERROR, "<b>x</b> & y")], out, module=module)
    chat = [n.text for _, _, n in vassal_adj.load_save(out).nodes() if n.text.startswith("CHAT")]
    assert chat[-1] == "CHAT* error t:1: &lt;b&gt;x&lt;/b&gt; &amp; y"


def test_the_input_is_refused(kasserine) -> None:
    module, game, findings = kasserine
    with pytest.raises(UsageError):
        annotate(game, findings, SAVE, module=module)


def _ragnarok(tmp_path: Path) -> tuple[Path, SavedGame, Path, list, str]:
    need_corpus()
    module_path = CORPUS / "Ragnarok" / "Ragnarok.vmod"
    save = CORPUS / "Ragnarok" / "ragnarok-start.vsav"
    module = vassal_adj.load_module(module_path)
    game = vassal_adj.load_save(save)
    piece = next(p for p in game_pieces(game.root, module) if p.map == "Main Map" and p.location)
    out = tmp_path / "ragnarok-annotated.vsav"
    markers = annotate(
        game,
        [Finding("ragnarok:5.1", Severity.WARNING, "a test finding", units=(piece.id,), hexes=(piece.location,))],
        out,
        module=module,
    )
    return module_path, game, out, markers, piece.location


def test_passwords_are_written_unchanged_and_notes_keep_the_original(tmp_path: Path) -> None:
    _, game, out, _, _ = _ragnarok(tmp_path)
    new = vassal_adj.load_save(out)
    assert game.secrets() and new.secrets() == game.secrets()
    notes = [n.command for _, _, n in new.nodes() if n.text.startswith("PNOTES\t")]
    old = [n.command for _, _, n in game.nodes() if n.text.startswith("PNOTES\t")]
    assert len(notes) == len(old) + 1 and all(isinstance(n, PublicNotes) for n in notes)
    assert notes[-1].text.startswith(old[-1].text)
    assert "warning ragnarok:5.1: a test finding" in notes[-1].text


def test_vassal_loads_the_annotated_example_with_the_markers_on_the_units(kasserine, annotated) -> None:
    module, game, _ = kasserine
    out, markers = annotated
    result = oracle_pieces(MODULE, out)
    vassal = {p["id"]: p for p in result["result"]["pieces"]}
    assert len(vassal) == 99 + len(markers)
    where = {p.name: p.location for p in game_pieces(game.root, module)}
    for m in markers:
        got = vassal[m.id]
        assert (got["map"], got["x"], got["y"]) == (m.map, m.x, m.y)
        assert {got["location"]} == {where[u] for u in m.units}
        assert got["name"] == f"vassal-adj: {', '.join(m.units)} ({m.label})"  # the Text Label was built
    assert result["load"]["decoded_commands"].get("Chatter$DisplayText") == 4


def test_vassal_loads_an_annotated_corpus_save_with_notes(tmp_path: Path) -> None:
    module_path, _, out, markers, location = _ragnarok(tmp_path)
    result = oracle_pieces(module_path, out)
    vassal = {p["id"]: p for p in result["result"]["pieces"]}
    (marker,) = markers
    assert vassal[marker.id]["name"].endswith(f"({marker.label})")
    assert vassal[marker.id]["location"] == location
    assert result["load"]["decoded_commands"].get("NotesWindow$SetPublicNote") == 3
