"""Piece trait chains: decoding, lossless re-encoding, editing, prototypes, names, properties."""

from __future__ import annotations

import json
import zipfile
from collections import Counter
from functools import lru_cache
from pathlib import Path

import pytest
from conftest import MODULES, SAVES, SPEC, ids, need_corpus
from hypothesis import given
from hypothesis import strategies as st
from lxml import etree

from vassal_adj.codec.obfuscation import decode_saved_game
from vassal_adj.errors import FormatError
from vassal_adj.parse.chains import tab_fields as _tab_fields
from vassal_adj.parse.commands import iter_nodes, parse_stream
from vassal_adj.parse.tokens import join, split
from vassal_adj.parse.traits import (
    TRAIT_CLASSES,
    BasicPiece,
    Comment,
    Deck,
    DynamicProperty,
    Embellishment,
    Hideable,
    Labeler,
    Marker,
    Obscurable,
    Prototype,
    Stack,
    UnknownTrait,
    encode_piece,
    expand_prototypes,
    make_trait,
    parse_add_piece_text,
    parse_piece,
    piece_name,
    piece_properties,
    visible_name,
)

TAB = "\t"
JAVA_WS = "".join(map(chr, range(33)))


def chain(*levels: str) -> str:
    """Encode a chain outermost first, as VASSAL's Decorator.getType/getState does."""
    text = levels[-1]
    for own in reversed(levels[:-1]):
        text = join([own, text], TAB)
    return text


# -- spec vectors -----------------------------------------------------------------------


@lru_cache(maxsize=1)
def vectors() -> dict:
    path = SPEC / "vectors.json"
    if not path.is_file():
        pytest.skip(f"no spec vectors at {path}")
    return json.loads(path.read_text(encoding="utf-8"))["commands"]


def test_vector_piece_type_state_decoding() -> None:
    v = vectors()["piece_type_state_decoding"]
    piece = parse_piece(v["type"], v["state"])
    assert [t.type for t in piece.traits] == v["type_chain_outermost_first"]
    assert [t.state for t in piece.traits] == v["state_chain_outermost_first"]
    assert encode_piece(piece) == (v["type"], v["state"])
    pid, again = parse_add_piece_text(v["add_command"])
    assert pid == v["id"] and again == piece


def test_vector_three_level_chain() -> None:
    text = vectors()["single"]["AddPiece_three_level_chain"]
    pid, piece = parse_add_piece_text(text)
    assert pid == "1700000000003"
    label, mark, basic = piece.traits
    assert isinstance(label, Labeler) and label.label == "Hello; world"
    assert label.property_name == "TextLabel" and label.name_format == "$pieceName$ ($label$)"
    assert isinstance(mark, Marker) and mark.properties == (("Nationality", "German"),)
    assert isinstance(basic, BasicPiece) and piece.basic is basic
    assert (basic.image, basic.name) == ("inf.png", "1st Infantry")
    assert (basic.map_id, basic.x, basic.y, basic.gpid) == ("Main Map", 150, 96, "7")
    assert basic.properties == (("UniqueID", "1700000000001"),)
    t, s = encode_piece(piece)
    assert "+/" + join([pid, t, s], "/") == text
    assert piece_name(piece) == "1st Infantry (Hello; world)" == piece.name
    props = piece_properties(piece)
    assert props["TextLabel"] == "Hello; world" and props["Nationality"] == "German"
    assert props["BasicName"] == "1st Infantry" and props["UniqueID"] == "1700000000001"
    assert props["PieceName"] == "1st Infantry (Hello; world)"


def test_vector_add_piece() -> None:
    _, piece = parse_add_piece_text(vectors()["single"]["AddPiece"])
    assert [type(t) for t in piece.traits] == [Marker, BasicPiece]
    assert not piece.is_stack and not piece.is_deck and not piece.state_short


# -- basic types ------------------------------------------------------------------------


