"""`vassal-adj vp`: victory points over a game's saves, on the example module.

The pack is the template plus the Kasserine victory rule (tests/test_22_victory.py) and a
units.toml that reads the side from the pieces' "Side" property. The saves are the example
set-up with pieces moved by name (ids may change when the example is rebuilt): onto hexes of
the Main Map, or into the holding boxes (zones "Eliminated", "Turn N") of the example module.

Files: 1. the Axis 5-3-12 (2/7) on Sbeitla 2714 (22.41.1, +30 on turn 1); 2. the Axis 6-5-10
(501) on Tebessa 0306 as well (22.41.7, +65 on turn 2); 3. the Allied 2-3-11 (1/6) in the
Eliminated box (22.41.5, +5 on turn 3) and the Axis Withdrawal marker in the Turn 3 box.
Total 100: a Draw (80-109).
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner
from test_22_victory import KASSERINE_TOML
from test_cumulative_logs import AXIS, axis_continued

import vassal_adj
from vassal_adj.cli import main
from vassal_adj.model.geometry.maps import place_map
from vassal_adj.model.module import Module

ROOT = Path(__file__).resolve().parents[1]
EXAMPLE = ROOT / "modules" / "kasserine" / "example"
MODULE = EXAMPLE / "Kasserine.vmod"
SAVE = EXAMPLE / "setup.vsav"

UNITS = r"""ignore = ['Turn.*', '.*Withdrawal', 'Game Turn']
[[pattern]]
name = "artillery"
regex = '(?P<barrage>\d+)-(?P<fpf>\d+)-(?P<range>\d+)/(?P<defense>\d+)-(?P<movement>\d+)\s*\((?P<designation>[^)]*)\)'
kind = "artillery"
[[pattern]]
name = "combat"
regex = '(?P<attack>\d+)-(?P<defense>\d+)-(?P<movement>\d+)\s*\((?P<designation>[^)]*)\)'
kind = "infantry"

[properties]
side = "Side"

[[group]]
match = { pattern = "combat", movement = 12 }
kind = "armor"
"""


def make_pack(tmp_path: Path, rules: str = KASSERINE_TOML) -> Path:
    pack = tmp_path / "pack"
    shutil.copytree(ROOT / "modules" / "_template", pack)
    text = (pack / "pack.toml").read_text(encoding="utf-8")
    text = (
        text.replace('id = "template"', 'id = "testgame"')
        .replace('aliases = ["Copy-me template"]', "aliases = []")
        .replace('name = "Template Game.*"', 'name = "Kasserine.*"')
    )
    (pack / "pack.toml").write_text(text + rules, encoding="utf-8")
    (pack / "units.toml").write_text(UNITS, encoding="utf-8")
    (pack / "terrain.csv").write_text("path,0306-3906,road\n", encoding="utf-8")
    return pack


def zone_center(module: Module, zone: str) -> tuple[str, int, int]:
    """The map and the pixel at the centre of the example's holding box `zone`."""
    for m in module.maps.values():
        for b in m.boards.values():
            for z in getattr(b.grid, "zones", ()):
                if z.name == zone:
                    xs, ys = [p[0] for p in z.path], [p[1] for p in z.path]
                    return m.name, (min(xs) + max(xs)) // 2, (min(ys) + max(ys)) // 2
    pytest.fail(f"the example module has no holding box {zone!r}")


def save_with(tmp_path: Path, name: str, moves: dict[str, tuple[str, int, int]]) -> Path:
    """The example set-up with pieces (by name) moved to (map, x, y), out of their stacks: a
    piece in a stack is where its stack is (spec 6.4), as VASSAL reads it."""
    game = vassal_adj.load_save(SAVE)
    for piece, (map_name, x, y) in moves.items():
        escaped = piece.replace("/", "\\/")  # as VASSAL's SequenceEncoder writes a name
        nodes = [n for _, _, n in game.nodes() if n.text.startswith("+/") and f";{escaped}/" in n.text]
        assert len(nodes) == 1, piece
        head, _, last = nodes[0].text.rpartition("\t")
        fields = last.split(";")
        fields[:3] = [map_name, str(x), str(y)]
        nodes[0].text = f"{head}\t{';'.join(fields)}"
        pid = nodes[0].text[2:].split("/", 1)[0]
        for _, _, n in game.nodes():
            if n.text.startswith("+/") and "/stack/" in n.text and f";{pid}" in n.text:
                head, _, state = n.text.rpartition("/")
                n.text = f"{head}/{';'.join(f for f in state.split(';') if f != pid)}"
    out = tmp_path / name
    game.write(out)
    return out


def game_files(tmp_path: Path) -> list[Path]:
    mod = vassal_adj.load_module(MODULE)

    def hex_(label: str) -> tuple[str, int, int]:
        x, y = place_map(mod.maps["Main Map"]).hex_center(label)
        return "Main Map", int(x), int(y)

    t1 = {"5-3-12 (2/7)": hex_("2714")}
    t2 = {**t1, "6-5-10 (501)": hex_("0306")}
    t3 = {**t2, "2-3-11 (1/6)": zone_center(mod, "Eliminated"), "Axis Withdrawal": zone_center(mod, "Turn 3")}
    return [save_with(tmp_path, f"t{n}.vsav", moves) for n, moves in enumerate((t1, t2, t3), 1)]


def vp(pack: Path | str, *files: Path | str, extra: tuple[str, ...] = ()) -> tuple[int, str]:
    result = CliRunner().invoke(main, ["vp", *map(str, files), "--module", str(MODULE), "--pack", str(pack), *extra])
    return result.exit_code, result.output


