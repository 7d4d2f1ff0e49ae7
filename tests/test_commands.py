"""The command stream: spec vectors, nesting, typed records, dice, secrets, logs, the corpus."""

from __future__ import annotations

import json
import re
import zipfile
from functools import lru_cache
from pathlib import Path

import pytest
from conftest import CORPUS, SAVES, SPEC, ids, need_corpus
from hypothesis import given, settings
from hypothesis import strategies as st

from vassal_adj.errors import FormatError, Where
from vassal_adj.parse import records as r
from vassal_adj.parse.commands import (
    ESC,
    KNOWN_PREFIXES,
    Node,
    decode_command,
    encode,
    is_log,
    iter_nodes,
    iter_texts,
    log_steps,
    parse_stream,
)
from vassal_adj.parse.dice import dice_rolls
from vassal_adj.parse.secrets import command_secrets

try:
    from vassal_adj.codec.obfuscation import decode_saved_game
except ImportError:  # pragma: no cover - the codec is written by another helper
    decode_saved_game = None


def saved_text(path: Path) -> str:
    data = zipfile.ZipFile(path).read("savedGame")
    if decode_saved_game is not None:
        return decode_saved_game(data)[0]
    if data[:5] == b"!VCSK":
        raw = bytes.fromhex(data[5:].decode())
        k = raw[0]
        data = raw[1:].translate(bytes(b ^ k for b in range(256)))
    return data.decode("utf-8")


def _vectors() -> dict:
    path = SPEC / "vectors.json"
    if not path.is_file():
        pytest.skip(f"spec vectors not found at {path}")
    return json.loads(path.read_text(encoding="utf-8"))["commands"]


def tree(node: Node) -> object:
    """The vectors' tree notation: a leaf is its text, a compound [own, *children]."""
    return [node.text, *map(tree, node.children)] if node.children else node.text


def records_of(root: Node) -> list[r.Record]:
    return [node.command for _, _, node in iter_nodes(root)]


# ---------------------------------------------------------------- spec vectors


def test_single_command_vectors() -> None:
    v = _vectors()["single"]
    add = decode_command(v["AddPiece"])
    assert isinstance(add, r.AddPiece) and add.id == "1700000000001"
    assert add.type == "mark;Nationality\tpiece;;;inf.png;1st Infantry"
    assert add.state == "German\tMain Map;150;96;7;1;UniqueID;1700000000001"
    assert add.raw == v["AddPiece"]
    p = _vectors()["piece_type_state_decoding"]
    add3 = decode_command(p["add_command"])
    assert (add3.id, add3.type, add3.state) == (p["id"], p["type"], p["state"])
    ch = decode_command(v["ChangePiece"])
    assert isinstance(ch, r.ChangePiece) and ch.old_state and ch.new_state.startswith("German\tMain Map;200")
    mv = decode_command(v["MovePiece"])
    assert mv == r.MovePiece(
        "1700000000002", "Main Map", 200, 150, None, "Main Map", 150, 96, None, "secret123", raw=v["MovePiece"]
    )
    assert decode_command(v["RemovePiece"]) == r.RemovePiece("1700000000001", raw=v["RemovePiece"])
    for key in ("chat", "chat_3_2_style"):
        chat = decode_command(v[key])
        assert isinstance(chat, r.Chat)
        assert (chat.speaker, chat.body, chat.is_report) == ("Alice", "Hello Bob", False)
    pl = decode_command(v["player_roster_entry"])
    assert isinstance(pl, r.Player) and (pl.password, pl.name, pl.side) == ("secret123", "Alice", "Germans")
    bp = decode_command(v["board_selection_two_boards_first_reversed"])
    assert isinstance(bp, r.BoardPicker) and bp.map_id == "Main Map"
    assert bp.boards == (r.BoardChoice("Germany", True, 0, 0), r.BoardChoice("France", False, 1, 0))
    gp = decode_command(v["global_property_restore"])
    assert isinstance(gp, r.GlobalProperty) and (gp.name, gp.value, gp.container) == ("Turn", "1", "Module")
    ts = decode_command(v["turn_tracker_with_sublevel"])
    assert isinstance(ts, r.TurnState) and ts.tracker_id == "TurnTracker0" and ts.current == 0
    assert ts.levels == ("3;0;false;-1;1\\;0\\;0\\;true,true,false",)
    notes = decode_command(v["scenario_notes_three_lines"])
    assert notes == r.Notes("Line one\n\na|b", raw=v["scenario_notes_three_lines"])
    sn = decode_command(v["secret_note"])
    assert isinstance(sn, r.SecretNote)
    assert (sn.name, sn.owner, sn.hidden, sn.text, sn.date, sn.handle) == (
        "Plan",
        "secret123",
        True,
        "Attack at dawn",
        "01/02/2024 3:04 PM",
        "Alice",
    )
    assert isinstance(decode_command(v["setup_stack_marker"]), r.SetupStack)
    for text in v.values():
        rec = decode_command(text)
        assert rec.raw == text
        assert "secret123" not in repr(rec) and "secret123" not in str(rec)


