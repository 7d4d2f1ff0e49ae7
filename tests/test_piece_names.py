"""Piece names are what VASSAL shows (VASSAL-FORMATS.md 6.3, 6.6, 6.7; VASSAL's getName).

A save on the example module holds pieces whose names use what real modules use: a Basic
Name trait (3.6) over the BasicPiece's name, Layer level names that prefix, suffix or replace
the name, a Layer that follows a property, Text Labels whose label and name format hold
``$property$`` placeholders (filled from markers, dynamic properties, translatable messages,
layer properties and the basic name), and a label that names its own property. Each name below
is worked by hand from those rules; the real VASSAL (the oracle) must show the same.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import REPO, need_corpus
from test_vassal_accepts import oracle_pieces

import vassal_adj
from vassal_adj.codec.obfuscation import Codec
from vassal_adj.parse.builder import game_pieces
from vassal_adj.parse.commands import Node, encode, parse_stream
from vassal_adj.parse.tokens import join
from vassal_adj.parse.traits import parse_piece, piece_name, piece_properties
from vassal_adj.savedgame import SavedGame

MODULE = REPO / "modules" / "kasserine" / "example" / "Kasserine.vmod"


def layer(levels: str, name: str = "Step", value: str = "1", follow: str = "") -> tuple[str, str]:
    """An ``emb2;`` Layer (6.6) without images; `follow` names the property it follows."""
    images = ",".join("" for _ in levels.split(","))
    fields = [
        "emb2",
        "Flip",
        "128",
        "A",
        "",
        "128",
        "",
        "",
        "128",
        "",
        "",
        "",
        "1",
        "false",
        "0",
        "0",
        images,
        levels,
        "true",
        name,
        "",
        "",
        "true" if follow else "false",
        follow,
        "1",
        "1",
        "false",
    ]
    return join(fields, ";"), value


def label(fmt: str = "$pieceName$ ($label$)", prop: str = "TextLabel") -> str:
    """A ``label;`` Text Label type (6.7) with a name format and a property name."""
    return join(
        ["label", "", "Change", "10", "", "0,0,0", "t", "0", "c", "0", "b", "c", fmt, "Dialog", "0", "0", prop, ""], ";"
    )


MARKS = ("mark;Strength,Move", "5,3")
TITLE = ("locmsg;Title;;The Title", "")
LEVEL = ("PROP;Level;false,0,100,false;;", "2")

# (traits outermost first as (type, state), basic name, the name worked by hand)
CASES: list[tuple[list[tuple[str, str]], str, str]] = [
    ([("basicName;Renamed", "")], "Original", "Renamed"),
    ([layer("Elite +"), ("basicName;Renamed", "")], "Original", "Elite Renamed"),
    # the Basic Name outside the layer still names the BasicPiece inside it
    ([("basicName;Renamed", ""), layer("+ (reduced)")], "Original", "Renamed (reduced)"),
    ([layer("Wreck")], "Tank", "Wreck"),
    ([layer("Wreck", value="-1")], "Tank", "Tank"),  # inactive
    ([layer("Wreck", value="x")], "Tank", "Tank"),  # not an int: VASSAL reads -1, inactive
    ([layer("One,Two", value="1", follow="Level"), LEVEL], "Unit", "Two"),  # the property says level 2
    ([(label("$pieceName$ [$label$]"), "$Strength$-$Move$"), MARKS], "U", "U [5-3]"),
    ([(label(), "$Title$"), TITLE], "U", "U (The Title)"),
    ([(label(), "  A$TextLabel$B  ")], "U", "U (AB)"),  # trimmed, its own property removed
    ([(label(), "$BasicName$"), ("basicName;Renamed", "")], "Original", "Renamed (Renamed)"),
    (
        [(label(), "$Step_Name$|$Step_Level$|$Step_Active$"), layer("Elite +,+ (2)", value="1")],
        "U",
        "Elite U (Elite |1|true)",
    ),
    ([(label(), "$Step_Name$|$Step_Level$|$Step_Active$"), layer("Elite +,+ (2)", value="-2")], "U", "U (|-2|false)"),
    (
        [(label("$label$ / $pieceName$"), "A"), layer("+ (flipped)"), ("basicName;Renamed", "")],
        "Original",
        "A / Renamed (flipped)",
    ),
]


def piece_texts(traits: list[tuple[str, str]], basic: str, x: int, y: int) -> tuple[str, str]:
    type_text, state_text = f"piece;;;;{basic}", f"Main Map;{x};{y};0;0"
    for t, s in reversed(traits):
        # A decorator chain nests: each trait holds the rest, TAB-encoded (spec 6.1).
        type_text, state_text = join([t, type_text], "\t"), join([s, state_text], "\t")
    return type_text, state_text


@pytest.mark.parametrize(("traits", "basic", "expected"), CASES)
def test_6_name_is_what_vassal_shows(traits: list[tuple[str, str]], basic: str, expected: str) -> None:
    assert piece_name(parse_piece(*piece_texts(traits, basic, 0, 0))) == expected


def test_6_7_a_placeholder_the_piece_does_not_hold_is_left_as_written() -> None:
    # A global or map property's value is not in the piece: the name says it was not filled.
    piece = parse_piece(*piece_texts([(label(), "$Weather$ $Strength$"), MARKS], "U", 0, 0))
    assert piece_name(piece) == "U ($Weather$ 5)"
    assert piece_properties(piece)["TextLabel"] == "$Weather$ 5"


def test_6_3_basic_name_trait_is_the_basic_name_property() -> None:
    props = piece_properties(parse_piece(*piece_texts([("basicName;Renamed", "")], "Original", 0, 0)))
    assert props["BasicName"] == "Renamed" and props["PieceName"] == "Renamed"


@pytest.fixture(scope="module")
def names_save(tmp_path_factory: pytest.TempPathFactory) -> Path:
    adds = []
    for k, (traits, basic, _) in enumerate(CASES):
        type_text, state_text = piece_texts(traits, basic, 100 + 60 * k, 100)
        adds.append(Node("+/" + join([f"70{k:02d}", type_text, state_text], "/")))
    root = parse_stream(encode(Node("begin_save", [Node(""), Node("", adds), Node("end_save")])))
    out = tmp_path_factory.mktemp("names") / "names.vsav"
    SavedGame.new(encode(root), codec=Codec(obfuscated=True, key=0x2A)).write(out)
    return out


def test_6_names_in_a_save_are_the_names_vassal_builds(names_save: Path) -> None:
    module = vassal_adj.load_module(MODULE)
    ours = {p.id: p.name for p in game_pieces(vassal_adj.load_save(names_save).root, module)}
    assert ours == {f"70{k:02d}": expected for k, (_, _, expected) in enumerate(CASES)}
    vassal = {p["id"]: p["name"] for p in oracle_pieces(MODULE, names_save)["result"]["pieces"]}
    assert vassal == ours


def test_6_nevsky_names_come_from_basic_name_and_translatable_messages() -> None:
    # Nevsky (3.6.6): a locale's BasicPiece has no name and a Basic Name trait "Reval"; a card
    # slot's label "$MyLabelString$" is a Translatable Message's property. VASSAL shows
    # "Reval" and " (Teuton Command Card Planning)" (its name format "$pieceName$ ($label$)"
    # around an empty basic name); before, these read "" and " ($MyLabelString$)".
    game = vassal_adj.load_save(need_corpus() / "Nevsky" / "Scenario_Peipus_1242.vsav")
    names = {p.id: p.name for p in game_pieces(game.root)}
    assert names["1651162328334"] == "Reval"
    assert names["1651162329017"] == " (Teuton Command Card Planning)"
    assert all("$" not in n for n in names.values())
