"""Where packs are found (pack_paths.py; issue 10, "Runs where users are").

Search order: --packs-dir, $VASSAL_ADJ_PACKS, the user's packs folder, the packs shipped with
vassal-adj (the clone's modules/ in a checkout). The first place holding a pack name wins.
"""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner
from conftest import REPO

import vassal_adj
from vassal_adj import cli, pack_paths, packs
from vassal_adj.errors import UsageError

TEMPLATE = REPO / "modules" / "_template"
EXAMPLE = REPO / "modules" / "kasserine" / "example"
SHIPPED = pack_paths.shipped_packs_dir() or pack_paths.Place(Path("absent"), "no shipped packs found")


@pytest.fixture
def user_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A user packs folder of the test's own (absent until a test makes it); no $VASSAL_ADJ_PACKS."""
    folder = tmp_path / "user" / "vassal-adj" / "packs"
    monkeypatch.setattr(pack_paths, "user_packs_dir", lambda: folder)
    monkeypatch.delenv(pack_paths.ENV_PACKS, raising=False)
    return folder


def copy_template(root: Path, dirname: str, pid: str, hooks: str | None = None) -> Path:
    """The template pack under `root`/`dirname`, its id changed to `pid` (its alias dropped)."""
    d = root / dirname
    shutil.copytree(TEMPLATE, d)
    text = (d / "pack.toml").read_text(encoding="utf-8")
    text = text.replace('id = "template"', f'id = "{pid}"').replace('aliases = ["Copy-me template"]', "aliases = []")
    if hooks is not None:
        text = text.replace("[pack]\n", '[pack]\nhooks = "hooks.py"\n', 1)
        (d / "hooks.py").write_text(hooks, encoding="utf-8")
    (d / "pack.toml").write_text(text, encoding="utf-8")
    return d