def test_other_command_forms() -> None:
    assert decode_command("") == r.Empty()
    assert decode_command("begin_save") == r.BeginSave(raw="begin_save")
    assert decode_command("end_save") == r.EndSave(raw="end_save")
    assert decode_command("LOG\tnull") == r.LogNull(raw="LOG\tnull")
    assert decode_command("LOG\t") == r.Log(r.Empty(), raw="LOG\t")
    nested = decode_command("LOG\tLOG\tCHATx")
    assert nested == r.Log(r.Log(r.Chat("x", raw="CHATx"), raw="LOG\tCHATx"), raw="LOG\tLOG\tCHATx")
    assert decode_command("UNDO\ttrue") == r.Undo(True, raw="UNDO\ttrue")
    assert decode_command("UNDO\tfalse").start is False
    assert decode_command("PYREMOVE\tpw").password == "pw"
    assert decode_command("UNMASK\ta\tb").ids == ("a", "b")
    assert decode_command("UNMASK\t").ids == ()
    assert decode_command("EXT\t3d6\t1.0") == r.Extension("3d6", "1.0", raw="EXT\t3d6\t1.0")
    assert decode_command("PLUGIN\tp").version == ""
    assert decode_command("SHOW_RESULTS\tDie\t3\t5") == r.ShowResults("Die", (3, 5), raw="SHOW_RESULTS\tDie\t3\t5")
    lock = decode_command("LOCKSPOTAB\tSetup\tAlice\tpw9\tdate")
    assert isinstance(lock, r.LockScenarioTab) and lock.password == "pw9" and "pw9" not in repr(lock)
    pn = decode_command("PNOTE\tpw\tline 1|line 2")
    assert isinstance(pn, r.PrivateNote) and pn.text == "line 1\nline 2" and "pw" not in repr(pn)
    assert decode_command("PNOTES\ta|b") == r.PublicNotes("a\nb", raw="PNOTES\ta|b")
    mp = decode_command("MutableProperty\tx\t1\t2")
    assert mp == r.MutableProperty("x", "1", "2", None, raw="MutableProperty\tx\t1\t2")
    assert decode_command("Main MapBoardPicker") == r.BoardPicker("Main Map", (), raw="Main MapBoardPicker")
    mv = decode_command("M/1/Map/3/4/null/null/0/0/null")  # older logs: no player field
    assert isinstance(mv, r.MovePiece) and mv.player is None and mv.old_map is None
    for text in ("CLOCK\tx", "OBA/+/0/x", "Events", "TURNnotab", "GlobalProperty\tnosemicolon"):
        assert isinstance(decode_command(text), r.Unknown), text
    assert "Unknown" in repr(decode_command("AUDIO\tclip.wav"))