def test_basic_piece_old_state_and_lenient_numbers() -> None:
    old = parse_piece("piece;;;a.png;A", "Map0;10;20;5").basic
    assert old is not None and (old.map_id, old.x, old.y, old.gpid, old.properties) == ("Map0", 10, 20, "5", ())
    bad = parse_piece("piece;;;a.png;A", "Map0;1.5;;;2;k;v").basic
    assert bad is not None and (bad.x, bad.y) == (0, 0)  # nextInt(0), as VASSAL
    assert bad.bad_fields == ("x", "y", "properties")  # but not silently
    assert bad.properties == (("k", "v"),)
    none = parse_piece("piece;;;;", "null;0;0;;0").basic
    assert none is not None and none.map_id is None and none.bad_fields == ()


def test_stack_and_deck() -> None:
    s = parse_piece("stack", "Main Map;150;96;17;18;@@2")
    assert s.is_stack and s.basic is None
    stack = s.traits[0]
    assert isinstance(stack, Stack)
    assert (stack.map_id, stack.x, stack.y, stack.piece_ids, stack.layer) == ("Main Map", 150, 96, ("17", "18"), 2)
    off = parse_piece("stack", "null;0;0;17").traits[0]
    assert isinstance(off, Stack) and off.x is None and off.layer == -1
    d = parse_piece("deck;true;false;a;b", "Map;1;2;true;5,6")
    deck = d.traits[0]
    assert d.is_deck and isinstance(deck, Deck)
    assert (deck.face_down, deck.piece_ids) == (True, ("5", "6"))
    empty = parse_piece("deck;x", "Map;1;2;false").traits[0]
    assert isinstance(empty, Deck) and empty.piece_ids == ()


def test_every_registered_prefix_has_a_class() -> None:
    table = [
        "immob;",
        "emb2;",
        "emb;",
        "hide;",
        "obs;",
        "label;",
        "table;",
        "propertysheet;",
        "rotate;",
        "pivot;",
        "nonRect;",
        "nonRect2;",
        "mark;",
        "locmsg;",
        "restrict;",
        "placemark;",
        "replace;",
        "report;",
        "markmoved;",
        "footprint;",
        "return;",
        "sendto;",
        "prototype;",
        "clone;",
        "delete;",
        "submenu;",
        "menuSeparator;",
        "translate;",
        "AreaOfEffect;",
        "globalkey;",
        "macro;",
        "PROP;",
        "calcProp;",
        "setprop;",
        "setpieceprop;",
        "hideCmd;",
        "playSound;",
        "button;",
        "globalhotkey;",
        "deselect;",
        "mat;",
        "matPiece;",
        "basicName;",
        "border;",
        "attach;",
        "locCommand;",
        "cmt;",
        "piece;",
        "deck;",
        "stack",
    ]
    assert set(table) == set(TRAIT_CLASSES)
    for prefix in table:
        trait = make_trait(prefix + "x;y" if prefix != "stack" else prefix, "")
        assert type(trait) is TRAIT_CLASSES[prefix] and trait.prefix == prefix
        assert trait.trait_name and trait.trait_name != "unknown trait"
    custom = make_trait("conceal;a;b", "s")
    assert isinstance(custom, UnknownTrait) and (custom.prefix, custom.state) == ("conceal;", "s")


# -- chain shapes -----------------------------------------------------------------------


def test_state_chain_shorter_or_longer_keeps_bytes() -> None:
    type_text = chain("mark;A", "mark;B", "piece;;;;P")
    short = parse_piece(type_text, "x")
    assert short.state_short and [t.state for t in short.traits] == ["x", "", ""]
    assert encode_piece(short) == (type_text, "x")
    longer = chain("1", "2", "null;0;0;;0", "junk")
    long_piece = parse_piece(type_text, longer)
    assert not long_piece.state_short
    assert long_piece.traits[2].state == chain("null;0;0;;0", "junk")  # all the rest, as VASSAL
    assert encode_piece(long_piece) == (type_text, longer)


