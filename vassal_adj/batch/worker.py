"""One game of a batch, in a worker process (issue 16).

`start` (the pool's initializer) loads the module and the pack once per process; they stay held
(held.py), with the pack's terrain map and the board's hex index, for every game. `judge` then
works out, in this process, what a referee would type for the game, reading each file once:
``verify`` over its files in order (cli/verify_run.py: judged once, shown as JSON for the summary
and as Markdown for the game's own report), ``check`` on the last file (cli/check.judge_position)
and ``vp`` over them all (cli/vp_count.py), both from the positions verify worked out. A file
that is not a readable save or log, or a save of another module, is a finding of the game
(``batch:unreadable``, ``batch:foreign``, errors) and is left out; a command that fails on the
rest is a finding too (``batch:not-judged``): never the end of the batch.
"""

from __future__ import annotations

import os
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

from vassal_adj.batch.discovery import Game, saved_date
from vassal_adj.batch.evidence import chain, fingerprint, gaps

if TYPE_CHECKING:
    from vassal_adj.cli.verify_run import Verified
    from vassal_adj.savedgame import SavedGame

__all__ = ["judge", "report_name", "start"]

T = TypeVar("T")

_SETUP: dict[str, Any] = {}


def start(module_path: str, pack: str | None) -> None:
    """The pool's initializer: the module and pack, loaded once for all this process's games."""
    from vassal_adj import packs
    from vassal_adj.cli import check, verify_run, vp_count  # noqa: F401  imported now, not within the first game
    from vassal_adj.dataclass_code import install
    from vassal_adj.load import load_module

    install()
    module = load_module(module_path)
    lp = packs.pack_for(pack, module.name, module.version)
    _SETUP.update(module_path=module_path, module=module, pack=pack or str(lp.directory))


def _verify(files: list[str], games: list[SavedGame]) -> tuple[Verified, str] | str:
    """The verification of the files (what `verify FILES` finds) and its Markdown report; else
    why they could not be judged, as `verify` says it."""
    from vassal_adj.cli.verify_run import judge_files, prepare

    def run() -> tuple[Verified, str]:
        how, read, notes = prepare(tuple(files), _SETUP["module_path"], _SETUP["pack"], games=games)
        done = judge_files(tuple(files), read, how, notes, lambda at: None)
        return done, done.text("markdown") + "\n"

    return _guard(run)


def _judged(run: Verified | None) -> Verified | None:
    """`run` when it judged the files with the pack: its positions and histories are then the pack's."""
    return run if run is not None and run.how.lp is not None else None


def _pack(run: Verified | None) -> Any:
    """The pack the positions of `run` were resolved for (position.GamePosition.fits), else the batch's."""
    from vassal_adj import packs

    if (judged := _judged(run)) is not None:
        return judged.how.lp
    module = _SETUP["module"]
    return packs.pack_for(_SETUP["pack"], module.name, module.version)


def _check(path: str, game: SavedGame, run: Verified | None) -> dict[str, Any] | str:
    """What `check FILE --format json` prints of the last file (as data); a log's end from the
    history verify worked out. Else why it could not be checked."""
    from vassal_adj.cli.check import judge_position
    from vassal_adj.load import same_module
    from vassal_adj.position import resolve
    from vassal_adj.report.findings import report_data

    def check() -> dict[str, Any]:
        module, module_path = _SETUP["module"], _SETUP["module_path"]
        notes = same_module(game, module, module_path)
        judged = _judged(run)
        position = judged.positions[-1] if judged is not None else None
        history = judged.histories[-1] if judged is not None and game.is_log else None
        report = judge_position(position or resolve(module, game, _pack(run)), notes, history=history)
        return report_data(report, save=path, module=module_path)

    return _guard(check)


def _vp(files: list[str], games: list[SavedGame], run: Verified | None) -> dict[str, Any] | str:
    """The total and level `vp FILES` counts, from the positions verify worked out when it ran;
    else why they could not be counted."""
    from vassal_adj.cli.vp_conditions import condition_rules
    from vassal_adj.cli.vp_count import IMPL, count_files, tally, victory_rule

    def count() -> dict[str, Any]:
        lp = _pack(run)
        if not condition_rules(lp.pack.rules):
            victory_rule(lp, lp.pack.rules)  # neither points nor conditions: as `vp`, a usage error
        judged = _judged(run)
        c = count_files(
            _SETUP["module"],
            _SETUP["module_path"],
            lp,
            files,
            games,
            replays=judged.replays if judged is not None else None,
            histories=judged.histories if judged is not None else None,
        )
        if not any(r.impl == IMPL and r.enabled for r in c.rules):
            return {"turn": c.file_turns[-1]}  # conditions of victory, no points
        t, _ = tally(c, lp)
        return {"total": t.total, "level": t.level(t.total), "turn": c.file_turns[-1]}

    return _guard(count)


def _guard(work: Callable[[], T]) -> T | str:
    """`work()`, or the error that stopped it in words: one game's problem, never the batch's end."""
    from vassal_adj.cli.error_secrets import safe_message
    from vassal_adj.errors import VassalAdjError

    try:
        return work()
    except VassalAdjError as e:
        return f"error: {safe_message(e)}"
    except Exception as e:  # a bug of the rules is still only this game's problem
        return f"internal error ({type(e).__name__}: {e})"


def report_name(game: Game) -> str:
    """The game's own report, relative to the batch's output folder."""
    safe = "".join(c if c.isalnum() or c in "-_." else "_" for c in game.name)
    return f"games/{safe}.md"


def _finding(rule: str, message: str, severity: str = "error") -> dict[str, Any]:
    return {"rule": rule, "severity": severity, "message": message}


def _readable(path: str) -> SavedGame | dict[str, Any]:
    """A save or log of the batch's module, read; else the finding that leaves it out."""
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
    return game


def judge(game: Game, out_dir: str) -> dict[str, Any]:
    """The summary row of one game (plain data, JSON-ready); its report written under out_dir."""
    findings: list[dict[str, Any]] = []
    kept: list[str] = []
    games: list[SavedGame] = []
    for path in game.files:
        read = _readable(path)
        if isinstance(read, dict):
            findings.append(read)
        else:
            kept.append(path)
            games.append(read)
    verified: dict[str, Any] = {}
    report = report_name(game)
    vp: dict[str, Any] = {}
    turn = None
    if kept:
        run = None
        # one save alone holds no moves: only check and vp judge it
        if len(kept) > 1 or games[0].is_log:
            done = _verify(kept, games)
            if isinstance(done, str):
                findings.append(_finding("batch:not-judged", f"verify: {done}"))
            else:
                run, md = done
                verified = run.data()
                findings += verified["findings"]
                target = Path(out_dir, report)
                target.parent.mkdir(parents=True, exist_ok=True)
                target.write_text(md, encoding="utf-8")
        checked = _check(kept[-1], games[-1], run)
        if isinstance(checked, str):
            findings.append(_finding("batch:not-judged", f"check: {checked}", "warning"))
        else:
            turn = checked.get("turn")
            findings += [{**f, "from": "check"} for f in checked["findings"]]
        counted = _vp(kept, games, run)
        if isinstance(counted, str):
            findings.append(_finding("batch:not-judged", f"vp: {counted}", "warning"))
        else:
            vp = counted
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
        "last_turn": turn if turn is not None else vp.get("turn"),
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
