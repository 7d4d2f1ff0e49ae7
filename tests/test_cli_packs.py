"""`vassal-adj packs list` and `packs validate` as a user runs them."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from click.testing import CliRunner
from conftest import REPO

from vassal_adj import cli

TEMPLATE = REPO / "modules" / "_template"
EXAMPLE_MODULE = str(REPO / "modules" / "kasserine" / "example" / "Kasserine.vmod")


def run(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(cli.main, list(args))
    return result.exit_code, result.stdout, result.stderr


def test_list_shows_a_pack_with_its_rules(tmp_path: Path) -> None:
    shutil.copytree(TEMPLATE, tmp_path / "mygame")
    code, out, _ = run("packs", "list", "--modules-dir", str(tmp_path))
    assert code == 0 and out.startswith("template: Template pack (copy me)") and "0 rule(s)" in out
    data = json.loads(run("packs", "list", "--modules-dir", str(tmp_path), "--json")[1])
    assert data["schema_version"] == 1 and len(data["packs"]) == 1 and data["packs"][0]["error"] is None


def test_list_reports_a_broken_pack_instead_of_failing(tmp_path: Path) -> None:
    (tmp_path / "broken").mkdir()
    (tmp_path / "broken" / "pack.toml").write_text("[pack\n")
    code, out, _ = run("packs", "list", "--modules-dir", str(tmp_path))
    assert code == 0 and "broken: cannot be read" in out and "line 1" in out


def test_validate_the_template_on_the_example_board() -> None:
    code, out, _ = run("packs", "validate", str(TEMPLATE), "--module", EXAMPLE_MODULE)
    assert code == 0 and out.strip().endswith("valid")


def test_validate_names_an_unknown_key_and_exits_1(tmp_path: Path) -> None:
    (tmp_path / "pack.toml").write_text('[pack]\nid = "x"\nnamee = "y"\n')
    code, out, _ = run("packs", "validate", str(tmp_path), "--json")
    data = json.loads(out)
    assert code == 1 and not data["valid"]
    assert data["problems"][0]["message"].startswith("pack.namee: unknown key")
    assert data["problems"][0]["where"] == str(tmp_path / "pack.toml")


def test_missing_modules_dir_exits_2(tmp_path: Path) -> None:
    code, _, err = run("packs", "list", "--modules-dir", str(tmp_path / "nope"))
    assert code == 2 and "does not exist" in err


def test_help_has_examples() -> None:
    for args in (["packs", "--help"], ["packs", "list", "--help"], ["packs", "validate", "--help"]):
        code, out, _ = run(*args)
        assert code == 0 and "Example" in out
