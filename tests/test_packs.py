"""Packs on disk (packs.py): discovery, TOML errors with lines, lookup by name, validate, the template."""

from __future__ import annotations

import shutil
import textwrap
from pathlib import Path

import pytest
from conftest import REPO

import vassal_adj
from vassal_adj import packs
from vassal_adj.errors import PackError, UsageError
from vassal_adj.model.geometry.maps import board_hex_layouts
from vassal_adj.model.pieces import Piece
from vassal_adj.rules import registry as reg
from vassal_adj.rules.packs.unitmap import map_units
from vassal_adj.rules.registry import REQUIRED, Registry

TEMPLATE = REPO / "modules" / "_template"
EXAMPLE = REPO / "modules" / "kasserine" / "example" / "Kasserine.vmod"


@pytest.fixture
def registry() -> Registry:
    r = Registry()

    @r.register("supply.trace_to_network", params={"max_path": 4, "sources": REQUIRED})
    def trace() -> None:
        """Supply trace."""

    return r


def make_pack(
    root: Path, dirname: str, pid: str, aliases: list[str] | None = None, module: str = ".*", extra: str = ""
) -> Path:
    d = root / dirname
    d.mkdir(parents=True)
    (d / "pack.toml").write_text(
        textwrap.dedent(f'''\
        [pack]
        id = "{pid}"
        name = "{pid.title()}"
        aliases = {aliases or []!r}
        [pack.module]
        name = "{module}"
        ''')
        + extra,
        encoding="utf-8",
    )
    return d


def test_toml_syntax_error_names_the_line(tmp_path: Path) -> None:
    f = tmp_path / "pack.toml"
    f.write_text('[pack]\nid = "x"\nname = \n', encoding="utf-8")
    with pytest.raises(PackError) as e:
        packs.read_toml(f)
    assert e.value.where is not None and e.value.where.line == 3 and e.value.where.path == str(f)
    assert str(e.value) == f"{f}: line 3: invalid TOML: invalid value (column 8)"


def test_toml_duplicate_key_line(tmp_path: Path) -> None:
    f = tmp_path / "units.toml"
    f.write_text("a = 1\n\n\n[b]\nc = 1\nc = 2\n", encoding="utf-8")
    with pytest.raises(PackError) as e:
        packs.read_toml(f)
    assert e.value.where is not None and e.value.where.line == 6


def test_toml_error_at_end_of_document_names_the_last_line(tmp_path: Path) -> None:
    f = tmp_path / "units.toml"
    f.write_text("[[pattern]]\nregex = 'x\n", encoding="utf-8")
    with pytest.raises(PackError) as e:
        packs.read_toml(f)
    assert e.value.where is not None and e.value.where.line == 2
    assert e.value.message == 'invalid TOML: expected "\'" (at the end of the file)'


def test_unreadable_and_non_utf8(tmp_path: Path) -> None:
    with pytest.raises(PackError, match="cannot read"):
        packs.read_toml(tmp_path / "missing.toml")
    (tmp_path / "latin.toml").write_bytes(b'a = "\xe9"\n')
    with pytest.raises(PackError, match="not UTF-8"):
        packs.read_toml(tmp_path / "latin.toml")


def test_the_template_validates() -> None:
    problems = packs.validate(TEMPLATE)
    assert [p for p in problems if p.level == "error"] == []
    assert [p.message for p in problems] == ["not checked: reading hex labels needs a board (give the module)"]


def test_the_template_validates_on_a_board_and_maps_its_examples() -> None:
    layout = board_hex_layouts(vassal_adj.load_module(EXAMPLE).maps["Main Map"].boards["Kasserine"])[0]
    assert packs.validate(TEMPLATE, layout=layout) == []
    lp = packs.load_pack(TEMPLATE)
    assert lp.pack.id == "template" and lp.unitmap is not None and lp.terrain_path == TEMPLATE / "terrain.csv"
    assert lp.terrain(layout).hexes() == frozenset()

    def piece(pid: str, name: str, **props: str) -> Piece:
        return Piece(pid, name, "Main Map", 0, 0, properties=props)

    pieces = [
        piece("a", "5-3-12 (2/7)", Side="Axis"),
        piece("b", "2-1-14(1/1)"),
        piece("c", "1-2-3/2-10 (68)", Side="Allied"),
        piece("d", "Turn"),
        piece("e", "2-3-11 (1/6)", Side="Allied"),
    ]
    units, unmapped = map_units(pieces, lp.unitmap)
    assert [(u.id, u.side, u.kind, u.mechanized) for u in units] == [
        ("a", "Axis", "armor", True),
        ("b", "Allied", "armor", True),
        ("c", "Allied", "artillery", False),
    ]
    assert [u.piece.id for u in unmapped] == ["e"]  # no class for 2-3-11 (1/6): reported, not guessed