def test_extra_fields_are_kept_through_edits() -> None:
    type_text = join(["mark;A", chain("mark;B", "piece;;;;P"), "extra"], TAB)
    state_text = join(["1", chain("2", "null;0;0;;0"), "more"], TAB)
    piece = parse_piece(type_text, state_text)
    assert [t.type for t in piece.traits] == ["mark;A", "mark;B", "piece;;;;P"]
    assert encode_piece(piece) == (type_text, state_text)
    edited = piece.with_trait_state(0, "9")
    assert encode_piece(edited) == (type_text, join(["9", chain("2", "null;0;0;;0"), "more"], TAB))


def test_parse_without_state_synthesizes_default_states() -> None:
    piece = parse_piece(chain("mark;A", "piece;;;;P"))
    assert piece.state_text is None and [t.state for t in piece.traits] == ["", ""]
    assert encode_piece(piece) == (chain("mark;A", "piece;;;;P"), TAB)


def test_innermost_basic_type_is_not_split() -> None:
    piece = parse_piece("piece;;;a.png;A" + TAB + "tail", "null;0;0;;0")
    assert len(piece.traits) == 1 and piece.traits[0].type.endswith("tail")


# -- editing ----------------------------------------------------------------------------


def test_with_trait_state_reencodes_only_outer_levels() -> None:
    inner = chain("mark;Nationality", "piece;;;inf.png;1st Infantry")
    type_text = chain("label;x", inner)
    # a quoted inner level that `join` would not write: it must be reused raw
    inner_state = "'German'\\\tMap;1;2;;0"
    state_text = "lbl\t" + inner_state
    piece = parse_piece(type_text, state_text)
    assert piece.traits[1].state == "German"
    edited = piece.with_trait_state(0, "new")
    assert encode_piece(edited)[0] == type_text
    assert encode_piece(edited)[1] == "new\t" + inner_state
    assert edited.traits[0].state == "new" and edited.traits[1:] == piece.traits[1:]
    changed = piece.with_trait_state(1, "French")
    assert parse_piece(*encode_piece(changed)).traits == changed.traits
    assert isinstance(changed.traits[1], Marker) and changed.traits[1].values == ("French",)


def test_with_outer_trait_and_without_trait() -> None:
    _, piece = parse_add_piece_text(vectors()["single"]["AddPiece_three_level_chain"])
    marker = make_trait("mark;AdjudicatorNote", "out of supply")
    noted = piece.with_outer_trait(marker)
    t, s = encode_piece(noted)
    assert (t, s) == (
        join(["mark;AdjudicatorNote", piece.type_text], TAB),
        join(["out of supply", piece.state_text], TAB),
    )
    assert noted.traits[1:] == piece.traits and parse_piece(t, s) == noted
    assert piece_properties(noted)["AdjudicatorNote"] == "out of supply"
    assert encode_piece(noted.without_trait(0)) == encode_piece(piece)
    dropped = piece.without_trait(1)
    assert [type(x) for x in dropped.traits] == [Labeler, BasicPiece]
    assert parse_piece(*encode_piece(dropped)) == dropped
    with pytest.raises(IndexError):
        piece.with_trait_state(3, "x")


def test_rebuilt_level_survives_trailing_backslash() -> None:
    piece = parse_piece(chain("mark;A", "piece;;;;P"), chain("v", "null;0;0;;0"))
    edited = piece.with_trait_state(0, "ends\\")
    assert parse_piece(*encode_piece(edited)).traits == edited.traits


@given(st.lists(st.text(alphabet="ab\\'\t;,", max_size=8), min_size=1, max_size=4))
def test_tab_fields_matches_split(parts: list[str]) -> None:
    for text in (TAB.join(parts), join(parts, TAB)):
        assert _tab_fields(text) == split(text, TAB)


# -- names and properties ---------------------------------------------------------------


def layer(levels: str, name: str = "Flip", value: str = "1") -> tuple[str, str]:
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
        ",".join(f"img{i}.png" for i, _ in enumerate(levels.split(","))),
        levels,
        "true",
        name,
        "",
        "",
        "false",
        "",
        "1",
        "1",
        "false",
    ]
    return join(fields, ";"), value


