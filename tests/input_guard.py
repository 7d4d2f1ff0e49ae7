"""Inputs are never modified (issue 17, "Writes"): every command a test runs through CliRunner has
the files it names hashed before and after, and a change fails the test. The fixture is autouse
and conftest.py imports it, so every CLI test of the suite is checked."""

from __future__ import annotations

import hashlib
import os
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

__all__ = ["inputs_unchanged", "named_files"]


_OUTPUTS = ("-o", "--output")  # what follows names an output (a report, batch's folder), not an input


def named_files(args: str | Sequence[str] | None) -> list[Path]:
    """The existing files an argument list names, also as '--opt=FILE' and inside a named folder
    (a pack or packs directory), but not the output `-o` names (batch's folder keeps its state
    there to resume); a killed write's temp file ('.partial') is the writer's, not an input."""
    words = args.split() if isinstance(args, str) else list(args or ())
    out: list[Path] = []
    for previous, word in zip(["", *map(str, words)], map(str, words), strict=False):
        if previous in _OUTPUTS or word.partition("=")[0] in _OUTPUTS:
            continue
        for candidate in (word, word.partition("=")[2]):
            if not candidate or not os.path.exists(candidate):
                continue
            path = Path(candidate)
            found = [path] if path.is_file() else [p for p in path.rglob("*") if p.is_file()] if path.is_dir() else []
            out += [p for p in found if not p.name.endswith(".partial")]
    return out


def _digest(path: Path) -> str | None:
    try:
        return hashlib.sha256(path.read_bytes()).hexdigest()
    except OSError:
        return None  # gone or unreadable: compared as such


@pytest.fixture(autouse=True)
def inputs_unchanged(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """CliRunner.invoke fails the test when the command changes or removes a file it was given."""
    real = CliRunner.invoke

    def invoke(self: CliRunner, cli: Any, args: Any = None, *more: Any, **kw: Any) -> Any:
        before = {p: _digest(p) for p in named_files(args)}
        result = real(self, cli, args, *more, **kw)
        changed = sorted(str(p) for p, h in before.items() if _digest(p) != h)
        assert not changed, f"the command changed its input(s) {changed}: inputs are never modified"
        return result

    monkeypatch.setattr(CliRunner, "invoke", invoke)
    yield
