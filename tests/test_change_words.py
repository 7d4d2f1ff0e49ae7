"""Changes are described in words a player uses (issue 11; VASSAL-FORMATS.md 6.6).

A Layer answers ``<layer>_Level`` (its signed state), ``_Active``, ``_Name`` (the level's name,
one ``+`` stripped) and ``_Image``. A change of level reads as the layer's name and the new
level's name ("Step: reduced"), a level without a name by its number, a layer no longer shown
as "off"; never as the raw values. Other properties keep ``name 'before' -> 'after'``.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner
from conftest import REPO
from test_piece_names import layer, piece_texts

from vassal_adj.cli import main
from vassal_adj.codec.obfuscation import Codec
from vassal_adj.model.events import PropertyChange
from vassal_adj.parse.commands import Node, encode, parse_stream
from vassal_adj.parse.tokens import join
from vassal_adj.pbem.changes import change_text
from vassal_adj.savedgame import SavedGame

MODULE = REPO / "modules" / "kasserine" / "example" / "Kasserine.vmod"


def changes(*rows: tuple[str, str | None, str | None]) -> tuple[PropertyChange, ...]:
    return tuple(PropertyChange(*row) for row in rows)


def test_6_6_a_level_change_reads_as_layer_and_level_name() -> None:
    reduced = changes(
        ("Step_Image", "full.png", "reduced.png"), ("Step_Level", "1", "2"), ("Step_Name", "full", "reduced")
    )
    assert change_text(reduced) == "Step: reduced"
    # "+ (flipped)" adds " (flipped)" after the name: the player's word is "flipped".
    assert (
        change_text(
            changes(("Flip_Level", "-1", "1"), ("Flip_Active", "false", "true"), ("Flip_Name", "", " (flipped)"))
        )
        == "Flip: flipped"
    )


def test_6_6_a_level_without_a_name_reads_as_its_number() -> None:
    assert change_text(changes(("Image_Image", "a.png", "b.png"), ("Image_Level", "1", "2"))) == "Image: level 2"


def test_6_6_a_layer_made_inactive_reads_as_off() -> None:
    assert (
        change_text(changes(("Step_Active", "true", "false"), ("Step_Level", "2", "-2"), ("Step_Name", "reduced", "")))
        == "Step: off"
    )
    assert change_text(changes(("Step_Level", "2", "-2"))) == "Step: off"  # the sign says it without _Active


def test_other_properties_keep_their_values_and_a_renamed_piece_drops_piece_name() -> None:
    mixed = changes(
        ("Hits", "0", "1"),
        ("PieceName", "Tank", "Tank (flipped)"),
        ("Flip_Level", "-1", "1"),
        ("Flip_Name", "", " (flipped)"),
        ("Unit_Name", "a", "b"),
    )
    # Unit_Name without Unit_Level is no layer's: a property like any other.
    assert change_text(mixed, renamed=True) == "Flip: flipped, Hits '0' -> '1', Unit_Name 'a' -> 'b'"
    assert "PieceName 'Tank' -> 'Tank (flipped)'" in change_text(mixed)


@pytest.fixture(scope="module")
def step_log(tmp_path_factory: pytest.TempPathFactory) -> Path:
    full, reduced = (piece_texts([layer("+ (full),+ (reduced)", value=v)], "Tiger", 100, 100) for v in ("1", "2"))
    opening = [Node(""), Node("", [Node("+/" + join(["801", *full], "/"))]), Node("end_save")]
    step = Node("LOG\tD/" + join(["801", reduced[1], full[1]], "/"))  # ChangePiece: id, new state, old state (5.3)
    root = parse_stream(encode(Node("begin_save", [*opening, step])))
    out = tmp_path_factory.mktemp("words") / "step.vlog"
    SavedGame.new(encode(root), codec=Codec(obfuscated=True, key=0x2A)).write(out)
    return out


@pytest.mark.parametrize("verbose", [(), ("-v",)])
def test_verify_lists_a_step_loss_in_words(step_log: Path, verbose: tuple[str, ...]) -> None:
    result = CliRunner().invoke(main, ["verify", str(step_log), "--module", str(MODULE), "--no-rules", *verbose])
    assert result.exit_code == 0, result.output
    assert "change   Tiger (full) -> Tiger (reduced) at Main Map" in result.output
    line = next(x for x in result.output.splitlines() if "change   Tiger" in x)
    assert line.endswith(": Step: reduced")
    assert "_Level" not in result.output and "_Image" not in result.output and "PieceName" not in result.output


def test_the_ccn_tutorial_lists_its_layer_changes_in_words(corpus: Path) -> None:
    log = corpus / "CommandsAndColorsNapoleonics" / "CCNv4 Tutorial.vlog"
    result = CliRunner().invoke(main, ["verify", str(log), "--no-rules"])
    assert result.exit_code == 0, result.output
    assert "change   Leadership -> playable at Main Map @1285,433: CardAction: playable" in result.output
    # a marker whose layer levels have no names, hidden before: now shown by its level
    assert "change   Attacker at Main Map @1380,280: Image: level 2" in result.output
    assert "_Level" not in result.output and "_Name" not in result.output
