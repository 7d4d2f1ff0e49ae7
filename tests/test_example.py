"""The example in modules/kasserine/example/ is what scripts/make_example.py writes."""

from __future__ import annotations

import importlib.util
import io
import zipfile
from pathlib import Path

from PIL import Image, ImageChops

from conftest import REPO

EXAMPLE = REPO / "modules" / "kasserine" / "example"


def _generate(out: Path) -> None:
    spec = importlib.util.spec_from_file_location("make_example", REPO / "scripts" / "make_example.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    module.main(out)


def _pixels_differ(a: bytes, b: bytes) -> float:
    """Share of pixels that differ: PNG bytes depend on the zlib build, pixels must not."""
    ia, ib = Image.open(io.BytesIO(a)).convert("RGB"), Image.open(io.BytesIO(b)).convert("RGB")
    assert ia.size == ib.size
    diff = ImageChops.difference(ia, ib).convert("L").point(lambda v: 255 if v else 0)
    return sum(diff.histogram()[255:]) / (ia.size[0] * ia.size[1])


def test_committed_example_is_what_the_script_writes(tmp_path: Path) -> None:
    _generate(tmp_path)
    for name in ("Kasserine.vmod", "setup.vsav"):
        committed, fresh = zipfile.ZipFile(EXAMPLE / name), zipfile.ZipFile(tmp_path / name)
        assert committed.namelist() == fresh.namelist(), name
        for entry in committed.namelist():
            a, b = committed.read(entry), fresh.read(entry)
            if entry.endswith(".png"):
                # Drawing primitives may move an edge pixel between Pillow releases.
                assert _pixels_differ(a, b) < 0.001, entry
            else:
                assert a == b, f"{name}!{entry} differs: run scripts/make_example.py"


def test_generation_is_deterministic(tmp_path: Path) -> None:
    _generate(tmp_path / "a")
    _generate(tmp_path / "b")
    for name in ("Kasserine.vmod", "setup.vsav"):
        assert (tmp_path / "a" / name).read_bytes() == (tmp_path / "b" / name).read_bytes()