def test_chat_forms() -> None:
    auto = decode_command("CHAT* 1st Infantry moves 0302 -> 0403 *")
    assert auto.is_report and auto.speaker is None and auto.body == "1st Infantry moves 0302 -> 0403 *"
    dice = decode_command("CHAT*** 2d6 = 3,5 *** &lt;Alice&gt;")
    assert dice.is_report and dice.body == "** 2d6 = 3,5 *** &lt;Alice&gt;"
    plain = decode_command("CHAT Data correctly generated")
    assert (plain.speaker, plain.body, plain.is_report) == (None, " Data correctly generated", False)


def test_dice_compound_vector() -> None:
    v = _vectors()["dice_roll_compound"]
    root = parse_stream(v["encoded"])
    assert tree(root) == v["tree"]
    assert encode(root) == v["encoded"]
    (roll,) = dice_rolls(root)
    assert (roll.button, roll.result, roll.total, roll.keep, roll.summary) == ("2d6", "3,5", "8", "2", "3 x1, 5 x1")
    assert roll.report == "*** 2d6 = 3,5 *** &lt;Alice&gt;" and roll.index == 0 and not roll.undo


@pytest.mark.parametrize("key", ["save", "vlog"])
def test_save_and_log_vectors(key: str) -> None:
    v = _vectors()[key]
    if "plain_utf8_hex" in v:
        assert bytes.fromhex(v["plain_utf8_hex"]).decode() == v["plain"]
    root = parse_stream(v["plain"])
    assert tree(root) == v["tree"]
    assert encode(root) == v["plain"]
    assert command_secrets(root) == {"secret123", "pw2"}
    for rec in records_of(root):
        assert "secret123" not in repr(rec) and "pw2" not in str(rec)
    steps = log_steps(root)
    assert is_log(root) == (key == "vlog")
    if key == "vlog":
        assert [tree(s) for s in steps] == v["tree"][-3:]
        undo = steps[2]
        assert undo.command == r.Log(r.Undo(True, raw="UNDO\ttrue"), raw="LOG\tUNDO\ttrue")
        assert isinstance(undo.children[0].children[0].command.inner, r.MovePiece)


def test_iter_nodes_order_and_depth() -> None:
    root = parse_stream(_vectors()["save"]["plain"])
    walk = [(i, d, n.text[:10]) for i, d, n in iter_nodes(root)]
    assert walk[:6] == [
        (0, 0, "begin_save"),
        (1, 1, ""),
        (2, 1, ""),
        (3, 2, "+/17000000"),
        (4, 2, "+/17000000"),
        (5, 1, "Main MapBo"),
    ]
    assert [n.index for _, _, n in iter_nodes(root)] == list(range(len(walk)))
    assert walk[-1][2] == "end_save"


# ---------------------------------------------------------------- nesting and editing


def test_three_levels_of_nesting_bytes() -> None:
    built = Node("a", [Node("b", [Node("c", [Node("d"), Node("e")])])])
    text = encode(built)
    # One backslash per level in front of each inner ESC, never doubled (spec 4.4).
    assert text == "a\x1bb\\\x1bc\\\\\x1bd\\\\\x1be"
    assert tree(parse_stream(text)) == ["a", ["b", ["c", "d", "e"]]]


def test_escaped_backslashes_survive_nesting() -> None:
    texts = ["CHAT a\\b", "CHAT \\start", "CHAT 'quoted'", "CHAT back\\\\slashes\\ x", "MutableProperty\tp\t\\\t'"]
    built = Node("begin_save", [Node("", [Node("LOG\tUNDO\ttrue", [Node(t) for t in texts]), Node(texts[0])])])
    text = encode(built)
    root = parse_stream(text)
    assert tree(root) == tree(built)
    assert encode(root) == text
    assert [n.text for _, _, n in iter_nodes(root)][3:] == texts + [texts[0]]


