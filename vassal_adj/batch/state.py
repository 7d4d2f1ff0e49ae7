"""What a batch has finished, so that an interrupted one resumes (issue 16).

``batch-state.jsonl`` in the output folder: a first line naming the run (folder, module, pack,
the games and their files), then one line per finished game, its summary row, appended and
flushed as each game ends. A batch started again with the same run reads the rows back and
judges only the games without one; a row cut short by the interruption (no newline) is ignored.
Another run (other files, module or pack) in the same folder starts afresh.
"""

from __future__ import annotations

import json
import os
from typing import Any

__all__ = ["STATE", "State"]

STATE = "batch-state.jsonl"


class State:
    def __init__(self, out_dir: str, run: dict[str, Any]) -> None:
        self.path = os.path.join(out_dir, STATE)
        self.done: dict[str, dict[str, Any]] = {}
        lines = []
        if os.path.exists(self.path):
            with open(self.path, encoding="utf-8") as f:
                lines = [line for line in f.read().split("\n")[:-1] if line]  # the last, unended, is cut
        if lines and json.loads(lines[0]) == run:
            for line in lines[1:]:
                row = json.loads(line)
                self.done[row["game"]] = row
            self._file = open(self.path, "a", encoding="utf-8")  # noqa: SIM115 - kept open for the run
        else:
            self._file = open(self.path, "w", encoding="utf-8")  # noqa: SIM115
            self._write(run)

    def _write(self, data: dict[str, Any]) -> None:
        self._file.write(json.dumps(data, sort_keys=True, ensure_ascii=False) + "\n")
        self._file.flush()

    def finish(self, row: dict[str, Any]) -> None:
        self.done[row["game"]] = row
        self._write(row)

    def close(self) -> None:
        self._file.close()