def test_layer_level_names() -> None:
    for levels, value, expected in [
        ("+ (flipped)", "1", "Tank (flipped)"),
        ("Elite +", "1", "Elite Tank"),
        ("Wreck", "1", "Wreck"),
        ("+ (flipped)", "-1", "Tank"),  # inactive
        (",+ (2)", "1", "Tank"),  # empty level name keeps the name
        (",+ (2)", "2", "Tank (2)"),
    ]:
        t, s = layer(levels, value=value)
        piece = parse_piece(chain(t, "piece;;;t.png;Tank"), chain(s, "null;0;0;;0"))
        assert piece_name(piece) == expected, (levels, value)
    t, s = layer("+ (flipped),Elite +", name="Side", value="2")
    props = piece_properties(parse_piece(chain(t, "piece;;;;Tank"), chain(s, "null;0;0;;0")))
    # VASSAL strips the one "+" and nothing else (tests/test_piece_names.py asks the oracle)
    assert (props["Side_Level"], props["Side_Active"], props["Side_Name"]) == ("2", "true", "Elite ")
    lay = make_trait(t, "-5")
    assert isinstance(lay, Embellishment) and lay.value == -2 and not lay.active and lay.level == 2


def test_labeler_and_layer_wrap_in_chain_order() -> None:
    lab = "label;;Change;10;;0,0,0;t;0;c;0;b;c;$label$ / $pieceName$ [$Nation$];Dialog;0;0;Tag;;false"
    t, s = layer("+ (flipped)")
    piece = parse_piece(chain(lab, t, "mark;Nation", "piece;;;;Tank"), chain("A", s, "FR", "null;0;0;;0"))
    assert piece_name(piece) == "A / Tank (flipped) [FR]"
    assert piece_properties(piece)["Tag"] == "A"
    empty = parse_piece(chain(lab, "piece;;;;Tank"), chain("", "null;0;0;;0"))
    assert piece_name(empty) == "Tank"


def test_outer_traits_shadow_inner_properties() -> None:
    piece = parse_piece(
        chain("PROP;Strength;false,0,100,false;;", "mark;Strength,Side", "piece;;;;U"),
        chain("3", "5,Red", "null;0;0;;2;Strength;9;Moved;true"),
    )
    dyn = piece.traits[0]
    assert isinstance(dyn, DynamicProperty) and dyn.name == "Strength" and dyn.value == "3"
    props = piece_properties(piece)
    assert props["Strength"] == "3" and props["Side"] == "Red" and props["Moved"] == "true"


def test_mask_hides_name_and_password() -> None:
    obs = "obs;70,130;back.png;Flip;I;Hidden Unit;player:;Peek;;false;;"
    piece = parse_piece(chain(obs, "mark;Side", "piece;;;;7th Panzer"), chain("s3cret;|0", "Axis", "null;0;0;;0"))
    mask = piece.traits[0]
    assert isinstance(mask, Obscurable) and mask.masked and mask.access == "player"
    assert mask.masked_name == "Hidden Unit" and mask.masked_by == "s3cret"
    assert "s3cret" not in repr(mask) and "s3cret" not in repr(piece)
    assert piece_name(piece) == "7th Panzer"  # referee view
    assert visible_name(piece) == "Hidden Unit"
    assert piece_name(piece, viewer="s3cret") == "7th Panzer"
    assert piece_properties(piece, viewer="other")["PieceName"] == "Hidden Unit"
    open_ = parse_piece(chain(obs, "piece;;;;7th Panzer"), chain("null;", "null;0;0;;0"))
    assert not open_.traits[0].masked and visible_name(open_) == "7th Panzer"
    side = make_trait("obs;;;;I;?;sides:Axis:Italy", "Axis;|0")
    assert isinstance(side, Obscurable) and side.access == "sides"
    assert side.sides == ("Axis", "Italy")


def test_invisible() -> None:
    hide = "hide;73,130;Hide;;side:;0.30000001192092896;;false"
    piece = parse_piece(chain(hide, "piece;;;;Sub"), chain("Allies", "null;0;0;;0"))
    inv = piece.traits[0]
    assert isinstance(inv, Hideable) and inv.hidden and inv.access == "side"
    assert "Allies" not in repr(inv)
    assert visible_name(piece) == "" and piece_name(piece, viewer="Allies") == "Sub"
    shown = make_trait(hide, "null")
    assert isinstance(shown, Hideable) and not shown.hidden


