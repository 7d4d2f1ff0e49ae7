"""The built wheel works from any directory (issue 10, "Runs where users are").

Once per session: copy the source tree, build the wheel with `pip wheel`, install it (without
its dependencies) into a fresh venv, and run its `vassal-adj` from an empty directory. The
venv reads the dependencies (lxml, click, ...) from this interpreter's site-packages through a
.pth file, so the test needs no network; vassal_adj itself, packs included, comes only from the
wheel (checked).
"""

from __future__ import annotations

import shutil
import site
import subprocess
import sys
import venv
import zipfile
from pathlib import Path

import pytest
from conftest import REPO

EXAMPLE = REPO / "modules" / "kasserine" / "example"
_NOT_SOURCE = shutil.ignore_patterns(
    ".git", "build", "dist", "*.egg-info", "__pycache__", ".venv", ".pytest_cache", ".hypothesis", ".ruff_cache"
)


class Installed:
    def __init__(self, wheel: Path, env: Path, cwd: Path) -> None:
        self.wheel, self.env, self.cwd = wheel, env, cwd
        bindir = env / ("Scripts" if sys.platform == "win32" else "bin")
        self.python = bindir / ("python.exe" if sys.platform == "win32" else "python")
        self.script = bindir / ("vassal-adj.exe" if sys.platform == "win32" else "vassal-adj")

    def run(self, *args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [str(self.script), *args],
            cwd=self.cwd,
            capture_output=True,
            text=True,
            encoding="utf-8",
            timeout=120,
            check=False,
        )


def _pip(*args: str) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "pip", "--disable-pip-version-check", *args],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert done.returncode == 0, done.stdout + done.stderr


@pytest.fixture(scope="session")
def installed(tmp_path_factory: pytest.TempPathFactory) -> Installed:
    tmp = tmp_path_factory.mktemp("wheel")
    source = tmp / "source"  # a copy: building writes build/ and *.egg-info into the tree
    shutil.copytree(REPO, source, ignore=_NOT_SOURCE)
    _pip("wheel", "--no-deps", "--quiet", "-w", str(tmp / "dist"), str(source))
    (wheel,) = (tmp / "dist").glob("vassal_adj-*.whl")
    env = tmp / "venv"
    venv.create(env, with_pip=False)
    python = str(Installed(wheel, env, tmp).python)
    done = subprocess.run(
        [python, "-c", "import sysconfig; print(sysconfig.get_path('purelib'))"],
        capture_output=True,
        text=True,
        check=True,
    )
    here = [p for p in [*site.getsitepackages(), site.getusersitepackages()] if Path(p).is_dir()]
    pth = Path(done.stdout.strip()) / "deps-of-the-test-interpreter.pth"
    pth.write_text("\n".join(here) + "\n", encoding="utf-8")
    # --ignore-installed: the .pth above may show an installed vassal-adj (a non-editable install, as
    # in CI); the wheel must still be installed in the venv, whose own site-packages come first.
    _pip("--python", python, "install", "--no-deps", "--no-index", "--ignore-installed", "--quiet", str(wheel))
    cwd = tmp / "elsewhere"
    cwd.mkdir()
    return Installed(wheel, env, cwd)


def test_the_wheel_carries_the_packs_but_not_the_example_files(installed: Installed) -> None:
    names = zipfile.ZipFile(installed.wheel).namelist()
    for f in ("pack.toml", "units.toml", "terrain.csv", "palette.toml", "README.md"):
        assert f"vassal_adj/packs_data/kasserine/{f}" in names
    assert "vassal_adj/packs_data/_template/pack.toml" in names
    assert not [n for n in names if "/example/" in n or n.endswith((".vmod", ".vsav", ".vlog"))]


def test_the_installed_package_is_the_wheel_not_the_checkout(installed: Installed) -> None:
    done = subprocess.run(
        [str(installed.python), "-c", "import vassal_adj; print(vassal_adj.__file__)"],
        cwd=installed.cwd,
        capture_output=True,
        text=True,
        check=True,
    )
    assert Path(done.stdout.strip()).is_relative_to(installed.env)


def test_check_runs_from_another_directory_with_the_shipped_pack(installed: Installed) -> None:
    """The README's command, with absolute paths, from a directory with no modules/: the pack
    that fits the module is found inside the wheel, and the example's faults are reported."""
    done = installed.run("check", str(EXAMPLE / "turn3-faults.vsav"), "--module", str(EXAMPLE / "Kasserine.vmod"))
    assert done.returncode == 1, done.stderr
    assert "with pack 'kasserine'" in done.stdout
    faults = [line for line in done.stdout.splitlines() if line.startswith(("  error", "  warning"))]
    assert any("2615" in f and "stacking" in f for f in faults), faults  # two Axis units stacked (no stacking)
    assert any("16.11" in f and "rough hex 2309" in f for f in faults), faults  # a panzer unit in rough (16.11)
    assert any("17.11" in f and "3308 is out of supply" in f for f in faults), faults  # out of supply (17.11)


def test_packs_list_shows_the_shipped_pack(installed: Installed) -> None:
    done = installed.run("packs", "list")
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("kasserine: Kasserine") and "(shipped with vassal-adj)" in done.stdout


def test_version(installed: Installed) -> None:
    done = installed.run("--version")
    assert (done.returncode, done.stdout.strip()) == (0, f"vassal-adj {__import__('vassal_adj').__version__}")
