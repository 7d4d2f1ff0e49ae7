"""`vassal-adj verify`'s rule options on the Kasserine example log turn4-axis.vlog (it opens on
Game-Turn 4, Axis Movement; scripts/example_logs.py): the pack that fits the module judges the
moves unless --no-rules; --turn, --phase, --weather and --terrain override what the pack reads;
the notes are printed in every format; a log whose turn the tracker cannot tell stops with exit
2 and asks for --turn, never a silent exit 0."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from click.testing import CliRunner
from conftest import CORPUS, REPO, need_corpus

import vassal_adj
from vassal_adj.cli import main
from vassal_adj.codec.obfuscation import Codec
from vassal_adj.model.geometry.maps import module_map
from vassal_adj.parse.commands import Node, encode
from vassal_adj.savedgame import SavedGame

EXAMPLE = REPO / "modules" / "kasserine" / "example"
LOG, MODULE = str(EXAMPLE / "turn4-axis.vlog"), str(EXAMPLE / "Kasserine.vmod")


def run(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(main, ["verify", *args])
    return result.exit_code, result.output


def test_the_pack_that_fits_the_module_judges_the_moves() -> None:
    code, out = run(LOG, "--module", MODULE)
    assert code == 1, out  # the log's faults (LOG_FAULTS) are errors
    assert out.startswith("verify (module 'Kasserine'), pack 'kasserine'")
    assert "error kasserine:19.2: Turn 4 axis-movement: Axis 6-5-10 (501) moved 2613 -> 2513" in out
    assert out == run(LOG, "--module", MODULE, "--pack", "kasserine")[1]


def test_no_rules_only_lists_what_happened() -> None:
    code, out = run(LOG, "--module", MODULE, "--no-rules")
    assert code == 0, out
    assert "kasserine:" not in out and "pack '" not in out
    assert "move     6-5-10 (501): Main Map 2613 -> Main Map 2513" in out
    code, out = run(LOG, "--module", MODULE, "--no-rules", "--pack", "kasserine")
    assert code == 2 and "--no-rules judges no move" in out
    code, out = run(LOG, "--module", MODULE, "--no-rules", "--turn", "4")
    assert code == 2 and "--turn" in out


def test_rule_options_need_the_module() -> None:
    for extra in (["--pack", "kasserine"], ["--turn", "4"]):
        code, out = run(LOG, *extra)
        assert code == 2 and "need --module" in out


def test_notes_say_where_turn_phase_and_weather_come_from_in_every_format() -> None:
    _, out = run(LOG, "--module", MODULE)
    for note in (
        "turn 4: read from the turn tracker 'Game Turn' as the log opens",
        "phase axis-movement: read from the turn tracker 'Game Turn' as the log opens",
        "weather good: the weather table (20.4) for turn 4",
    ):
        assert f"note: {LOG}: {note}" in out
    _, md = run(LOG, "--module", MODULE, "--format", "markdown")
    assert f"note: {LOG}: turn 4: read from the turn tracker" in md
    data = json.loads(run(LOG, "--module", MODULE, "--format", "json")[1])
    assert f"{LOG}: weather good: the weather table (20.4) for turn 4" in data["notes"]
    _, page = run(LOG, "--module", MODULE, "--format", "html")
    assert "turn 4: read from the turn tracker" in page


def test_turn_phase_and_weather_override_the_tracker() -> None:
    # 23: 2-2-11 (10) "appear[s] on Game-Turn Four": on Game-Turn 1 it is too early.
    code, out = run(LOG, "--module", MODULE, "--turn", "1")
    assert code == 1 and f"note: {LOG}: turn 1: given" in out
    assert (
        "error kasserine:23: Turn 1 axis-movement: Axis 2-2-11 (10) moved box 'Turn 4' -> 3920 -> 3718 on "
        "Game-Turn 1: too early, it enters on Game-Turn 4 [23]"
    ) in out
    # 20.3: a 3-2-16 has 16 - 5 = 11 MP in poor weather.
    _, out = run(LOG, "--module", MODULE, "--weather", "poor")
    assert f"note: {LOG}: weather poor: given, for every phase of the log" in out
    assert "Axis 3-2-16 (580): 3113 -> 2916: legal, 2.5 of 11 MP" in out  # the units-moved line
    # The moves of the Axis movement phase judged as if in the Allied one (23.71).
    _, out = run(LOG, "--module", MODULE, "--phase", "allied-movement")
    assert "Axis units move only in the Axis movement phase [23.71]" in out
    code, out = run(LOG, "--module", MODULE, "--phase", "axis-movment")
    assert code == 2 and "--phase 'axis-movment'" in out


def test_terrain_replaces_the_packs(tmp_path: Path) -> None:
    # 3920 made rough: 1-2-9 (Lang) entering there pays 2 MP (assumption entry_cost, terrain_costs).
    text = (REPO / "modules" / "kasserine" / "terrain.csv").read_text(encoding="utf-8")
    assert "hex,3901-3926,clear\n" in text
    terrain = tmp_path / "terrain.csv"
    terrain.write_text(
        text.replace("hex,3901-3926,clear\n", "hex,3901-3919 3921-3926,clear\nhex,3920,rough\n"), encoding="utf-8"
    )
    _, out = run(LOG, "--module", MODULE)
    assert "Axis 1-2-9 (Lang): box 'Turn 4' -> 3920: legal, 1 of 9 MP" in out
    _, out = run(LOG, "--module", MODULE, "--terrain", str(terrain))
    assert "Axis 1-2-9 (Lang): box 'Turn 4' -> 3920: legal, 2 of 9 MP" in out


def test_a_log_whose_turn_cannot_be_read_is_a_usage_error(tmp_path: Path) -> None:
    # The example set-up without its turn tracker state, then one Allied drag: nothing tells the turn.
    setup = vassal_adj.load_save(EXAMPLE / "setup.vsav")
    mod = vassal_adj.load_module(MODULE)
    x, y = module_map(mod, "Main Map", save=setup).hex_center("2512")
    fx, fy = module_map(mod, "Main Map", save=setup).hex_center("2714")
    kids = [n for n in setup.root.children if not n.text.startswith("TURNTurnTracker0")]
    drag = Node(f"LOG\tM/1767225600087/Main Map/{x}/{y}/null/Main Map/{fx}/{fy}/null/pw")
    log = tmp_path / "no-turn.vlog"
    SavedGame.new(encode(Node(setup.root.text, [*kids, drag])), codec=Codec(True, 7)).write(log)
    code, out = run(str(log), "--module", MODULE)
    assert code == 2
    assert (
        "the turn and phase could not be read from the turn tracker 'Game Turn' as the log opens, and the "
        "moves cannot be judged without: give --turn and --phase, or --no-rules"
    ) in out and str(log) in out
    code, out = run(str(log), "--module", MODULE, "--turn", "2", "--phase", "allied-movement")
    assert code == 0, out
    assert "Allied 2-1-14 (1/13): 2714 -> 2512: legal, 2.5 of 14 MP" in out
    assert run(str(log), "--module", MODULE, "--no-rules")[0] == 0


def test_a_module_no_pack_fits_is_listed_with_a_note() -> None:
    need_corpus()
    case = CORPUS / "CommandsAndColorsNapoleonics"
    code, out = run(str(case / "CCNv4 Tutorial.vlog"), "--module", str(case / "CommandsAndColorsNapoleonics.vmod"))
    assert code == 0, out[-2000:]
    assert "note: no rule pack fits module 'Commands & Colors: Napoleonics V4.2'" in out
    assert "the moves are listed, not judged (name a pack with --pack)" in out


def test_a_tracker_phase_the_pack_does_not_name_asks_for_phase(tmp_path: Path) -> None:
    # A pack whose [state] maps no tracker item to axis-movement: the log opens in "Axis Movement".
    pack = tmp_path / "pack"
    shutil.copytree(REPO / "modules" / "kasserine", pack, ignore=shutil.ignore_patterns("example"))
    toml = (pack / "pack.toml").read_text(encoding="utf-8")
    assert '"Axis Movement" = "axis-movement", ' in toml
    (pack / "pack.toml").write_text(toml.replace('"Axis Movement" = "axis-movement", ', ""), encoding="utf-8")
    code, out = run(LOG, "--module", MODULE, "--pack", str(pack))
    assert code == 2 and "shows phase 'Axis Movement', which is none of pack 'kasserine''s phases" in out
    assert "give --phase" in out and "--phase 'Axis Movement'" not in out  # no --phase was given
