"""What the example test files share (test_example.py, test_tunisia_example.py, test_kw_example.py):
the regenerate-and-compare of an example directory, and an `Example` that runs the CLI on its
files as the pack's README writes the commands, reads their findings as JSON, their pieces, their
golden reports, and VASSAL's own reading of them (the oracle)."""

from __future__ import annotations

import io
import json
import os
import tomllib
import zipfile
from pathlib import Path

from click.testing import CliRunner
from conftest import REPO
from PIL import Image, ImageChops
from test_vassal_accepts import oracle_pieces

import vassal_adj
from vassal_adj.cli import main
from vassal_adj.parse.builder import game_pieces
from vassal_adj.pbem.replay import replay


def pixels_differ(a: bytes, b: bytes) -> float:
    """Share of pixels that differ: PNG bytes depend on the zlib build, pixels must not."""
    ia, ib = Image.open(io.BytesIO(a)).convert("RGB"), Image.open(io.BytesIO(b)).convert("RGB")
    assert ia.size == ib.size
    diff = ImageChops.difference(ia, ib).convert("L").point(lambda v: 255 if v else 0)
    return sum(diff.histogram()[255:]) / (ia.size[0] * ia.size[1])


def assert_zips_match(committed: Path, fresh: Path, files: tuple[str, ...], script: str) -> None:
    """Each archive of `files` in `committed` holds the entries the generator `script` wrote in
    `fresh`, byte for byte; images pixel for pixel (drawing primitives may move an edge pixel
    between Pillow releases)."""
    for name in files:
        was, made = zipfile.ZipFile(committed / name), zipfile.ZipFile(fresh / name)
        assert was.namelist() == made.namelist(), name
        for entry in was.namelist():
            a, b = was.read(entry), made.read(entry)
            if entry.endswith(".png"):
                assert pixels_differ(a, b) < 0.001, entry
            else:
                assert a == b, f"{name}!{entry} differs: run scripts/{script}"


def assert_same_bytes(a: Path, b: Path, files: tuple[str, ...]) -> None:
    for name in files:
        assert (a / name).read_bytes() == (b / name).read_bytes(), name


def run_cli(args: list[str]) -> tuple[int, str]:
    """`vassal-adj ARGS` from the repository root (relative paths, as the READMEs write them)."""
    old = Path.cwd()
    os.chdir(REPO)
    try:
        result = CliRunner().invoke(main, args)
    finally:
        os.chdir(old)
    assert result.exception is None or isinstance(result.exception, SystemExit), result.output
    return result.exit_code, result.output


class Example:
    """The example directory of pack `modules/<pack>/`, its module `module_file`."""

    def __init__(self, pack: str, module_file: str) -> None:
        self.pack = REPO / "modules" / pack
        self.dir = self.pack / "example"
        self.module = self.dir / module_file
        self._rel = f"modules/{pack}/example"
        self.module_file = module_file

    def rel(self, name: str) -> str:
        return f"{self._rel}/{name}"

    def pack_toml(self) -> dict:
        with (self.pack / "pack.toml").open("rb") as f:
            return tomllib.load(f)

    def on(self, command: str, *files: str, fmt: str | None = None) -> tuple[int, str]:
        """`vassal-adj COMMAND FILES --module <the example module> [--format FMT]`."""
        args = [command, *map(self.rel, files), "--module", self.rel(self.module_file)]
        return run_cli(args if fmt is None else [*args, "--format", fmt])

    def findings(self, command: str, name: str) -> list[dict]:
        code, out = self.on(command, name, fmt="json")
        assert code in (0, 1), out
        return json.loads(out)["findings"]

    def errors(self, command: str, name: str) -> list[dict]:
        return [f for f in self.findings(command, name) if f["severity"] in ("error", "warning")]

    def opening(self, name: str) -> list:
        """The pieces of a save, or of a log's opening position."""
        module = vassal_adj.load_module(self.module)
        game = vassal_adj.load_save(self.dir / name)
        return replay(game.root, module).opening if game.is_log else game_pieces(game.root, module)

    def pieces(self, name: str) -> dict[str, tuple[str, str]]:
        return {p.name: (p.map, p.location) for p in self.opening(name)}

    def check_matches_golden(self, save: str, fmt: str, golden_dir: Path) -> int:
        """`check` on `save` prints the golden report (rewritten when UPDATE_GOLDEN=1); its exit code."""
        code, out = self.on("check", save, fmt=fmt)
        golden = golden_dir / f"{Path(save).stem}.{'txt' if fmt == 'text' else 'json'}"
        if os.environ.get("UPDATE_GOLDEN") == "1":
            golden.parent.mkdir(parents=True, exist_ok=True)
            golden.write_text(out, encoding="utf-8")
        assert out == golden.read_text(encoding="utf-8"), f"{golden.name} differs: see the module doc"
        return code

    def vassal_agrees(self, name: str) -> int:
        """VASSAL (the oracle) opens `name` with every piece where we read it; the number of pieces."""
        result = oracle_pieces(self.module, self.dir / name)
        vassal = {p["id"]: (p["name"], p["map"], p["x"], p["y"], p["location"]) for p in result["result"]["pieces"]}
        ours = {p.id: (p.name, p.map, p.x, p.y, p.location) for p in self.opening(name)}
        assert vassal == ours
        return len(ours)

    def readme_codes(self, end: str) -> list[int]:
        """The exit codes of the `vassal-adj ...` lines of the README's "## Example" section, up to
        the heading `end`."""
        readme = (self.pack / "README.md").read_text(encoding="utf-8")
        section = readme[readme.index("## Example") : readme.index(end)]
        commands = [line.split()[1:] for line in section.splitlines() if line.startswith("vassal-adj ")]
        return [run_cli(args)[0] for args in commands]
