"""The pool of a batch (issue 16): games judged by `--jobs` worker processes, each started
with the module and pack loaded once (worker.start), in the order found; finished games are
kept (state.py) and not redone; a bar on standard error says how far it is (cli/output.py's
`working`, only on a terminal). With one job the games run in this process: no process to start.
"""

from __future__ import annotations

import multiprocessing
import os
from collections.abc import Callable
from functools import partial
from typing import Any

from vassal_adj.batch.discovery import Game
from vassal_adj.batch.state import State
from vassal_adj.batch.worker import judge, start

__all__ = ["run_batch"]


def _bar(done: int, total: int, width: int = 30) -> str:
    filled = width * done // max(total, 1)
    return f"batch [{'#' * filled}{'.' * (width - filled)}] {done}/{total} games"


def run_batch(
    games: list[Game],
    out_dir: str,
    module_path: str,
    pack: str | None,
    jobs: int,
    run: dict[str, Any],
    say: Callable[[str], None] = lambda _: None,
) -> list[dict[str, Any]]:
    """Every game's summary row, in the order of `games` (those finished before from the state file)."""
    state = State(out_dir, run)
    todo = [g for g in games if g.name not in state.done]
    done = len(games) - len(todo)
    say(_bar(done, len(games)))
    try:
        if todo and jobs <= 1:
            start(module_path, pack)
            for g in todo:
                state.finish(judge(g, out_dir))
                done += 1
                say(_bar(done, len(games)))
        elif todo:
            # spawn, not fork: a worker must not inherit a parent's threads (the progress ticker)
            ctx = multiprocessing.get_context("spawn" if os.name == "nt" else "forkserver")
            with ctx.Pool(min(jobs, len(todo)), initializer=start, initargs=(module_path, pack)) as pool:
                for row in pool.imap_unordered(partial(judge, out_dir=out_dir), todo):
                    state.finish(row)
                    done += 1
                    say(_bar(done, len(games)))
    finally:
        state.close()
    return [state.done[g.name] for g in games]
