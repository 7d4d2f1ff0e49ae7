"""scripts/fuzz.py, the long campaign (issue 17): it counts cases, writes one reproducer (the
input and a one-line note) per new failure, and exits 1 when it found any."""

from __future__ import annotations

import random
import sys
from pathlib import Path

import pytest
from conftest import REPO

sys.path.insert(0, str(REPO / "scripts"))
import fuzz  # noqa: E402
from fuzz_readers import Reader  # noqa: E402


def test_campaign_runs_a_reader_and_reports(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert fuzz.main(["--minutes", "0.005", "--reader", "terrain", "--out", str(tmp_path)]) == 0
    out = capsys.readouterr().out
    assert "terrain: " in out and " 0 failures (0 new), slowest ratio " in out
    assert int(out.split("terrain: ")[1].split(" cases")[0]) > 0
    assert list(tmp_path.iterdir()) == []


def _breaks(seed: str, value: object) -> None:
    if b"!" in value:  # type: ignore[operator]
        raise ValueError("an internal error")


def test_each_new_failure_gets_a_reproducer(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    def mutate(rng: random.Random, value: object) -> bytes:
        return b"ok!" if rng.random() < 0.5 else b"ok"

    monkeypatch.setitem(fuzz.READERS, "broken", Reader("broken", lambda small: [("s", b"ok")], mutate, _breaks))
    assert fuzz.main(["--minutes", "0.002", "--reader", "broken", "--out", str(tmp_path)]) == 1
    [data] = tmp_path.glob("*.bin")  # the same failure again and again: one reproducer
    assert data.read_bytes() == b"ok!"
    note = data.with_suffix(".txt").read_text(encoding="utf-8")
    assert (
        note.startswith("reader broken, seed file s, --seed 1 case ") and "ValueError at test_fuzz_campaign.py" in note
    )