def test_terrain_errors_name_the_line(tmp_path: Path) -> None:
    d = tmp_path / "game"
    shutil.copytree(TEMPLATE, d)
    (d / "terrain.csv").write_text("place,Sbeitla,town objective,2714\nhex,9999,clear\n", encoding="utf-8")
    layout = board_hex_layouts(vassal_adj.load_module(EXAMPLE).maps["Main Map"].boards["Kasserine"])[0]
    [problem] = packs.validate(d, layout=layout)
    assert problem.level == "error" and problem.where == f"{d / 'terrain.csv'}: line 2"
    assert problem.message.startswith("bad hex range '9999'")
    (d / "terrain.csv").write_text("place,Sbeitla,town objective,2714\n", encoding="utf-8")
    terrain = packs.load_pack(d).terrain(layout)
    assert [p.name for p in terrain.places("objective")] == ["Sbeitla"]


def test_validate_reports_pack_and_units_errors(tmp_path: Path) -> None:
    d = tmp_path / "game"
    shutil.copytree(TEMPLATE, d)
    text = (d / "pack.toml").read_text(encoding="utf-8")
    (d / "pack.toml").write_text(text.replace("rulebook = ", "rulebok = "), encoding="utf-8")
    [problem] = packs.validate(d)
    assert problem.where == str(d / "pack.toml") and problem.message.startswith("pack.rulebok: unknown key")
    (d / "pack.toml").write_text(text, encoding="utf-8")
    (d / "units.toml").write_text("[[pattern]]\nregex = 'x\n", encoding="utf-8")
    [problem] = packs.validate(d)
    assert problem.where == f"{d / 'units.toml'}: line 2" and problem.message.startswith("invalid TOML")
    assert str(problem).endswith(": error: " + problem.message)


def test_missing_pack_file_and_named_files(tmp_path: Path, registry: Registry) -> None:
    [problem] = packs.validate(tmp_path, registry=registry)
    assert problem.message == "no pack.toml in the pack directory"
    d = make_pack(tmp_path, "g", "g", extra='[units]\nsides = ["A"]\nclasses = ["x"]\nfile = "pieces.toml"\n')
    with pytest.raises(PackError, match="units.file: no file 'pieces.toml'"):
        packs.load_pack(d, registry=registry)
    lp = packs.load_pack(make_pack(tmp_path, "h", "h"), registry=registry)
    assert lp.unitmap is None and lp.terrain_path is None
    with pytest.raises(PackError, match="has no terrain file"):
        lp.terrain(None)  # type: ignore[arg-type]
    notes = packs.validate(tmp_path / "h", registry=registry)
    assert [p.level for p in notes] == ["note", "note"]


def test_discover_skips_the_template_unless_asked(tmp_path: Path, registry: Registry) -> None:
    make_pack(tmp_path, "b", "bee")
    make_pack(tmp_path, "a", "ay")
    make_pack(tmp_path, "_template", "template")
    (tmp_path / "notapack").mkdir()
    assert [d.name for d in packs.discover(tmp_path)] == ["a", "b"]
    assert [d.name for d in packs.discover(tmp_path, include_template=True)] == ["_template", "a", "b"]
    with pytest.raises(UsageError, match="does not exist"):
        packs.discover(tmp_path / "nowhere")


def test_duplicate_aliases_across_packs(tmp_path: Path, registry: Registry) -> None:
    make_pack(tmp_path, "one", "kasserine", ["Baptism of Fire"])
    make_pack(tmp_path, "two", "kasserine-dg", ["baptism of fire"])
    with pytest.raises(PackError) as e:
        packs.load_all(tmp_path, registry=registry)
    assert "pack name 'baptism of fire' is used by two packs: 'kasserine'" in str(e.value)
    assert "'kasserine-dg'" in str(e.value)