def run(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(cli.main, list(args))
    return result.exit_code, result.stdout, result.stderr


@pytest.mark.parametrize(
    ("platform", "env", "expected"),
    [
        ("linux", {}, "/home/ann/.local/share/vassal-adj/packs"),
        ("linux", {"XDG_DATA_HOME": "/data"}, "/data/vassal-adj/packs"),
        ("darwin", {}, "/home/ann/Library/Application Support/vassal-adj/packs"),
        ("win32", {"APPDATA": "/users/ann/AppData/Roaming"}, "/users/ann/AppData/Roaming/vassal-adj/packs"),
        ("win32", {}, "/home/ann/AppData/Roaming/vassal-adj/packs"),
    ],
)
def test_the_user_packs_folder_is_where_each_system_keeps_user_data(
    platform: str, env: dict[str, str], expected: str
) -> None:
    assert pack_paths.user_packs_dir(env, platform, Path("/home/ann")) == Path(expected)


def test_the_shipped_packs_are_the_packages_or_else_the_clones() -> None:
    """Installed from a wheel, the packs are vassal_adj/packs_data; run from a clone, its modules/."""
    package = Path(vassal_adj.__file__).parent
    if (package / "packs_data").is_dir():
        assert (SHIPPED.path, SHIPPED.origin) == (package / "packs_data", "shipped with vassal-adj")
    else:
        assert package.parent == REPO and (SHIPPED.path, SHIPPED.origin) == (REPO / "modules", "the clone's modules/")
    assert (SHIPPED.path / "kasserine" / "pack.toml").is_file()


def test_the_search_order(tmp_path: Path, user_dir: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    given, env1, env2 = (tmp_path / n for n in ("given", "env1", "env2"))
    for d in (given, env1, env2, user_dir):
        d.mkdir(parents=True)
    monkeypatch.setenv(pack_paths.ENV_PACKS, f"{env1}{os.pathsep}{os.pathsep}{env2}")  # an empty entry is skipped
    pack_paths.set_packs_dirs([given])
    try:
        places = pack_paths.search_path()
    finally:
        pack_paths.set_packs_dirs(())
    assert [(p.path, p.origin) for p in places] == [
        (given, "--packs-dir"),
        (env1, "$VASSAL_ADJ_PACKS"),
        (env2, "$VASSAL_ADJ_PACKS"),
        (user_dir, "your packs folder"),
        (SHIPPED.path, SHIPPED.origin),
    ]


def test_an_absent_user_folder_is_skipped_and_a_directory_counts_once(
    user_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(pack_paths.ENV_PACKS, str(SHIPPED.path))
    assert [(p.path, p.origin) for p in pack_paths.search_path()] == [(SHIPPED.path, "$VASSAL_ADJ_PACKS")]


def test_a_named_directory_that_does_not_exist_is_a_usage_error(
    tmp_path: Path, user_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(pack_paths.ENV_PACKS, str(tmp_path / "nowhere"))
    with pytest.raises(UsageError, match="packs directory '.*nowhere' from \\$VASSAL_ADJ_PACKS does not exist"):
        packs.load_all()
    code, _, err = run("--packs-dir", str(tmp_path / "absent"), "packs", "list")
    assert code == 2 and "absent' from --packs-dir does not exist" in err


def test_a_pack_in_the_user_folder_is_found_by_name(user_dir: Path) -> None:
    copy_template(user_dir, "mygame", "mygame")
    lp = packs.find_pack("mygame")
    assert lp.directory == user_dir / "mygame"
    shipped = sorted(d.name for d in SHIPPED.path.iterdir() if (d / "pack.toml").is_file() and d.name != "_template")
    # search order: user folder, then shipped
    assert [p.id for p in packs.load_all()] == ["mygame", *shipped]


def test_the_first_place_wins_a_shared_name(tmp_path: Path, user_dir: Path) -> None:
    """A user's edited copy of a shipped pack replaces it; the shipped one is listed as not used."""
    copy_template(user_dir, "kasserine-mine", "kasserine")
    assert packs.find_pack("kasserine").directory == user_dir / "kasserine-mine"
    rows = [r for r in packs.list_packs() if r.directory.name in ("kasserine-mine", "kasserine")]
    assert [(r.id, r.origin) for r in rows] == [("kasserine", "your packs folder"), (None, SHIPPED.origin)]
    assert rows[1].directory == SHIPPED.path / "kasserine"
    assert rows[1].shadowed_by.startswith(f"pack 'kasserine' in {user_dir / 'kasserine-mine'} (your packs folder)")
    code, out, _ = run("packs", "list")
    assert code == 0 and "kasserine: not used: pack 'kasserine' in" in out


def test_a_pack_left_out_is_not_loaded_so_its_hooks_do_not_run(tmp_path: Path, user_dir: Path) -> None:
    first = copy_template(tmp_path / "first", "game", "game")
    copy_template(user_dir, "game", "game", hooks="raise RuntimeError('hooks of a pack that is not used ran')\n")
    pack_paths.set_packs_dirs([first.parent])
    try:
        assert packs.find_pack("game").directory == first
    finally:
        pack_paths.set_packs_dirs(())


def test_packs_dir_on_the_group_and_on_the_command(tmp_path: Path, user_dir: Path) -> None:
    copy_template(tmp_path, "mygame", "mygame")
    for args in (["--packs-dir", str(tmp_path), "packs", "list"], ["packs", "list", "--packs-dir", str(tmp_path)]):
        code, out, _ = run(*args)
        assert code == 0 and out.startswith(
            f"mygame: Template pack (copy me); fits module 'Template Game.*'; "
            f"0 rule(s); in {tmp_path / 'mygame'} (--packs-dir)"
        ), out
    assert pack_paths.packs_dirs() == ()  # the setting lasts one run
    code, out, _ = run("packs", "list", "--json")
    assert "mygame" not in out and json.loads(out)["packs"][0]["origin"] == SHIPPED.origin


def test_every_command_that_takes_pack_takes_packs_dir() -> None:
    for command in (["check"], ["vp"], ["verify"], ["packs", "list"]):
        code, out, _ = run(*command, "--help")
        assert code == 0 and "--packs-dir DIR" in out, command


def test_check_uses_a_pack_given_with_packs_dir(tmp_path: Path, user_dir: Path) -> None:
    mine = copy_template(tmp_path, "mine", "mine") / "pack.toml"
    # A pack named with --pack must fit the module: this copy is written for Kasserine.
    mine.write_text(
        mine.read_text(encoding="utf-8").replace('name = "Template Game.*"', 'name = "Kasserine"'), encoding="utf-8"
    )
    code, out, _ = run(
        "check",
        str(EXAMPLE / "setup.vsav"),
        "--module",
        str(EXAMPLE / "Kasserine.vmod"),
        "--pack",
        "mine",
        "--packs-dir",
        str(tmp_path),
    )
    # Found and used; the template has no rules and its units fit none of Kasserine's pieces (warnings).
    assert code == 0 and out.startswith(f"check {EXAMPLE / 'setup.vsav'} with pack 'mine'"), out
    code, _, err = run(
        "check", str(EXAMPLE / "setup.vsav"), "--module", str(EXAMPLE / "Kasserine.vmod"), "--pack", "mine"
    )
    assert code == 2 and "unknown pack 'mine'" in err


def test_no_pack_found_says_where_it_looked_and_how_to_add_one(tmp_path: Path, user_dir: Path) -> None:
    code, _, err = run(
        "check",
        str(EXAMPLE / "setup.vsav"),
        "--module",
        str(EXAMPLE / "Kasserine.vmod"),
        "--pack",
        "gazala",
        "--packs-dir",
        str(tmp_path),
    )
    assert code == 2
    assert f"looked in {tmp_path} (--packs-dir); {SHIPPED}; {user_dir} (your packs folder: absent)" in err
    assert (
        f"to add a pack, copy a pack folder (the template {SHIPPED.path / '_template'}) into {user_dir}, "
        f"or name the folder "
        f"holding it with --packs-dir DIR or $VASSAL_ADJ_PACKS" in err
    )
    code, out, _ = run("packs", "list", "--modules-dir", str(tmp_path))
    assert code == 0 and out.startswith(f"no packs found; looked in {tmp_path}; to add a pack")


def test_version() -> None:
    code, out, _ = run("--version")
    assert code == 0 and out == f"vassal-adj {vassal_adj.__version__}\n"
