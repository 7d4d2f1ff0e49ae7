"""A generated tournament for the batch tests: the Kasserine example's files in game folders,
with a broken file and a foreign (Tunisia 1943) save among them, and saves re-dated."""

from __future__ import annotations

import re
import shutil
import zipfile
from pathlib import Path

from conftest import REPO

EXAMPLE = REPO / "modules" / "kasserine" / "example"
MODULE = EXAMPLE / "Kasserine.vmod"
FOREIGN = REPO / "modules" / "tunisia-1943" / "example" / "campaign-1.vsav"


def redated(src: Path, dst: Path, ms: int) -> Path:
    """A copy of save `src` whose savedata says VASSAL wrote it at `ms`."""
    with zipfile.ZipFile(src) as zin, zipfile.ZipFile(dst, "w") as zout:
        for info in zin.infolist():
            data = zin.read(info)
            if info.filename == "savedata":
                data = re.sub(rb"<dateSaved>\d+</dateSaved>", b"<dateSaved>%d</dateSaved>" % ms, data)
            zout.writestr(info, data)
    return dst


def tournament(root: Path) -> Path:
    """clean/ (a set-up then a log, dated an hour apart), broken/ (a log cut short),
    foreign/ (a Tunisia save among Kasserine files)."""
    for name in ("clean", "broken", "foreign"):
        (root / name).mkdir(parents=True)
    hour = 3_600_000
    redated(EXAMPLE / "setup.vsav", root / "clean" / "b-setup.vsav", 10 * hour)
    redated(EXAMPLE / "turn4-axis.vlog", root / "clean" / "a-turn4.vlog", 11 * hour)  # named first, dated after
    shutil.copy(EXAMPLE / "setup.vsav", root / "broken" / "setup.vsav")
    (root / "broken" / "turn4.vlog").write_bytes((EXAMPLE / "turn4-axis.vlog").read_bytes()[:900])
    shutil.copy(EXAMPLE / "setup.vsav", root / "foreign" / "setup.vsav")
    shutil.copy(FOREIGN, root / "foreign" / "other.vsav")
    shutil.copy(EXAMPLE / "turn4-axis.vlog", root / "foreign" / "turn4.vlog")
    return root