def test_edit_reencodes_only_what_changed() -> None:
    plain = _vectors()["save"]["plain"]
    root = parse_stream(plain)
    assert not root.changed()
    players = root.children[3]  # "PLAYER…Alice" with "PLAYER…Bob" as its sub-command
    players.children[0].text = "PLAYER\tpw3\tCarol\tSoviets"
    assert root.changed() and not root.children[2].changed()
    edited = encode(root)
    assert edited == plain.replace("pw2\tBob", "pw3\tCarol")
    again = parse_stream(edited)
    again.children.append(Node("CHAT* note"))
    assert encode(again).endswith("end_save" + ESC + "CHAT* note")
    del again.children[-1]
    assert encode(again) == edited  # same children again: the raw text is reused
    again.children[1].children.pop()
    assert tree(parse_stream(encode(again)))[2] == ["", tree(root.children[1].children[0])]


def _round_trips(text: str) -> bool:
    # Spec 4.3's hazard (a text ending in a backslash swallows the next field) and a text
    # wrapped in single quotes (every command text is decoded once more, which unquotes it)
    # are VASSAL's own limits; all other texts must survive.
    return not text.endswith("\\") and not (len(text) > 1 and text[0] == text[-1] == "'")


LEAF_TEXT = st.text(st.sampled_from(list("aT\\'/;\t ")), max_size=8).filter(_round_trips)
TREES = st.recursive(
    st.builds(Node, LEAF_TEXT),
    lambda kids: st.builds(Node, LEAF_TEXT, st.lists(kids, min_size=1, max_size=4)),
    max_leaves=25,
)


@settings(max_examples=300)
@given(TREES)
def test_random_trees_round_trip(built: Node) -> None:
    text = encode(built)
    root = parse_stream(text)
    assert tree(root) == tree(built)
    assert encode(root) == text
    assert not root.changed()


def test_quoted_and_escaped_single_commands() -> None:
    for text in ("'CHATx'", "CHATa\\\x1bb", "\\\\\\\x1bx"):
        root = parse_stream(text)
        assert encode(root) == text
    assert parse_stream("'CHATx'").text == "CHATx"
    assert tree(parse_stream("CHATa\\\x1bb")) == ["CHATa", "b"]


# ---------------------------------------------------------------- errors


def test_bad_move_coordinate_names_command_and_value() -> None:
    text = ESC.join(["begin_save", "", "M/1/Map/12.5/3/null/Map/1/2/null/hunter2", "end_save"])
    root = parse_stream(text, Where(path="g.vsav", entry="savedGame"))
    bad = root.children[1]
    with pytest.raises(FormatError) as info:
        _ = bad.command
    assert info.value.where is not None and info.value.where.command == 2
    assert info.value.where.path == "g.vsav"
    assert "'12.5'" in str(info.value) and "command 2" in str(info.value)
    assert "hunter2" not in str(info.value)


@pytest.mark.parametrize(
    "text",
    [
        "+/123",
        "+/1/type",
        "D/1",
        "M/1/Map/1/2/null",
        "PLAYER\tpw",
        "MutableProperty\tx",
        "SNOTE\ta\tb",
        "PNOTE\tpw",
        "SHOW_RESULTS\tDie\tx",
        "GlobalProperty\t",
        "LOG\tM/1/m/x/1/null/m/1/1/null",
    ],
)
def test_malformed_known_commands_raise_format_error(text: str) -> None:
    with pytest.raises(FormatError) as info:
        decode_command(text, 5)
    assert info.value.where is not None and info.value.where.command == 5


def test_absurd_nesting_is_a_format_error() -> None:
    with pytest.raises(FormatError):
        parse_stream("a" + "".join("\\" * k + ESC + "x" for k in range(300)))


def _type_all(text: str) -> None:
    try:
        root = parse_stream(text)
        assert encode(root) == text
        records_of(root)
        dice_rolls(root)
        command_secrets(root)
        log_steps(root)
    except FormatError:
        pass


def test_truncated_vectors_only_raise_format_error() -> None:
    v = _vectors()
    for text in (v["vlog"]["plain"], v["dice_roll_compound"]["encoded"], *v["single"].values()):
        for cut in range(len(text) + 1):
            _type_all(text[:cut])


