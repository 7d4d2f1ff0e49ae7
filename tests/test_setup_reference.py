"""``setup.reference`` (RULES-MAP N11): a game's opening compared with the module's predefined set-up.

On a real module: Ragnarok (corpus), whose buildFile names the predefined set-up "At Start"
(file ``ragnarok-start.vsav``); the corpus keeps that save beside the module, so the test packs it
back into a copy of the module as the published module carries it. On a built module: the
Kasserine example with a PredefinedSetup added for its own ``setup.vsav``. The game's position is
the module's save with pieces moved, removed or added, through the loading layer (`game_state`).
"""

from __future__ import annotations

import json
import shutil
import zipfile
from dataclasses import replace
from pathlib import Path

import pytest
from conftest import need_corpus

import vassal_adj
from vassal_adj.model.pieces import Piece
from vassal_adj.packs import load_pack
from vassal_adj.rules.engine import adjudicate
from vassal_adj.state_builder import game_state

ROOT = Path(__file__).resolve().parents[1]
KASSERINE = ROOT / "modules" / "kasserine" / "example"

RAGNAROK_UNITS = r"""ignore = ['en-.*', 'mkr-.*']

[[pattern]]
name = "hero"
regex = 'hero-(?P<designation>[a-z]+)'
kind = "hero"
movement = 0

[[pattern]]
name = "unit"
regex = 'unit-(?P<designation>[a-z]+)'
kind = "unit"
movement = 0

[properties]
side = "Side"
"""


def _pack(tmp: Path, module_name: str, rule: str, units: str | None = None) -> Path:
    pack = tmp / "pack"
    shutil.copytree(ROOT / "modules" / "_template", pack)
    text = (pack / "pack.toml").read_text(encoding="utf-8")
    text = text.replace('id = "template"', 'id = "reftest"').replace('aliases = ["Copy-me template"]', "aliases = []")
    text = text.replace('name = "Template Game.*"', f'name = "{module_name}.*"')
    if units is not None:
        text = text.replace('sides = ["Axis", "Allied"]', 'sides = ["Aesir", "Jotun"]')
        text = text.replace(
            "[units.classes.infantry]", "[units.classes.infantry]\n[units.classes.hero]\n[units.classes.unit]"
        )
        (pack / "units.toml").write_text(units, encoding="utf-8")
    (pack / "pack.toml").write_text(text + rule, encoding="utf-8")
    (pack / "terrain.csv").write_text("", encoding="utf-8")
    return pack


def _with_entry(module: Path, out: Path, name: str, data: bytes, build_xml: tuple[str, str] | None = None) -> Path:
    """A copy of `module` holding the entry `name`, its buildFile edited by (old, new) when given."""
    with zipfile.ZipFile(module) as src, zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as dst:
        for info in src.infolist():
            body = src.read(info)
            if build_xml and info.filename in ("buildFile.xml", "buildFile"):
                body = body.replace(build_xml[0].encode(), build_xml[1].encode(), 1)
            dst.writestr(info, body)
        dst.writestr(name, data)
    return out


def _ragnarok(tmp: Path) -> tuple[Path, Path]:
    corpus = need_corpus() / "Ragnarok"
    save = corpus / "ragnarok-start.vsav"
    return _with_entry(corpus / "Ragnarok.vmod", tmp / "Ragnarok.vmod", save.name, save.read_bytes()), save


RAGNAROK_RULE = """
[rules.setup]
impl = "setup.reference"
rule_ref = "Sc. At Start"
setup = "At Start"
"""


def _check(module: Path, save: Path, pack: Path, pieces: tuple[Piece, ...] | None = None) -> list[tuple[str, str]]:
    mod, game, lp = vassal_adj.load_module(module), vassal_adj.load_save(save), load_pack(pack)
    state, ctx, _ = game_state(mod, game, lp, pieces=pieces)
    return [(f.severity, f.message) for f in adjudicate(state, lp, ctx).findings if f.rule.endswith(":Sc. At Start")]


def test_the_real_module_names_its_predefined_set_up_and_the_loader_reads_its_save(tmp_path: Path) -> None:
    module, _ = _ragnarok(tmp_path)
    mod = vassal_adj.load_module(module)
    at_start = next(s for s in mod.predefined_setups if s.name == "At Start")
    assert (at_start.file, at_start.use_file, at_start.is_menu) == ("ragnarok-start.vsav", True, False)
    assert set(mod.setup_files) == {"ragnarok-start.vsav"}  # "Free Setup" names a save the module lacks
    nested = vassal_adj.load_module(need_corpus() / "VassalTestPredefinedSetups" / "test-predefined-setups.vmod")
    assert [(s.name, s.menu, s.is_menu) for s in nested.predefined_setups][-1] == (
        "pds1",
        ("Menu1", "Menu2", "Menu3"),
        False,
    )