# -- prototypes -------------------------------------------------------------------------


def proto_text(*levels: tuple[str, str]) -> str:
    types = [t for t, _ in levels] + ["piece;;;;"]
    states = [s for _, s in levels] + ["null;0;0;;0"]
    return "+/" + join(["null", chain(*types), chain(*states)], "/")


def test_expand_prototypes_splices_recursively_with_params() -> None:
    protos = {
        "Unit": proto_text(("cmt;just a note", ""), ("prototype;Side;side=$side$", ""), ("mark;Class", "$class$")),
        "Side": proto_text(("mark;Nation", "$side$"), ("delete;Delete;68,130", "")),
    }
    piece = parse_piece(
        chain("label;x", "prototype;Unit;side=Axis,class=Infantry", "mark;Id", "piece;;;;7th"),
        chain("L", "", "42", "null;0;0;;0"),
    )
    out = expand_prototypes(piece, protos)
    assert [t.type for t in out.traits] == [
        "label;x",
        "mark;Nation",
        "delete;Delete;68,130",
        "mark;Class",
        "mark;Id",
        "piece;;;;7th",
    ]
    props = piece_properties(out)
    assert (props["Nation"], props["Class"], props["Id"]) == ("Axis", "Infantry", "42")
    assert out.missing_prototypes == () and parse_piece(*encode_piece(out)) == out
    assert not any(isinstance(t, (Prototype, Comment)) for t in out.traits)
    plain = parse_piece(chain("mark;A", "piece;;;;P"), chain("1", "null;0;0;;0"))
    assert expand_prototypes(plain, protos) is plain


def test_missing_prototype_is_kept_and_recorded() -> None:
    piece = parse_piece(chain("prototype;Nope", "piece;;;;P"), chain("", "null;0;0;;0"))
    out = expand_prototypes(piece, {})
    assert out.traits == piece.traits and out.missing_prototypes == ("Nope",)
    assert encode_piece(out) == encode_piece(piece)


def test_prototype_cycle_is_a_format_error() -> None:
    protos = {"A": proto_text(("prototype;B", "")), "B": proto_text(("prototype;A", ""))}
    piece = parse_piece(chain("prototype;A", "piece;;;;P"), chain("", "null;0;0;;0"))
    with pytest.raises(FormatError, match="'A' -> 'B' -> 'A'"):
        expand_prototypes(piece, protos)
    selfish = {"S": proto_text(("mark;x", "1"), ("prototype;S", ""))}
    with pytest.raises(FormatError, match="prototype includes itself"):
        expand_prototypes(parse_piece(chain("prototype;S", "piece;;;;P")), selfish)


def test_prototype_definitions_as_piecedefs() -> None:
    definition = parse_add_piece_text(proto_text(("mark;Side", "$s$")))[1]
    piece = parse_piece(chain("prototype;P;s=Red", "piece;;;;U"), chain("", "null;0;0;;0"))
    assert piece_properties(expand_prototypes(piece, {"P": definition}))["Side"] == "Red"


# -- the corpus -------------------------------------------------------------------------

SLOT_TAGS = ("PieceSlot", "CardSlot", "PrototypeDefinition")


def module_slots(path: Path) -> list[tuple[str, str, str]]:
    """(tag, name, AddPiece text) of every slot and prototype definition in a module."""
    with zipfile.ZipFile(path) as z:
        name = "buildFile.xml" if "buildFile.xml" in z.namelist() else "buildFile"
        data = z.read(name)
    parser = etree.XMLParser(resolve_entities=False, no_network=True, load_dtd=False)
    root = etree.fromstring(data, parser)
    out = []
    for el in root.iter():
        if isinstance(el.tag, str) and el.tag.endswith(SLOT_TAGS):
            tag = el.tag.rsplit(".", 1)[-1]
            out.append((tag, el.get("name") or el.get("entryName") or "", (el.text or "").strip(JAVA_WS)))
    return out