# ---------------------------------------------------------------- corpus


@lru_cache(maxsize=1)
def manifest_counts() -> dict[str, tuple[int, int, int, int]]:
    """File name -> (AddPiece, of which stacks, LOG commands, of which moves) from MANIFEST.md."""
    out = {}
    row = re.compile(r"^\| `([^`]+)` \|.*\| (\d+) \((\d+)\) \| \d+ \| (\d+) \((\d+)\) \|$")
    for line in (CORPUS / "MANIFEST.md").read_text(encoding="utf-8").splitlines():
        m = row.match(line)
        if m:
            out[m[1]] = (int(m[2]), int(m[3]), int(m[4]), int(m[5]))
    return out


@lru_cache(maxsize=2)
def parsed(path: Path) -> tuple[str, Node]:
    text = saved_text(path)
    return text, parse_stream(text, Where(path=str(path), entry="savedGame"))


def test_corpus_present() -> None:
    need_corpus()
    assert SAVES, "no .vsav/.vlog files in the corpus"


@pytest.mark.parametrize("path", SAVES, ids=ids(SAVES))
def test_corpus_round_trip_and_counts(path: Path) -> None:
    need_corpus()
    text, root = parsed(path)
    assert encode(root) == text
    adds = stacks = logs = moves = 0
    for _, _, node in iter_nodes(root):
        rec = node.command
        if isinstance(rec, r.Unknown):
            assert not rec.raw.startswith(KNOWN_PREFIXES), repr(rec)
        if isinstance(rec, r.AddPiece):
            adds += 1
            stacks += rec.type.startswith("stack")
        elif isinstance(rec, (r.Log, r.LogNull)):
            logs += 1
            moves += isinstance(rec, r.Log) and isinstance(rec.inner, r.MovePiece)
    assert is_log(root) == (path.suffix == ".vlog")
    expected = manifest_counts().get(path.name)
    if expected is None:
        pytest.skip(f"{path.name} is not in MANIFEST.md")
    assert (adds, stacks, logs, moves) == expected


@pytest.mark.parametrize("path", SAVES, ids=ids(SAVES))
def test_corpus_secrets_never_in_repr(path: Path) -> None:
    need_corpus()
    _, root = parsed(path)
    found = command_secrets(root)
    players = [n.command for _, _, n in iter_nodes(root) if n.text.startswith("PLAYER\t")]
    assert {p.password for p in players if p.password} <= found
    names = {p.name for p in players}
    # A password equal to (or inside) a player's public name cannot be hidden by repr.
    checkable = {s for s in found if len(s) >= 4 and not any(s in n for n in names)}
    for _, _, node in iter_nodes(root):
        shown = repr(node.command) + str(node.command) + repr(node)
        for secret in checkable:
            assert secret not in shown


def test_corpus_dice_in_3d6_log() -> None:
    need_corpus()
    path = CORPUS / "AdvancedSquadLeader_VASL" / "3d6.vlog"
    if not path.is_file():
        pytest.skip("3d6.vlog not in the corpus")
    rolls = dice_rolls(parsed(path)[1])
    assert [(d.button, d.result, d.total) for d in rolls] == [("3d6", "3,4,1", None), ("3d6", "2,4,2", None)]
    assert rolls[0].report == "*** 3d6 = 3,4,1 *** <test>"


