"""Issue 10, CLI polish: `--help` grouped by use, one `--format` option (`--json` a hidden alias),
shell completion of commands and pack names, and a pieces table that fits the terminal."""

from __future__ import annotations

import json
import re
import shutil
import tomllib
from pathlib import Path

import pytest
from click.testing import CliRunner
from conftest import REPO, corpus_files, ids

from vassal_adj import cli
from vassal_adj.cli.lazy import LAZY_COMMANDS, SECTIONS

EXAMPLE = REPO / "modules" / "kasserine" / "example"
MODULE, SETUP = str(EXAMPLE / "Kasserine.vmod"), str(EXAMPLE / "setup.vsav")
TEMPLATE = REPO / "modules" / "_template"
# The packs shipped in modules/, by id: completion offers each of them.
SHIPPED = sorted(
    tomllib.loads((d / "pack.toml").read_text(encoding="utf-8"))["pack"]["id"]
    for d in (REPO / "modules").iterdir()
    if (d / "pack.toml").is_file() and not d.name.startswith("_")
)


def run(*args: str, env: dict[str, str] | None = None) -> tuple[int, str, str]:
    result = CliRunner().invoke(cli.main, list(args), env=env, prog_name="vassal-adj")
    return result.exit_code, result.stdout, result.stderr


def test_help_lists_commands_in_playing_refereeing_exploring_and_authoring_sections() -> None:
    code, out, _ = run("--help")
    assert code == 0
    heads = [line for line in out.splitlines() if re.fullmatch(r"[A-Z][a-z]+:", line)]
    assert heads == ["Options:", "Playing:", "Refereeing:", "Exploring:", "Authoring:"]
    for title, names in SECTIONS.items():
        block = out.split(f"{title}:\n", 1)[1].split("\n\n", 1)[0]
        assert [line.split()[0] for line in block.splitlines()] == list(names)
    assert sorted(n for names in SECTIONS.values() for n in names) == sorted(LAZY_COMMANDS)


def test_help_examples_show_check_and_verify_and_completion() -> None:
    out = run("--help")[1]
    examples = out.split("Examples:", 1)[1].split("Options:", 1)[0]
    assert "vassal-adj check " in examples and "vassal-adj verify " in examples
    assert "_VASSAL_ADJ_COMPLETE=bash_source vassal-adj" in examples


@pytest.mark.parametrize(
    "argv",
    [
        ["inspect", MODULE],
        ["pieces", SETUP],
        ["grid", MODULE],
        ["hex", MODULE, "0312"],
        ["where", MODULE, "140", "696"],
        ["packs", "list"],
        ["packs", "validate", str(TEMPLATE)],
    ],
    ids=lambda a: a[0] + a[1][:1],
)
def test_format_json_everywhere_and_json_kept_as_a_hidden_alias(argv: list[str]) -> None:
    code, out, _ = run(*argv, "--format", "json")
    assert code == 0 and json.loads(out)["schema_version"] == 1
    assert run(*argv, "--json") == (code, out, "")
    text = run(*argv)[1]
    assert not text.startswith("{")
    help_text = run(*argv, "--help")[1]
    assert "--format [text|json]" in help_text and "--json" not in help_text


def test_format_refuses_an_unknown_format() -> None:
    code, _, err = run("inspect", MODULE, "--format", "xml")
    assert code == 2 and "'xml' is not one of 'text', 'json'" in err


def _complete(words: str, env: dict[str, str] | None = None) -> list[str]:
    cword = len(words.split()) - (0 if words.endswith(" ") else 1)
    code, out, _ = run(
        env={"_VASSAL_ADJ_COMPLETE": "bash_complete", "COMP_WORDS": words, "COMP_CWORD": str(cword), **(env or {})}
    )
    assert code == 0
    return [line.split(",", 1)[1] for line in out.splitlines() if line]


def test_the_shell_completes_commands() -> None:
    assert _complete("vassal-adj ve") == ["verify"]
    assert _complete("vassal-adj packs ") == ["list", "validate"]


@pytest.mark.parametrize("command", ["check x.vsav", "verify x.vlog", "vp x.vsav"])
def test_the_shell_completes_pack_names_after_pack(command: str) -> None:
    assert _complete(f"vassal-adj {command} --pack ") == SHIPPED
    assert _complete(f"vassal-adj {command} --pack kas") == ["kasserine"]
    assert _complete(f"vassal-adj {command} --pack tun") == ["tunisia-1943"]
    assert _complete(f"vassal-adj {command} --pack zz") == []


def test_pack_completion_finds_the_packs_of_packs_dir(tmp_path: Path) -> None:
    mine = tmp_path / "mygame"
    shutil.copytree(TEMPLATE, mine)
    toml = (mine / "pack.toml").read_text(encoding="utf-8")
    (mine / "pack.toml").write_text(
        toml.replace('id = "template"', 'id = "mygame"').replace('aliases = ["Copy-me template"]', "aliases = []"),
        encoding="utf-8",
    )
    assert _complete(f"vassal-adj --packs-dir {tmp_path} check x.vsav --pack ") == sorted([*SHIPPED, "mygame"])
    assert _complete(f"vassal-adj check x.vsav --packs-dir {tmp_path} --pack my") == ["mygame"]


def test_the_readme_documents_completion_for_bash_zsh_and_fish() -> None:
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    for shell in ("bash", "zsh", "fish"):
        assert f"_VASSAL_ADJ_COMPLETE={shell}_source vassal-adj" in readme


@pytest.mark.parametrize("width", [80, 60, 120])
def test_the_pieces_table_of_the_example_fits_the_width(width: int) -> None:
    code, out, _ = run("pieces", SETUP, "--module", MODULE, "--properties", env={"COLUMNS": str(width)})
    assert code == 0 and "99 piece(s)" in out
    lines = out.splitlines()
    assert max(len(line) for line in lines) <= width
    assert lines[0].split() == ["id", "name", "map", "x", "y", "location"]
    assert "    Side=Allied" in lines  # a property: an indented name=value line under its piece


@pytest.mark.parametrize("path", corpus_files(".vsav", ".vlog"), ids=ids(corpus_files(".vsav", ".vlog")))
def test_the_pieces_table_of_corpus_saves_fits_80_columns(path: Path) -> None:
    code, out, _ = run("pieces", str(path), "--properties", env={"COLUMNS": "80"})
    if code == 2:  # a file the corpus holds to be refused
        return
    assert code == 0
    assert max(len(line) for line in out.splitlines()) <= 80
    data = json.loads(run("pieces", str(path), "--format", "json")[1])
    # no piece lost to the wrapping: each piece's id opens a line of the table
    starts = {line.split()[0] for line in out.splitlines() if line and not line.startswith(" ")}
    assert {p["id"] for p in data["pieces"]} <= starts