@pytest.mark.parametrize("path", MODULES, ids=ids(MODULES))
def test_corpus_module_pieces_round_trip(path: Path) -> None:
    need_corpus()
    slots = module_slots(path)
    prefixes: Counter[str] = Counter()
    prototypes = {name: text for tag, name, text in slots if tag == "PrototypeDefinition"}
    for tag, name, text in slots:
        pid, piece = parse_add_piece_text(text)
        t, s = encode_piece(piece)
        assert "+/" + join([pid, t, s], "/") == text, (tag, name)
        assert not piece.state_short, (tag, name)
        prefixes.update(x.prefix for x in piece.traits if isinstance(x, UnknownTrait))
        if tag != "PrototypeDefinition":
            out = expand_prototypes(piece, prototypes)
            assert not any(isinstance(x, Prototype) and x.name in prototypes for x in out.traits)
            assert parse_piece(*encode_piece(out)).traits == out.traits
    assert not prefixes, f"unknown trait prefixes: {dict(prefixes)}"


def test_corpus_counts() -> None:
    corpus = need_corpus()
    totals: Counter[str] = Counter()
    for path in MODULES:
        totals.update(tag for tag, _, _ in module_slots(path))
    assert corpus.is_dir() and totals["PrototypeDefinition"] >= 2000
    assert totals["PieceSlot"] + totals["CardSlot"] >= 8000


def test_ragnarok_unit_gains_prototype_properties() -> None:
    need_corpus()
    path = next((p for p in MODULES if p.name == "Ragnarok.vmod"), None)
    if path is None:
        pytest.skip("Ragnarok module not in the corpus")
    slots = module_slots(path)
    prototypes = {n: t for tag, n, t in slots if tag == "PrototypeDefinition"}
    odin = next(t for tag, n, t in slots if tag == "PieceSlot" and n == "en-odin")
    piece = parse_add_piece_text(odin)[1]
    assert "Side" not in piece_properties(piece)
    out = expand_prototypes(piece, prototypes)  # en-odin -> Counter-Aesir -> Counter
    props = piece_properties(out)
    assert props["Side"] == "Aesir" and props["BasicName"] == "en-odin"
    assert props["Flip_Active"] == "false" and piece_name(out) == "en-odin"
    kinds = [x.prefix for x in out.traits]
    assert kinds[0] == "emb2;" and kinds[-2:] == ["mark;", "piece;"]
    assert "AreaOfEffect;" in kinds and "prototype;" not in kinds and out.missing_prototypes == ()
    inf = next(t for tag, n, t in slots if n == "INF-XX-2-3-5_123_456")
    props = piece_properties(expand_prototypes(parse_add_piece_text(inf)[1], prototypes))
    assert (props["Side"], props["stats"], props["parent"], props["id"], props["size"]) == (
        "Side1",
        "2-3-5",
        "456",
        "123",
        "XX",
    )
    # the outermost of the four labels wins; its label "$stats$" is filled, as VASSAL's getLabel does
    assert props["TextLabel"] == "2-3-5"


@pytest.mark.parametrize("path", SAVES, ids=ids(SAVES))
def test_corpus_save_pieces_round_trip(path: Path) -> None:
    need_corpus()
    with zipfile.ZipFile(path) as z:
        text, _ = decode_saved_game(z.read("savedGame"))
    unknown: Counter[str] = Counter()
    for _, _, node in iter_nodes(parse_stream(text)):
        if not node.text.startswith("+/"):
            continue
        pid, piece = parse_add_piece_text(node.text)
        assert "+/" + join([pid, *encode_piece(piece)], "/") == node.text
        assert not piece.state_short
        unknown.update(t.prefix for t in piece.traits if isinstance(t, UnknownTrait))
    # VASL's custom traits (moved;, conceal;, placeDM;, info;, turr;, concealment;) are
    # kept raw; nothing from the registered table may end up unknown.
    assert not set(unknown) & set(TRAIT_CLASSES)