def test_the_module_s_own_set_up_save_matches_itself(tmp_path: Path) -> None:
    module, save = _ragnarok(tmp_path)
    pack = _pack(tmp_path, "Ragnarok", RAGNAROK_RULE, RAGNAROK_UNITS)
    assert _check(module, save, pack) == []


def test_a_unit_moved_missing_or_extra_is_an_error_naming_where_the_set_up_puts_it(tmp_path: Path) -> None:
    module, save = _ragnarok(tmp_path)
    pack = _pack(tmp_path, "Ragnarok", RAGNAROK_RULE, RAGNAROK_UNITS)
    pieces = vassal_adj.load_save(save).pieces(vassal_adj.load_module(module))
    heimdall = next(p for p in pieces if p.name == "hero-heimdall")
    loki = next(p for p in pieces if p.name == "hero-loki")
    odin = next(p for p in pieces if p.name == "hero-odin")
    moved = replace(loki, map=heimdall.map, x=heimdall.x, y=heimdall.y, location=heimdall.location)
    twice = replace(odin, id="copy-of-odin")
    game = tuple(moved if p is loki else p for p in pieces if p.name != "hero-thor") + (twice,)
    assert _check(module, save, pack, game) == [
        ("error", "Jotun hero-loki is in 0101, but set-up 'At Start' puts it in box 'deployment' [Sc. At Start]"),
        ("error", "Aesir hero-odin (box 'deployment') is one more than set-up 'At Start' has (1) [Sc. At Start]"),
        ("error", "Aesir hero-thor is missing: set-up 'At Start' puts one more in box 'deployment' [Sc. At Start]"),
    ]


def test_units_the_scenario_leaves_free_are_counted_not_placed(tmp_path: Path) -> None:
    module, save = _ragnarok(tmp_path)
    rule = RAGNAROK_RULE + 'free = { kinds = ["hero"] }\n'
    pack = _pack(tmp_path, "Ragnarok", rule, RAGNAROK_UNITS)
    pieces = vassal_adj.load_save(save).pieces(vassal_adj.load_module(module))
    heimdall = next(p for p in pieces if p.name == "hero-heimdall")
    fire = next(p for p in pieces if p.name == "unit-fire")
    game = tuple(
        replace(p, map=heimdall.map, x=heimdall.x, y=heimdall.y, location=heimdall.location)
        if p.name == "hero-loki" or p is fire
        else p
        for p in pieces
    )
    # hero-loki is free: in 0101 instead of the deployment box, it is not an error; unit-fire is not.
    assert _check(module, save, pack, game) == [
        ("error", "Jotun unit-fire is in 0101, but set-up 'At Start' puts it in box 'deployment' [Sc. At Start]")
    ]


@pytest.mark.parametrize(
    ("setup", "why"),
    [
        ("Ragnarok Classic", "the module has no predefined set-up named 'Ragnarok Classic'"),
        ("Free Setup", "the module's predefined set-up 'Free Setup' opens no save (a blank start)"),
    ],
)
def test_a_set_up_the_module_lacks_is_not_judged_never_an_error(tmp_path: Path, setup: str, why: str) -> None:
    module, save = _ragnarok(tmp_path)
    pack = _pack(
        tmp_path, "Ragnarok", RAGNAROK_RULE.replace('"At Start"', repr(setup).replace("'", '"')), RAGNAROK_UNITS
    )
    assert _check(module, save, pack) == [("info", f"set-up not judged: {why} [Sc. At Start]")]


def test_the_corpus_module_without_its_save_entry_is_not_judged(tmp_path: Path) -> None:
    corpus = need_corpus() / "Ragnarok"
    pack = _pack(tmp_path, "Ragnarok", RAGNAROK_RULE, RAGNAROK_UNITS)
    assert _check(corpus / "Ragnarok.vmod", corpus / "ragnarok-start.vsav", pack) == [
        (
            "info",
            "set-up not judged: the module's predefined set-up 'At Start' names the save 'ragnarok-start.vsav', "
            "which the module does not hold [Sc. At Start]",
        )
    ]


KASSERINE_RULE = """
[rules.setup]
impl = "setup.reference"
rule_ref = "Sc. At Start"
setup = { opening = "Historical set-up" }
within = 1
setup_turn = 1                         # the example's set-up save stands at Game-Turn 1, before any move
setup_phases = ["axis-movement"]
"""