def test_list_packs_reports_a_name_clash(tmp_path: Path, registry: Registry) -> None:
    make_pack(tmp_path, "one", "kasserine", ["Baptism of Fire"])
    make_pack(tmp_path, "two", "kasserine-dg", ["baptism of fire"])
    rows = packs.list_packs(tmp_path, registry=registry)
    assert [r.error for r in rows] == [None, "name 'baptism of fire' is also used by pack 'kasserine'"]


def test_an_id_may_not_be_another_packs_alias(tmp_path: Path, registry: Registry) -> None:
    make_pack(tmp_path, "one", "kasserine", ["crusader"])
    make_pack(tmp_path, "two", "crusader")
    with pytest.raises(PackError, match="pack name 'crusader' is used by two packs"):
        packs.load_all(tmp_path, registry=registry)


def test_find_pack_by_id_alias_or_directory(tmp_path: Path, registry: Registry) -> None:
    make_pack(tmp_path, "k", "kasserine", ["Baptism of Fire"], module="Kasserine.*")
    make_pack(tmp_path, "c", "crusader")
    assert packs.find_pack("kasserine", tmp_path, registry=registry).id == "kasserine"
    assert packs.find_pack("BAPTISM OF FIRE", tmp_path, registry=registry).id == "kasserine"
    assert packs.find_pack(str(tmp_path / "c"), registry=registry).id == "crusader"
    with pytest.raises(UsageError) as e:
        packs.find_pack("gazala", tmp_path, registry=registry)
    assert str(e.value).startswith(
        f"unknown pack 'gazala' (known: crusader; kasserine (Baptism of Fire)); looked in {tmp_path}; to add a pack, "
    )


def test_find_pack_for_module(tmp_path: Path, registry: Registry) -> None:
    make_pack(tmp_path, "k", "kasserine", module="Kasserine.*")
    make_pack(tmp_path, "c", "crusader", module="Crusader")
    assert packs.find_pack_for_module("Kasserine (HexWar)", "1.0", tmp_path, registry=registry).id == "kasserine"
    assert packs.find_pack_for_module("Gazala", "1.0", tmp_path, registry=registry) is None
    make_pack(tmp_path, "any", "anything", module=".*")
    with pytest.raises(UsageError, match="fits several packs \\(anything, crusader\\)"):
        packs.find_pack_for_module("Crusader", "", tmp_path, registry=registry)


def test_only_the_packs_that_may_fit_are_loaded(tmp_path: Path, registry: Registry) -> None:
    # pack_heads reads each [pack] table first (issue 10): a pack written for another module is
    # not loaded, so a fault in it does not stop a command on this module...
    make_pack(tmp_path, "k", "kasserine", ["Baptism of Fire"], module="Kasserine.*")
    make_pack(tmp_path, "z", "broken", module="Gazala", extra="[rules.x]\nimpl = 3\n")
    assert packs.find_pack_for_module("Kasserine (HexWar)", "1.0", tmp_path, registry=registry).id == "kasserine"
    assert packs.find_pack("baptism of fire", tmp_path, registry=registry).id == "kasserine"
    # ...but one that may fit, or whose [pack] cannot be read without loading it, is loaded and says why
    with pytest.raises(PackError, match="rules.x.rule_ref: missing required key"):
        packs.find_pack_for_module("Gazala", "", tmp_path, registry=registry)
    make_pack(tmp_path, "q", "odd", module="(")  # not a regular expression: the loader reports it
    with pytest.raises(PackError, match="bad regular expression"):
        packs.find_pack_for_module("Kasserine (HexWar)", "1.0", tmp_path, registry=registry)


def test_an_unknown_pack_name_still_lists_every_pack(tmp_path: Path, registry: Registry) -> None:
    make_pack(tmp_path, "k", "kasserine", module="Kasserine.*")
    make_pack(tmp_path, "c", "crusader", module="Crusader")
    with pytest.raises(UsageError, match="unknown pack 'gazala' \\(known: crusader; kasserine\\)"):
        packs.find_pack("gazala", tmp_path, registry=registry)