def test_vp_running_total_over_three_saves_and_the_level(tmp_path: Path) -> None:
    code, out = vp(make_pack(tmp_path), *game_files(tmp_path))
    assert code == 0, out
    rows = [line.split()[:4] for line in out.splitlines() if line.startswith("22.41.")]
    assert rows == [["22.41.1", "+30", "1", "30"], ["22.41.7", "+65", "2", "95"], ["22.41.5", "+5", "3", "100"]]
    assert "total: 100 VP, Draw" in out
    assert "1. " in out and "turn 1 (from the order given)" in out
    assert "carry no turn: each is taken as turn 1 plus its place in the order given" in out
    assert "end of play: the Axis player takes one of these awards, not both" in out
    assert "the withdrawal declared on turn 3 is judged on turn 6, after the last save" in out
    assert "projection if the game ended now" in out


def test_vp_json_is_data_with_running_totals(tmp_path: Path) -> None:
    code, out = vp(make_pack(tmp_path), *game_files(tmp_path), extra=("--format", "json"))
    assert code == 0, out
    data = json.loads(out)
    assert data["schema_version"] >= 1 and data["rule"] == "testgame:22.4"
    assert [(i["rule"], i["points"], i["total"], i["file"]) for i in data["items"]] == [
        ("22.41.1", 30, 30, 1),
        ("22.41.7", 65, 95, 2),
        ("22.41.5", 5, 100, 3),
    ]
    assert data["items"][1]["unit_names"] == ["6-5-10 (501)"] and data["items"][1]["hexes"] == ["0306"]
    assert (data["total"], data["level"]) == (100, "Draw")
    assert [o["rule"] for o in data["options"]] == ["22.43.1", "22.43.2"]
    assert data["projection"] == {"points": 100, "level": "Draw", "assumes": "22.43.1"}
    assert [f["turn_from"] for f in data["files"]] == ["order"] * 3


def test_vp_one_save_counts_what_it_shows_and_lists_what_it_cannot_know(tmp_path: Path) -> None:
    one = game_files(tmp_path)[1]  # the Axis on Sbeitla and Tebessa
    code, out = vp(make_pack(tmp_path), one, extra=("--first-turn", "5", "--format", "markdown"))
    assert code == 0, out
    assert out.startswith("## Victory points (testgame:22.4)")
    assert "| Axis first entered Sbeitla 2714 on turn 5 (turns 4-6) | 22.41.3 | +5 | 5 | 5 |" in out
    assert "| Axis first entered Tebessa 0306 on turn 5 (before the withdrawal) | 22.41.7 | +65 | 5 | 70 |" in out
    assert "**Total: 70 VP, Allied Marginal.**" in out
    assert "on which turn it was first entered cannot be known from one save: counted as entered on turn 5" in out


def test_vp_final_counts_the_last_turn(tmp_path: Path) -> None:
    pack = make_pack(tmp_path)
    _, out = vp(pack, SAVE, extra=("--first-turn", "9", "--format", "json"))
    _, final = vp(pack, SAVE, extra=("--first-turn", "9", "--final", "--format", "json"))
    assert json.loads(final)["total"] - json.loads(out)["total"] == -7  # 22.42.3 for turn 9


def test_vp_bad_input_exits_2_naming_the_file(tmp_path: Path) -> None:
    pack = make_pack(tmp_path)
    missing = tmp_path / "no-such.vsav"
    code, out = vp(pack, SAVE, missing)
    assert code == 2 and "no-such.vsav" in out
    code, out = vp(pack, MODULE)
    assert code == 2 and "this is a module, not a saved game or log" in out


def test_vp_pack_without_the_rule_or_with_a_bad_hex_exits_2(tmp_path: Path) -> None:
    code, out = vp(make_pack(tmp_path / "none", rules=""), SAVE)
    assert code == 2 and "has no enabled rule with impl = 'victory.points'" in out
    rules = KASSERINE_TOML.replace('hex = "2714", points = 30', 'hex = "9999", points = 30')
    bad = make_pack(tmp_path / "bad", rules=rules)
    code, out = vp(bad, SAVE)
    assert code == 2 and "rules.victory: objectives[0].hex '9999'" in out


def test_vp_a_log_containing_the_previous_log_counts_only_its_continuation(tmp_path: Path) -> None:
    """A cumulative log (the Axis log of turn 4, then the Allied player's steps: what VASSAL writes
    when a player replays a log and plays on) repeats the earlier log's steps from its opening. The
    Allied 2-1-14 (1/13) eliminated in the Axis log (22.41.5, +3) is that log's event: dated to it,
    once, not to the cumulative log that passes through it again."""
    both = axis_continued(tmp_path)
    start = EXAMPLE / "turn3-faults.vsav"
    _, alone = vp("kasserine", start, AXIS, extra=("--format", "json"))
    _, out = vp("kasserine", start, AXIS, both, extra=("--format", "json"))
    data, before = json.loads(out), json.loads(alone)
    eliminated = [i for i in data["items"] if i["unit_names"] == ["2-1-14 (1/13)"]]
    assert [(i["rule"], i["points"], i["turn"], i["file"]) for i in eliminated] == [("22.41.5", 3, 4, 2)]
    # The continuation (three Allied steps) scores nothing more: the items are the Axis log's.
    assert data["items"] == before["items"] and data["total"] == before["total"] == 41
    assert any(
        n.startswith(f"{both} contains {AXIS} (the same opening and its 18 step(s)) and continues")
        for n in data["notes"]
    )
