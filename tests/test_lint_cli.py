"""`vassal-adj lint`: every --format, the exit statuses (0 clean, 1 errors, 2 bad input), -o."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner
from lint_modules import build_file, png, prototype, slot, write_module

from vassal_adj import cli

UNIT = prototype("Unit", "mark;Side\tpiece;;;;")


def run(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(cli.main, list(args))
    return result.exit_code, result.stdout, result.stderr


@pytest.fixture
def broken(tmp_path: Path) -> Path:
    """A module whose piece names a prototype that was renamed ('Unit' -> 'Units')."""
    xml = build_file(
        slots=slot("Tank <1>", "1", "prototype;Unit\tpiece;;;t.png;Tank <1>"),
        prototypes=UNIT.replace('"Unit"', '"Units"'),
    )
    return write_module(tmp_path / "broken.vmod", xml, {"images/t.png": png(4, 4)})


def test_a_clean_module_exits_0(tmp_path: Path) -> None:
    clean = write_module(tmp_path / "ok.vmod", build_file())
    code, out, _ = run("lint", str(clean))
    assert code == 0 and "0 error(s), 0 warning(s), 0 info" in out


def test_errors_exit_1_with_where_why_and_fix_in_text(broken: Path) -> None:
    code, out, _ = run("lint", str(broken))
    assert code == 1
    assert "error   prototypes.undefined: prototype 'Unit' is used 1 time(s)" in out
    assert "  where: buildFile.xml line 2: PieceSlot 'Tank <1>' (id 1)" in out
    assert "  fix:   rename the references to 'Units'" in out


@pytest.mark.parametrize(
    ("fmt", "needle"),
    [
        ("markdown", "| error | prototypes.undefined |"),
        ("bbcode", "[b]error[/b] prototypes.undefined:"),
        ("html", "<td>prototypes.undefined</td>"),
    ],
)
def test_every_format_shows_the_finding(broken: Path, fmt: str, needle: str) -> None:
    code, out, _ = run("lint", str(broken), "--format", fmt)
    assert code == 1 and needle in out
    if fmt == "html":
        assert "Tank &lt;1&gt;" in out and "Tank <1>" not in out


def test_json_has_schema_version_counts_and_findings(broken: Path) -> None:
    code, out, _ = run("lint", str(broken), "--format", "json")
    data = json.loads(out)
    assert code == 1 and data["schema_version"] and data["counts"]["error"] == 1
    (f,) = [f for f in data["findings"] if f["severity"] == "error"]
    assert set(f) == {"check", "severity", "where", "message", "fix"}


def test_output_to_a_file(broken: Path, tmp_path: Path) -> None:
    code, out, _ = run("lint", str(broken), "-o", str(tmp_path / "r.md"), "--format", "markdown")
    assert code == 1 and out == "" and "prototypes.undefined" in (tmp_path / "r.md").read_text(encoding="utf-8")


def test_bad_input_exits_2_naming_the_file(tmp_path: Path) -> None:
    bad = tmp_path / "bad.vmod"
    bad.write_bytes(b"PK\x03\x04 truncated")
    code, _, err = run("lint", str(bad))
    assert code == 2 and "bad.vmod" in err


def test_a_save_given_as_the_module_exits_2(tmp_path: Path) -> None:
    from lint_modules import save_bytes

    save = tmp_path / "s.vsav"
    save.write_bytes(save_bytes([]))
    code, _, err = run("lint", str(save))
    assert code == 2 and "not a module" in err


def test_lint_is_listed_under_authoring_in_help() -> None:
    code, out, _ = run("--help")
    authoring = out.split("Authoring:")[1]
    assert code == 0 and "lint" in authoring.split("\n\n")[0]
