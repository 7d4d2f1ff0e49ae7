"""One game of a batch, in a worker process (issue 16).

`start` (the pool's initializer) loads the module and the pack once per process: the module
from the per-user cache (module_cache.py), kept in memory here so every game reuses it, and the
pack found once. `judge` then runs, in this process, what a referee would type for the game:
``verify`` over its files in order (JSON for the summary, Markdown for the game's own report),
``check`` on the last file and ``vp`` over them all. A file that is not a readable save or log,
or a save of another module, is a finding of the game (``batch:unreadable``, ``batch:foreign``,
errors) and is left out of the commands; a command that fails on the rest is a finding too
(``batch:not-judged``): never the end of the batch.
"""

from __future__ import annotations

import contextlib
import io
import json
import os
from collections import Counter
from pathlib import Path
from typing import Any

from vassal_adj.batch.discovery import Game, saved_date
from vassal_adj.batch.evidence import chain, fingerprint, gaps

__all__ = ["judge", "report_name", "start"]

_SETUP: dict[str, Any] = {}


def start(module_path: str, pack: str | None) -> None:
    """The pool's initializer: the module and pack, loaded once for all this process's games."""
    from vassal_adj import packs
    from vassal_adj.cli import main
    from vassal_adj.dataclass_code import install
    from vassal_adj.load import load_module

    install()
    module = load_module(module_path)
    lp = packs.pack_for(pack, module.name, module.version)
    for name in ("verify", "check", "vp"):  # imported now, not within the first game
        main.get_command(None, name)  # type: ignore[arg-type]
    _SETUP.update(module_path=module_path, module=module, pack=pack or str(lp.directory), main=main)


def _run(args: list[str]) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = _SETUP["main"].main(args, prog_name="vassal-adj", standalone_mode=False)
    return code or 0, out.getvalue(), err.getvalue()


def report_name(game: Game) -> str:
    """The game's own report, relative to the batch's output folder."""
    safe = "".join(c if c.isalnum() or c in "-_." else "_" for c in game.name)
    return f"games/{safe}.md"


def _finding(rule: str, message: str, severity: str = "error") -> dict[str, Any]:
    return {"rule": rule, "severity": severity, "message": message}


def _readable(path: str) -> dict[str, Any] | bool:
    """Whether a save or log of the batch's module is a log, else the finding that leaves it out."""
    from vassal_adj.errors import VassalAdjError
    from vassal_adj.load import _bare_name, load_save

    try:
        game = load_save(path)
    except VassalAdjError as e:
        return _finding("batch:unreadable", f"{os.path.basename(path)}: {e}")
    except Exception as e:  # a reader's bug is still only this file's problem
        return _finding("batch:unreadable", f"{os.path.basename(path)}: internal error {type(e).__name__}: {e}")
    module = _SETUP["module"]
    name = game.module_metadata.get("name")
    if name and _bare_name(name) != _bare_name(module.name):
        return _finding("batch:foreign", f"{os.path.basename(path)}: a file of module {name!r}, not {module.name!r}")
    return game.is_log


def judge(game: Game, out_dir: str) -> dict[str, Any]:
    """The summary row of one game (plain data, JSON-ready); its report written under out_dir."""
    findings: list[dict[str, Any]] = []
    kept, logs = [], 0
    for path in game.files:
        read = _readable(path)
        findings += [read] if isinstance(read, dict) else []
        kept += [] if isinstance(read, dict) else [path]
        logs += read is True
    common = ["--module", _SETUP["module_path"], "--pack", _SETUP["pack"]]
    verified: dict[str, Any] = {}
    report = report_name(game)
    vp: dict[str, Any] = {}
    turn = None
    if kept:
        # one save alone holds no moves: only check and vp judge it
        code, text, err = _run(["verify", *kept, *common, "--format", "json"]) if logs or len(kept) > 1 else (0, "", "")
        if code in (0, 1) and text:
            verified = json.loads(text)
            findings += verified.get("findings", [])
            _, md, _ = _run(["verify", *kept, *common, "--format", "markdown"])
            target = Path(out_dir, report)
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text(md, encoding="utf-8")
        elif code not in (0, 1):
            findings.append(_finding("batch:not-judged", f"verify: {err.strip() or f'exit status {code}'}"))
        code, text, err = _run(["check", kept[-1], *common, "--format", "json"])
        if code in (0, 1) and text:
            checked = json.loads(text)
            turn = checked.get("turn")
            findings += [{**f, "rule": f["rule"], "from": "check"} for f in checked.get("findings", [])]
        else:
            findings.append(_finding("batch:not-judged", f"check: {err.strip() or f'exit status {code}'}", "warning"))
        code, text, err = _run(["vp", *kept, *common, "--format", "json"])
        if code in (0, 1) and text:
            vp = json.loads(text)
        else:
            findings.append(_finding("batch:not-judged", f"vp: {err.strip() or f'exit status {code}'}", "warning"))
    else:
        findings.append(_finding("batch:not-judged", "no readable save or log of the module"))
    rolls = verified.get("rolls", [])
    players: dict[str, Counter[str]] = {}
    for r in rolls:
        players.setdefault(r["file"], Counter())[r.get("player") or "unknown"] += 1
    who = [players[f].most_common(1)[0][0] if f in players else None for f in game.files]
    prints = [fingerprint(f) for f in game.files]
    links = chain(prints)
    dates = [saved_date(f) for f in game.files]
    counts = Counter(f["severity"] for f in findings)
    return {
        "game": game.name,
        "report": report if verified else None,
        "files": [
            {"path": f, "sha256": p.sha256, "short": p.short, "of": p.of, "link": link, "date": d, "player": w}
            for f, p, link, d, w in zip(game.files, prints, links, dates, who, strict=True)
        ],
        "chain": links[-1] if links else "",
        "last_turn": turn if turn is not None else (vp.get("files") or [{}])[-1].get("turn"),
        "severity": {s: counts.get(s, 0) for s in ("error", "warning", "info")},
        "findings": [f for f in findings if f["severity"] != "info"],  # the info ones are in the report
        "vp": vp.get("total"),
        "level": vp.get("level"),
        "dice": [
            {k: d.get(k) for k in ("player", "name", "rolls", "sides", "p", "test", "reading")}
            for d in verified.get("dice_stats", [])
        ],
        "undone_rolls": sum(1 for r in rolls if r.get("undone_in") is not None),
        "continuity_breaks": sum(1 for f in findings if f["rule"] == "verify:continuity" and f["severity"] != "info"),
        "gaps": gaps(dates, who),
    }