def test_corpus_truncated_saves_only_raise_format_error() -> None:
    need_corpus()
    small = [p for p in SAVES if p.stat().st_size < 20_000]
    assert small
    for path in small:
        text = saved_text(path)
        for k in range(1, 41):
            _type_all(text[: len(text) * k // 41])


# ---------------------------------------------------------------- lazy tree and fast paths


def eager_tree(text: str) -> list:
    """Reference: the former eager parser (spec 5.1 with tokens.split), as [index, text, kids]."""
    from vassal_adj.parse.tokens import split

    counter = iter(range(10**9))

    def decode(s: str) -> list:
        while True:
            fields = split(s, ESC)
            if len(fields) > 1:
                break
            if fields[0] == s:
                return [next(counter), s, []]
            s = fields[0]
        node = decode(fields[0])
        node[2].extend(decode(f) for f in fields[1:])
        return node

    return decode(text)


def lazy_tree(node: Node) -> list:
    return [node.index, node.text, [lazy_tree(k) for k in node.children]]


@settings(max_examples=500)
@given(st.text(st.sampled_from(list("ab'\\\x1b/")), max_size=30))
def test_split_esc_equals_split(text: str) -> None:
    from vassal_adj.parse.commands import _split_esc
    from vassal_adj.parse.tokens import split

    assert _split_esc(text)[0] == split(text, ESC)


@settings(max_examples=300)
@given(st.one_of(TREES.map(encode), st.text(st.sampled_from(list("ab'\\\x1b")), max_size=30)))
def test_lazy_parse_equals_eager_with_indices(text: str) -> None:
    root = parse_stream(text)
    assert list(iter_texts(parse_stream(text))) == [(n.index, n.text) for _, _, n in iter_nodes(root)]
    assert lazy_tree(root) == eager_tree(text)
    assert encode(parse_stream(text)) == encode(root) == text or not _round_trips(text)


def test_children_are_built_on_demand() -> None:
    plain = _vectors()["save"]["plain"]
    root = parse_stream(plain)
    pieces = root.children[1]
    assert pieces._pending is not None  # not built yet
    assert encode(root) == plain and not root.changed()
    assert list(iter_texts(pieces, pieces.index))[1][1].startswith("+/1700000000001/")
    assert pieces._pending is not None  # iter_texts built nothing
    assert [k.index for k in pieces.children] == [3, 4] and pieces._pending is None
    # Children assigned to a node whose children were never built replace them.
    again = parse_stream(plain)
    again.children[1].children = []
    assert tree(parse_stream(encode(again)))[2] == ""


def test_deep_nesting_needs_a_long_backslash_run() -> None:
    # 199 levels parse (the limit is 200), and the check does not depend on laziness.
    text = "a" + "".join("\\" * k + ESC + "x" for k in range(199))
    root = parse_stream(text)
    assert sum(1 for _ in iter_nodes(root)) == 200


@pytest.mark.parametrize("path", SAVES, ids=ids(SAVES))
def test_corpus_lazy_indices_are_depth_first(path: Path) -> None:
    need_corpus()
    text = saved_text(path)
    fast = list(iter_texts(parse_stream(text)))
    root = parse_stream(text)
    walk = [(i, n.index, n.text) for i, _, n in iter_nodes(root)]
    assert [(i, t) for i, _, t in walk] == fast
    assert all(i == index for i, index, _ in walk)
    if len(text) < 3_000_000:
        assert lazy_tree(parse_stream(text)) == eager_tree(text)


# ---------------------------------------------------------------- secrets in piece states


MASKED_TYPE = "obs;77,130;mask.gif;Mask;G;?;player:;Peek\thide;73,130;Hide;;player:\tpiece;;;unit.png;Unit"
SIDE_TYPE = "obs;77,130;mask.gif;Mask;G;?;side:\tpiece;;;unit.png;Unit"


def test_piece_state_passwords_are_secrets(tmp_path: Path) -> None:
    from vassal_adj.codec.obfuscation import Codec
    from vassal_adj.parse.secrets import all_secrets, piece_secrets
    from vassal_adj.parse.tokens import join
    from vassal_adj.savedgame import SavedGame

    add = "+/" + join(["1", MASKED_TYPE, "maskpw;|0\tnull\tMain Map;1;2;;0"], "/")
    side = "+/" + join(["2", SIDE_TYPE, "Germans;|0\tMain Map;1;2;;0"], "/")
    change = "LOG\tD/" + join(["1", "null;\thidepw\tMain Map;1;2;;0"], "/")
    unknown = "D/" + join(["9", "otherpw;|0\tMain Map;1;2;;0"], "/")
    text = encode(
        Node("begin_save", [Node(""), Node("", [Node(add), Node(side)]), Node("end_save"), Node(change), Node(unknown)])
    )
    root = parse_stream(text)
    assert command_secrets(root) == set()  # no command field holds a password here
    assert piece_secrets(root) == {"maskpw", "hidepw"}
    assert all_secrets(root) == {"maskpw", "hidepw"}
    game = SavedGame.new(text, codec=Codec(True, 7))
    assert game.secrets() == {"maskpw", "hidepw"}


def test_a_restricted_access_owner_is_a_secret() -> None:
    # Restricted Access (restrict;) stores the owner's password as its whole state (VASSAL's
    # Restricted.setProperty: owningPlayer = GameModule.getActiveUserId()); a player who has
    # left is in no PLAYER entry, so only the trait gives the password away (issue 17 sweep).
    from vassal_adj.parse.secrets import piece_secrets
    from vassal_adj.parse.tokens import join

    kinds = "restrict;Axis;true;true;Owner only\tpiece;;;unit.png;Unit"
    owned = "+/" + join(["3", kinds, join(["gone/pw;1", "Main Map;1;2;;0"], "\t")], "/")
    free = "+/" + join(["4", kinds, "\tMain Map;1;2;;0"], "/")
    moved = "LOG\tD/" + join(["3", join(["later;pw", "Main Map;1;2;;0"], "\t")], "/")
    root = parse_stream(encode(Node("begin_save", [Node(""), Node(owned), Node(free), Node("end_save"), Node(moved)])))
    assert piece_secrets(root) == {"gone/pw;1", "later;pw"}


def test_empty_stack_shortcut() -> None:
    # Only a stack holding no piece (with or without the 3.4.8 layer) is skipped undecoded.
    from vassal_adj.parse.builder import _holds_pieces

    for text in ("+/12/stack/Main Map;1;2;@@0", "+/12/stack/null;0;0;@@-1", "+/12/stack/Main Map;1;2"):
        assert not _holds_pieces(text), text
    for text in (
        "+/12/stack/Main Map;1;2;12;@@0",
        "+/12/stack/Main Map;1;2;12",
        "+/12/stacks/x;1;2",
        "+/1\\/2/stack/x;1;2",
        "+//stack/x;1;2",
        "+/12/piece;;;a;A/x",
        "+/12/deck;x/Map;1;2;false",
    ):
        assert _holds_pieces(text), text
    assert not _holds_pieces("CHAT hello")


@settings(max_examples=300)
@given(st.one_of(TREES.map(encode), st.text(st.sampled_from(list("ab'\\\x1b+/")), max_size=30)))
def test_iter_texts_select_and_builds_nothing(text: str) -> None:
    # A selection gives exactly the filtered walk, the generator returns the index after the
    # last command, and walking leaves the lazy tree as parsed (no shared list is mutated).
    root = parse_stream(text)
    walk = iter_texts(root, 5, re.compile(r"\+/|a").match)
    picked = []
    try:
        while True:
            picked.append(next(walk))
    except StopIteration as stop:
        end = stop.value
    everything = list(iter_texts(root, 5))
    assert picked == [(i, t) for i, t in everything if t.startswith(("+/", "a"))]
    assert end == 5 + len(everything)
    assert lazy_tree(root) == eager_tree(text)


def test_piece_list_split_once_and_reused() -> None:
    # The glued piece list keeps its own split for its children; indices stay exact.
    from vassal_adj.parse.commands import _split_esc

    plain = _vectors()["save"]["plain"]
    fields, quotes, runs = _split_esc(plain)
    assert not quotes and list(runs) == [2, 4]  # the piece and player lists
    assert all(runs[i] == fields[i].split(ESC) for i in runs)
    root = parse_stream(plain)
    assert root._pre is not None and [k.index for k in root.children[1].children] == [3, 4]
    assert root._pre is None and encode(root) == plain
