"""`vassal-adj packs list --impls`: every rule implementation a pack can name, with its parameters
(issue 12, "Done when": `packs list --impls` lists every implementation with its parameters)."""

from __future__ import annotations

import json
import sys
import textwrap
from pathlib import Path

from click.testing import CliRunner

from vassal_adj import cli
from vassal_adj.report.describe import SCHEMA_VERSION
from vassal_adj.rules import registry as reg


def run(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(cli.main, ["packs", "list", "--impls", *args])
    return result.exit_code, result.stdout, result.stderr


def blocks(text: str) -> dict[str, list[str]]:
    """The text listing as implementation name -> the lines of its block."""
    out = {}
    for block in text.strip().split("\n\n"):
        lines = block.splitlines()
        out[lines[0].split(" ")[0]] = lines
    return out


def hooked_pack(root: Path) -> Path:
    """A pack in `root` whose hooks.py registers `test_listed.special` (a long default and description,
    a required parameter) and `test_listed.bare` (no docstring, no parameters)."""
    d = root / "hooked"
    d.mkdir()
    (d / "pack.toml").write_text(
        '[pack]\nid = "hooked"\nname = "Hooked"\nhooks = "hooks.py"\n[pack.module]\nname = ".*"\n', encoding="utf-8"
    )
    (d / "hooks.py").write_text(
        textwrap.dedent('''\
        from vassal_adj.rules.registry import Param, register

        @register("test_listed.special", params={
            "die": Param(6, doc="the die rolled " + "and rolled again " * 8),
            "marker": Param("x" * 120, doc="a marker name longer than a line"),
            "table": Param(type="table", doc="required: no default"),
        })
        def special(state, p):
            """A game-specific rule.

            Only the first line is listed."""


        @register("test_listed.bare")
        def bare(state, p):
            pass
        '''),
        encoding="utf-8",
    )
    return d


def forget_hooks() -> None:
    for name in ("test_listed.special", "test_listed.bare"):
        reg.REGISTRY._impls.pop(name, None)
    sys.modules.pop("vassal_adj_pack_hooks.hooked.hooks", None)


def test_text_lists_every_registered_implementation_with_every_parameter() -> None:
    code, out, _ = run()
    assert code == 0
    listed = blocks(out)
    catalog = reg.load_builtin_rules().catalog()
    assert list(listed) == [impl.name for impl in catalog]
    for impl in catalog:
        lines = listed[impl.name]
        assert lines[0].endswith("(log rule: judges each segment of a log)") == impl.log
        assert f"  module: {impl.func.__module__}" in lines
        params = [line[4:].split(" (")[0] for line in lines if line.startswith("  - ")]
        assert params == list(impl.params), impl.name
        for key, p in impl.params.items():
            line = next(li for li in lines if li.startswith(f"  - {key} ("))
            assert line.startswith(f"  - {key} ({impl.types[key]}, " + ("required" if p.required else "default "))


def test_json_round_trip_holds_every_field() -> None:
    code, out, _ = run("--format", "json")
    assert code == 0
    data = json.loads(out)
    assert data["schema_version"] == SCHEMA_VERSION
    catalog = reg.load_builtin_rules().catalog()
    assert [i["name"] for i in data["implementations"]] == [impl.name for impl in catalog]
    for listed, impl in zip(data["implementations"], catalog, strict=True):
        assert (listed["doc"], listed["module"], listed["log"]) == (impl.doc, impl.func.__module__, impl.log)
        assert sorted(listed["params"]) == sorted(impl.params)  # JSON is written with its keys sorted
        for key, p in impl.params.items():
            got = listed["params"][key]
            assert (got["type"], got["required"], got["doc"]) == (impl.types[key], p.required, p.doc)
            # the frozen tables and tuples of the registry come back as JSON's objects and arrays
            assert got["default"] == ("REQUIRED" if p.required else _thaw(p.default))
            assert (got.get("keys", ""), got.get("names", "")) == (p.keys, p.names)


def _thaw(value: object) -> object:
    """A registry default as JSON reads it back: tuples as lists, read-only tables as dicts."""
    if isinstance(value, tuple):
        return [_thaw(v) for v in value]
    if hasattr(value, "items"):
        return {k: _thaw(v) for k, v in value.items()}
    return value


def test_a_packs_hooks_implementation_is_listed_with_pack(tmp_path: Path) -> None:
    d = hooked_pack(tmp_path)
    try:
        assert "test_listed.special" not in blocks(run()[1])
        code, out, _ = run("--pack", str(d))
        assert code == 0
        lines = blocks(out)["test_listed.special"]
        assert lines[1] == "  A game-specific rule." and "  module: vassal_adj_pack_hooks.hooked.hooks" in lines
        assert any(li.startswith("  - die (int, default 6): the die rolled and rolled") for li in lines)
        assert any(li.startswith("  - table (table, required): required: no default") for li in lines)
        assert blocks(out)["test_listed.bare"][1:] == [
            "  (no description)",
            "  module: vassal_adj_pack_hooks.hooked.hooks",
            "  no parameters",
        ]
        data = json.loads(run("--pack", "hooked", "--modules-dir", str(tmp_path), "--format", "json")[1])
        special = next(i for i in data["implementations"] if i["name"] == "test_listed.special")
        assert special["params"]["marker"] == {
            "type": "str",
            "default": "x" * 120,
            "required": False,
            "doc": "a marker name longer than a line",
        }
        assert special["params"]["table"]["required"] is True and special["log"] is False
    finally:
        forget_hooks()


def test_the_text_fits_an_80_column_terminal(tmp_path: Path) -> None:
    d = hooked_pack(tmp_path)
    try:
        out = run("--pack", str(d))[1]
    finally:
        forget_hooks()
    assert "x" * 60 in out  # the long default is there, broken over lines
    too_wide = [line for line in out.splitlines() if len(line) > 80]
    assert not too_wide


def test_pack_without_impls_is_a_usage_error() -> None:
    result = CliRunner().invoke(cli.main, ["packs", "list", "--pack", "kasserine"])
    assert result.exit_code == 2 and "--pack is used with --impls" in result.stderr


def test_an_unknown_pack_is_a_usage_error(tmp_path: Path) -> None:
    code, _, err = run("--pack", "nosuch", "--modules-dir", str(tmp_path))
    assert code == 2 and "unknown pack 'nosuch'" in err
