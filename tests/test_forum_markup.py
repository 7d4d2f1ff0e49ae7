"""Forum-ready output: free text from a file made safe per format (report/markup.py), and
`verify --format bbcode` built from what BoardGameGeek renders."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from click.testing import CliRunner
from conftest import CORPUS
from test_cli_verify import write
from test_replay import OPENING, game, log, move

from vassal_adj.cli import main
from vassal_adj.load import load_save
from vassal_adj.report.markup import bb, md, plain

REPO = Path(__file__).resolve().parent.parent
EXAMPLE = REPO / "modules" / "kasserine" / "example"
MODULE = str(EXAMPLE / "Kasserine.vmod")
REPORT_HTML = '<b>Scout</b> fires: <img src="die3.png" alt="3"> <span style=\'color:red\'>hit</span>'


def run(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(main, ["verify", *args])
    return result.exit_code, result.output


def test_vassal_html_is_reduced_to_its_text_and_a_players_name_in_brackets_stays() -> None:
    assert plain(REPORT_HTML) == "Scout fires: 3 hit"
    assert plain("&lt;Erwin&gt; attacks<br>2514") == "<Erwin> attacks 2514"
    assert plain("<Erwin> [b]x[/b]") == "<Erwin> [b]x[/b]"  # not HTML elements: the player's words


def test_markdown_escapes_what_github_and_discourse_would_read_as_markup() -> None:
    assert md("<Erwin> [b]x[/b] *all* a|b") == r"\<Erwin> \[b\]x\[/b\] \*all\* a\|b"
    assert md(REPORT_HTML) == "Scout fires: 3 hit"


def test_bbcode_neutralises_every_bracket_and_angle_from_a_file() -> None:
    assert bb("<Erwin> [b]x[/b]") == "\u2039Erwin> (b)x(/b)"
    assert bb(REPORT_HTML) == "Scout fires: 3 hit"


def _chat_log(tmp_path: Path) -> str:
    chat = "CHAT&lt;Erwin&gt; [b]x[/b] &lt;Erwin&gt; says <b>hold</b> <span style='color:red'>2514</span>"
    return write(tmp_path, "chat.vlog", game(OPENING, log(move("3", (350, 300), (300, 300))), log(chat)))


def test_chat_in_every_text_format(tmp_path: Path) -> None:
    path = _chat_log(tmp_path)
    text = run(path)[1]
    assert "chat     <Erwin> [b]x[/b] <Erwin> says hold 2514" in text
    markdown = run(path, "--format", "markdown")[1]
    assert r"- chat     \<Erwin> \[b\]x\[/b\] \<Erwin> says hold 2514" in markdown
    bbcode = run(path, "--format", "bbcode")[1]
    assert "chat     \u2039Erwin> (b)x(/b) \u2039Erwin> says hold 2514" in bbcode
    for out in (text, markdown, bbcode):
        assert "<b>" not in out and "<span" not in out


def test_bbcode_structure_on_the_example() -> None:
    code, out = run(str(EXAMPLE / "turn4-axis.vlog"), "--module", MODULE, "--format", "bbcode")
    assert code == 1
    lines = out.splitlines()
    assert not any(line.lstrip().startswith("|") for line in lines)  # BGG has no tables
    assert lines[0] == "[b]verify (module 'Kasserine'), pack 'kasserine'[/b]"
    assert "[b]findings: 13 (4 error(s), 3 warning(s), 6 info)[/b]" in lines
    # The move list fixed-width, the long part in a spoiler, and no tag but those BGG knows.
    c, o = lines.index("[c]"), lines.index("[o]")
    assert lines[c - 1].startswith("[b]units moved: ") and c < lines.index("[/c]") < o < lines.index("[/o]")
    assert (
        "Axis 6-5-10 (501): 2613 -> 2513: NOT legal (kasserine:19.2); path: cheapest between drops"
        in lines[c + 1 : lines.index("[/c]")]
    )
    assert {m.group(1) for m in re.finditer(r"\[/?(\w+)", out)} == {"b", "i", "c", "o"}
    assert not re.search(r"<[A-Za-z]", out)  # BGG drops everything after one


LOGS = sorted(CORPUS.rglob("*.vlog")) if CORPUS.is_dir() else []


@pytest.mark.parametrize("path", LOGS, ids=[p.name for p in LOGS])
@pytest.mark.parametrize("fmt", ["markdown", "bbcode"])
def test_no_password_in_a_post_even_escaped(path: Path, fmt: str) -> None:
    # The password is masked before escaping: escaped, it would no longer match the mask's pattern.
    modules = sorted(path.parent.glob("*.vmod"))
    code, out = run(str(path), "--format", fmt, *(["--module", str(modules[0])] if modules else []))
    assert code == 0, out[-2000:]
    for secret in load_save(path).secrets():
        assert secret not in out and md(secret) not in out and bb(secret) not in out