@pytest.mark.parametrize(
    ("module", "fits"),
    [
        ('name = "Kasserine.*"', True),
        ('name = "Gazala"', False),
        ('name = "Kasserine.*"\nversion = "2\\\\..*"', False),  # the version too, as RulePack.fits
        ('name = "Kasserine.*"\nversion = "1\\\\..*"', True),
        ('name = "("', True),  # not a regular expression: left to the loader, which says so
        ("name = 3", True),
        ("", True),  # a [pack.module] without a name: the loader's error
    ],
)
def test_may_fit_says_no_only_when_the_patterns_plainly_miss(tmp_path: Path, module: str, fits: bool) -> None:
    from vassal_adj.pack_heads import may_fit, pack_table

    (tmp_path / "pack.toml").write_text(f'[pack]\nid = "x"\n[pack.module]\n{module}\n', encoding="utf-8")
    assert may_fit(pack_table(tmp_path), "Kasserine (HexWar)", "1.0") is fits


def test_list_packs_shows_broken_packs_with_their_error(tmp_path: Path, registry: Registry) -> None:
    make_pack(
        tmp_path,
        "k",
        "kasserine",
        ["Baptism of Fire"],
        module="Kasserine.*",
        extra='[rules.axis_supply]\nimpl = "supply.trace_to_network"\nrule_ref = "17.11"\nsources = []\n',
    )
    make_pack(tmp_path, "z", "broken", extra="[rules.x]\nimpl = 3\n")
    rows = packs.list_packs(tmp_path, registry=registry)
    assert [(r.id, r.module, r.rules) for r in rows[:1]] == [
        ("kasserine", "Kasserine.*", ("axis_supply (supply.trace_to_network) [17.11]",))
    ]
    assert (
        rows[1].id is None and rows[1].error is not None and "rules.x.rule_ref: missing required key" in rows[1].error
    )


def test_hooks_register_implementations_the_pack_uses(tmp_path: Path) -> None:
    d = make_pack(
        tmp_path,
        "hooked",
        "hooked",
        extra=textwrap.dedent(
            """\
        hooks = "hooks.py"
        [rules.special]
        impl = "test_hooked.special"
        rule_ref = "21.2"
        die = 6
        """.replace('hooks = "hooks.py"\n', "")
        ),
    )
    text = (d / "pack.toml").read_text(encoding="utf-8").replace("[pack]\n", '[pack]\nhooks = "hooks.py"\n')
    (d / "pack.toml").write_text(text, encoding="utf-8")
    (d / "hooks.py").write_text(
        textwrap.dedent('''\
        from vassal_adj.rules.registry import register

        @register("test_hooked.special", params={"die": 6})
        def special(state, p):
            """A game-specific rule."""
        '''),
        encoding="utf-8",
    )
    try:
        lp = packs.load_pack(d)
        assert lp.pack.rule("special").params.die == 6 and lp.pack.hooks == "hooks.py"
        packs.load_pack(d)  # loading twice re-registers the same function: fine
        assert any(i["name"] == "test_hooked.special" for i in packs.implementations())
    finally:
        reg.REGISTRY._impls.pop("test_hooked.special", None)


def test_bad_hooks(tmp_path: Path) -> None:
    d = make_pack(tmp_path, "h", "h")
    text = (d / "pack.toml").read_text(encoding="utf-8")
    (d / "pack.toml").write_text(text.replace("[pack]\n", '[pack]\nhooks = "nohooks.py"\n'), encoding="utf-8")
    with pytest.raises(PackError, match="pack.hooks: no file 'nohooks.py'"):
        packs.load_pack(d)
    (d / "pack.toml").write_text(text.replace("[pack]\n", '[pack]\nhooks = "hooks.py"\n'), encoding="utf-8")
    (d / "hooks.py").write_text("raise RuntimeError('boom')\n", encoding="utf-8")
    with pytest.raises(PackError, match="importing 'hooks.py' failed: RuntimeError: boom"):
        packs.load_pack(d)


def test_repository_packs_load() -> None:
    """Every pack in the repository's modules/ loads, with unique names."""
    for lp in packs.load_all(REPO / "modules"):
        assert lp.pack.id
    assert packs.load_pack(TEMPLATE).pack.names == ("template", "Copy-me template")
