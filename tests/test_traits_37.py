"""The traits VASSAL 3.7 and 3.8 added (VASSAL-FORMATS.md 6.2, pitfalls 6 and 23): typed where a
report reads them, kept raw otherwise, and written back byte for byte, newer fields included.

Real instances come from the corpus: Comment, Attachment and Set Piece Property in Commands &
Colors: Napoleonics (3.7.5), Border Outline in Vive l'Empereur, Multi-Location Command in
Paths of Glory (3.7.10, module and save), Basic Name (3.6) in Nevsky's saves.
"""

from __future__ import annotations

import pytest
from conftest import need_corpus

import vassal_adj
from vassal_adj.parse import records as r
from vassal_adj.parse.tokens import join
from vassal_adj.parse.traits import (
    Attachment,
    BasicName,
    Border,
    Comment,
    MultiLocationCommand,
    PieceDef,
    SetPieceProperty,
    Trait,
    UnknownTrait,
    make_trait,
    parse_add_piece_text,
    parse_piece,
)

NEWER = (Comment, Attachment, SetPieceProperty, Border, MultiLocationCommand, BasicName)
LOC_37 = 'locCommand;Legal places;locRegions;{Nation == "$Nation$"};To $LocationOfCommand$;57871,0,SRtoLocation;true'


def module_traits(folder: str) -> list[Trait]:
    module = vassal_adj.load_module(next((need_corpus() / folder).glob("*.vmod")))
    texts = [p.text for p in module.prototypes.values()] + [s.text for s in module.piece_slots]
    return [t for text in texts for t in parse_add_piece_text(text)[1].traits]


def first(traits: list[Trait], kind: type[Trait]) -> Trait:
    return next(t for t in traits if isinstance(t, kind))


def test_23_comment_attachment_and_set_piece_property_read_from_ccn() -> None:
    traits = module_traits("CommandsAndColorsNapoleonics")
    comment = first(traits, Comment)
    assert isinstance(comment, Comment) and comment.type == "cmt;" + comment.comment and comment.comment
    attach = first(traits, Attachment)
    assert isinstance(attach, Attachment) and (attach.name, attach.description) == ("cp", "mutual attachment to marker")
    assert attach.state == "0"  # kept raw: the spec gives no layout for the attached pieces
    setter = first(traits, SetPieceProperty)
    assert isinstance(setter, SetPieceProperty)
    assert (setter.property_name, setter.description) == ("tcSetting", "Flag TC play")


def test_23_border_outline_is_typed_by_class_and_kept_raw() -> None:
    border = first(module_traits("ViveLEmpereur"), Border)
    assert border.type == "border;;;2;102,102,102;;AND" and border.trait_name == "Border Outline"


def test_23_multi_location_command_of_3_7_has_no_sort_fields() -> None:
    loc = first(module_traits("PathsOfGlory"), MultiLocationCommand)
    assert isinstance(loc, MultiLocationCommand)
    assert loc.location_kind == "locRegions" and loc.menu_text == "To $LocationOfCommand$"
    assert loc.key == "57871,0,SRtoLocation" and loc.description.startswith("Legal places to SR a corps")
    # 3.7 wrote six fields: no order is claimed that the file does not give
    assert (loc.sort_format, loc.sort_ascending, loc.sort_numeric) == (None, None, None)


def test_23_multi_location_command_of_3_8_reads_its_three_sort_fields() -> None:
    loc = make_trait(LOC_37 + ";$LocationOfCommand$;false;true", "")
    assert isinstance(loc, MultiLocationCommand) and loc.filter == '{Nation == "$Nation$"}'
    assert (loc.sort_format, loc.sort_ascending, loc.sort_numeric) == ("$LocationOfCommand$", False, True)


def _round_trips(piece: PieceDef, type_text: str, state_text: str) -> None:
    assert piece.encode() == (type_text, state_text)
    # An edit elsewhere in the chain re-encodes the levels above it; every trait reads back
    # with its own type and state as they were, trailing fields included (pitfall 6).
    edited = piece.with_trait_state(0, piece.traits[0].state + "x")
    again = parse_piece(*edited.encode())
    assert [(t.type, t.state) for t in again.traits[1:]] == [(t.type, t.state) for t in piece.traits[1:]]
    assert again.traits[0].state == piece.traits[0].state + "x"


@pytest.mark.parametrize(
    ("folder", "name", "kind"),
    [
        ("PathsOfGlory", "DeluxeHistorical10-8.vsav", MultiLocationCommand),
        ("CommandsAndColorsNapoleonics", "A301 - Wertingen.vsav", Attachment),
        ("CommandsAndColorsNapoleonics", "A301 - Wertingen.vsav", SetPieceProperty),
        ("Nevsky", "Scenario_Peipus_1242.vsav", BasicName),
    ],
)
def test_23_pieces_with_newer_traits_round_trip_byte_for_byte(folder: str, name: str, kind: type[Trait]) -> None:
    game = vassal_adj.load_save(need_corpus() / folder / name)
    found = 0
    for cmd in game.commands:
        if isinstance(cmd, r.AddPiece):
            piece = parse_piece(cmd.type, cmd.state)
            if any(isinstance(t, kind) for t in piece.traits):
                _round_trips(piece, cmd.type, cmd.state)
                found += 1
    assert found, f"no {kind.__name__} in {name}"


def test_6_unknown_and_newer_fields_and_traits_are_kept_byte_for_byte() -> None:
    # a 3.8 Multi-Location Command with a field no version defines yet, a trait of a prefix
    # VASSAL does not know, and a chain level with a third TAB field (ignored by VASSAL)
    loc_38 = LOC_37 + ";$LocationOfCommand$;true;false;someday"
    inner = join([loc_38, "piece;;;;Unit"], "\t")
    types = join(["mark;Side", join(["newTrait39;a\\;b;c", inner, "extra"], "\t")], "\t")
    states = join(["Axis", join(["s1", join(["", "null;0;0;;0"], "\t"), "more"], "\t")], "\t")
    piece = parse_piece(types, states)
    assert [type(t) for t in piece.traits[1:3]] == [UnknownTrait, MultiLocationCommand]
    assert piece.traits[2].type == loc_38 and piece.traits[2].sort_ascending is True  # type: ignore[attr-defined]
    _round_trips(piece, types, states)
    assert "\textra" in piece.with_trait_state(0, "Allies").encode()[0]  # the extra field survives an edit


def test_6_2_every_newer_prefix_is_registered() -> None:
    for kind in NEWER:
        assert isinstance(make_trait(kind.PREFIX, ""), kind), kind