KASSERINE_SCENARIO = """
[scenarios.opening]
name = "The historical opening"
"""


def _kasserine(tmp: Path) -> Path:
    setup = (
        '<VASSAL.build.module.PredefinedSetup file="setup.vsav" isMenu="false" '
        'name="Historical set-up" useFile="true"/>'
    )
    return _with_entry(
        KASSERINE / "Kasserine.vmod",
        tmp / "Kasserine.vmod",
        "setup.vsav",
        (KASSERINE / "setup.vsav").read_bytes(),
        ("</VASSAL.build.GameModule>", setup + "</VASSAL.build.GameModule>"),
    )


def test_a_built_module_s_set_up_by_scenario_with_a_tolerance_of_one_hex(tmp_path: Path) -> None:
    module = _kasserine(tmp_path)
    pack = tmp_path / "pack"
    shutil.copytree(ROOT / "modules" / "kasserine", pack)
    text = (pack / "pack.toml").read_text(encoding="utf-8").replace('id = "kasserine"', 'id = "reftest"')
    (pack / "pack.toml").write_text(text + KASSERINE_SCENARIO + KASSERINE_RULE, encoding="utf-8")
    mod, lp = vassal_adj.load_module(module), load_pack(pack)
    game = vassal_adj.load_save(KASSERINE / "setup.vsav")
    pieces = game.pieces(mod)
    on_map = [p for p in pieces if p.location and p.location[:2].isdigit()]
    first = on_map[0]
    grid = mod.maps[first.map]
    assert grid is not None

    def findings(moved: tuple[Piece, ...] | None, scenario: str | None = "opening") -> list[tuple[str, str]]:
        state, ctx, _ = game_state(mod, game, lp, pieces=moved, scenario=scenario)
        return [(f.severity, f.message) for f in adjudicate(state, lp, ctx).findings if "Sc. At Start" in f.message]

    assert findings(None) == []
    assert findings(None, scenario=None)[0][1].startswith("set-up not judged: the game's scenario is not known")
    far = next(p for p in on_map if p.location != first.location)
    swapped = tuple(replace(p, x=far.x, y=far.y, location=far.location) if p is first else p for p in pieces)
    [(severity, message)] = [f for f in findings(swapped) if f[0] == "error"]
    assert severity == "error" and f"is in {far.location}, but set-up 'Historical set-up' puts" in message


def _kasserine_pack(tmp: Path) -> Path:
    pack = tmp / "pack"
    shutil.copytree(ROOT / "modules" / "kasserine", pack, ignore=shutil.ignore_patterns("example"))
    text = (pack / "pack.toml").read_text(encoding="utf-8").replace('id = "kasserine"', 'id = "reftest"')
    (pack / "pack.toml").write_text(text + KASSERINE_SCENARIO + KASSERINE_RULE, encoding="utf-8")
    return pack


def test_check_compares_the_save_with_the_module_s_set_up(tmp_path: Path) -> None:
    from click.testing import CliRunner

    from vassal_adj.cli import main

    module, pack = _kasserine(tmp_path), _kasserine_pack(tmp_path)
    args = ["check", str(KASSERINE / "setup.vsav"), "--module", str(module), "--pack", str(pack)]
    result = CliRunner().invoke(main, [*args, "--scenario", "opening", "--format", "json"])
    assert result.exit_code == 0, result.output
    found = json.loads(result.output)["findings"]
    assert [f for f in found if f["rule"] == "reftest:Sc. At Start"] == []  # the module's own set-up: nothing to say


def test_a_set_up_save_the_module_holds_but_cannot_be_read_is_bad_input(tmp_path: Path) -> None:
    from click.testing import CliRunner

    from vassal_adj.cli import main

    setup = (
        '<VASSAL.build.module.PredefinedSetup file="setup.vsav" isMenu="false" '
        'name="Historical set-up" useFile="true"/>'
    )
    module = _with_entry(
        KASSERINE / "Kasserine.vmod",
        tmp_path / "Kasserine.vmod",
        "setup.vsav",
        b"not a save",
        ("</VASSAL.build.GameModule>", setup + "</VASSAL.build.GameModule>"),
    )
    pack = _kasserine_pack(tmp_path)
    args = ["check", str(KASSERINE / "setup.vsav"), "--module", str(module), "--pack", str(pack)]
    result = CliRunner().invoke(main, [*args, "--scenario", "opening"])
    assert result.exit_code == 2 and f"{module}!setup.vsav: not a VASSAL file" in result.output, result.output
